"""Exact counting and listing by laying whole regions, with the open cells split into parts counted once each.

The search takes the clued cell with the fewest possible regions left (the first open cell, row-major
along the narrow side, once a part has no clue) and lays every connected region that holds it and fits
the clues (a clue fixes the region's size, two clues in one region must agree) and, for pictures, no
laid region of the same size next to it. The cells still open then fall into connected parts that no
region can join, so each part is counted on its own and the counts multiply. A part's count depends
only on its cells and, for pictures, on the sizes its cells may not take (those of laid regions next to
them): that pair is the cache key. Cuts need no such sizes, so a part is its cells alone.

Each clued cell keeps the list of regions it may have (a bit set over its regions on the bare board,
so cutting it is a few integer operations), filtered down the search and cut against the cells the other
clues' regions certainly hold and against the unclued cells only one clue can still cover, so a clue with
nowhere left to go ends a branch at once. For pictures, a big part is first put to the CNF engine with the
laid cells as assumptions: an unsatisfiable answer ends a dead branch before the search walks it (a
satisfiable one proves nothing and costs nothing but the call). When another open part is still pending
(not yet known to be fillable), the dead one may be that part, so the totals above the check, up to the
first part with nothing pending, are passed up but not cached: wrong only where a zero factor cancels them.
Cell sets are bit masks (bit i = cell i) and every grid search is one of ``fillomino.grid``'s ``bit_*``
functions. The count is exact: no region size is capped unless ``max_size`` says so.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .grid import bit_ball, bit_components, bit_neighbours, bit_spread, set_bits
from .ints import product
from .memory import MemoryGuard, OutOfMemory
from .puzzle import Grid, Puzzle, to_grid

if TYPE_CHECKING:  # the CNF engine imports pysat, which only the CNF checks need
    from .encode.cnf import CnfModel

Step = Callable[[int, int], None]
"""Called as ``step(done, total)`` after each first-level choice of the count."""


class RegionTimeout(Exception):
    """The deadline passed before the count finished."""


class RegionsStuck(Exception):
    """The search met mostly dead ends for longer than ``stuck_after`` parts (see RegionSearch)."""


def _union(table: list[int], cells: int) -> int:
    """The union of ``table[x]`` over the cells of the mask ``cells``: with a Static's ``uses`` (or ``touch``), the
    regions of its list that hold (or touch) one of those cells."""
    out = 0
    for x in set_bits(cells):
        out |= table[x]
    return out


def _stuck(after: int | None, parts: int, dead: int) -> bool:
    """Whether ``after`` parts (None: never) have been met and nine in ten of them were dead ends."""
    return after is not None and parts >= after and dead * 10 > parts * 9


class _TooMany(Exception):
    """More regions than a clued cell's list keeps."""


STATIC_MOST = 20_000
"""A clued cell with more regions than this on the bare board gets no list: its regions are found as needed."""

Alive = dict[int, int]
"""For clued cells, the regions still possible: a bit set over the cell's static list (bit i = regions[i])."""


class Propagated:
    """A part's clued cells after propagation: their lists (``alive``), the cells each one's regions all hold
    (``core``), and the cells of other clues' cores each list was already cut against (``done``). A part below
    starts from these, so it cuts only against what its own laid region made certain."""

    def __init__(self, alive: Alive, core: dict[int, int], done: dict[int, int]) -> None:
        self.alive = alive
        self.core = core
        self.done = done


class Lists:
    """What a part gets from the part above it: the clued cells' lists cut by the region laid there (``alive``) and
    that part's propagated state (``known``, None at the top), which they were cut from."""

    def __init__(self, alive: Alive, known: Propagated | None) -> None:
        self.alive = alive
        self.known = known


@dataclass(frozen=True)
class Static:
    """A clued cell's regions on the bare board, with, for each cell of the board, the bit set of the regions
    that hold it (``uses``) or touch it (``touch``): cutting a list is then a few integer operations."""

    regions: list[int]
    uses: list[int]
    touch: list[int]
    cover: int
    every: int


PROPAGATION_ROUNDS = 4
"""Times the clued cells' lists are cut against each other's certain cells before a region is chosen (each part
goes on from where the part above it stopped, so the rounds add up down the search)."""

SAT_CONFLICTS = 2_000
"""Conflicts one CNF check may spend; past them the part is searched as if the check had not been asked."""

SAT_START = 32
"""CNF checks a search may make before any has refuted a part."""

