"""``fillomino ambiguity``: where is a grid ambiguous? Every value each cell takes across all solutions."""

from __future__ import annotations

import argparse
import json
import sys

from ..puzzle import FillominoError, Puzzle, cell_name
from .common import (
    add_engine_options,
    add_input,
    add_json,
    add_no_color,
    add_quiet,
    cap_note,
    engine_kwargs,
    load_puzzle,
    print_json,
)

EPILOG = """examples:
  fillomino ambiguity puzzle.txt                  the board: forced cells as numbers, loose cells as ?
  fillomino ambiguity puzzle.txt --json           {"cells": [[[values...], ...], ...], "forced": ..., ...}
  fillomino ambiguity puzzle.txt --candidates cands.json
                                                  only solutions inside a rater's candidate grid
  fillomino ambiguity puzzle.txt --loose-only     which cells are loose, sooner: each with two or more of its
                                                  values, not proved to be all of them

Exact for any region size (unless --max-size). Exit 0 when answered (also for a grid with no
solution: every cell then has no value), 3 when the budget ran out, 2 on unusable input."""

CANDIDATES_HELP = ("a rater's candidate grid, JSON rows of per-cell value lists (null = any value, a bare "
                   "number = that value): a file, '-' or the JSON itself; answers count only solutions inside it")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "ambiguity",
        help="every value each cell takes across all solutions (forced and loose cells)",
        description="For every cell, the set of values it takes across all solutions, exactly.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input(p)
    p.add_argument("--candidates", metavar="GRID", help=CANDIDATES_HELP)
    p.add_argument("--loose-only", action="store_true",
                   help="settle which cells are loose (exactly) without proving a loose cell has no further "
                        "value: faster; a loose cell lists the values seen, and --json says values_complete")
    add_json(p)
    add_no_color(p)
    add_engine_options(p, backend=False)
    add_quiet(p)
    p.set_defaults(run=run)


def read_source(source: str, kind: str) -> str:
    """The text of a file, '-' (stdin) or inline content."""
    from ..formats import _read_source

    loaded = _read_source(source, kind)
    return source if loaded is None else loaded[0]


def load_candidates(source: str | None, puzzle: Puzzle) -> list | None:
    """The --candidates grid as parsed JSON rows (checked against the puzzle's shape), or None."""
    if source is None:
        return None
    from ..possible import parse_candidates

    text = read_source(source, "candidate grid")
    try:
        grid = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FillominoError(f"--candidates: not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    if isinstance(grid, dict) and "cells" in grid:
        grid = grid["cells"]  # the output of `ambiguity --json` reads back as a candidate grid
    try:
        parse_candidates(puzzle, grid)
    except FillominoError as exc:
        raise FillominoError(f"--candidates: {exc}") from None
    return grid


def run(args: argparse.Namespace) -> int:
    from ..possible import possible
    from ..solvers import BudgetExhausted

    puzzle = load_puzzle(args.input)
    if args.input == "-" and args.candidates == "-":
        raise FillominoError("INPUT and --candidates cannot both be read from stdin")
    candidates = load_candidates(args.candidates, puzzle)
    from ..progress import Progress

    try:
        with Progress(puzzle.size, "settling cells", unit="cell", quiet=args.quiet or puzzle.size < 100) as bar:
            result = possible(puzzle, candidates=candidates, **engine_kwargs(args, backend=False),
                              progress=lambda done, _total: bar.advance(done - bar.done), loose_only=args.loose_only)
    except BudgetExhausted:
        if args.json:
            print_json({"status": "unknown", "cells": None, "forced": None, "loose": None, "solutions_seen": None,
                        "solver_calls": None, "values_complete": None, "max_size": args.max_size})
        else:
            print("unknown: the budget ran out before every cell's values were settled")
        return 3
    if args.json:
        print_json({**result.to_json(), "status": status(result), "solver_calls": result.solver_calls,
                    "seconds": round(result.seconds, 6)})
    else:
        print(describe(puzzle, result, use_color(args)))
    return 0


def status(result) -> str:
    return "none" if not result.solvable else ("unique" if result.unique else "multiple")


def use_color(args: argparse.Namespace) -> bool:
    from ..terminal import use_color as _use_color

    return _use_color(sys.stdout, args.no_color)


def describe(puzzle: Puzzle, result, color: bool = False) -> str:
    """Headline, the board (forced values shown, loose cells marked), a legend and the loose cells' values."""
    from ..terminal import format_board

    seen = result.solutions_seen
    plural = "" if seen == 1 else "s"
    cost = f"({seen} solution{plural} seen, {result.solver_calls} solver calls, {result.seconds:.2f} s)"
    if not result.solvable:
        lines = [f"none: no solution, so no cell has a possible value {cost}"]
    elif result.unique:
        lines = [f"unique: every cell is forced {cost}", format_board(puzzle, possible=result, color=color)]
    else:
        lines = [
            f"ambiguous: {result.loose} loose cells, {result.forced} forced {cost}",
            format_board(puzzle, possible=result, color=color),
            "legend: a number = forced (the value in every solution); "
            + ("cyan ?" if color else "?")
            + " = loose (several values, listed below)",
            "loose cells (row, column: values):" if result.values_complete
            else "loose cells (row, column: values seen; --loose-only did not look for more):",
        ]
        loose = result.loose_cells()
        width = max(len(cell_name(r, c)) for r, c, _ in loose)
        lines += [f"  {cell_name(r, c):<{width}}  {' '.join(map(str, vs))}" for r, c, vs in loose]
    if cap_note(result.max_size):
        lines.append(cap_note(result.max_size))
    return "\n".join(lines)
