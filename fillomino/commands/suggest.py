"""``fillomino suggest``: clues to add (a cell and one solution's value there) that make a grid unique."""

from __future__ import annotations

import argparse

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

EPILOG = """examples:
  fillomino suggest puzzle.txt              the clues to add, the completed puzzle and its solution
  fillomino suggest puzzle.txt --json       {"clues": [[r, c, value], ...], "status": "unique", ...}
  fillomino suggest puzzle.txt --plain      the completed puzzle in the text format, nothing else

Rows and columns are 0-based in JSON, r1c1-style (1-based) in text. Every step is checked by an
incremental uniqueness question, redundant clues are dropped, --tries solutions are tried as the
one to keep (fewest clues win), and the result is confirmed by an independent uniqueness proof. The
search is greedy: no suggested clue can be left out, but a different, smaller set may exist, as
small as 1 clue (nothing closer is proved); "proved_fewest" in JSON says when the count is proved fewest.
Exit 0 when the result is unique (also when no clue was needed), 1 when the grid has no solution,
3 when the budget ran out, 2 on unusable input."""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "suggest",
        help="propose clues that make an ambiguous grid unique",
        description="Propose as few clues as found (values of one solution) that make the grid unique.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input(p)
    add_json(p)
    p.add_argument("--plain", action="store_true", help="print only the completed puzzle (text format)")
    p.add_argument("--tries", type=int, default=4, metavar="N",
                   help="solutions tried as the one to keep; the fewest clues win (default 4)")
    add_no_color(p)
    add_engine_options(p, backend=False)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from ..formats import write_text
    from ..solvers import BudgetExhausted
    from ..suggest import suggest
    from ..terminal import format_board, side_by_side, use_color

    puzzle = load_puzzle(args.input)
    try:
        result = suggest(puzzle, tries=args.tries, **engine_kwargs(args, backend=False))
    except BudgetExhausted:
        if args.json:
            print_json({"clues": None, "solution": None, "questions": None, "proved_fewest": False,
                        "status": "unknown", "max_size": args.max_size})
        else:
            print("unknown: the budget ran out before the suggested clues were settled and verified")
        return 3
    if args.json:
        # a non-unique grid needs at least one clue, so 0 or 1 clue is proved fewest; more is only irreducible
        proved = result.status == "unique" and len(result.clues) <= 1
        print_json({**result.to_json(), "proved_fewest": proved})
    elif args.plain:
        if result.status == "unique":
            sys.stdout.write(write_text(result.puzzle))
        else:
            print("no solution: no clue can make this grid unique")
    elif result.status == "none":
        print("none: the grid has no solution, so no clue can make it unique")
    else:
        if not result.clues:
            print(f"already unique: no clue needed ({result.seconds:.2f} s)")
        else:
            n = len(result.clues)
            added = ", ".join(f"{v} at {cell_name(r, c)}" for r, c, v in result.clues)
            print(f"unique with {n} more clue{'' if n == 1 else 's'} (verified, {result.seconds:.2f} s): {added}")
            if n > 1:  # irreducible, not proved fewest: say so rather than let it pass for the minimum
                print(f"none of these can be left out, but fewer may do: the search is greedy, so the fewest that "
                      f"make it unique is proved only to lie between 1 and {n} (--tries N tries more solutions)")
        marked = {(r, c) for r, c, _ in result.clues}
        color = use_color(sys.stdout, args.no_color)
        print(side_by_side([format_board(result.puzzle, highlight=marked, color=color),
                            format_board(result.puzzle, result.solution, highlight=marked, color=color)]))
    if not args.json and not args.plain and cap_note(args.max_size):
        print(cap_note(args.max_size))
    return 1 if result.status == "none" else 0
