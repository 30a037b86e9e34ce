"""``fillomino serve``: a setter's workbench in the browser (edit clues, see the engine's answers live)."""

from __future__ import annotations

import argparse

EPILOG = """examples:
  fillomino serve                        an empty page at http://127.0.0.1:8000/
  fillomino serve puzzle.txt --port 8080 open with this puzzle
  fillomino serve --host 0.0.0.0         reachable from other machines (warns: the page has no login)

After each edit the page shows the verdict, the loose cells with their possible values, the two
answers and where they differ, the conflicting clues, the number of solutions and suggested
clues; each panel has --budget seconds per edit, and a newer edit cancels the older analysis.
While the setter looks at a grid, the server works out the removal of each of its clues in the
background (at the lowest CPU priority), so a removal it has reached is answered from its cache;
--no-ahead switches that off.
Needs the web extra: pip install 'fillomino[serve]'."""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "serve",
        help="a setter's workbench in the browser: edit clues, see uniqueness and loose cells live",
        description="Start a local web page for building a puzzle clue by clue with live analysis.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("input", nargs="?", metavar="P", help="a puzzle to open (file, '-', or inline like any command)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000; 0 picks a free one)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine only)")
    p.add_argument("--budget", default="10s", metavar="SECONDS",
                   help="time each panel may spend on one edit before saying unknown (default 10s)")
    p.add_argument("--workers", type=int, default=4, metavar="N", help="analysis processes kept ready (default 4)")
    p.add_argument("--no-ahead", dest="ahead", action="store_false",
                   help="do not work out each clue's removal in the background (for a weak or shared machine)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..puzzle import FillominoError
    from ..serve.server import serve
    from ..solvers import Budget
    from .common import load_puzzle

    budget = Budget.parse(args.budget)
    if budget.seconds is None:
        raise FillominoError(f"--budget must be a time like '10s' here, got {args.budget!r}")
    if not 0 <= args.port <= 65535:
        raise FillominoError(f"--port must be 0..65535, got {args.port}")
    if args.workers < 1:
        raise FillominoError(f"--workers must be at least 1, got {args.workers}")
    puzzle = load_puzzle(args.input) if args.input else None
    serve(puzzle, host=args.host, port=args.port, budget=budget.seconds, warm=args.workers, ahead=args.ahead)
    return 0
