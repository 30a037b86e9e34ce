"""``fillomino check``: is an answer a solution of the puzzle? Exit 0 yes, 1 no (rules named), 2 unusable."""

from __future__ import annotations

import argparse

from ..check import check_answer
from ..formats import read_answer
from ..puzzle import FillominoError
from .common import add_input, add_json, load_puzzle, print_json

EPILOG = """examples:
  fillomino check fillomino:3x3:a2b234b 423/423/443
  fillomino check puzzle.txt answer.txt --json
  fillomino check puzzle.txt            (checks the puzzle's own solution: block)

An answer is rows of numbers ('.' unmarked, '0' empty), separated by newlines or '/', space-separated
when any number has two digits; or a text with a solution: block; or JSON rows. A printed cell left
unmarked counts as its clue. Exit code: 0 solved, 1 not solved, 2 unusable input."""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "check",
        help="check an answer against the rules (exit 0 valid, 1 invalid)",
        description="Check an answer: R1 every group's size is its number, R2 every cell holds a positive "
        "number, R3 printed clues are kept. Lists every violation with 1-based (row,column).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input(p, "puzzle")
    p.add_argument(
        "answer",
        metavar="ANSWER",
        nargs="?",
        help="a file, '-' for stdin, or the rows inline like 423/423/443 (default: the puzzle's solution: block)",
    )
    add_json(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.puzzle == "-" and args.answer == "-":
        raise FillominoError("the puzzle and the answer cannot both be read from stdin ('-'): give one as a file")
    puzzle = load_puzzle(args.puzzle)
    if args.answer is None:
        if puzzle.solution is None:
            raise FillominoError("no ANSWER given and the puzzle has no solution: block to check")
        answer = puzzle.solution
    else:
        answer = read_answer(args.answer, puzzle)
    violations = check_answer(puzzle, answer)
    if args.json:
        print_json({"valid": not violations, "violations": [v.to_json() for v in violations]},
                   status="invalid" if violations else "valid")
    elif not violations:
        print(f"valid: the answer solves the {puzzle.shape} puzzle")
    else:
        rules = sorted({v.rule for v in violations})
        print(f"invalid: {len(violations)} violation{'s' * (len(violations) != 1)} ({', '.join(rules)})")
        for v in violations:
            print(f"  {v.describe()}")
    return 1 if violations else 0
