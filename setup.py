"""Build hook: with FILLOMINO_COMPILE=1, the rater's hot modules compiled to C extensions with mypyc.

pyproject.toml holds the package's metadata; this file only adds the compiled modules. The .py files ship
either way. Compiling is asked for, not the default, because it adds about a minute to an install (gcc -O3 on
mypyc's C; lower levels lose most of the gain): the README's first command must answer within a minute. A build
asked to compile that cannot (no C compiler, no Python headers) installs the same package in pure Python, after
one warning; a build not asked to compile removes the compiled modules an earlier editable install left beside
the sources, so that edits to them take effect.
"""

from __future__ import annotations

import glob
import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED = [
    "fillomino/grid.py",
    "fillomino/ints.py",
    "fillomino/logic/candidates.py",
    "fillomino/logic/techniques.py",
    "fillomino/logic/solver.py",
    "fillomino/logic/steps.py",
    "fillomino/logic/rating.py",
    "fillomino/regions.py",
    "fillomino/frontier.py",
    "fillomino/transfer.py",
]
"""The modules mypyc compiles (all of them together: they call each other natively): the rater's and the
counters' (1.2-3x less CPU for the region search, the frontier sweep and the transfer matrix). A module joins
once it is mypy-clean and its tests pass against the compiled build."""

MYPY_OPTIONS = ["--follow-imports=silent", "--ignore-missing-imports"]
"""Only the compiled modules must be mypy-clean; the modules they import are read for their types."""

BUILDS = {"build_ext", "build", "bdist_wheel", "editable_wheel", "develop", "install"}
"""The setup.py commands that build code: the metadata steps before them need no compiling (it takes ~30 s)."""


def _warn(why: str) -> None:
    why = why if len(why) <= 300 else why[:300] + "..."  # a compiler's command line runs to pages
    print(f"WARNING: fillomino is installed as pure Python (the rater runs slower): {why}", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """build_ext that gives up on every compiled module, not the install, when one fails to build (a module
    whose shared library is missing would not import, so it is all or none)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # compilers fail in many ways; any of them means "pure Python"
            for path in self.get_outputs():
                if os.path.exists(path):
                    os.remove(path)
            _warn(f"compiling with mypyc failed ({type(error).__name__}: {error})")


def _drop_in_place_builds() -> None:
    """Remove compiled modules an earlier editable install left beside the sources: Python imports a .so before
    the .py beside it, so they would hide every edit."""
    for path in [*COMPILED, "fillomino__mypyc.py"]:
        for built in glob.glob(path[:-len(".py")] + ".*.so"):
            os.remove(built)


def ext_modules() -> list:
    if not BUILDS & set(sys.argv[1:]):
        return []
    if os.environ.get("FILLOMINO_COMPILE", "") in ("", "0"):
        _drop_in_place_builds()
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as error:
        _warn(f"mypyc is not available ({error})")
        return []
    try:
        return mypycify([*MYPY_OPTIONS, *COMPILED], opt_level="3", group_name="fillomino")
    except Exception as error:  # a type error in a compiled module stops mypyc: keep the package installable
        _warn(f"mypyc refused the modules ({type(error).__name__}: {error})")
        return []
    except SystemExit as error:  # mypyc reports type errors by exiting
        _warn(f"mypyc refused the modules (exit {error.code})")
        return []


setup(ext_modules=ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
