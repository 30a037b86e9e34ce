"""The one grid module: neighbours, groups, components, bounded reach and cut cells on a rectangular board.

Cells are numbered row-major (cell ``i`` is at row ``i // cols``, column ``i % cols``). Every search over
the board, in the engines, the generator, the analysis and the logical rater, is one of these functions;
a new search belongs here, not in the module that first needs it.

The functions take the neighbour lists (``nbrs``, from :func:`neighbours`) rather than a shape, so a hot
loop pays for the lists once. Cell sets are given as a membership test: a ``Sequence[bool]`` indexed by
cell, or any container with ``in`` (a set, a dict).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Protocol

Nbrs = Sequence[Sequence[int]]
"""For each cell, the indices of its orthogonal neighbours."""


class CellTest(Protocol):
    """A cell set tested with ``in``: a set, a dict, or any object with ``__contains__`` taking a cell."""

    def __contains__(self, cell: int, /) -> bool: ...


Cells = Sequence[bool] | CellTest
"""A cell set given as a membership test: a bool per cell (tested by subscript), or a :class:`CellTest`."""


@lru_cache(maxsize=64)
def _neighbour_table(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    out = []
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        nb = []
        if r > 0:
            nb.append(i - cols)
        if c > 0:
            nb.append(i - 1)
        if c < cols - 1:
            nb.append(i + 1)
        if r < rows - 1:
            nb.append(i + cols)
        out.append(tuple(nb))
    return tuple(out)


def neighbours(rows: int, cols: int) -> list[list[int]]:
    """For each cell, the indices of its orthogonal neighbours (up, left, right, down); a fresh list."""
    return [list(nb) for nb in _neighbour_table(rows, cols)]


def neighbour_table(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """The same as :func:`neighbours`, shared and immutable (cached per shape): for hot loops."""
    return _neighbour_table(rows, cols)


def _member(cells: Cells) -> Callable[[int], bool]:
    """A membership test for a cell set given as a bool sequence or as a container of cells."""
    if isinstance(cells, (list, tuple)) and (not cells or isinstance(cells[0], bool)):
        return cells.__getitem__  # type: ignore[return-value]
    return cells.__contains__


def groups_by(values: Sequence[int], nbrs: Nbrs) -> Iterator[list[int]]:
    """Maximal connected sets of cells with equal values, each in breadth-first order from its first cell.

    Every cell is in exactly one group. Breadth-first order means every prefix of a group is connected,
    which the lazy CNF clauses rely on.
    """
    seen = [False] * len(values)
    for start in range(len(values)):
        if seen[start]:
            continue
        seen[start] = True
        v = values[start]
        group = [start]
        for c in group:
            for m in nbrs[c]:
                if not seen[m] and values[m] == v:
                    seen[m] = True
                    group.append(m)
        yield group


def groups(values: Sequence[int], rows: int, cols: int) -> Iterator[list[int]]:
    """:func:`groups_by` on an R x C board."""
    return groups_by(values, _neighbour_table(rows, cols))


def group_of(start: int, values: Sequence[int], nbrs: Nbrs) -> list[int]:
    """The group of equal values that holds ``start``, in breadth-first order."""
    v = values[start]
    seen = {start}
    group = [start]
    for c in group:
        for m in nbrs[c]:
            if m not in seen and values[m] == v:
                seen.add(m)
                group.append(m)
    return group


def component(start: int | Iterable[int], cells: Cells, nbrs: Nbrs,
              limit: int | None = None) -> list[int]:
    """Cells of ``cells`` connected to ``start`` (one cell or several) through ``cells``, breadth-first.

    The start cells are included whether or not they are in ``cells``. With ``limit``, the search stops
    once that many cells are found (the list then has exactly ``limit`` cells).
    """
    found = [start] if isinstance(start, int) else list(dict.fromkeys(start))
    seen = set(found)
    if limit is not None and len(found) >= limit:
        return found[:limit]
    add, append = seen.add, found.append
    # the same walk written out per kind of cell set: the rater runs it hundreds of thousands of times
    if isinstance(cells, (list, tuple)) and (not cells or isinstance(cells[0], bool)):
        if limit is None:
            for c in found:
                for m in nbrs[c]:
                    if m not in seen and cells[m]:
                        add(m)
                        append(m)
            return found
        n = len(found)
        for c in found:
            for m in nbrs[c]:
                if m not in seen and cells[m]:
                    add(m)
                    append(m)
                    n += 1
                    if n >= limit:
                        return found
        return found
    inside = _member(cells)
    for c in found:
        for m in nbrs[c]:
            if m not in seen and inside(m):
                add(m)
                append(m)
                if limit is not None and len(found) >= limit:
                    return found
    return found


def components(cells: Sequence[bool] | Iterable[int], nbrs: Nbrs) -> list[list[int]]:
    """The connected components of a cell set, each breadth-first from its smallest cell, smallest first."""
    if isinstance(cells, (list, tuple)) and (not cells or isinstance(cells[0], bool)):
        members = [i for i, inside in enumerate(cells) if inside]
        member: Sequence[bool] | set[int] = cells  # tested by subscript in component
    else:
        members = sorted(set(cells))  # type: ignore[arg-type]
        member = set(members)
    seen: set[int] = set()
    out = []
    for s in members:
        if s in seen:
            continue
        comp = component(s, member, nbrs)
        seen.update(comp)
        out.append(comp)
    return out


def component_sizes(member: Sequence[bool], nbrs: Nbrs) -> list[int]:
    """For each member cell, the size of its connected set of members (0 for non-members)."""
    size = [0] * len(member)
    seen = [False] * len(member)
    for start, inside in enumerate(member):
        if not inside or seen[start]:
            continue
        seen[start] = True
        comp = [start]
        for c in comp:
            for m in nbrs[c]:
                if member[m] and not seen[m]:
                    seen[m] = True
                    comp.append(m)
        for c in comp:
            size[c] = len(comp)
    return size


def distances(start: int | Iterable[int], nbrs: Nbrs, *, within: int | None = None,
              through: Cells | None = None, limit: int | None = None) -> dict[int, int]:
    """Breadth-first distance from ``start`` (one cell or several, all at 0) to every cell it reaches.

    ``within`` bounds the distance (None: no bound); ``through`` limits the walk to those cells (None:
    every cell). Start cells are at distance 0 whether or not ``through`` holds them. With ``limit``, the
    search stops once that many cells are found (the dict then has exactly ``limit`` cells, or the start
    cells if they are more).
    """
    frontier = [start] if isinstance(start, int) else list(dict.fromkeys(start))
    dist = dict.fromkeys(frontier, 0)
    cap = -1 if limit is None else limit  # never met when there is no limit: len(dist) only grows from 1
    if len(dist) >= cap >= 0:
        return dist
    d = 0
    flags = through if isinstance(through, (list, tuple)) and (not through or isinstance(through[0], bool)) else None
    inside = None if through is None or flags is not None else _member(through)
    while frontier and (within is None or d < within):
        d += 1
        nxt: list[int] = []
        append = nxt.append
        # a bool list is tested by subscript (the rater's growth searches run this very often)
        if flags is not None:
            for c in frontier:
                for m in nbrs[c]:
                    if m not in dist and flags[m]:
                        dist[m] = d
                        append(m)
                        if len(dist) == cap:
                            return dist
        else:
            for c in frontier:
                for m in nbrs[c]:
                    if m not in dist and (inside is None or inside(m)):
                        dist[m] = d
                        append(m)
                        if len(dist) == cap:
                            return dist
        frontier = nxt
    return dist


def grow(found: list[int], seen: set[int], nbrs: Nbrs, admit: Callable[[int], bool], *,
         limit: int | None = None, reads: list[int] | None = None) -> bool:
    """Grow ``found`` in place, breadth-first, through the neighbours ``admit`` accepts; True once it holds
    ``limit`` cells (never, without one).

    ``seen`` holds the cells already in ``found`` (kept up to date), so a second call with another ``admit``
    carries on where the first stopped: a group, then its room. Every neighbour looked at that is not in
    ``seen`` is appended to ``reads``, for callers that cache an answer until one of those cells changes.
    """
    if limit is not None and len(found) >= limit:
        return True
    for c in found:
        for x in nbrs[c]:
            if x not in seen:
                if reads is not None:
                    reads.append(x)
                if admit(x):
                    seen.add(x)
                    found.append(x)
        if limit is not None and len(found) >= limit:
            return True
    return False


def boundary(cells: Iterable[int], nbrs: Nbrs) -> list[int]:
    """Cells next to ``cells`` and not in them, in the order first met."""
    inside = set(cells)
    out: dict[int, None] = {}
    for c in inside:
        for m in nbrs[c]:
            if m not in inside:
                out[m] = None
    return list(out)


def cut_cells(cells: Iterable[int], nbrs: Nbrs) -> set[int]:
    """The articulation points of the subgraph on ``cells``: cells whose removal disconnects their component.

    Iterative Tarjan (no recursion limit on big boards).
    """
    member = set(cells)
    disc: dict[int, int] = {}
    low: dict[int, int] = {}
    cuts: set[int] = set()
    counter = 0
    for root in member:
        if root in disc:
            continue
        disc[root] = low[root] = counter
        counter += 1
        root_children = 0
        stack: list[tuple[int, int, Iterator[int]]] = [(root, -1, iter(nbrs[root]))]
        while stack:
            node, parent, it = stack[-1]
            advanced = False
            for m in it:
                if m not in member:
                    continue
                if m not in disc:
                    disc[m] = low[m] = counter
                    counter += 1
                    if node == root:
                        root_children += 1
                    stack.append((m, node, iter(nbrs[m])))
                    advanced = True
                    break
                if m != parent:
                    low[node] = min(low[node], disc[m])
            if advanced:
                continue
            stack.pop()
            if stack:
                up = stack[-1][0]
                low[up] = min(low[up], low[node])
                if up != root and low[node] >= disc[up]:
                    cuts.add(up)
        if root_children > 1:
            cuts.add(root)
    return cuts


def connected(cells: Collection[int], nbrs: Nbrs) -> bool:
    """Whether a non-empty cell set is one connected piece (an empty set counts as connected)."""
    if not cells:
        return True
    first = next(iter(cells))
    return len(component(first, cells, nbrs)) == len(cells)


# --- cell sets as bit masks (bit i = cell i): the hot loops of the region-laying counter ------------------


def find_root(parent: list[int], k: int) -> int:
    """The root of ``k`` in a disjoint-set forest (``parent[r] == r`` at a root), halving the path on the way."""
    while parent[k] != k:
        parent[k] = parent[parent[k]]
        k = parent[k]
    return k


def set_bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, lowest first: the cells of a cell mask (or the sizes of a size mask)."""
    while mask:
        low = mask & -mask
        mask ^= low
        yield low.bit_length() - 1


