"""Compare the CNF and CP-SAT backends on `unique`: per grid size, median, 95th percentile and max seconds.

Every puzzle goes to both backends with the same budget; their verdicts are compared as `fillomino
crosscheck` does, so the timing run is also a cross-check. Usage:

    python benchmarks/backends.py [PATH ...] [--limit N] [--per-size N] [--budget S] [--cpu] [--markdown OUT]

PATH defaults to ../shared/corpus-external. `--per-size N` keeps the first N puzzles of each grid size
(a sample for the large sizes); `--markdown` writes the table and the command that made it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from stats import percentile  # noqa: E402  (benchmarks/stats.py, beside this script)

from fillomino.commands.crosscheck import compare  # noqa: E402
from fillomino.formats import iter_puzzle_files, read_puzzle  # noqa: E402
from fillomino.solvers import Budget, uniqueness  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus-external"
BACKENDS = ("cnf", "cpsat")


def select(paths: list[str], limit: int | None, per_size: int | None) -> list[tuple[Path, object]]:
    chosen, taken = [], defaultdict(int)
    for path in iter_puzzle_files(paths):
        puzzle = read_puzzle(str(path))
        if per_size is not None and taken[puzzle.shape] >= per_size:
            continue
        taken[puzzle.shape] += 1
        chosen.append((path, puzzle))
        if limit is not None and len(chosen) >= limit:
            break
    return chosen


def stats(seconds: list[float], unknown: int) -> str:
    if not seconds:
        return f"| - | - | - | {unknown or ''} "
    return (
        f"| {statistics.median(seconds):.3f} | {percentile(seconds, 0.95):.3f} | {max(seconds):.3f} | {unknown or ''} "
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", default=[str(DEFAULT_CORPUS)], help="puzzle files or folders")
    ap.add_argument("--limit", type=int, default=None, help="only the first N puzzles")
    ap.add_argument("--per-size", type=int, default=None, help="only the first N puzzles of each grid size")
    ap.add_argument("--budget", type=float, default=60.0, help="seconds per puzzle and backend (default 60)")
    ap.add_argument("--cpu", action="store_true", help="process CPU time instead of wall time (busy machines)")
    ap.add_argument("--markdown", default=None, help="write the table (and the command) to this file")
    args = ap.parse_args(argv)

    puzzles = select(args.paths, args.limit, args.per_size)
    for backend in BACKENDS:  # warm up: imports and first-call costs stay out of the timings
        uniqueness(read_puzzle("fillomino:3x3:a2b234b"), backend=backend)
    clock = time.process_time if args.cpu else time.perf_counter
    by_shape: dict[tuple[int, int], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    unknown: dict[tuple[int, int], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    problems = []
    started = time.perf_counter()
    for path, puzzle in puzzles:
        verdicts = {}
        for backend in BACKENDS:
            start = clock()
            verdicts[backend] = uniqueness(puzzle, backend=backend, budget=Budget(seconds=args.budget))
            seconds = clock() - start
            key = (puzzle.rows, puzzle.cols)
            if verdicts[backend].status.value == "unknown":
                unknown[key][backend] += 1
            else:
                by_shape[key][backend].append(seconds)
        agree, reason = compare(puzzle, verdicts)
        line = "  ".join(f"{b} {v.status.value} {v.seconds:.2f}s" for b, v in verdicts.items())
        print(f"{path.name} {puzzle.shape} {line}" + ("" if agree else f"  [{reason}]"), flush=True)
        if agree is False:
            problems.append(f"{path.name}: {reason}")

    header = "| size | puzzles |" + "".join(f" {b} median | {b} p95 | {b} max | {b} unknown |" for b in BACKENDS)
    rule = "|---|---|" + "---|---|---|---|" * len(BACKENDS)
    rows = []
    for key in sorted(by_shape.keys() | unknown.keys(), key=lambda k: (k[0] * k[1], k)):
        n = max(len(by_shape[key][b]) + unknown[key][b] for b in BACKENDS)
        cells = "".join(stats(by_shape[key][b], unknown[key][b]) for b in BACKENDS)
        rows.append(f"| {key[0]}x{key[1]} | {n} {cells}|")
    everything = {b: [s for k in by_shape for s in by_shape[k][b]] for b in BACKENDS}
    missing = {b: sum(unknown[k][b] for k in unknown) for b in BACKENDS}
    rows.append(f"| all | {len(puzzles)} " + "".join(stats(everything[b], missing[b]) for b in BACKENDS) + "|")
    table = "\n".join([header, rule, *rows])
    print()
    print(table)
    print(f"\n{len(puzzles)} puzzles, {len(problems)} disagreements, {time.perf_counter() - started:.0f} s in all")
    for p in problems:
        print("DISAGREE", p)
    if args.markdown:
        command = "python benchmarks/backends.py " + " ".join(argv if argv is not None else sys.argv[1:])
        clock_name = "process CPU" if args.cpu else "wall-clock"
        Path(args.markdown).write_text(
            f"# Backends: CNF vs CP-SAT on `unique`\n\n"
            f"Made by `{command}` ({clock_name} seconds per puzzle, budget {args.budget:g} s per puzzle and "
            f"backend; 'unknown' puzzles ran out of it and are left out of the timings).\n\n"
            f"{table}\n\n{len(puzzles)} puzzles, {len(problems)} disagreements.\n"
            + "".join(f"- DISAGREE {p}\n" for p in problems),
            encoding="utf-8",
        )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
