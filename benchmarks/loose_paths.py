"""Other exact paths to a removal's loose cells, measured against ``fillomino.possible`` (issue #25's floor).

Taking a needed clue out of a 10x10 costs the loose-cell search up to seconds of CPU, nearly all of it in UNSAT
proofs ("this cell takes no value beyond those seen"). Four ways to attack that, each measured here in one
process so that the figures compare as ratios in one run (docs/usage/serve.md, "Fourth round"):

``--floor``: the single question "some cell takes a value not seen yet", asked with every possible value
already known (the floor of the per-cell questions), once to the CNF model ``possible`` uses and once to the
CP-SAT flow model (``fillomino.encode.cpsat``) with 1 and 2 workers and each of its strategies.

``--rater``: the logical rater (``fillomino.logic.Solve``, up to medium, hard and expert, each look-ahead preset,
the full puzzle's solution as witness) as a prover: its candidates hold every possible value (sound), and the
candidates it leaves beyond the exact ones are what the CNF would still have to prove impossible.

``--engines``: ``possible`` on each needed removal with the CNF engine on Glucose 4 (today's) and on other
pysat solvers, alternated removal by removal (the same answers are asserted); "min" is what racing them on
two cores would give at best, at twice the CPU.

``--race``: the same removals asked through ``fillomino.race.first_answer`` with two ways (Glucose 4 and
CaDiCaL 1.9.5, each in a forked process: CaDiCaL cannot be interrupted, so the race's timeout stops it),
wall and CPU (this process and its children) against ``possible`` alone.

    python benchmarks/loose_paths.py --floor [janko-016:81 ...]
    python benchmarks/loose_paths.py --rater [janko-016:81 ...]
    python benchmarks/loose_paths.py --engines [--solvers g4,cd19] [--every 1] [--min-ms 150]
    python benchmarks/loose_paths.py --race [--every 3]

A removal is PUZZLE:CELL (a file of ../shared/corpus-external without .txt, the row-major index of the clue
taken out). ``--engines`` and ``--race`` default to every needed removal of janko.at #007, #008, #015, #016,
#029 and #031 whose loose cells cost ``possible`` over ``--min-ms`` CPU ms in a first pass.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the working tree, not an installed copy

from benchmarks.stats import cpu_seconds, percentile  # noqa: E402
from fillomino.encode.cnf import DEFAULT_ENGINE, CnfEngine  # noqa: E402
from fillomino.formats import read_puzzle  # noqa: E402
from fillomino.possible import Search, possible  # noqa: E402
from fillomino.puzzle import Puzzle  # noqa: E402
from fillomino.solvers import Budget, BudgetExhausted  # noqa: E402

EXTERNAL = ROOT.parent / "shared" / "corpus-external"
PUZZLES = ("janko-007", "janko-008", "janko-015", "janko-016", "janko-029", "janko-031")
FLOOR = ("janko-016:81", "janko-031:33")


def removal(spec: str) -> tuple[str, Puzzle, list[int]]:
    """The puzzle of PUZZLE:CELL with that clue taken out, and the full puzzle's solution (row-major)."""
    name, _, cell = spec.partition(":")
    full = read_puzzle(str(EXTERNAL / f"{name}.txt"))
    clues = list(full.clues)
    clues[int(cell)] = 0
    solution = full.solution
    if solution is None:
        from fillomino.solvers import solve

        solution = solve(full)
    return spec, full.with_clues(clues), [v for row in solution for v in row]


def exact(puzzle: Puzzle) -> list[set[int]]:
    return [set(v) for row in possible(puzzle).cells for v in row]


