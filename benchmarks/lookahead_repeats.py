"""How much of a rating's look-ahead repeats itself (pure build only: it wraps the solver and _refute by monkeypatch).

For each top-level look-ahead pass: its technique, CPU, hypotheses and whether it refuted one; then, for each nested run
started afresh on a hypothesis (c, candidates), whether it takes step for step the run on the same hypothesis in the
previous pass of the same technique ("same"), another run ("differs"), or the hypothesis was not tried there ("new");
runs the expert look-ahead carries on from a hard trial are counted as "carried".

    PYTHONPATH=. python benchmarks/lookahead_repeats.py corpus/20x20/20x20-s11.txt
    PYTHONPATH=. python benchmarks/lookahead_repeats.py --work 25000 ../shared/corpus-external/janko-330.txt
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
    ap.add_argument("file")
    ap.add_argument("--work", type=int, default=0, help="a clock.Work of N checks (default: no budget)")
    ap.add_argument("--max-level", default="expert", help="the hardest technique level (a generator's phase: hard)")
    args = ap.parse_args()
    if not techniques.__file__.endswith(".py"):
        raise SystemExit("a compiled build calls its own functions directly: run this on a pure tree")
    solve, refute = solver.solve, techniques._refute
    depth = [0]
    now: dict = {"tech": None}
    before: dict[str, dict] = {}
    count: Counter[tuple[str, str]] = Counter()
    secs: defaultdict[tuple[str, str], float] = defaultdict(float)
    passes: list[tuple[str, float, int, bool]] = []

    def nested_solve(board, clues, **kw):
        if not kw.get("nested"):
            return solve(board, clues, **kw)
        depth[0] += 1
        top = depth[0] == 1 and now["tech"] is not None
        # a fresh trial is the parent grid with the hypothesis cell logged last
        fresh = top and len(board.log) == now["log"] + 1
        key = (board.log[-1], board.cand[board.log[-1]]) if fresh else None
        start = time.process_time()
        try:
            run = solve(board, clues, **kw)
        finally:
            depth[0] -= 1
        if top:
            name = now["tech"]
            steps = (run.state, [(s.technique, sorted(s.masks.items()), sorted(s.place.items())) for s in run.steps])
            if key is None:
                kind = "carried"
            else:
                old = before.get(name, {}).get(key)
                kind = "new" if old is None else "same" if old == steps else "differs"
                now["runs"][key] = steps
            count[name, kind] += 1
            secs[name, kind] += time.process_time() - start
        return run

    def timed_refute(b, ctx, name, level, width, depth_, up_to):
        if depth[0]:
            return refute(b, ctx, name, level, width, depth_, up_to)
        now.update(tech=name, log=len(b.log), runs={})
        start = time.process_time()
        try:
            out = refute(b, ctx, name, level, width, depth_, up_to)
        finally:
            before[name] = now["runs"]
            now["tech"] = None
        passes.append((name, time.process_time() - start, len(techniques._hypotheses(b, width, ctx.nested)),
                       bool(out)))
        return out

    solver.solve, techniques._refute = nested_solve, timed_refute
    start = time.process_time()
    r = rate(read_puzzle(args.file), budget=Work(args.work) if args.work else None, max_level=args.max_level)
    print(args.file, r.level, r.state, len(r.steps), r.open_cells, f"{time.process_time() - start:.2f} CPU s")
    for name, spent, hyps, found in passes:
        print(f"  {name:20s} {spent:7.2f} s {hyps:5d} hypotheses{' (refutes)' if found else ''}")
    for key in sorted(count):
        print(f"{key[0]:20s} {key[1]:8s} {count[key]:6d} runs {secs[key]:7.2f} s")


if __name__ == "__main__":
    main()
