"""``fillomino solve``: print one answer of a puzzle."""

from __future__ import annotations

import argparse
import sys
import time

from ..puzzle import plural
from .common import (
    add_engine_options,
    add_input,
    add_json,
    add_no_color,
    cap_note,
    engine_kwargs,
    load_puzzle,
    print_json,
    seconds_budget,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "solve",
        help="print an answer of a puzzle",
        description="Find an answer (one solution; use 'unique' to know whether it is the only one). "
        "Exit 0 when solved, 1 when there is no solution, 3 when the budget ran out, 2 on unusable input.",
        epilog="Example: fillomino solve fillomino:3x3:a2b234b --plain",
    )
    add_input(p)
    add_json(p)
    p.add_argument("--plain", action="store_true", help="print the answer as digit rows (the answer format)")
    add_no_color(p)
    p.add_argument("--logic", action="store_true",
                   help="solve like a person: the logical solver's whole path, step by step (see 'rate')")
    add_engine_options(p)
    p.set_defaults(run=run)


def _run_logic(args: argparse.Namespace, puzzle) -> int:
    from ..logic import rate
    from ..logic.candidates import cell_name
    from ..terminal import format_board, use_color

    budget = seconds_budget(args.budget)
    rating = rate(puzzle, budget=budget)
    code = 0 if rating.solved else 3 if rating.state == "budget" else 1  # as rate: a spent budget is 3
    if args.json:
        print_json(rating.to_json(steps=True), status=rating.state)
        return code
    for k, step in enumerate(rating.steps, 1):
        cells = ", ".join(cell_name(c, puzzle.cols) for c in step.cells)
        print(f"{k:4}. [{step.level}] {step.technique} ({cells}): {step.sentence}")
    answer = None
    if rating.solved:
        answer = tuple(tuple(cell[0] for cell in row) for row in rating.final)
        print(format_board(puzzle, answer, color=use_color(sys.stdout, args.no_color)))
    print(f"{rating.state}: level {rating.level}, score {rating.score}, {plural(len(rating.steps), 'step')}, "
          f"{rating.open_cells} cells open, {rating.seconds:.3f} s")
    return code


def run(args: argparse.Namespace) -> int:
    from ..formats import format_grid
    from ..solvers import BudgetExhausted, solve
    from ..terminal import format_board, use_color

    puzzle = load_puzzle(args.input)
    if args.logic:
        return _run_logic(args, puzzle)
    kwargs = engine_kwargs(args)
    started = time.perf_counter()
    try:
        answer = solve(puzzle, **kwargs)
        status = "solved" if answer is not None else "none"
    except BudgetExhausted:
        answer, status = None, "unknown"
    seconds = time.perf_counter() - started
    if args.json:
        print_json({"status": status, "solution": [list(r) for r in answer] if answer else None,
                    "max_size": args.max_size, "seconds": round(seconds, 6), "backend": args.backend})
    elif answer is not None:
        if args.plain:
            print(format_grid(answer), end="" if format_grid(answer).endswith("\n") else "\n")
        else:
            print(format_board(puzzle, answer, color=use_color(sys.stdout, args.no_color)))
    else:
        print("no solution" if status == "none" else "unknown: the budget ran out")
    if not args.json and cap_note(args.max_size):
        # --plain output is an answer file: digit rows only, so the note goes beside it.
        print(cap_note(args.max_size), file=sys.stderr if args.plain else sys.stdout)
    return {"solved": 0, "none": 1, "unknown": 3}[status]
