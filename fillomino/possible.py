"""Where is a grid ambiguous: every value each cell takes across all solutions, exactly.

One incremental CNF model answers everything. Each solution found ticks off all its (cell, value)
pairs; the solver is then asked only for a solution showing some pair not seen yet (one clause over
those literals, switched on by an activation literal). UNSAT proves every unseen pair impossible.

Exactness for any region size: the model names sizes up to K and hides larger ones behind BIG
(see fillomino.encode.cnf). Before reading values off, K is raised (doubled, or to a proven bound)
until no solution has a BIG cell; from then on every label is a true size and every answer a true
solution. Cells that cannot be BIG are bounded by K, so the larger labels stay confined to the
areas where large regions can form (see ``Search``). ``possible`` leaves the last step of that
proof to its own questions (BIG asked about like any unseen label): an answer showing BIG sends it
back to raise K, whose proof is left to its questions again, and when every question is answered no
cell can be BIG. A ``loose_only`` search raises K to the largest region shown with no question
asked, and does not ask a loose cell about BIG (it is loose either way).

The questions: one over the whole grid, then one per cell with a short conflict allowance; the
cells whose proof runs longer are asked together, so one UNSAT answer settles them all.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from .clock import Clock
from .encode.cnf import BIG, DEFAULT_ENGINE, Answer, CnfEngine, CnfModel, Interrupted
from .grid import component_sizes, components, neighbours
from .puzzle import FillominoError, Puzzle, cell_name, validate_max_size
from .solvers import Budget, BudgetExhausted
from .solvers import cnf as cnf_backend

COUNT_FROM = 4
COUNT_AREA = 3
"""Sizes v >= COUNT_FROM confined to areas under COUNT_AREA * v cells get a count (see Search._area_counts)."""

SHORT_PROOF = 1000
"""Conflicts a cell's own question may spend; the cells whose proof runs longer are asked together in one
question, which proves them all at once (measured faster than their proofs one by one)."""

SEARCH_ENGINE = replace(DEFAULT_ENGINE, anchor_from=2)
"""The search's engine: once a search gets long, the clued sizes from 2 up (not from 4, as for one solve) get
rooted regions, which puts the clued 2s and 3s into the area sum too: the proofs that a forced cell of an
ambiguous grid takes no other value lean on that sum (docs/usage/serve.md, eighth round)."""

Allowed = list[set[int] | None]
"""Per cell (row-major), the values a solution may use there; None = any value."""


@dataclass
class Possible:
    """Each cell's possible values (rows of sets; all empty when there is no solution).

    ``forced`` counts cells with exactly one possible value (clues included), ``loose`` cells with
    more. Indexing and iteration go to ``cells``, so it reads as rows of sets like the renderer wants.
    """

    cells: list[list[set[int]]]
    forced: int
    loose: int
    solutions_seen: int
    solver_calls: int
    seconds: float
    max_size: int | None = None
    sat_calls: int = 0
    k: int = 0
    """The explicit sizes the final model named (every larger size was proved absent)."""
    values_complete: bool = True
    """False after a ``loose_only`` search: which cells are loose is exact, but a loose cell's values are only
    those the solutions met showed (a subset of its possible values)."""

    def __getitem__(self, r: int) -> list[set[int]]:
        return self.cells[r]

    def __iter__(self) -> Iterator[list[set[int]]]:
        return iter(self.cells)

    def __len__(self) -> int:
        return len(self.cells)

    @property
    def solvable(self) -> bool:
        return any(values for row in self.cells for values in row)

    @property
    def unique(self) -> bool:
        return self.solvable and self.loose == 0

    def loose_cells(self) -> list[tuple[int, int, list[int]]]:
        """(row, col, sorted values) of every cell with more than one possible value, row-major."""
        return [(r, c, sorted(v)) for r, row in enumerate(self.cells) for c, v in enumerate(row) if len(v) > 1]

    def to_json(self) -> dict:
        return {
            "cells": [[sorted(v) for v in row] for row in self.cells],
            "forced": self.forced,
            "loose": self.loose,
            "solutions_seen": self.solutions_seen,
            "max_size": self.max_size,
            "values_complete": self.values_complete,
        }


def possible(
    puzzle: Puzzle,
    *,
    max_size: int | None = None,
    budget: Budget | None = None,
    candidates: Sequence[Sequence[Iterable[int] | None]] | None = None,
    engine: CnfEngine = SEARCH_ENGINE,
    progress: Callable[[int, int], None] | None = None,
    loose_only: bool = False,
) -> Possible:
    """Every value each cell takes in some solution (restricted to ``candidates``, rows of allowed values,
    when given). Raises BudgetExhausted when the budget runs out: never a partial answer.
    ``progress(cells_settled, cells)`` is called as the cells are settled one by one.

    ``loose_only`` answers which cells are loose (exactly) and every forced cell's value, but stops asking
    about a cell once it has shown two values: a loose cell's set may then lack values (``values_complete``
    is False). It skips the proofs that a loose cell has no further value, most of the search's time."""
    allowed = parse_candidates(puzzle, candidates) if candidates is not None else None
    return explore(puzzle, max_size=max_size, budget=budget, allowed=allowed, engine=engine, progress=progress,
                   loose_only=loose_only)[0]


