"""Time `unique` (the CNF engine) over a folder of puzzles: per grid size count, median, p95 and max seconds.

Every puzzle is timed on both clocks, wall (perf_counter) and this process's CPU (process_time, steadier
on a shared machine), and every answer is checked against the file's stored status and solution, so a
speed-up that breaks soundness shows at once. Usage:

    python benchmarks/unique.py [PATH ...] [--budget S] [--limit N] [--match TEXT] [--tsv OUT] [--markdown]
                                [--slowest N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from stats import percentile  # noqa: E402  (benchmarks/stats.py, beside this script)

from fillomino.formats import iter_puzzle_files, read_puzzle  # noqa: E402
from fillomino.solvers import Budget, Status, uniqueness  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus-external"
SLOW = 1.0
"""Puzzles slower than this many seconds (wall or CPU) are listed one by one as they finish."""


@dataclass
class Row:
    """One puzzle's result."""

    name: str
    shape: str
    stored: str
    status: str
    wall: float
    cpu: float
    problem: str


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


def cells(shape: str) -> tuple[int, str]:
    r, c = map(int, shape.split("x"))
    return r * c, shape


def summary(rows: list[Row], markdown: bool) -> list[str]:
    """One line per grid size (smallest first) and one for all: count, then median/p95/max wall and CPU."""
    by_shape: dict[str, list[Row]] = {}
    for r in rows:
        by_shape.setdefault(r.shape, []).append(r)
    groups = [(s, by_shape[s]) for s in sorted(by_shape, key=cells)] + [("all", rows)]
    out = []
    if markdown:
        out.append("| size | puzzles | median s | p95 s | max s | median CPU s | p95 CPU s | max CPU s |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    else:
        out.append(f"{'shape':>7} {'count':>5} {'median':>8} {'p95':>8} {'max':>8} "
                   f"{'cpu med':>8} {'cpu p95':>8} {'cpu max':>8}")
    for shape, group in groups:
        stats = []
        for values in ([r.wall for r in group], [r.cpu for r in group]):
            stats += [statistics.median(values), percentile(values, 0.95), max(values)]
        if markdown:
            label = "**all**" if shape == "all" else shape
            out.append(f"| {label} | {len(group)} | " + " | ".join(f"{s:.3f}" for s in stats) + " |")
        else:
            out.append(f"{shape:>7} {len(group):5d} " + " ".join(f"{s:8.3f}" for s in stats))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", default=[str(DEFAULT_CORPUS)], help="puzzle files or folders")
    ap.add_argument("--budget", type=float, default=None, help="wall seconds per puzzle (default: none)")
    ap.add_argument("--limit", type=int, default=None, help="only the first N files")
    ap.add_argument("--match", default=None, help="only files whose name contains this text")
    ap.add_argument("--tsv", default=None, help="write file, shape, statuses, wall and CPU seconds per puzzle here")
    ap.add_argument("--quiet", action="store_true", help="no progress line per slow puzzle")
    ap.add_argument("--markdown", action="store_true", help="print the per-size table as Markdown")
    ap.add_argument("--slowest", type=int, default=5, help="list this many slowest puzzles by CPU (default 5)")
    args = ap.parse_args(argv)

    files = [p for p in iter_puzzle_files(args.paths) if args.match is None or args.match in p.name]
    if args.limit is not None:
        files = files[: args.limit]
    budget = Budget(seconds=args.budget)
    load_before = os.getloadavg()
    rows: list[Row] = []
    for path in files:
        puzzle = read_puzzle(str(path))
        wall, cpu = time.perf_counter(), time.process_time()
        verdict = uniqueness(puzzle, budget=budget)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        row = Row(path.name, puzzle.shape, puzzle.meta("status") or "-", verdict.status.value, wall, cpu,
                  check(puzzle, verdict))
        rows.append(row)
        if not args.quiet and (max(wall, cpu) > SLOW or row.problem):
            print(f"  {row.name} {row.shape} {row.status} {wall:.2f}s wall {cpu:.2f}s CPU {row.problem}",
                  flush=True)
    load_after = os.getloadavg()

    if args.tsv:
        with open(args.tsv, "w") as out:
            out.write("file\tshape\tstored\tstatus\twall\tcpu\tproblem\n")
            for r in rows:
                out.write(f"{r.name}\t{r.shape}\t{r.stored}\t{r.status}\t{r.wall:.4f}\t{r.cpu:.4f}\t{r.problem}\n")
    if not rows:
        print("no puzzle files found")
        return 1
    print("\n".join(summary(rows, args.markdown)))
    print(f"total {sum(r.wall for r in rows):.1f} s wall, {sum(r.cpu for r in rows):.1f} s CPU; "
          f"load average {load_before[0]:.2f} at the start, {load_after[0]:.2f} at the end; "
          f"commit {_commit()}")
    print("slowest (CPU): " + ", ".join(
        f"{r.name} {r.shape} {r.cpu:.2f}s CPU/{r.wall:.2f}s wall"
        for r in sorted(rows, key=lambda r: -r.cpu)[: args.slowest]))
    verdicts: dict[str, int] = {}
    for r in rows:
        key = f"{r.stored}->{r.status}"
        verdicts[key] = verdicts.get(key, 0) + 1
    print("stored->engine: " + ", ".join(f"{k} {n}" for k, n in sorted(verdicts.items())))
    problems = [r for r in rows if r.problem]
    for r in problems:
        print(f"PROBLEM {r.name} {r.shape} {r.status} {r.wall:.2f}s: {r.problem}")
    return 1 if any("budget" not in r.problem and "published" not in r.problem for r in problems) else 0


def _commit() -> str:
    """The measured commit, with '+dirty' when the engine files differ from it."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "fillomino/encode", "fillomino/solvers"],
                               cwd=ROOT).returncode
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


if __name__ == "__main__":
    sys.exit(main())
