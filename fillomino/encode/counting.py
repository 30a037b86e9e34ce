"""A complete static CNF for model counting: its models are exactly the pictures (or cuts), one each.

The solvers' CNF adds connectivity lazily, which is fine for finding a solution but useless to a
model counter: every constraint must be present up front. Here every auxiliary variable is a
definition (an equivalence) of the counted ones, so each picture extends to exactly one model
and the projected count is exact however the counter treats auxiliaries.

Variables (cells row-major, edges between orthogonal neighbours):
- ``same[e]``: both ends of edge e are in one region. For cuts these are the counted variables.
- pictures, ``style="order"`` (the default, about 2x faster under Ganak): the cut plus, per cell,
  ``size >= v`` in order encoding, equal along ``same`` edges and different across cut edges,
  tied to the root's count; the ``same`` edges are counted. ``style="onehot"``: one-hot
  ``label[i][v]`` counted, with ``same[e]`` <-> equal labels.
- ``reach[j][i][t]``: cell i is reached from cell j in at most t steps along ``same`` edges,
  through cells numbered >= j. ``member[j][i] = reach[j][i][D]`` with D = min(K, N-1).
- ``root[j]`` <-> no smaller cell reaches j: j is the smallest cell of its region.
- ``atleast[j][k]``: at least k cells are members of j's reach (an exactly defined unary counter).

A region's smallest cell is a root, reaches every cell of a region of at most K cells and, if the
region is larger, reaches at least K+1 cells within K steps; so "a root with label v counts exactly
v members" is equivalent to "the region has v cells". For cuts, a root's two members that touch
must share the region (``same``) and clued members fix the count.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..grid import distances
from ..puzzle import FillominoError, Puzzle, neighbours


@dataclass
class CountingCnf:
    """Clauses over variables 1..num_vars; ``projection`` holds the variables that determine a model."""

    clauses: list[list[int]] = field(default_factory=list)
    num_vars: int = 0
    projection: list[int] = field(default_factory=list)
    label: dict[tuple[int, int], int] = field(default_factory=dict)
    same: dict[tuple[int, int], int] = field(default_factory=dict)

    def new_var(self) -> int:
        self.num_vars += 1
        return self.num_vars

    def add(self, clause: list[int]) -> None:
        self.clauses.append(clause)

    def define_and(self, a: int, b: int) -> int:
        """A fresh variable y with y <-> a & b."""
        y = self.new_var()
        self.add([-y, a])
        self.add([-y, b])
        self.add([y, -a, -b])
        return y

    def define_or(self, terms: list[int]) -> int:
        """A fresh variable y with y <-> OR(terms)."""
        y = self.new_var()
        self.add([-y, *terms])
        for t in terms:
            self.add([y, -t])
        return y


def build(puzzle: Puzzle, *, cuts: bool = False, max_size: int | None = None, style: str = "order") -> CountingCnf:
    """The counting CNF of ``puzzle``: pictures (default) or cuts, regions of at most ``max_size`` cells."""
    if style not in ("order", "onehot"):
        raise ValueError(f"unknown style {style!r}")
    n = puzzle.size
    cap = n if max_size is None else min(n, max_size)
    if any(v > cap for v in puzzle.clues):
        raise FillominoError(f"clue {max(puzzle.clues)} is larger than the assumed --max-size {cap}")
    nbrs = neighbours(puzzle.rows, puzzle.cols)
    edges = [(i, k) for i in range(n) for k in nbrs[i] if i < k]
    f = CountingCnf()
    true = f.new_var()
    f.add([true])

    order = not cuts and style == "order"
    if cuts or order:
        for e in edges:
            f.same[e] = f.new_var()
        f.projection = [f.same[e] for e in edges]
    else:
        _labels(f, puzzle, cap, edges)

    def same(i: int, k: int) -> int:
        return f.same[(i, k) if i < k else (k, i)]

    depth = min(cap, n - 1)
    member: dict[tuple[int, int], int] = {}
    for j in range(n):
        dist = distances(j, nbrs, through=range(j, len(nbrs)))  # through cells numbered >= j
        reach = {j: true}  # cells reached within t steps, for the current t
        for t in range(1, min(depth, len(dist) - 1) + 1):
            nxt = {}
            for i in (i for i, d in dist.items() if d <= t):
                terms = [reach[i]] if i in reach else []
                for k in nbrs[i]:
                    if k in reach:
                        terms.append(same(i, k) if reach[k] == true else f.define_and(reach[k], same(i, k)))
                nxt[i] = true if true in terms else (terms[0] if len(terms) == 1 else f.define_or(terms))
            reach = nxt
        for i, v in reach.items():
            member[(j, i)] = v

    root = [true]
    for j in range(1, n):
        reached_by = [member[(a, j)] for a in range(j) if (a, j) in member]
        root.append(f.new_var())
        f.add([root[j], *reached_by])
        for m in reached_by:
            f.add([-root[j], -m])

    if order:
        sz = _order_sizes(f, puzzle, cap, edges, true)
    top = cap + 1 if not cuts else (max([v for v in puzzle.clues if v] + [cap if cap < n else 0]) + 1)
    for j in range(n):
        members = [member[(j, i)] for i in range(j, n) if (j, i) in member]
        if top <= 1:
            break
        row = _unary_counter(f, members, top, true)

        def atleast(k: int, row: list[int] = row) -> int:
            return row[k] if k < len(row) else -true

        if order:
            for v in range(2, cap + 2):
                big = sz[j][v] if v <= cap else -true
                f.add([-root[j], -big, atleast(v)])
                f.add([-root[j], big, -atleast(v)])
        elif not cuts:
            for v in range(1, cap + 1):
                if (j, v) in f.label:
                    f.add([-root[j], -f.label[(j, v)], atleast(v)])
                    f.add([-root[j], -f.label[(j, v)], -atleast(v + 1)])
        else:
            if cap < n:
                f.add([-root[j], -atleast(cap + 1)])
            for i in range(j, n):
                q = puzzle.clues[i]
                if q and (j, i) in member:
                    f.add([-root[j], -member[(j, i)], atleast(q)])
                    f.add([-root[j], -member[(j, i)], -atleast(q + 1)])
    if cuts or order:
        # two touching members of one region are joined: a cut edge never runs inside a region
        for j in range(n):
            for i, k in edges:
                if (j, i) in member and (j, k) in member:
                    f.add([-root[j], -member[(j, i)], -member[(j, k)], same(i, k)])
    return f


def _labels(f: CountingCnf, puzzle: Puzzle, cap: int, edges: list[tuple[int, int]]) -> None:
    """One-hot labels (clues fixed) and same-edge <-> equal labels."""
    n = puzzle.size
    domain = [[puzzle.clues[i]] if puzzle.clues[i] else list(range(1, cap + 1)) for i in range(n)]
    for i in range(n):
        lits = [f.new_var() for _ in domain[i]]
        for v, x in zip(domain[i], lits, strict=True):
            f.label[(i, v)] = x
        f.add(lits)
        for a in range(len(lits)):
            for b in range(a + 1, len(lits)):
                f.add([-lits[a], -lits[b]])
    f.projection = list(f.label.values())
    for i, k in edges:
        s = f.new_var()
        f.same[(i, k)] = s
        for v in domain[i]:
            if (k, v) in f.label:
                f.add([-f.label[(i, v)], -f.label[(k, v)], s])
                f.add([-s, -f.label[(i, v)], f.label[(k, v)]])
            else:
                f.add([-s, -f.label[(i, v)]])


def _unary_counter(f: CountingCnf, items: list[int], top: int, true: int) -> list[int]:
    """Literals ``row[k]`` for k = 0..top, each exactly "at least k of the items are true"."""
    false = -true
    row = [true] + [false] * top  # row[k]: at least k of the items seen so far
    for x in items:
        new = [true]
        for k in range(1, top + 1):
            if row[k] == true:
                new.append(true)
            elif row[k - 1] == false:
                new.append(row[k])
            elif row[k] == false:
                new.append(x if row[k - 1] == true else f.define_and(x, row[k - 1]))
            else:
                carry = x if row[k - 1] == true else f.define_and(x, row[k - 1])
                new.append(f.define_or([row[k], carry]))
        row = new
    return row


def _order_sizes(f: CountingCnf, puzzle: Puzzle, cap: int, edges: list[tuple[int, int]], true: int) -> list[list[int]]:
    """``sz[i][v]``: cell i's region has at least v cells; equal along same edges, different across cut edges."""
    n = puzzle.size
    sz = []
    for i in range(n):
        row = [true, true] + [f.new_var() for _ in range(2, cap + 1)]
        for v in range(2, cap):
            f.add([-row[v + 1], row[v]])
        q = puzzle.clues[i]
        if q:
            f.add([row[q]])
            if q < cap:
                f.add([-row[q + 1]])
        sz.append(row)
    exactly = []
    for i in range(n):
        ex = [0, -sz[i][2] if cap >= 2 else true]
        for v in range(2, cap + 1):
            ex.append(f.define_and(sz[i][v], -sz[i][v + 1]) if v < cap else sz[i][v])
        exactly.append(ex)
    for i, k in edges:
        s = f.same[(i, k)]
        for v in range(2, cap + 1):
            f.add([-s, -sz[i][v], sz[k][v]])
            f.add([-s, sz[i][v], -sz[k][v]])
        for v in range(1, cap + 1):
            f.add([s, -exactly[i][v], -exactly[k][v]])
    return sz
