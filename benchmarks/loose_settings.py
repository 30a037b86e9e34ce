"""The loose panel on the slowest needed removals, with the loose-cell search's settings varied (issue #25).

Each setting is one ``SHORT_PROOF:ESCALATE`` pair: the conflicts a cell's own question may spend before it
joins the shared question (``Search.short_proof``) and the conflicts after which the model adds its exact
clauses (``CnfEngine.escalate_after`` of ``fillomino.possible.SEARCH_ENGINE``). The removals are asked as a
worker asks them (``run_panel("loose", ..., 10 s)``), every setting in turn within each round, and CPU
(process time) is reported as min and median over the rounds; every setting must give the same loose cells
and forced count. Run it against a compiled copy (``PYTHONPATH=/tmp/X``) for figures the server would see.

``--trace`` instead prints each question of the search at the shipped settings: its answer (SAT, UNSAT, or
LONG for one that ran past its allowance), the solver's conflicts and CPU, and the cells it asked about.

Note: ``Search.short_proof`` is a dataclass field, so its default is fixed when the class is made; setting
``fillomino.possible.SHORT_PROOF`` afterwards changes nothing, which is why this sets it on each Search.

    python benchmarks/loose_settings.py [--rounds 9] 1000:2000 500:2000 2000:2000 [janko-016:81 ...]
    python benchmarks/loose_settings.py --trace [janko-016:81 ...]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

import fillomino.possible as P
from fillomino.formats import read_puzzle
from fillomino.puzzle import Puzzle, cell_name
from fillomino.serve.panels import run_panel

CORPUS = Path(__file__).resolve().parent.parent / ".." / "shared" / "corpus-external"
SLOWEST = ["janko-016:81", "janko-007:12", "janko-007:33"]
"""#016 without r9c2, #007 without r2c3 and r4c4: the slowest needed removals of the eleven 10x10s."""


def removal(spec: str) -> Puzzle:
    name, cell = spec.split(":")
    puzzle = read_puzzle(str(CORPUS / f"{name}.txt"))
    clues = list(puzzle.clues)
    clues[int(cell)] = 0
    return dataclasses.replace(puzzle, clues=tuple(clues), solution=None)


def with_settings(short_proof: int, escalate_after: int | None) -> None:
    """Make every new Search use these settings (the module's defaults are bound when it is imported)."""
    P.possible.__kwdefaults__["engine"] = dataclasses.replace(P.SEARCH_ENGINE, escalate_after=escalate_after)
    post_init = P.Search.__dict__.get("_shipped_post_init", P.Search.__post_init__)
    P.Search._shipped_post_init = post_init  # type: ignore[attr-defined]

    def set_then_init(self: P.Search) -> None:
        self.short_proof = short_proof
        post_init(self)

    P.Search.__post_init__ = set_then_init  # type: ignore[method-assign]


def compare(settings: list[str], specs: list[str], rounds: int) -> None:
    pairs = [(int(a), None if b == "none" else int(b)) for a, b in (s.split(":") for s in settings)]
    puzzles = [removal(s) for s in specs]
    cpu: dict[tuple[int, int], list[float]] = {(i, k): [] for i in range(len(pairs)) for k in range(len(specs))}
    answers: dict[int, object] = {}
    for _ in range(rounds):
        for i, pair in enumerate(pairs):
            with_settings(*pair)
            for k, puzzle in enumerate(puzzles):
                start = time.process_time()
                ans = run_panel("loose", puzzle, 10)
                cpu[(i, k)].append(time.process_time() - start)
                key = (ans["status"], [(r, c) for r, c, _ in ans["loose"]], ans["forced"])
                if answers.setdefault(k, key) != key:
                    sys.exit(f"{specs[k]}: setting {settings[i]} changed the loose cells")
    print("setting  " + "  ".join(f"{s:>22}" for s in specs))
    for i, name in enumerate(settings):
        cells = (f"min {min(cpu[(i, k)]) * 1000:4.0f} med {statistics.median(cpu[(i, k)]) * 1000:4.0f} ms"
                 for k in range(len(specs)))
        print(f"{name:>9}  " + "  ".join(f"{c:>22}" for c in cells), flush=True)


def trace(specs: list[str]) -> None:
    ask = P.Search._ask

    def traced(self: P.Search, assumptions: list[int], pending: list[int] | None = None,
               conflicts: int | None = None):  # type: ignore[no-untyped-def]
        model = self.model
        assert model is not None
        before, start, result = model.solver.accum_stats()["conflicts"], time.process_time(), "LONG"
        try:
            ans = ask(self, assumptions, pending, conflicts)
            result = "UNSAT" if ans is None else "SAT"
            return ans
        finally:
            spent = model.solver.accum_stats()["conflicts"] - before if self.model is model else -1
            labels = model._cell_of_label
            cells = sorted({labels[abs(x)] for x in pending or () if abs(x) < len(labels)})
            names = ",".join(cell_name(c // self.puzzle.cols, c % self.puzzle.cols) for c in cells[:4])
            more = f" (+{len(cells) - 4})" if len(cells) > 4 else ""
            print(f"  q{self.questions:<3} K={self.k} {result:5} {spent:6} conflicts "
                  f"{(time.process_time() - start) * 1000:6.1f} ms  {names}{more}")

    P.Search._ask = traced  # type: ignore[method-assign]
    for spec in specs:
        print(spec)
        start = time.process_time()
        result = P.possible(removal(spec), loose_only=True)
        print(f"  {result.loose} loose, {result.forced} forced, {(time.process_time() - start) * 1000:.0f} ms CPU")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("items", nargs="*", metavar="SHORT_PROOF:ESCALATE or PUZZLE:CELL")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--trace", action="store_true")
    args = ap.parse_args()
    specs = [x for x in args.items if x.split(":")[0].startswith(("janko", "blog"))] or SLOWEST
    settings = [x for x in args.items if x not in specs] or [f"{P.SHORT_PROOF}:{P.SEARCH_ENGINE.escalate_after}"]
    if args.trace:
        trace(specs)
    else:
        compare(settings, specs, args.rounds)


if __name__ == "__main__":
    main()
