"""CNF backend (python-sat): solve, prove uniqueness, enumerate, and the generator's incremental oracle.

Every question starts with K = ``CnfEngine.first_k`` explicit sizes plus the BIG label (see
fillomino.encode.cnf) and raises K only when an answer still holds a BIG region it cannot settle, so
the usual puzzle with small regions gets a small model while a grid with a huge open area stays exact.
Every model is built by ``CnfEngine.model``; ``engine`` arguments carry other settings (tests, A/B runs).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace

from ..clock import Clock
from ..encode.cnf import DEFAULT_ENGINE, CnfEngine, CnfModel, Interrupted, KeptByKey
from ..grid import distances, neighbour_table
from ..puzzle import Grid, Puzzle, to_grid
from .base import Budget, Status, Verdict, differing_cells

NAME = "cnf"

NEAR_FIRST_RADIUS = 6
"""``UniquenessOracle.check_near``'s first window: the cells within this many steps of the changed cell."""

Way = tuple[str, int | None]
"""How a fresh model is run: (pysat solver name, conflicts before strengthening or None for never)."""

FRESH_WAYS: tuple[Way, ...] = (("g4", DEFAULT_ENGINE.escalate_after),)
"""The fresh model of a carving question in one process (``check_fresh``'s default)."""

RACING_WAYS: tuple[Way, ...] = (("g4", 100_000), ("cd195", 2_000), ("g4", 2_000), ("cd195", 100_000))
"""Fresh models that race each other, first come first, when a carving question may use N processes
(``fresh_ways``): no single way wins on every question, the first two raced did best
(docs/benchmarks.md, "Figures behind the shipped settings")."""


def fresh_ways(processes: int) -> tuple[Way, ...]:
    """The ways a fresh carving question is run with this many processes (at least one)."""
    return FRESH_WAYS if processes <= 1 else RACING_WAYS[:processes]


def _budget_error():
    from . import BudgetExhausted

    return BudgetExhausted("the budget ran out before the question was settled: the answer is unknown")


def interruptible(solver: str) -> bool:
    """Whether a pysat solver can be stopped by the clock (CaDiCaL cannot, Kissat is not incremental)."""
    return not solver.startswith(("cd", "kissat"))


def puzzle_model(puzzle: Puzzle, k: int, max_size: int | None, engine: CnfEngine = DEFAULT_ENGINE) -> CnfModel:
    """``engine``'s model for this puzzle's clue positions with K explicit sizes, capped when ``max_size``
    is given (then K is max_size, see ``CnfEngine.start_k``)."""
    return engine.model(puzzle.rows, puzzle.cols, puzzle.clues, k=k, big=max_size is None)


def clue_assumptions(model: CnfModel, puzzle: Puzzle) -> list[int]:
    return [model.lit(c, v) for c, v in enumerate(puzzle.clues) if v]


class _Question:
    """One model with K refined on demand; shared by solve, uniqueness and enumeration.

    With ``pinned`` the clues are unit clauses (measured: 1.5-2x faster than assuming them on big
    grids, as the solver simplifies with them once), so the model answers for this clue set only;
    the conflict shrinking, which asks about clue subsets, uses an unpinned question.
    """

    def __init__(
        self, puzzle: Puzzle, max_size: int | None, clock: Clock, pinned: bool = True, k: int | None = None,
        engine: CnfEngine = DEFAULT_ENGINE,
    ) -> None:
        self.puzzle = puzzle
        self.max_size = max_size
        self.clock = clock
        self.pinned = pinned
        self.engine = engine
        self.k = k or engine.start_k(max_size)
        self._build()

    def _build(self) -> None:
        self.model = puzzle_model(self.puzzle, self.k, self.max_size, self.engine)
        self.clue_lits = clue_assumptions(self.model, self.puzzle)
        if self.pinned:
            self.model.pin(self.clue_lits)
        self.assumptions = [] if self.pinned else list(self.clue_lits)

    def refine(self, k: int) -> None:
        """Rebuild with more explicit sizes (the abstraction could not settle a BIG region)."""
        self.model.close()
        self.k = min(max(k, self.k + 1), self.puzzle.size)
        self._build()

    def solve(self, extra: Iterable[int] = ()):
        """Solve under all clues (plus ``extra`` literals)."""
        return self.solve_only(self.assumptions + list(extra))

    def solve_only(self, assumptions: list[int]):
        """Solve under exactly these assumptions; a spent budget raises BudgetExhausted."""
        try:
            return self.model.solve(assumptions, self.clock)
        except Interrupted:
            raise _budget_error() from None

    def close(self) -> None:
        self.model.close()


