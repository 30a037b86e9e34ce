"""``fillomino render``: draw a puzzle, its solution, its ambiguity or two differing solutions as SVG or PNG,
or as a box-drawing board in the terminal when no output file is given."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..puzzle import FillominoError, Grid, Puzzle
from .common import (
    add_engine_options,
    add_input,
    add_json,
    add_no_color,
    cap_note,
    check_image_output,
    engine_kwargs,
    load_puzzle,
    print_json,
    write_output,
)

DEFAULT_CELL_SIZE = 40  # fillomino.render.DEFAULT_CELL_SIZE, not imported here to keep start-up light
MAX_CELL_SIZE = 400
"""Beyond this a 100x100 picture runs into gigabytes: a request that large is a typo."""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "render",
        help="draw a puzzle (and its solution or ambiguity) as SVG, PNG or a terminal board",
        description="Draw a puzzle as a puzzle book prints it: bold region borders, printed clues bold, "
        "filled-in numbers grey. Without -o the board is printed in the terminal.",
        epilog="Example: fillomino render fillomino:3x3:a2b234b --solution -o example.svg",
    )
    add_input(p)
    p.add_argument("-o", "--output", metavar="FILE", help="write FILE.svg or FILE.png (default: print to terminal)")
    show = p.add_mutually_exclusive_group()
    show.add_argument("--solution", action="store_true",
                      help="draw the stored solution, or solve the puzzle when none is stored")
    show.add_argument("--diff", action="store_true",
                      help="for a puzzle with several solutions: draw two side by side, differing cells tinted")
    p.add_argument("--ambiguity", action="store_true",
                   help="shade loose cells (several possible values) and write their possible values")
    p.add_argument("--cell-size", type=int, default=DEFAULT_CELL_SIZE, metavar="PX",
                   help=f"cell size in pixels, 4 to {MAX_CELL_SIZE} (default: {DEFAULT_CELL_SIZE})")
    p.add_argument("--force", action="store_true", help="overwrite an existing output file")
    add_no_color(p)
    add_json(p)
    add_engine_options(p)
    p.set_defaults(run=run)


def _solution(puzzle: Puzzle, args: argparse.Namespace, warnings: list[str]) -> Grid:
    """The stored solution, or the engine's; a puzzle with several solutions gets one drawn and a warning."""
    if puzzle.solution is not None:
        return puzzle.solution
    from ..solvers import Status, uniqueness

    verdict = uniqueness(puzzle, **engine_kwargs(args))
    if verdict.status is Status.NONE:
        raise FillominoError("the puzzle has no solution: nothing to draw with --solution")
    if verdict.status is Status.MULTIPLE:
        warnings.append("the puzzle has several solutions: this draws one of them (--diff draws two side by side)")
    elif verdict.status is Status.UNKNOWN:
        raise _BudgetSpent("the budget ran out before a solution was found (raise --budget)")
    return verdict.solutions[0]


class _BudgetSpent(Exception):
    """The engine's budget ran out: nothing is drawn, and the command exits 3 like every other."""


def _possible(puzzle: Puzzle, args: argparse.Namespace) -> list[list[set[int]]]:
    from ..possible import possible
    from ..solvers import Budget, BudgetExhausted

    try:
        cells = possible(puzzle, max_size=args.max_size, budget=Budget.parse(args.budget)).cells
    except BudgetExhausted:
        raise _BudgetSpent("the budget ran out before every cell's values were known (raise --budget)") from None
    if any(not values for row in cells for values in row):
        raise FillominoError("the puzzle has no solution: no cell has a possible value to draw")
    return cells


def _two_solutions(puzzle: Puzzle, args: argparse.Namespace) -> tuple[Grid, Grid]:
    from ..solvers import Status, uniqueness

    verdict = uniqueness(puzzle, **engine_kwargs(args))
    if verdict.status == Status.MULTIPLE:
        return verdict.solutions[0], verdict.solutions[1]
    if verdict.status == Status.UNKNOWN:
        raise _BudgetSpent("the budget ran out before two solutions were found (raise --budget)")
    reasons = {
        Status.UNIQUE: "the puzzle has exactly one solution, so there is nothing to compare (use --solution)",
        Status.NONE: "the puzzle has no solution, so there is nothing to compare",
    }
    raise FillominoError(f"--diff: {reasons[verdict.status]}")


def run(args: argparse.Namespace) -> int:
    warnings: list[str] = []
    try:
        result = _draw(args, warnings)
    except _BudgetSpent as exc:
        if args.json:
            print_json({"status": "unknown", "output": args.output, "drawn": None, "shape": None, "bytes": None,
                        "warnings": [str(exc)]})
        else:
            print(f"unknown: {exc}", file=sys.stderr)
        return 3
    for line in warnings:
        print(f"warning: {line}", file=sys.stderr)
    if not args.json and result["drawn"] != "puzzle" and cap_note(args.max_size):
        print(cap_note(args.max_size), file=sys.stderr)  # stderr: stdout may carry the board itself
    if args.json:
        print_json(result | {"status": "drawn", "warnings": warnings})
    return 0


def _draw(args: argparse.Namespace, warnings: list[str]) -> dict:
    """Draw what the options ask for; the --json answer (where it went, what was drawn)."""
    from .. import render
    from ..terminal import format_board, side_by_side, use_color

    if args.diff and args.ambiguity:
        raise FillominoError("--diff and --ambiguity cannot be combined: choose one")
    if args.cell_size < 4:
        raise FillominoError(f"--cell-size {args.cell_size} is too small: use at least 4")
    if args.cell_size > MAX_CELL_SIZE:
        raise FillominoError(f"--cell-size {args.cell_size} is too large: use at most {MAX_CELL_SIZE}")
    out = Path(args.output) if args.output else None
    suffix = check_image_output("-o", str(out), args.force) if out else None
    puzzle = load_puzzle(args.input)

    drawn = "diff" if args.diff else "solution" if args.solution else "ambiguity" if args.ambiguity else "puzzle"
    result = {"output": str(out) if out else None, "drawn": drawn, "shape": puzzle.shape, "max_size": args.max_size}
    if args.diff:
        a, b = _two_solutions(puzzle, args)
        if out is None:
            if args.json:
                return result | {"svg": render.render_diff_svg(puzzle, a, b, cell_size=args.cell_size)}
            differ = {(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if a[r][c] != b[r][c]}
            color = use_color(sys.stdout, args.no_color)
            print(side_by_side([format_board(puzzle, g, color=color, highlight=differ) for g in (a, b)]))
            return result
        data: str | bytes = (render.render_diff_svg if suffix == ".svg" else render.render_diff_png)(
            puzzle, a, b, cell_size=args.cell_size
        )
    else:
        answer = _solution(puzzle, args, warnings) if args.solution else None
        possible = _possible(puzzle, args) if args.ambiguity else None
        if out is None:
            if args.json:
                return result | {"svg": render.render_svg(puzzle, answer, possible=possible, cell_size=args.cell_size)}
            print(format_board(puzzle, answer, color=use_color(sys.stdout, args.no_color), possible=possible))
            return result
        draw = render.render_svg if suffix == ".svg" else render.render_png
        data = draw(puzzle, answer, possible=possible, cell_size=args.cell_size)

    assert out is not None
    written = write_output(out, data, args.force)
    if not args.json:
        print(f"wrote {out}", file=sys.stderr)
    return result | {"bytes": written}
