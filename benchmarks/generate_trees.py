"""Generator before/after for two source trees (each may be a compiled build): the same puzzles made by each tree's
generator, one forked process a puzzle, alternated seed by seed.

    python benchmarks/generate_trees.py /tmp/base /tmp/new --cells 5x5:easy,5x5:medium --seeds 0-19

generate_ab.py imports the older generator under another name, which a mypyc build cannot do (its shared library
is named after ``fillomino``); here each tree has a long-lived worker process (``PYTHONPATH=TREE``, its imports
done once) that forks a child per puzzle, as generate_levels.py does, and the child reports its CPU seconds
(time.process_time, so a first puzzle's page faults and cold caches count as they do in a command of its own) and
the puzzle. The two sides alternate within each seed, the first swapped from one seed to the next, so that a shared
machine's drift falls on both. The two must make the same puzzle byte for byte when the generator version is the
same (checked: a difference is printed and counted, exit status 1). Prints per cell the CPU medians and sums of
both sides and their ratios, and the ratings made.

``--warm``: each child first makes an untimed puzzle of the same cell (seed + 1000000), then the timed one, so the
figure leaves out what only a process's first puzzle pays (on this machine 2-3 ms of a 5x5 puzzle, mostly the
page faults of a forked child's first writes to memory it shares with its parent) and is comparable with an
in-process figure such as seed 000's table.

``--in-process``: no child; each tree's worker makes every puzzle itself, one after another, so a puzzle finds
what the ones before it left (the CNF models kept per shape, the kept static clauses): a process that makes many
puzzles, as 000's table counts. With ``--warm`` an untimed puzzle still comes before each timed one.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from stats import parse_seeds  # noqa: E402  (benchmarks/stats.py, beside this script)
from trees import TreeWorker  # noqa: E402  (benchmarks/trees.py)

CELLS = "5x5:easy,5x5:medium,6x6:easy,6x6:medium,7x7:easy,7x7:medium,8x8:easy,8x8:medium,10x10:easy,10x10:medium"

WORKER = r"""
import json, os, sys, time
import fillomino.logic, fillomino.solvers.cnf  # imported before the forks, so no puzzle's time includes them
import fillomino.grid
from fillomino.formats import write_puzzle
from fillomino.generate import generate
print(json.dumps({"grid": fillomino.grid.__file__}), flush=True)
for line in sys.stdin:
    rows, cols, seed, level, warm, fork = line.split()
    if fork == "0":  # --in-process: made here, after the puzzles before it
        if warm == "1":
            generate(int(rows), int(cols), int(seed) + 1_000_000, level=level)
        cpu = time.process_time()
        made = generate(int(rows), int(cols), int(seed), level=level)
        print(json.dumps({"cpu": time.process_time() - cpu, "id": write_puzzle(made.puzzle, "id"),
                          "score": made.score, "ratings": made.ratings}), flush=True)
        continue
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        if warm == "1":
            generate(int(rows), int(cols), int(seed) + 1_000_000, level=level)
        cpu = time.process_time()
        made = generate(int(rows), int(cols), int(seed), level=level)
        out = {"cpu": time.process_time() - cpu, "id": write_puzzle(made.puzzle, "id"), "score": made.score,
               "ratings": made.ratings}
        os.write(write, json.dumps(out).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        got = f.read()
    os.waitpid(pid, 0)
    print(got.decode(), flush=True)
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--cells", default=CELLS, help=f"size:level pairs (default: {CELLS})")
    ap.add_argument("--seeds", default="0-19", help="e.g. 0-19 or 0,3,5-7 (default: 0-19)")
    ap.add_argument("--warm", action="store_true", help="time each child's second puzzle (see above)")
    ap.add_argument("--in-process", action="store_true",
                    help="each worker makes the puzzles itself, one after another (see above)")
    args = ap.parse_args(argv)
    workers = [TreeWorker(args.before, WORKER), TreeWorker(args.after, WORKER)]
    for w in workers:
        print(f"{w.tree}: {w.grid}")
    seeds = parse_seeds(args.seeds)
    lines = ["| Size | Level | Seeds | Median before | Median after | Ratio | Sum before | Sum after | Ratio "
             "| Ratings |", "|---|---|---|---|---|---|---|---|---|---|"]
    differ = 0
    for cell in args.cells.split(","):
        size, level = cell.split(":")
        rows, cols = (int(x) for x in size.split("x"))
        got: list[list[dict]] = [[], []]
        for k, seed in enumerate(seeds):
            made: dict[int, dict] = {}
            for i in ((0, 1) if k % 2 == 0 else (1, 0)):
                made[i] = workers[i].ask(f"{rows} {cols} {seed} {level} {int(args.warm)} {int(not args.in_process)}")
            for i in (0, 1):
                got[i].append(made[i])
            if (made[0]["id"], made[0]["score"]) != (made[1]["id"], made[1]["score"]):
                differ += 1
                print(f"{size} {level} seed {seed}: the puzzles differ: {made[0]['id']} / {made[1]['id']}")
            print(f"{size} {level} seed {seed}: {1000 * made[0]['cpu']:.1f} -> {1000 * made[1]['cpu']:.1f} ms",
                  file=sys.stderr, flush=True)
        cpu = [[r["cpu"] for r in side] for side in got]
        med = [statistics.median(c) for c in cpu]
        tot = [sum(c) for c in cpu]
        ratings = [statistics.mean(r["ratings"] for r in side) for side in got]
        lines.append(f"| {size} | {level} | {len(seeds)} | {1000 * med[0]:.1f} ms | {1000 * med[1]:.1f} ms "
                     f"| {med[1] / med[0]:.2f} | {tot[0]:.3f} s | {tot[1]:.3f} s | {tot[1] / tot[0]:.2f} "
                     f"| {ratings[0]:.0f} / {ratings[1]:.0f} |")
    for w in workers:
        w.close()
    print("\n".join(lines))
    print(f"{differ} puzzles differ" if differ else "every puzzle is the same byte for byte (and its score)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
