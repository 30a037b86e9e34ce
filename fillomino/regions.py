"""Exact counting and listing by laying whole regions, with the open cells split into parts counted once each.

The search takes the clued cell with the fewest possible regions left (the first open cell, row-major
along the narrow side, once a part has no clue) and lays every connected region that holds it and fits
the clues (a clue fixes the region's size, two clues in one region must agree) and, for pictures, no
laid region of the same size next to it. The cells still open then fall into connected parts that no
region can join, so each part is counted on its own and the counts multiply. A part's count depends
only on its cells and, for pictures, on the sizes its cells may not take (those of laid regions next to
them): that pair is the cache key. Cuts need no such sizes, so a part is its cells alone.

Each clued cell keeps the list of regions it may have, filtered down the search and cut against the
cells the other clues' regions certainly hold, so a clue with nowhere left to go ends a branch at once.
Cell sets are bit masks (bit i = cell i) and every grid search is one of ``fillomino.grid``'s ``bit_*``
functions. The count is exact: no region size is capped unless ``max_size`` says so.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator

from .grid import bit_components, bit_neighbours, bit_spread
from .puzzle import Grid, Puzzle, to_grid

Step = Callable[[int, int], None]
"""Called as ``step(done, total)`` after each first-level choice of the count."""


class RegionTimeout(TimeoutError):
    """The deadline passed before the count finished."""


class RegionsStuck(Exception):
    """The search met mostly dead ends for longer than ``stuck_after`` parts (see RegionSearch)."""


class _TooMany(Exception):
    """More regions than a clued cell's list keeps."""


STATIC_MOST = 20_000
"""A clued cell with more regions than this on the bare board gets no list: its regions are found as needed."""

Lists = dict[int, list[tuple[int, int]]]
"""For clued cells, the regions of the clue's size still possible, as (cells, cells next to them) masks."""

PROPAGATION_ROUNDS = 4
"""Times the clued cells' lists are cut against each other's certain cells before a region is chosen."""


Part = tuple[int, tuple[tuple[int, int], ...]]
"""A part to count: (its cells as a mask, ((size, mask of the cells that may not take that size), ...))."""


