"""``fillomino count``: how many solutions (or cuts) a board has, exactly, or at least N when stopped early."""

from __future__ import annotations

import argparse
import re
import sys
import time

from ..puzzle import FillominoError, Puzzle
from .common import add_engine_options, add_json, load_puzzle, print_json

EPILOG = """examples:
  fillomino count fillomino:3x3:a2b234b          exactly 1 solution
  fillomino count --empty 4x4                    exactly 259728 solutions
  fillomino count --empty 4x4 --cuts             exactly 1691690 cuts (rule 3 dropped)
  fillomino count puzzle.txt --limit 100         stops at 100: "at least 100"
  fillomino count --empty 3x3 --list --limit 5   prints the first 5 solutions as found

A cut is a partition of the grid into connected regions, each labelled by its size; a solution
(picture) is a cut whose touching regions differ in size. Methods: enumerate (one by one),
transfer (row-by-row dynamic program, narrow boards), ganak (model counter on a complete CNF,
needs pip install 'fillomino[count]'); auto enumerates up to 1000 and then switches.
Ctrl-C prints the count so far as "at least N" and exits 130."""


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
        choices=("auto", "enumerate", "transfer", "ganak"),
        default="auto",
        help="counting method (default: auto)",
    )
    p.add_argument("--list", action="store_true", help="print each solution as it is found")
    add_engine_options(p, backend=False)
    add_json(p)
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


class _Status:
    """A one-line progress report on stderr, only on a terminal and only after the first second."""

    def __init__(self) -> None:
        self.start = time.monotonic()
        self.shown = False
        self.tty = sys.stderr.isatty()

    def __call__(self, text: str) -> None:
        if self.tty and time.monotonic() - self.start > 1.0:
            sys.stderr.write(f"\r\x1b[K{text} ({time.monotonic() - self.start:.0f} s)")
            sys.stderr.flush()
            self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False


def run(args: argparse.Namespace) -> int:
    from ..count import CountInterrupted, count
    from ..solvers import Budget

    puzzle = board_from_args(args)
    budget = Budget.parse(args.budget)
    status = _Status()
    try:
        if args.list:
            return _list(puzzle, args, budget, status)
        result = count(
            puzzle,
            cuts=args.cuts,
            limit=args.limit,
            max_size=args.max_size,
            method=args.method,
            budget=budget,
            progress=status,
        )
    except CountInterrupted as stop:
        status.clear()
        _report(stop.result, args, interrupted=True)
        return 130
    finally:
        status.clear()
    _report(result, args)
    return 0


def _report(result, args: argparse.Namespace, interrupted: bool = False) -> None:
    if args.json:
        print_json(result.to_json())
        return
    why = ""
    if interrupted:
        why = " (interrupted)"
    elif not result.exact and (args.limit is None or result.count < args.limit):
        why = " (budget ran out)"
    elif not result.exact:
        why = " (stopped at --limit)"
    print(f"{result.describe()}{why}  [{result.method}, {result.seconds:.2f} s]")


def _list(puzzle: Puzzle, args: argparse.Namespace, budget, status: _Status) -> int:
    """Stream solutions (text grids separated by blank lines, or JSON lines), then the count."""
    from ..count import CountResult, OutOfTime, iter_solutions, region_sizes
    from ..formats import format_grid

    if args.method not in ("auto", "enumerate"):
        raise FillominoError("--list enumerates solutions one by one: use it with --method auto or enumerate")
    if args.limit is not None and args.limit < 1:
        raise FillominoError(f"--limit must be at least 1, got {args.limit}")
    start = time.monotonic()
    deadline = None if budget.seconds is None else start + budget.seconds
    found, exact, code = 0, True, 0
    it = iter_solutions(puzzle, cuts=args.cuts, max_size=args.max_size, deadline=deadline)
    try:
        for grid in it:
            found += 1
            if args.json:
                if args.cuts:
                    labels = region_sizes([v for row in grid for v in row])
                    cols = puzzle.cols
                    rows = [labels[i : i + cols] for i in range(0, len(labels), cols)]
                    print_json({"regions": [list(r) for r in grid], "labels": rows})
                else:
                    print_json({"solution": [list(r) for r in grid]})
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
    except KeyboardInterrupt:
        exact, code = False, 130
    finally:
        it.close()
    result = CountResult(found, exact, args.cuts, args.max_size, "enumerate", time.monotonic() - start)
    if not args.json and found:
        sys.stdout.write("\n")
    _report(result, args, interrupted=code == 130)
    return code
