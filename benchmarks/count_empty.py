"""Exact picture and cut counts of empty boards, with seconds per board, for docs/benchmarks-count.md.

Boards: 2 x n (n = 2..24) and every n x m with n <= m and n*m <= 25. Each count runs in its own
child process with a wall-clock timeout (the machine is shared), so one hard board cannot stall the
table. Methods: the transfer matrix for every board, Ganak on the boards of at most --ganak-cells
cells, and the independent brute force (tests/bruteforce.py) on boards of at most --brute-cells
cells; every pair of methods that finishes must agree, or the script exits 1.

    python benchmarks/count_empty.py --timeout 120 --long 4x6,5x5 --long-timeout 900 \
        --write docs/benchmarks-count.md
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


def boards() -> list[tuple[int, int]]:
    shapes = [(2, n) for n in range(2, 25)]
    shapes += [(n, m) for n in range(1, 6) for m in range(n, 26) if n * m <= 25 and (n, m) not in shapes]
    return sorted(set(shapes), key=lambda s: (s[0] * s[1], s))


def _work(kind: str, method: str, rows: int, cols: int, queue: mp.Queue) -> None:
    import bruteforce

    from fillomino.count import count
    from fillomino.puzzle import Puzzle

    start = time.perf_counter()
    if method == "brute":
        n = (bruteforce.count_cuts if kind == "cuts" else bruteforce.count_pictures)(rows, cols)
    else:
        n = count(Puzzle.empty(rows, cols), cuts=kind == "cuts", method=method).count
    queue.put((n, time.perf_counter() - start))


def measure(kind: str, method: str, rows: int, cols: int, timeout: float) -> tuple[int | None, float]:
    """(count, seconds) or (None, timeout) when the child did not finish in time."""
    queue: mp.Queue = mp.Queue()
    child = mp.Process(target=_work, args=(kind, method, rows, cols, queue))
    child.start()
    child.join(timeout)
    if child.is_alive():
        child.terminate()  # also ends ganak's own child: it reads a pipe that closes
        child.join()
        return None, timeout
    if queue.empty():
        return None, timeout
    return queue.get()


def cell(n: int | None, seconds: float | None) -> str:
    if seconds is None:
        return "skipped"
    return f"{n} in {seconds:.2f} s" if n is not None else f"timeout >{seconds:.0f} s"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per board and method (default 120)")
    ap.add_argument("--long", default="4x6,5x5", help="boards that get --long-timeout instead (default 4x6,5x5)")
    ap.add_argument("--long-timeout", type=float, default=900.0, help="seconds for the --long boards (default 900)")
    ap.add_argument("--ganak-cells", type=int, default=12, help="run Ganak on boards up to this many cells")
    ap.add_argument("--brute-cells", type=int, default=12, help="run the brute force up to this many cells")
    ap.add_argument("--max-cells", type=int, default=50, help="skip boards with more cells")
    ap.add_argument("--write", metavar="FILE", help="write the markdown report here")
    ap.add_argument("--json", action="store_true", help="print one JSON line per board")
    args = ap.parse_args()

    rows_out = []
    disagree = []
    gave_up: set[tuple[str, int]] = set()  # (kind, narrow side): a longer board would time out too
    for r, c in boards():
        if r * c > args.max_cells:
            continue
        row = {"board": f"{r}x{c}", "cells": r * c}
        timeout = args.long_timeout if row["board"] in args.long.split(",") else args.timeout
        for kind in ("pictures", "cuts"):
            results: dict[str, tuple[int | None, float | None]] = {}
            if (kind, r) in gave_up:
                results["transfer"] = (None, None)
            else:
                results["transfer"] = measure(kind, "transfer", r, c, timeout)
                if results["transfer"][0] is None:
                    gave_up.add((kind, r))
            if r * c <= args.ganak_cells:
                results["ganak"] = measure(kind, "ganak", r, c, args.timeout)
            if r * c <= args.brute_cells:
                results["brute"] = measure(kind, "brute", r, c, args.timeout)
            found = {m: v[0] for m, v in results.items() if v[0] is not None}
            if len(set(found.values())) > 1:
                disagree.append((row["board"], kind, found))
            row[kind] = {m: {"count": v[0], "seconds": v[1] and round(v[1], 3)} for m, v in results.items()}
        rows_out.append(row)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            p, q = row["pictures"]["transfer"], row["cuts"]["transfer"]
            pictures, cuts = cell(p["count"], p["seconds"]), cell(q["count"], q["seconds"])
            print(f"{row['board']:>6}  pictures {pictures}, cuts {cuts}")
            sys.stdout.flush()
    if args.write:
        Path(args.write).write_text(report(rows_out, args))
    for board, kind, found in disagree:
        print(f"DISAGREE {board} {kind}: {found}", file=sys.stderr)
    return 1 if disagree else 0


def report(rows: list[dict], args: argparse.Namespace) -> str:
    def fmt(entry: dict | None) -> str:
        if entry is None:
            return "-"
        if entry["seconds"] is None:
            return "skipped"
        if entry["count"] is None:
            return f"timeout (>{entry['seconds']:.0f} s)"
        return f"{entry['seconds']:.2f}"

    lines = [
        "| board | cells | pictures (exact) | transfer s | ganak s | brute s | cuts (exact) | transfer s | ganak s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        p, q = row["pictures"], row["cuts"]
        pn = next((v["count"] for v in p.values() if v["count"] is not None), None)
        qn = next((v["count"] for v in q.values() if v["count"] is not None), None)
        lines.append(
            f"| {row['board']} | {row['cells']} | {pn if pn is not None else '?'} | {fmt(p.get('transfer'))} "
            f"| {fmt(p.get('ganak'))} | {fmt(p.get('brute'))} | {qn if qn is not None else '?'} "
            f"| {fmt(q.get('transfer'))} | {fmt(q.get('ganak'))} |"
        )
    head = (
        f"Generated by `python benchmarks/count_empty.py --timeout {args.timeout:.0f} --long {args.long} "
        f"--long-timeout {args.long_timeout:.0f} --ganak-cells "
        f"{args.ganak_cells} --brute-cells {args.brute_cells} --max-cells {args.max_cells} --write "
        f"docs/benchmarks-count.md` on {platform.python_implementation()} {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d')}.\n"
    )
    return "# Counting empty boards exactly\n\n" + head + "\n" + summary(rows) + "\n" + "\n".join(lines) + "\n" + NOTES


def summary(rows: list[dict]) -> str:
    """The headline facts, computed from the table."""

    def seconds(row: dict, kind: str) -> float | None:
        t = row[kind]["transfer"]
        return t["seconds"] if t["count"] is not None else None

    small = [(seconds(r, "pictures"), r["board"]) for r in rows if r["cells"] <= 16]
    worst = max(small, key=lambda x: (x[0] is None, x[0] or 0))
    lines = [
        f"- Every empty board of at most 16 cells: pictures by the transfer matrix, slowest {worst[1]} in "
        + (f"{worst[0]:.2f} s." if worst[0] is not None else "timeout.")
    ]
    two = [r for r in rows if r["board"].startswith("2x")]
    done = [r for r in two if seconds(r, "pictures") is not None]
    if done:
        last = max(done, key=lambda r: r["cells"])
        lines.append(
            f"- 2 x n: pictures exact up to {last['board']} ({last['pictures']['transfer']['count']}, "
            f"{seconds(last, 'pictures'):.1f} s); cuts up to "
            f"{max((r for r in two if seconds(r, 'cuts') is not None), key=lambda r: r['cells'])['board']}."
        )
    for board in ("4x4", "2x12", "4x6", "5x5"):
        row = next((r for r in rows if r["board"] == board), None)
        if row:
            p, q = row["pictures"]["transfer"], row["cuts"]["transfer"]
            lines.append(
                f"- {board}: {p['count'] if p['count'] is not None else 'timeout'} pictures"
                + (f" in {p['seconds']:.1f} s" if p["count"] is not None else "")
                + f", {q['count'] if q['count'] is not None else 'timeout'} cuts"
                + (f" in {q['seconds']:.1f} s." if q["count"] is not None else ".")
            )
    return "\n".join(lines) + "\n"


NOTES = """
Columns: seconds per method, each in its own process with a wall-clock timeout; `-` = not run (Ganak and
the brute force only run on small boards). Every method that finished agreed with every other (the
script exits 1 otherwise). The machine has 2 cores shared with other engineers' jobs, so times are
noisy, often inflated two- to threefold.

