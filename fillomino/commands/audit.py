"""``fillomino audit``: replay a logical solver's step log and judge every step against the exact truth."""

from __future__ import annotations

import argparse
import sys

from ..puzzle import FillominoError, cell_name, plural
from .ambiguity import CANDIDATES_HELP, load_candidates, read_source
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

EPILOG = """STEPS is JSON lines, one step each (rows and columns 0-based):
  {"technique": "too_big", "cell": [2, 3], "remove": [4, 5]}
  {"technique": "single", "cell": [0, 1], "place": 2, "candidates": [[...], ...]}
"candidates" (optional) is the solver's candidate grid before the step. A removal is sound when no
solution has that value there; a placement when every solution has it. Full format: docs/usage/ambiguity.md.

Exit 0 when every step is sound, 1 when some step is unsound, 3 when the budget ran out,
2 on unusable input (a malformed STEPS line is named by its number)."""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "audit",
        help="judge every step of a logical solver's log (sound or not) against all solutions",
        description="Replay a step log (JSON lines) and judge each removal and placement exactly.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input(p, "puzzle")
    p.add_argument("steps", metavar="STEPS", help="the step log: a JSON-lines file, or '-' for stdin")
    p.add_argument("--candidates", metavar="GRID", help=CANDIDATES_HELP + " (the rater's starting domains)")
    p.add_argument("--all", action="store_true", help="list every unsound step, not only the first")
    add_json(p)
    add_no_color(p)
    add_engine_options(p, backend=False)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..audit import audit, parse_steps
    from ..solvers import BudgetExhausted

    if [args.puzzle, args.steps, args.candidates].count("-") > 1:
        raise FillominoError("only one of PUZZLE, STEPS and --candidates can be read from stdin")
    puzzle = load_puzzle(args.puzzle)
    candidates = load_candidates(args.candidates, puzzle)
    steps = parse_steps(read_source(args.steps, "step log"), puzzle)
    try:
        result = audit(puzzle, steps, candidates=candidates, **engine_kwargs(args, backend=False))
    except BudgetExhausted:
        if args.json:
            print_json({"sound": None, "status": "unknown", "steps": len(steps), "max_size": args.max_size})
        else:
            print(f"unknown: the budget ran out before the {plural(len(steps), 'step')} could be judged")
        return 3
    if args.json:
        print_json(result.to_json(every=args.all), status="sound" if result.sound else "unsound")
    else:
        print(describe(puzzle, result, args.all, use_color(args)))
    return 0 if result.sound else 1


def use_color(args: argparse.Namespace) -> bool:
    from ..terminal import use_color as _use_color

    return _use_color(sys.stdout, args.no_color)


def describe(puzzle, result, every: bool = False, color: bool = False) -> str:
    """Headline, the first (or every) unsound step with a solution that refutes it, the tally, the end state."""
    from ..terminal import format_board

    bad = result.unsound
    total = len(result.judgements)
    lines = [f"{'sound' if not bad else 'UNSOUND'}: {plural(total, 'step')}, {total - len(bad)} sound, "
             f"{len(bad)} unsound"]
    for j in bad if every else bad[:1]:
        r, c = j.step.cell
        shown = ", ".join(map(str, j.values)) or "none"
        lines.append(f"{'unsound' if every else 'first unsound'} step {j.index} (line {j.step.line}): "
                     f"{j.step.technique} at {cell_name(r, c)} {j.step.action()}: {j.reason} "
                     f"(values in solutions: {shown})")
        if j.witness is not None and not every:
            lines.append("a solution that refutes it:")
            lines.append(format_board(puzzle, j.witness, color=color, highlight={(r, c)}))
    tally = result.tally()
    if tally:
        width = max(len(t) for t in tally)
        lines.append("techniques:")
        for name, t in tally.items():
            lines.append(f"  {name:<{width}}  {t['steps']:>5} steps  {t['sound']:>5} sound  {t['unsound']:>5} unsound")
    end = result.end
    lines.append(f"end state: {end.verdict} [{'matches' if end.matches else 'does not match'} the engine: "
                 f"{end.engine}]")
    if cap_note(result.possible.max_size):
        lines.append(cap_note(result.possible.max_size))
    return "\n".join(lines)
