"""``fillomino convert``: print a puzzle in another format (text, JSON, ID, puzz.link URL)."""

from __future__ import annotations

import argparse
import sys

from ..formats import FORMATS, write_puzzle
from .common import add_input, add_json, load_puzzle, print_json

EPILOG = """examples:
  fillomino convert fillomino:3x3:a2b234b --to text
  fillomino convert puzzle.txt --to url
  fillomino convert 'https://puzz.link/p?fillomino/3/3/g2h234h' --to id

ID and URL carry only the clues; text and JSON also keep the solution and header lines."""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "convert",
        help="print a puzzle as text, JSON, fillomino:RxC:... ID or puzz.link URL",
        description="Read a puzzle in any supported format (auto-detected) and print it in another.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input(p)
    p.add_argument("--to", choices=FORMATS, default="text", help="output format (default: text)")
    add_json(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    puzzle = load_puzzle(args.input)
    out = write_puzzle(puzzle, args.to)
    if args.json:
        print_json({"format": args.to, "shape": puzzle.shape, "output": out}, status="converted")
    else:
        sys.stdout.write(out if out.endswith("\n") else out + "\n")
    return 0