SAT_CREDIT = 2
"""CNF checks earned by each refutation: the checks go on while at least one in two refutes (one in four kept
them going on the sparse 8x8 of docs/benchmarks-count.md, where half refute but the search ends those parts
as fast)."""

SAT_SAMPLE = 64
"""Past its credit, one eligible part in this many is still put to the CNF engine."""

SAT_CELLS = 20
"""Parts of at least this many cells are first put to the CNF engine (pictures): smaller parts are quicker
searched than asked about."""

POCKET_CELLS = 10
"""Clue-free picture parts of at most this many cells are counted from a table of their pictures' border sizes,
built once per cell set and read for every set of sizes their border may not take."""

POCKET_ROWS = 2_000
"""A pocket's table keeps at most this many rows (distinct border sizes); past them the pocket is searched."""

KILLS_KEPT = 1 << 28
"""Bytes (about) of the cuts of the clued cells' lists by a laid region (see _kill) kept for the next time it is laid: a
region is laid in many parts, so one is reused dozens of times; past this the cuts of new regions are computed each
time. Counted in bytes, not entries, since one cut is an int as long as its clue's list (thousands of bits)."""

DRY = -1
"""The key, in a region's kept cuts (see _kill), of the clued cell whose list it emptied the last time it was laid."""

Part = tuple[int, tuple[tuple[int, int], ...]]
"""A part to count: (its cells as a mask, ((size, mask of the cells that may not take that size), ...))."""

LAYOUTS_KEPT = 5_000
"""A clue-free part's regions (with what each leaves) are kept for its next marks only when there are at most this
many: past that the memory outgrows what a re-enumeration costs."""

Table = dict[tuple[tuple[int, int], ...], int]
"""A clue-free pocket's pictures by their border: ((size, its border cells in regions of that size), ...) -> count."""


