"""Generator benchmark: seeds 0-19 per size, the table of seed 000 (found, median, 95th percentile, mean clues).

Run from the repo root:
    python benchmarks/generate_table.py [--sizes 5x5,10x10] [--seeds 20] [--threads 2] [--markdown FILE]
With --markdown the table is written to FILE as a "## Generator" section (command, machine, load), ready
to go into docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from stats import cpu_seconds, percentile  # noqa: E402  (benchmarks/stats.py, beside this script)

from fillomino.generate import GENERATOR_VERSION, generate  # noqa: E402
from fillomino.puzzle import FillominoError  # noqa: E402

DEFAULT_SIZES = "5x5,7x7,10x10,15x15,20x20,30x30"
TARGETS = {"10x10": 1.0, "15x15": 3.0, "20x20": 10.0, "30x30": 60.0}
"""Median seconds the issue asks for."""


def fmt_seconds(s: float) -> str:
    if s == math.inf:
        return "failed"
    return f"{s * 1000:.0f} ms" if s < 1 else f"{s:.2f} s"


def save(made, folder: Path) -> None:
    """Write the puzzle as `fillomino generate --no-timing --out` would; an existing file must be the same."""
    from fillomino.formats import write_puzzle

    text = write_puzzle(made.puzzle, "text")
    text = text if text.endswith("\n") else text + "\n"
    rows, cols = made.puzzle.rows, made.puzzle.cols
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{rows}x{cols}-s{made.seed}.txt"
    if not path.exists():
        path.write_text(text, encoding="utf-8")
    elif path.read_text(encoding="utf-8") != text:
        print(f"  {path} differs from today's generator", file=sys.stderr)


def bench(shape: str, seeds: int, save_to: Path | None = None, threads: int = 1) -> dict:
    rows, cols = (int(x) for x in shape.split("x"))
    times, cpu, clues, checks, attempts = [], [], [], [], []
    for seed in range(seeds):
        start, start_cpu = time.perf_counter(), cpu_seconds()
        try:
            made = generate(rows, cols, seed, level="minimal", threads=threads)
        except FillominoError as exc:
            print(f"  {shape} seed {seed}: {exc}", file=sys.stderr)
            times.append(math.inf)
            cpu.append(math.inf)
            continue
        times.append(time.perf_counter() - start)
        cpu.append(cpu_seconds() - start_cpu)
        if save_to is not None:
            save(made, save_to / f"{rows:02d}x{cols:02d}")
        clues.append(made.clues)
        checks.append(made.checks)
        attempts.append(made.attempts)
        print(f"  {shape} seed {seed}: {times[-1]:.2f} s ({cpu[-1]:.2f} s CPU), {made.clues} clues, "
              f"{made.checks} checks", file=sys.stderr, flush=True)
    return {
        "size": shape,
        "found": sum(t != math.inf for t in times),
        "seeds": seeds,
        "median": statistics.median(times),
        "p95": percentile(times, 0.95),
        "cpu_median": statistics.median(cpu),
        "cpu_p95": percentile(cpu, 0.95),
        "clues": statistics.mean(clues) if clues else math.nan,
        "density": statistics.mean(clues) / (rows * cols) if clues else math.nan,
        "checks": statistics.mean(checks) if checks else math.nan,
        "attempts": statistics.mean(attempts) if attempts else math.nan,
    }


def table(results: list[dict]) -> str:
    lines = [
        "| Size | Found | Median | 95th percentile | Median CPU | 95th pct CPU | Mean clues | Clue density "
        "| Mean engine checks | Target median |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        target = TARGETS.get(r["size"])
        lines.append(
            f"| {r['size']} | {r['found']}/{r['seeds']} | {fmt_seconds(r['median'])} | {fmt_seconds(r['p95'])} "
            f"| {fmt_seconds(r['cpu_median'])} | {fmt_seconds(r['cpu_p95'])} "
            f"| {r['clues']:.1f} | {r['density']:.0%} | {r['checks']:.0f} | {fmt_seconds(target) if target else '-'} |"
        )
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help=f"comma-separated shapes (default: {DEFAULT_SIZES})")
    parser.add_argument("--seeds", type=int, default=20, help="seeds 0..N-1 per size (default: 20)")
    parser.add_argument("--save", metavar="DIR", help="also write each puzzle to DIR/<RRxCC>/ (as generate --out "
                        "--no-timing; an existing file is compared, not overwritten)")
    parser.add_argument("--threads", type=int, default=1, help="generate(threads=N) (default: 1)")
    parser.add_argument("--markdown", metavar="FILE", help="write the table as a markdown section to FILE")
    args = parser.parse_args()
    load_before = os.getloadavg()
    save_to = Path(args.save) if args.save else None
    results = [bench(shape, args.seeds, save_to, args.threads) for shape in args.sizes.split(",")]
    text = table(results)
    print(text)
    if args.markdown:
        command = "python benchmarks/generate_table.py " + " ".join(sys.argv[1:])
        Path(args.markdown).write_text(
            "## Generator\n\n"
            f"Measured with `{command.strip()}`: `fillomino generate` (generator version {GENERATOR_VERSION}, "
            f"default options) for seeds 0-{args.seeds - 1} at each size, "
            + ("one process. " if args.threads == 1 else f"`threads={args.threads}` (hard questions raced). ")
            + "Time is the whole `generate()` call (answer, carving and every uniqueness question); "
            "a failure would count as infinite time. Median and 95th percentile are wall-clock; the CPU columns "
            "are the CPU time of the process and its racing children, which other jobs on a shared machine "
            "inflate much less. "
            "Clue density is clues / cells.\n\n"
            + text
            + f"\nMachine: {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
            f"{os.cpu_count()} cores shared with other jobs; load average {load_before[0]:.1f} at the start "
            f"and {os.getloadavg()[0]:.1f} at the end (above 1 the times are inflated by other work).\n",
            encoding="utf-8",
        )
        print(f"wrote {args.markdown}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