## Methods and where each stops

- **transfer** (`fillomino/transfer.py`): a row-by-row dynamic program along the narrow side. The
  state is the frontier: which of the W frontier cells are joined through laid cells, each piece's
  size so far, the pairs of touching pieces that must stay apart, and, for pictures, the sizes each
  open piece may not end with (those of finished regions it touches). Sizes are decided when a
  region closes rather than guessed when it opens (guessing labels up front had not finished 3x6 after 2.5 minutes).
  Two reductions keep the states down: after each full row a state and its mirror image are merged
  when the rows below are symmetric, and in the last row a piece with no cell that can still grow is
  closed at once. The state count grows with the width and with the sizes the open pieces can
  still reach, not with the length. 2 x n stays in the tens of thousands of states, growing
  slowly with n (longer boards allow larger regions, so more forbidden sizes), about 1.3x time per
  extra column: 2 x 24 in under 20 s, 2 x 30 (140691670370518739096 pictures) in 48 s; it stops
  only at your patience (extrapolating, about ten minutes at 2 x 40). Width 5 peaks at about a million
  states in the 4th row of a 5x5 (about 1 GB of memory): 5x5 takes minutes and 6x6 (width 6, up
  to 36-cell regions) is out of reach in pure Python. Cuts need no forbidden sizes and stay about
  ten times smaller and faster.
- **ganak** (`fillomino/encode/counting.py`): a complete static CNF whose every auxiliary variable is
  defined by an equivalence (bounded reachability from each cell through cells numbered after it,
  the region's root as its smallest cell, an exactly defined unary counter of each root's region),
  so each picture or cut is exactly one model. It is exact and agrees everywhere it finishes, but
  the encoding is O(N^2 * K) variables and Ganak's component caching gets little grip on it: cuts of
  12 cells take under 2 s, pictures 4 s at 9 cells and about 20 s at 12, and the empty 4x4 did not
  finish in 400 s. Its place is boards too wide for the transfer matrix whose counts are too large
  to list one by one.
- **brute** (`tests/bruteforce.py`): the independent region-laying walker, the referee.

Counts are Python integers: the 2 x 24 picture count is larger than 2^53 and is exact.

## Cross-checks beyond the table

- The brute force, run by hand past the table's 12-cell limit, gives the transfer matrix's numbers on
  3x6 (1320145 pictures, 48 s), 4x5 (10833138 pictures, 413 s) and 4x4 (259728 pictures, 1691690 cuts).
- Ganak (through `fillomino count --method ganak`) against the brute force on 40 random clued boards
  of up to 12 cells, with and without `--max-size`, pictures and cuts: all 80 counts agree (39 s).
- tests/test_count.py checks the transfer matrix against the brute force on every empty board up to
  3x4 and on hundreds of random clued boards (hypothesis), enumeration on 150 more, and the static
  counting CNF model by model.
"""


if __name__ == "__main__":
    sys.exit(main())
