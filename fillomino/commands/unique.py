"""``fillomino unique``: is the answer unique? Prints the verdict with its evidence."""

from __future__ import annotations

import argparse
import sys

from ..puzzle import cell_name
from .common import (
    add_engine_options,
    add_input,
    add_json,
    add_no_color,
    cap_note,
    engine_kwargs,
    load_puzzle,
    print_json,
)

EXIT = {"unique": 0, "multiple": 1, "none": 1, "unknown": 3}


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "unique",
        help="prove a puzzle has exactly one answer, or show two, or the clues that conflict",
        description="Prove uniqueness with a blocking-clause loop. A stored solution in the input is only a "
        "starting point (CP-SAT checks it in its own model; the verdict never rests on it). Exit 0 unique, "
        "1 multiple or none, 3 unknown (budget ran out), 2 unusable input.",
        epilog="Example: fillomino unique fillomino:3x3:a2b234b --json",
    )
    add_input(p)
    add_json(p)
    add_no_color(p)
    add_engine_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..solvers import uniqueness

    puzzle = load_puzzle(args.input)
    # a stored solution saves CP-SAT its slow half, the search for a first picture
    verdict = uniqueness(puzzle, candidate=puzzle.solution, **engine_kwargs(args))
    if args.json:
        print_json(verdict.to_json())
    else:
        print(describe(puzzle, verdict, use_color(args)))
    return EXIT[verdict.status.value]


def use_color(args: argparse.Namespace) -> bool:
    from ..terminal import use_color as _use_color

    return _use_color(sys.stdout, args.no_color)


def describe(puzzle, verdict, color: bool = False) -> str:
    """The verdict for people: the answer, two answers side by side, or the conflicting clues."""
    from ..terminal import format_board, side_by_side

    status = verdict.status.value
    lines = []
    if status == "unique":
        lines.append(f"unique ({verdict.seconds:.3f} s)")
        lines.append(format_board(puzzle, verdict.solutions[0], color=color))
    elif status == "multiple":
        cells = ", ".join(cell_name(r, c) for r, c in verdict.differ[:12])
        more = f" and {len(verdict.differ) - 12} more" if len(verdict.differ) > 12 else ""
        lines.append(f"multiple: at least two answers, differing in {len(verdict.differ)} cells: {cells}{more}")
        marked = set(verdict.differ)
        lines.append(side_by_side([format_board(puzzle, g, color=color, highlight=marked)
                                   for g in verdict.solutions]))
    elif status == "none":
        clues = ", ".join(f"{puzzle.clue(r, c)} at {cell_name(r, c)}" for r, c in verdict.conflict)
        lines.append(f"none: no answer; these clues already conflict: {clues}")
    else:
        lines.append("unknown: the budget ran out before the question was settled")
    if cap_note(verdict.max_size):
        lines.append(cap_note(verdict.max_size))
    return "\n".join(lines)
