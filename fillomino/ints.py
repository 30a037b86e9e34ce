"""Integer arithmetic the compiled modules can interrupt: Ctrl-C inside a big multiplication.

CPython checks for signals inside the multiplication of big ints (and a pending Ctrl-C makes it fail with
KeyboardInterrupt), while mypyc treats a failed int multiplication as out of memory: compiled, ``a * b`` on big
ints aborts the whole process with "fatal: out of memory" when Ctrl-C lands in it. ``product`` multiplies small
ints natively and hands big ones to ``operator.mul``, whose failure mypyc passes on as the exception it is.
"""

from __future__ import annotations

from operator import mul

SMALL = 1 << 31
"""Operands below this in size multiply to under 2**62, the compiled tagged int's range: no big-int call at all."""


def product(a: int, b: int) -> int:
    """``a * b``, which a Ctrl-C interrupts with KeyboardInterrupt however big the ints are, compiled or not."""
    if -SMALL < a < SMALL and -SMALL < b < SMALL:
        return a * b
    result: int = mul(a, b)
    return result
