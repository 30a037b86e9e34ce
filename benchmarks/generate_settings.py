"""Generator A/B: the same seeds under two settings of the carving engine, interleaved seed by seed.

Run from the repo root:
    python benchmarks/generate_settings.py --size 20x20 --seeds 0-9 \
        --old fresh_escalate=2000,oracle_conflicts=10000 --new fresh_escalate=100000,oracle_conflicts=2000

Both settings only move work between exact engines, so each seed must give the same puzzle under both
(checked). Prints CPU seconds per seed and, per setting, the sum and median. Interleaving keeps a
noisy machine's drift out of the ratio; compare the two columns of one run, not runs with each other.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fillomino import generate as gen  # noqa: E402
from fillomino.solvers import cnf as cnf_backend  # noqa: E402

KNOBS = {
    "fresh_escalate": (cnf_backend, "FRESH_ESCALATE_AFTER"),
    "oracle_conflicts": (gen, "ORACLE_CONFLICTS"),
}


def parse_setting(text: str) -> dict[str, int]:
    out = {}
    for part in filter(None, text.split(",")):
        key, _, value = part.partition("=")
        if key not in KNOBS:
            raise SystemExit(f"unknown knob {key!r}: choose from {', '.join(KNOBS)}")
        out[key] = int(value)
    return out


def parse_seeds(text: str) -> list[int]:
    seeds: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        seeds.extend(range(int(lo), int(hi or lo) + 1))
    return seeds


def apply(setting: dict[str, int]) -> None:
    for key, value in setting.items():
        module, name = KNOBS[key]
        setattr(module, name, value)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="20x20")
    ap.add_argument("--seeds", default="0-9", help="e.g. 0-9 or 0,2,5")
    ap.add_argument("--old", default="fresh_escalate=2000,oracle_conflicts=10000")
    ap.add_argument("--new", default="")
    args = ap.parse_args()
    rows, cols = map(int, args.size.lower().split("x"))
    shipped = {key: getattr(*KNOBS[key]) for key in KNOBS}
    settings = {"old": {**shipped, **parse_setting(args.old)}, "new": {**shipped, **parse_setting(args.new)}}
    times: dict[str, list[float]] = {name: [] for name in settings}
    for seed in parse_seeds(args.seeds):
        puzzles = set()
        for name, setting in settings.items():
            apply(setting)
            start = time.process_time()
            made = gen.generate(rows, cols, seed)
            times[name].append(time.process_time() - start)
            puzzles.add(made.puzzle.clues)
        if len(puzzles) != 1:
            raise SystemExit(f"seed {seed}: the two settings gave different puzzles (they must not)")
        print(f"{args.size} seed {seed}: " + ", ".join(f"{n} {t[-1]:.1f} s" for n, t in times.items()), flush=True)
    for name, values in times.items():
        print(f"{name} {settings[name]}: sum {sum(values):.1f} CPU s, median {statistics.median(values):.1f}")
    apply(shipped)


if __name__ == "__main__":
    main()