class RegionSearch:
    """The region-laying search on one board (pictures, or ``cuts``), with its cache of part counts.

    Boards wider than tall are searched transposed, so the open cells' frontier runs along the
    narrow side; listed solutions are turned back. ``deadline`` (a reading of ``timer``, by default
    time.monotonic) raises RegionTimeout;
    ``stuck_after`` raises RegionsStuck once that many parts are counted and nine in ten were dead (``solutions``
    takes its own).
    ``sat_cells``: picture parts of at least that many cells are put to the CNF engine first when every
    other open part is known to be fillable, or with ``sat_pending`` also while one is pending (None: never); it
    only ends dead branches early. Clue-free picture parts of at most ``pocket_cells`` cells are read from a table
    of their pictures' border sizes when it has at most ``pocket_rows`` rows (0 cells: never).
    ``memory``: when it says the count has taken too much, the caches are trimmed (``_trim``; ``trims`` counts
    them); a cache only saves work, so the count is the same, found more slowly. Past the guard's STOP_SHARE,
    raises fillomino.memory.OutOfMemory.
    """

    def __init__(self, puzzle: Puzzle, *, cuts: bool = False, max_size: int | None = None,
                 deadline: float | None = None, stuck_after: int | None = None,
                 sat_cells: int | None = SAT_CELLS, sat_pending: bool = True,
                 pocket_cells: int = POCKET_CELLS, pocket_rows: int = POCKET_ROWS,
                 timer: Callable[[], float] = time.monotonic, memory: MemoryGuard | None = None) -> None:
        self.puzzle = puzzle
        self.memory = memory
        self.memory_mask = 0 if memory is None else memory.every - 1
        self.trims = 0
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
        self.timer = timer
        self.stuck_after = stuck_after
        self.parts_counted = 0
        self.parts_dead = 0
        self.laid = 0
        """Regions the count laid that ran no list dry and left no part dead at once (a measure of its progress)."""
        self.parts_tried = 0
        """Parts searched for a way to fill them (``_alive``, not answered from a cache), and of those without one:"""
        self.parts_unfillable = 0
        self.list_stuck_after: int | None = None
        self.calls = 0
        self.cache: dict[Part, int] = {}
        self.static: dict[int, Static | None] = {}
        self.kills: dict[int, dict[int, int]] = {}
        self.shorts: dict[int, bool] = {}
        self.kills_kept = 0
        self.alive: dict[Part, bool] = {}
        self.tables: dict[int, Table | None] = {}
        self.layouts: dict[int, list[tuple[int, int, list[tuple[int, int, int]]]]] = {}
        self.pocket_cells = 0 if cuts else pocket_cells
        self.pocket_rows = pocket_rows
        self.label = [0] * self.n
        self.sat_cells = None if cuts else sat_cells
        self.sat: CnfModel | None = None
        self.sat_calls = 0
        self.sat_refuted = 0
        self.sat_eligible = 0
        self.sat_credit = SAT_START
        self.sat_pending = sat_pending
        self.sat_refuted_pending = 0
        self.parts_tainted = 0
        self.tainted = False
        self.clued = sum(1 << i for i, c in enumerate(self.clue) if c)
        self.clue_is = [sum(1 << i for i, c in enumerate(self.clue) if c == v) for v in range(self.n + 1)]
        self.values = sorted({c for c in self.clue if c})
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
            if comp & self.clue_at_least[size + 1] or (comp & self.clued and self._short(comp, size)):
                return None  # a clue larger than the part it is in, or clues needing more cells than it has
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

    def _short(self, comp: int, size: int) -> bool:
        """Whether the clues in the part ``comp`` (of ``size`` cells) need more cells than it has. Clues of different
        sizes lie in different regions, and so do two clues of size v at least v steps apart within the part's cells
        that are unclued or clued v, so the part needs at least v cells for each of a set of v-clues pairwise that far
        apart (picked greedily, a lower bound); and a region of v cells holds at most v of them. Cached per cell
        set."""
        got = self.shorts.get(comp)
        if got is not None:
            return got
        rows, cols = self.rows, self.cols
        need = 0
        short = False
        for v in self.values:
            if need + v > size:
                short = bool(comp & self.clue_at_least[v])
                break
            left = comp & self.clue_is[v]
            if not left:
                continue
            # a region of v cells holds at most v clues of size v, and no clue of another size, so its clues are
            # joined around those
            regions = -(-left.bit_count() // v)
            apart = 0
            through = comp & ~(self.clued ^ self.clue_is[v])
            while left and apart * v + need <= size:
                apart += 1
                left &= ~bit_ball(left & -left, through, v - 1, rows, cols)
            need += v * max(regions, apart)
            if need > size:
                short = True
                break
        self.shorts[comp] = short
        return short

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

    # --- the clued cells' region lists, as bit sets over each cell's static list -----------------

    def _static(self, cell: int) -> Static | None:
        """The regions a clued cell may have on the bare board, or None when there are too many to keep."""
        if cell not in self.static:
            full: Part = ((1 << self.n) - 1, ())
            try:
                found = self._regions(full, 1 << cell, STATIC_MOST)
            except _TooMany:
                self.static[cell] = None
                return None
            regions = [r for r, _ in found]
            uses = [0] * self.n
            touch = [0] * self.n
            cover = 0
            for i, r in enumerate(regions):
                bit = 1 << i
                cover |= r
                for c in set_bits(r):
                    uses[c] |= bit
                for c in set_bits(bit_spread(r, self.rows, self.cols) & ~r):
                    touch[c] |= bit
            self.static[cell] = Static(regions, uses, touch, cover, (1 << len(regions)) - 1)
        return self.static[cell]

    def _listed(self, cell: int, part: Part) -> int | None:
        """The bit set of ``cell``'s static regions that fit ``part`` (its cells and its marks); None if unlisted."""
        st = self._static(cell)
        if st is None:
            return None
        mask, marks = part
        alive = st.every
        uses = st.uses
        gone = _union(uses, st.cover & ~mask)
        size = self.clue[cell]
        for k, cells in marks:
            if k == size:
                gone |= _union(uses, cells & st.cover)
        return alive ^ (alive & gone)

    def _choices(self, part: Part, lists: Lists | None) -> tuple[list[tuple[int, int]], Propagated | None]:
        """The regions to try in ``part`` and the clued cells' lists propagated in it, which they cut from.

        The clued cell with the fewest regions left after propagation goes first (a dead clue ends the
        branch at once); a part with no listed clue lays the region of its first clued cell, or of its
        first cell."""
        mask, _ = part
        clued = mask & self.clued
        if not clued:
            return self._regions(part, mask & -mask), None
        given = lists.alive if lists is not None else None
        valid: Alive = {}
        unlisted = 0
        for c in set_bits(clued):
            alive = given.get(c) if given else None
            if alive is None:
                alive = self._listed(c, part)
                if alive is None:
                    unlisted = unlisted or 1 << c
                    continue
            if not alive:
                return [], None
            valid[c] = alive
        if not valid:
            return self._regions(part, unlisted), None
        # the parts below take the propagated lists: a cut made here against a clue left in another part below
        # removes only regions that cannot reach that part, so no part's count depends on a clue outside it
        prop = self._propagate(part, valid, not unlisted, lists.known if lists is not None else None)
        if prop is None:
            return [], None
        best = min(valid, key=lambda c: (valid[c].bit_count(), c))
        size = self.clue[best]
        st = self.static[best]
        assert st is not None  # a clue with a list has its static regions kept
        regions = st.regions
        return [(regions[i], size) for i in set_bits(valid[best])], prop

    def _core(self, cell: int, alive: int, known: int = 0) -> int:
        """The cells every region left in ``alive`` holds (each is in its first region); ``known`` are some of them
        already (the core of a list ``alive`` was cut from)."""
        st = self.static[cell]
        assert st is not None  # a clue with a list has its static regions kept
        uses = st.uses
        core = known
        for c in set_bits(st.regions[(alive & -alive).bit_length() - 1] & ~known):
            if alive & uses[c] == alive:
                core |= 1 << c
        return core

    def _free(self, part: Part) -> int:
        """The unclued cells of a picture's part that a region holding no clue could cover (an over-estimate:
        a connected run of cells that allow some size k, next to no clue k, at least k cells long)."""
        mask, marks = part
        open_ = mask & ~self.clued
        if not open_:
            return 0
        banned = dict(marks)
        free = 0
        rows, cols = self.rows, self.cols
        for k in range(1, min(self.cap, open_.bit_count()) + 1):
            room = open_ & ~banned.get(k, 0) & ~bit_spread(self.clue_is[k] & mask, rows, cols)
            if k == 1:
                free |= room
            else:
                for comp in bit_components(room, rows, cols):
                    if comp.bit_count() >= k:
                        free |= comp
            if free == open_:
                break
        return free

    def _propagate(self, part: Part, valid: Alive, cover_check: bool,
                   known: Propagated | None = None) -> Propagated | None:
        """Cut the lists ``valid`` (in place) against the cells each clued cell's region certainly holds, and against
        the cells only one clue can still reach; None when a list runs dry or a cell can be covered by nothing.
        ``known``: the state of the part above, which these lists were cut from: what was cut there is not cut again.

        A region may not take a cell certain for a clue of another size; for pictures it may not touch a
        cell certain for a clue of its own size either (that cell is in another region of the same size, or
        in its own and then the region would have to hold it); a cell certain for another clue of its size
        it may take only as that clue's region. With ``cover_check`` (every clue listed), an unclued cell
        that no region without a clue can cover needs a clue region: with no candidate the part is dead,
        with one that clue's region must hold it."""
        clue, static, cuts = self.clue, self.static, self.cuts
        need = 0
        if cover_check and not cuts:  # in a cut any unclued cell may be a region of one
            need = part[0] & ~self.clued
            if need:
                need &= ~self._free(part)
        cores: dict[int, int] = {}
        done: dict[int, int] = {}
        by_value: dict[int, list[int]] = {}
        for c, alive in valid.items():
            old = known.core.get(c) if known is not None else None
            if old is None or known is None:
                cores[c] = self._core(c, alive)
                done[c] = 0
            else:
                # cores only grow as lists shrink, and a list cut against some cells stays cut against them
                cores[c] = old if known.alive[c] == alive else self._core(c, alive, old)
                done[c] = known.done[c]
            group = by_value.get(clue[c])
            if group is None:
                by_value[clue[c]] = [c]
            else:
                group.append(c)
        for _ in range(PROPAGATION_ROUNDS):
            every = 0
            twice = 0
            by_size: dict[int, int] = {}
            for c, core in cores.items():
                twice |= every & core
                every |= core
                by_size[clue[c]] = by_size.get(clue[c], 0) | core
            changed = False
            for c, alive in valid.items():
                st = static[c]
                assert st is not None  # a clue with a list has its static regions kept
                core = cores[c]
                # the cells certain for some other clue that this list was not yet cut against
                fresh = ((every ^ core) | (twice & core)) & st.cover & ~done[c]
                if not fresh:
                    continue
                done[c] |= fresh
                v = clue[c]
                uses = st.uses
                new = alive
                mine = fresh & by_size[v]
                other = fresh ^ mine
                if other:
                    new ^= new & _union(uses, other)
                if mine:
                    if not cuts:
                        new ^= new & _union(st.touch, mine)
                    for d in by_value[v]:
                        shared = cores[d] & mine
                        if shared and d != c:
                            # a region takes d's certain cells exactly when it is d's region too (holds d)
                            for x in set_bits(shared):
                                new ^= new & (uses[d] ^ uses[x])
                if new != alive:
                    if not new:
                        return None
                    valid[c] = new
                    cores[c] = self._core(c, new, core)
                    changed = True
            if need:
                for x in set_bits(need):
                    holder = None
                    many = False
                    for c, alive in valid.items():
                        st = static[c]
                        assert st is not None
                        if alive & st.uses[x]:
                            if holder is None:
                                holder = c
                            else:
                                many = True
                                break
                    if holder is None:
                        return None
                    if not many:
                        need &= ~(1 << x)
                        st = static[holder]
                        assert st is not None
                        new = valid[holder] & st.uses[x]
                        if new != valid[holder]:
                            valid[holder] = new
                            cores[holder] = self._core(holder, new, cores[holder])
                            changed = True
            if not changed:
                break
        return Propagated(valid, cores, done)

    def _children(self, part: Part, region: int, size: int,
                  prop: Propagated | None) -> tuple[list[Part], Lists | None] | None:
        """The parts left once ``region`` is laid in ``part`` and the other clues' lists (``prop``, propagated in
        ``part``) cut to fit them; None when a part or a list is dead."""
        if prop is None:
            parts = self._after(part, region, size)
            return None if parts is None else (parts, None)
        lists = prop.alive
        kills = self.kills.get(region)
        if kills is None:
            kills = {}
            if self.kills_kept < KILLS_KEPT:
                self.kills[region] = kills
        # most regions tried leave some clue no room, mostly the clue that ran dry the last time: ask it first
        first = kills.get(DRY, DRY)
        if first != DRY:
            alive = lists.get(first)
            if alive is not None and alive & kills[first] == alive:
                return None
        out: Alive = {}
        for d, alive in lists.items():
            if (region >> d) & 1:
                continue
            kill = kills.get(d)
            if kill is None:
                kill = kills[d] = self._kill(d, region, size)
                self.kills_kept += kill.bit_length() // 8 + 64  # the int and its dict entry
            if kill:
                # an untouched list is passed on as the same int: no copy, and the part below sees it unchanged
                hit = alive & kill
                if hit:
                    alive ^= hit
                    if not alive:
                        kills[DRY] = d
                        return None
            out[d] = alive
        parts = self._after(part, region, size)
        return None if parts is None else (parts, Lists(out, prop))

    def _kill(self, d: int, region: int, size: int) -> int:
        """The bit set of clued cell ``d``'s static regions that laying ``region`` (of ``size`` cells) rules out:
        those holding one of its cells, and for pictures of d's size those touching it. d's list is already cut
        to its part, so the cells around ``region`` outside the part change nothing: this is the part's own cut."""
        st = self.static[d]
        assert st is not None  # a clue with a list has its static regions kept
        uses, cover = st.uses, st.cover
        hit = region & cover
        if not self.cuts and self.clue[d] == size:
            hit |= bit_spread(region, self.rows, self.cols) & ~region & cover
        return _union(uses, hit)

    # --- counting --------------------------------------------------------------------------------

    def _tick(self) -> None:
        self.calls += 1
        # Every call: on a big board one call (a CNF check, a propagation) can take most of a second.
        if self.deadline is not None and self.timer() > self.deadline:
            raise RegionTimeout
        if self.memory is not None and not self.calls & self.memory_mask:
            self._mind(self.memory)

    def _mind(self, memory: MemoryGuard) -> None:
        """Trim the caches when the guard says so; raise OutOfMemory when trimming has not held the count down."""
        if memory.over():
            self._trim(memory)
        if memory.exhausted():
            raise OutOfMemory

    def _trim(self, memory: MemoryGuard) -> None:
        """Drop the older half of the part counts (the clues' static regions stay: the lists are built on them), every
        clue-free pocket's regions and table (most of the memory: up to LAYOUTS_KEPT regions each, built again
        when next asked), and the CNF model with the clauses it learnt (built again on its next question)."""
        for cache in (self.cache, self.alive, self.shorts):
            _drop_older_half(cache)
        self.layouts.clear()
        self.tables.clear()
        self.kills.clear()
        self.kills_kept = 0
        if self.sat is not None:
            self.sat.close()
            self.sat = None
        self.trims += 1
        memory.trimmed()

    def _count(self, part: Part, lists: Lists | None, others: int, pending: int, step: Step | None = None) -> int:
        """The number of ways to fill ``part``. ``others`` are the open cells outside it, ``pending`` those of
        them in parts not yet known to be fillable. With nothing pending, a SAT check of the whole board
        around the laid cells (``self.label``) fails only when this part cannot be filled (every other open
        part can), so its answer depends on the part alone and the count stays cacheable. A check made while
        something is pending may refute for a pending part's sake: then ``self.tainted`` keeps every total
        above it out of the cache until a part with nothing pending is done (the pending part, counted
        later, is 0 and zeroes the product those totals went into; or it is not, and they were right)."""
        got = self.cache.get(part)
        if got is not None:
            return got
        self._tick()
        if part[0].bit_count() <= self.pocket_cells and not part[0] & self.clued:
            got = self._pocket(part)
            if got is not None:
                # read from the pocket's table: no CNF check was made, so nothing is tainted
                return self._counted(part, got)
        outer, self.tainted = self.tainted, False
        total = 0
        free = self.pocket_cells and not part[0] & self.clued
        if free:
            laid = self._pocket_children(part)
            choices, prop = [(region, size) for region, size, _ in laid], None
        else:
            choices, prop = self._choices(part, lists)
        check = bool(choices) and self._ask_sat(part, pending)
        if check and self._refuted(part[0] | others, pending):
            choices = []
        label = self.label
        for i, (region, size) in enumerate(choices):
            found = (laid[i][2], None) if free else self._children(part, region, size, prop)
            if found is not None:
                parts, below = found
                self.laid += 1
                if self.sat_cells is not None:
                    mark = size if region & self.clued else -size  # negative: a region without a clue
                    for c in set_bits(region):
                        label[c] = mark
                # several parts: one SAT check settles whether their product is zero
                if check and len(parts) > 1 and self._refuted((part[0] & ~region) | others, pending):
                    found = None
            if found is not None:
                total += self._times(parts, below, others, pending)
            if step is not None:
                step(i + 1, len(choices))
        if self.tainted and pending:
            # a refutation below may have blamed a pending part: if that part is dead the product this
            # total goes into is 0 whatever it is, if not the total is right; so pass it up, uncached
            self.parts_tainted += 1
            return total
        self.tainted = outer
        return self._counted(part, total)

    def _counted(self, part: Part, total: int) -> int:
        """Cache ``part``'s exact count and keep the tally ``stuck_after`` reads."""
        self.cache[part] = total
        self.parts_counted += 1
        self.parts_dead += not total
        if _stuck(self.stuck_after, self.parts_counted, self.parts_dead):
            raise RegionsStuck  # nine parts in ten dead: the clues need propagation this search lacks
        return total

    # --- clue-free pockets, by table ---------------------------------------------------------------

    def _table(self, mask: int) -> Table | None:
        """The pictures of the clue-free cells ``mask`` with no outside constraint, grouped by the sizes of the
        regions on its border (the only cells a laid region outside can touch); None past ``pocket_rows`` rows.

        The region of the pocket's first cell is laid every way it can be; what is left splits into smaller
        pockets whose tables, less the rows where a region of the same size touches the laid one, multiply."""
        if mask in self.tables:
            return self.tables[mask]
        self._tick()
        rows, cols = self.rows, self.cols
        border = mask & bit_spread(((1 << self.n) - 1) & ~mask, rows, cols)
        table: Table = {}
        for region, size in self._regions((mask, ()), mask & -mask):
            rest = mask & ~region
            near = bit_spread(region, rows, cols) & rest
            own = region & border
            ways: Table = {((size, own),) if own else (): 1}
            for comp in bit_components(rest, rows, cols):
                sub = self._table(comp)
                if sub is None:
                    self.tables[mask] = None
                    return None
                kept: Table = {}
                for sig, n in sub.items():
                    proj = []
                    for k, cells in sig:
                        if k == size and cells & near:
                            break  # a region of the laid one's size beside it
                        if cells & border:
                            proj.append((k, cells & border))
                    else:
                        key = tuple(proj)
                        kept[key] = kept.get(key, 0) + n
                if len(ways) * len(kept) > 4 * self.pocket_rows:
                    self.tables[mask] = None  # the product would take longer to form than the search
                    return None
                ways = _product(ways, kept)
                if not ways:
                    break
                if len(ways) > self.pocket_rows:
                    self.tables[mask] = None
                    return None
            for sig, n in ways.items():
                table[sig] = table.get(sig, 0) + n
            if len(table) > self.pocket_rows:
                self.tables[mask] = None
                return None
        self.tables[mask] = table
        return table

    def _pocket_children(self, part: Part) -> list[tuple[int, int, list[Part]]]:
        """For a clue-free picture part: each region its first cell may have, with the parts left once it is laid
        (as ``_regions`` and ``_after`` give them), from the part's layouts without marks, filtered by its marks."""
        mask, marks = part
        layouts = self.layouts.get(mask)
        if layouts is None:
            rows, cols, cap = self.rows, self.cols, self.cap
            layouts = []
            for region, size in self._regions((mask, ()), mask & -mask):
                rest = mask & ~region
                near = bit_spread(region, rows, cols) & rest
                pieces = sorted(bit_components(rest, rows, cols), key=int.bit_count)
                layouts.append((region, size, [(comp, near & comp, min(comp.bit_count(), cap)) for comp in pieces]))
            if len(layouts) <= LAYOUTS_KEPT:
                self.layouts[mask] = layouts
        banned = dict(marks)
        out = []
        for region, size, comps in layouts:
            if region & banned.get(size, 0):
                continue  # a region of a size its cells may not take
            sizes = sorted(set(banned) | {size})
            parts = []
            for comp, near, top in comps:
                kept = []
                for k in sizes:
                    if k > top:
                        break
                    cells = banned.get(k, 0)
                    if k == size:
                        cells |= near
                    cells &= comp
                    if cells:
                        kept.append((k, cells))
                parts.append((comp, tuple(kept)))
            out.append((region, size, parts))
        return out

    def _pocket(self, part: Part) -> int | None:
        """A clue-free part's count read from its table (the rows whose border sizes avoid the part's marks), or
        None when the pocket has too many rows for a table."""
        table = self._table(part[0])
        if table is None:
            return None
        marks = part[1]
        if not marks:
            return sum(table.values())
        banned = dict(marks)
        total = 0
        for sig, n in table.items():
            for k, cells in sig:
                if cells & banned.get(k, 0):
                    break
            else:
                total += n
        return total

    def _times(self, parts: list[Part], lists: Lists | None, around: int, pending: int,
               step: Step | None = None) -> int:
        """The product of the parts' counts; ``around`` are the open cells outside them, ``pending`` those of them
        not known to be fillable. For pictures, a later part under ``sat_cells`` cells is first shown fillable by
        the search itself (one way suffices), so it is not pending while the earlier parts are counted: a CNF
        refutation there then blames the part being counted and its total is cached instead of passed up."""
        union = 0
        for p in parts:
            union |= p[0]
        proven = 0
        if self.sat_cells is not None and len(parts) > 1:
            for q in parts[1:]:
                if q[0].bit_count() < self.sat_cells:
                    if not self._alive(q, lists):
                        return 0
                    proven |= q[0]
        rest = union
        ways = 1
        for i, p in enumerate(parts):
            rest &= ~p[0]
            ways = product(ways, self._count(p, lists, around | (union & ~p[0]), pending | (rest & ~proven),
                                             step if i == 0 else None))
            if not ways:
                return 0
        return ways

    def clue_model(self) -> CnfModel:
        """The CNF engine's model of this board's pictures with its clues pinned (built on first use)."""
        if self.sat is None:
            from .encode.cnf import DEFAULT_ENGINE

            engine = DEFAULT_ENGINE
            cap = None if self.cap >= self.n else self.cap
            self.sat = engine.model(self.rows, self.cols, self.clue, k=engine.start_k(cap), big=cap is None)
            self.sat.pin([self.sat.lit(c, v) for c, v in enumerate(self.clue) if v])
        return self.sat

    def sat_refutes(self, labels: Iterable[tuple[int, int]]) -> bool:
        """Whether clue_model proves within SAT_CONFLICTS conflicts that no picture gives these cells these labels
        (the model's own: BIG for a size above its K without a clue; a label it has no literal for is left out).
        Sound as a refutation only: a satisfiable abstract answer, or an undecided one, proves nothing."""
        from .clock import Clock
        from .encode.cnf import Interrupted

        model = self.clue_model()
        assume = [model.lit(c, v) for c, v in labels if model.has(c, v)]
        try:
            # a conflict allowance, not a timer thread per call: an undecided call refutes nothing
            return model.solve(assume, Clock(conflicts=SAT_CONFLICTS)) is None
        except Interrupted:
            return False

    def _refuted(self, open_mask: int, pending: int = 0) -> bool:
        """Whether the CNF engine proves that the open cells cannot be filled around the laid ones (pictures
        only: its model has no cuts). With ``pending`` cells the dead part may be one of theirs: the refutation
        taints (see _count)."""
        from .encode.cnf import BIG

        k = self.clue_model().k
        labels = []
        for c in set_bits(((1 << self.n) - 1) & ~open_mask):
            v = self.label[c]
            if v < 0:
                v = BIG if -v > k else -v  # the model's abstract label: above K without a clue is BIG
            labels.append((c, v))
        self.sat_calls += 1
        self.sat_credit -= 1
        refuted = self.sat_refutes(labels)
        if refuted:
            self.sat_refuted += 1
            self.sat_credit += SAT_CREDIT
            if pending:
                self.sat_refuted_pending += 1
                self.tainted = True
        return refuted

    def _ask_sat(self, part: Part, pending: int) -> bool:
        """Whether to put this part to the CNF engine: big, nothing pending (or ``sat_pending``), and the checks
        are paying off (each call spends a credit, each refutation earns SAT_CREDIT; without credit, one eligible
        part in SAT_SAMPLE is still asked). Decided by counts, never by the clock, so a board always takes the
        same path."""
        if (pending and not self.sat_pending) or self.sat_cells is None or part[0].bit_count() < self.sat_cells:
            return False
        self.sat_eligible += 1
        if self.sat_credit > 0:
            return True
        return self.sat_eligible % SAT_SAMPLE == 0

    def count(self, step: Step | None = None) -> int:
        """The exact number of pictures (or cuts); raises RegionTimeout past the deadline.

        ``step(done, total)`` hears of each region tried for the first clue laid."""
        with _deep_recursion(self.n):
            parts = self._parts((1 << self.n) - 1, {})
            if parts is None:
                return 0
            return self._times(parts, None, 0, 0, step)

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
        if part[0].bit_count() <= self.pocket_cells and not part[0] & self.clued:
            got = self._pocket(part)
            if got is not None:
                self.alive[part] = got > 0
                return got > 0
        choices, prop = self._choices(part, lists)
        ok = False
        for region, size in choices:
            found = self._children(part, region, size, prop)
            if found is not None and all(self._alive(p, found[1]) for p in found[0]):
                ok = True
                break
        self.alive[part] = ok
        self.parts_tried += 1
        self.parts_unfillable += not ok
        if _stuck(self.list_stuck_after, self.parts_tried, self.parts_unfillable):
            raise RegionsStuck  # listing through dead ends the CNF engine's propagation would cut
        return ok

    def _list(self, part: Part, lists: Lists | None) -> Iterator[list[tuple[int, int]]]:
        """Every way to fill ``part``, as lists of (region mask, size); dead branches are cut before entering."""
        self._tick()
        choices, prop = self._choices(part, lists)
        for region, size in choices:
            found = self._children(part, region, size, prop)
            if found is None or not all(self._alive(p, found[1]) for p in found[0]):
                continue
            for rest in self._product(found[0], 0, found[1]):
                rest.append((region, size))
                yield rest

    def _product(self, parts: list[Part], i: int, lists: Lists | None) -> Iterator[list[tuple[int, int]]]:
        if i == len(parts):
            yield []
            return
        for mine in self._list(parts[i], lists):
            for rest in self._product(parts, i + 1, lists):
                yield rest + mine

    def solutions(self, stuck_after: int | None = None) -> Iterator[Grid]:
        """Every picture as a label grid, or for cuts every cut as a region-id grid (ids 1.. in row-major order
        of each region's first cell), in the search's order; raises RegionTimeout past the deadline, and with
        ``stuck_after`` RegionsStuck when, before the first solution, that many parts were searched for a way to
        fill them and nine in ten had none (counted in parts, not seconds: a board always stops at the same
        point). Once a solution is found the search goes on, as the dead ends are then behind it."""
        self.list_stuck_after = stuck_after
        with _deep_recursion(self.n):
            parts = self._parts((1 << self.n) - 1, {})
            if parts is None:
                return
            for regions in self._product(parts, 0, None):
                self.list_stuck_after = None
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


def _drop_older_half(cache: dict[Any, Any]) -> None:
    """Remove the first-inserted half of ``cache``'s entries."""
    for key in list(cache)[:(len(cache) + 1) // 2]:
        del cache[key]


def _product(left: Table, right: Table) -> Table:
    """Two disjoint pockets' tables as one: every pair of rows, their border cells joined size by size."""
    out: Table = {}
    for a, m in left.items():
        for b, n in right.items():
            if not a:
                key = b
            elif not b:
                key = a
            else:
                joined = dict(a)
                for k, cells in b:
                    joined[k] = joined.get(k, 0) | cells
                key = tuple(sorted(joined.items()))
            out[key] = out.get(key, 0) + product(m, n)
    return out


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
