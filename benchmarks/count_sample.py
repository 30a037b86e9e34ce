"""Issue 21's 64-cell target beyond the count_clued table: a seeded sample of random clued boards, each classified.

The target: every clued board of up to 64 cells with at most 10^6 pictures (or cuts) counted exactly in at most
5 s. Each board of the sample (a random picture of benchmarks/count_clued.py keeping each number with a
probability drawn from --keep) is counted by the region search under a CPU budget (--seconds, 5), pictures and
cuts. A board it does not finish is listed as ``fillomino count --limit 1000001`` lists it (the region search,
handing over to enumeration in dead ends) under a wall budget (--limit-seconds), which either reaches 1000001
("at least": outside the target's set, shown by a lower bound), or ends with an exact count (at most 10^6 but
slower than the budget: a miss), or neither (not shown either way: a miss, printed with a random-walk estimate).

Every count of at most 10^6 is checked against the frontier sweep (CPU budget --other-seconds), by
enumeration (counts up to --enumerate-most, cuts up to --enumerate-most-cuts) and by tests/bruteforce.py
(boards of at most --brute-cells cells, in a child with a wall timeout). Every method that finishes must agree (and
no exact count may fall below a lower bound), or the script exits 1. ``--tree DIR`` imports that tree's
fillomino (say a compiled copy).

    python benchmarks/count_sample.py --tree /tmp/m14 --sample 100 --sides 7,8 --keep 0.25,0.6
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# --tree DIR: import that tree's fillomino (a compiled copy) under this script, before count_clued puts ROOT first
sys.path.insert(0, sys.argv[sys.argv.index("--tree") + 1] if "--tree" in sys.argv[:-1] else str(ROOT))
importlib.import_module("fillomino")
sys.path.insert(0, str(ROOT / "benchmarks"))

from count_clued import measure, random_picture  # noqa: E402  (beside this script)
from count_profile import cpu_timer, estimate  # noqa: E402

from fillomino.count import count  # noqa: E402
from fillomino.frontier import FrontierCount, FrontierTimeout  # noqa: E402
from fillomino.puzzle import Puzzle  # noqa: E402
from fillomino.regions import RegionSearch, RegionTimeout  # noqa: E402
from fillomino.solvers import Budget  # noqa: E402

TARGET = 10**6


def sample_boards(seed: int, n: int, sides: list[int], keep: tuple[float, float]) -> list[tuple[str, Puzzle]]:
    """``n`` boards, sides taken in turn, each keeping every number of its random picture with a probability drawn
    uniformly from ``keep``; the same seed gives the same boards."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        side = sides[i % len(sides)]
        share = rng.uniform(*keep)
        picture = random_picture(side, side, rng)
        clues = tuple(v if rng.random() < share else 0 for v in picture)
        out.append((f"{side}x{side} keep {share:.2f} s{seed}#{i + 1}", Puzzle(side, side, clues)))
    return out


def regions_cpu(puzzle: Puzzle, cuts: bool, seconds: float) -> tuple[int | None, float]:
    """(count or None, CPU seconds) of the region search under a CPU budget."""
    start = time.process_time()
    timer, deadline = cpu_timer(seconds)
    try:
        n: int | None = RegionSearch(puzzle, cuts=cuts, deadline=deadline, timer=timer).count()
    except RegionTimeout:
        n = None
    return n, time.process_time() - start


def frontier_cpu(puzzle: Puzzle, cuts: bool, seconds: float) -> tuple[int | None, float]:
    start = time.process_time()
    # the sweep reads its timer every 256th state already: cpu_timer's own thinning (every 64th read) on top of
    # that let it overrun a 5 s budget by 7 s, so it reads the CPU clock each time it asks
    try:
        n: int | None = FrontierCount(puzzle, cuts=cuts, deadline=start + seconds, timer=time.process_time).count()
    except (FrontierTimeout, RegionTimeout):
        n = None
    return n, time.process_time() - start


def limited(puzzle: Puzzle, cuts: bool, seconds: float, limit: int = TARGET + 1,
            method: str = "auto") -> tuple[int, str, str, float]:
    """``count --limit`` as the command runs it: (count, status, method, CPU seconds) under a wall budget."""
    start = time.process_time()
    got = count(puzzle, cuts=cuts, limit=limit, method=method, budget=Budget(seconds=seconds))
    return got.count, got.status, got.method, time.process_time() - start


