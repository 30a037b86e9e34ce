"""Certify one corpus in one process, in N local processes and on an N-worker Dask LocalCluster: the speedup.

    python benchmarks/certify_workers.py ../shared/corpus-external --rounds 3 --markdown docs/benchmarks-workers.md

Each round runs the three ways one after the other (so a drift of the machine's speed hits all three), checks
that they give the same verdict for every puzzle, and records wall seconds and the CPU seconds the engine
runs used. Printed: per way the median and largest wall time over the rounds, the speedup over one process
(medians), and the overhead per puzzle: (wall x workers - engine CPU) / puzzles, which counts scheduling,
pickling, chunk hand-offs and idle cores together.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fillomino.certify import CertifyOptions, certify_files  # noqa: E402
from fillomino.formats import iter_puzzle_files  # noqa: E402
from fillomino.solvers import Budget  # noqa: E402
from fillomino.workers import Workers  # noqa: E402


def one_way(files: list[Path], options: CertifyOptions, workers: Workers) -> tuple[float, float, list[str]]:
    start = time.perf_counter()
    records = certify_files(files, options, workers=workers)
    wall = time.perf_counter() - start
    return wall, sum(r.cpu_seconds for r in records), [f"{r.file}:{r.verdict}" for r in records]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--budget", default="20s")
    parser.add_argument("--markdown", metavar="FILE", help="also write the table, command and commit to FILE")
    args = parser.parse_args()

    from distributed import LocalCluster

    files = list(iter_puzzle_files(args.paths))
    options = CertifyOptions(expect_status=True, budget=Budget.parse(args.budget))
    ways: dict[str, list[tuple[float, float]]] = {}
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        plans = [("1 process", Workers(1), 1), (f"{args.workers} processes", Workers(args.workers), args.workers),
                 (f"LocalCluster, {args.workers} workers", Workers(scheduler=cluster.scheduler_address), args.workers)]
        for r in range(args.rounds):
            verdicts = None
            for name, workers, _width in plans:
                wall, cpu, seen = one_way(files, options, workers)
                if verdicts is not None and seen != verdicts:
                    print(f"round {r + 1}: {name} gave other verdicts than one process", file=sys.stderr)
                    return 1
                verdicts = seen
                ways.setdefault(name, []).append((wall, cpu))
                print(f"round {r + 1}: {name}: {wall:.1f} s wall, {cpu:.1f} CPU s", file=sys.stderr)
    base = statistics.median(w for w, _ in ways["1 process"])
    rows = ["| way | wall s median | wall s max | speedup | CPU s (engines) | overhead ms/puzzle |",
            "|---|---:|---:|---:|---:|---:|"]
    for name, _, width in plans:
        walls = [w for w, _ in ways[name]]
        cpu = statistics.median(c for _, c in ways[name])
        wall = statistics.median(walls)
        overhead = (wall * width - cpu) / len(files) * 1000
        rows.append(f"| {name} | {wall:.1f} | {max(walls):.1f} | {base / wall:.2f} | {cpu:.1f} | {overhead:.1f} |")
    table = "\n".join(rows)
    print(table)
    if args.markdown:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True).stdout.strip()
        load = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else ["?"]
        Path(args.markdown).write_text(
            "# certify on 1 process, N processes and a Dask LocalCluster\n\n"
            f"`python benchmarks/certify_workers.py {' '.join(args.paths)} --workers {args.workers} "
            f"--rounds {args.rounds} --budget {args.budget}` at commit {commit}, {time.strftime('%Y-%m-%d')}, "
            f"{len(files)} puzzles, load average {' '.join(load)} at the end. Medians over the rounds; the "
            "overhead counts scheduling, pickling and idle cores: (wall x workers - engine CPU) / puzzles.\n\n"
            + table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
