"""The ``fillomino`` command: a thin layer over the library.

Each subcommand lives in ``fillomino/commands/<name>.py`` with ``register(subparsers)``; this module
only builds the parser, runs the chosen command and turns errors into one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Sequence

from .puzzle import FillominoError

COMMANDS = (
    "convert",
    "check",
    "solve",
    "unique",
    "crosscheck",
    "count",
    "ambiguity",
    "suggest",
    "audit",
    "generate",
    "certify",
    "render",
    "serve",
    "rate",
    "hint",
)

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line and exit code 2."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # '-1s' is a (refused) budget, not an unknown option: let values like it reach their option's parser.
        self._negative_number_matcher = re.compile(r"^-\d+[a-z]?$|^-\d*\.\d+[a-z]?$", re.IGNORECASE)

    def error(self, message: str) -> None:  # type: ignore[override]
        # main() already says "fillomino: error:": name only the subcommand, if any, so nothing is said twice.
        where = self.prog.removeprefix("fillomino").strip()
        raise FillominoError(f"{where}: {message} (see --help)" if where else f"{message} (see --help)")


class _Version(argparse.Action):
    """--version, looked up only when asked for (importlib.metadata costs a tenth of a second to import)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            text = version("fillomino")
        except PackageNotFoundError:  # run from a checkout that was never installed
            text = "(not installed)"
        print(f"fillomino {text}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="fillomino",
        description="Exact Fillomino engine: solve, prove uniqueness, count, generate, certify.",
        epilog="Example: fillomino unique fillomino:3x3:a2b234b",
    )
    parser.add_argument("--version", action=_Version, nargs=0, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        try:
            module = importlib.import_module(f".commands.{name}", __package__)
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.endswith(f"commands.{name}"):
                continue  # command not built yet
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "run", None):
            parser.print_help()
            return EXIT_USAGE
        from .commands.common import begin_command

        begin_command(args)
        return int(args.run(args) or 0)
    except FillominoError as exc:
        print(f"fillomino: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("fillomino: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:
        from .interrupts import is_interrupt

        if not is_interrupt(exc):
            raise
        print("fillomino: interrupted", file=sys.stderr)
        return 130


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    entry()
