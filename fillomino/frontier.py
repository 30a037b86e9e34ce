"""Exact counting by a frontier sweep that lays clued regions whole and grows clue-free regions cell by cell.

Cells are laid in reading order along the narrow side. A clued region (one holding a clue) is laid whole
at its first cell, chosen from the regions the clues allow on the bare board (the region search's lists);
a clue-free region grows cell by cell as in the transfer matrix (``fillomino.transfer``): a cell joins its
neighbouring pieces or not, and "not" is remembered as a pair of pieces that may never merge, so every
partition is counted once. The state forgets the far side: it holds only the last row of laid cells (a
clue-free piece's number, or the size of the clued region there), each open piece's size and the sizes it
may not take, the pairs of pieces that stay apart, and the clued regions laid that reach past the current
cell. So choices in different corners of the board combine through the state counts, not one by one.

Pruning, all exact: a clued region may not overlap a laid one, nor (pictures) touch a region of its size;
a clue cell still uncovered must keep a region in its list that starts later and misses every laid region.
No region size is capped unless ``max_size`` says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from .grid import bit_spread, set_bits
from .puzzle import FillominoError, Puzzle

Step = Callable[[int, int], None]
"""Called as ``step(done, total)`` after each cell."""


class FrontierTimeout(TimeoutError):
    """The deadline passed before the count finished."""


class FrontierTooBig(FillominoError):
    """The sweep grew past the allowed number of states."""


@dataclass(frozen=True)
class _Region:
    mask: int
    size: int
    first: int
    last: int
    edge: int  # the cells next to the region
    before: tuple[int, ...]  # the cells next to it that are laid before its first cell, as window offsets


_NONE = -(1 << 20)
"""A window entry with nothing laid there (above the first row): touches nothing."""


class FrontierCount:
    """One count (pictures, or ``cuts``) of ``puzzle`` with regions of at most ``max_size`` cells.

    ``deadline`` (time.monotonic()) raises FrontierTimeout; ``max_states`` raises FrontierTooBig."""

    def __init__(self, puzzle: Puzzle, *, cuts: bool = False, max_size: int | None = None,
                 deadline: float | None = None, max_states: int | None = None, sat: bool = True) -> None:
        from .regions import RegionSearch

        search = RegionSearch(puzzle, cuts=cuts, max_size=max_size)
        self.search = search
        self.rows, self.cols, self.n = search.rows, search.cols, search.n
        self.clue = search.clue
        self.cap = search.cap
        self.cuts = cuts
        self.deadline = deadline
        self.max_states = max_states
        self.peak = 0
        w = self.cols
        full = ((1 << self.n) - 1, ())
        masks: dict[int, int] = {}
        self.lists: dict[int, list[int]] = {}  # clue cell -> its regions' first cells and masks, by first cell
        for cell in range(self.n):
            if self.clue[cell]:
                found = search._regions(full, 1 << cell)
                for mask, size in found:
                    masks.setdefault(mask, size)
        self.regions: list[_Region] = []
        for mask, size in sorted(masks.items()):
            first = (mask & -mask).bit_length() - 1
            edge = bit_spread(mask, self.rows, self.cols) & ~mask
            before = tuple(c - (first - w) for c in set_bits(edge & ((1 << first) - 1)))
            self.regions.append(_Region(mask, size, first, mask.bit_length() - 1, edge, before))
        self.starting: list[list[int]] = [[] for _ in range(self.n)]
        for i, r in enumerate(self.regions):
            self.starting[r.first].append(i)
        # per clue cell, its regions as (first cell, mask), for the look-ahead
        self.clue_regions: dict[int, list[tuple[int, int]]] = {}
        for r in self.regions:
            for c in set_bits(r.mask):
                if self.clue[c]:
                    self.clue_regions.setdefault(c, []).append((r.first, r.mask))
        for c in self.clue_regions:
            self.clue_regions[c].sort()
        self.clue_cells = [c for c in range(self.n) if self.clue[c]]
        self._cover: dict[tuple[int, ...], tuple[int, dict[int, int]]] = {}
        self._alive: dict[tuple, bool] = {}
        self._sat_alive: dict[tuple, bool] = {}
        self.sat = sat
        self.model = None
        self.sat_calls = self.sat_refuted = 0

    def _covered(self, act: tuple[int, ...]) -> tuple[int, dict[int, int]]:
        """The cells the laid regions in ``act`` hold, all together and by region size."""
        got = self._cover.get(act)
        if got is None:
            cover = 0
            by: dict[int, int] = {}
            for i in act:
                r = self.regions[i]
                cover |= r.mask
                by[r.size] = by.get(r.size, 0) | r.mask
            got = self._cover[act] = (cover, by)
        return got

    def _viable(self, p: int, window: tuple[int, ...], by: dict[int, int], sizes: tuple[int, ...],
                forb: tuple[int, ...]) -> bool:
        """Whether the clue cells after ``p`` that no laid region holds can still have regions, once cell ``p`` is
        laid: the region search's lists, cut to the open cells after ``p`` and the sizes laid regions next to them
        forbid, then propagated (``RegionSearch._propagate``; never its cover rule, since a clue-free piece on
        the frontier may still grow into an open cell)."""
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
            for j, e in enumerate(window):
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
        marks = tuple(sorted((k, m) for k, m in banned.items() if k <= self.cap))
        key = (open_, marks)
        got = self._alive.get(key)
        if got is None:
            got = self._check(key)
            self._alive[key] = got
        if not got or self.cuts or not self.sat:
            return got
        assume = (window, sizes, forb) + tuple((k, m & after) for k, m in sorted(by.items()) if m & after)
        got = self._sat_alive.get(assume)
        if got is None:
            got = self._sat_check(p, window, by, after, sizes, forb)
            self._sat_alive[assume] = got
        return got

    def _sat_check(self, p: int, window: tuple[int, ...], by: dict[int, int], after: int, sizes: tuple[int, ...],
                   forb: tuple[int, ...]) -> bool:
        """False when the CNF engine proves no picture labels the laid clued cells on the frontier and the cells
        laid regions hold after ``p`` with their regions' sizes (every completion of the state does)."""
        from .clock import Clock
        from .encode.cnf import BIG, DEFAULT_ENGINE, Interrupted

        search = self.search
        if self.model is None:
            engine = DEFAULT_ENGINE
            cap = None if self.cap >= self.n else self.cap
            self.model = engine.model(self.rows, self.cols, self.clue, k=engine.start_k(cap), big=cap is None)
            self.model.pin([self.model.lit(c, v) for c, v in enumerate(self.clue) if v])
        model = self.model
        labels = [(p - self.cols + 1 + j, -e) for j, e in enumerate(window) if e < 0 and e != _NONE]
        for k, m in by.items():
            labels.extend((c, k) for c in set_bits(m & after))
        assume = []
        for c, v in labels:
            if v > model.k:
                v = BIG
            if model.has(c, v):
                assume.append(model.lit(c, v))
        for j, e in enumerate(window):
            if e >= 0:
                c = p - self.cols + 1 + j
                low, banned = sizes[e], forb[e]
                for v in range(1, model.k + 1):
                    if (v < low or (banned >> v) & 1) and model.has(c, v):
                        assume.append(-model.lit(c, v))
        self.sat_calls += 1
        try:
            alive = model.solve(assume, Clock(conflicts=2000)) is not None
        except Interrupted:
            return True
        if not alive:
            self.sat_refuted += 1
        return alive

    def _check(self, part: tuple[int, tuple[tuple[int, int], ...]]) -> bool:
        search = self.search
        valid = {}
        for c in set_bits(part[0] & search.clued):
            alive = search._listed(c, part)
            if alive is None:
                continue
            if not alive:
                return False
            valid[c] = alive
        return search._propagate(part, valid, False)

    def count(self, step: Step | None = None) -> int:
        """The exact count; raises FrontierTimeout past the deadline."""
        # state: (window: the last w cells laid, each a piece number or minus its region's size; piece sizes;
        # the sizes each piece may not take (a bit set); the sorted pairs of touching pieces kept apart;
        # the laid clued regions that reach past the cell being laid)
        return self._sweep({((_NONE,) * self.cols, (), (), (), ()): 1}, 0, step)

    def _sweep(self, states: dict[tuple, int], start: int, step: Step | None = None) -> int:
        """The count of every completion of ``states`` (each with its number of ways), laid from cell ``start``."""
        w, n, cap, cuts = self.cols, self.n, self.cap, self.cuts
        clue, regions, starting = self.clue, self.regions, self.starting
        calls = 0
        for p in range(start, n):
            col = p % w
            new_states: dict[tuple, int] = {}
            get = new_states.get
            clued_here = clue[p]
            right = p + 1 if col < w - 1 else -1
            down = p + w if p + w < n else -1
            for state, ways in states.items():
                calls += 1
                if calls & 1023 == 0 and self.deadline is not None and time.monotonic() > self.deadline:
                    raise FrontierTimeout
                window, sizes, forb, apart, act = state
                cover, by = self._covered(act)
                up = window[0]
                left = window[-1] if col else _NONE
                if (cover >> p) & 1:
                    v = 0
                    for k, m in by.items():
                        if (m >> p) & 1:
                            v = k
                            break
                    f = list(forb)
                    if not cuts:
                        if up >= 0:
                            f[up] |= 1 << v
                        if left >= 0:
                            f[left] |= 1 << v
                    nxt = self._next(p, window, sizes, f, apart, act, -v, None, (), -1, 0, 0)
                    if nxt is not None:
                        new_states[nxt] = get(nxt, 0) + ways
                    continue
                # a clued region starting here
                for i in starting[p]:
                    r = regions[i]
                    if r.mask & cover:
                        continue
                    v = r.size
                    f = list(forb)
                    if not cuts:
                        if r.edge & by.get(v, 0):
                            continue
                        bad = False
                        bit = 1 << v
                        for k in r.before:
                            e = window[k]
                            if e >= 0:
                                f[e] |= bit
                            elif e == -v:
                                bad = True
                                break
                        if bad:
                            continue
                    nxt = self._next(p, window, sizes, f, apart, act, -v, i if r.last > p else None, (), -1, 0, 0)
                    if nxt is not None:
                        new_states[nxt] = get(nxt, 0) + ways
                if clued_here:
                    continue
                # a clue-free cell: it joins the pieces above and to the left, or not
                near = 0  # the sizes of clued regions next to it
                if not cuts:
                    if -64 < up < 0:
                        near |= 1 << -up
                    if -64 < left < 0:
                        near |= 1 << -left
                    if right >= 0 and (cover >> right) & 1 or down >= 0 and (cover >> down) & 1:
                        for k, m in by.items():
                            if right >= 0 and (m >> right) & 1 or down >= 0 and (m >> down) & 1:
                                near |= 1 << k
                pu = up if up >= 0 else -1
                pl = left if left >= 0 else -1
                if pu >= 0 and pl >= 0 and pu != pl:
                    options: tuple[tuple[int, ...], ...] = ((), (pu,), (pl,), (min(pu, pl), max(pu, pl)))
                elif pu >= 0 or pl >= 0:
                    options = ((), (max(pu, pl),))
                else:
                    options = ((),)
                for joined in options:
                    if len(joined) == 2 and joined in apart:
                        continue
                    size = 1
                    fb = near
                    for j in joined:
                        size += sizes[j]
                        fb |= forb[j]
                    if size > cap:
                        continue
                    nxt = self._next(p, window, sizes, list(forb), apart, act, None, None, joined, size, fb,
                                     (pu if pu >= 0 and pu not in joined else -1, pl if pl >= 0 and pl not in joined
                                      and pl != pu else -1))
                    if nxt is not None:
                        new_states[nxt] = get(nxt, 0) + ways
            states = new_states
            self.peak = max(self.peak, len(states))
            if self.max_states is not None and len(states) > self.max_states:
                raise FrontierTooBig(f"the frontier count needs more than {self.max_states} states")
            if step:
                step(p + 1, n)
        total = 0
        for (_window, sizes, forb, apart, _act), ways in states.items():
            if not cuts:
                if any((forb[j] >> sizes[j]) & 1 for j in range(len(sizes))):
                    continue
                if any(sizes[a] == sizes[b] for a, b in apart):
                    continue
            total += ways
        return total

    def _next(self, p: int, window: tuple[int, ...], sizes: tuple[int, ...], forb: list[int],
              apart: tuple[tuple[int, int], ...], act: tuple[int, ...], clued: int | None, laid: int | None,
              joined: tuple[int, ...], size: int, fb: int, touching: tuple[int, int] | int) -> tuple | None:
        """The state once cell ``p`` is laid: in a clued region of size ``-clued`` (``laid`` its index when it
        reaches past ``p``), or, with ``clued`` None, in a clue-free piece of ``size`` cells made of the pieces
        ``joined`` and the cell, which may not take the sizes ``fb`` and touches the pieces ``touching``."""
        cuts = self.cuts
        new = len(sizes)  # the cell's piece, before renumbering
        gone = window[0]
        cells = list(window[1:])
        if clued is None:
            cells = [new if x in joined else x for x in cells]
            cells.append(new)
        else:
            cells.append(clued)
        # renumber the pieces in window order
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
        m = len(ids)
        new_sizes = [0] * m
        new_forb = [0] * m
        for old, y in ids.items():
            if old == new:
                new_sizes[y] = size
                new_forb[y] = fb
            else:
                new_sizes[y] = sizes[old]
                new_forb[y] = forb[old]
        closed = gone if gone >= 0 and gone not in ids and gone not in joined else -1
        if closed >= 0 and not cuts and (forb[closed] >> sizes[closed]) & 1:
            return None
        pairs = set()
        pair_list = list(apart)
        if clued is None and not isinstance(touching, int):
            for t in touching:
                if t >= 0:
                    pair_list.append((t, new))
        for a, b in pair_list:
            if a in joined:
                a = new
            if b in joined:
                b = new
            if a == closed or b == closed:
                if not cuts:
                    other = b if a == closed else a
                    new_forb[ids[other]] |= 1 << sizes[closed]
                continue
            a, b = ids[a], ids[b]
            pairs.add((a, b) if a < b else (b, a))
        if not cuts:
            for y in range(m):
                s = new_sizes[y]
                room = (1 << (self.cap - s + 1)) - 1  # the sizes it may still end with, from s up
                f = (new_forb[y] >> s) & room
                if f == room:
                    return None  # every size it could still take is forbidden
                new_forb[y] = f << s
        new_act = tuple(i for i in act if self.regions[i].last > p)
        if laid is not None:
            new_act = tuple(sorted(new_act + (laid,)))
        if not self._viable(p, tuple(out), self._covered(new_act)[1], tuple(new_sizes), tuple(new_forb)):
            return None
        return (tuple(out), tuple(new_sizes), tuple(new_forb), tuple(sorted(pairs)), new_act)


def count_frontier(puzzle: Puzzle, *, cuts: bool = False, max_size: int | None = None,
                   deadline: float | None = None, step: Step | None = None) -> int:
    """The exact number of pictures (or ``cuts``) of ``puzzle`` with regions of at most ``max_size`` cells."""
    return FrontierCount(puzzle, cuts=cuts, max_size=max_size, deadline=deadline).count(step)