def _question(
    puzzle: Puzzle, max_size: int | None, budget: Budget, engine: CnfEngine, clock: Clock | None = None
) -> _Question:
    """A question on ``clock`` when given (a caller's running budget), else on a clock started from ``budget``."""
    return _Question(puzzle, max_size, clock or Clock.of(budget), engine=engine)


def solve(
    puzzle: Puzzle, *, max_size: int | None = None, budget: Budget | None = None, threads: int = 1,
    engine: CnfEngine = DEFAULT_ENGINE, clock: Clock | None = None,
) -> Grid | None:
    """One solution or None. ``clock``, when given, replaces ``budget`` (a caller's running budget)."""
    q = _question(puzzle, max_size, budget or Budget(), engine, clock)
    try:
        while True:
            ans = q.solve()
            if ans is None:
                return None
            if ans.exact:
                return to_grid(ans.concrete, puzzle.cols)
            q.refine(ans.largest_big)
    finally:
        q.close()


def uniqueness(
    puzzle: Puzzle,
    *,
    max_size: int | None = None,
    budget: Budget | None = None,
    threads: int = 1,
    candidate: Grid | None = None,
    engine: CnfEngine = DEFAULT_ENGINE,
    clock: Clock | None = None,
) -> Verdict:
    """Unique / multiple / none / unknown, with the evidence (see Verdict). ``candidate`` is not used:
    the first solution costs this engine little next to the proof that there is no other."""
    start = time.perf_counter()
    try:
        verdict = _uniqueness(puzzle, max_size, budget or Budget(), engine, clock)
    except Exception as exc:
        from . import BudgetExhausted

        if not isinstance(exc, BudgetExhausted):
            raise
        verdict = Verdict(Status.UNKNOWN)
    verdict.max_size = max_size
    verdict.seconds = time.perf_counter() - start
    verdict.backend = NAME
    return verdict


def _uniqueness(
    puzzle: Puzzle, max_size: int | None, budget: Budget, engine: CnfEngine, clock: Clock | None
) -> Verdict:
    q = _question(puzzle, max_size, budget, engine, clock)
    try:
        while True:
            first = q.solve()
            if first is None:
                return Verdict(Status.NONE, conflict=_minimal_conflict(q))
            if not first.exact:
                q.refine(first.largest_big)
                continue
            free = [c for c in range(puzzle.size) if not puzzle.clues[c]]
            if not free:
                second = None
            else:
                q.model.block(first.labels, free)
                second = q.solve()
            if second is not None and second.exact:
                a, b = to_grid(first.concrete, puzzle.cols), to_grid(second.concrete, puzzle.cols)
                return Verdict(Status.MULTIPLE, solutions=[a, b], differ=differing_cells(a, b))
            if second is None and first.single:
                return Verdict(Status.UNIQUE, solutions=[to_grid(first.concrete, puzzle.cols)])
            # a BIG region is left to settle (it might split in several ways): name its size and retry
            q.refine(max(first.largest_big, second.largest_big if second else 0))
    finally:
        q.close()


def _minimal_conflict(pinned: _Question) -> list[tuple[int, int]]:
    """Shrink the UNSAT core over clue assumptions to a minimal set (deletion-based).

    Asks about clue subsets, so it uses a model whose clues are assumptions, not pinned.
    """
    q = _Question(pinned.puzzle, pinned.max_size, pinned.clock, pinned=False, k=pinned.k, engine=pinned.engine)
    try:
        return _shrink(q)
    finally:
        q.close()


