"""The slowest needed removals' loose cells asked warm, split or cubed instead of cold (issue #25, tenth round).

Each removal (a unique corpus puzzle with one clue taken out) is asked as the loose panel asks it
(``Search(..., defer_k=True, find_reach=False).possible(loose_only=True)``) in one of these ways:

- ``cold``: today's search on a fresh model (the clues, the bounds and the area counts as unit clauses).
- ``assumed``: a fresh model of the *full* puzzle's clue positions with the removal's clues assumed, as a
  kept model would have to be asked (no bounds and no area counts: those hold for one clue set only).
- ``warm``: the same, on the model that has just answered the full puzzle's loose cells (its learnt and lazy
  clauses kept; each question's clause switched by an activation literal of its own).
- ``carry``: today's search, its model first given the lazy clauses the full puzzle's search learnt
  (``CnfModel.carry``).
- ``split0`` / ``split1``: today's search asked only about the even / the odd cells (the union of their
  loose cells is the removal's): what each of two workers would spend on one half.
- ``cube``: today's search within "the removed clue's cell is not the clue's value" (the other side is the
  full puzzle, settled before the removal): its loose cells with the full puzzle's solution are the removal's.

Every way must give the cold search's loose cells and forced values; CPU (process time, min and median over
the rounds) and the solver's conflicts (those of the removal's questions only) are printed. Run it against a
compiled copy (``PYTHONPATH=/tmp/X``) for figures the server would see.

    python benchmarks/loose_warm.py [--rounds 5] [--ways cold,warm,...] [janko-016:81 ...]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time

from loose_settings import CORPUS, SLOWEST, removal

import fillomino.possible as P
from fillomino.encode.cnf import CnfModel
from fillomino.formats import read_puzzle
from fillomino.puzzle import Puzzle
from fillomino.solvers import cnf as cnf_backend

WAYS = ("cold", "assumed", "warm", "carry", "split0", "split1", "cube")


@dataclasses.dataclass
class KeptSearch(P.Search):
    """A search on a model it is given (``kept``), every clue of its puzzle assumed in every question."""

    kept: CnfModel | None = None

    def _build(self) -> None:
        if self.model is not None or self.kept is None or self.kept.k != self.k:
            self.clues = []
            super()._build()  # K raised: a model of its own, as today
            return
        self.model = self.kept
        self.clues = cnf_backend.clue_assumptions(self.model, self.puzzle)
        self.ruled_out = set()

    def _restrict(self, allowed: P.Allowed | None) -> list[int]:
        # the clues among the assumptions of every question, so a proof is never stated as a unit clause
        return super()._restrict(allowed) + (self.clues if allowed is None else [])

    def _ask(self, assumptions: list[int], pending: list[int] | None = None,
             conflicts: int | None = None) -> P.Answer | None:
        model = self.model
        assert model is not None
        assumptions = assumptions or self.clues
        if pending is None:
            return super()._ask(assumptions, None, conflicts)
        act = model.pool.id(("kept-act", id(self), self.questions))  # never one an earlier search retired
        model.add_clause([-act, *pending])
        try:
            return super()._ask([*assumptions, act], None, conflicts)
        finally:
            model.add_clause([-act])

    def close(self) -> None:
        if self.model is self.kept:
            self.model = None
        else:
            super().close()


@dataclasses.dataclass
class CarriedSearch(P.Search):
    """Today's search, its first model given the lazy clauses of ``carried`` (a model of the same shape)."""

    carried: CnfModel | None = None

    def _build(self) -> None:
        first = self.model is None
        super()._build()
        if first and self.carried is not None and self.model is not None:
            self.model.carry(self.carried)


def conflicts(model: CnfModel | None) -> int:
    return 0 if model is None else model.solver.accum_stats().get("conflicts", 0)


def answer(values: list[set[int]]) -> tuple[list[int], list[int]]:
    """The loose cells, and each forced cell's value (0 for a loose one)."""
    return ([c for c, v in enumerate(values) if len(v) > 1], [next(iter(v)) if len(v) == 1 else 0 for v in values])


def ask(way: str, full: Puzzle, puzzle: Puzzle, cell: int) -> tuple[float, int, list[set[int]]]:
    """CPU seconds, conflicts and per-cell values of one way on one removal (the full puzzle's search not counted)."""
    options = {"defer_k": True, "find_reach": False}
    kept = None
    if way in ("assumed", "warm"):
        kept = cnf_backend.puzzle_model(full, P.SEARCH_ENGINE.start_k(None), None, P.SEARCH_ENGINE)
        if way == "warm":
            before = KeptSearch(full, kept=kept, **options)
            before.possible(loose_only=True)
            before.close()
    carried = P.Search(full, **options) if way == "carry" else None
    if carried is not None:
        carried.possible(loose_only=True)
    start, spent = time.process_time(), conflicts(kept)
    if kept is not None:
        search: P.Search = KeptSearch(puzzle, kept=kept, **options)
    elif carried is not None:
        search = CarriedSearch(puzzle, carried=carried.model, **options)
    elif way == "cube":
        allowed: P.Allowed = [None] * puzzle.size
        allowed[cell] = set(range(1, puzzle.size + 1)) - {full.clues[cell]}
        search = P.Search(puzzle, allowed=allowed, **options)
    else:
        search = P.Search(puzzle, **options)
    if way.startswith("split"):
        assert search.model is not None
        half = int(way[-1])
        search.ruled_out.update(search.model.lit(c, v) for c in range(puzzle.size) if c % 2 != half
                                for v in search.model.domain(c))  # never asked about: the other worker's cells
    values = search.possible(loose_only=True)
    spent = conflicts(search.model) - spent
    seconds = time.process_time() - start
    search.close()
    for other in (kept, carried):
        if other is not None:
            other.close()
    if way == "cube":
        for c, v in enumerate(v for row in full.solution or () for v in row):
            values[c].add(v)
    return seconds, spent, values


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("removals", nargs="*", metavar="PUZZLE:CELL", default=SLOWEST)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--ways", default=",".join(WAYS))
    args = ap.parse_args()
    ways = args.ways.split(",")
    cases = []
    for spec in args.removals:
        puzzle = removal(spec)
        name, cell = spec.split(":")
        full = read_puzzle(str(CORPUS / f"{name}.txt"))
        cases.append((spec, full, puzzle, int(cell)))
    cpu: dict[tuple[str, str], list[float]] = {}
    spent: dict[tuple[str, str], set[int]] = {}
    for _ in range(args.rounds):
        for spec, full, puzzle, cell in cases:
            cold = None
            halves: list[list[set[int]]] = []
            for way in ways:
                seconds, used, values = ask(way, full, puzzle, cell)
                cpu.setdefault((spec, way), []).append(seconds)
                spent.setdefault((spec, way), set()).add(used)
                if way.startswith("split"):
                    halves.append(values)
                    if len(halves) < 2:
                        continue
                    values = [a | b for a, b in zip(*halves)]
                cold = cold or answer(values)
                if answer(values) != cold:
                    sys.exit(f"{spec}: {way} changed the loose cells or a forced value")
    for spec, *_ in cases:
        print(spec)
        for way in ways:
            times = cpu[(spec, way)]
            print(f"  {way:8} min {min(times) * 1000:4.0f} med {statistics.median(times) * 1000:4.0f} ms CPU, "
                  f"conflicts {'/'.join(map(str, sorted(spent[(spec, way)])))}", flush=True)


if __name__ == "__main__":
    main()
