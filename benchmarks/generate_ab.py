"""Generator before/after: the same puzzles made by an older commit's generator and today's, alternated seed by seed.

Run from the repo root:
    python benchmarks/generate_ab.py --baseline 5e35d39 [--cells 5x5:easy,10x10:medium] [--seeds 0-9]

Each puzzle is made in a forked process of its own (the imports done before the fork, as in generate_levels.py)
and timed inside it in CPU seconds (time.process_time); before and after alternate within each seed, the first
side swapped from one seed to the next, so that a shared machine's drift falls on both. The two must give the same
puzzle byte for byte when the generator version is the same (checked: a difference is printed and counted).
Prints one line per puzzle (with the ratings cut by their budget, when any: with a CPU budget, before 235056d or
with --rating-budget, such a puzzle depends on timing), then
per cell the before/after CPU medians and sums and the ratings made.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from older import module_at  # noqa: E402  (benchmarks/older.py, beside this script)
from stats import parse_seeds  # noqa: E402

import fillomino.logic  # noqa: E402, F401  (imported before the forks, so no puzzle's time includes the imports)
import fillomino.solvers.cnf  # noqa: E402, F401
from fillomino import generate as today  # noqa: E402
from fillomino.formats import write_puzzle  # noqa: E402

CELLS = "5x5:easy,6x6:easy,8x8:easy,10x10:easy,5x5:medium,6x6:medium,8x8:medium,10x10:medium"


def _child(conn, module, rows: int, cols: int, seed: int, level: str) -> None:
    cpu = time.process_time()
    made = module.generate(rows, cols, seed, level=level)
    conn.send({"cpu": time.process_time() - cpu, "id": write_puzzle(made.puzzle, "id"), "score": made.score,
               "ratings": made.ratings, "timeouts": made.rating_timeouts})


def run_one(module, rows: int, cols: int, seed: int, level: str) -> dict:
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(send, module, rows, cols, seed, level))
    proc.start()
    send.close()
    try:
        return receive.recv()
    finally:
        proc.join()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", required=True, help="the commit whose generator is 'before'")
    parser.add_argument("--cells", default=CELLS, help=f"size:level pairs (default: {CELLS})")
    parser.add_argument("--seeds", default="0-9", help="e.g. 0-9 or 0,3,5-7 (default: 0-9)")
    args = parser.parse_args(argv)
    before = module_at(args.baseline, "generate")
    module_at(args.baseline, "logic")
    module_at(args.baseline, "solvers.cnf")
    sides = {"before": before, "after": today}
    seeds = parse_seeds(args.seeds)
    summary = []
    differ = timed = 0
    for cell in args.cells.split(","):
        size, level = cell.split(":")
        rows, cols = (int(x) for x in size.split("x"))
        got: dict[str, list[dict]] = {"before": [], "after": []}
        for k, seed in enumerate(seeds):
            order = ("before", "after") if k % 2 == 0 else ("after", "before")
            made = {side: run_one(sides[side], rows, cols, seed, level) for side in order}
            for side in order:
                got[side].append(made[side])
            same = (made["before"]["id"], made["before"]["score"]) == (made["after"]["id"], made["after"]["score"])
            differ += not same
            cut = (made["before"]["timeouts"], made["after"]["timeouts"])
            timed += any(cut)
            print(f"{size} {level} seed {seed}: {made['before']['cpu']:.3f} -> {made['after']['cpu']:.3f} CPU s, "
                  f"ratings {made['before']['ratings']} -> {made['after']['ratings']}"
                  f"{f', rating timeouts {cut[0]} -> {cut[1]}' if any(cut) else ''}"
                  f"{'' if same else ', DIFFERENT puzzle'}", flush=True)
        b = [r["cpu"] for r in got["before"]]
        a = [r["cpu"] for r in got["after"]]
        summary.append(f"| {size} | {level} | {len(seeds)} | {1000 * statistics.median(b):.0f} ms | "
                       f"{1000 * statistics.median(a):.0f} ms | {sum(b):.2f} s | {sum(a):.2f} s | "
                       f"{statistics.mean(r['ratings'] for r in got['before']):.0f} | "
                       f"{statistics.mean(r['ratings'] for r in got['after']):.0f} |")
    print(f"\nbefore = {args.baseline}, after = the working tree; CPU seconds per puzzle, seeds {args.seeds}; "
          f"{differ} puzzle(s) differ; {timed} made with a rating cut by its budget (on either side; where that budget "
          "is CPU time, as before 235056d, such a puzzle depends on the machine's speed and may differ for that "
          "reason alone)")
    print("| Size | Level | Seeds | Median before | Median after | Sum before | Sum after | Ratings before | "
          "Ratings after |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(summary))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