def bit_mask(cells: Iterable[int]) -> int:
    """The cells as a cell mask (bit c: cell c): set_bits the other way round."""
    mask = 0
    for c in set(cells):
        mask |= 1 << c
    return mask


def bit_planes(masks: Sequence[int]) -> dict[int, int]:
    """For each bit some entry of ``masks`` has, the cell mask of the entries that have it (a candidate grid's cells
    per size), built a byte at a time: or-ing one cell into a mask as wide as the grid would cost a pass over it."""
    width = (len(masks) + 7) // 8
    planes: dict[int, bytearray] = {}
    for i, m in enumerate(masks):
        byte, one = i >> 3, 1 << (i & 7)
        for v in set_bits(m):
            plane = planes.get(v)
            if plane is None:
                plane = planes[v] = bytearray(width)
            plane[byte] |= one
    return {v: int.from_bytes(plane, "little") for v, plane in planes.items()}


@lru_cache(maxsize=64)
def bit_neighbours(rows: int, cols: int) -> tuple[int, ...]:
    """For each cell, the bit mask of its orthogonal neighbours."""
    return tuple(sum(1 << m for m in nb) for nb in _neighbour_table(rows, cols))


@lru_cache(maxsize=64)
def _column_masks(rows: int, cols: int) -> tuple[int, int, int]:
    """(every cell, every cell but the first column, every cell but the last column)."""
    full = (1 << (rows * cols)) - 1
    first = sum(1 << (r * cols) for r in range(rows))
    return full, full & ~first, full & ~(first << (cols - 1))