def floor(specs: list[str], seconds: float) -> None:
    """The floor question to the CNF model and to CP-SAT."""
    from ortools.sat.python import cp_model

    from fillomino.encode.cpsat import build_model
    from fillomino.solvers import cpsat as cs

    print("| removal | path | answer | CPU s | wall s | conflicts |")
    print("| --- | --- | --- | ---: | ---: | ---: |")
    for spec, puzzle, _ in map(removal, specs):
        truth = exact(puzzle)
        search = Search(puzzle)  # K settled before the clock starts
        model = search.model
        assert model is not None
        pending = [model.lit(c, v) for c in range(puzzle.size) for v in model.domain(c)
                   if v not in truth[c] and model.lit(c, v) not in search.ruled_out]
        before = model.solver.accum_stats().get("conflicts", 0)
        cpu, wall = cpu_seconds(), time.perf_counter()
        answer = search._ask([], pending)
        print(f"| {spec} | CNF (Glucose 4) | {'SAT' if answer else 'UNSAT'} | {cpu_seconds() - cpu:.2f} "
              f"| {time.perf_counter() - wall:.2f} | {model.solver.accum_stats().get('conflicts', 0) - before} |",
              flush=True)
        search.close()
        ways = [(1, "own branching", cs.OWN_BRANCHING), (1, "LP", cs.WITH_LP),
                (1, "smallest label first", cs.SMALLEST_LABEL_FIRST), (2, "own branching", cs.OWN_BRANCHING),
                (2, "portfolio", {})]
        for threads, name, strategy in ways:
            cpu, wall = cpu_seconds(), time.perf_counter()
            lm = build_model(puzzle)
            m = lm.model
            some: list = []
            for c, values in enumerate(truth):
                if puzzle.clues[c]:
                    continue
                new = m.new_bool_var(f"new{c}")
                for v in values:
                    if v in lm.value_literals[c]:
                        m.add_implication(new, lm.value_literals[c][v].Not())
                    else:
                        m.add(lm.labels[c] != v).only_enforce_if(new)
                some.append(new)
            m.add_bool_or(some)
            solver = cp_model.CpSolver()
            solver.parameters.num_workers = threads
            for key, value in {**cs.PARAMETERS, **strategy}.items():
                setattr(solver.parameters, key, getattr(cp_model, value) if key == "search_branching" else value)
            solver.parameters.max_time_in_seconds = seconds
            status = solver.solve(m)
            print(f"| {spec} | CP-SAT, {threads} worker{'s' if threads > 1 else ''}, {name} "
                  f"| {solver.status_name(status)} | {cpu_seconds() - cpu:.2f} | {time.perf_counter() - wall:.2f} "
                  f"| {solver.num_conflicts} |", flush=True)


def rater(specs: list[str]) -> None:
    """What the rater's candidates leave beyond the exact possible values."""
    from fillomino.logic import Solve

    print("| removal | level | look-ahead | state | CPU s | candidates beyond the exact values | of them up to 9 "
          "| cells with some |")
    print("| --- | --- | --- | --- | ---: | ---: | ---: | ---: |")
    for spec, puzzle, solution in map(removal, specs):
        truth = exact(puzzle)
        for level, lookaheads in (("medium", ("full",)), ("hard", ("full", "short")),
                                  ("expert", ("full", "flat", "short"))):
            for lookahead in lookaheads:
                cpu = cpu_seconds()
                run = Solve(puzzle.rows, puzzle.cols, puzzle.clues, max_level=level, lookahead=lookahead,
                            witness=lambda solution=solution: solution)
                state = run.run()
                spent = cpu_seconds() - cpu
                cand = run.candidates()
                assert all(cand[c] >> v & 1 for c in range(puzzle.size) for v in truth[c]), "unsound"
                extra = [bin(m).count("1") - len(t) for m, t in zip(cand, truth)]
                small = sum(1 for c in range(puzzle.size) for v in range(1, 10) if cand[c] >> v & 1
                            and v not in truth[c])
                print(f"| {spec} | {level} | {lookahead} | {state} | {spent:.2f} | {sum(extra)} | {small} "
                      f"| {sum(1 for e in extra if e)} |", flush=True)


def slow_removals(min_ms: float) -> list[str]:
    """Every needed removal of PUZZLES whose loose cells cost over ``min_ms`` CPU ms."""
    out = []
    for name in PUZZLES:
        full = read_puzzle(str(EXTERNAL / f"{name}.txt"))
        for cell in full.clue_cells():
            puzzle = full.with_clues([0 if i == cell else v for i, v in enumerate(full.clues)])
            cpu = cpu_seconds()
            try:
                loose = possible(puzzle, budget=Budget(seconds=60)).loose
            except BudgetExhausted:
                continue
            if loose and cpu_seconds() - cpu > min_ms / 1000:
                out.append(f"{name}:{cell}")
    return out


