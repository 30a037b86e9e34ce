"""Exact counts of clued boards by every method, with seconds, for docs/benchmarks-count.md.

Two sets of boards, both fixed by --seed:
- random clued boards 4x4 to 8x8: a random picture (regions of 1-9 cells laid at random) keeping a
  random share of its numbers as clues, so every board has at least one solution and the counts
  run from 1 to millions;
- 10x10 drafts: real puzzles of the external corpus with 2 to 12 of their clues removed.

Each count runs in its own child process with a wall-clock timeout. Methods: the region search
(``regions``), the transfer matrix, enumeration on the CNF engine (only where the region search
found at most --enumerate-most or gave up), Ganak (boards of at most --ganak-cells) and the independent brute
force of tests/bruteforce.py (boards of at most --brute-cells). Every pair of methods that finishes
must agree, or the script exits 1. With --write, the table replaces the clued-board section of the
file (between the two ``count_clued`` markers), leaving the rest as it is.

    python benchmarks/count_clued.py --write docs/benchmarks-count.md
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from stats import percentile, write_section  # noqa: E402  (benchmarks/stats.py, beside this script)

BEGIN = "<!-- count_clued begin -->"
END = "<!-- count_clued end -->"
METHODS = ("regions", "transfer", "enumerate", "ganak", "brute")


def random_picture(rows: int, cols: int, rng: random.Random, biggest: int = 9) -> list[int]:
    """A random picture: regions of random size grown at random from the first open cell, retried until
    no two regions of one size touch."""
    from fillomino.grid import neighbours

    n = rows * cols
    nbrs = neighbours(rows, cols)
    while True:
        label = [0] * n
        ok = True
        for start in range(n):
            if label[start]:
                continue
            want = rng.randint(1, biggest)
            region, seen = [start], {start}
            while len(region) < want:
                edge = [m for c in region for m in nbrs[c] if not label[m] and m not in seen]
                if not edge:
                    break
                m = rng.choice(edge)
                seen.add(m)
                region.append(m)
            size = len(region)
            for c in region:
                label[c] = -1
            ok = not any(label[m] == size for c in region for m in nbrs[c])
            for c in region:
                label[c] = size
            if not ok:
                break
        if ok:
            return label


def random_boards(seed: int, per_shape: int) -> list[tuple[str, int, int, tuple[int, ...]]]:
    rng = random.Random(seed)
    out = []
    for side in (4, 5, 6, 7, 8):
        for i in range(per_shape):
            keep = (0.35, 0.45, 0.55, 0.65)[i % 4]
            picture = random_picture(side, side, rng)
            clues = tuple(v if rng.random() < keep else 0 for v in picture)
            out.append((f"{side}x{side} keep {keep:.2f} #{i + 1}", side, side, clues))
    return out


def drafts(seed: int, puzzles: int, removed: list[int]) -> list[tuple[str, int, int, tuple[int, ...]]]:
    """10x10 puzzles of the external corpus (first ``puzzles`` by name) with clues removed at random."""
    from conftest import external_files

    from fillomino.formats import parse_puzzle

    rng = random.Random(seed)
    out = []
    taken = 0
    for path in external_files():
        if taken >= puzzles or not path.name.startswith("janko-"):
            continue
        puzzle = parse_puzzle(path.read_text())
        if (puzzle.rows, puzzle.cols) != (10, 10):
            continue
        taken += 1
        clued = [i for i, v in enumerate(puzzle.clues) if v]
        for k in removed:
            gone = set(rng.sample(clued, k))
            clues = tuple(0 if i in gone else v for i, v in enumerate(puzzle.clues))
            out.append((f"{path.stem} -{k}", 10, 10, clues))
    return out


def _work(method: str, kind: str, rows: int, cols: int, clues: tuple[int, ...], queue: mp.Queue) -> None:
    import bruteforce

    from fillomino.count import count
    from fillomino.puzzle import Puzzle

    start = time.perf_counter()
    if method == "brute":
        n = (bruteforce.count_cuts if kind == "cuts" else bruteforce.count_pictures)(rows, cols, list(clues))
    else:
        n = count(Puzzle(rows, cols, clues), cuts=kind == "cuts", method=method).count
    queue.put((n, time.perf_counter() - start))


def measure(method: str, kind: str, rows: int, cols: int, clues: tuple[int, ...],
            timeout: float) -> tuple[int | None, float]:
    """(count, seconds), or (None, timeout) when the child did not finish in time."""
    queue: mp.Queue = mp.Queue()
    child = mp.Process(target=_work, args=(method, kind, rows, cols, clues, queue))
    child.start()
    child.join(timeout)
    if child.is_alive():
        child.kill()  # Ganak's own child dies with it (parent-death signal)
        child.join()
        return None, timeout
    if queue.empty():
        return None, timeout
    return queue.get()


def run_board(name: str, rows: int, cols: int, clues: tuple[int, ...], kinds: list[str],
              args: argparse.Namespace, region_timeout: float) -> dict:
    row: dict = {"board": name, "cells": rows * cols, "clues": sum(1 for v in clues if v)}
    for kind in kinds:
        got: dict[str, tuple[int | None, float] | None] = {m: None for m in METHODS}
        got["regions"] = measure("regions", kind, rows, cols, clues, region_timeout)
        n = got["regions"][0]
        if n is None or n <= args.enumerate_most:  # where the region search gave up, enumeration may not
            got["enumerate"] = measure("enumerate", kind, rows, cols, clues, args.timeout)
        if args.others and not name.startswith("janko-"):  # 10x10 drafts: past the others' reach
            got["transfer"] = measure("transfer", kind, rows, cols, clues, args.timeout)
            if rows * cols <= args.ganak_cells:
                got["ganak"] = measure("ganak", kind, rows, cols, clues, args.timeout)
            if rows * cols <= args.brute_cells:
                got["brute"] = measure("brute", kind, rows, cols, clues, args.timeout)
        row[kind] = got
    return row


def fmt(entry: tuple[int | None, float] | None) -> str:
    if entry is None:
        return "-"
    n, seconds = entry
    return f"{seconds:.2f}" if n is not None else f">{seconds:.0f}"


def table(rows: list[dict], kinds: list[str]) -> list[str]:
    head = "| board | clues |"
    rule = "|---|---:|"
    for kind in kinds:
        head += f" {kind} |" + "".join(f" {m} s |" for m in METHODS)
        rule += "---:|" + "---:|" * len(METHODS)
    lines = [head, rule]
    for row in rows:
        line = f"| {row['board']} | {row['clues']} |"
        for kind in kinds:
            found = [v[0] for v in row[kind].values() if v is not None and v[0] is not None]
            line += f" {found[0] if found else '?'} |" + "".join(f" {fmt(row[kind][m])} |" for m in METHODS)
        lines.append(line)
    return lines


def summary(rows: list[dict], kind: str) -> str:
    times = [row[kind]["regions"][1] for row in rows if row[kind]["regions"][0] is not None]
    left = sum(1 for row in rows if row[kind]["regions"][0] is None)
    if not times:
        return f"{kind}: the region search finished none of {len(rows)}"
    return (f"{kind}: the region search finished {len(times)} of {len(rows)} (median {statistics.median(times):.2f} s, "
            f"95th percentile {percentile(times, 0.95):.2f} s, slowest {max(times):.2f} s; {left} timed out)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--per-shape", type=int, default=4, help="random boards per side length 4..8 (default 4)")
    ap.add_argument("--puzzles", type=int, default=4, help="external 10x10 puzzles made into drafts (default 4)")
    ap.add_argument("--removed", default="2,6,12", help="clues removed per draft (default 2,6,12)")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds for each other method (default 10)")
    ap.add_argument("--region-timeout", type=float, default=30.0, help="seconds for the region search on random "
                    "boards (default 30)")
    ap.add_argument("--draft-timeout", type=float, default=60.0, help="seconds for the region search on drafts")
    ap.add_argument("--enumerate-most", type=int, default=3000, help="enumerate only counts up to this")
    ap.add_argument("--ganak-cells", type=int, default=16)
    ap.add_argument("--brute-cells", type=int, default=25)
    ap.add_argument("--no-others", dest="others", action="store_false", help="time the region search only")
    ap.add_argument("--write", metavar="FILE", help="replace the clued-board section of this markdown file")
    args = ap.parse_args()

    kinds = ["pictures", "cuts"]
    randoms, draft_rows = [], []
    for name, r, c, clues in random_boards(args.seed, args.per_shape):
        randoms.append(run_board(name, r, c, clues, kinds, args, args.region_timeout))
        print(table([randoms[-1]], kinds)[-1], flush=True)
    removed = [int(x) for x in args.removed.split(",")]
    for name, r, c, clues in drafts(args.seed, args.puzzles, removed):
        draft_rows.append(run_board(name, r, c, clues, kinds, args, args.draft_timeout))
        print(table([draft_rows[-1]], kinds)[-1], flush=True)

    disagree = []
    for row in randoms + draft_rows:
        for kind in kinds:
            found = {m: v[0] for m, v in row[kind].items() if v is not None and v[0] is not None}
            if len(set(found.values())) > 1:
                disagree.append((row["board"], kind, found))
    for board, kind, found in disagree:
        print(f"DISAGREE {board} {kind}: {found}", file=sys.stderr)
    if args.write:
        write(Path(args.write), report(randoms, draft_rows, kinds, args))
    return 1 if disagree else 0


def report(randoms: list[dict], drafts_: list[dict], kinds: list[str], args: argparse.Namespace) -> str:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    argv = " ".join(sys.argv[1:])
    lines = [
        BEGIN,
        "## Counting clued boards exactly",
        "",
        f"Generated by `python benchmarks/count_clued.py {argv}` at commit {commit} on "
        f"{platform.python_implementation()} {platform.python_version()}, {time.strftime('%Y-%m-%d')}.",
        "Seconds per method, each in its own process with a wall-clock timeout (`>T` = did not finish in T s,",
        "`-` = not run: enumeration only on small counts, Ganak and the brute force only on small boards).",
        "Every method that finished agreed with every other (the script exits 1 otherwise). The machine has",
        "2 cores shared with other engineers' jobs, so times are noisy.",
        "",
        "Random clued boards (a random picture keeping a share of its numbers as clues):",
        "",
        *[f"- {summary(randoms, kind)}" for kind in kinds],
        "",
        *table(randoms, kinds),
        "",
        "10x10 drafts (external puzzles with clues removed):",
        "",
        *[f"- {summary(drafts_, kind)}" for kind in kinds],
        "",
        *table(drafts_, kinds),
        END,
    ]
    return "\n".join(lines) + "\n"


def write(path: Path, section: str) -> None:
    write_section(path, section, BEGIN, END)


if __name__ == "__main__":
    sys.exit(main())
