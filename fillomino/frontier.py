"""Exact counting by a frontier sweep that lays the clued regions whole and counts the clue-free pockets they leave.

Cells are laid in reading order along the narrow side. At each cell not yet held by a laid region, either a
clued region (one holding a clue) starts there, chosen whole from the regions the clues allow on the bare
board (the region search's lists), or the cell is left to clue-free regions: a hole. Holes that touch form
one pocket; a pocket is filled by clue-free regions alone, so once the sweep has passed it (no cell of it on
the frontier row) it is counted by the region search (``RegionSearch`` on a clue-free part: its cells and the
sizes laid regions next to them forbid) and the count multiplies the state's. Every picture is its clued
regions plus the pictures of its pockets, so each is counted once.

The state forgets the far side: the last row laid (a pocket's number, or the size of the clued region
there), the open pockets (cells and forbidden sizes), and, per size, the cells ahead that laid clued regions
hold (not which regions: layouts that differ only behind the frontier merge). So choices in different
corners of the board combine through the states' counts, not one by one as in the region search.

Pruning, all exact: a clued region may not overlap a laid one nor (pictures) touch one of its size; after
each cell the clue cells still to be covered keep the region search's lists, cut to the open cells and
propagated, and (pictures) the CNF engine is asked whether any picture labels the laid clued cells on the
frontier and beyond as the state says. No region size is capped unless ``max_size`` says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from .grid import bit_spread, set_bits
from .ints import product
from .memory import MemoryGuard, OutOfMemory
from .puzzle import FillominoError, Puzzle

Step = Callable[[int, int], None]
"""Called as ``step(done, total)`` after each cell."""

SAT_START = 32
"""CNF checks allowed before any has refuted."""
SAT_CREDIT = 2
"""CNF checks a refutation pays for: the checks go on while at least one in two refutes."""
SAT_SAMPLE = 64
"""Out of credit, one new state key in this many is still checked (so a board that starts paying is noticed)."""


class FrontierTimeout(Exception):
    """The deadline passed before the count finished."""


class FrontierTooBig(FillominoError):
    """The sweep grew past the allowed number of states."""


@dataclass(frozen=True)
class _Region:
    mask: int
    size: int
    edge: int  # the cells next to the region
    before: tuple[int, ...]  # the cells next to it laid before its first cell, as offsets in the frontier row


_NONE = -(1 << 20)
"""A frontier entry with nothing laid there (above the first row): touches nothing."""

Pocket = tuple[int, tuple[tuple[int, int], ...]]
"""A pocket: its cells (a bit mask) and, per size, the cells of it next to a laid clued region of that size."""


class FrontierCount:
    """One count (pictures, or ``cuts``) of ``puzzle`` with regions of at most ``max_size`` cells.

    ``deadline`` (a reading of ``timer``, by default time.monotonic) raises FrontierTimeout, from building the
    lists too; ``max_states`` raises FrontierTooBig; ``sat`` asks the CNF engine about each new state (pictures
    only) and ``propagate`` runs the region search's list propagation on it: both only end dead states early.
    ``memory`` trims the caches of the region searches it uses; its own states are the count, so past the
    guard's STOP_SHARE it raises fillomino.memory.OutOfMemory."""

    def __init__(self, puzzle: Puzzle, *, cuts: bool = False, max_size: int | None = None,
                 deadline: float | None = None, max_states: int | None = None, sat: bool = True,
                 propagate: bool = True, timer: Callable[[], float] = time.monotonic,
                 memory: MemoryGuard | None = None) -> None:
        from .regions import RegionSearch, RegionTimeout

        # the lists and the propagation; and, without CNF checks (they read laid labels this sweep does not
        # keep there), the pockets' counts
        self.memory = memory
        self.search = RegionSearch(puzzle, cuts=cuts, max_size=max_size, deadline=deadline, timer=timer,
                                   memory=memory)
        self.pockets = RegionSearch(puzzle, cuts=cuts, max_size=max_size, deadline=deadline, sat_cells=None,
                                    timer=timer, memory=memory)
        search = self.search
        self.rows, self.cols, self.n = search.rows, search.cols, search.n
        self.clue = search.clue
        self.cap = search.cap
        self.cuts = cuts
        self.deadline = deadline
        self.timer = timer
        self.max_states = max_states
        self.peak = 0
        w = self.cols
        full = ((1 << self.n) - 1, ())
        masks: dict[int, int] = {}
        try:
            for cell in range(self.n):
                if self.clue[cell]:
                    for mask, size in search._regions(full, 1 << cell):
                        masks.setdefault(mask, size)
        except RegionTimeout:
            raise FrontierTimeout from None
        self.regions: list[_Region] = []
        self.starting: list[list[int]] = [[] for _ in range(self.n)]
        for mask, size in sorted(masks.items()):
            first = (mask & -mask).bit_length() - 1
            edge = bit_spread(mask, self.rows, self.cols) & ~mask
            before = tuple(c - (first - w) for c in set_bits(edge & ((1 << first) - 1)))
            self.starting[first].append(len(self.regions))
            self.regions.append(_Region(mask, size, edge, before))
        self._cover: dict[tuple[tuple[int, int], ...], tuple[int, dict[int, int]]] = {}
        self._alive: dict[tuple, bool] = {}
        self._sat_alive: dict[tuple, bool] = {}
        self.sat = sat and not cuts
        self.sat_calls = self.sat_refuted = self.sat_eligible = 0
        self.sat_credit = SAT_START
        self.pockets_counted = 0
        self.propagate = propagate

    def _tick(self) -> None:
        if self.deadline is not None and self.timer() > self.deadline:
            raise FrontierTimeout
        if self.memory is not None and self.memory.exhausted():
            raise OutOfMemory  # the states are the count: nothing to trim

    def _covered(self, ahead: tuple[tuple[int, int], ...]) -> tuple[int, dict[int, int]]:
        """The cells ahead that laid regions hold, all together and by region size."""
        got = self._cover.get(ahead)
        if got is None:
            cover = 0
            for _, m in ahead:
                cover |= m
            got = self._cover[ahead] = (cover, dict(ahead))
        return got

    def count(self, step: Step | None = None) -> int:
        """The exact count; raises FrontierTimeout past the deadline."""
        from .regions import RegionTimeout, _deep_recursion

        # a state: (the last row laid, each cell a pocket's number or minus its clued region's size; the open
        # pockets, numbered in the row's order; per size, the cells ahead that laid clued regions of it hold)
        try:
            with _deep_recursion(self.n):
                return self._sweep({((_NONE,) * self.cols, (), ()): 1}, 0, step)
        except RegionTimeout:
            raise FrontierTimeout from None

    def _pocket(self, pocket: Pocket) -> int:
        """The pictures (or cuts) of a closed pocket: clue-free regions only, none of a size its marks forbid."""
        mask, marks = pocket
        parts = self.pockets._parts(mask, dict(marks))
        if parts is None:
            return 0
        self.pockets_counted += 1
        total = 1
        for part in parts:
            total = product(total, self.pockets._count(part, None, 0, 0))
            if not total:
                break
        return total

    def _sweep(self, states: dict[tuple, int], start: int, step: Step | None = None) -> int:
        """The count of every completion of ``states`` (each with its number of ways), laid from cell ``start``."""
        w, n, cuts = self.cols, self.n, self.cuts
        clue, regions, starting = self.clue, self.regions, self.starting
        calls = 0
        for p in range(start, n):
            col = p % w
            new_states: dict[tuple, int] = {}
            clued_here = clue[p]
            right = p + 1 if col < w - 1 else -1
            down = p + w if p + w < n else -1
            for state, ways in states.items():
                calls += 1
                if calls & 255 == 0:
                    self._tick()
                row, pockets, ahead = state
                cover, by = self._covered(ahead)
                up = row[0]
                left = row[-1] if col else _NONE
                if (cover >> p) & 1:
                    v = 0
                    for k, m in by.items():
                        if (m >> p) & 1:
                            v = k
                            break
                    marked = list(pockets)
                    if not cuts:
                        for e, x in ((up, p - w), (left, p - 1)):
                            if e >= 0:
                                marked[e] = _mark(marked[e], v, 1 << x)
                    self._next(p, row, marked, by, -v, 0, new_states, ways)
                    continue
                for i in starting[p]:  # a clued region starting here
                    r = regions[i]
                    if r.mask & cover:
                        continue
                    v = r.size
                    marked = list(pockets)
                    if not cuts:
                        if r.edge & by.get(v, 0):
                            continue
                        bad = False
                        for k in r.before:
                            e = row[k]
                            if e >= 0:
                                marked[e] = _mark(marked[e], v, 1 << (p - w + k))
                            elif e == -v:
                                bad = True
                                break
                        if bad:
                            continue
                    self._next(p, row, marked, by, -v, r.mask, new_states, ways)
                if clued_here:
                    continue
                # a hole: it joins the pockets above and to the left
                marks: dict[int, int] = {}
                if not cuts:
                    for e in (up, left):
                        if -64 < e < 0:
                            marks[-e] = 1 << p
                    for x in (right, down):
                        if x >= 0 and (cover >> x) & 1:
                            for k, m in by.items():
                                if (m >> x) & 1:
                                    marks[k] = 1 << p
                mask = 1 << p
                joined = {e for e in (up, left) if e >= 0}
                for e in joined:
                    mask |= pockets[e][0]
                    for k, cells in pockets[e][1]:
                        marks[k] = marks.get(k, 0) | cells
                merged = (mask, tuple(sorted(marks.items())))
                self._next(p, row, list(pockets), by, None, 0, new_states, ways, joined, merged)
            states = new_states
            self.peak = max(self.peak, len(states))
            if self.max_states is not None and len(states) > self.max_states:
                raise FrontierTooBig(f"the frontier count needs more than {self.max_states} states")
            if step:
                step(p + 1, n)
        total = 0
        for (_row, pockets, _ahead), ways in states.items():
            for pocket in pockets:
                ways = product(ways, self._pocket(pocket))
                if not ways:
                    break
            total += ways
        return total

    def _next(self, p: int, row: tuple[int, ...], pockets: list[Pocket], by: dict[int, int], clued: int | None,
              laid: int, new_states: dict[tuple, int], ways: int,
              joined: set[int] | frozenset[int] = frozenset(), merged: Pocket | None = None) -> None:
        """Add the state once cell ``p`` is laid: in a clued region of size ``-clued`` (``laid`` its cells when it
        starts here), or, with ``clued`` None, as a hole in the pocket ``merged`` (the pockets ``joined``
        and the cell)."""
        new = len(pockets)  # the cell's pocket, before renumbering
        gone = row[0]
        cells = list(row[1:])
        if clued is None:
            cells = [new if x in joined else x for x in cells]
            cells.append(new)
        else:
            cells.append(clued)
        ids: dict[int, int] = {}
        out = []
        for x in cells:
            if x >= 0:
                y = ids.get(x)
                if y is None:
                    y = ids[x] = len(ids)
                out.append(y)
            else:
                out.append(x)
        new_pockets: list[Pocket] = []
        for old in ids:
            if old == new:
                assert merged is not None  # only a hole has a pocket of its own
                new_pockets.append(merged)
            else:
                new_pockets.append(pockets[old])
        if gone >= 0 and gone not in ids and gone not in joined:
            ways = product(ways, self._pocket(pockets[gone]))  # the sweep has passed it: it is closed
            if not ways:
                return
        after = ((1 << self.n) - 1) >> (p + 1) << (p + 1)
        held = dict(by)
        if laid:
            assert clued is not None  # only a clued region lays cells
            held[-clued] = held.get(-clued, 0) | laid
        ahead = tuple((k, m & after) for k, m in sorted(held.items()) if m & after)
        window = tuple(out)
        if not self._viable(p, window, self._covered(ahead)[1]):
            return
        key = (window, tuple(new_pockets), ahead)
        new_states[key] = new_states.get(key, 0) + ways

    def _viable(self, p: int, row: tuple[int, ...], by: dict[int, int]) -> bool:
        """Whether the clue cells after ``p`` that no laid region holds can still have regions once cell ``p`` is
        laid: the region search's lists, cut to the open cells after ``p`` and the sizes laid regions next to them
        forbid, then propagated (``RegionSearch._propagate``; never its cover rule, since a pocket on the frontier
        may still grow into an open cell); and for pictures the CNF check."""
        w, n = self.cols, self.n
        after = ((1 << n) - 1) >> (p + 1) << (p + 1)
        cover = 0
        for m in by.values():
            cover |= m
        open_ = after & ~cover
        banned: dict[int, int] = {}
        if not self.cuts:
            for k, m in by.items():
                cells = bit_spread(m & after, self.rows, self.cols) & open_
                if cells:
                    banned[k] = cells
            for j, e in enumerate(row):
                if e < 0 and e != _NONE:
                    x = p - w + 1 + j
                    near = 0
                    if x + w < n:
                        near |= 1 << (x + w)
                    if x == p and (p + 1) % w:
                        near |= 1 << (p + 1)
                    near &= open_
                    if near:
                        banned[-e] = banned.get(-e, 0) | near
        part = (open_, tuple(sorted((k, m) for k, m in banned.items() if k <= self.cap)))
        got = self._alive.get(part)
        if got is None:
            got = self._alive[part] = self._propagated(part)
        if not got or not self.sat:
            return got
        key = (p, tuple(e if e < 0 else 0 for e in row)) + tuple((k, m & after) for k, m in sorted(by.items()))
        got = self._sat_alive.get(key)
        if got is None:
            # rationed as the region search's checks are, by counts (never the clock): each call spends a
            # credit, each refutation earns SAT_CREDIT, and without credit one new key in SAT_SAMPLE is asked
            self.sat_eligible += 1
            if self.sat_credit <= 0 and self.sat_eligible % SAT_SAMPLE:
                return True
            got = self._sat_alive[key] = self._sat_check(p, row, by, after)
            self.sat_credit += -1 if got else SAT_CREDIT - 1
        return got

    def _propagated(self, part: Pocket) -> bool:
        search = self.search
        valid = {}
        for c in set_bits(part[0] & search.clued):
            alive = search._listed(c, part)
            if alive is None:
                continue
            if not alive:
                return False
            valid[c] = alive
        return not self.propagate or search._propagate(part, valid, False) is not None

    def _sat_check(self, p: int, row: tuple[int, ...], by: dict[int, int], after: int) -> bool:
        """False when the CNF engine proves that no picture labels the laid clued cells on the frontier row and the
        cells laid regions hold after ``p`` with their regions' sizes (as every completion of the state does)."""
        from .encode.cnf import BIG

        labels = [(p - self.cols + 1 + j, -e) for j, e in enumerate(row) if e < 0 and e != _NONE]
        for k, m in by.items():
            labels.extend((c, k) for c in set_bits(m & after))
        top = self.search.clue_model().k  # the search itself never counts, so the model is this sweep's alone
        self.sat_calls += 1
        if self.search.sat_refutes([(c, BIG if v > top else v) for c, v in labels]):
            self.sat_refuted += 1
            return False
        return True


def _mark(pocket: Pocket, size: int, cells: int) -> Pocket:
    """The pocket with ``cells`` of it next to a laid region of ``size``."""
    mask, marks = pocket
    d = dict(marks)
    d[size] = d.get(size, 0) | cells
    return mask, tuple(sorted(d.items()))


def count_frontier(puzzle: Puzzle, *, cuts: bool = False, max_size: int | None = None,
                   deadline: float | None = None, step: Step | None = None) -> int:
    """The exact number of pictures (or ``cuts``) of ``puzzle`` with regions of at most ``max_size`` cells."""
    return FrontierCount(puzzle, cuts=cuts, max_size=max_size, deadline=deadline).count(step)
