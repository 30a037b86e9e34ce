"""The CNF model: a size label per cell, with region sizes enforced by lazily added clauses.

Labels. Every cell has a literal for each explicit size 1..K, for each larger clue value v it can reach
(cells within distance v-1 of a v clue), and, unless sizes are capped, one literal BIG meaning "my
region has more than K cells and is not one of those clued regions". This is the "16+" of the seed,
refined on demand: a solution is exact whenever no BIG cell is left, and callers raise K when needed.

Static clauses give local strength: exactly one label per cell, 1s never touch, a cell of size >= 2
has a neighbour of its size, two touching 2s are closed. Every other size rule is added lazily: after
each SAT answer the groups are checked and, for each wrong group, a clause that holds in every true
solution is added (a group too big: not all of v+1 of its connected cells are v; a group too small:
not all of it is v, or a neighbour is v). Since each lazy clause is valid for every solution whatever
the clues, it stays in the solver for good: the same model answers many clue sets incrementally.

Abstraction (why answers are exact). Map a true solution to labels by writing BIG on every region of
size > K that is not a clued extra-size region. That image satisfies every clause here, so UNSAT here
means no solution. Conversely a model answer turns into a true solution by giving each BIG group its
own size (`Answer.concrete`), which is valid unless that size is an extra value touching an equal
region (`Answer.exact` is False then, and callers raise K).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from ..puzzle import groups, neighbours

BIG = 0
"""The abstract label of a cell whose region is larger than K (see module docstring)."""

DEFAULT_SOLVER = "g4"
"""Glucose 4: supports assumptions, cores, conflict budgets and interrupts (CaDiCaL has no budgets)."""


SMALL_SET = 3
"""Connected sets up to this many cells get their group rules as static clauses."""
LAYER_LIMIT = 150_000
COUNT_LIMIT = 400_000
MODULAR_COUNT = False
"""Whether to forbid counts between multiples of v (valid, but measured to slow solving a lot)."""
"""Size limits (cells x layers, cells x count) for the redundant clued-size clauses."""


class Interrupted(Exception):
    """The time or conflict budget ran out inside a solve call."""


@dataclass
class Answer:
    """One valid abstract solution: per cell its label (BIG = 0) and the concrete reading of it."""

    labels: list[int]
    concrete: list[int]
    big_groups: list[list[int]]
    exact: bool

    @property
    def largest_big(self) -> int:
        return max((len(g) for g in self.big_groups), default=0)


@dataclass
class Deadline:
    """A wall-clock end and/or a conflict allowance shared by all solve calls of one question."""

    end: float | None = None
    conflicts: int | None = None

    @classmethod
    def after(cls, seconds: float | None, conflicts: int | None = None) -> Deadline:
        return cls(None if seconds is None else time.monotonic() + seconds, conflicts)


class CnfModel:
    """Incremental CNF model of one rows x cols shape; clues are passed as assumptions.

    ``explicit`` is K, the sizes every cell may take by name. ``extra`` maps a size v > K to the
    cells allowed to take it (those that can reach a v clue). ``big`` adds the BIG label; without
    it sizes are capped at K and larger regions are assumed away (the ``--max-size`` promise).
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
        solver: str = DEFAULT_SOLVER,
    ) -> None:
        self.rows, self.cols = rows, cols
        self.n = rows * cols
        self.k = min(explicit, self.n)
        self.has_big = big and self.k < self.n
        self.extra = {v: set(cells) for v, cells in (extra or {}).items() if v > self.k}
        self.extra_clues = clue_cells or {}
        self.nbrs = neighbours(rows, cols)
        self.pool = IDPool()
        self.solver = Solver(name=solver)
        self.lits: list[dict[int, int]] = []
        self.calls = 0
        self.lazy_clauses = 0
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
        for c in range(self.n):
            dom = list(range(1, self.k + 1)) + sorted(v for v, cells in self.extra.items() if c in cells)
            if self.has_big:
                dom.append(BIG)
            self.lits.append({v: self.pool.id(("x", c, v)) for v in dom})
        add = self.solver.add_clause
        for c in range(self.n):
            lits = list(self.lits[c].values())
            add(lits)
            if len(lits) <= 6:
                for i in range(len(lits)):
                    for j in range(i + 1, len(lits)):
                        add([-lits[i], -lits[j]])
            else:
                amo = CardEnc.atmost(lits, 1, vpool=self.pool, encoding=EncType.seqcounter)
                for cl in amo.clauses:
                    add(cl)
        for c in range(self.n):
            for v, x in self.lits[c].items():
                same = [self.lits[m][v] for m in self.nbrs[c] if v in self.lits[m]]
                if v == 1:
                    for y in same:
                        if c < self._cell_of(y):
                            add([-x, -y])
                else:
                    add([-x, *same])
        self._small_shapes()
        for v in sorted(self.extra):
            self._clued_size(v)

    def _small_shapes(self) -> None:
        """Group rules for small connected sets, stated up front instead of learnt lazily.

        For every connected set S of at most SMALL_SET cells and every size v > |S|: if all of S is v,
        a neighbour of S is v (too small otherwise). For v < SMALL_SET: v+1 connected cells are never
        all v (too big). Both hold in every solution.
        """
        add = self.solver.add_clause
        for shape in polyominoes(self.rows, self.cols, SMALL_SET, self.nbrs):
            size = len(shape)
            common = set.intersection(*(set(self.lits[c]) for c in shape))
            border = sorted({m for c in shape for m in self.nbrs[c]} - set(shape))
            for v in common:
                if v == BIG:
                    too_small = size > 1 and size <= self.k
                else:
                    too_small = 1 < size < v
                    if v == size - 1:
                        add([-self.lits[c][v] for c in shape])
                if too_small:
                    add([-self.lits[c][v] for c in shape] + [self.lits[m][v] for m in border if v in self.lits[m]])

    def _clued_size(self, v: int) -> None:
        """A size v > K is only used by regions holding a v clue: every v cell reaches such a clue
        within v-1 steps through v cells, and the number of v cells is a multiple of v."""
        add = self.solver.add_clause
        cells = sorted(self.extra[v])
        clues = self.extra_clues.get(v, set())
        if len(cells) * v <= LAYER_LIMIT:
            # layered reachability: layer k holds "c is v and within k steps of a v clue"
            prev = {c: self.lits[c][v] for c in cells if c in clues}
            for k in range(1, v):
                cur = {}
                for c in cells:
                    src = [prev[m] for m in self.nbrs[c] if m in prev]
                    if c in prev:
                        src.append(prev[c])
                    if src:
                        r = self.pool.id(("r", v, k, c))
                        add([-r, self.lits[c][v]])
                        add([-r, *src])
                        cur[c] = r
                prev = cur
            for c in cells:
                add([-self.lits[c][v], prev[c]] if c in prev else [-self.lits[c][v]])
        cap = min(len(clues), len(cells) // v) * v
        if len(cells) * (cap + 1) <= COUNT_LIMIT:
            at_least = unary_count([self.lits[c][v] for c in cells], cap + 1, self.pool, add)
            if MODULAR_COUNT:
                for count in range(v + 1, cap):
                    if count % v:
                        add([-at_least[count - 1], at_least[count]])  # the count is not this number
            if cap < len(at_least):
                add([-at_least[cap]])

    def _cell_of(self, lit: int) -> int:
        return self.pool.obj(abs(lit))[1]

    # ---- solving ---------------------------------------------------------------------------
    def add_clause(self, clause: Sequence[int]) -> None:
        self.solver.add_clause(list(clause))

    def block(self, labels: Sequence[int], cells: Iterable[int] | None = None) -> None:
        """Forbid this labelling (on ``cells``, default all) from now on."""
        cells = range(self.n) if cells is None else cells
        self.solver.add_clause([-self.lits[c][labels[c]] for c in cells])

    def core(self) -> list[int]:
        """After an UNSAT answer: the assumption literals it used."""
        return list(self.solver.get_core() or [])

    def solve(self, assumptions: Sequence[int] = (), deadline: Deadline | None = None) -> Answer | None:
        """A valid solution under the assumptions, or None. Raises Interrupted when the deadline passes.

        Loops: SAT answer -> check every group -> add a clause per wrong group -> solve again.
        """
        assumptions = list(assumptions)
        while True:
            if not self._sat(assumptions, deadline):
                return None
            labels = self._labels()
            clauses, big_groups = self._check(labels)
            if not clauses:
                return self._answer(labels, big_groups)
            for cl in clauses:
                self.solver.add_clause(cl)
            self.lazy_clauses += len(clauses)

    def _sat(self, assumptions: list[int], deadline: Deadline | None) -> bool:
        self.calls += 1
        if deadline is None or (deadline.end is None and deadline.conflicts is None):
            return bool(self.solver.solve(assumptions=assumptions))
        timer = None
        if deadline.end is not None:
            left = deadline.end - time.monotonic()
            if left <= 0:
                raise Interrupted
            timer = threading.Timer(left, self.solver.interrupt)
            timer.daemon = True
            timer.start()
        if deadline.conflicts is not None:
            if deadline.conflicts <= 0:
                raise Interrupted
            before = self.solver.accum_stats().get("conflicts", 0)
            self.solver.conf_budget(deadline.conflicts)
        try:
            result = self.solver.solve_limited(assumptions=assumptions, expect_interrupt=timer is not None)
        finally:
            if timer is not None:
                timer.cancel()
                self.solver.clear_interrupt()
        if deadline.conflicts is not None:
            deadline.conflicts -= self.solver.accum_stats().get("conflicts", 0) - before
        if result is None:
            raise Interrupted
        return result

    def _labels(self) -> list[int]:
        model = self.solver.get_model()
        labels = []
        for c in range(self.n):
            for v, x in self.lits[c].items():
                if model[x - 1] > 0:
                    labels.append(v)
                    break
        return labels

    def _check(self, labels: list[int]) -> tuple[list[list[int]], list[list[int]]]:
        """Clauses refuting each wrong group of this labelling, and the (valid) BIG groups."""
        clauses: list[list[int]] = []
        big_groups: list[list[int]] = []
        for g in groups(labels, self.rows, self.cols):
            v = labels[g[0]]
            if v == BIG:
                if len(g) <= self.k:
                    clauses.append(self._too_small(g, BIG))
                else:
                    big_groups.append(g)
            elif len(g) > v:
                clauses.extend(self._too_big(g, v))
            elif len(g) < v:
                clauses.append(self._too_small(g, v))
            elif v > self.k and not any(c in self.extra_clues.get(v, ()) for c in g):
                clauses.append(self._too_small(g, v))  # a named extra-size region must hold its clue
        return clauses, big_groups

    def _too_big(self, g: list[int], v: int) -> list[list[int]]:
        """Not all of v+1 connected cells of the group can be v (from the group's first cell and last)."""
        out = [[-self.lits[c][v] for c in g[: v + 1]]]
        if len(g) > 2 * (v + 1):
            out.append([-self.lits[c][v] for c in _bfs_prefix(g[-1], set(g), self.nbrs, v + 1)])
        return out

    def _too_small(self, g: list[int], v: int) -> list[int]:
        """Not all of the group is v, or it grows through a neighbour labelled v."""
        inside = set(g)
        border = {m for c in g for m in self.nbrs[c] if m not in inside}
        return [-self.lits[c][v] for c in g] + [self.lits[m][v] for m in sorted(border) if v in self.lits[m]]

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
        return Answer(labels, concrete, big_groups, exact)

    def close(self) -> None:
        self.solver.delete()


def _bfs_prefix(start: int, allowed: set[int], nbrs: list[list[int]], count: int) -> list[int]:
    """The first ``count`` cells of a BFS from start inside ``allowed`` (always connected)."""
    order = [start]
    seen = {start}
    k = 0
    while k < len(order) and len(order) < count:
        for m in nbrs[order[k]]:
            if m in allowed and m not in seen:
                seen.add(m)
                order.append(m)
                if len(order) == count:
                    break
        k += 1
    return order


def reach(rows: int, cols: int, clues: Sequence[int], value: int) -> set[int]:
    """Cells within distance value-1 of a ``value`` clue.

    The walk may cross other clues: the model must stay valid when only some clues are assumed.
    """
    nbrs = neighbours(rows, cols)
    frontier = [c for c, v in enumerate(clues) if v == value]
    seen = set(frontier)
    for _ in range(value - 1):
        nxt = []
        for c in frontier:
            for m in nbrs[c]:
                if m not in seen:
                    seen.add(m)
                    nxt.append(m)
        frontier = nxt
    return seen


def polyominoes(rows: int, cols: int, most: int, nbrs: list[list[int]]) -> list[tuple[int, ...]]:
    """Every connected set of 1..most cells of the grid, each once (sorted cell tuples)."""
    found: set[tuple[int, ...]] = set()
    level = {(c,) for c in range(rows * cols)}
    found |= level
    for _ in range(most - 1):
        nxt = set()
        for shape in level:
            members = set(shape)
            for c in shape:
                for m in nbrs[c]:
                    if m not in members:
                        nxt.add(tuple(sorted(members | {m})))
        found |= nxt
        level = nxt
    return sorted(found, key=lambda s: (len(s), s))


def unary_count(lits: list[int], cap: int, pool: IDPool, add) -> list[int]:
    """A totalizer in both directions: out[i] <=> at least i+1 of lits are true (counts above cap saturate)."""
    if len(lits) == 1:
        return list(lits)
    half = len(lits) // 2
    a = unary_count(lits[:half], cap, pool, add)
    b = unary_count(lits[half:], cap, pool, add)
    out = [pool.id() for _ in range(min(len(a) + len(b), cap))]
    for i in range(len(a) + 1):
        for j in range(len(b) + 1):
            # up: a >= i and b >= j  ->  out >= i + j
            if 0 < i + j:
                k = min(i + j, len(out))
                add([*([-a[i - 1]] if i else []), *([-b[j - 1]] if j else []), out[k - 1]])
            # down: a <= i and b <= j  ->  out <= i + j
            if i + j < len(out):
                add([*([a[i]] if i < len(a) else []), *([b[j]] if j < len(b) else []), -out[i + j]])
    return out