def classify(name: str, puzzle: Puzzle, cuts: bool, args: argparse.Namespace) -> dict:
    kind = "cuts" if cuts else "pictures"
    row: dict = {"board": name, "kind": kind, "clues": sum(1 for v in puzzle.clues if v), "checks": {}}
    n, cpu = regions_cpu(puzzle, cuts, args.seconds)
    row["regions"] = (n, cpu)
    if n is not None:
        row["class"] = "met" if n <= TARGET else "over (exact)"
        row["count"] = n
    else:
        got, status, method, lcpu = limited(puzzle, cuts, args.limit_seconds)
        row["limit"] = (got, status, method, lcpu)
        if status == "exact":
            row["class"], row["count"] = ("slow" if got <= TARGET else "over (exact)"), got
        elif got > TARGET:
            row["class"], row["lower"] = "over (at least)", got
        else:
            row["class"], row["lower"] = "unknown", got
            if args.walks:
                row["estimate"] = estimate(puzzle, cuts, args.walks, 1)
    exact = row.get("count")
    checks = row["checks"]
    if exact is not None and exact <= TARGET:  # past 10^6 the sweep does not finish within seconds
        checks["frontier"] = frontier_cpu(puzzle, cuts, args.other_seconds)
    most = args.enumerate_most_cuts if cuts else args.enumerate_most
    if exact is not None and exact <= most:
        got, status, _method, ecpu = limited(puzzle, cuts, args.other_seconds, limit=most + 1,
                                             method="enumerate")
        checks["enumerate"] = (got if status == "exact" else None, ecpu)
    if puzzle.rows * puzzle.cols <= args.brute_cells:
        checks["brute"] = measure("brute", kind, puzzle.rows, puzzle.cols, puzzle.clues, args.brute_timeout)
    found = {m: v[0] for m, v in checks.items() if v[0] is not None}
    if exact is not None:
        found["regions"] = exact
    bad = len(set(found.values())) > 1 or any(v < row.get("lower", 0) for v in found.values())
    row["disagree"] = found if bad else None
    return row


def line(row: dict) -> str:
    n, cpu = row["regions"]
    text = f"{row['board']} {row['kind']} ({row['clues']} clues): {row['class']}, regions "
    text += f"{n} in {cpu:.2f} CPU s" if n is not None else f">{cpu:.1f} CPU s"
    if "limit" in row:
        got, status, method, lcpu = row["limit"]
        text += f"; --limit {TARGET + 1}: {status} {got} by {method} in {lcpu:.1f} CPU s"
    if "estimate" in row:
        mean, error = row["estimate"]
        text += f"; estimate {mean:.3g} (standard error {error:.2g})"
    for method, (got, mcpu) in row["checks"].items():
        text += f"; {method} " + (f"{got} in {mcpu:.2f} s" if got is not None else f">{mcpu:.1f} s")
    if row["disagree"]:
        text += f"; DISAGREE {row['disagree']}"
    return text