def bit_spread(mask: int, rows: int, cols: int) -> int:
    """The cells of ``mask`` and every orthogonal neighbour of one of them."""
    full, not_first, not_last = _column_masks(rows, cols)
    return (mask | ((mask << 1) & not_first) | ((mask >> 1) & not_last) | (mask << cols) | (mask >> cols)) & full


def bit_component(start: int, mask: int, rows: int, cols: int) -> int:
    """The cells of ``mask`` connected to the cells of ``start`` through ``mask`` (``start`` included)."""
    full, not_first, not_last = _column_masks(rows, cols)
    comp = start
    while True:
        grown = (comp | ((comp << 1) & not_first) | ((comp >> 1) & not_last) | (comp << cols) | (comp >> cols)) & mask
        grown |= start
        if grown == comp:
            return comp
        comp = grown


def bit_ball(start: int, mask: int, steps: int, rows: int, cols: int) -> int:
    """The cells of ``mask`` within ``steps`` orthogonal steps of ``start`` through ``mask`` (``start`` included)."""
    ball = start
    for _ in range(steps):
        ball = bit_spread(ball, rows, cols) & mask
    return ball | start


def bit_components(mask: int, rows: int, cols: int) -> list[int]:
    """The connected components of a cell set, as masks, in the order of their lowest cell."""
    out = []
    while mask:
        comp = bit_component(mask & -mask, mask, rows, cols)
        out.append(comp)
        mask &= ~comp
    return out
