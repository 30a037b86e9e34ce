"""``fillomino count``: how many solutions (or cuts) a board has, exactly, or at least N when stopped early."""

from __future__ import annotations

import argparse
import json
import re
import sys
import time

from ..puzzle import FillominoError, Puzzle, plural
from .common import add_engine_options, add_json, add_quiet, load_puzzle, print_json

EPILOG = """examples:
  fillomino count fillomino:3x3:a2b234b          exactly 1 solution
  fillomino count --empty 4x4                    exactly 259728 solutions
  fillomino count --empty 4x4 --cuts             exactly 1691690 cuts (rule 3 dropped)
  fillomino count puzzle.txt --limit 100         stops at 100: "at least 100"
  fillomino count --empty 3x3 --list --limit 5   prints the first 5 solutions as found

A cut is a partition of the grid into connected regions, each labelled by its size; a solution
(picture) is a cut whose touching regions differ in size. Methods: regions (lays whole regions,
counts the parts they cut off once each), frontier (a sweep laying clued regions whole, the
clue-free pockets they leave counted once closed), enumerate (one by one on the CNF engine), transfer
(row-by-row dynamic program, narrow boards), ganak (model counter on a complete CNF, needs
pip install 'fillomino[count]'); auto takes transfer for a clue-free board at most 6 wide and
regions for everything else (by the board, never by the clock).
Exit 0 when counted (or stopped at --limit), 3 when --budget ran out, 130 on Ctrl-C."""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "count",
        help="count solutions (or cuts) exactly",
        description="Count the solutions of a puzzle exactly (Python ints, any size), or its cuts with --cuts.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("input", metavar="INPUT", nargs="?", help="the puzzle (file, '-', text, ID or URL)")
    p.add_argument("--empty", metavar="RxC", help="count an empty R x C board instead of INPUT")
    p.add_argument("--cuts", action="store_true", help="count cuts (partitions into regions), not solutions")
    p.add_argument("--limit", type=int, metavar="N", help='stop at N and report "at least N"')
    p.add_argument(
        "--method",
        choices=("auto", "regions", "frontier", "enumerate", "transfer", "ganak"),
        default="auto",
        help="counting method (default: auto)",
    )
    p.add_argument("--list", action="store_true", help="print each solution as it is found")
    p.add_argument("--memory", metavar="SIZE", default="auto",
                   help="once the count has taken this much memory (8G, 512M; 'none': no limit) the region search "
                   "trims its caches and goes on: the same count, found more slowly; a quarter past it the count "
                   "stops, exit 3 (default: half the machine's memory)")
    add_engine_options(p, backend=False)
    add_json(p)
    add_quiet(p)
    p.set_defaults(run=run)


def board_from_args(args: argparse.Namespace) -> Puzzle:
    """The puzzle named by INPUT or --empty RxC (exactly one of them)."""
    if args.empty and args.input:
        raise FillominoError("give either INPUT or --empty RxC, not both")
    if args.empty:
        m = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", args.empty)
        if not m:
            raise FillominoError(f"--empty {args.empty!r} is not a shape like 4x4")
        return Puzzle.empty(int(m.group(1)), int(m.group(2)))
    if not args.input:
        raise FillominoError("count needs INPUT (a puzzle) or --empty RxC")
    return load_puzzle(args.input)


def run(args: argparse.Namespace) -> int:
    from ..count import CountInterrupted, count
    from ..solvers import Budget
    from .common import seconds_budget

    puzzle = board_from_args(args)
    budget = Budget(seconds=seconds_budget(args.budget))  # a conflict budget would be silently ignored
    args.memory = _memory(args.memory)
    if args.list:
        return _list(puzzle, args, budget)
    try:
        result = count(
            puzzle,
            cuts=args.cuts,
            limit=args.limit,
            max_size=args.max_size,
            method=args.method,
            budget=budget,
            bar=not args.quiet,
            memory=args.memory,
        )
    except CountInterrupted as stop:
        _report(stop.result, args, interrupted=True)
        return 130
    _report(result, args)
    return _exit_code(result, args)


def _memory(text: str) -> int | None | str:
    """--memory as bytes, None (no limit) or "auto"."""
    from ..memory import parse_size

    return "auto" if text.strip().lower() == "auto" else parse_size(text)


def _exit_code(result, args: argparse.Namespace) -> int:
    """0 when counted or stopped at --limit; 3 when the budget ran out first (as the other commands do)."""
    if result.exact or (args.limit is not None and result.count >= args.limit):
        return 0
    return 3


def _report(result, args: argparse.Namespace, interrupted: bool = False) -> None:
    if interrupted:  # the one line every command gives on Ctrl-C; the partial count still goes to stdout
        print(f"fillomino: interrupted: {plural(result.count, 'solution')} found so far (a lower bound)",
              file=sys.stderr)
    if args.json:
        print_json(result.to_json())
        return
    why = ""
    if interrupted:
        why = " (interrupted)"
    elif result.out_of_memory:
        why = " (memory limit reached: see --memory)"
    elif not result.exact and (args.limit is None or result.count < args.limit):
        why = " (budget ran out)"
    elif not result.exact:
        why = " (stopped at --limit)"
    trimmed = f", caches trimmed {plural(result.trims, 'time')} at the memory limit" if result.trims else ""
    print(f"{result.describe()}{why}  [{result.method}, {result.seconds:.2f} s{trimmed}]")


def _list(puzzle: Puzzle, args: argparse.Namespace, budget) -> int:
    """Stream solutions (text grids separated by blank lines, or JSON lines), then the count."""
    from ..count import CountResult, OutOfTime, iter_solutions, region_sizes
    from ..formats import format_grid
    from ..memory import OutOfMemory

    if args.method not in ("auto", "regions", "enumerate"):
        raise FillominoError("--list enumerates solutions one by one: use it with --method auto, regions or enumerate")
    method = "enumerate" if args.method == "enumerate" else "regions"
    if args.limit is not None and args.limit < 1:
        raise FillominoError(f"--limit must be at least 1, got {args.limit}")
    start = time.monotonic()
    deadline = None if budget.seconds is None else start + budget.seconds
    found, exact, code, out_of_memory = 0, True, 0, False
    it = iter_solutions(puzzle, cuts=args.cuts, max_size=args.max_size, deadline=deadline, method=method,
                        memory=args.memory)
    try:
        for grid in it:
            found += 1
            if args.json:
                if args.cuts:
                    labels = region_sizes([v for row in grid for v in row])
                    cols = puzzle.cols
                    rows = [labels[i : i + cols] for i in range(0, len(labels), cols)]
                    sys.stdout.write(json.dumps({"regions": [list(r) for r in grid], "labels": rows}) + "\n")
                else:
                    sys.stdout.write(json.dumps({"solution": [list(r) for r in grid]}) + "\n")  # one write a line
            else:
                if found > 1:
                    sys.stdout.write("\n")
                sys.stdout.write(format_grid(grid))
            sys.stdout.flush()
            if args.limit is not None and found >= args.limit:
                exact = False
                break
    except OutOfTime:
        exact = False
    except OutOfMemory:
        exact, out_of_memory = False, True
    except KeyboardInterrupt:
        exact, code = False, 130
    finally:
        it.close()
    result = CountResult(found, exact, args.cuts, args.max_size, method, time.monotonic() - start, code == 130,
                         out_of_memory=out_of_memory)
    if not args.json and found:
        sys.stdout.write("\n")
    _report(result, args, interrupted=code == 130)
    return code or _exit_code(result, args)