def _shrink(q: _Question) -> list[tuple[int, int]]:
    by_lit = {q.model.lit(c, v): c for c, v in enumerate(q.puzzle.clues) if v}
    while (ans := q.solve()) is not None:  # no true answer exists, but an abstract one may
        q.refine(ans.largest_big)
    core = [lit for lit in q.model.core() if lit in by_lit]
    i = 0
    while i < len(core):
        trial = core[:i] + core[i + 1 :]
        ans = q.solve_only(trial)
        if ans is not None and not ans.exact:
            # an answer the abstraction cannot read: name more sizes and ask again
            cells = [by_lit[lit] for lit in core]
            q.refine(ans.largest_big)
            by_lit = {q.model.lit(c, v): c for c, v in enumerate(q.puzzle.clues) if v}
            core = [q.model.lit(c, q.puzzle.clues[c]) for c in cells]  # same order: the first i are needed
            continue
        if ans is None:
            smaller = set(q.model.core())
            core = [lit for lit in trial if lit in smaller]
        else:
            i += 1
    cols = q.puzzle.cols
    return sorted(divmod(by_lit[lit], cols) for lit in core)  # type: ignore[misc]


def enumerate_solutions(
    puzzle: Puzzle, *, max_size: int | None = None, budget: Budget | None = None, engine: CnfEngine = DEFAULT_ENGINE
) -> Iterator[Grid]:
    """Every solution exactly once. An answer whose labelling may stand for several solutions (a
    BIG group of at least 2(K+1) cells) raises K and restarts, with the solutions already given
    blocked, so nothing is given twice and nothing is missed."""
    q = _question(puzzle, max_size, budget or Budget(), engine)
    seen: list[list[int]] = []
    try:
        while True:
            ans = q.solve()
            if ans is None:
                return
            if not (ans.exact and ans.single):
                q.refine(ans.largest_big)
                for values in seen:
                    q.model.block(q.model.abstract(values))
                continue
            q.model.block(ans.labels)
            seen.append(ans.concrete)
            yield to_grid(ans.concrete, puzzle.cols)
    finally:
        q.close()


