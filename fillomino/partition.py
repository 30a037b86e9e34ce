"""Random Fillomino answers: grow regions toward drawn sizes, then mend clashes.

The generator carves its puzzles out of these grids, so they must be valid solutions (every
maximal group of equal numbers as large as its number), reproducible from the stream alone, and
fast on big grids (a 60x60 answer takes a few tens of milliseconds).
"""

from __future__ import annotations

import bisect
import hashlib
import heapq
import random
from collections.abc import Sequence

from .grid import connected, neighbours
from .puzzle import FillominoError, Grid, to_grid, validate_max_size

DEFAULT_WEIGHTS = (1, 3, 5, 6, 6, 5, 3, 2, 1)
"""How likely each region size 1..9 is as a growth target (seed 000's generator)."""

TAIL_WEIGHT = 1
"""Default weight of each size above 9 when the largest region allowed is above 9 (as 9's own weight)."""


def default_weights(max_size: int, base: tuple[float, ...] = DEFAULT_WEIGHTS) -> tuple[float, ...]:
    """The default target weights for regions of at most ``max_size`` cells: ``base`` (sizes 1-9), extended with
    TAIL_WEIGHT for every size from 10 to ``max_size`` so that a cap above 9 really draws such targets."""
    return base + (TAIL_WEIGHT,) * max(0, max_size - len(base))

ANSWER_TRIES = 50
"""Fresh starts before a shape and size cap are declared impossible to fill."""

_NEW = -2
"""Destination of a mending move that makes a cell a region of its own."""

_REPAIR_STEPS = 40
"""Mending moves allowed per clashing region before the answer starts over."""


