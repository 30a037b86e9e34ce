"""What a process's first puzzle costs beyond the generator: the same seeds timed three ways, in one source tree.

    PYTHONPATH=TREE python benchmarks/generate_first.py --cells 5x5:easy,7x7:easy --seeds 0-19

"first": a forked child makes the puzzle (as generate_levels.py and generate_trees.py time it); "second": a forked
child first makes an untimed puzzle of the cell (seed + 1000000), then the timed one (generate_trees.py --warm);
"in-process": this process makes them one after another, after one untimed puzzle (as seed 000's table counts).
The imports come before any of them. Prints per cell the CPU medians and the mean minor page faults of the timed
puzzle (a forked child's first writes to memory it shares with its parent fault, and on a virtual machine a fault
is dear).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from stats import parse_seeds  # noqa: E402  (benchmarks/stats.py, beside this script)

import fillomino.logic  # noqa: E402, F401  (imported before the forks, so no puzzle's time includes them)
import fillomino.solvers.cnf  # noqa: E402, F401
from fillomino.generate import generate  # noqa: E402

WARM_SEED = 1_000_000


def _faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def _timed(rows: int, cols: int, seed: int, level: str) -> tuple[float, int]:
    """(CPU seconds, minor page faults) of one puzzle made here."""
    faults, cpu = _faults(), time.process_time()
    generate(rows, cols, seed, level=level)
    return time.process_time() - cpu, _faults() - faults


def _in_child(rows: int, cols: int, seed: int, level: str, warm: bool) -> tuple[float, int]:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        if warm:
            generate(rows, cols, seed + WARM_SEED, level=level)
        os.write(write, json.dumps(_timed(rows, cols, seed, level)).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        cpu, faults = json.loads(f.read())
    os.waitpid(pid, 0)
    return cpu, faults


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cells", default="5x5:easy,5x5:medium,7x7:easy,10x10:easy", help="size:level pairs")
    ap.add_argument("--seeds", default="0-19", help="e.g. 0-19 or 0,3,5-7 (default: 0-19)")
    args = ap.parse_args(argv)
    seeds = parse_seeds(args.seeds)
    print("| Cell | First puzzle | Second puzzle | In-process | Faults (first / second / in-process) |")
    print("|---|---|---|---|---|")
    for cell in args.cells.split(","):
        size, level = cell.split(":")
        rows, cols = (int(x) for x in size.split("x"))
        ways: dict[str, list[tuple[float, int]]] = {"first": [], "second": [], "in-process": []}
        for seed in seeds:
            ways["first"].append(_in_child(rows, cols, seed, level, warm=False))
            ways["second"].append(_in_child(rows, cols, seed, level, warm=True))
        generate(rows, cols, WARM_SEED, level=level)
        for seed in seeds:
            ways["in-process"].append(_timed(rows, cols, seed, level))
        medians = [f"{1000 * statistics.median(cpu for cpu, _ in got):.1f} ms" for got in ways.values()]
        faults = " / ".join(f"{statistics.mean(f for _, f in got):.0f}" for got in ways.values())
        print(f"| {size} {level} | {' | '.join(medians)} | {faults} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
