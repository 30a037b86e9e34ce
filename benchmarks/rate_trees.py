"""Rate the same puzzles with the rater of two source trees (each may be a compiled build), alternated puzzle by
puzzle in two long-lived worker processes, and compare CPU time and ratings.

    python benchmarks/rate_trees.py /tmp/base /tmp/new                 # the first 60 janko.at 10x10s, 1 s budget
    python benchmarks/rate_trees.py /tmp/base /tmp/new --repeat 3 --files ../shared/corpus-external/janko-0*.txt
    python benchmarks/rate_trees.py /tmp/base /tmp/new --work 20000 --files corpus/20x20/*.txt
    python benchmarks/rate_trees.py /tmp/base /tmp/new --work 22222 --max-level hard --each --files SETS

rate.py's ``--baseline`` imports the older package under another name, which a mypyc build cannot do (its
shared library is named after ``fillomino``); here each tree runs in its own process (``PYTHONPATH=TREE``), the
order of the two alternating from puzzle to puzzle so that both see the same load. Each worker reports the CPU
seconds of ``rate`` (``Rating.seconds``) and a digest of everything else the rating says (level, state, score,
counts, every step); the output is the total and median CPU per tree and round, their ratios, and the puzzles
whose settled ratings differ (exit status 1 if any). ``--work N``: each rating gets a clock.Work of N checks instead
of a CPU budget, so both trees stop at the same check and the ratings cut by it are compared too.
"""

from __future__ import annotations

import argparse
import glob
import statistics
import sys
from pathlib import Path

from trees import TreeWorker  # benchmarks/trees.py, beside this script

WORKER = r"""
import hashlib, json, sys
import fillomino.grid
from fillomino.formats import read_puzzle
from fillomino.logic import rate
from fillomino.clock import Work
from fillomino.solvers import Budget
budget, work, level = float(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
print(json.dumps({"grid": fillomino.grid.__file__}), flush=True)
for line in sys.stdin:
    r = rate(read_puzzle(line.strip()), budget=Work(work) if work else Budget(seconds=budget), max_level=level)
    full = (r.level, r.state, r.score, r.counts, r.open_cells, r.used_level, r.final,
            [(s.technique, s.level, s.cells, s.sentence, s.removes, s.place, s.contradiction) for s in r.steps])
    digest = hashlib.sha256(repr(full).encode()).hexdigest()[:16]
    print(json.dumps({"seconds": r.seconds, "state": r.state, "level": r.level, "digest": digest}), flush=True)
"""


def default_files() -> list[str]:
    """The first 60 janko.at 10x10s of the external corpus."""
    root = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus-external"
    out = []
    for name in sorted(glob.glob(str(root / "janko-*.txt"))):
        if _shape(name) == "10x10":
            out.append(name)
        if len(out) == 60:
            break
    return out


def _shape(path: str) -> str:
    from fillomino.formats import read_puzzle
    return read_puzzle(path).shape


def _ratio(before: float, after: float) -> str:
    """``x1.23``, or ``x-`` when there is nothing to divide by (no puzzle settled on both sides)."""
    return f"x{before / after:.2f}" if after > 0 else "x-"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--files", nargs="*", help="puzzle files (default: the first 60 janko.at 10x10s)")
    ap.add_argument("--budget", type=float, default=1.0)
    ap.add_argument("--work", type=int, default=0, help="a clock.Work of N checks per rating, not --budget")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1, help="rate each puzzle K times a side, keep the fastest")
    ap.add_argument("--max-level", default="expert", help="the hardest technique level (a generator's phase: hard)")
    ap.add_argument("--each", action="store_true", help="print every puzzle's CPU seconds on both sides")
    ap.add_argument("--levels", action="store_true",
                    help="count the level changes of the last round (a new technique changes ratings by design)")
    args = ap.parse_args()
    files = [str(Path(f).resolve()) for f in args.files] if args.files else default_files()
    argv = [str(args.budget), str(args.work), args.max_level]
    workers = [TreeWorker(args.before, WORKER, argv), TreeWorker(args.after, WORKER, argv)]
    # a Work budget stops both trees at the same check: a rating it cuts is compared like a settled one
    cut = () if args.work else ("budget",)
    for w in workers:
        print(f"{w.tree}: {w.grid}", file=sys.stderr)
    differ: set[str] = set()
    changes: dict[tuple[str, str], list[str]] = {}
    code = 0
    for rnd in range(args.rounds):
        secs: list[list[float]] = [[], []]
        settled: list[list[float]] = [[], []]
        for k, path in enumerate(files):
            got: dict[int, dict] = {}
            for k2 in range(args.repeat):
                for i in ((0, 1) if (k + k2 + rnd) % 2 == 0 else (1, 0)):
                    r = workers[i].ask(path)
                    if i not in got or r["seconds"] < got[i]["seconds"]:
                        got[i] = r
            if args.each:
                print(f"  {Path(path).name}: {got[0]['seconds']:.3f} -> {got[1]['seconds']:.3f} CPU s "
                      f"{got[0]['state']}/{got[1]['state']} {got[0]['level']}/{got[1]['level']}", flush=True)
            if rnd == args.rounds - 1:
                was, now = (f"{got[i]['level']}" + (f" ({got[i]['state']})" if got[i]["state"] != "solved" else "")
                            for i in (0, 1))
                changes.setdefault((was, now), []).append(Path(path).name)
            for i in (0, 1):
                secs[i].append(got[i]["seconds"])
                if not any(s in cut for s in (got[0]["state"], got[1]["state"])):
                    settled[i].append(got[i]["seconds"])
            if not any(s in cut for s in (got[0]["state"], got[1]["state"])) and got[0]["digest"] != got[1]["digest"]:
                differ.add(Path(path).name)
        a, b = secs
        print(f"round {rnd + 1}, {len(files)} puzzles: total {sum(a):.3f} -> {sum(b):.3f} CPU s "
              f"(x{sum(a) / sum(b):.2f}), median {1000 * statistics.median(a):.1f} -> "
              f"{1000 * statistics.median(b):.1f} ms (x{statistics.median(a) / statistics.median(b):.2f}), "
              f"settled on both sides {len(settled[0])}: total {sum(settled[0]):.3f} -> {sum(settled[1]):.3f} CPU s "
              f"({_ratio(sum(settled[0]), sum(settled[1]))})")
    for w in workers:
        w.close()
    if args.levels:
        print("levels, last round (before -> after: puzzles):")
        for (was, now), names in sorted(changes.items()):
            shown = "" if was == now else ": " + ", ".join(sorted(names)[:12]) + (" ..." if len(names) > 12 else "")
            print(f"  {was} -> {now}: {len(names)}{shown}")
    if differ:
        print("ratings that differ: " + ", ".join(sorted(differ)))
        code = 1
    else:
        print("every rating settled on both sides is the same step for step")
    return code


if __name__ == "__main__":
    sys.exit(main())