class Stream:
    """Seeded randomness built only on ``random.Random.random()`` and an integer seed.

    Python promises that method's sequence for a given int seed across versions; the helpers
    (``below``, ``shuffle``, ``pick``) are written here so a library change cannot alter puzzles.
    """

    def __init__(self, key: str) -> None:
        digest = hashlib.sha256(key.encode("utf-8")).digest()
        self._random = random.Random(int.from_bytes(digest, "big")).random

    def below(self, n: int) -> int:
        """A uniform-enough integer in 0..n-1 (n >= 1)."""
        return min(int(self._random() * n), n - 1)

    def unit(self) -> float:
        return self._random()

    def shuffle(self, items: list) -> list:
        """Fisher-Yates in place; returns the list for convenience."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items

    def pick(self, items: Sequence):
        return items[self.below(len(items))]


def size_table(max_size: int, weights: Sequence[float] | None) -> tuple[list[int], list[float]]:
    """The sizes that may be drawn (1..max_size with positive weight) and their cumulative weights.

    ``weights`` None: ``default_weights(max_size)``. A given list shorter than ``max_size`` draws no target
    above its length (those sizes weigh 0; they still come of merges)."""
    validate_max_size(None, max_size)
    ws = list(default_weights(max_size) if weights is None else weights)
    if any(not w >= 0 for w in ws):
        raise FillominoError(f"--size-weights must be non-negative numbers, got {','.join(map(str, ws))}")
    sizes, cum, total = [], [], 0.0
    for size, w in enumerate(ws[:max_size], start=1):
        if w > 0:
            total += w
            sizes.append(size)
            cum.append(total)
    if not sizes:
        raise FillominoError(
            f"--size-weights give no positive weight to any size from 1 to {max_size} (the largest region allowed)"
        )
    return sizes, cum


def random_answer(
    rows: int, cols: int, rng: Stream, max_size: int = 9, weights: Sequence[float] | None = None
) -> Grid:
    """A valid Fillomino solution whose regions have at most ``max_size`` cells.

    Cells are visited in a shuffled order; each free one starts a region that grows into random
    free neighbours toward a size drawn from ``weights`` (weight of size k at index k-1). A region
    ending beside a finished region of its own size takes one more cell, joins a neighbour or gives
    its last cell back; clashes left over are mended by moving single cells or merging regions.
    If that fails the answer starts over (up to ANSWER_TRIES times, then FillominoError).
    """
    max_size = min(max_size, rows * cols)
    sizes, cum = size_table(max_size, weights)
    nbrs = neighbours(rows, cols)
    for _ in range(ANSWER_TRIES):
        values = _Layout(rows * cols, nbrs, rng, max_size, sizes, cum).build()
        if values is not None:
            return to_grid(values, cols)
    raise FillominoError(
        f"could not fill a {rows}x{cols} grid with regions of at most {max_size} cells "
        f"({ANSWER_TRIES} tries); allow larger regions with --max-size"
    )


class _Layout:
    """One attempt at an answer: regions as cell lists, ``owner`` maps a cell to its region (-1 free).

    Free cells are taken most hemmed-in first (fewest free neighbours, ties in a shuffled order),
    both as region seeds and while a region grows, so few pockets are left too small for their
    drawn size: the sizes that come out stay close to the weights instead of drifting to 1s and 2s.
    """

    def __init__(self, n: int, nbrs: list[list[int]], rng: Stream, max_size: int, sizes: list[int], cum: list[float]):
        self.n, self.nbrs, self.rng, self.max = n, nbrs, rng, max_size
        self.sizes, self.cum = sizes, cum
        self.owner = [-1] * n
        self.cells: list[list[int]] = []
        self.rank = [0] * n  # tie-break between equally hemmed-in cells
        for k, c in enumerate(rng.shuffle(list(range(n)))):
            self.rank[c] = k
        self.free_nbrs = [len(nb) for nb in nbrs]
        self.queue = [(self.free_nbrs[i], self.rank[i], i) for i in range(n)]
        heapq.heapify(self.queue)

    # -- building ---------------------------------------------------------------------------

    def build(self) -> list[int] | None:
        queue = self.queue
        while queue:
            free_nbrs, _, start = heapq.heappop(queue)
            if self.owner[start] == -1 and free_nbrs == self.free_nbrs[start]:  # else a stale entry
                self._grow_region(start)
        if not self._mend():
            return None
        size = [len(c) for c in self.cells]
        return [size[r] for r in self.owner]

    def _draw(self) -> int:
        x = self.rng.unit() * self.cum[-1]
        return self.sizes[min(bisect.bisect_right(self.cum, x), len(self.sizes) - 1)]

    def _claim(self, cell: int, rid: int) -> None:
        self.owner[cell] = rid
        self.cells[rid].append(cell)
        for j in self.nbrs[cell]:
            if self.owner[j] == -1:
                self.free_nbrs[j] -= 1
                heapq.heappush(self.queue, (self.free_nbrs[j], self.rank[j], j))

    def _release(self, rid: int) -> None:
        """Give the region's last cell back (the rest stays connected: it was grown before that cell)."""
        cell = self.cells[rid].pop()
        self.owner[cell] = -1
        for j in self.nbrs[cell]:
            if self.owner[j] == -1:
                self.free_nbrs[j] += 1
                heapq.heappush(self.queue, (self.free_nbrs[j], self.rank[j], j))
        self.free_nbrs[cell] = sum(self.owner[j] == -1 for j in self.nbrs[cell])
        heapq.heappush(self.queue, (self.free_nbrs[cell], self.rank[cell], cell))

    def _grow_region(self, start: int) -> None:
        owner, nbrs, free_nbrs, rank = self.owner, self.nbrs, self.free_nbrs, self.rank
        rid = len(self.cells)
        self.cells.append([])
        self._claim(start, rid)
        cells = self.cells[rid]
        target = self._draw()
        while len(cells) < target:
            edge = {j for i in cells for j in nbrs[i] if owner[j] == -1}
            if not edge:
                break
            self._claim(min(edge, key=lambda j: (free_nbrs[j], rank[j])), rid)
        self._settle(rid)

    def _settle(self, rid: int) -> None:
        """Fix a clash of a just-finished region: one more cell, join a neighbour, or give one back.

        Every region keeps at least one cell, so each call owns more cells than before: building ends.
        """
        cells, owner = self.cells[rid], self.owner
        if not self._clashes(rid):
            return
        size = len(cells)
        options: list[tuple[str, int]] = []
        if size < self.max:
            free = sorted({j for i in cells for j in self.nbrs[i] if owner[j] == -1})
            options += [("grow", j) for j in free if self._fits(cells + [j], size + 1, {rid})]
        for other in self._neighbour_regions(rid):
            joined = size + len(self.cells[other])
            if joined <= self.max and self._fits(cells + self.cells[other], joined, {rid, other}):
                options.append(("join", other))
        # or give back the last cells grown, down to the largest prefix that fits (prefixes are connected)
        shrink = next((k for k in range(size - 1, 0, -1) if self._fits(cells[:k], k, {rid})), None)
        if shrink is not None:
            options.append(("shrink", shrink))
        if options:
            kind, x = self.rng.pick(options)
            if kind == "grow":
                self._claim(x, rid)
            elif kind == "join":
                self._merge(rid, x)
            else:
                while len(cells) > x:
                    self._release(rid)

    # -- mending ----------------------------------------------------------------------------

    def _mend(self) -> bool:
        """Remove every clash by local moves, a random walk that prefers moves removing clashes.

        Each step picks a clashing region and the move around it that lowers the number of clashing
        neighbour pairs most; failing that a move that keeps it, or (half the time) one that raises
        it least, which lets the walk leave a dead end. Returns False when the steps run out.
        """
        clashing = set(self._clashing())
        for _ in range(_REPAIR_STEPS * (1 + len(clashing))):
            if not clashing:
                return True
            moves = self._moves(self.rng.pick(sorted(clashing)))
            if not moves:
                continue
            deltas = [self._delta(m) for m in moves]
            low = min(deltas)
            if low > 0 and self.rng.unit() < 0.5:
                continue
            move = self.rng.pick([m for m, d in zip(moves, deltas, strict=True) if d == low])
            touched = self._touched(move)
            nearby = touched.union(*(self._neighbour_regions(r) for r in touched))
            self._apply(move)
            touched = self._touched_after(move, touched)
            nearby |= touched.union(*(self._neighbour_regions(r) for r in touched))
            for r in nearby:  # only these can have started or stopped clashing
                if self.cells[r] and self._clashes(r):
                    clashing.add(r)
                else:
                    clashing.discard(r)
        return not clashing

    def _clashing(self) -> list[int]:
        """Regions (sorted ids) that touch another region of their own size."""
        owner, cells = self.owner, self.cells
        out = set()
        for i in range(self.n):
            a = owner[i]
            for j in self.nbrs[i]:
                b = owner[j]
                if j > i and a != b and len(cells[a]) == len(cells[b]):
                    out.add(a)
                    out.add(b)
        return sorted(out)

    def _moves(self, rid: int) -> list[tuple[str, int, int]]:
        """Candidate moves around region ``rid``: ("merge", rid, other) or ("move", cell, to_region)."""
        cells, owner, nbrs, cap = self.cells, self.owner, self.nbrs, self.max
        out: list[tuple[str, int, int]] = []
        for other in self._neighbour_regions(rid):
            if len(cells[rid]) + len(cells[other]) <= cap:
                out.append(("merge", rid, other))
        if len(cells[rid]) > 1:  # one of its cells goes to a neighbouring region
            for i in sorted(cells[rid]):
                if self._connected_without(rid, i):
                    targets = sorted({owner[j] for j in nbrs[i]} - {rid})
                    out += [("move", i, dst) for dst in targets if len(cells[dst]) < cap]
                    out.append(("move", i, _NEW))  # it becomes a region of its own
        if len(cells[rid]) < cap:  # it takes a cell from a neighbouring region
            for i in sorted({j for c in cells[rid] for j in nbrs[c] if owner[j] != rid}):
                src = owner[i]
                if len(cells[src]) > 1 and self._connected_without(src, i):
                    out.append(("move", i, rid))
        return out

    def _neighbour_regions(self, rid: int) -> list[int]:
        owner = self.owner
        return sorted({owner[j] for i in self.cells[rid] for j in self.nbrs[i] if owner[j] not in (-1, rid)})

    def _connected_without(self, rid: int, cell: int) -> bool:
        return connected({c for c in self.cells[rid] if c != cell}, self.nbrs)

    def _delta(self, move: tuple[str, int, int]) -> int:
        """Change in clashing neighbour pairs among the regions the move touches."""
        touched = self._touched(move)
        before = self._pairs_around(touched)
        undo = self._apply(move)
        after = self._pairs_around(self._touched_after(move, touched))
        self._undo(undo)
        return after - before

    def _touched(self, move: tuple[str, int, int]) -> set[int]:
        kind, x, y = move
        if kind == "merge":
            return {x, y}
        return {self.owner[x], y} - {_NEW}

    def _touched_after(self, move: tuple[str, int, int], touched: set[int]) -> set[int]:
        """The regions a move touched, once applied (a merged-away region is gone, a new one is there)."""
        after = {r for r in touched if self.cells[r]}
        if move[0] == "move":
            after.add(self.owner[move[1]])
        return after

    def _pairs_around(self, regions: set[int]) -> int:
        """Clashing pairs (region, neighbour region) with at least one side in ``regions``."""
        pairs = set()
        for r in regions:
            size = len(self.cells[r])
            for other in self._neighbour_regions(r):
                if len(self.cells[other]) == size:
                    pairs.add((min(r, other), max(r, other)))
        return len(pairs)

    def _apply(self, move: tuple[str, int, int]):
        kind, x, y = move
        if kind == "merge":
            moved = list(self.cells[y])
            self._merge(x, y)
            return ("unmerge", x, y, moved)
        src = self.owner[x]
        if y == _NEW:
            y = len(self.cells)
            self.cells.append([])
        self.cells[src].remove(x)
        self.cells[y].append(x)
        self.owner[x] = y
        return ("unmove", x, src, y)

    def _undo(self, undo) -> None:
        if undo[0] == "unmerge":
            _, x, y, moved = undo
            del self.cells[x][-len(moved) :]
            self.cells[y] = moved
            for i in moved:
                self.owner[i] = y
        else:
            _, cell, src, dst = undo
            self.cells[dst].remove(cell)
            self.cells[src].append(cell)
            self.owner[cell] = src
            if dst == len(self.cells) - 1 and not self.cells[dst]:
                self.cells.pop()  # the cell had become a region of its own

    def _merge(self, keep: int, gone: int) -> None:
        for i in self.cells[gone]:
            self.owner[i] = keep
        self.cells[keep].extend(self.cells[gone])
        self.cells[gone] = []

    # -- tests on a region ------------------------------------------------------------------

    def _clashes(self, rid: int) -> bool:
        return not self._fits(self.cells[rid], len(self.cells[rid]), {rid})

    def _fits(self, cells: list[int], size: int, selves: set[int]) -> bool:
        """True when no region outside ``selves`` with ``size`` cells touches ``cells``."""
        owner, regions = self.owner, self.cells
        for i in cells:
            for j in self.nbrs[i]:
                o = owner[j]
                if o != -1 and o not in selves and len(regions[o]) == size:
                    return False
        return True
