"""The CNF model: a size label per cell, with region sizes enforced by lazily added clauses.

Labels. Every cell has a literal for each explicit size 1..K, for each larger clue value v it can reach
(cells within distance v-1 of a v clue), and, unless sizes are capped, one literal BIG meaning "my
region has more than K cells and is not one of those clued regions". This is the "16+" of the seed,
refined on demand: a solution is exact whenever no BIG cell is left, and callers raise K when needed.

Static clauses: exactly one label per cell, 1s never touch, a cell of size >= 2 has a neighbour of its
size; clued sizes get root variables with exact counts (fillomino.encode.anchors) when they fit
``CnfEngine.root_limit``, and otherwise nothing static beyond the neighbour rule. Every other size rule
is added lazily: after each SAT answer the groups are checked and, for each wrong group, clauses that
hold in every true solution are added (too big: not all of v+1 of its connected cells are v; too small:
each of its cells, if v, has a v neighbour outside the group, as its region must cross that border).
Since each lazy clause is valid for every solution whatever the clues, it stays in the solver for good:
the same model answers many clue sets incrementally (unless a caller pins one clue set, see ``pin``).
A search that passes ``CnfEngine.escalate_after`` conflicts adds the costlier exact clauses (``strengthen``).

Abstraction (why answers are exact). Map a true solution to labels by writing BIG on every region of
size > K that is not a clued extra-size region. That image satisfies every clause here, so UNSAT here
means no solution. Conversely a model answer turns into a true solution by giving each BIG group its
own size (`Answer.concrete`), which is valid unless that size is an extra value touching an equal
region (`Answer.exact` is False then, and callers raise K). A BIG group under 2(K+1) cells cannot be
several regions larger than K, so such an answer stands for one solution only (`Answer.single`).
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import chain
from typing import Generic, TypeVar

import pysolvers
from pysat.formula import IDPool
from pysat.solvers import Glucose4, Solver

from ..clock import Clock, alarm
from ..grid import boundary, component, distances, groups, groups_by, neighbours
from .anchors import RootedSize, area_clauses, at_most_one

BIG = 0
"""The abstract label of a cell whose region is larger than K (see module docstring)."""


@dataclass(frozen=True)
class CnfEngine:
    """The CNF engine's settings and its one model factory (``model``).

    Every setting only moves work between clauses stated up front, clauses stated late and search:
    each clause holds in every solution, so no setting changes an answer.
    """

    solver: str = "g4"
    """The pysat solver; Glucose 4 has assumptions, cores, conflict budgets and interrupts (CaDiCaL has no budgets)."""
    first_k: int = 9
    """Explicit sizes every cell gets at first; larger regions start as BIG and are refined on demand."""
    escalate_after: int | None = 2000
    """Conflicts after which a model adds its costlier exact clauses (None: add them up front)."""
    anchor_from: int = 4
    """Clued sizes from this one up to K get rooted regions too once a search gets long."""
    area_limit: int = 40_000
    """Clause budget of the area sum over all roots (0: none)."""
    pairwise_up_to: int = 16
    """A cell with at most this many labels says "at most one" by pairwise binary clauses, else by a counter."""
    root_limit: int = 5_000
    """Root variables (cells within reach, summed over a size's clue positions) allowed per clued size;
    a size needing more rests on the lazy checks (a group of that size without its clue is cut)."""
    eager_cost: int = 60_000
    """A rooted size whose counts and layers (cells x size, summed over its roots) cost up to this
    gets them up front, else only when an answer shows one of its regions wrong."""

    def start_k(self, max_size: int | None) -> int:
        """The explicit sizes a question starts with: all of them under a ``--max-size`` cap, else first_k."""
        return self.first_k if max_size is None else max_size

    def model(self, rows: int, cols: int, clues: Sequence[int] = (), *, k: int, big: bool = True) -> CnfModel:
        """The model of one shape with K explicit sizes: with ``big`` larger regions are BIG, except that
        the cells within reach of a clue above K may take its size by name; without it every region is
        assumed to have at most K cells (the ``--max-size`` promise, checked against the clues first).
        ``clues`` (row-major, 0 for none) are the clue positions the model serves: any subset of them
        may be assumed, or all of them pinned."""
        clue_cells: dict[int, set[int]] = {}
        for c, v in enumerate(clues):
            if v:
                clue_cells.setdefault(v, set()).add(c)
        extra = {v: reach(rows, cols, clues, v) for v in clue_cells if v > k} if big else {}
        return CnfModel(rows, cols, explicit=k, extra=extra, clue_cells=clue_cells, big=big, engine=self)


DEFAULT_ENGINE = CnfEngine()
"""The shipped settings."""


K = TypeVar("K")
V = TypeVar("V")


def clause_adder(solver: Solver) -> Callable[[list[int]], object]:
    """A function that adds one clause to ``solver``: Glucose 4's own C function where pysat has it, since
    pysat's two Python wrappers around it cost about two thirds of an add (a 5x5 model adds 1400 clauses), else
    the wrapper. The wrapper also records a clause that makes the formula unsatisfiable outright, which only
    the next solve call, setting the same status, would read."""
    backend = getattr(solver, "solver", None)
    handle = getattr(backend, "glucose", None)
    direct = getattr(pysolvers, "glucose41_add_cl", None)
    if not isinstance(backend, Glucose4) or handle is None or direct is None:
        return solver.add_clause
    return partial(direct, handle)


class KeptByKey(Generic[K, V]):
    """The values of the last ``most`` keys put, for threads alike: ``take`` hands one out (no other caller gets it
    meanwhile), ``put`` keeps it again as the most recent and returns what no longer fits, for the caller to free."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.lock = threading.Lock()
        self.kept: dict[K, V] = {}

    def take(self, key: K) -> V | None:
        with self.lock:
            return self.kept.pop(key, None)

    def put(self, key: K, value: V) -> list[V]:
        """Keep ``value`` under ``key``; returns the values pushed out (one kept under the same key meanwhile, and
        the least recent beyond ``most``)."""
        with self.lock:
            out = [] if (old := self.kept.pop(key, None)) is None else [old]
            self.kept[key] = value  # the most recent last
            while len(self.kept) > self.most:
                out.append(self.kept.pop(next(iter(self.kept))))
        return out


STATIC_KEPT = 4
STATIC_KEPT_CELLS = 400
"""The static clauses of the last STATIC_KEPT models without extra sizes, of up to STATIC_KEPT_CELLS cells, are
kept for the next model of the same shape and K (a generator builds one for every answer it draws, and building
their lists is most of a small model's cost); a model with a counter's variables (a label list too long for
pairwise clauses) is not kept, as their numbers depend on the pool."""

_STATIC: KeptByKey[tuple[int, int, int, bool, int], list[Sequence[int]]] = KeptByKey(STATIC_KEPT)


class Interrupted(Exception):
    """The time or conflict budget ran out inside a solve call."""


@dataclass
class Answer:
    """One valid abstract solution: per cell its label (BIG = 0) and the concrete reading of it."""

    labels: list[int]
    concrete: list[int]
    big_groups: list[list[int]]
    exact: bool
    single: bool = True
    """Whether the labelling stands for this one solution only: a BIG group smaller than 2(K+1)
    cannot split into several regions larger than K, so it is one region of its own size."""

    @property
    def largest_big(self) -> int:
        return max((len(g) for g in self.big_groups), default=0)


class CnfModel:
    """Incremental CNF model of one rows x cols shape; clues are passed as assumptions.

    ``explicit`` is K, the sizes every cell may take by name. ``extra`` maps a size v > K to the
    cells allowed to take it (those that can reach a v clue). ``big`` adds the BIG label; without
    it sizes are capped at K and larger regions are assumed away (the ``--max-size`` promise).
    ``engine`` holds the settings; build models through ``CnfEngine.model``.
    """

    def __init__(
        self,
        rows: int,
        cols: int,
        *,
        explicit: int,
        extra: dict[int, set[int]] | None = None,
        clue_cells: dict[int, set[int]] | None = None,
        big: bool = True,
        engine: CnfEngine = DEFAULT_ENGINE,
    ) -> None:
        self.rows, self.cols = rows, cols
        self.engine = engine
        self.escalate_after = engine.escalate_after
        self.n = rows * cols
        self.k = min(explicit, self.n)
        self.has_big = big and self.k < self.n
        self.extra = {v: set(cells) for v, cells in (extra or {}).items() if v > self.k}
        self.extra_clues = clue_cells or {}
        self.nbrs = neighbours(rows, cols)
        self.pool: IDPool  # made by _build, numbering from after the label variables it numbers itself
        self.solver = Solver(name=engine.solver)
        self._add = clause_adder(self.solver)
        self.lits: list[dict[int, int]] = []
        self.rooted: dict[int, RootedSize] = {}
        self._model: list[int] = []
        self.strong = False
        self.pinned = False
        self.calls = 0
        self.lazy_clauses = 0
        self.size_clauses: list[list[int]] = []
        """The lazy clauses over explicit sizes only (no BIG, no size above K): ``carry`` hands them on."""
        self._timer: threading.Timer | None = None
        self._deadline: float | None = None
        self._build()

    # ---- variables -------------------------------------------------------------------------
    def domain(self, cell: int) -> list[int]:
        """Labels the cell may take (BIG = 0 included when present)."""
        return list(self.lits[cell])

    def lit(self, cell: int, value: int) -> int:
        """Literal 'cell has label value'; raises KeyError when the value is outside the cell's domain."""
        return self.lits[cell][value]

    def has(self, cell: int, value: int) -> bool:
        return value in self.lits[cell]

    def _build(self) -> None:
        # the label variables are 1..L, cell by cell, numbered here rather than by the pool (a pool call each
        # cost a tenth of a 5x5 build): a model's first L entries give every label in order
        extra = sorted(self.extra)
        top = 0
        for c in range(self.n):
            dom = [*range(1, self.k + 1), *(v for v in extra if c in self.extra[v])]
            if self.has_big:
                dom.append(BIG)
            self.lits.append(dict(zip(dom, range(top + 1, top + 1 + len(dom)))))
            top += len(dom)
        self.pool = IDPool(start_from=top + 1)
        self._value_of = [0] + [v for cell in self.lits for v in cell]
        self._cell_of_label = [0] + [c for c, cell in enumerate(self.lits) for _ in cell]
        add = self._add
        for clause in self._static():
            add(clause)
        self._rooted_sizes(explicit=False)
        if self.escalate_after is None:
            self.strengthen()

    def _static(self) -> Iterable[Sequence[int]]:
        """The static clauses (``_static_clauses``): kept from an earlier model of this shape and K, or made now."""
        if self.extra or self.n > STATIC_KEPT_CELLS or self.k + self.has_big > self.engine.pairwise_up_to:
            return chain.from_iterable(self._static_clauses())
        key = (self.rows, self.cols, self.k, self.has_big, self.engine.pairwise_up_to)
        kept = _STATIC.take(key)  # models may be built in several threads
        if kept is None:
            kept = list(chain.from_iterable(self._static_clauses()))
        _STATIC.put(key, kept)
        return kept

    def _static_clauses(self) -> Iterator[list[Sequence[int]]]:
        """One label per cell, and the neighbour rule (1s never touch, a cell of size >= 2 has a neighbour of its
        size), a cell's clauses at a time in the order the model has always added them (the solver's search depends
        on it). Tuples whose negative literals are shared (``neg``): a quarter of the memory of lists of new ints,
        which a forked process pays for in page faults."""
        lits, nbrs = self.lits, self.nbrs
        neg = [-x for x in range(len(self._value_of))]
        for c in range(self.n):
            own = tuple(lits[c].values())
            if len(own) <= self.engine.pairwise_up_to:
                yield [own]
                yield [(neg[x], neg[y]) for i, x in enumerate(own) for y in own[i + 1 :]]
            else:
                clauses: list[Sequence[int]] = [own]
                at_most_one(list(own), self.pool, clauses.append)
                yield clauses
        for c in range(self.n):
            around = [lits[m] for m in nbrs[c]]
            clauses = []
            for v, x in lits[c].items():
                if v == 1:
                    clauses.extend((neg[x], neg[lits[m][1]]) for m in nbrs[c] if c < m)
                else:
                    clauses.append((neg[x], *[labels[v] for labels in around if v in labels]))
            yield clauses

    def strengthen(self) -> None:
        """Add the costlier exact clauses: rooted regions for clued sizes <= K and the area sum.

        They pay off on hard puzzles only, so a solve adds them once its search gets long (see
        CnfEngine.escalate_after). They hold in every solution, so adding them at any moment is sound.
        """
        if self.strong:
            return
        self.strong = True
        self._rooted_sizes(explicit=True)
        roots = [r for rooted in self.rooted.values() for r in rooted.roots()]
        if self.engine.area_limit and len(roots) > 1:
            area_clauses(roots, self.n, self.engine.area_limit, self.pool, self._add)

    def _rooted_sizes(self, explicit: bool) -> None:
        """Root variables for the clued sizes above K, or (explicit) from anchor_from up to K."""
        add = self._add
        engine = self.engine
        for v in sorted(self.extra_clues):
            wanted = engine.anchor_from <= v <= self.k if explicit else v in self.extra
            if not wanted or v in self.rooted:
                continue
            anchors = sorted(self.extra_clues[v])
            near = {a: distances(a, self.nbrs, within=v - 1) for a in anchors}
            if sum(len(d) for d in near.values()) <= engine.root_limit:
                self.rooted[v] = RootedSize(v, anchors, near, self.lits, self.nbrs, self.pool, add,
                                            every=not explicit, eager_cost=engine.eager_cost)

    # ---- solving ---------------------------------------------------------------------------
    def pin(self, lits: Iterable[int]) -> None:
        """Make these literals (a puzzle's clues) unit clauses. The model then answers only questions
        that include them: never use a pinned model for a clue subset."""
        for lit in lits:
            self._add([lit])
        self.pinned = True

    def add_clause(self, clause: Sequence[int]) -> None:
        self._add(list(clause))

    def carry(self, other: CnfModel) -> None:
        """Add ``other``'s lazy clauses over explicit sizes, a model of the same shape with K no larger: each says
        how regions of one size up to its K may lie, which holds for every labelling of a true solution in
        either model (sizes up to its K are named alike in both), so a model built after raising K need not
        find them again, one SAT call per round."""
        if (other.rows, other.cols) != (self.rows, self.cols) or other.k > self.k:
            raise ValueError("lazy clauses carry only to a model of the same shape with K at least as large")
        cell_of, value_of, lits = other._cell_of_label, other._value_of, self.lits
        for cl in other.size_clauses:
            new = [lits[cell_of[x]][value_of[x]] if x > 0 else -lits[cell_of[-x]][value_of[-x]] for x in cl]
            self._add(new)
            self.size_clauses.append(new)

    def area_count(self, area: Sequence[int], v: int) -> None:
        """If any cell of ``area`` is v, at least v of them are: valid when every v region through the
        area lies inside it (the caller knows the area is walled off from other v cells)."""
        from pysat.card import CardEnc, EncType

        xs = [self.lits[c][v] for c in area]
        on = self.pool.id(("area-count", v, area[0]))
        for clause in CardEnc.atleast(xs, v, vpool=self.pool, encoding=EncType.seqcounter).clauses:
            self._add([-on, *clause])
        for x in xs:
            self._add([-x, on])

    def block(self, labels: Sequence[int], cells: Iterable[int] | None = None) -> None:
        """Forbid this labelling (on ``cells``, default all) from now on."""
        cells = range(self.n) if cells is None else cells
        self._add([-self.lits[c][labels[c]] for c in cells])

    def core(self) -> list[int]:
        """After an UNSAT answer: the assumption literals it used."""
        return list(self.solver.get_core() or [])

    def solve(self, assumptions: Sequence[int] = (), clock: Clock | None = None) -> Answer | None:
        """A valid solution under the assumptions, or None. Raises Interrupted when the clock passes.

        Loops: SAT answer -> check every group -> add a clause per wrong group -> solve again.
        """
        assumptions = list(assumptions)
        while True:
            if not self._sat(assumptions, clock):
                return None
            labels = self._labels()
            clauses, big_groups, named = self._check(labels)
            if not clauses:
                return self._answer(labels, big_groups)
            for cl in clauses:
                self._add(cl)
            self.size_clauses.extend(named)
            self.lazy_clauses += len(clauses)

    def _sat(self, assumptions: list[int], clock: Clock | None) -> bool:
        self.calls += 1
        while True:
            limit = None
            conflicts = None
            if not self.strong and self.escalate_after is not None:
                conflicts = self.solver.accum_stats().get("conflicts", 0)
                limit = self.escalate_after - conflicts
                if limit <= 0:
                    self.strengthen()
                    limit = None
            result = self._sat_limited(assumptions, clock, limit, conflicts)
            if result is not None:
                return result
            self.strengthen()  # the search got long: add the exact clauses and go on

    def _sat_limited(
        self, assumptions: list[int], clock: Clock | None, limit: int | None, conflicts: int | None = None
    ) -> bool | None:
        """One solver call; None when ``limit`` conflicts passed first. Raises Interrupted when the clock is spent.
        ``conflicts``: the solver's conflicts so far when the caller has just read them (one stats call less)."""
        end = None if clock is None else clock.end
        if end is None:
            self._disarm()  # a stale interrupt would end a call that has no deadline
        if limit is None and (clock is None or not clock.limited):
            return bool(self.solver.solve(assumptions=assumptions))
        if end is not None:
            if end - time.monotonic() <= 0:
                raise Interrupted
            self._arm(end)
        allowance = limit
        if clock is not None and clock.conflicts is not None:
            if clock.conflicts <= 0:
                raise Interrupted
            allowance = clock.conflicts if limit is None else min(limit, clock.conflicts)
        before = self.solver.accum_stats().get("conflicts", 0) if conflicts is None else conflicts
        self.solver.conf_budget(allowance if allowance is not None else -1)
        result = self.solver.solve_limited(assumptions=assumptions, expect_interrupt=self._timer is not None)
        if clock is not None:
            clock.charge(self.solver.accum_stats().get("conflicts", 0) - before)
        if result is None:
            if clock is not None and clock.spent():
                raise Interrupted
            if limit is None:
                raise Interrupted
        return result

    def _arm(self, end: float) -> None:
        """Interrupt the solver at ``end`` (a ``time.monotonic()`` value): one timer per deadline, kept across
        the calls that share it, since a thread started per call cost a quarter of a millisecond of CPU and a
        search makes hundreds of calls. Once it has fired, every call under that deadline stops at once."""
        if self._timer is not None and self._deadline == end:
            return
        self._disarm()
        solver = weakref.ref(self.solver)  # a model dropped unclosed is not kept alive until its deadline

        def interrupt() -> None:
            if (alive := solver()) is not None:
                alive.interrupt()

        self._timer = alarm(end, interrupt)
        self._deadline = end

    def _disarm(self) -> None:
        """Stop the deadline's timer and clear an interrupt it may have sent (waiting for it, so none comes later)."""
        if self._timer is None:
            return
        self._timer.cancel()
        self._timer.join()
        self._timer = self._deadline = None
        self.solver.clear_interrupt()

    def _labels(self) -> list[int]:
        """Each cell's label in the last model (exactly one label variable per cell is true)."""
        model = self.solver.get_model()
        self._model = model
        value_of = self._value_of
        labels = [value_of[x] for x in model[: len(value_of) - 1] if x > 0]
        assert len(labels) == self.n
        return labels

    def _check(self, labels: list[int]) -> tuple[list[list[int]], list[list[int]], list[list[int]]]:
        """Clauses refuting each wrong group of this labelling, the (valid) BIG groups, and those of the clauses
        over one explicit size (a group of size 1..K: every literal names that size), in order, for ``carry``."""
        clauses: list[list[int]] = []
        big_groups: list[list[int]] = []
        named: list[list[int]] = []
        k = self.k
        for g in groups_by(labels, self.nbrs):
            v = labels[g[0]]
            if v == BIG:
                if len(g) <= self.k:
                    clauses.extend(self._too_small(g, BIG))
                elif clash := self._big_clash(g, labels):
                    clauses.append(clash)
                else:
                    big_groups.append(g)
                continue
            if len(g) > v:
                found = self._too_big(g, v)
            elif len(g) < v or (v > k and not any(c in self.extra_clues.get(v, ()) for c in g)):
                found = self._too_small(g, v)  # too small, or an extra size without its clue
            else:
                continue
            clauses.extend(found)
            if v <= k:
                named.extend(found)
            if v in self.rooted:  # a rooted region gone wrong: state its exact size and connection now
                root = self.rooted[v].root_of(g[0], self._true)
                if root is not None:
                    self.rooted[v].settle(root)
        return clauses, big_groups, named

    def _big_clash(self, g: list[int], labels: list[int]) -> list[int] | None:
        """A BIG group of s < 2(K+1) cells is one region of size s; if s is an extra size and an s
        cell touches it, that cannot be: not all of it is BIG, or a neighbour is BIG, or that cell is not s."""
        s = len(g)
        if s not in self.extra or s >= 2 * (self.k + 1):
            return None
        border = boundary(g, self.nbrs)
        touching = [m for m in sorted(border) if labels[m] == s]
        if not touching:
            return None
        return (
            [-self.lits[c][BIG] for c in g]
            + [self.lits[m][BIG] for m in sorted(border) if BIG in self.lits[m]]
            + [-self.lits[touching[0]][s]]
        )

    def _true(self, lit: int) -> bool:
        """The literal's value in the last model."""
        return self._model[lit - 1] > 0

    def _too_big(self, g: list[int], v: int) -> list[list[int]]:
        """Not all of v+1 connected cells of the group can be v: such sets grown from its first cell
        and, for a much larger group, its last (one set per cell was measured no better)."""
        inside = set(g)
        starts = [g[0], g[-1]] if len(g) > 2 * (v + 1) else [g[0]]
        found = {tuple(sorted(component(c, inside, self.nbrs, limit=v + 1))) for c in starts}
        return [[-self.lits[c][v] for c in cells] for cells in sorted(found)]

    def _too_small(self, g: list[int], v: int) -> list[list[int]]:
        """The group cannot hold a whole v region: each cell of it, if v, has a v cell beyond its border.

        (A v region through that cell is connected and larger than the group, or holds a clue the
        group lacks, so it crosses the border.) One clause per cell: measured 1.6x faster on 20x36
        grids than the single "not all of it is v, or a neighbour is v".
        """
        border = boundary(g, self.nbrs)
        out = [self.lits[m][v] for m in sorted(border) if v in self.lits[m]]
        return [[-self.lits[c][v], *out] for c in g]

    def _answer(self, labels: list[int], big_groups: list[list[int]]) -> Answer:
        concrete = list(labels)
        exact = True
        for g in big_groups:
            s = len(g)
            for c in g:
                concrete[c] = s
            if s in self.extra:
                # an extra-size region of the same size may touch this group: then the reading is wrong
                for c in g:
                    if any(labels[m] == s for m in self.nbrs[c]):
                        exact = False
        single = all(len(g) < 2 * (self.k + 1) for g in big_groups)
        return Answer(labels, concrete, big_groups, exact, single)

    def abstract(self, values: Sequence[int]) -> list[int]:
        """The labelling of a true solution: BIG on each region larger than K that is not a clued
        extra-size region (the map of the module docstring)."""
        labels = list(values)
        for g in groups(values, self.rows, self.cols):
            v = values[g[0]]
            if v > self.k and not (v in self.extra and any(c in self.extra_clues.get(v, ()) for c in g)):
                for c in g:
                    labels[c] = BIG
        return labels

    def close(self) -> None:
        self._disarm()
        self._add = self.solver.add_clause  # the C function would write to the freed solver; the wrapper does nothing
        self.solver.delete()


def reach(rows: int, cols: int, clues: Sequence[int], value: int) -> set[int]:
    """Cells within distance value-1 of a ``value`` clue.

    The walk may cross other clues: the model must stay valid when only some clues are assumed.
    """
    starts = [c for c, v in enumerate(clues) if v == value]
    return set(distances(starts, neighbours(rows, cols), within=value - 1))
