"""How many solver questions `possible` needs on 15x15 boards: unique generated puzzles (by default the
bundled corpus/15x15/15x15-s1..s5.txt; pass files to pin other ones) and ambiguous variants with a few
clues dropped (the same clues every run). Prints one Markdown table row per board, wall and CPU seconds
(the machine is shared: CPU seconds are the comparable number).

A question is one call of the incremental CNF model ("a solution with some pair not seen yet?");
SAT calls count the solver runs inside it (lazy connectivity clauses add runs per question).
"pairs" is what asking one question per (unclued cell, size up to the final K) pair would cost.

    python benchmarks/possible_calls.py [FILE ...] --drops 0 1 3 [--budget 600]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the working tree, not an installed copy

from fillomino import possible as possible_module  # noqa: E402
from fillomino.formats import read_puzzle  # noqa: E402
from fillomino.solvers import Budget, BudgetExhausted  # noqa: E402


def variant(puzzle, name: str, drop: int):
    """The puzzle with ``drop`` of its clues removed (chosen by the file name, the same every run)."""
    clued = puzzle.clue_cells()
    rng = random.Random(f"drop|{name}|{drop}")
    gone = set(rng.sample(clued, min(drop, len(clued))))
    return puzzle.with_clues([0 if i in gone else v for i, v in enumerate(puzzle.clues)])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", metavar="FILE", help="puzzle files (default: corpus/15x15/15x15-s1..s5.txt)")
    ap.add_argument("--drops", type=int, nargs="+", default=[0, 1, 3])
    ap.add_argument("--budget", type=float, default=600.0, help="seconds per board (default 600)")
    args = ap.parse_args()
    print("| puzzle | clues | dropped | loose | forced | solutions seen | questions | pairs | SAT calls | final K "
          "| wall s | CPU s |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    files = args.files or [str(ROOT / "corpus" / "15x15" / f"15x15-s{seed}.txt") for seed in range(1, 6)]
    for path in files:
        seed = Path(path).stem
        base = read_puzzle(path)
        for drop in args.drops:
            puzzle = variant(base, seed, drop)
            start, cpu = time.perf_counter(), time.process_time()
            try:
                r = possible_module.possible(puzzle, budget=Budget(seconds=args.budget))
            except BudgetExhausted:
                print(f"| {seed} | {len(puzzle.clue_cells())} | {drop} | budget ran out after "
                      f"{time.perf_counter() - start:.0f} s | | | | | | | | |", flush=True)
                continue
            cpu = time.process_time() - cpu
            pairs = (puzzle.size - len(puzzle.clue_cells())) * r.k  # one question each, asked naively
            print(f"| {seed} | {len(puzzle.clue_cells())} | {drop} | {r.loose} | {r.forced} | {r.solutions_seen} "
                  f"| {r.solver_calls} | {pairs} | {r.sat_calls} | {r.k} | {r.seconds:.1f} | {cpu:.1f} |", flush=True)


if __name__ == "__main__":
    main()
