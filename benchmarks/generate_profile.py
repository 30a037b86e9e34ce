"""Where the generator's CPU time goes, per level: ratings by technique cap, answers, orders, CNF proofs.

Run from the repo root:
    python benchmarks/generate_profile.py [--size 10x10] [--levels easy,medium] [--seeds 0-4]

Wraps the rater (rate() and the carver's pass-by-pass ratings, generate._Attempt), the answer maker, the CNF
oracle (its model's building and each question, by answer) and the CNF proof with CPU timers (time.process_time)
and prints, per level, the medians and sums over the seeds: CPU seconds, ratings by technique cap and how they
ended ("attempt medium stuck"; "solved" includes a rating stopped once the removal was fixed; "attempt" calls
count a rating stopped early and finished later twice), answers drawn, removal orders, and each part's share of
the CPU time, calls a puzzle and CPU a call; each answer's whole carving ("whole answer: given up" after all its
orders, or "kept"), which holds the parts above; and each removal order's end by what became of it (kept, refused by
the depth rule, below the level). ``--warm``: an untimed puzzle of each level first, as an in-process figure has. The
proof's question to the carver's own oracle is counted under both "cnf proof" and "cnf UNIQUE".
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.stats import parse_seeds  # noqa: E402
from fillomino import generate as gen  # noqa: E402
from fillomino import logic  # noqa: E402
from fillomino.solvers import cnf  # noqa: E402


class Timers:
    def __init__(self) -> None:
        self.cpu: Counter[str] = Counter()
        self.calls: Counter[str] = Counter()

    def wrap(self, owner, name: str, label, outcome=None) -> None:
        """Time ``owner.name`` under ``label`` (a string, or a function of the call's arguments), followed by
        ``outcome(result)`` when given."""
        inner = getattr(owner, name)

        def timed(*args, **kwargs):
            start = time.process_time()
            result = None
            try:
                result = inner(*args, **kwargs)
                return result
            finally:
                key = label(*args, **kwargs) if callable(label) else label
                if outcome is not None:
                    key += " " + outcome(result)
                self.cpu[key] += time.process_time() - start
                self.calls[key] += 1

        setattr(owner, name, timed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="10x10")
    parser.add_argument("--levels", default="easy,medium,hard,expert")
    parser.add_argument("--seeds", default="0-4")
    parser.add_argument("--warm", action="store_true",
                        help="make an untimed puzzle of each level first (seed 999999), as an in-process figure has")
    args = parser.parse_args(argv)
    rows, cols = (int(x) for x in args.size.split("x"))
    seeds = parse_seeds(args.seeds)
    timers = Timers()
    timers.wrap(logic, "rate", lambda *a, max_level="expert", **k: f"rate {max_level}")
    # the carver's own ratings stop once the removal is fixed (logic.Solve, via generate._Attempt), each resumed at
    # most once; rate() does not go through Solve.run, so nothing is counted twice
    timers.wrap(logic.Solve, "run", lambda s, *a, **k: f"attempt {s.max_level}",
                lambda state: "solved" if state in ("solved", "fixed") else str(state))
    # each answer's carving whole (its orders, ratings and questions): the answers given up after every order
    # against the one kept, to tell a cell whose time goes in answers that come to nothing
    timers.wrap(gen._LevelCarver, "run", "whole answer:",
                lambda got: "kept" if got and got[0] is not None else "given up")
    timers.wrap(gen, "random_answer", "answer")
    timers.wrap(gen, "_prove_unique", "cnf proof")
    timers.wrap(cnf.UniquenessOracle, "__init__", "cnf model")
    timers.wrap(cnf.UniquenessOracle, "check", "cnf", lambda answer: "-" if answer is None else answer[0].name)
    # each order's end, by what became of it: kept, refused by the depth rule (steps of the level, too few) or
    # below the level (none); counted, not timed (the order's CPU is its ratings' and questions')
    full_rating = gen._LevelCarver._full_rating

    def order_end(carver, kept):
        rating = full_rating(carver, kept)
        why = "kept" if rating.level == carver.level else \
            "depth rule" if rating.used_level == carver.level else "below the level"
        timers.calls[f"order {'first' if carver.orders == 1 else 'later'}: {why}"] += 1
        return rating

    gen._LevelCarver._full_rating = order_end
    for level in args.levels.split(","):
        if args.warm:
            gen.generate(rows, cols, 999_999, level=level)
        per_seed = []
        for seed in seeds:
            timers.cpu.clear()
            timers.calls.clear()
            start = time.process_time()
            made = gen.generate(rows, cols, seed, level=level)
            total = time.process_time() - start
            per_seed.append((total, Counter(timers.cpu), Counter(timers.calls), made))
            parts = ", ".join(f"{k} {v:.2f} s/{timers.calls[k]}" for k, v in sorted(timers.cpu.items()))
            print(f"{args.size} {level} seed {seed}: {total:.2f} CPU s, {made.attempts} answers, {made.orders} orders,"
                  f" {made.ratings} ratings ({made.rating_timeouts} cut by their budget), {made.clues} clues,"
                  f" score {made.score}; {parts}", flush=True)
        total = sum(p[0] for p in per_seed)
        cpu = sum((p[1] for p in per_seed), Counter())
        calls = sum((p[2] for p in per_seed), Counter())
        n = len(per_seed)
        shares = ", ".join(f"{k} {100 * cpu[k] / total:.0f}% ({calls[k] / n:.2f} a puzzle, "
                           f"{1e6 * cpu[k] / calls[k]:.0f} us each)" for k in sorted(calls))
        print(f"== {args.size} {level}: median {statistics.median(p[0] for p in per_seed):.2f} CPU s, sum {total:.1f};"
              f" mean answers {statistics.mean(p[3].attempts for p in per_seed):.1f}, mean orders "
              f"{statistics.mean(p[3].orders for p in per_seed):.1f}, mean ratings "
              f"{statistics.mean(p[3].ratings for p in per_seed):.0f}; {shares}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
