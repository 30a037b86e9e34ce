"""``fillomino rate``: how hard is a puzzle for a person (the logical solver's level, score and steps)."""

from __future__ import annotations

import argparse

from ..puzzle import FillominoError, plural
from .common import (
    add_json,
    add_quiet,
    add_workers,
    check_output,
    load_puzzle,
    print_json,
    seconds_budget,
    workers_from,
    write_output,
)

EPILOG = """Levels: easy, medium, hard, expert (the hardest technique the solve needs, with a depth rule:
medium needs 3 medium steps, hard 2 hard steps, else one level lower); "unrated" when the techniques
stall (cells left open), a rule breaks (no solution) or the budget runs out.
Exit 0 when every puzzle is rated, 1 when some is unrated, 3 when the budget ran out on some,
2 on unusable input. Full description: docs/usage/rate.md.

Example: fillomino rate fillomino:3x3:a2b234b"""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "rate",
        help="rate how hard puzzles are for a person (level, score, techniques)",
        description="Solve each puzzle with the human ladder of techniques and rate it.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("inputs", metavar="PUZZLE", nargs="+", help="puzzle files (or one puzzle given inline)")
    add_json(p)
    add_quiet(p)
    add_workers(p)
    p.add_argument("--steps", metavar="FILE",
                   help="write the step log (audit STEPS format, JSON lines); one puzzle only")
    p.add_argument("--force", action="store_true", help="overwrite the --steps file if it exists")
    p.add_argument("--budget", metavar="TIME",
                   help="give up (unrated, state budget) after this much CPU time ('30', '5s', '5m', '1h')")
    p.set_defaults(run=run)


def _line(name: str, puzzle, rating) -> list[str]:
    counts = " ".join(f"{k}={v}" for k, v in sorted(rating.counts.items(), key=lambda kv: -kv[1]))
    return [name, puzzle.shape, rating.level, str(rating.score), rating.state, str(rating.open_cells),
            f"{rating.seconds:.3f}", counts]


def _explain(name: str, puzzle, rating, steps_file: str | None) -> str:
    out = [f"{name}: {rating.level}" + (f" (score {rating.score})" if rating.level != "unrated" else "")]
    if rating.state == "solved":
        out.append(f"solved by logic in {plural(len(rating.steps), 'step')} ({rating.seconds:.3f} s); a logical solve "
                   "also proves the answer unique")
    elif rating.state == "contradiction":
        out.append(f"no solution: {rating.steps[-1].sentence}" if rating.steps else "no solution")
    elif rating.state == "budget":
        out.append(f"the budget ran out after {plural(len(rating.steps), 'step')} "
                   f"({rating.open_cells} cells still open)")
    else:
        out.append(f"the techniques stall with {rating.open_cells} cells open after "
                   f"{plural(len(rating.steps), 'step')} "
                   "(the puzzle needs deeper reasoning, or has several solutions: 'fillomino unique' tells)")
    if rating.hardest is not None and rating.state != "contradiction":
        h = rating.hardest
        why = "why" if rating.level != "unrated" else "hardest step so far"
        out.append(f"{why}: the hardest step is {h.technique} ({h.level}): {h.sentence}")
        if rating.used_level and rating.used_level != rating.level and rating.level != "unrated":
            out.append(f"  (too few {rating.used_level} steps to rate it {rating.used_level}: "
                       "see the depth rule in docs/usage/rate.md)")
    if rating.counts:
        counts = ", ".join(f"{k} {v}" for k, v in sorted(rating.counts.items(), key=lambda kv: -kv[1]))
        out.append(f"techniques: {counts}")
    if steps_file:
        out.append(f"step log written to {steps_file} (check it: fillomino audit PUZZLE {steps_file})")
    else:
        out.append(f"see every step: fillomino solve {name} --logic; the next one: fillomino hint {name}")
    return "\n".join(out)


def format_table(head: list[str], rows: list[list[str]]) -> str:
    """Columns padded to their widest cell; the last column is left ragged."""
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head) - 1)]
    return "\n".join("  ".join([*(c.ljust(w) for c, w in zip(r, widths)), r[-1]]).rstrip() for r in [head, *rows])


def _summary(results: list) -> dict:
    """Counts over a batch: puzzles, rated and unrated, and how many of each level and of each state."""
    levels: dict[str, int] = {}
    states: dict[str, int] = {}
    for _, _, r in results:
        levels[r.level] = levels.get(r.level, 0) + 1
        states[r.state] = states.get(r.state, 0) + 1
    unrated = levels.get("unrated", 0)
    return {"puzzles": len(results), "rated": len(results) - unrated, "unrated": unrated, "levels": levels,
            "states": states}


def _rate_job(job: tuple):
    from ..logic import rate

    puzzle, budget = job
    return rate(puzzle, budget=budget)


def run(args: argparse.Namespace) -> int:
    from ..progress import Progress
    from ..workers import run_jobs

    if args.steps and len(args.inputs) > 1:
        raise FillominoError("--steps writes one puzzle's log: give one PUZZLE")
    budget = seconds_budget(args.budget)
    if args.steps:
        check_output("--steps", args.steps, args.force)  # before the work, not after it
    puzzles = [(name, load_puzzle(name)) for name in args.inputs]  # read all first: bad input fails fast
    workers = workers_from(args)
    ratings: dict[int, object] = {}
    unrated = 0
    with Progress(len(puzzles), "rating", unit="puzzle", quiet=args.quiet or len(puzzles) == 1) as bar:
        jobs = [(puzzle, budget) for _, puzzle in puzzles]
        for k, rating in run_jobs(_rate_job, jobs, workers, cost=lambda job: job[0].size):
            ratings[k] = rating
            unrated += rating.level == "unrated"
            bar.advance(unrated=unrated)
    results = [(name, puzzle, ratings[k]) for k, (name, puzzle) in enumerate(puzzles)]
    if args.steps:
        write_output(args.steps, results[0][2].audit_lines(), args.force)
    states = {r.state for _, _, r in results}
    if args.json:
        objs = [{"puzzle": name, "shape": p.shape, **r.to_json(), "status": r.state} for name, p, r in results]
        if len(args.inputs) == 1:
            print_json(objs[0])
        else:  # a batch, as certify and crosscheck answer one: the ratings under "puzzles", counts in "summary"
            status = "budget" if "budget" in states else ("rated" if states == {"solved"} else "unrated")
            print_json({"puzzles": objs, "summary": _summary(results)}, status=status)
    elif len(results) == 1:
        print(_explain(*results[0], args.steps))
    else:
        head = ["puzzle", "shape", "level", "score", "state", "open", "seconds", "techniques"]
        print(format_table(head, [_line(*r) for r in results]))
        print("levels: " + ", ".join(f"{k} {v}" for k, v in _summary(results)["levels"].items()))
    return 3 if "budget" in states else (0 if states == {"solved"} else 1)