class UniquenessOracle:
    """"Is this answer still the only one with clues at these cells?" — many times, one solver.

    The answer is blocked once; each question is one incremental solve with the kept clues as
    assumptions. Exact: the explicit sizes cover every size in the answer, so any other solution,
    BIG regions included, is a real alternative.

    ``must_differ`` (both ``check`` and ``check_fresh``) narrows a question the caller already half
    knows: when the clues at ``clue_cells`` plus ``must_differ`` admit only the answer, every other
    solution of ``clue_cells`` alone differs from the answer on some cell of ``must_differ``, so the
    search may demand that. (A carver removing clues from a unique set always knows this; on a 20x20
    it cut the fresh models' CPU time by a quarter, and a removed single cell becomes a unit clause.)
    """

    def __init__(
        self, solution: Grid, *, budget: Budget | None = None, max_size: int | None = None, clock: Clock | None = None,
        engine: CnfEngine = DEFAULT_ENGINE, shared: bool = False,
    ) -> None:
        self.rows, self.cols = len(solution), len(solution[0])
        self.values = [v for row in solution for v in row]
        self.budget = budget or Budget()
        """Each question's own budget (when no shared ``clock`` is given)."""
        self.clock = clock
        """One clock for every question (a command's whole budget), or None."""
        self.engine = engine
        # sizes up to the answer's largest (or the cap) by name, larger ones BIG: every other answer is a true one
        k = max(self.values) if max_size is None else max_size
        self._shape = (self.rows, self.cols, k, max_size is None, engine)
        self._select: int | None = None
        """With ``shared``: the literal every question assumes, which switches this answer's block on."""
        kept = _SHARED.take(self._shape) if shared else None
        model, served = kept or (engine.model(self.rows, self.cols, k=k, big=max_size is None), 0)
        self._answers = served + 1
        """Answers the model has served, this one included."""
        self.model = model
        if shared:
            self._select = model.pool.id()
            model.add_clause([-self._select, *(-model.lit(c, v) for c, v in enumerate(self.values))])
        else:
            model.block(self.values)
        self.calls = 0
        self.solves = 0

    def check(
        self, clue_cells: Iterable[int], must_differ: Iterable[int] = (), *, clock: Clock | None = None
    ) -> tuple[Status, Grid | None]:
        """(UNIQUE, None), (MULTIPLE, another solution) or (UNKNOWN, None) when the budget runs out."""
        others = self.others(clue_cells, must_differ, clock=clock)
        if others is None:
            return Status.UNKNOWN, None
        if not others:
            return Status.UNIQUE, None
        return Status.MULTIPLE, to_grid(others[0], self.cols)

    def check_near(
        self, clue_cells: Iterable[int], cell: int, *, first_radius: int = NEAR_FIRST_RADIUS
    ) -> tuple[Status, Grid | None]:
        """``check(clue_cells, must_differ=[cell])``, asked first of the solutions that keep the answer
        everywhere beyond ``first_radius`` steps of ``cell``, then twice as far, and so on up to the whole grid.

        Exact: a solution found inside a window is checked against the rules of the whole grid, so it is
        a real other solution, and only the whole-grid question can answer UNIQUE. It pays when another
        solution usually exists and differs near ``cell``: a clue that is needed (certify ``--minimal``)
        is mostly shown so by a small change around it, which a window finds far sooner than a search
        of the whole grid. One clock (the oracle's, or one started from its budget) covers every window.
        """
        if first_radius < 1:
            raise ValueError(f"first_radius must be at least 1, not {first_radius}")
        held = set(clue_cells)
        clock = self.clock or Clock.of(self.budget)
        nbrs = neighbour_table(self.rows, self.cols)
        radius = first_radius
        while True:
            window = distances(cell, nbrs, within=radius)
            if len(window) == len(self.values):
                return self.check(held, [cell], clock=clock)
            kept = held.union(c for c in range(len(self.values)) if c not in window)
            status, other = self.check(kept, [cell], clock=clock)
            if status is not Status.UNIQUE:
                return status, other
            radius *= 2

    def others(
        self, clue_cells: Iterable[int], must_differ: Iterable[int] = (), *, many: int = 1, gather: bool = False,
        clock: Clock | None = None,
    ) -> list[list[int]] | None:
        """Other solutions (row-major) with the answer's values at ``clue_cells``: [] when the answer is
        the only one, None when the budget ran out. With ``gather`` up to ``many`` different ones, each
        kept apart from the next by a clause of this question only. ``clock`` (default: the oracle's
        clock, else one started from its budget) bounds the question."""
        self.calls += 1
        model = self.model
        lits, values = model.lits, self.values
        assumptions = [lits[c][values[c]] for c in clue_cells]
        if self._select is not None:
            assumptions.append(self._select)
        differ = [-lits[c][values[c]] for c in must_differ]
        switch = None
        if len(differ) == 1 and not gather and self._select is not None:
            # one cell: an assumption says it, where a clause would cost a shared model a variable for good
            assumptions.append(differ[0])
            differ = []
        if differ or gather:  # clauses for this question only: switched on by an assumption, then retired
            switch = model.pool.id()
            if differ:
                model.add_clause([-switch, *differ])
            assumptions.append(switch)
        clock = clock or self.clock or Clock.of(self.budget)
        found: list[list[int]] = []
        try:
            while len(found) < many:
                self.solves += 1
                ans = model.solve(assumptions, clock)
                if ans is None:
                    break
                found.append(list(ans.concrete))
                if gather:
                    model.add_clause([-switch, *(-model.lit(c, v) for c, v in enumerate(ans.labels))])
        except Interrupted:
            return None
        finally:
            if switch is not None:
                model.add_clause([-switch])
        return found

    def check_fresh(
        self,
        clue_cells: Iterable[int],
        must_differ: Iterable[int] = (),
        budget: Budget | None = None,
        ways: Sequence[Way] | None = None,
    ) -> tuple[Status, Grid | None]:
        """The same question put to a new model built for these clues: pinned as units, with rooted
        clue regions only after some conflicts (see fillomino.encode.cnf). Costs a build, but on a
        hard, sparse question it is many times faster than the long-lived model, whose clues are
        only assumptions. With several ``ways`` (see RACING_WAYS) each runs in its own process and the
        first to settle answers: the status is exact either way, only the other solution may differ.
        A way whose solver the clock cannot stop (``interruptible``) is stopped by the race instead."""
        from ..race import first_answer

        ways = FRESH_WAYS if ways is None else ways
        held = sorted(clue_cells)
        differ = sorted(must_differ)
        budget = budget or Budget()
        try:
            return first_answer(
                [lambda s=s, e=e: self._fresh_one(held, differ, budget, s, e) for s, e in ways],
                settled=lambda answer: answer[0] is not Status.UNKNOWN,
                timeout=budget.seconds,
                isolate=budget.seconds is not None and not all(interruptible(s) for s, _ in ways),
            )
        except TimeoutError:
            return Status.UNKNOWN, None

    def _fresh_one(
        self, clue_cells: list[int], must_differ: list[int], budget: Budget, solver: str,
        escalate_after: int | None,
    ) -> tuple[Status, Grid | None]:
        held = set(clue_cells)
        clues = tuple(v if c in held else 0 for c, v in enumerate(self.values))
        puzzle = Puzzle(self.rows, self.cols, clues)
        if not interruptible(solver):
            budget = Budget(None, budget.conflicts)  # no clock stop: the race stops it in time
        # every answer size explicit: no extras
        engine = replace(self.engine, solver=solver, escalate_after=escalate_after)
        model = puzzle_model(puzzle, max(self.values), None, engine)
        try:
            model.pin(clue_assumptions(model, puzzle))
            model.block(self.values, [c for c in range(puzzle.size) if c not in held])
            differ = [-model.lit(c, self.values[c]) for c in must_differ]
            if differ:
                model.add_clause(differ)
            try:
                ans = model.solve([], Clock.of(budget))
            except Interrupted:
                return Status.UNKNOWN, None
        finally:
            model.close()
        if ans is None:
            return Status.UNIQUE, None
        return Status.MULTIPLE, to_grid(ans.concrete, self.cols)

    def close(self) -> None:
        """Free the model, or with ``shared`` switch this answer's block off for good and hand the model back."""
        if self._select is None:
            self.model.close()  # closing twice is harmless
            return
        if self._answers:
            self.model.add_clause([-self._select])
            _give_back(self._shape, self.model, self._answers)
            self._answers = 0  # given back: a second close must not touch it


