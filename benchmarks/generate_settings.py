"""Generator A/B: the same seeds under two settings of the carving engine, interleaved seed by seed.

Run from the repo root:
    python benchmarks/generate_settings.py --size 20x20 --seeds 0-9 \
        --old fresh_escalate=2000,oracle_conflicts=10000 --new fresh_escalate=100000,oracle_conflicts=2000
    python benchmarks/generate_settings.py --size 30x30 --seeds 0-2 --old threads=1 --new threads=2

Both settings only move work between exact engines, so each seed must give the same puzzle under both
(checked). Prints wall and CPU seconds per seed (CPU counts racing child processes too) and, per
setting, the sums and medians. Interleaving keeps a noisy machine's drift out of the ratio; compare
the two columns of one run, not runs with each other. (`fresh_escalate` sets the one-process fresh
model, the first of FRESH_WAYS; `threads` is generate()'s argument.)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from stats import cpu_seconds, parse_seeds  # noqa: E402  (benchmarks/stats.py, beside this script)

from fillomino import generate as gen  # noqa: E402
from fillomino.solvers import cnf as cnf_backend  # noqa: E402

KNOBS = ("fresh_escalate", "oracle_conflicts", "threads")
SHIPPED_WAYS = cnf_backend.FRESH_WAYS


def parse_setting(text: str) -> dict[str, int]:
    out = {}
    for part in filter(None, text.split(",")):
        key, _, value = part.partition("=")
        if key not in KNOBS:
            raise SystemExit(f"unknown knob {key!r}: choose from {', '.join(KNOBS)}")
        out[key] = int(value)
    return out


def shipped() -> dict[str, int]:
    return {"fresh_escalate": SHIPPED_WAYS[0][1], "oracle_conflicts": gen.Carving().oracle_conflicts, "threads": 1}


def carving(setting: dict[str, int]) -> gen.Carving:
    """The carving options of a setting (``threads`` is generate()'s own argument)."""
    ways = ((SHIPPED_WAYS[0][0], setting["fresh_escalate"]), *SHIPPED_WAYS[1:]) if setting["threads"] <= 1 else None
    return gen.Carving(oracle_conflicts=setting["oracle_conflicts"], fresh_ways=ways)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="20x20")
    ap.add_argument("--seeds", default="0-9", help="e.g. 0-9 or 0,2,5")
    ap.add_argument("--old", default="fresh_escalate=2000,oracle_conflicts=10000")
    ap.add_argument("--new", default="")
    args = ap.parse_args()
    rows, cols = map(int, args.size.lower().split("x"))
    base = shipped()
    settings = {"old": {**base, **parse_setting(args.old)}, "new": {**base, **parse_setting(args.new)}}
    wall: dict[str, list[float]] = {name: [] for name in settings}
    cpu: dict[str, list[float]] = {name: [] for name in settings}
    for seed in parse_seeds(args.seeds):
        puzzles = set()
        for name, setting in settings.items():
            start, start_cpu = time.perf_counter(), cpu_seconds()
            made = gen.generate(rows, cols, seed, level="minimal", threads=setting["threads"], carving=carving(setting))
            wall[name].append(time.perf_counter() - start)
            cpu[name].append(cpu_seconds() - start_cpu)
            puzzles.add(made.puzzle.clues)
        if len(puzzles) != 1:
            raise SystemExit(f"seed {seed}: the two settings gave different puzzles (they must not)")
        print(f"{args.size} seed {seed}: "
              + ", ".join(f"{n} {wall[n][-1]:.1f} s ({cpu[n][-1]:.1f} CPU)" for n in settings), flush=True)
    for name in settings:
        print(f"{name} {settings[name]}: wall sum {sum(wall[name]):.1f} s, median {statistics.median(wall[name]):.1f}; "
              f"CPU sum {sum(cpu[name]):.1f} s, median {statistics.median(cpu[name]):.1f}")


if __name__ == "__main__":
    main()