def explore(
    puzzle: Puzzle, *, max_size: int | None = None, budget: Budget | None = None, allowed: Allowed | None = None,
    engine: CnfEngine = SEARCH_ENGINE, progress: Callable[[int, int], None] | None = None,
    loose_only: bool = False,
) -> tuple[Possible, list[set[int]], list[tuple[int, ...]]]:
    """``possible``'s search, also giving the per-cell values (row-major) and the solutions it met,
    which the audit uses as witnesses. Raises BudgetExhausted like ``possible``."""
    start = time.perf_counter()
    search = Search(puzzle, max_size=max_size, budget=budget, allowed=allowed, engine=engine, defer_k=True,
                    find_reach=not loose_only)
    try:
        values = search.possible(progress=progress, loose_only=loose_only)
        result = search.result(values, time.perf_counter() - start)
        result.values_complete = not (loose_only and result.loose)
        return result, values, list(search.solutions)
    finally:
        search.close()


class _RegionAboveK(Exception):
    """An answer showed a region above K while K was not proved (``Search.big_open``)."""

    def __init__(self, largest: int) -> None:
        super().__init__(largest)
        self.largest = largest
        """The size of the largest such region in that answer."""


class LongProof(Exception):
    """A question ran past its conflict allowance (``Search._ask``'s ``conflicts``) without an answer."""


def parse_candidates(puzzle: Puzzle, grid: Sequence[Sequence[Iterable[int] | int | None]]) -> Allowed:
    """A rater's candidate grid (rows of value lists; a bare number is one value, None any value) as
    row-major sets. Values above the cell count can never occur and are dropped."""
    if not isinstance(grid, Sequence) or isinstance(grid, str) or len(grid) != puzzle.rows:
        raise FillominoError(f"candidates must be {puzzle.rows} rows of {puzzle.cols} cells like the puzzle")
    out: Allowed = []
    for r, row in enumerate(grid):
        if not isinstance(row, Sequence) or isinstance(row, str) or len(row) != puzzle.cols:
            raise FillominoError(f"candidates row {r + 1} must have {puzzle.cols} cells like the puzzle")
        for c, cell in enumerate(row):
            if cell is None:
                out.append(None)
                continue
            values = [cell] if isinstance(cell, int) else cell
            try:
                items = list(values)  # type: ignore[arg-type]
            except TypeError:
                items = [values]
            if any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in items):
                raise FillominoError(
                    f"candidates at {cell_name(r, c)} must be positive whole numbers, got {cell!r}"
                )
            out.append({v for v in items if v <= puzzle.size})
    return out


def _allows(allowed: Allowed | None, cell: int, value: int) -> bool:
    return allowed is None or allowed[cell] is None or value in allowed[cell]  # type: ignore[operator]


def _fits(allowed: Allowed | None, values: Sequence[int]) -> bool:
    return allowed is None or all(_allows(allowed, c, v) for c, v in enumerate(values))


def _allows_big(allowed: Allowed | None, cell: int, k: int) -> bool:
    return allowed is None or allowed[cell] is None or any(v > k for v in allowed[cell])  # type: ignore[union-attr]


def intersect(a: Allowed | None, b: Allowed | None) -> Allowed | None:
    """Cell by cell, the values both restrictions allow."""
    if a is None or b is None:
        return b if a is None else a
    return [y if x is None else (x if y is None else x & y) for x, y in zip(a, b)]