SHARED_MODELS = 4
SHARED_CELLS = 400
SHARED_ANSWERS = 64
"""``UniquenessOracle(shared=True)``: the models of the last SHARED_MODELS shapes (rows, cols, K, BIG) of up to
SHARED_CELLS cells are kept for the next oracle of the same shape, each for up to SHARED_ANSWERS answers. A
generator draws an answer after another of one shape, and every lazy clause a model learnt (how regions of a
size may not lie) holds for every answer, so the next answer's questions need fewer rounds and no model is built;
each answer's block is switched on by a literal of its own, off for good once its oracle closes."""


def _give_back(shape: tuple, model: CnfModel, answers: int) -> None:
    """Keep ``model`` for the next oracle of its shape, or close it (too big, or used enough)."""
    if shape[0] * shape[1] > SHARED_CELLS or answers >= SHARED_ANSWERS:
        model.close()
        return
    model._disarm()  # no timer may interrupt the next oracle's questions
    for stale, _ in _SHARED.put(shape, (model, answers)):
        stale.close()


_SHARED: KeptByKey[tuple, tuple[CnfModel, int]] = KeptByKey(SHARED_MODELS)
"""Per shape (rows, cols, K, BIG, engine), a kept model and the answers it has served: one oracle at a time holds
a model (threads each take their own)."""
