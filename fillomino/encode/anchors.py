"""Exact sizes for clued regions, named by their roots, and the area they need together.

A region of size v that holds v clue positions is named by its root, its first v clue position
(row-major). ``m(c, a)`` says "c is v and the root of its region is a". The clauses: v neighbours
share their root; a position is a root only if no earlier v clue position is in its region; and,
per root, the region has exactly v cells (a count over the cells within v-1 of the root) with each
cell within v-1 steps of the root through the region (distance layers). The count and layers cost
cells x v each, so roots whose cost is high get them only when an answer shows the root's region
with a wrong size (``RootedSize.settle``).

Clue positions, not the clues assumed in one question, define the roots, so every clause holds in
every solution of every clue subset (the model serves many clue sets incrementally).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool


class RootedSize:
    """The root variables and clauses of one clued size v.

    ``lits[c][v]`` is "cell c is v" (present for the cells allowed v). With ``every`` (a size above
    K, which only clued regions may have) every v cell has a root. Counts and layers cost up to
    ``eager_cost`` are stated at once, the others by ``settle``.
    """

    def __init__(
        self,
        v: int,
        anchors: Sequence[int],
        near: dict[int, dict[int, int]],
        lits: list[dict[int, int]],
        nbrs: list[list[int]],
        pool: IDPool,
        add: Callable[[list[int]], object],
        every: bool,
        eager_cost: int,
    ) -> None:
        self.v = v
        self.anchors = sorted(anchors)
        self.near = near
        self.nbrs = nbrs
        self.pool = pool
        self.add = add
        self.x = {c: lits[c][v] for a in self.anchors for c in near[a] if v in lits[c]}
        pairs = [(c, a) for a in self.anchors for c in near[a] if c in self.x]
        self.m = dict(zip(pairs, fresh_ids(pool, len(pairs))))
        self.settled: set[int] = set()
        self._core(every)
        if sum(len(near[a]) for a in self.anchors) * (v + 1) <= eager_cost:
            for a in self.anchors:
                self.settle(a)

    def roots(self) -> list[tuple[int, int]]:
        """(size, literal "a is an active root") for each clue position a."""
        return [(self.v, self.m[a, a]) for a in self.anchors]

    def _core(self, every: bool) -> None:
        add, x, m = self.add, self.x, self.m
        owners: dict[int, list[int]] = {c: [] for c in x}
        for c, a in m:
            owners[c].append(a)
        positions = set(self.anchors)
        for c, own in owners.items():
            if every:
                add([-x[c]] + [m[c, a] for a in own])
            elif c in positions:
                add([-x[c]] + [m[c, a] for a in own if a <= c])
            at_most_one([m[c, a] for a in own], self.pool, add)
            for a in own:
                mc = m[c, a]
                add([-mc, x[c]])
                if c != a:
                    add([-mc, m[a, a]])
                for d in self.nbrs[c]:
                    if d in x:
                        add([-mc, -x[d], m[d, a]] if (d, a) in m else [-mc, -x[d]])
        for a in self.anchors:
            for b in self.anchors:
                if b < a and (b, a) in m:
                    add([-m[b, a]])

    def root_of(self, cell: int, value: Callable[[int], bool]) -> int | None:
        """The root of ``cell`` in a model (``value(lit)`` tells a literal's truth), if any."""
        for a in self.anchors:
            lit = self.m.get((cell, a))
            if lit is not None and value(lit):
                return a
        return None

    def settle(self, a: int) -> bool:
        """State the exact size and the connection of root a's region; False when already stated."""
        if a in self.settled:
            return False
        self.settled.add(a)
        add, m, v = self.add, self.m, self.v
        region = [(c, dc, m[c, a]) for c, dc in self.near[a].items() if (c, a) in m]
        inside = [mc for _, _, mc in region]
        if len(inside) < v:
            add([-m[a, a]])
            return True
        at_least = unary_count(inside, v + 1, self.pool, add)
        add([-m[a, a], at_least[v - 1]])
        if len(at_least) > v:
            add([-at_least[v]])
        # layer k holds "c is in a's region within k steps of a through the region"
        nbrs, pool = self.nbrs, self.pool
        prev = {a: m[a, a]}
        for k in range(1, v):
            layer = [(c, mc) for c, dc, mc in region if dc <= k]
            cur = {}
            for (c, mc), r in zip(layer, fresh_ids(pool, len(layer))):
                src = [prev[d] for d in nbrs[c] if d in prev]
                if c in prev:
                    src.append(prev[c])
                add([-r, mc])
                add([-r, *src])
                cur[c] = r
            prev = cur
        for c, _, mc in region:
            add([-mc, prev[c]] if c in prev else [-mc])
        return True


def fresh_ids(pool: IDPool, n: int) -> list[int]:
    """n new variables, the ones n calls of ``pool.id()`` would give, in one step when the pool skips no occupied
    range (pysat's own encoders move ``top`` the same way): a call per variable weighed on the rooted clauses."""
    if pool._occupied:
        return [pool.id() for _ in range(n)]
    start = pool.top + 1
    pool.top += n
    return list(range(start, start + n))


def at_most_one(lits: list[int], pool: IDPool, add: Callable[[list[int]], object]) -> None:
    if len(lits) <= 6:
        for i in range(len(lits)):
            for j in range(i + 1, len(lits)):
                add([-lits[i], -lits[j]])
    else:
        for cl in CardEnc.atmost(lits, 1, vpool=pool, encoding=EncType.seqcounter).clauses:
            add(cl)


def area_clauses(roots: list[tuple[int, int]], cells: int, limit: int, pool: IDPool, add) -> bool:
    """Regions are disjoint, so the sizes of the active roots add up to at most ``cells``.

    Sizes are divided by the smallest g that keeps the sum encoding within ``limit`` clauses:
    sum(floor(v/g)) <= floor(cells/g) still holds. False when that bound cannot bite or no g fits.
    """
    for g in range(1, cells + 1):
        bound = cells // g
        items = [(v // g, lit) for v, lit in roots if v // g]
        if sum(w for w, _ in items) <= bound:
            return False
        if (bound + 2) ** 2 <= limit:
            sums = weighted_sums(sorted(items), bound, pool, add)
            add([-sums[bound + 1]])
            return True
    return False


def weighted_sums(items: list[tuple[int, int]], bound: int, pool: IDPool, add) -> dict[int, int]:
    """A generalised totalizer: out[s] is implied when the true literals' weights add up to at least s
    (one output per reachable sum, sums above bound kept as bound + 1). Items are (weight, literal)."""
    if len(items) == 1:
        w, lit = items[0]
        return {min(w, bound + 1): lit}
    half = len(items) // 2
    a = weighted_sums(items[:half], bound, pool, add)
    b = weighted_sums(items[half:], bound, pool, add)
    out: dict[int, int] = {}
    for i, la in [(0, 0), *a.items()]:
        for j, lb in [(0, 0), *b.items()]:
            if i + j == 0:
                continue
            s = min(i + j, bound + 1)
            if s not in out:
                out[s] = pool.id()
            add([*([-la] if la else []), *([-lb] if lb else []), out[s]])
    return out


def unary_count(lits: list[int], cap: int, pool: IDPool, add) -> list[int]:
    """A totalizer in both directions: out[i] <=> at least i+1 of lits are true (counts above cap saturate)."""
    if len(lits) == 1:
        return list(lits)
    half = len(lits) // 2
    a = unary_count(lits[:half], cap, pool, add)
    b = unary_count(lits[half:], cap, pool, add)
    na, nb = len(a), len(b)
    size = min(na + nb, cap)
    out = fresh_ids(pool, size)
    # the premises "b >= j" and "b <= j" for each j, made once rather than in every (i, j)
    at_least_b = [[], *([-x] for x in b)]
    at_most_b = [*([x] for x in b), []]
    for i in range(na + 1):
        at_least_a = [-a[i - 1]] if i else []
        at_most_a = [a[i]] if i < na else []
        for j in range(nb + 1):
            s = i + j
            # up: a >= i and b >= j  ->  out >= i + j
            if s:
                add([*at_least_a, *at_least_b[j], out[(s if s < size else size) - 1]])
            # down: a <= i and b <= j  ->  out <= i + j
            if s < size:
                add([*at_most_a, *at_most_b[j], -out[s]])
    return out