@dataclass
class Search:
    """One incremental model for one puzzle, K settled once, reused for narrower questions.

    ``allowed`` is the base restriction (a candidate grid); later questions may narrow it further
    (clues added by ``suggest``, a rater's candidates in ``audit``), never widen it: K was settled
    for the base, and narrowing keeps every size above K impossible.

    ``upper[c]`` is a proven bound on the size of c's region. Settling K (with ``find_reach``) tightens
    it: a cell that no answer shows BIG is bounded by K, and a region above K lies inside the cells that
    can still be BIG, so a connected set of them bounds it too. A size v is then stated impossible wherever the
    cells that can be v leave less than v connected cells, which keeps large labels to small areas.
    """

    puzzle: Puzzle
    max_size: int | None = None
    budget: Budget | None = None
    allowed: Allowed | None = None
    engine: CnfEngine = SEARCH_ENGINE
    solutions: dict[tuple[int, ...], None] = field(default_factory=dict)
    """Every true solution met so far (insertion-ordered, each once)."""
    questions: int = 0
    sat_calls: int = 0
    defer_k: bool = False
    """Leave the proof that no region is larger than K to ``possible``'s own questions (see ``big_open``)."""
    find_reach: bool = True
    """Before raising K, find every cell a region above K reaches (``_settle``), which bounds the larger sizes
    to those cells; without it (only with ``defer_k``) K is raised with no question asked (``_raise``)."""
    short_proof: int = SHORT_PROOF
    """Conflicts each cell's own question may spend before it joins the shared question (SHORT_PROOF)."""

    def __post_init__(self) -> None:
        validate_max_size(self.puzzle, self.max_size)
        budget = self.budget or Budget()
        self.clock = Clock.of(budget)
        self.k = self.engine.start_k(self.max_size)
        n = self.puzzle.size
        self.upper = [clue or n for clue in self.puzzle.clues]
        self.nbrs = neighbours(self.puzzle.rows, self.puzzle.cols)
        self.model: CnfModel | None = None
        self.big_open = False
        """K is not proved yet: a cell may still be BIG, so ``possible`` asks about BIG with the other labels."""
        self._build()
        self.solvable = self._settle(self.defer_k)

    # ---- model -----------------------------------------------------------------------------
    def _build(self) -> None:
        before = self.model
        self.model = cnf_backend.puzzle_model(self.puzzle, self.k, self.max_size, self.engine)
        if before is not None:
            self.model.carry(before)  # K was raised: the sizes up to the old K keep what their answers taught
            self.sat_calls += before.calls
            before.close()
        # The clues, the base restriction and the bounds hold in every question this model answers, so
        # they go in as unit clauses: measured several times faster per SAT call than as assumptions.
        model = self.model
        facts = cnf_backend.clue_assumptions(model, self.puzzle) + self._restrict(self.allowed) + self._bounds()
        for lit in facts:
            model.add_clause([lit])
        self.ruled_out = {-lit for lit in facts}
        """Literals false in every solution: stated for good, never asked about."""
        for c, clue in enumerate(self.puzzle.clues):
            if clue:
                self.ruled_out.update(model.lit(c, v) for v in model.domain(c) if v != clue)

    def _restrict(self, allowed: Allowed | None) -> list[int]:
        """Negated labels outside each cell's allowed values; BIG stays only where a size above K is allowed."""
        model = self.model
        assert model is not None
        lits: list[int] = []
        if allowed is None:
            return lits
        for c, values in enumerate(allowed):
            if values is None:
                continue
            for v in model.domain(c):
                ok = any(x > self.k for x in values) if v == BIG else v in values
                if not ok:
                    lits.append(-model.lit(c, v))
        return lits

    def _bounds(self) -> list[int]:
        """Negated labels no solution (within the base restriction) can have: above the cell's bound, or
        where the cells that can carry the label leave fewer connected cells than the label needs."""
        model = self.model
        assert model is not None
        clues = self.puzzle.clues
        labels = sorted({v for c in range(self.puzzle.size) for v in model.domain(c)})
        lits: list[int] = []
        for v in labels:
            need = self.k + 1 if v == BIG else v
            if v == BIG:
                can = [not clues[c] and self.upper[c] > self.k and _allows_big(self.allowed, c, self.k)
                       for c in range(self.puzzle.size)]
            else:
                can = [clues[c] in (0, v) and self.upper[c] >= v and _allows(self.allowed, c, v)
                       for c in range(self.puzzle.size)]
            sizes = component_sizes(can, self.nbrs)
            for c in range(self.puzzle.size):
                if model.has(c, v) and sizes[c] < need:
                    lits.append(-model.lit(c, v))
            if v != BIG and v >= COUNT_FROM:
                self._area_counts(v, [c for c in range(self.puzzle.size) if can[c] and sizes[c] >= v])
        return lits

    def _area_counts(self, v: int, cells: list[int]) -> None:
        """In each connected area of cells that can be v, a v cell means at least v of them are v
        (its region lies inside the area). Stated only for areas small next to v, where it bites."""
        model = self.model
        assert model is not None
        for area in components(cells, self.nbrs):
            if len(area) < COUNT_AREA * v and all(model.has(c, v) for c in area):
                model.area_count(area, v)

    def _ask(self, assumptions: list[int], pending: list[int] | None = None,
             conflicts: int | None = None) -> Answer | None:
        """Solve under the assumptions, and when ``pending`` is given, with at least one of those literals true.
        With ``conflicts``, raises ``LongProof`` once the solver has spent that many without an answer."""
        model = self.model
        assert model is not None
        self.questions += 1
        if pending is not None:
            act = model.pool.id(("possible-act", self.questions))
            model.add_clause([-act, *pending])
            assumptions = [*assumptions, act]
        clock = self.clock if conflicts is None else self.clock.share(conflicts)
        try:
            return model.solve(assumptions, clock)
        except Interrupted:
            if clock is not self.clock and not self.clock.spent():
                raise LongProof from None
            raise BudgetExhausted(
                "the budget ran out before every cell's possible values were settled: the answer is unknown"
            ) from None
        finally:
            if pending is not None:
                model.add_clause([-act])  # retire the question's clause for good

    def _settle(self, defer: bool = False, raise_first: bool = False) -> bool:
        """Raise K until no solution (within the base restriction) has a region above K. False: no solution.

        At each K: find every cell some answer shows BIG (one question per new answer, the last one
        UNSAT). The others are bounded by K; the BIG ones by their connected area of BIG-capable cells.
        With ``defer``, a first answer without BIG leaves the last question to ``possible`` (``big_open``);
        ``raise_first`` (a region above K was seen) skips that at the current K, so K is raised first.
        Without ``find_reach`` an answer with a region above K raises K at once (``_raise``) instead.
        """
        n = self.puzzle.size
        while True:
            model = self.model
            assert model is not None
            ans = self._ask([])
            if ans is None:
                return False
            if defer and not raise_first and not ans.big_groups and ans.exact:
                self._keep(ans)
                self.big_open = any(model.has(c, BIG) for c in range(n))
                return True
            if defer and not self.find_reach and ans.big_groups:
                if ans.exact and _fits(self.allowed, ans.concrete):
                    self._keep(ans)
                self._raise(ans.largest_big)
                continue
            can_big: set[int] = set()
            largest = 0
            while ans is not None:
                if ans.exact and _fits(self.allowed, ans.concrete):
                    self._keep(ans)
                for g in ans.big_groups:
                    can_big.update(g)
                largest = max(largest, ans.largest_big)
                pending = [model.lit(c, BIG) for c in range(n) if model.has(c, BIG) and c not in can_big]
                ans = self._ask([], pending) if pending else None
            if not can_big:
                for c in range(n):
                    if model.has(c, BIG):
                        model.add_clause([-model.lit(c, BIG)])
                        self.ruled_out.add(model.lit(c, BIG))
                return True
            area = component_sizes([c in can_big for c in range(n)], self.nbrs)
            for c in range(n):
                named = max((v for v in model.domain(c) if v > self.k), default=0)  # clued sizes above K
                bound = area[c] if c in can_big else self.k
                self.upper[c] = min(self.upper[c], max(bound, named))
            top = max(self.upper[c] for c in can_big)
            self.k = min(n, top, max(2 * self.k, largest))
            self._build()
            raise_first = False

    def _raise(self, largest: int) -> None:
        """K raised to ``largest`` (a region seen above it), the model rebuilt, with no question asked: for a
        ``loose_only`` search, finding first every cell a region above K reaches cost more than the larger model
        it saved, and so did any K above the regions met, whose larger model lets the search meet larger regions
        still (measured on janko.at 10x10s); completing every value gains from those bounds."""
        self.k = min(self.puzzle.size, max(self.k + 1, largest))
        self._build()

    def _keep(self, ans: Answer) -> None:
        """Remember a true solution (exact reading, within the base restriction)."""
        self.solutions[tuple(ans.concrete)] = None

    # ---- questions -------------------------------------------------------------------------
    def possible(self, narrower: Allowed | None = None,
                 progress: Callable[[int, int], None] | None = None, *, loose_only: bool = False) -> list[set[int]]:
        """Row-major possible values within the base restriction and ``narrower``; ``progress(done, cells)``
        hears of each cell settled. With ``loose_only`` a cell is settled once it shows two values: which
        cells are loose is exact, but a loose cell's set may lack values (the questions proving that a loose
        cell has no further value are left out)."""
        while True:
            try:
                return self._possible(narrower, progress, loose_only)
            except _RegionAboveK as above:  # K was not proved and is wrong: raise it, then ask again
                self.big_open = False
                if self.find_reach:
                    self.solvable = self._settle(self.defer_k, raise_first=True)
                else:
                    self._raise(above.largest)
                    self.solvable = self._settle(self.defer_k)

    def _possible(self, narrower: Allowed | None, progress: Callable[[int, int], None] | None,
                  loose_only: bool = False) -> list[set[int]]:
        n = self.puzzle.size
        seen: list[set[int]] = [set() for _ in range(n)]
        if not self.solvable:
            return seen
        model = self.model
        assert model is not None
        allowed = intersect(self.allowed, narrower)
        for sol in self.solutions:
            if _fits(narrower, sol):
                for c, v in enumerate(sol):
                    seen[c].add(v)
        assumptions = self._restrict(narrower)
        impossible: set[int] = set()
        """Literals proved false within ``narrower`` only."""

        def unseen(c: int) -> list[int]:
            if loose_only and len(seen[c]) > 1:
                return []
            lits = (model.lit(c, v) for v in model.domain(c) if v not in seen[c] and (
                    _allows(allowed, c, v) if v != BIG else self.big_open and _allows_big(allowed, c, self.k)))
            return [lit for lit in lits if lit not in self.ruled_out and lit not in impossible]

        def ask(pending: list[int], conflicts: int | None = None) -> bool:
            """One question; a new solution ticks its values (True), UNSAT means none is left (False)."""
            ans = self._ask(assumptions, pending, conflicts)
            if ans is None:
                return False
            if ans.big_groups:
                raise _RegionAboveK(ans.largest_big)
            self._keep(ans)
            for c, v in enumerate(ans.concrete):
                seen[c].add(v)
            return True

        def rule_out(lits: list[int]) -> None:
            """Literals proved false in every solution asked about: stated for good when nothing was assumed."""
            if assumptions:
                impossible.update(lits)
                return
            for lit in lits:
                model.add_clause([-lit])
            self.ruled_out.update(lits)

        # One question over the whole grid first (a unique grid is settled by it alone), then cell by cell
        # with a short allowance each, which settles most cells in few conflicts; the cells whose proof runs
        # longer are asked together, and one UNSAT answer settles them all.
        settled = 0
        todo = list(range(n)) if (pending := [lit for c in range(n) for lit in unseen(c)]) and ask(pending) else []
        asked = bool(todo)
        while todo:
            slow: list[int] = []
            for c in todo:
                try:
                    while pending := unseen(c):
                        if not ask(pending, self.short_proof):
                            rule_out(pending)
                            break
                except LongProof:
                    slow.append(c)
                    continue
                settled += 1
                if progress is not None:
                    progress(settled, n)
            pending = [lit for c in slow for lit in unseen(c)]
            if not pending or not ask(pending):
                rule_out(pending)
                break
            todo = slow
        if progress is not None and asked and settled < n:
            progress(n, n)  # the cells settled together
        return seen

    def result(self, values: list[set[int]], seconds: float, narrower: Allowed | None = None) -> Possible:
        cols = self.puzzle.cols
        cells = [values[i : i + cols] for i in range(0, len(values), cols)]
        forced = sum(1 for v in values if len(v) == 1)
        loose = sum(1 for v in values if len(v) > 1)
        seen = sum(1 for sol in self.solutions if _fits(narrower, sol))
        return Possible(cells, forced, loose, seen, self.questions, seconds, self.max_size,
                        self.total_sat_calls, self.k)

    @property
    def total_sat_calls(self) -> int:
        return self.sat_calls + (self.model.calls if self.model is not None else 0)

    def close(self) -> None:
        if self.model is not None:
            self.sat_calls += self.model.calls
            self.model.close()
            self.model = None