def summary(name: str, ms: list[float]) -> str:
    return (f"| {name} | {sum(ms) / 1000:.1f} | {statistics.median(ms):.0f} | {percentile(ms, 0.95):.0f} "
            f"| {max(ms):.0f} | {sum(1 for x in ms if x < 300)}/{len(ms)} |")


def engines(specs: list[str], solvers: list[str]) -> None:
    """``possible`` per removal with each CNF solver, alternated; the race's best case is the minimum."""
    ms: dict[str, list[float]] = {s: [] for s in solvers}
    for spec, puzzle, _ in map(removal, specs):
        ref = None
        row = []
        for name in solvers:
            engine = dataclasses.replace(DEFAULT_ENGINE, solver=name)
            cpu = cpu_seconds()
            cells = possible(puzzle, engine=engine).cells
            ms[name].append(1000 * (cpu_seconds() - cpu))
            ref = ref or cells
            assert cells == ref, (spec, name)
            row.append(f"{name} {ms[name][-1]:.0f}")
        print(spec, *row, flush=True)
    print("| engine | total CPU s | median ms | p95 ms | max ms | within 300 ms |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name in solvers:
        print(summary(name, ms[name]))
    print(summary("min (a race's best)", [min(x) for x in zip(*ms.values())]))


def race(specs: list[str]) -> None:
    """Glucose 4 against CaDiCaL 1.9.5 through fillomino.race, against Glucose 4 alone (CPU and wall)."""
    from fillomino.race import first_answer

    rows: dict[str, list[tuple[float, float]]] = {"alone": [], "race": []}
    for spec, puzzle, _ in map(removal, specs):
        line = [spec]
        answers = []
        for kind in rows:
            cpu, wall = cpu_seconds(), time.perf_counter()
            if kind == "alone":
                answers.append(possible(puzzle).cells)
            else:
                ways = [lambda engine=engine, puzzle=puzzle: possible(puzzle, engine=engine).cells
                        for engine in (DEFAULT_ENGINE, CnfEngine(solver="cd19"))]
                answers.append(first_answer(ways, timeout=60, isolate=True))
            rows[kind].append((1000 * (cpu_seconds() - cpu), 1000 * (time.perf_counter() - wall)))
            line.append(f"{kind} cpu {rows[kind][-1][0]:.0f} wall {rows[kind][-1][1]:.0f}")
        assert answers[0] == answers[1], spec
        print(*line, flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("| way | total CPU s | total wall s | median wall ms | within 300 ms wall |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for kind, xs in rows.items():
        walls = [w for _, w in xs]
        print(f"| {kind} | {sum(c for c, _ in xs) / 1000:.1f} | {sum(walls) / 1000:.1f} "
              f"| {statistics.median(walls):.0f} | {sum(1 for w in walls if w < 300)}/{len(walls)} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group(required=True)
    for flag in ("--floor", "--rater", "--engines", "--race"):
        mode.add_argument(flag, action="store_true")
    ap.add_argument("removals", nargs="*", metavar="PUZZLE:CELL")
    ap.add_argument("--solvers", default="g4,cd19", help="pysat solver names for --engines (default g4,cd19)")
    ap.add_argument("--every", type=int, default=1, help="only every N-th default removal")
    ap.add_argument("--min-ms", type=float, default=150.0)
    ap.add_argument("--seconds", type=float, default=60.0, help="CP-SAT's time limit per question (--floor)")
    args = ap.parse_args()
    if args.floor or args.rater:
        specs = args.removals or list(FLOOR)
        (floor(specs, args.seconds) if args.floor else rater(specs))
        return
    specs = args.removals or slow_removals(args.min_ms)[:: args.every]
    print(f"{len(specs)} removals; load average {os.getloadavg()[0]:.1f}", flush=True)
    if args.engines:
        engines(specs, args.solvers.split(","))
    else:
        race(specs)


if __name__ == "__main__":
    main()
