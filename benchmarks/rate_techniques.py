"""CPU of a rating per technique of the ladder, exclusive of the nested runs a look-ahead makes, split by where it
ran (top level or inside a hypothesis) and whether it looked near the changed cells or at the whole grid. Works on a
compiled build too (the solver reads its ladder from its module, which this script replaces with timed wrappers).

    PYTHONPATH=/tmp/tree python benchmarks/rate_techniques.py --work 20000 corpus/20x20/20x20-s0.txt
    PYTHONPATH=/tmp/tree python benchmarks/rate_techniques.py --budget 60 ../shared/corpus-external/janko-330.txt
"""

from __future__ import annotations

import argparse
import time
from collections import Counter, defaultdict

from fillomino.clock import Work
from fillomino.formats import read_puzzle
from fillomino.logic import rate, solver, techniques


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--work", type=int, default=0, help="a clock.Work of N checks per rating")
    ap.add_argument("--budget", type=float, default=None, help="CPU seconds per rating (default: none)")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--max-level", default="expert", help="the hardest technique level (a generator's phase: hard)")
    args = ap.parse_args()
    own: defaultdict[tuple[str, str], float] = defaultdict(float)
    calls: Counter[tuple[str, str]] = Counter()
    inner = [0.0]  # CPU of the calls running inside the current one, per level of nesting

    def timed(t: techniques.Technique) -> techniques.Technique:
        apply = t.apply

        def run(b, ctx):
            where = ("nested" if ctx.nested else "top") + ("-whole" if ctx.dirty is None else "-near")
            inner.append(0.0)
            start = time.process_time()
            try:
                return apply(b, ctx)
            finally:
                spent = time.process_time() - start
                own[where, t.name] += spent - inner.pop()
                calls[where, t.name] += 1
                inner[-1] += spent
        return techniques.Technique(t.name, t.level, run, t.lookahead)

    solver.LADDER = tuple(timed(t) for t in techniques.LADDER)
    start = time.process_time()
    for path in args.files:
        r = rate(read_puzzle(path), budget=Work(args.work) if args.work else args.budget,
                 max_level=args.max_level)
        print(path, r.level, r.state, len(r.steps), r.open_cells)
    total = time.process_time() - start
    print(f"total {total:.2f} CPU s, in techniques {sum(own.values()):.2f} s")
    for (where, name), secs in sorted(own.items(), key=lambda x: -x[1])[:args.top]:
        n = calls[where, name]
        print(f"{where:12s} {name:20s} {secs:7.2f} s {100 * secs / total:5.1f}% {n:7d} calls "
              f"{1e6 * secs / n:8.0f} us/call")


if __name__ == "__main__":
    main()
