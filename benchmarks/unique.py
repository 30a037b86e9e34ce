"""Time `unique` (the CNF engine) over a folder of puzzles: per grid size count, median, p95 and max seconds.

Also checks every answer against the file's stored status and solution, so a speed-up that breaks
soundness shows at once. Usage:

    python benchmarks/unique.py [PATH ...] [--budget S] [--limit N] [--match TEXT] [--tsv OUT] [--cpu]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fillomino.formats import iter_puzzle_files, read_puzzle  # noqa: E402
from fillomino.solvers import Budget, Status, uniqueness  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus-external"
SLOW = 1.0
"""Puzzles slower than this many seconds are listed one by one."""


def check(puzzle, verdict) -> str:
    """'' when the verdict agrees with the file's status and solution, else what is wrong."""
    stored = puzzle.meta("status")
    got = verdict.status
    if got is Status.UNKNOWN:
        return "budget ran out"
    if stored == "unique":
        if got is not Status.UNIQUE:
            return f"stored unique, engine says {got.value}"
        if puzzle.solution is not None and verdict.solutions[0] != puzzle.solution:
            return "unique, but not the stored solution"
    elif stored == "multiple" and got is not Status.MULTIPLE:
        return f"stored multiple, engine says {got.value}"
    elif stored == "published":
        if got is Status.MULTIPLE:
            return "published puzzle is ambiguous (a finding: see the two answers with `fillomino unique`)"
        if got is Status.UNIQUE and puzzle.solution is not None and verdict.solutions[0] != puzzle.solution:
            return "published solution differs from the engine's unique answer"
        if got is Status.NONE:
            return "published puzzle has no answer"
    return ""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", default=[str(DEFAULT_CORPUS)], help="puzzle files or folders")
    ap.add_argument("--budget", type=float, default=None, help="seconds per puzzle (default: none)")
    ap.add_argument("--limit", type=int, default=None, help="only the first N files")
    ap.add_argument("--match", default=None, help="only files whose name contains this text")
    ap.add_argument("--tsv", default=None, help="write file, shape, status, seconds per puzzle here")
    ap.add_argument("--quiet", action="store_true", help="no progress line per slow puzzle")
    ap.add_argument("--cpu", action="store_true", help="measure process CPU time instead of wall time "
                    "(steadier on a busy machine)")
    args = ap.parse_args(argv)

    files = [p for p in iter_puzzle_files(args.paths) if args.match is None or args.match in p.name]
    if args.limit is not None:
        files = files[: args.limit]
    budget = Budget(seconds=args.budget)
    clock = time.process_time if args.cpu else time.perf_counter
    rows: list[tuple[str, str, str, float, str]] = []
    for path in files:
        puzzle = read_puzzle(str(path))
        start = clock()
        verdict = uniqueness(puzzle, budget=budget)
        seconds = clock() - start
        problem = check(puzzle, verdict)
        rows.append((path.name, puzzle.shape, verdict.status.value, seconds, problem))
        if not args.quiet and (seconds > SLOW or problem):
            print(f"  {path.name} {puzzle.shape} {verdict.status.value} {seconds:.2f}s {problem}", flush=True)

    if args.tsv:
        with open(args.tsv, "w") as out:
            out.write("file\tshape\tstatus\tseconds\tproblem\n")
            for name, shape, status, seconds, problem in rows:
                out.write(f"{name}\t{shape}\t{status}\t{seconds:.4f}\t{problem}\n")

    by_shape: dict[str, list[float]] = {}
    for _, shape, _, seconds, _ in rows:
        by_shape.setdefault(shape, []).append(seconds)

    def cells(shape: str) -> tuple[int, str]:
        r, c = map(int, shape.split("x"))
        return r * c, shape

    print(f"{'shape':>7} {'count':>5} {'median':>8} {'p95':>8} {'max':>8}")
    for shape in sorted(by_shape, key=cells):
        t = by_shape[shape]
        print(f"{shape:>7} {len(t):5d} {statistics.median(t):8.3f} {percentile(t, 0.95):8.3f} {max(t):8.3f}")
    total = [s for _, _, _, s, _ in rows]
    if total:
        print(f"{'all':>7} {len(total):5d} {statistics.median(total):8.3f} {percentile(total, 0.95):8.3f} "
              f"{max(total):8.3f}   total {sum(total):.1f} s")
    problems = [r for r in rows if r[4]]
    for name, shape, status, seconds, problem in problems:
        print(f"PROBLEM {name} {shape} {status} {seconds:.2f}s: {problem}")
    return 1 if any("budget" not in r[4] and "published" not in r[4] for r in problems) else 0


if __name__ == "__main__":
    sys.exit(main())