def summary(rows: list[dict], args: argparse.Namespace) -> list[str]:
    out = []
    classes = ["met", "over (exact)", "over (at least)", "slow", "unknown"]
    for kind in ("pictures", "cuts"):
        mine = [r for r in rows if r["kind"] == kind]
        tally = {c: sum(1 for r in mine if r["class"] == c) for c in classes}
        times = [r["regions"][1] for r in mine if r["class"] == "met"]
        inside = tally["met"] + tally["slow"]
        out.append(f"- {kind}: {len(mine)} boards; {tally['met']} with at most 10^6 counted within {args.seconds:g} "
                   f"CPU s (median {statistics.median(times) if times else 0:.2f}, slowest "
                   f"{max(times) if times else 0:.2f}); {tally['over (exact)']} counted past 10^6; "
                   f"{tally['over (at least)']} shown past 10^6 by --limit {TARGET + 1}; misses: {tally['slow']} "
                   f"at most 10^6 but slower, {tally['unknown']} neither (of {inside + tally['unknown']} that may be "
                   f"in the target's set)")
    pairs = {}
    for r in rows:
        pairs.setdefault(r["board"], {})[r["kind"]] = r
    both = [p for p in pairs.values() if len(p) == 2 and p["cuts"]["class"] == p["pictures"]["class"] == "met"]
    ratios = [p["cuts"]["regions"][1] / max(p["pictures"]["regions"][1], 1e-3) for p in both]
    if ratios:
        out.append(f"- cuts against pictures, boards both counted within the budget ({len(ratios)}): CPU "
                   f"{sum(p['cuts']['regions'][1] for p in both):.2f} s of cuts for "
                   f"{sum(p['pictures']['regions'][1] for p in both):.2f} s of pictures in total; per board "
                   f"median {statistics.median(ratios):.2f}x, worst {max(ratios):.2f}x (under 1 ms counts as 1 ms)")
    checked = {m: [0, 0] for m in ("frontier", "enumerate", "brute")}
    for r in rows:
        for m, (got, _cpu) in r["checks"].items():
            checked[m][0] += 1
            checked[m][1] += got is not None
    out.append("- cross-checks run (finished): " + ", ".join(f"{m} {a} ({b})" for m, (a, b) in checked.items()) +
               f"; disagreements: {sum(1 for r in rows if r['disagree'])}")
    brute = [(r["regions"][1], r["checks"]["brute"][1]) for r in rows
             if "brute" in r["checks"] and r["checks"]["brute"][0] is not None and r["regions"][0] is not None]
    if brute:
        slower = [(a, b) for a, b in brute if a > b + 0.01]
        out.append(f"- against the brute force ({len(brute)} runs it finished): the region search slower by more than "
                   f"10 ms on {len(slower)}" + "".join(f" ({a:.2f} s against {b:.2f} s)" for a, b in slower))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=100, help="boards in the sample (default 100)")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--sides", default="7,8", help="side lengths, taken in turn (default 7,8)")
    ap.add_argument("--keep", default="0.25,0.6", help="range of the share of numbers kept as clues")
    ap.add_argument("--seconds", type=float, default=5.0, help="CPU budget of the region search (default 5)")
    ap.add_argument("--limit-seconds", type=float, default=90.0, help="wall budget of --limit 1000001 (default 90)")
    ap.add_argument("--other-seconds", type=float, default=5.0, help="budget of each cross-check (default 5)")
    ap.add_argument("--enumerate-most", type=int, default=1000, help="enumerate only counts up to this")
    ap.add_argument("--enumerate-most-cuts", type=int, default=50, help="enumerate only cut counts up to this (the "
                    "CNF engine lists cuts far slower than pictures)")
    ap.add_argument("--brute-cells", type=int, default=25)
    ap.add_argument("--brute-timeout", type=float, default=20.0, help="wall seconds for the brute force")
    ap.add_argument("--walks", type=int, default=300, help="random walks estimating a board not shown either way")
    ap.add_argument("--boards", help="only these boards of the sample, by number (say 2,58): a re-run of a few")
    ap.add_argument("--tree", metavar="DIR", help="import fillomino from this tree (read before the imports)")
    args = ap.parse_args()
    import fillomino.regions

    compiled = fillomino.regions.__file__.endswith(".so")
    print(f"fillomino from {Path(fillomino.regions.__file__).parent} ({'compiled' if compiled else 'pure'})")
    low, high = (float(x) for x in args.keep.split(","))
    rows = []
    only = {int(x) for x in args.boards.split(",")} if args.boards else None
    boards = sample_boards(args.seed, args.sample, [int(s) for s in args.sides.split(",")], (low, high))
    for i, (name, puzzle) in enumerate(boards):
        if only is not None and i + 1 not in only:
            continue
        for cuts in (False, True):
            rows.append(classify(name, puzzle, cuts, args))
            print(line(rows[-1]), flush=True)
    print()
    for text in summary(rows, args):
        print(text)
    misses = [r for r in rows if r["class"] in ("slow", "unknown")]
    for r in misses:
        print(f"  miss: {r['board']} {r['kind']}: {r['class']}")
    return 1 if any(r["disagree"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