class RegionSearch:
    """The region-laying search on one board (pictures, or ``cuts``), with its cache of part counts.

    Boards wider than tall are searched transposed, so the open cells' frontier runs along the
    narrow side; listed solutions are turned back. ``deadline`` (time.monotonic()) raises RegionTimeout;
    ``stuck_after`` raises RegionsStuck once that many parts are counted and nine in ten were dead.
    """

    def __init__(self, puzzle: Puzzle, *, cuts: bool = False, max_size: int | None = None,
                 deadline: float | None = None, stuck_after: int | None = None) -> None:
        self.puzzle = puzzle
        self.flip = puzzle.cols > puzzle.rows
        rows, cols = (puzzle.cols, puzzle.rows) if self.flip else (puzzle.rows, puzzle.cols)
        self.rows, self.cols, self.n = rows, cols, rows * cols
        if self.flip:
            self.clue = [puzzle.clues[c * puzzle.cols + r] for r in range(rows) for c in range(cols)]
        else:
            self.clue = list(puzzle.clues)
        self.cuts = cuts
        self.cap = self.n if max_size is None else min(self.n, max_size)
        self.nbm = bit_neighbours(rows, cols)
        self.deadline = deadline
        self.stuck_after = stuck_after
        self.parts_counted = 0
        self.parts_dead = 0
        self.calls = 0
        self.cache: dict[Part, int] = {}
        self.static: dict[int, list[tuple[int, int]] | None] = {}
        self.alive: dict[Part, bool] = {}
        self.clued = sum(1 << i for i, c in enumerate(self.clue) if c)
        self.clue_is = [sum(1 << i for i, c in enumerate(self.clue) if c == v) for v in range(self.n + 1)]
        # clue_at_least[v]: cells whose clue is v or more (a part smaller than a clue in it is dead)
        self.clue_at_least = [0] * (self.n + 2)
        for v in range(self.n, 0, -1):
            self.clue_at_least[v] = self.clue_at_least[v + 1] | self.clue_is[v]

    # --- the parts -------------------------------------------------------------------------------

    def _parts(self, open_mask: int, banned: dict[int, int]) -> list[Part] | None:
        """The connected parts of the open cells, each with the sizes its cells may not take; None if one is dead."""
        out = []
        for comp in bit_components(open_mask, self.rows, self.cols):
            size = comp.bit_count()
            if comp & self.clue_at_least[size + 1]:
                return None  # a clue larger than the part it is in
            top = min(size, self.cap)
            marks = []
            for k in sorted(banned):
                cells = banned[k] & comp
                if cells and k <= top:
                    if cells & self.clue_is[k]:
                        return None  # a clue cell next to a laid region of its own size
                    marks.append((k, cells))
            out.append((comp, tuple(marks)))
        if len(out) > 1:
            # a part with clues is the likelier to be dead and is cheaper to count: settle those first
            out.sort(key=lambda part: (not part[0] & self.clued, part[0].bit_count()))
        return out

    def _regions(self, part: Part, root_bit: int, most: int | None = None) -> list[tuple[int, int]]:
        """Every region (mask, size) holding ``root_bit`` that fits the part's clues and neighbours.

        With ``most``, raises _TooMany rather than collect more than that many."""
        mask, marks = part
        forbid: dict[int, int] = {}
        for k, cells in marks:
            while cells:
                b = cells & -cells
                cells ^= b
                c = b.bit_length() - 1
                forbid[c] = forbid.get(c, 0) | (1 << k)
        nbm, clue, cap = self.nbm, self.clue, self.cap
        rows, cols, cuts, clue_is = self.rows, self.cols, self.cuts, self.clue_is
        limit = min(cap, mask.bit_count())
        root = root_bit.bit_length() - 1
        out: list[tuple[int, int]] = []

        tick = self._tick

        def grow(poly: int, k: int, target: int, banned: int, untried: int, seen: int) -> None:
            tick()
            if target and (banned >> target) & 1:
                return
            if (target == 0 or k == target) and not (banned >> k) & 1:
                if cuts or not (bit_spread(poly, rows, cols) & mask & ~poly & clue_is[k]):
                    out.append((poly, k))
                    if most is not None and len(out) > most:
                        raise _TooMany
            if k >= (target or limit):
                return
            if target and k + (untried | (mask & ~seen)).bit_count() < target:
                return  # not enough cells left to reach the clue's size
            while untried:
                b = untried & -untried
                untried ^= b
                c = b.bit_length() - 1
                v = clue[c]
                t = target
                if v:
                    if (t and v != t) or v <= k:
                        continue
                    t = v
                f = forbid.get(c, 0)
                if t and (f >> t) & 1:
                    continue
                new = nbm[c] & mask & ~seen
                grow(poly | b, k + 1, t, banned | f, untried | new, seen | new)
                if v and not cuts:
                    # c stays out from here on, next to the region: a picture's region cannot then have c's size
                    if v == target:
                        return
                    banned |= 1 << v

        first = nbm[root] & mask
        target = clue[root]
        if target > limit:
            return out
        grow(root_bit, 1, target, forbid.get(root, 0), first, root_bit | first)
        return out

    def _after(self, part: Part, region: int, size: int) -> list[Part] | None:
        """The parts left once ``region`` (of ``size`` cells) is laid in ``part``."""
        mask, marks = part
        rest = mask & ~region
        if not rest:
            return []
        banned = dict(marks)
        if not self.cuts:
            banned[size] = banned.get(size, 0) | (bit_spread(region, self.rows, self.cols) & rest)
        return self._parts(rest, banned)

    # --- choosing the region to lay -------------------------------------------------------------

    def _static(self, cell: int) -> list[tuple[int, int]] | None:
        """The regions a clued cell may have on the bare board, or None when there are too many to keep."""
        if cell not in self.static:
            full: Part = ((1 << self.n) - 1, ())
            try:
                found = self._regions(full, 1 << cell, STATIC_MOST)
                self.static[cell] = [(r, bit_spread(r, self.rows, self.cols) & ~r) for r, _ in found]
            except _TooMany:
                self.static[cell] = None
        return self.static[cell]

    def _choices(self, part: Part, lists: Lists | None) -> tuple[list[tuple[int, int]], Lists | None]:
        """The regions to try in ``part`` and the clued cells' region lists the parts below filter from.

        The clued cell with the fewest regions left goes first (a dead clue ends the branch at once);
        a part with no listed clue lays the region of its first clued cell, or of its first cell."""
        mask, marks = part
        clued = mask & self.clued
        if not clued:
            return self._regions(part, mask & -mask), None
        banned = dict(marks)
        valid: Lists = {}
        unlisted = 0
        rest = clued
        while rest:
            b = rest & -rest
            rest ^= b
            c = b.bit_length() - 1
            source = lists.get(c) if lists else None
            if source is None:
                source = self._static(c)
                if source is None:
                    unlisted = unlisted or b
                    continue
            bad = banned.get(self.clue[c], 0)
            mine = [r for r in source if r[0] & mask == r[0] and not r[0] & bad]
            if not mine:
                return [], valid
            valid[c] = mine
        # the parts below filter the lists as they stand: what propagation cut here follows from this
        # part's other clues, which a part below may not hold (its cached count must not depend on them)
        cut = dict(valid)
        if cut and not self._propagate(cut):
            return [], valid
        best = min(cut, key=lambda c: (len(cut[c]), c), default=None)
        if best is None:
            return self._regions(part, unlisted), valid
        size = self.clue[best]
        return [(r, size) for r, _ in cut[best]], valid

    def _propagate(self, valid: Lists) -> bool:
        """Cut the lists against the cells each clued cell's region certainly holds (the AND of its list).

        A region may not take a cell certain for a clue of another size; for pictures it may not touch
        a cell certain for a clue of its own size either (that cell is in another region of the same
        size, or in its own and then the region would have to hold it). False when a list runs dry."""
        clue = self.clue
        for _ in range(PROPAGATION_ROUNDS):
            core_by_size: dict[int, int] = {}
            cores: dict[int, int] = {}
            for c, regions in valid.items():
                core = -1
                for r, _ in regions:
                    core &= r
                cores[c] = core
                core_by_size[clue[c]] = core_by_size.get(clue[c], 0) | core
            changed = False
            for c, regions in valid.items():
                v = clue[c]
                other = 0
                for w, core in core_by_size.items():
                    if w != v:
                        other |= core
                same = 0 if self.cuts else core_by_size[v]
                # cells certain for another clue of the same size: only that clue's own region may take them
                shared = core_by_size[v] & ~cores[c]
                if not (other or same or shared):
                    continue
                kept = [(r, halo) for r, halo in regions
                        if not (r & other or halo & same or (r & shared and self._steals(r, c, v, cores)))]
                if len(kept) != len(regions):
                    if not kept:
                        return False
                    valid[c] = kept
                    changed = True
            if not changed:
                return True
        return True

    def _steals(self, region: int, cell: int, size: int, cores: dict[int, int]) -> bool:
        """Whether ``region`` (for clued ``cell``) takes a cell certain for another clue of its size without
        being that clue's region too, or holds such a clue but not every cell certain for it."""
        for d, core in cores.items():
            if d == cell or self.clue[d] != size:
                continue
            if (region >> d) & 1:
                if core & ~region:
                    return True
            elif region & core:
                return True
        return False

    # --- counting --------------------------------------------------------------------------------

    def _tick(self) -> None:
        self.calls += 1
        if self.deadline is not None and not self.calls & 1023 and time.monotonic() > self.deadline:
            raise RegionTimeout

    def _count(self, part: Part, lists: Lists | None, step: Step | None = None) -> int:
        got = self.cache.get(part)
        if got is not None:
            return got
        self._tick()
        total = 0
        choices, valid = self._choices(part, lists)
        for i, (region, size) in enumerate(choices):
            parts = self._after(part, region, size)
            if parts is not None:
                ways = 1
                for p in parts:
                    ways *= self._count(p, valid)
                    if not ways:
                        break
                total += ways
            if step is not None:
                step(i + 1, len(choices))
        self.cache[part] = total
        self.parts_counted += 1
        self.parts_dead += not total
        if self.stuck_after is not None and self.parts_counted >= self.stuck_after and \
                self.parts_dead * 10 > self.parts_counted * 9:
            raise RegionsStuck  # nine parts in ten dead: the clues need propagation this search lacks
        return total

    def count(self, step: Step | None = None) -> int:
        """The exact number of pictures (or cuts); raises RegionTimeout past the deadline.

        ``step(done, total)`` hears of each region tried for the first clue laid."""
        with _deep_recursion(self.n):
            parts = self._parts((1 << self.n) - 1, {})
            if parts is None:
                return 0
            total = 1
            for i, p in enumerate(parts):
                total *= self._count(p, None, step if i == 0 else None)
                if not total:
                    return 0
            return total

    # --- listing ---------------------------------------------------------------------------------

    def _alive(self, part: Part, lists: Lists | None) -> bool:
        """Whether ``part`` can be filled at all (stops at the first way; a known count answers at once)."""
        got = self.cache.get(part)
        if got is not None:
            return got > 0
        got_alive = self.alive.get(part)
        if got_alive is not None:
            return got_alive
        self._tick()
        choices, valid = self._choices(part, lists)
        ok = False
        for region, size in choices:
            parts = self._after(part, region, size)
            if parts is not None and all(self._alive(p, valid) for p in parts):
                ok = True
                break
        self.alive[part] = ok
        return ok

    def _list(self, part: Part, lists: Lists | None) -> Iterator[list[tuple[int, int]]]:
        """Every way to fill ``part``, as lists of (region mask, size); dead branches are cut before entering."""
        self._tick()
        choices, valid = self._choices(part, lists)
        for region, size in choices:
            parts = self._after(part, region, size)
            if parts is None or not all(self._alive(p, valid) for p in parts):
                continue
            for rest in self._product(parts, 0, valid):
                rest.append((region, size))
                yield rest

    def _product(self, parts: list[Part], i: int, lists: Lists | None) -> Iterator[list[tuple[int, int]]]:
        if i == len(parts):
            yield []
            return
        for mine in self._list(parts[i], lists):
            for rest in self._product(parts, i + 1, lists):
                yield rest + mine

    def solutions(self) -> Iterator[Grid]:
        """Every picture as a label grid, or for cuts every cut as a region-id grid (ids 1.. in row-major order
        of each region's first cell), in the search's order; raises RegionTimeout past the deadline."""
        with _deep_recursion(self.n):
            parts = self._parts((1 << self.n) - 1, {})
            if parts is None:
                return
            for regions in self._product(parts, 0, None):
                yield self._grid(regions)

    def _grid(self, regions: list[tuple[int, int]]) -> Grid:
        rows, cols = self.rows, self.cols
        owner = [0] * self.n
        label = [0] * self.n
        for idx, (mask, size) in enumerate(regions):
            while mask:
                b = mask & -mask
                mask ^= b
                c = b.bit_length() - 1
                owner[c], label[c] = idx, size
        if self.flip:
            owner = [owner[c * cols + r] for r in range(cols) for c in range(rows)]
            label = [label[c * cols + r] for r in range(cols) for c in range(rows)]
        if not self.cuts:
            return to_grid(label, self.puzzle.cols)
        ids: dict[int, int] = {}
        return to_grid([ids.setdefault(o, len(ids) + 1) for o in owner], self.puzzle.cols)


