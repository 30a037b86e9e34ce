"""Ctrl-C, however it arrives: Python's KeyboardInterrupt, or python-sat's C code raising its own error."""

from __future__ import annotations


def is_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` is the user's Ctrl-C (pysat's solvers turn SIGINT into ``pysolvers.error``)."""
    if isinstance(exc, KeyboardInterrupt):
        return True
    return type(exc).__module__ == "pysolvers" and "keyboard interrupt" in str(exc).lower()