MAX_FRAMES = 12_000
"""Deeper than this the interpreter's own stack is at risk: a RecursionError is raised instead."""


class _deep_recursion:
    """The search recurses once per region laid: allow that many frames on big boards."""

    def __init__(self, cells: int) -> None:
        self.want = min(200 + 8 * cells, MAX_FRAMES)

    def __enter__(self) -> None:
        self.old = sys.getrecursionlimit()
        if self.want > self.old:
            sys.setrecursionlimit(self.want)

    def __exit__(self, *exc: object) -> None:
        sys.setrecursionlimit(self.old)


def count_regions(puzzle: Puzzle, *, cuts: bool = False, max_size: int | None = None,
                  deadline: float | None = None, step: Step | None = None) -> int:
    """The exact number of pictures (or ``cuts``) of ``puzzle`` by the region-laying search."""
    return RegionSearch(puzzle, cuts=cuts, max_size=max_size, deadline=deadline).count(step)


def iter_regions(puzzle: Puzzle, *, cuts: bool = False, max_size: int | None = None,
                 deadline: float | None = None) -> Iterator[Grid]:
    """Every picture (or cut) of ``puzzle`` by the region-laying search, as :func:`fillomino.count.iter_solutions`."""
    return RegionSearch(puzzle, cuts=cuts, max_size=max_size, deadline=deadline).solutions()
