"""The techniques of the ladder: each a small function of the candidate grid returning the steps it
finds (all valid on the grid as it is), with a name and a level. The solver runs the gentlest one that
makes progress. A technique that finds a broken rule raises Contradiction.

The room of a group of size v is the set of cells connected to it through cells that still allow v.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from itertools import compress
from operator import itemgetter, ne
from typing import Any, cast

from ..clock import Work, past
from ..grid import (
    bit_ball,
    bit_components,
    bit_mask,
    bit_planes,
    bit_spread,
    boundary,
    component,
    component_sizes,
    components,
    cut_cells,
    distances,
    find_root,
    group_of,
    grow,
    set_bits,
)
from ..ints import product
from .candidates import Board, Contradiction, Group, bit, cell_names, single, values_of
from .steps import LEVELS, LogicStep

DIRTY_MAX = 32
"""More changed cells than this: the technique looks at the whole grid (telling what they touch costs more)."""

DIRTY_BIG = 1024
DIRTY_SHARE = 8
"""On a grid of more than DIRTY_BIG cells a technique looks only near the changed cells up to one cell in DIRTY_SHARE
changed, not DIRTY_MAX: a whole-grid look there costs far more than telling what the changes touch (janko-330,
3200 cells: a rating's CPU x0.79, inside the look-ahead's trials most of all; at 400 and 900 cells no gain)."""

WORK_COUNTED = frozenset({"no_room"})
"""Techniques whose Work checks (one per size of each area they look at) depend on how much of the grid they look
at: under a Work budget they keep DIRTY_MAX on every grid, so that the budget stops where it always did (and a
generator's puzzles stay the same)."""

POCKET_TRIES = 512
"""Most assignments pair/pocket try in one area; a bigger area is left to other techniques (never guessed)."""


@dataclass(frozen=True)
class Lookahead:
    """What the two look-ahead techniques run inside a hypothesis: the techniques up to ``hard_inner`` for at
    most ``hard_passes`` passes (short_contradiction, hard) and up to ``expert_inner`` for ``expert_passes``
    (contradiction, expert). Any choice is sound (a rule the inner techniques break refutes the hypothesis);
    a cheaper one finds fewer refutations, so a puzzle may rate harder or stay unrated."""

    name: str
    hard_inner: str = "medium"
    hard_passes: int = 6
    expert_inner: str = "hard"
    expert_passes: int = 20

    def __post_init__(self) -> None:
        # a look-ahead running itself inside its own hypotheses would never end
        for inner, level in ((self.hard_inner, "hard"), (self.expert_inner, "expert")):
            if inner not in LEVELS or LEVELS.index(inner) >= LEVELS.index(level):
                raise ValueError(f"the techniques inside a {level} hypothesis must be gentler than {level}, "
                                 f"not {inner!r}")


LOOKAHEADS: dict[str, Lookahead] = {
    "full": Lookahead("full"),
    "flat": Lookahead("flat", expert_inner="medium"),
    "easy": Lookahead("easy", hard_inner="easy", expert_inner="medium"),
    "short": Lookahead("short", hard_inner="easy", expert_inner="medium", expert_passes=8),
}
"""The look-ahead presets. full (the default): medium inside a hard hypothesis, hard (itself a look-ahead)
inside an expert one. flat: no look-ahead inside a look-ahead. easy: flat, and only the easy techniques inside
a hard hypothesis. short: easy, and at most 8 passes inside an expert hypothesis."""


def lookahead_of(value: str | Lookahead) -> Lookahead:
    """A preset by name (or a Lookahead as it is); ValueError on an unknown name."""
    if isinstance(value, Lookahead):
        return value
    if value not in LOOKAHEADS:
        raise ValueError(f"lookahead must be one of {', '.join(LOOKAHEADS)}, not {value!r}")
    return LOOKAHEADS[value]


@dataclass
class Context:
    """What a technique may need beyond the grid: the clues (for naming groups) and the solver (for the
    look-ahead techniques)."""

    clues: Sequence[int]
    solve: Callable | None = None
    deadline: float | Work | None = None
    nested: bool = False
    """Inside a look-ahead: only the cells' own candidates are tried, not the growth of groups."""
    dirty: set[int] | None = None
    """The cells changed since this technique last found nothing on this grid (None: look everywhere).
    Candidates only shrink, so whatever reads none of these cells still finds nothing."""
    lookahead: Lookahead = field(default_factory=lambda: LOOKAHEADS["full"])
    """What the look-ahead techniques run inside a hypothesis."""
    incremental: bool = True
    """Whether solver runs, the look-ahead's included, look again only at what changed (see solver.solve)."""
    witness: Callable[[], list[int] | None] | None = None
    """Gives one solution of the puzzle (row-major) or None; the top-level look-ahead skips the hypotheses it
    satisfies (see _refute). None: skip nothing."""
    trials: Trials | None = None
    """The look-ahead's trials already run, with their outcomes (see Trials; None: run every one)."""

    def __init__(self, clues: Sequence[int], solve: Callable | None = None, deadline: float | Work | None = None,
                 nested: bool = False, dirty: set[int] | None = None, lookahead: Lookahead | None = None,
                 incremental: bool = True, witness: Callable[[], list[int] | None] | None = None,
                 trials: Trials | None = None) -> None:
        # written out: compiled, the __init__ dataclass generates would run interpreted (one a solve, look-ahead
        # trials included)
        self.clues = clues
        self.solve = solve
        self.deadline = deadline
        self.nested = nested
        self.dirty = dirty
        self.lookahead = LOOKAHEADS["full"] if lookahead is None else lookahead
        self.incremental = incremental
        self.witness = witness
        self.trials = trials


def dirty_of(b: Board, name: str, deadline: float | Work | None) -> set[int] | None:
    """What a technique looks at on this grid when incremental (see Context.dirty): the cells logged since it last
    found nothing here, or None (the whole grid) when it never did or more cells changed than ``dirty_max``; an
    empty set: nothing changed, it is passed over. Either way its steps are the same (tests/test_logic.py).
    ``deadline``: the run's (a Work budget keeps WORK_COUNTED's techniques at DIRTY_MAX)."""
    since = b.clean.get(name)
    if since is None:
        return None
    dirty = set(b.log[since:])
    return None if len(dirty) > dirty_max(b, name, deadline) else dirty


def dirty_max(b: Board, name: str, deadline: float | Work | None) -> int:
    """The most changed cells a technique looks near before it looks at the whole grid instead."""
    if b.size <= DIRTY_BIG or isinstance(deadline, Work) and name in WORK_COUNTED:
        return DIRTY_MAX
    return b.size // DIRTY_SHARE


@dataclass
class Pass:
    """Steps found by one technique on one grid: later steps keep only what earlier ones did not already do."""

    board: Board
    technique: str
    level: str
    quiet: bool = False
    """Inside a look-ahead's run: only the masks of a removal are kept (its lists stay empty) and a sentence given
    as a function is worked out only when read (a refutation reads the last one), since nothing else reads them."""
    steps: list[LogicStep] = field(default_factory=list)
    gone: dict[int, int] = field(default_factory=dict)
    placed: dict[int, int] = field(default_factory=dict)

    def __init__(self, board: Board, technique: str, level: str, quiet: bool = False) -> None:
        # written out: compiled, the __init__ dataclass generates would run interpreted (one a technique call)
        self.board = board
        self.technique = technique
        self.level = level
        self.quiet = quiet
        self.steps = []
        self.gone = {}
        self.placed = {}

    def add(self, cells: Sequence[int], sentence: str | Callable[[], str], removes: dict[int, int] | None = None,
            place: dict[int, int] | None = None) -> None:
        b = self.board
        rem: dict[int, list[int]] = {}
        masks: dict[int, int] = {}
        quiet = self.quiet
        for c, mask in (removes or {}).items():
            mask &= b.cand[c] & ~self.gone.get(c, 0)
            if mask:
                self.gone[c] = self.gone.get(c, 0) | mask
                rem[c] = [] if quiet else values_of(mask)
                masks[c] = mask
        pl: dict[int, int] = {}
        for c, v in (place or {}).items():
            if b.cand[c] == bit(v) or self.placed.get(c) == v:
                continue
            self.placed[c] = v
            pl[c] = v
        if rem or pl:
            if isinstance(sentence, str):
                self.steps.append(LogicStep(self.technique, self.level, list(cells), sentence, rem, pl, masks=masks))
            elif quiet:
                self.steps.append(LogicStep(self.technique, self.level, list(cells), "", rem, pl, masks=masks,
                                            later=sentence))
            else:
                self.steps.append(LogicStep(self.technique, self.level, list(cells), sentence(), rem, pl, masks=masks))


class Allow:
    """Membership of cells that allow size v in a candidate list (for the grid searches)."""

    __slots__ = ("cand", "b")

    def __init__(self, cand: Sequence[int], v: int) -> None:
        self.cand, self.b = cand, bit(v)

    def __contains__(self, i: int) -> bool:
        return bool(self.cand[i] & self.b)

    def __getitem__(self, i: int) -> bool:
        """The same test by subscript, as on a list of bools (see allowing)."""
        return bool(self.cand[i] & self.b)


ALLOW_LISTS_MAX = 1024
"""Largest grid whose per-size membership lists (``allowing``) are built whole: on a bigger one a search near a few
cells would pay more for the list than for its tests."""


def allowing(b: Board, v: int) -> list[bool] | Allow:
    """Membership of the cells that allow size v, for the grid searches: a list of bools kept for the grid as it is
    (tested at C speed, and shared by the techniques of a pass; callers that change an entry put it back), or on a
    grid bigger than ALLOW_LISTS_MAX an Allow."""
    if b.size > ALLOW_LISTS_MAX:
        return Allow(b.cand, v)
    kept: tuple[int, dict[int, list[bool]]] | None = b.derived.get("allows")
    if kept is None or kept[0] != len(b.log):
        kept = (len(b.log), {})
        b.derived["allows"] = kept
    allow = kept[1].get(v)
    if allow is None:
        allow = kept[1][v] = b.allows(v)
    return allow


def allow_list(b: Board, v: int) -> list[bool]:
    """``allowing`` as a list always (on a big grid a fresh one), for searches that mark cells in it."""
    allow = allowing(b, v)
    return allow if isinstance(allow, list) else b.allows(v)


class Near:
    """Whether a box of the grid lies within a distance of some changed cell (the cells of ``ctx.dirty``, and with
    ``grown`` the whole of every group holding one, whose size changed). Distances are to the box, so that a
    "no" is certain and a "yes" at worst makes a technique look at something that did not change."""

    __slots__ = ("points", "lo_r", "hi_r", "lo_c", "hi_c", "cols", "rows", "mask", "within", "few", "starts")

    def __init__(self, b: Board, cells: set[int]) -> None:
        cols = self.cols = b.cols
        self.rows = b.rows
        self.points = [(c // cols, c % cols) for c in cells]
        rs = [r for r, _ in self.points] or [0]
        cs = [c for _, c in self.points] or [0]
        self.lo_r, self.hi_r, self.lo_c, self.hi_c = min(rs), max(rs), min(cs), max(cs)
        self.mask: int | None = None
        self.within: list[int] = []
        self.few = len(self.points) <= 4
        self.starts: list[int] | None = None

    def _within(self, d: int) -> int:
        """The grid cells within distance d of a point, as a cell mask: grown one step at a time, each step kept."""
        if self.mask is None:
            self.mask = bit_mask(r * self.cols + c for r, c in self.points)
            self.within.append(self.mask)
        within = self.within
        while len(within) <= d:
            x = within[-1]
            y = bit_spread(x, self.rows, self.cols)
            if y == x:
                return x  # the whole reachable grid: no farther step adds a cell
            within.append(y)
        return within[d]

    def box(self, box: tuple[int, int, int, int], d: int) -> bool:
        r0, r1, c0, c1 = box
        points = self.points
        if not points:
            return False
        # max(0, x, y) written out: this test runs for every group and cell a technique might look at
        x, y = self.lo_r - r1, r0 - self.hi_r
        gap_r = x if x > y else y
        x, y = self.lo_c - c1, c0 - self.hi_c
        gap_c = x if x > y else y
        if (gap_r if gap_r > 0 else 0) + (gap_c if gap_c > 0 else 0) > d:
            return False
        if self.few:
            for r, c in points:
                x, y = r0 - r, r - r1
                gap_r = x if x > y else y
                x, y = c0 - c, c - c1
                gap_c = x if x > y else y
                if (gap_r if gap_r > 0 else 0) + (gap_c if gap_c > 0 else 0) <= d:
                    return True
            return False
        # many points: the box's grid cells against the cells within d of a point (the nearest point of a box
        # that meets the grid to a grid cell is a grid cell, and on a full grid walking distance is |dr| + |dc|)
        r0, r1, c0, c1 = max(r0, 0), min(r1, self.rows - 1), max(c0, 0), min(c1, self.cols - 1)
        if r0 > r1 or c0 > c1:
            return any(max(0, box[0] - r, r - box[1]) + max(0, box[2] - c, c - box[3]) <= d for r, c in self.points)
        starts = self.starts
        if starts is None:
            starts = self.starts = _row_starts(self.rows, self.cols)
        segment = ((1 << (c1 - c0 + 1)) - 1) << c0
        cells = product(segment, starts[r1 - r0 + 1]) << (r0 * self.cols)
        within = self.within
        return bool(cells & (within[d] if d < len(within) else self._within(d)))

    def cell(self, i: int, d: int) -> bool:
        r, c = divmod(i, self.cols)
        return self.box((r, r, c, c), d)


@lru_cache(maxsize=64)
def _row_starts(rows: int, cols: int) -> list[int]:
    """k -> one bit at the start of each of k rows: a row's segment times it repeats the segment down k rows."""
    out = [0]
    for k in range(rows):
        out.append(out[-1] | 1 << (k * cols))
    return out


def grown(b: Board, dirty: set[int]) -> set[int]:
    """The changed cells and every cell of a group that holds one (a group changes only by taking a changed cell)."""
    out = set(dirty)
    for c in dirty:
        g = b.group_at(c)
        if g is not None:
            out.update(g.cells)
    return out


def shaken(b: Board, dirty: set[int]) -> set[int]:
    """``grown`` and every cell of a group whose room (need + 1 from it) may hold a changed cell: what the rule
    checks of breaks_rule read about the groups near a cell."""
    out = grown(b, dirty)
    near = Near(b, set(dirty))
    for g in b.groups():
        need = g.value - len(g.cells)
        if near.box(g.box or b.box(g), (need if need > 0 else 0) + 2):
            out.update(g.cells)
    return out


class Changes:
    """What the rule checks of a trial (breaks_rule) can see of the changed cells: ``near_d`` the cells
    themselves, ``near_s`` those, every group whose extent or room they may change (``shaken``), and every
    two-candidate cell near enough to one to be fixed by a trial and then find its room changed."""

    def __init__(self, b: Board, dirty: set[int]) -> None:
        # no reference to the grid: kept in b.derived, it would make every trial grid a cycle for the cyclic GC
        self.dirty = dirty
        self.near_d = Near(b, dirty)
        self._near_s: Near | None = None

    def near_s(self, b: Board) -> Near:
        """``near_s`` of the grid these changes were found on (the one it is kept on)."""
        if self._near_s is None:
            near = self.near_d
            cells = shaken(b, self.dirty)
            for e, m in enumerate(b.cand):
                if m.bit_count() == 2 and near.cell(e, top_value(m)):
                    cells.add(e)
            self._near_s = Near(b, cells)
        return self._near_s


def changes_of(b: Board, dirty: set[int]) -> Changes:
    """The Changes of these cells on the grid as it is: one per grid state, shared by the techniques of a pass
    that look at the same changed cells (completions, forced, pair and pocket)."""
    key = (len(b.log), frozenset(dirty))
    kept = b.derived.get("changes")
    if kept is not None and kept[0] == key:
        return kept[1]
    changes = Changes(b, dirty)
    b.derived["changes"] = (key, changes)
    return changes


def union_box(a: tuple[int, int, int, int], b_: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    return min(a[0], b_[0]), max(a[1], b_[1]), min(a[2], b_[2]), max(a[3], b_[3])


def cells_box(b: Board, cells: Sequence[int]) -> tuple[int, int, int, int]:
    rs = [c // b.cols for c in cells]
    cs = [c % b.cols for c in cells]
    return min(rs), max(rs), min(cs), max(cs)


def top_value(mask: int) -> int:
    return mask.bit_length() - 1


def names(b: Board, cells: Sequence[int]) -> str:
    shown = [b.name(c) for c in cells[:6]]
    return ", ".join(shown) + (f" and {len(cells) - 6} more" if len(cells) > 6 else "")


def who(b: Board, g: Group, ctx: Context) -> str:
    return b.describe_group(g, ctx.clues)


def growing(b: Board, ctx: Context | None = None, reach: int | None = None, whole: bool = False) -> list[Group]:
    """The groups short of their size; with ``ctx.dirty``, only those that may see a changed cell: one next to
    them, or with ``reach``, one within their need plus ``reach`` (``whole``: counting whole changed groups)."""
    out = [g for g in b.groups() if len(g.cells) < g.value] if ctx is None or ctx.dirty is None or reach is not None \
        else [g for g in b.groups_touching(b.around(ctx.dirty)) if len(g.cells) < g.value]
    if ctx is not None and ctx.dirty is not None and reach is not None:
        near = Near(b, grown(b, ctx.dirty) if whole else ctx.dirty)
        out = [g for g in out if near.box(g.box or b.box(g), g.value - len(g.cells) + reach)]
    return out


def room(b: Board, g: Group, limit: int | None = None) -> list[int]:
    return component(g.cells, allowing(b, g.value), b.nbrs, limit=limit)


# ---- bookkeeping and easy -------------------------------------------------------------------------
def region_complete(b: Board, ctx: Context) -> list[LogicStep]:
    p = Pass(b, "region_complete", "bookkeeping", ctx.nested)
    cand, nbrs = b.cand, b.nbrs
    for g in b.groups() if ctx.dirty is None else b.groups_touching(b.around(ctx.dirty)):
        if len(g.cells) > g.value:
            raise Contradiction(g.cells[0], f"{who(b, g, ctx)} has {len(g.cells)} cells, more than {g.value}")
        if len(g.cells) == g.value:
            b_v = bit(g.value)
            # a fixed neighbour of size v would be in the group: only open neighbours can still take v
            if not any(cand[m] & b_v and cand[m] != b_v for c in g.cells for m in nbrs[c]):
                continue
            nb = [c for c in boundary(g.cells, b.nbrs) if b.cand[c] & b_v]
            if nb:
                p.add(nb, f"{who(b, g, ctx)} is complete, so {names(b, nb)} cannot be {g.value}",
                      {c: bit(g.value) for c in nb})
    return p.steps


def too_big(b: Board, ctx: Context) -> list[LogicStep]:
    p = Pass(b, "too_big", "easy", ctx.nested)
    b.groups()
    if ctx.dirty is None:
        cells = b.open_cells()
    else:
        cells = sorted(c for c in b.around(grown(b, ctx.dirty)) if b.cand[c] & (b.cand[c] - 1))
    at, cand, nbrs = b._group_at, b.cand, b.nbrs
    assert at is not None
    for c in cells:
        mc = cand[c]
        near: dict[int, list[Group]] = {}
        for m in nbrs[c]:
            g = at[m]
            if g is not None and mc >> g.value & 1:  # only a size the cell still allows can go
                gs = near.get(g.value)
                if gs is None:
                    near[g.value] = [g]
                elif all(g is not h for h in gs):
                    gs.append(g)
        for v, gs in near.items():
            total = 1 + sum(len(g.cells) for g in gs)
            if total > v:
                joined = " and ".join(who(b, g, ctx) for g in gs)
                p.add([c], f"{b.name(c)} cannot be {v}: it would join {joined} into {total} cells",
                      {c: bit(v)})
    return p.steps


def only_exit(b: Board, ctx: Context) -> list[LogicStep]:
    p = Pass(b, "only_exit", "easy", ctx.nested)
    cand = b.cand
    for g in growing(b, ctx):
        b_v = 1 << g.value
        exits = [c for c in boundary(g.cells, b.nbrs) if cand[c] & b_v]
        if not exits:
            raise Contradiction(g.cells[0], f"{who(b, g, ctx)} needs {g.need} more cells and has no way out")
        if len(exits) == 1:
            p.add([exits[0]], f"{who(b, g, ctx)} can only grow into {b.name(exits[0])}", place={exits[0]: g.value})
    return p.steps


def exact_room(b: Board, ctx: Context) -> list[LogicStep]:
    p = Pass(b, "exact_room", "easy", ctx.nested)
    kept = GroupAnswers(b, ctx, "exact_room")
    for g in growing(b, ctx, reach=2):
        fill = kept.get(g)
        if fill is None:
            r = room(b, g, limit=g.value + 1)
            if len(r) < g.value:
                raise Contradiction(g.cells[0], f"{who(b, g, ctx)} has room for only {len(r)} cells")
            fill = [c for c in r if not single(b.cand[c])] if len(r) == g.value else []
            kept.put(g, fill)
        if fill:
            p.add(fill, f"{who(b, g, ctx)} has room for exactly {g.value} cells: {names(b, fill)} take it",
                  place=dict.fromkeys(fill, g.value))
    kept.keep()
    return p.steps


def _too_small(by_area: dict[int, int]) -> str:
    """``3 (2 cells), 5-7 (4 cells)``: sizes (a bitset per area) grouped by the area they would have."""
    return ", ".join(f"{_sizes(mask)} ({area} cell{'s' if area != 1 else ''})"
                     for area, mask in sorted(by_area.items()))


def _note_small(found: dict[int, dict[int, int]], c: int, v_mask: int, area: int) -> None:
    """Record that the sizes in ``v_mask`` would have only ``area`` cells at cell ``c`` (bitsets per area, so
    that a cell with hundreds of sizes costs a few big-int operations, not a loop per size)."""
    at = found.setdefault(c, {})
    at[area] = at.get(area, 0) | v_mask


def _found_steps(p: Pass, found: dict[int, dict[int, int]], why: str) -> None:
    for c, by_area in found.items():
        mask = 0
        for m in by_area.values():
            mask |= m
        p.add([c], partial(_small_sentence, p.board.name(c), mask, why, by_area), {c: mask})


def _small_sentence(name: str, mask: int, why: str, by_area: dict[int, int]) -> str:
    """_found_steps' sentence (a function, so that a look-ahead's run works it out only when it is read)."""
    return f"{name} cannot be {_sizes(mask)}: {why}: {_too_small(by_area)}"


def _late(ctx: Context) -> bool:
    return past(ctx.deadline)


def no_room(b: Board, ctx: Context) -> list[LogicStep]:
    p = Pass(b, "no_room", "easy", ctx.nested)
    opened = b.open_cells() if ctx.dirty is None else []  # (only the whole grid's rooms walk them)
    found: dict[int, dict[int, int]] = {}
    fixed_sizes = 0
    for g in b.groups():
        fixed_sizes |= bit(g.value)
    is_open = [bool(m & (m - 1)) for m in b.cand]
    # with changed cells, only the areas and rooms that hold one or touch one can have changed
    seeds = None if ctx.dirty is None else sorted(b.around(ctx.dirty))
    if seeds is None:
        areas = components(is_open, b.nbrs)
    else:
        areas, covered = [], set()
        for s in seeds:
            if is_open[s] and s not in covered:
                comp = component(s, is_open, b.nbrs)
                covered.update(comp)
                areas.append(component(min(comp), is_open, b.nbrs))  # breadth-first from its first cell
        areas.sort(key=lambda a: a[0])
    for area in areas:
        # sizes no fixed cell has: their areas lie inside this area of open cells, so sizes above its
        # cell count go at once, and a size every cell of it allows keeps the whole area
        n = len(area)
        union, common = 0, -1
        for c in area:
            above = b.cand[c] & ~fixed_sizes & ~((1 << (n + 1)) - 1)
            if above:
                found[c] = {n: above}
            union |= b.cand[c] & ~above
            common &= b.cand[c]
        for v in set_bits(union & ~common & ~fixed_sizes & ~3):
            if _late(ctx):
                break
            b_v = bit(v)
            for part in components([c for c in area if b.cand[c] & b_v], b.nbrs):
                if len(part) < v:
                    for c in part:
                        _note_small(found, c, b_v, len(part))
    # a fixed size's rooms depend only on which cells allow it and which are fixed at it: kept per size
    answers: dict[int, list[tuple[int, int]]] = kept_sizes(b, ctx, "no_room")
    for v in set_bits(fixed_sizes & ~3):
        if _late(ctx):
            break
        notes = answers.get(v)
        if notes is None:
            notes = answers[v] = _no_room_notes(b, v, seeds, opened, is_open)
        for c, count in notes:
            _note_small(found, c, bit(v), count)
    keep_sizes(b, ctx, "no_room", answers)
    _found_steps(p, found, "the cells connected to it that allow the size are too few")
    return p.steps


def _no_room_notes(b: Board, v: int, seeds: list[int] | None, opened: list[int],
                   is_open: list[bool]) -> list[tuple[int, int]]:
    """no_room for a size some group has: (cell, the cells of its room) for each open cell whose room for v is too
    small (with ``seeds``, the changed cells and their neighbours, only the rooms that hold one: the others were
    big enough before and are the same); Contradiction when a fixed cell's is."""
    allow: list[bool] | Allow
    sizes: list[int] | dict[int, int]
    if seeds is None:
        allow = allow_list(b, v)
        sizes = component_sizes(allow, b.nbrs)
        small = [c for c in opened if allow[c] and sizes[c] < v]
    else:
        allow = allowing(b, v)
        sizes = {}
        for s in seeds:
            if allow[s] and s not in sizes:
                # v cells found: the room is big enough (its other cells need not be counted)
                room_s = component(s, allow, b.nbrs, limit=v)
                for c in room_s:
                    sizes[c] = len(room_s)
        small = sorted(c for c in sizes if is_open[c] and sizes[c] < v)
    if not small:
        return []
    fixed = [c for c in component(small, allow, b.nbrs) if single(b.cand[c])]
    if fixed:
        raise Contradiction(fixed[0], f"the {v} at {b.name(fixed[0])} has room for only {sizes[fixed[0]]} cells")
    return [(c, sizes[c]) for c in small]


def _sizes(values: int | list[int]) -> str:
    """``3/5/6-9``: sizes (a bitset or a list) with runs of three or more shortened."""
    return _sizes_of(values if isinstance(values, int) else sum(bit(v) for v in set(values)))


@lru_cache(maxsize=4096)
def _sizes_of(mask: int) -> str:
    """_sizes of a bitset (kept: the same sets of sizes come back in the sentences of many cells and steps)."""
    parts = []
    while mask:
        low = mask & -mask
        run = mask & ~(mask + low)  # adding the lowest bit carries through its run of ones
        lo, hi = low.bit_length() - 1, run.bit_length() - 1
        parts.append(str(lo) if lo == hi else f"{lo}/{hi}" if hi == lo + 1 else f"{lo}-{hi}")
        mask ^= run
    return "/".join(parts)


# ---- trying values in a small area ---------------------------------------------------------------
MEMO_MAX = 100_000
"""Most answers a rating keeps in ``Board.memo`` before it forgets them all and starts again."""
MEMO_KEEP = 4
"""Answers kept per question (the most recent first)."""
_MISSING = object()


def recall(b: Board, key: object) -> object:
    """An answer kept for ``key`` whose every read candidate is as it was, else _MISSING."""
    kept = b.memo.get(key)
    if kept is not None:
        cand = b.cand
        for get, values, answer in kept:
            if get(cand) == values:
                return answer
    return _MISSING


def keep(b: Board, key: object, reads: Sequence[int], answer: object) -> None:
    """Keep an answer that depends only on the candidates of ``reads`` (b.memo is shared with the look-ahead's
    copies of the grid, whose trials ask the same questions where the hypothesis changed nothing). A few answers
    per question: the grid's own and those of the hypotheses near it."""
    memo = b.memo
    if len(memo) >= MEMO_MAX:
        memo.clear()
    get = itemgetter(*set(reads), -1, -1)  # two cells more: itemgetter then always gives a tuple
    kept = memo.setdefault(key, [])
    kept.insert(0, (get, get(b.cand), answer))
    del kept[MEMO_KEEP:]


def _changed_sizes(old: list[int], cand: list[int], cells: Iterable[int] | None = None) -> int:
    """The sizes, as a bitset, that some cell gained or lost between two candidate grids, or has as its only
    candidate on one side of a cell that differs (``cells``: the only cells that may differ; None: any)."""
    changed = 0
    for i in compress(range(len(cand)), map(ne, old, cand)) if cells is None else cells:
        x, y = old[i], cand[i]
        if x != y:
            changed |= _sizes_touched(x, y)
    return changed


def _sizes_touched(x: int, y: int) -> int:
    """The sizes a cell whose candidates went from x to y (x != y) gained or lost, or has as its only candidate on
    one side: what a technique reading only which cells allow a size and which are fixed at it sees change."""
    out = x ^ y
    if not x & (x - 1):
        out |= x
    if not y & (y - 1):
        out |= y
    return out


def _snapshot(b: Board) -> tuple[list[int], object, int]:
    """(a copy of the candidates, the grid's token, the length of its log): the grid as it is, one copy per grid
    state shared by the techniques that keep answers on it, so that a later grid compares with it once."""
    n = len(b.log)
    kept: tuple[list[int], object, int] | None = b.derived.get("snapshot")
    if kept is None or kept[2] != n:
        token = b.derived.get("token")
        if token is None:
            token = b.derived["token"] = object()  # each grid its own (a copy lists it in its lineage)
        kept = b.derived["snapshot"] = (list(b.cand), token, n)
    return kept


def _changed_since(b: Board, snap: tuple[list[int], object, int]) -> int:
    """_changed_sizes between a snapshot and the grid as it is, worked out once per pair: on the snapshot's own
    grid only the cells logged since are compared."""
    old = snap[0]
    cache: tuple[int, dict[int, tuple[list[int], int]]] | None = b.derived.get("changed sizes")
    if cache is None or cache[0] != len(b.log):
        cache = b.derived["changed sizes"] = (len(b.log), {})
    hit = cache[1].get(id(old))
    if hit is not None and hit[0] is old:
        return hit[1]
    changed = _changed_sizes(old, b.cand, _differing(b, snap))
    cache[1][id(old)] = (old, changed)
    return changed


def kept_sizes(b: Board, ctx: Context, name: str) -> dict[int, Any]:
    """A technique's answers per size that still hold, for a technique whose answer for a size v depends only on
    which cells allow v and which are fixed at v. They are kept in b.memo (shared with the look-ahead's copies)
    with the candidates they were worked out on, twice: the last grid's and the last top-level grid's (a trial
    differs from that one only around its hypothesis); an answer holds while no cell whose candidates differ
    from its grid's gained or lost its size or has it as its only candidate on either side. Nothing kept when
    the solver is not incremental (every answer is worked out afresh)."""
    if not ctx.incremental:
        return {}
    cand = b.cand
    answers: dict[int, Any] = {}  # what an answer is differs per technique: each caller names its own
    seen = None
    for which in ("last", "top"):
        kept = b.memo.get(("sizes", name, which))
        if kept is None or kept is seen or len(kept[0][0]) != len(cand):
            continue  # (at the top level both are the one kept last: compared once)
        seen = kept
        changed = _changed_since(b, kept[0])
        for v, answer in kept[1].items():
            if not changed >> v & 1 and v not in answers:
                answers[v] = answer
    return answers


def keep_sizes(b: Board, ctx: Context, name: str, answers: dict) -> None:
    """Keep a technique's answers per size (see kept_sizes) with the candidates they hold for."""
    _keep_on_grid(b, ctx, ("sizes", name), answers)


def _keep_on_grid(b: Board, ctx: Context, key: tuple, answers: object) -> None:
    """Keep a technique's answers in b.memo with the grid they were worked out on, twice: as the last grid's, and
    at the top level as the top-level grid's too (see kept_sizes)."""
    if ctx.incremental:
        kept = (_snapshot(b), answers)
        b.memo[(*key, "last")] = kept
        if not ctx.nested:
            b.memo[(*key, "top")] = kept


def _kept_on_grid(b: Board, ctx: Context, key: tuple, any_last: bool) -> tuple | None:
    """The answers ``_keep_on_grid`` kept under ``key`` to start from: the last grid's when they are this grid's (a
    nested run's later passes), else the top-level grid's (a trial differs from it only by its own changes), else,
    with ``any_last``, the last grid's whatever it was. Each is (snapshot, answers); None when nothing fits."""
    if not ctx.incremental:
        return None
    size = len(b.cand)
    last = b.memo.get((*key, "last"))
    if last is not None and len(last[0][0]) == size and last[0][1] is b.derived.get("token") \
            and last[0][2] <= len(b.log):
        return last
    top = b.memo.get((*key, "top"))
    if top is not None and len(top[0][0]) == size:
        return top
    if any_last and last is not None and len(last[0][0]) == size:
        return last
    return None


class GroupAnswers:
    """A group technique's answers kept per size (see kept_sizes): for each size, the cells found for each
    group of it that has some (keyed by its first cell). Its answer for a group depends only on which cells allow
    the group's size and which are fixed at it, and with changed cells it looks only at the groups near them (the
    others found nothing before and still find nothing), so what it works out for a size is the whole answer for
    that size. Off when the solver is not incremental (then every answer is worked out afresh)."""

    def __init__(self, b: Board, ctx: Context, name: str) -> None:
        self.b, self.ctx, self.name = b, ctx, name
        self.answers: dict[int, dict[int, list[int]]] = kept_sizes(b, ctx, name)
        self.fresh: set[int] = set()

    def get(self, g: Group) -> list[int] | None:
        """The cells found for ``g`` when its size's answer is kept, else None (work it out and ``put`` it)."""
        v = g.value
        if v in self.fresh:
            return None
        per = self.answers.get(v)
        if per is None:
            self.answers[v] = {}
            self.fresh.add(v)
            return None
        return per.get(g.cells[0], [])

    def put(self, g: Group, cells: list[int]) -> None:
        if cells:
            self.answers[g.value][g.cells[0]] = cells

    def keep(self) -> None:
        keep_sizes(self.b, self.ctx, self.name, self.answers)


def breaks_rule(b: Board, cand: list[int], starts: Sequence[int]) -> str | None:
    """Whether the candidates break R1 around ``starts``: a group of fixed cells there that is too big,
    or whose room is too small. Returns why, or None."""
    return _check_rule(b, cand, starts, [])


def _check_rule(b: Board, cand: list[int], starts: Sequence[int], reads: list[int]) -> str | None:
    """breaks_rule's check, listing in ``reads`` every cell it reads beyond ``starts`` (the neighbours of every cell
    it grows from: the cells grid.grow would list, and the group's own, which ``starts`` or an earlier read holds).
    The searches are grid.grow's, written out: this check runs inside every trial, and a call per cell is most of
    its time."""
    seen: set[int] = set()
    nbrs = b.nbrs
    for s in starts:
        m = cand[s]
        if not m or m & (m - 1) or s in seen:
            continue
        v = m.bit_length() - 1
        # a fixed cell's candidates are exactly its size's bit: equal candidates mean the same fixed size
        group = [s]
        inside = {s}
        for c in group:
            around = nbrs[c]
            reads.extend(around)
            for x in around:
                if x not in inside and cand[x] == m:
                    inside.add(x)
                    group.append(x)
        seen |= inside
        n = len(group)
        if n > v:
            return f"a group of {v}s would have {n} cells"
        if n < v:
            # its room: the cells that allow v, breadth-first from the group, until v cells are found
            room = False
            for k, c in enumerate(group):
                around = nbrs[c]
                if k >= n:
                    reads.extend(around)
                for x in around:
                    if x not in inside and cand[x] & m:
                        inside.add(x)
                        group.append(x)
                if len(group) >= v:
                    room = True
                    break
            if not room:
                return f"a group of {v}s at {b.name(s)} would have no room to grow"
    return None


def _around(b: Board, cells: Sequence[int]) -> list[int]:
    return list(cells) + [m for c in cells for m in b.nbrs[c]]


def open_areas(b: Board) -> list[list[int]]:
    """The connected areas of open cells (grid.components), kept for the grid as it is: pair, pocket and
    closed_area of one pass ask for the same. A later grid's areas are the kept ones with the cells fixed since
    split off (only the areas that lost a cell are searched again), and a look-ahead trial starts from its grid's
    (Board.copy): on a big grid a trial's pass fixes a few cells of a thousand open ones."""
    n = len(b.log)
    kept: tuple[int, list[list[int]], dict[int, list[int]]] | None = b.derived.get("areas")
    if kept is not None and kept[0] == n:
        return kept[1]
    got = None if kept is None else _areas_after(b, kept[1], kept[2], b.log[kept[0]:])
    if got is None:
        areas = components([not single(m) for m in b.cand], b.nbrs)
        got = (areas, {c: area for area in areas for c in area})
    b.derived["areas"] = (n, got[0], got[1])
    return got[0]


def _areas_after(b: Board, areas: list[list[int]], area_of: dict[int, list[int]],
                 logged: list[int]) -> tuple[list[list[int]], dict[int, list[int]]] | None:
    """open_areas from the areas of an earlier state of the grid (``area_of``: each open cell's area, never changed:
    a copy shares it) and the cells logged since: an area that lost no cell is an area still (open cells only
    become fixed, and an area is bounded by fixed cells), and one that lost some is split into the components of
    the cells it has left, each breadth-first from its first cell as grid.components makes it; None (count them
    afresh) when a cell outside every area is open, which a cell left with no candidate is."""
    cand = b.cand
    lost: dict[int, list[int]] = {}
    for c in set(logged):
        area = area_of.get(c)
        if area is None:
            if not single(cand[c]):
                return None
        elif single(cand[c]):
            lost[id(area)] = area
    if not lost:
        return areas, area_of
    area_of = dict(area_of)
    out = [area for area in areas if id(area) not in lost]
    for area in lost.values():
        left = []
        for c in area:
            if single(cand[c]):
                del area_of[c]
            else:
                left.append(c)
        for part in components(left, b.nbrs):
            for c in part:
                area_of[c] = part
            out.append(part)
    out.sort(key=lambda area: area[0])
    return out, area_of


def _area_try(b: Board, ctx: Context, name: str, level: str, lo: int, hi: int) -> list[LogicStep]:
    p = Pass(b, name, level, ctx.nested)
    changes = None if ctx.dirty is None else changes_of(b, ctx.dirty)
    for area in open_areas(b):
        if not lo <= len(area) <= hi:
            continue
        if changes is not None:
            box = cells_box(b, area)
            top = max(top_value(b.cand[c]) for c in area)
            if not changes.near_s(b).box(box, 2) and not changes.near_d.box(box, top + 1):
                continue
        tries = 1
        for c in area:
            tries *= b.cand[c].bit_count()
            if tries > POCKET_TRIES:
                break
        if tries > POCKET_TRIES:
            continue
        known = recall(b, ("area", *area))
        seen = _area_ways(b, area) if known is _MISSING else cast("list[int]", known)
        if not any(seen):
            raise Contradiction(area[0], f"no way to fill {names(b, area)} breaks no rule")
        removes = {c: b.cand[c] & ~seen[k] for k, c in enumerate(area)}
        if any(removes.values()):
            kept = "; ".join(f"{b.name(c)} {'/'.join(map(str, values_of(seen[k])))}" for k, c in enumerate(area))
            p.add(area, f"the only ways to fill the enclosed {names(b, area)} leave {kept}", removes)
    return p.steps


def _area_ways(b: Board, area: list[int]) -> list[int]:
    """Per cell of an area of open cells, the sizes some filling of the whole area that breaks no rule gives it
    (kept in b.memo with every candidate the checks read)."""
    options = [values_of(b.cand[c]) for c in area]
    full = [b.cand[c] for c in area]
    seen = [0] * len(area)
    starts = _around(b, area)
    reads = list(starts)
    _fill_ways(b, area, options, full, [_around(b, [c]) for c in area], starts, list(b.cand), [0] * len(area),
               seen, reads, 0)
    keep(b, ("area", *area), reads, seen)
    return seen


def _fill_ways(b: Board, area: list[int], options: list[list[int]], full: list[int], local: list[list[int]],
               starts: list[int], cand: list[int], values: list[int], seen: list[int], reads: list[int],
               k: int) -> None:
    """_area_ways' search: every filling of ``area[k:]`` after ``values[:k]`` (set in ``cand``) that breaks no rule
    adds its sizes to ``seen``. A filling of the first cells that breaks the rule around its last cell breaks it in
    every completion (fixing more cells only grows groups and shrinks their room), so those are not tried; nor are
    the completions whose every size is in ``seen`` already (their checks could add nothing)."""
    last = k + 1 == len(area)
    c = area[k]
    for v in options[k]:
        values[k] = v
        if all(seen[j] >> values[j] & 1 for j in range(k + 1)) and \
                all(seen[j] == full[j] for j in range(k + 1, len(area))):
            continue  # every filling from here is already kept
        cand[c] = bit(v)
        if last:
            if _check_rule(b, cand, starts, reads) is None:
                for j in range(len(area)):
                    seen[j] |= bit(values[j])
        elif k == 0 or _check_rule(b, cand, local[k], reads) is None:
            # one cell's size alone seldom breaks the rule once the easy techniques ran: a check there costs more
            _fill_ways(b, area, options, full, local, starts, cand, values, seen, reads, k + 1)
    cand[c] = full[k]


def pair(b: Board, ctx: Context) -> list[LogicStep]:
    return _area_try(b, ctx, "pair", "easy", 1, 2)


def pocket(b: Board, ctx: Context) -> list[LogicStep]:
    return _area_try(b, ctx, "pocket", "medium", 3, 5)


CLOSED_AREA_MAX = 12
"""Largest enclosed area closed_area partitions (more cells: too many ways for a person, and for the search)."""
CLOSED_AREA_TRIES = 20000
"""Most regions closed_area tries in one area before it gives up on it (no deduction: never a guess)."""


def _connected_sets(start: int, free: set[int], nbrs: Sequence[Sequence[int]]):
    """Every connected subset of ``free`` that holds ``start``, each once (grown from start; cells already
    passed over are never added back)."""
    def grow(chosen: list[int], frontier: list[int], banned: set[int]):
        yield chosen
        for k, c in enumerate(frontier):
            rest = frontier[k + 1:]
            new = [m for m in nbrs[c] if m in free and m not in banned and m not in chosen and m not in rest]
            yield from grow(chosen + [c], rest + new, banned | set(frontier[:k + 1]))
    first = [m for m in nbrs[start] if m in free]
    yield from grow([start], first, {start})


def closed_area(b: Board, ctx: Context) -> list[LogicStep]:
    """An area of open cells whose every neighbour is in a complete region is filled by clue-free regions of
    its own: every way to cut it into regions is tried, and only the sizes some way gives are kept."""
    p = Pass(b, "closed_area", "medium", ctx.nested)
    b.groups()
    for area in open_areas(b):
        if not 6 <= len(area) <= CLOSED_AREA_MAX:
            continue
        if ctx.dirty is not None and not Near(b, grown(b, ctx.dirty)).box(cells_box(b, area), 1):
            continue
        outside = boundary(area, b.nbrs)
        if any(len(b.group_at(m).cells) != b.value(m) for m in outside):  # type: ignore[union-attr]
            continue  # a group around it may still grow in
        seen = {c: 0 for c in area}
        tries = [0]
        ok = _partition(b, set(area), {}, seen, tries)
        if not ok:
            continue  # too many ways: no deduction
        if not any(seen.values()):
            raise Contradiction(area[0], f"the enclosed {names(b, area)} cannot be cut into regions")
        removes = {c: b.cand[c] & ~seen[c] for c in area}
        if any(removes.values()):
            kept = "; ".join(f"{b.name(c)} {_sizes(seen[c])}" for c in area)
            p.add(area, f"the enclosed {names(b, area)} ({len(area)} cells, every region around it complete) "
                  f"must be cut into new regions of its own; the only ways leave {kept}", removes)
    return p.steps


def _partition(b: Board, free: set[int], sizes: dict[int, int], seen: dict[int, int], tries: list[int]) -> bool:
    """Record in ``seen`` the size of every cell in every way to cut ``free`` into regions (given ``sizes``
    of the cells cut so far); False when the tries ran out."""
    if not free:
        for c, k in sizes.items():
            seen[c] |= bit(k)
        return True
    start = min(free)
    for region in _connected_sets(start, free, b.nbrs):
        tries[0] += 1
        if tries[0] > CLOSED_AREA_TRIES:
            return False
        k = len(region)
        if any(not b.cand[c] & bit(k) for c in region):
            continue
        inside = set(region)
        if any(m not in inside and (sizes.get(m) == k or b.value(m) == k) for c in region for m in b.nbrs[c]):
            continue
        for c in region:
            sizes[c] = k
        ok = _partition(b, free - inside, sizes, seen, tries)
        for c in region:
            del sizes[c]
        if not ok:
            return False
    return True


# ---- medium ---------------------------------------------------------------------------------------
def _first_open(b: Board, order: Sequence[int], g: Group) -> list[int]:
    """The open cells among the first ``need`` cells met after the group in breadth-first order: only they
    can be on every way to grow (each later cell has ``need`` cells before it reachable without it)."""
    inside = set(g.cells)
    near = [c for c in order if c not in inside][: g.need]
    return [c for c in near if not single(b.cand[c])]


def must_include(b: Board, ctx: Context) -> list[LogicStep]:
    p = Pass(b, "must_include", "medium", ctx.nested)
    kept = GroupAnswers(b, ctx, "must_include")
    allows: dict[int, list[bool]] = {}  # per size, as lists: the grid searches test them at C speed
    for g in growing(b, ctx, reach=2):
        v = g.value
        found = kept.get(g)
        if found is None:
            found = []
            if v not in allows:
                allows[v] = allow_list(b, v)
            allow = allows[v]
            for x in _first_open(b, component(g.cells, allow, b.nbrs, limit=v), g):
                was, allow[x] = allow[x], False
                if len(component(g.cells, allow, b.nbrs, limit=v)) < v:
                    found.append(x)
                allow[x] = was
            kept.put(g, found)
        for x in found:
            p.add([x], f"{who(b, g, ctx)} cannot reach {v} cells without {b.name(x)}", place={x: v})
    kept.keep()
    return p.steps


def _walkable(b: Board, g: Group, same: Sequence[Group], allowed: list[bool]) -> list[bool]:
    """Per cell, whether a growing group may take it: it allows the group's size (``allowed``), and is not in or
    next to a group of ``same`` (those that cannot be in its region, see _apart: taking such a cell joins that
    whole group). A list, so that the grid searches test it at C speed."""
    walk = list(allowed)
    for h in same:
        for c in h.cells:
            walk[c] = False
        for c in boundary(h.cells, b.nbrs):
            walk[c] = False
    return walk


def _boxes_within(box: tuple[int, int, int, int], other: tuple[int, int, int, int], d: int) -> bool:
    """Whether two boxes (rows and columns, first and last) lie within d steps of each other: the cheap test
    way_through and completions ask of every other group of a size for every group."""
    r0, r1, c0, c1 = box
    h0, h1, k0, k1 = other
    gap = h0 - r1 if h0 > r1 else r0 - h1 if r0 > h1 else 0
    if gap > d:
        return False
    gap += k0 - c1 if k0 > c1 else c0 - k1 if c0 > k1 else 0
    return gap <= d


class SameSize:
    """The groups of one size with their boxes, by first row: the groups whose box lies within d of a box start in a
    band of rows, found by bisection instead of asking every group of the size (the 50x64 janko-330 has hundreds of
    some sizes, and way_through and completions ask for every group of the size)."""

    __slots__ = ("boxed", "firsts", "tall")

    def __init__(self, b: Board, groups: Sequence[Group]) -> None:
        boxed = [(b.box(h), h) for h in groups]
        firsts = [box[0] for box, _ in boxed]
        tall = 0
        ordered = True
        last = -1 << 62
        for box, _ in boxed:
            tall = box[1] - box[0] if box[1] - box[0] > tall else tall
            ordered = ordered and box[0] >= last
            last = box[0]
        if not ordered:  # (b.groups() lists groups by first cell, so by first row: sorted already)
            boxed.sort(key=_first_row)
            firsts = [box[0] for box, _ in boxed]
        self.boxed, self.firsts, self.tall = boxed, firsts, tall

    def near(self, box: tuple[int, int, int, int], d: int) -> list[tuple[tuple[int, int, int, int], Group]]:
        """(box, group) of the groups whose box lies within d of ``box`` (see _boxes_within)."""
        lo = bisect_left(self.firsts, box[0] - d - self.tall)
        hi = bisect_right(self.firsts, box[1] + d)
        return [e for e in self.boxed[lo:hi] if _boxes_within(box, e[0], d)]


def _first_row(e: tuple[tuple[int, int, int, int], Group]) -> int:
    return e[0][0]


def _blocking(same: SameSize, g: Group, box: tuple[int, int, int, int], d: int) -> list[Group]:
    """The other groups of g's size whose box lies within d of ``box`` (those _apart then asks about)."""
    return [h for _, h in same.near(box, d) if h is not g]


def _apart(b: Board, g: Group, same: Sequence[Group], allowed: list[bool]) -> list[Group]:
    """The groups of ``same`` that cannot be in g's region, near enough to matter: a region holding both holds their
    cells and the cells of a path between them through cells that allow the size, more than the size when g's and
    h's cells and the fewest cells between them are (two groups one cell apart: h too big to join, more cells than g
    still needs). Groups further than g's need plus two are left out: their walls lie beyond g's walk."""
    need = g.need
    others = [h for h in same if h is not g and h.value == g.value]
    if not others:
        return []
    near = distances(g.cells, b.nbrs, within=need + 2, through=allowed)
    out = []
    for h in others:
        gap = min((near[c] for c in h.cells if c in near), default=None)
        if gap is not None and len(h.cells) + gap - 1 > need:
            out.append(h)
    return out


def way_through(b: Board, ctx: Context) -> list[LogicStep]:
    """``001_*``'s way through: the cells a group can reach within the cells it still needs, never in or beside
    another group of its size that cannot share its region (_apart: too far away, or too big to join); a cell
    every such way passes is its."""
    p = Pass(b, "way_through", "medium", ctx.nested)
    by_value: dict[int, list[Group]] = {}
    for h in b.groups():
        by_value.setdefault(h.value, []).append(h)
    allows: dict[int, list[bool]] = {}
    boxes: dict[int, SameSize] = {}
    kept = GroupAnswers(b, ctx, "way_through")
    # on a small grid the per-size answers are cheap enough that comparing per group costs more (10x10s x0.98)
    big = ctx.incremental and b.size > ALLOW_LISTS_MAX
    base = _groups_base(b, ctx, "way_through") if big else None
    old: dict[int, tuple[Group, list[int]]] = {}
    changed: dict[int, Near] = {}
    if base is not None:
        old = base[1]
        sizes = 0
        for v in by_value:
            sizes |= bit(v)
        changed = {v: Near(b, set(cells)) for v, cells in
                   _cells_changed_per_size(base[0][0], b.cand, _differing(b, base[0]), sizes).items()}
    per_group: dict[int, tuple[Group, list[int]]] = {}
    for g in growing(b, ctx, reach=2, whole=True):
        v, need = g.value, g.need
        found = kept.get(g)
        if found is None:
            boxed = boxes.get(v)
            if boxed is None:
                boxed = boxes[v] = SameSize(b, by_value[v])
            prior = old.get(id(g))
            if prior is not None and prior[0] is g and _same_around(boxed, g, need + 2, changed.get(v), old):
                found = prior[1]
        if found is None:
            found = []
            if v not in allows:
                allows[v] = allow_list(b, v)
            # the walk stays within need of the group: only groups whose edge lies that near can block it
            same = boxes[v]  # (made above, where the group's kept answer was looked for)
            walk = _walkable(b, g, _apart(b, g, _blocking(same, g, b.box(g), need + 2), allows[v]), allows[v])
            near = distances(g.cells, b.nbrs, within=need, through=walk)
            if len(near) - len(g.cells) < need:
                raise Contradiction(g.cells[0], f"{who(b, g, ctx)} cannot reach {need} more cells")
            for x in _first_open(b, list(near), g):
                was, walk[x] = walk[x], False
                # only whether it still reaches need more cells: the walk stops once it has
                want = len(g.cells) + need
                if len(distances(g.cells, b.nbrs, within=need, through=walk, limit=want)) < want:
                    found.append(x)
                walk[x] = was
            kept.put(g, found)
        if big:
            per_group[id(g)] = (g, found)
        for x in found:
            p.add([x], f"every way for {who(b, g, ctx)} to reach {v} cells, without joining another {v}, "
                  f"goes through {b.name(x)}", place={x: v})
    kept.keep()
    if big:
        _keep_on_grid(b, ctx, ("groups", "way_through"), per_group)
    return p.steps


def _groups_base(b: Board, ctx: Context, name: str) -> tuple[tuple[list[int], object, int], dict] | None:
    """A group technique's answers per group kept on an earlier grid to start from (see _kept_on_grid)."""
    return _kept_on_grid(b, ctx, ("groups", name), any_last=False)


def _same_around(boxed: SameSize, g: Group, d: int, changed: Near | None,
                 old: dict[int, tuple[Group, list[int]]]) -> bool:
    """Whether what way_through reads for g is as on the grid of ``old``: no cell that differs there in allowing
    g's size or being fixed at it (``changed``) lies within d of g's box, and every group of its size within d is
    one that grid had too (a group is never changed: a grown or merged one is a new object)."""
    box = g.box
    assert box is not None
    if changed is not None and changed.box(box, d):
        return False
    for _, h in boxed.near(box, d):
        was = old.get(id(h))
        if was is None or was[0] is not h:
            return False
    return True


def _finish_box(boxed: SameSize, g: Group, box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The box of what completions' ways to finish g may read: two cells around g, and every other group of its
    size within 3 of it."""
    r0, r1, c0, c1 = box
    lo_r, hi_r, lo_c, hi_c = r0 - 2, r1 + 2, c0 - 2, c1 + 2
    for other, h in boxed.near(box, 3):
        if h is not g:
            h0, h1, k0, k1 = other
            lo_r, hi_r = min(lo_r, h0), max(hi_r, h1)
            lo_c, hi_c = min(lo_c, k0), max(hi_c, k1)
    return lo_r, hi_r, lo_c, hi_c


def completions(b: Board, ctx: Context) -> list[LogicStep]:
    p = Pass(b, "completions", "medium", ctx.nested)
    changes = None if ctx.dirty is None else changes_of(b, ctx.dirty)
    cand = list(b.cand)  # a scratch copy each trial writes into and puts back
    by_value: dict[int, list[Group]] = {}
    for h in b.groups():
        by_value.setdefault(h.value, []).append(h)
    boxes: dict[int, SameSize] = {}
    for g in growing(b):
        v = g.value
        if g.need > 2:
            continue
        if changes is not None:
            # the ways to finish reach two cells out and join the groups of its size there, then wall them off
            boxed = boxes.get(v)
            if boxed is None:
                boxed = boxes[v] = SameSize(b, by_value[v])
            if not changes.near_s(b).box(_finish_box(boxed, g, b.box(g)), 4):
                continue
        known = recall(b, ("finish", *g.cells))
        valid = _finishes(b, g, cand) if known is _MISSING else cast("list[tuple[frozenset[int], set[int]]]", known)
        if not valid:
            raise Contradiction(g.cells[0], f"{who(b, g, ctx)} has no way to finish its {v} cells")
        inside = set.intersection(*(set(e) for e, _ in valid))
        outside = set.intersection(*(edge for _, edge in valid))
        if inside:
            cells = sorted(inside)
            p.add(cells, f"every way to finish {who(b, g, ctx)} uses {names(b, cells)}", place=dict.fromkeys(cells, v))
        outside = {c for c in outside if b.cand[c] & bit(v)}
        if outside:
            cells = sorted(outside)
            p.add(cells, f"every way to finish {who(b, g, ctx)} walls off {names(b, cells)}, so not {v}",
                  dict.fromkeys(cells, bit(v)))
    return p.steps


def _closure(extra: frozenset[int], base: set[int], v: int, at: list[Group | None], nbrs: tuple[tuple[int, ...], ...],
             regions: dict[frozenset[int], set[int]], reads: list[int]) -> set[int]:
    """_finishes' region of a group of ``v`` with ``extra``: the groups of its size it joins, listing what it reads in
    ``reads``, kept in ``regions`` (the search, then the check of each way, ask for the same cells)."""
    region = regions.get(extra)
    if region is not None:
        return region
    region = base | extra
    for c in extra:
        for m in nbrs[c]:
            reads.append(m)
            h = at[m]
            if h is not None and h.value == v and m not in region:
                region.update(h.cells)
                reads.extend(h.cells)
                reads.extend(boundary(h.cells, nbrs))
    regions[extra] = region
    return region


def _finishes(b: Board, g: Group, cand: list[int]) -> list[tuple[frozenset[int], set[int]]]:
    """completions' ways to finish a group one or two cells short: (the cells it takes, the open cells then
    walled off) for each way that breaks no rule, until the ways found share no cell that completions would write
    (more of them would change nothing it reads of them). ``cand`` is a scratch copy of the grid's candidates, given
    back as it was; the answer is kept in b.memo with every cell it read (a joined group: its cells and their edge)."""
    v = g.value
    base = set(g.cells)
    reads = [*g.cells]
    b.groups()
    at, nbrs = b._group_at, b.nbrs
    assert at is not None
    regions: dict[frozenset[int], set[int]] = {}

    allow = Allow(b.cand, v)
    ways: set[frozenset[int]] = set()
    around_g = boundary(g.cells, b.nbrs)
    reads += around_g
    firsts = [x for x in around_g if x in allow and not single(b.cand[x])]
    for x in firsts:
        one = frozenset([x])
        r1 = _closure(one, base, v, at, nbrs, regions, reads)
        if len(r1) == v:
            ways.add(one)
        elif len(r1) < v:
            for y in boundary(r1, b.nbrs):
                reads.append(y)
                if y in allow and not single(b.cand[y]):
                    two = frozenset([x, y])
                    if len(_closure(two, base, v, at, nbrs, regions, reads)) == v:
                        ways.add(two)
    valid = []
    b_v = bit(v)
    inside: frozenset[int] | None = None
    outside: set[int] = set()
    for extra in ways:
        if inside is not None and not inside and not any(b.cand[c] & b_v for c in outside):
            break  # the valid ways so far share no cell either way: more of them change nothing completions reads
        region = _closure(extra, base, v, at, nbrs, regions, reads)
        around = boundary(region, b.nbrs)
        reads += around
        edge = [c for c in around if not single(b.cand[c])]
        for c in extra:
            cand[c] = bit(v)
        for c in edge:
            cand[c] &= ~bit(v)
        if not any(not cand[c] for c in edge):
            starts = _around(b, list(extra) + edge)
            reads += starts
            if _check_rule(b, cand, starts, reads) is None:
                valid.append((extra, set(edge)))
                inside = extra if inside is None else inside & extra
                outside = set(edge) if len(valid) == 1 else outside & valid[-1][1]
        for c in (*extra, *edge):  # the scratch copy back to the grid
            cand[c] = b.cand[c]
    keep(b, ("finish", *g.cells), reads, valid)
    return valid


def new_region(b: Board, ctx: Context) -> list[LogicStep]:
    """A size no group can bring to a cell needs a new region there, in an area free of that size's cells."""
    p = Pass(b, "new_region", "medium", ctx.nested)
    opened = b.open_cells()
    present = 0
    for c in opened:
        present |= b.cand[c]
    by_value: dict[int, list[Group]] = {}
    for g in b.groups():
        by_value.setdefault(g.value, []).append(g)
    # a size no fixed cell has: no group reaches, and the clue-free area is the area no_room already measured
    present &= sum(bit(v) for v in by_value) & ~3
    found: dict[int, dict[int, int]] = {}
    base = _areas_base(b, ctx)
    old: dict[int, SizeAreas] = {}
    changed: dict[int, list[int]] = {}
    old_cand: list[int] = []
    if base is not None:
        old, old_cand = base[1], base[0][0]
        changed = _cells_changed_per_size(old_cand, b.cand, _differing(b, base[0]), present)
    kept: dict[int, SizeAreas] = {}
    for v in set_bits(present):
        if _late(ctx):
            break
        was = old.get(v)
        if was is None:
            areas = _new_region_areas(b, v, by_value.get(v, ()), opened)
        elif v not in changed:
            areas = was  # nothing it reads changed
        else:
            areas = _new_region_update(b, v, by_value.get(v, ()), old_cand, was, changed[v])
        kept[v] = areas
        for c, count in areas.notes:
            _note_small(found, c, bit(v), count)
    _keep_on_grid(b, ctx, ("areas",), kept)
    _found_steps(p, found, "no group of that size can reach it, and a new region there would have too few cells "
                 "away from its size")
    return p.steps


class SizeAreas:
    """new_region's work for one size on one grid: the cells beside a group of v, the areas (connected cells that
    allow v, are not fixed at v and are not beside such a group) with fewer than v cells, each whole, which area
    each of their cells is in, and the notes (cell, cells of its area) of the open cells no group of v reaches."""

    __slots__ = ("beside", "small", "area_of", "notes", "reach")

    def __init__(self, beside: set[int], small: list[list[int]], area_of: dict[int, int],
                 notes: list[tuple[int, int]], reach: dict[int, tuple[Group, dict[int, int]]]) -> None:
        self.beside = beside
        self.small = small
        self.area_of = area_of
        self.notes = notes
        self.reach = reach
        """The cells each group of v searched reaches within its need, by id (the group kept, so that the id stays
        its own): a Group is never changed, so the same group with no changed cell within its need reaches the
        same cells."""

    def __reduce__(self) -> tuple:
        # compiled, a class with its own __init__ is rebuilt by calling it: pickle and copy get its arguments (a
        # grid's memo, which holds these, goes with a rating sent back by a worker process)
        return (SizeAreas, (self.beside, self.small, self.area_of, self.notes, self.reach))


def _areas_base(b: Board, ctx: Context) -> tuple[tuple[list[int], object, int], dict[int, SizeAreas]] | None:
    """The SizeAreas kept on an earlier grid to start from (see _kept_on_grid), any last grid's at worst."""
    return _kept_on_grid(b, ctx, ("areas",), any_last=True)


def _differing(b: Board, snap: tuple[list[int], object, int]) -> list[int]:
    """The cells whose candidates differ between a snapshot and the grid: on the snapshot's own grid, or on a copy
    made of it (Board.copy's lineage) since the snapshot, among the cells logged since (a copy's log begins with its
    grid's); else every cell compared."""
    old, token, n = snap
    cand = b.cand
    if n <= len(b.log) and (token is b.derived.get("token") or
                            any(t is token and n <= at for t, at in b.derived.get("lineage", ()))):
        return [c for c in set(b.log[n:]) if old[c] != cand[c]]
    return list(compress(range(len(cand)), map(ne, old, cand)))


def _cells_changed_per_size(old: list[int], cand: list[int], cells: list[int], sizes: int) -> dict[int, list[int]]:
    """Per size of ``sizes``, the cells among ``cells`` that gained or lost it, or have it as their only candidate
    on one side (what new_region reads of a cell for that size)."""
    out: dict[int, list[int]] = {}
    for c in cells:
        for v in set_bits(_sizes_touched(old[c], cand[c]) & sizes):
            at = out.get(v)
            if at is None:
                out[v] = [c]
            else:
                at.append(c)
    return out


def _new_region_areas(b: Board, v: int, groups: Sequence[Group], opened: list[int]) -> SizeAreas:
    """new_region for one size, from scratch (see SizeAreas). It reads only which cells allow v and which are fixed
    at v."""
    b_v = bit(v)
    beside = {m for g in groups for c in g.cells for m in b.nbrs[c]}
    cand, nbrs = b.cand, b.nbrs
    # an area is counted only from a cell that allows v, and only until it has v cells: on a big grid most of the
    # grid is neither (a cell beside a group of v has an area of 0 cells)
    big: set[int] = set()
    small: dict[int, int] = {}
    areas: list[list[int]] = []
    out = []
    for c in opened:
        if not cand[c] & b_v:
            continue
        if c in beside:
            out.append((c, 0))
            continue
        if c in big:
            continue
        n = small.get(c)
        if n is None:
            area = _small_area(c, v, cand, nbrs, beside, big)
            if area is None:
                continue
            n = len(area)
            for x in area:
                small[x] = len(areas)
            areas.append(area)
        else:
            n = len(areas[n])
        out.append((c, n))
    reach: dict[int, tuple[Group, dict[int, int]]] = {}
    return SizeAreas(beside, areas, small, _unreached(b, v, groups, out, reach, {}, None), reach)


def _small_area(c: int, v: int, cand: list[int], nbrs: tuple[tuple[int, ...], ...], beside: set[int],
                big: set[int]) -> list[int] | None:
    """The area of c for size v (connected cells that allow v, are not fixed at v and are not beside a group of v),
    whole, when it has fewer than v cells; else None, its cells counted so far added to ``big``, which also ends the
    count as soon as it meets a cell known to be in such a large area."""
    b_v = 1 << v
    area = [c]
    inside = {c}
    for x in area:
        for y in nbrs[x]:
            m = cand[y]
            if y not in inside and m & b_v and m != b_v and y not in beside:
                if y in big:
                    big.update(area)
                    return None
                inside.add(y)
                area.append(y)
        if len(area) >= v:
            big.update(area)
            return None
    return area


def _new_region_update(b: Board, v: int, groups: Sequence[Group], old_cand: list[int], was: SizeAreas,
                       changed: list[int]) -> SizeAreas:
    """_new_region_areas from its answer on another grid (``old_cand``) and the cells where what it reads for v
    differs (``changed``): an area of the other grid that lost no cell and touches no cell that joined the areas is
    an area here too; every other area here holds a cell that joined or one beside a cell that left, and is counted
    again from those (each area whole when small, so the answer is the one counted from scratch)."""
    b_v = bit(v)
    cand, nbrs = b.cand, b.nbrs
    old_beside = was.beside
    # the groups of v, and so the cells beside them, are the other grid's unless a changed cell is fixed at v on
    # one side (a set never changed once made: the two SizeAreas share it)
    regrouped = any(cand[c] == b_v or old_cand[c] == b_v for c in changed)
    beside = {m for g in groups for c in g.cells for m in nbrs[c]} if regrouped else old_beside
    # a cell's standing changes only with its own candidates or with a neighbour becoming (or ceasing to be) fixed
    # at v, which moves it beside a group
    touched = set(changed)
    for c in changed:
        if cand[c] == b_v or old_cand[c] == b_v:
            touched.update(nbrs[c])
    left: list[int] = []
    joined: list[int] = []
    for c in touched:
        m, o = cand[c], old_cand[c]
        now = bool(m & b_v) and m != b_v and c not in beside
        before = bool(o & b_v) and o != b_v and c not in old_beside
        if now != before:
            (joined if now else left).append(c)
    old_of = was.area_of
    redo: set[int] = set()  # the old small areas to count again
    for c in left:
        k = old_of.get(c)
        if k is not None:
            redo.add(k)
    seeds = list(joined)
    for c in joined:
        for y in nbrs[c]:
            k = old_of.get(y)
            if k is not None:
                redo.add(k)
    for c in left:
        seeds.extend(nbrs[c])
    for k in redo:
        seeds.extend(was.small[k])
    areas: list[list[int]] = [area for k, area in enumerate(was.small) if k not in redo]
    small: dict[int, int] = {}
    for k, area in enumerate(areas):
        for x in area:
            small[x] = k
    big: set[int] = set()
    for s in seeds:
        m = cand[s]
        if not (m & b_v) or m == b_v or s in beside or s in big or s in small:
            continue
        grown = _small_area(s, v, cand, nbrs, beside, big)
        if grown is None:
            continue
        for x in grown:
            small[x] = len(areas)
        areas.append(grown)
    out = [(c, 0) for c in beside if cand[c] & b_v and cand[c] != b_v]
    out.extend((c, len(areas[k])) for c, k in small.items())
    out.sort()
    reach: dict[int, tuple[Group, dict[int, int]]] = {}
    notes = _unreached(b, v, groups, out, reach, was.reach, Near(b, set(changed)))
    return SizeAreas(beside, areas, small, notes, reach)


def _new_region_notes(b: Board, v: int, groups: Sequence[Group], opened: list[int]) -> list[tuple[int, int]]:
    """new_region for one size: (cell, the cells of its area away from that size's groups) for each open cell that
    allows v, that no group of v can reach, in an area too small for v."""
    return _new_region_areas(b, v, groups, opened).notes


def _unreached(b: Board, v: int, groups: Sequence[Group], out: list[tuple[int, int]],
               reach: dict[int, tuple[Group, dict[int, int]]], old_reach: dict[int, tuple[Group, dict[int, int]]],
               changed: Near | None) -> list[tuple[int, int]]:
    """The notes of ``out`` (cell, area) whose cell no group of v can reach within its need; the cells each group
    searched reaches go into ``reach``, and those of ``old_reach`` (another grid's) are taken again for the same
    group when no cell of ``changed`` (those where which cells allow v or are fixed at it differ) lies within its
    need."""
    if not out:
        return out
    nbrs = b.nbrs
    # a cell beside a growing group of v is one step from it, within its need, through a cell that allows v: no
    # search needed (most of the cells noted are such exits)
    at = b._group_at
    assert at is not None
    reached: set[int] = set()
    for c, n in out:
        if not n:
            for m in nbrs[c]:
                h = at[m]
                if h is not None and h.value == v and len(h.cells) < v:
                    reached.add(c)
                    break
    if len(reached) == len(out):
        return []
    # which cells a group of v can reach is asked only of the few cells with too small an area, and only of the
    # groups within their need of one
    allow = Allow(b.cand, v)
    near = Near(b, {c for c, _ in out if c not in reached})
    for g in groups:
        need = g.need
        if need > 0 and near.box(b.box(g), need):
            kept = old_reach.get(id(g))
            if kept is not None and kept[0] is g and changed is not None and not changed.box(b.box(g), need):
                cells = kept[1]
            else:
                cells = distances(g.cells, nbrs, within=need, through=allow)
            reach[id(g)] = (g, cells)
            reached.update(cells)
    return [(c, n) for c, n in out if c not in reached]


def forced(b: Board, ctx: Context) -> list[LogicStep]:
    """Writing a size that completes a group (with the fixed cells of that size next to it, or a 1) walls
    the group off; when that starves a group around it, the size goes."""
    p = Pass(b, "forced", "medium", ctx.nested)
    b.groups()
    changes = None if ctx.dirty is None else changes_of(b, ctx.dirty)
    cand = list(b.cand)  # a scratch copy each trial writes into and puts back
    at = b._group_at
    assert at is not None
    # on a big grid each open cell's answer is kept with the grid and worked out again only where a cell it read
    # differs (a trial's changes are spread, but each cell reads a few dozen cells)
    big = ctx.incremental and b.size > ALLOW_LISTS_MAX
    base = _kept_on_grid(b, ctx, ("forced cells",), any_last=False) if big else None
    keeping = big and not ctx.nested
    found: dict[int, tuple[int, str]] = {}
    reads: dict[int, Trial] = {}
    if base is None:
        todo = b.open_cells()
    else:
        snap, was = base
        redo = was.redo(b, snap[0], _differing(b, snap))
        cand_now = b.cand
        todo = sorted(c for c in redo if cand_now[c] & (cand_now[c] - 1))
        found = {c: a for c, a in was.found.items() if c not in redo}
        if keeping:
            reads = {c: r for c, r in was.reads.items() if c not in redo}
    cols = b.cols
    # a kept record needs every cell's answer: only a call that keeps none looks near the changes alone
    look = None if keeping or changes is None else changes.near_s(b)
    for c in todo:
        answer, cell_reads = _forced_at(b, cand, c, look)
        if answer is not None:
            found[c] = answer
        if keeping and cell_reads[4]:  # (a trial ran)
            reads[c] = cell_reads
    for c in sorted(found):
        if changes is not None and not _forced_near(b, changes.near_s(b), c, cols):
            continue
        bad, why = found[c]
        p.add([c], f"{b.name(c)} cannot be {'/'.join(map(str, values_of(bad)))}: writing {why}", {c: bad})
    if keeping:
        _keep_on_grid(b, ctx, ("forced cells",), ForcedCells(found, reads, list(at)))
    return p.steps


def _forced_near(b: Board, near_s: Near, c: int, cols: int) -> bool:
    """Whether forced's trials at c may read a changed cell (``Changes.near_s``): the cell, the groups it joins,
    their edge and the groups beyond it (and their room)."""
    at = b._group_at
    assert at is not None
    box = (c // cols, c // cols, c % cols, c % cols)
    for m in b.nbrs[c]:
        h = at[m]
        if h is not None:
            box = union_box(box, b.box(h))
    return near_s.box(box, 4)


def _completing(b: Board, c: int) -> int:
    """The sizes (a bitset) that would complete a group if written at c, whatever c allows: v when the groups of v
    beside it have v - 1 cells, and 1 when no 1 is beside it."""
    at, nbrs = b._group_at, b.nbrs
    assert at is not None
    near: dict[int, int] = {}
    joins: list[Group] = []
    for m in nbrs[c]:
        h = at[m]
        if h is not None and all(h is not k for k in joins):
            joins.append(h)
            near[h.value] = near.get(h.value, 0) + len(h.cells)
    out = 0 if 1 in near else 2
    for v, joined in near.items():
        if joined + 1 == v:
            out |= bit(v)
    return out


def _forced_at(b: Board, cand: list[int], c: int, near_s: Near | None) -> tuple[tuple[int, str] | None, Trial]:
    """forced at one open cell: (the sizes that go, as a bitset, and why; or None) and what its trials read (see
    Trial; beyond which sizes the cell allows and which group each neighbour is in, which tell the sizes it tries).
    With ``near_s``, nothing unless its trials may read a changed cell."""
    # writing v does not complete a group unless it joins v - 1 cells (a 1: none): nothing is walled off
    sizes = _completing(b, c) & b.cand[c]
    if not sizes:
        return None, _NO_TRIAL
    if near_s is not None and not _forced_near(b, near_s, c, b.cols):
        return None, _NO_TRIAL
    bad = 0
    why = ""
    read = _NO_TRIAL
    for v in set_bits(sizes):
        known = recall(b, ("forced", c, v))
        reason, trial = _wall_off(b, cand, c, v) if known is _MISSING else cast("tuple[str | None, Trial]", known)
        read = trial if not read[4] else (read[0] + trial[0], read[1] + trial[1], read[2] + trial[2],
                                                 read[3] | trial[3], read[4] | trial[4])
        if reason:
            bad |= bit(v)
            why = why or f"{v} completes a {v} there and then {reason}"
    return ((bad, why) if bad else None), read


Trial = tuple[tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...], int, int]
"""What a forced trial at c read besides c: (the edge it walls off, each cell with the size it loses there, read
for being fixed and at what once without that size; the other cells its rule checks start from, read for being
fixed and at what; the cells read for some sizes, the edge and the starts included; those sizes, as a bitset: the
size written and the fixed sizes of the starts, whose groups and rooms the checks grow). Its answer holds while
none of the first two is fixed on one side only or at another size (the edge without its size) and none of the
third gains, loses or is fixed at one of the sizes on one side only. Last, the size written (a bitset), so that
a cell's trials together say which sizes it tried."""
_NO_TRIAL: Trial = ((), (), (), 0, 0)


class ForcedCells:
    """forced's work on one grid: the open cells where some size goes (cell -> (the sizes, as a bitset, and why)),
    what each open cell's trials read (see Trial), and the group each cell was in."""

    __slots__ = ("found", "reads", "group_at", "_readers")

    def __init__(self, found: dict[int, tuple[int, str]], reads: dict[int, Trial],
                 group_at: list[Group | None]) -> None:
        self.found = found
        self.reads = reads
        self.group_at = group_at
        self._readers: tuple[dict[int, list[tuple[int, int]]], dict[int, list[int]], dict[int, list[int]],
                             dict[int, int]] | None = None

    def __reduce__(self) -> tuple:
        # compiled, a class with its own __init__ is rebuilt by calling it (see SizeAreas)
        return (ForcedCells, (self.found, self.reads, self.group_at))

    def readers(self) -> tuple[dict[int, list[tuple[int, int]]], dict[int, list[int]], dict[int, list[int]],
                               dict[int, int]]:
        """Per kind of read of Trial, cell -> the open cells whose trials read it so, and per cell the sizes any
        trial reads it for (made once, when a grid first starts from this one)."""
        out = self._readers
        if out is None:
            edges: dict[int, list[tuple[int, int]]] = {}
            starts: dict[int, list[int]] = {}
            sized: dict[int, list[int]] = {}
            for c, (edge, fixed, part, _, _) in self.reads.items():
                for x, b_v in edge:
                    got_e = edges.get(x)
                    if got_e is None:
                        edges[x] = [(c, b_v)]
                    else:
                        got_e.append((c, b_v))
                for index, cells in ((starts, fixed), (sized, part)):
                    for x in cells:
                        got = index.get(x)
                        if got is None:
                            index[x] = [c]
                        elif got[-1] != c:
                            got.append(c)
            read_sizes = {x: _or_sizes(self.reads, cs) for x, cs in sized.items()}
            out = self._readers = (edges, starts, sized, read_sizes)
        return out

    def redo(self, b: Board, old: list[int], differing: list[int]) -> set[int]:
        """The cells whose answer may differ on ``b``, given this grid's candidates (``old``) and the cells whose
        candidates differ (see Trial): such a cell when it gained or lost a size it would try; when it was fixed
        or became fixed, the cells around its group on either grid (a group's extent changes only with a cell of it
        or beside it fixed on one side only); the cells whose trials read it as Trial says."""
        at = b._group_at
        assert at is not None
        cand, then, nbrs, reads = b.cand, self.group_at, b.nbrs, self.reads
        edges, starts, sized, read_sizes = self.readers()
        out: set[int] = set()
        seen: set[int] = set()
        for x in differing:
            was, now = old[x], cand[x]
            if single(was) != single(now):
                out.add(x)
                for g in (at[x], then[x]):  # x is in one: its neighbours are around it
                    if g is not None and id(g) not in seen:
                        seen.add(id(g))
                        for y in g.cells:
                            out.update(nbrs[y])
                r = starts.get(x)
                if r is not None:
                    out.update(r)
            elif now & ~was:  # (another grid's: a size gained may be one to try)
                if (was ^ now) & _completing(b, x):
                    out.add(x)
            else:
                mine = reads.get(x)
                if mine is not None and mine[4] & ~now:  # lost a size it tried (no other size joins them)
                    out.add(x)
            e = edges.get(x)
            # with three sizes or more on both grids the cell stays open without any one of them
            if e is not None and (was.bit_count() < 3 or now.bit_count() < 3):
                for c, b_v in e:
                    if single(was & ~b_v) != single(now & ~b_v):
                        out.add(c)
            r = sized.get(x)
            if r is not None:
                touched = _sizes_touched(was, now)
                if touched & read_sizes[x]:
                    for c in r:
                        if reads[c][3] & touched:
                            out.add(c)
        return out


def _or_sizes(reads: dict[int, Trial], cells: list[int]) -> int:
    """The sizes the trials of these cells read (Trial's fourth field), together."""
    out = 0
    for c in cells:
        out |= reads[c][3]
    return out


def _wall_off(b: Board, cand: list[int], c: int, v: int) -> tuple[str | None, Trial]:
    """forced's trial: write v at c (completing a group), take v from the cells around the group, and say what
    rule that breaks (None: none), with what the trial read. ``cand`` is a scratch copy of the grid's candidates,
    given back as it was; the answer is kept in b.memo with every cell the trial read."""
    cand[c] = bit(v)
    g = group_of(c, cand, b.nbrs)
    around_g = boundary(g, b.nbrs)
    edge = [m for m in around_g if cand[m] & bit(v)]
    for m in edge:
        cand[m] &= ~bit(v)
    reads = [*g, *around_g]
    starts: list[int] = []
    sizes = bit(v)
    if any(not cand[m] for m in edge):
        reason: str | None = "a cell would have no size left"
    else:
        starts = _around(b, [c] + edge)
        reads += starts
        # the rule checks grow the groups of the starts' fixed sizes and their rooms: they read those sizes only
        for s in starts:
            m = cand[s]
            if m and not m & (m - 1):
                sizes |= m
        reason = _check_rule(b, cand, starts, reads)
    for m in (c, *edge):  # the scratch copy back to the grid
        cand[m] = b.cand[m]
    if b.size <= ALLOW_LISTS_MAX:  # forced keeps no record on a small grid (see forced): what it read is not needed
        answer: tuple[str | None, Trial] = (reason, _NO_TRIAL)
        keep(b, ("forced", c, v), reads, answer)
        return answer
    # c itself is read only for the sizes it tries (written over here); the edge and starts for the sizes too
    fixed = set(starts)
    fixed.difference_update(edge)
    fixed.discard(c)
    part = set(reads)
    part.discard(c)
    answer = (reason, (tuple((m, bit(v)) for m in edge), tuple(fixed), tuple(part), sizes, bit(v)))
    keep(b, ("forced", c, v), [c, *part], answer)
    return answer


# ---- medium: an open cell's region --------------------------------------------------------------
def must_share(b: Board, ctx: Context) -> list[LogicStep]:
    """An open cell that cannot be 1 lies in a region of at least its smallest size m, made of cells that allow
    one of its sizes and of the groups of those sizes still short of their size (a complete group is a region
    of its own). A cell without which it cannot reach m such cells is in its region: the two share their size."""
    p = Pass(b, "must_share", "medium", ctx.nested)
    b.groups()
    at, cand, nbrs = b._group_at, b.cand, b.nbrs
    assert at is not None
    near = None if ctx.dirty is None else Near(b, grown(b, ctx.dirty))
    for c in b.open_cells():
        sizes = cand[c]
        if sizes & 2:
            continue  # it may be a 1: it need reach no cell
        least = (sizes & -sizes).bit_length() - 1
        if near is not None and not near.cell(c, least + 1):
            continue  # it reads cells within its least size of it, none of which changed since it found nothing

        order = _reach(c, sizes, cand, at, nbrs, least, -1)
        if len(order) < least:
            continue  # no size of it fits: no_room says so
        for x in order[1:least]:  # a cell met after least others is never needed: they reach least without it
            if len(_reach(c, sizes, cand, at, nbrs, least, x)) >= least:
                continue
            mx = cand[x]
            shared = sizes & mx
            name_c, name_x = b.name(c), b.name(x)
            if mx & (mx - 1):
                p.add([c, x], partial(_share_sentence, name_c, name_x, sizes, least, shared),
                      {c: sizes & ~shared, x: mx & ~shared})
            else:
                w = mx.bit_length() - 1
                p.add([c, x], f"{name_c} is at least {least} ({_sizes_of(sizes)}) and cannot reach {least} cells "
                      f"without {who(b, at[x], ctx)}, so it joins it: {name_c} is {w}",  # type: ignore[arg-type]
                      place={c: w})
    return p.steps


def _share_sentence(name_c: str, name_x: str, sizes: int, least: int, shared: int) -> str:
    """must_share's sentence (a function, so that a look-ahead's run works it out only when it is read)."""
    return (f"{name_c} is at least {least} ({_sizes_of(sizes)}) and cannot reach {least} cells without {name_x}, "
            f"so the two are one region: both {_sizes_of(shared)}")


def _reach(start: int, sizes: int, cand: list[int], at: list[Group | None], nbrs: tuple[tuple[int, ...], ...],
           limit: int, without: int) -> list[int]:
    """must_share's walk (grid.grow's): the cells connected to ``start`` through open cells that allow one of
    ``sizes`` and cells of groups of those sizes still short of their size, breadth-first, never ``without``, until
    at least ``limit`` are found."""

    def admit(y: int) -> bool:
        m = cand[y]
        if not m & sizes:
            return False
        if m & (m - 1):
            return True
        g = at[y]
        return g is not None and len(g.cells) < g.value

    found = [start]
    grow(found, {start, without}, nbrs, admit, limit=limit)
    return found


# ---- medium: counting a room against the groups that need it ----------------------------------------
ROOM_COUNT_NESTED_MAX = 1024
"""Largest grid on which room_count runs inside a look-ahead's hypotheses: it counts the whole grid, and inside
janko-330's (3200 cells) it made the rating over 4 times slower (46 s -> more than 180 s); on 10x10s it is what
solves janko-369, 430 and 585. A bigger grid's look-ahead is cheaper without it: as sound, it may rate harder."""


def room_count(b: Board, ctx: Context) -> list[LogicStep]:
    """A region of size v through an open cell lies in the cells connected to it that allow v (its room), and
    no region of another size shares a cell with it: the groups short of their size take cells of that room, each
    as many as its need exceeds the cells it can reach outside it, and all together as many as their needs exceed
    the open cells they can reach outside it. A size whose room, less what those groups take, is too small goes
    (the counting a person does around big numbers); the region may be that of a group of its size, whose cells
    it then leaves to it, only where that group can reach."""
    p = Pass(b, "room_count", "medium", ctx.nested)
    if ctx.nested and b.size > ROOM_COUNT_NESTED_MAX:
        return p.steps
    rows, cols = b.rows, b.cols
    held: dict[int, int] = {}  # size -> the cells of the groups of it short of it
    for g in b.groups():
        if len(g.cells) < g.value:
            held[g.value] = held.get(g.value, 0) + len(g.cells)
    if not held:
        return p.steps
    allow = _allow_planes(b)  # size -> the cells that allow it, as a cell mask
    once = open_mask = 0  # the cells some plane holds, and those two or more hold: the open cells
    for plane in allow.values():
        open_mask |= once & plane
        once |= plane
    clusters = _taking_groups(b, ctx)
    clusters += _new_regions(b, clusters, open_mask)
    reached = 0
    needs = 0  # open cells the groups need, together
    for _, reaches, need in clusters:
        needs += need
        for _, r in reaches:
            reached |= r
    takers = _Takers(clusters)
    reached_open = reached & open_mask
    spare_all = reached_open.bit_count()
    found: dict[int, dict[int, int]] = {}
    for v in sorted(allow):
        if v < 2 or not allow[v] & open_mask:
            continue
        mine_v = [k for k, sizes in enumerate(takers.sizes) if sizes >> v & 1]
        near_v = takers.meeting(allow[v])
        for area in bit_components(allow[v], rows, cols):
            size = area.bit_count()
            # a cluster of another size takes at most what it needs, one of v its own cells more
            if not area & open_mask or size < v or size - needs - held.get(v, 0) >= v:
                continue  # no open cell, already too small for no_room, or big enough whatever the groups take
            each = takers.taken(area, near_v)
            spare = spare_all - (reached_open & area).bit_count()  # open cells outside it, each for one group at most
            fits = 0 if size - max(each, needs - spare) < v else area  # a new region of v
            for k in mine_v:  # the clusters of v: the region may be theirs
                if size - max(each - takers.take(k, area), needs - takers.needs[k] - spare) >= v:
                    fits |= takers.unions[k]
            gone = area & open_mask & ~fits
            if gone:
                left = size - max(each, needs - spare)
                for c in set_bits(gone):
                    _note_small(found, c, bit(v), left if left > 0 else 0)
    _found_steps(p, found, "the cells connected to it that allow the size are too few once the other regions "
                 "short of their size (groups, and clue-free regions) take what they need of them")
    return p.steps


def _allow_planes(b: Board) -> dict[int, int]:
    """bit_planes of the grid's candidates (size -> the cells that allow it, as a cell mask), kept on the grid and
    brought up to date from its last state there: candidates only shrink, so only the sizes the cells logged
    since lost leave a plane (janko-330: building them afresh was a third of room_count)."""
    kept: tuple[tuple[list[int], object, int], dict[int, int]] | None = b.derived.get("planes")
    snap = _snapshot(b)
    if kept is not None and kept[0] is snap:
        return kept[1]
    if kept is None or kept[0][1] is not snap[1]:
        planes = bit_planes(b.cand)
    else:
        old, cand = kept[0][0], b.cand
        planes = dict(kept[1])
        for c in _differing(b, kept[0]):
            one = 1 << c
            for v in set_bits(old[c] & ~cand[c]):
                left = planes[v] ^ one
                if left:
                    planes[v] = left
                else:
                    del planes[v]
    b.derived["planes"] = (snap, planes)
    return planes


class _Takers:
    """room_count's clusters, set out to count what they take of an area: a cluster takes its need less the cells
    it can reach outside the area (its best reach), none when that is negative. Most clusters' reaches lie far from
    a given area and take what they take of any area they miss: summed once, and an area's count asks only the
    clusters whose reach spans its cells' range (cell numbers, row-major)."""

    def __init__(self, clusters: list[tuple[int, list[tuple[int, int]], int]]) -> None:
        self.sizes: list[int] = []
        self.needs: list[int] = []
        self.unions: list[int] = []
        self.reaches: list[list[tuple[int, int]]] = []  # (its need less the cells of its reach, the reach)
        self.away: list[int] = []  # what it takes of an area its reaches miss
        self.lo: list[int] = []
        self.hi: list[int] = []
        self.missed = 0
        for sizes, reaches, need in clusters:
            union = 0
            outside: list[tuple[int, int]] = []
            best = -1 << 62
            for total, r in reaches:
                union |= r
                left = total - r.bit_count()
                outside.append((left, r))
                best = left if left > best else best
            away = best if best > 0 else 0
            self.sizes.append(sizes)
            self.needs.append(need)
            self.unions.append(union)
            self.reaches.append(outside)
            self.away.append(away)
            self.lo.append((union & -union).bit_length() - 1)
            self.hi.append(union.bit_length() - 1)
            self.missed += away

    def take(self, k: int, area: int) -> int:
        """What cluster k takes of ``area``."""
        best = -1 << 62
        for left, r in self.reaches[k]:
            t = left + (r & area).bit_count()
            best = t if t > best else best
        return best if best > 0 else 0

    def meeting(self, cells: int) -> list[int]:
        """The clusters whose reach meets ``cells``: only these can take other than they take of an area it misses."""
        unions = self.unions
        return [k for k in range(len(unions)) if unions[k] & cells]

    def taken(self, area: int, meeting: list[int]) -> int:
        """What the clusters take of ``area``, together (``meeting``: the clusters whose reach meets it, or more)."""
        lo_a = (area & -area).bit_length() - 1
        hi_a = area.bit_length() - 1
        each = self.missed
        lo, hi, away, unions = self.lo, self.hi, self.away, self.unions
        for k in meeting:
            # a cluster whose reach misses the area takes what it takes of any such area, already counted
            if lo[k] <= hi_a and hi[k] >= lo_a and unions[k] & area:
                each += self.take(k, area) - away[k]
        return each


POCKET_EXIT_MAX = 24
"""Largest pocket (open cells behind one open cell) pocket_exit counts: the count is read off a picture."""


def pocket_exit(b: Board, ctx: Context) -> list[LogicStep]:
    """A pocket is a set of open cells whose only open neighbour outside is one cell, its exit. A region of size v
    through a pocket cell that cannot reach v cells inside the pocket (and meets no group of v there) leaves through
    the exit; then the groups that can grow only into the pocket and its exit (none of size v) must take what they
    need from the pocket's other cells: when those are too few, the cell cannot be v (two groups sharing one
    pocket, as in penpuz-db09's top-right corner)."""
    p = Pass(b, "pocket_exit", "medium", ctx.nested)
    if ctx.nested:
        return p.steps  # not inside the look-ahead's hypotheses: there it cost 9% of the settled 10x10s' time
    cand, nbrs = b.cand, b.nbrs
    if all(len(g.cells) >= g.value for g in b.groups()):
        return p.steps
    at = b._group_at  # set by groups()
    assert at is not None
    is_open = [bool(m & (m - 1)) for m in cand]
    seen: set[frozenset[int]] = set()
    for e in cut_cells(compress(range(b.size), is_open), nbrs):
        member = is_open[:]
        member[e] = False
        for n in nbrs[e]:
            if not member[n]:
                continue
            pocket = component(n, member, nbrs, limit=POCKET_EXIT_MAX + 1)
            key = frozenset(pocket)
            if len(pocket) > POCKET_EXIT_MAX or key in seen:
                continue
            seen.add(key)
            _pocket_exit_at(b, p, pocket, e, at)
    return p.steps


def _pocket_exit_at(b: Board, p: Pass, pocket: list[int], e: int, at: list[Group | None]) -> None:
    """pocket_exit on one pocket and its exit."""
    cand, nbrs = b.cand, b.nbrs
    inside = set(pocket)
    touching: dict[int, list[Group]] = {}  # size -> the short groups of it next to the pocket
    for c in pocket:
        for m in nbrs[c]:
            g = at[m]
            if g is not None and len(g.cells) < g.value and all(g is not h for h in touching.get(g.value, ())):
                touching.setdefault(g.value, []).append(g)
    needs: dict[int, int] = {}  # size -> the pocket cells its groups take, when none can grow elsewhere
    for w, gs in touching.items():
        exits = {m for g in gs for c in g.cells for m in nbrs[c] if cand[m] & (cand[m] - 1) and cand[m] >> w & 1}
        if exits <= inside | {e}:
            # joined into one region they need the least: its size less all their cells
            need = w - sum(len(g.cells) for g in gs)
            if need > 0:
                needs[w] = need
    if not needs:
        return
    for x in pocket:
        for v in set_bits(cand[x] & cand[e]):
            if v < 2:
                continue
            demand = sum(need for w, need in needs.items() if w != v)
            sizes = sum(1 << w for w in needs if w != v)
            supply = sum(1 for y in pocket if y != x and cand[y] & sizes)
            if demand <= supply:
                continue
            room_v = component(x, {c for c in pocket if cand[c] >> v & 1}, nbrs, limit=v)
            if len(room_v) >= v or e not in {m for c in room_v for m in nbrs[c]}:
                continue
            if any(_short_of(at[m], v) for c in room_v for m in nbrs[c]):
                continue  # the region may grow through a group of v out of the pocket elsewhere
            p.add([x], partial(_pocket_exit_sentence, b, x, v, pocket, e, demand, supply), {x: bit(v)})


def _short_of(g: Group | None, v: int) -> bool:
    """Whether ``g`` is a group of size ``v`` still short of it."""
    return g is not None and g.value == v and len(g.cells) < v


def _pocket_exit_sentence(b: Board, x: int, v: int, pocket: list[int], e: int, demand: int, supply: int) -> str:
    return (f"{b.name(x)} cannot be {v}: a region of {v} there has too few cells in the pocket "
            f"{names(b, sorted(pocket))} ({len(pocket)} open cells) and leaves it through {b.name(e)}, its only "
            f"way out; the groups that can grow only into the pocket would then need {demand} of its other cells, "
            f"and only {supply} allow their sizes")


def _taking_groups(b: Board, ctx: Context) -> list[tuple[int, list[tuple[int, int]], int]]:
    """room_count's groups: per size, the groups short of it in clusters that may be one region (two join only
    when their cells and the cells between them are no more than the size). Each cluster: its size (a bitset), per
    group its size and the cells its region can hold as a cell mask (within its need of it through cells that allow
    its size, never in or beside a group of its size it cannot join), and the fewest open cells its region needs
    (the size less the fixed cells of that size one group's mask holds, at most). What a size's clusters are
    depends only on which cells allow it and which are fixed at it: kept per size (see kept_sizes)."""
    by_value: dict[int, list[Group]] = {}
    for h in b.groups():
        by_value.setdefault(h.value, []).append(h)
    answers: dict[int, list[tuple[int, list[tuple[int, int]], int]]] = kept_sizes(b, ctx, "room_count")
    out: list[tuple[int, list[tuple[int, int]], int]] = []
    for w, groups in by_value.items():
        clusters = answers.get(w)
        if clusters is None:
            clusters = answers[w] = _size_clusters(b, w, groups)
        out.extend(clusters)
    keep_sizes(b, ctx, "room_count", answers)
    return out


def _size_clusters(b: Board, w: int, groups: list[Group]) -> list[tuple[int, list[tuple[int, int]], int]]:
    """_taking_groups for one size, whose groups (complete ones too) are ``groups``."""
    nbrs = b.nbrs
    growing_groups = [g for g in groups if len(g.cells) < w]
    if not growing_groups:
        return []
    index = {id(g): k for k, g in enumerate(growing_groups)}
    parent = list(range(len(growing_groups)))
    allow = allow_list(b, w)
    reach: list[int] = []
    fixed_in: list[int] = []
    for k, g in enumerate(growing_groups):
        n = len(g.cells)
        need = w - n
        near = distances(g.cells, nbrs, within=need + 1, through=allow)
        blocked: list[Group] = []
        joinable = n
        for h in groups:
            if h is g:
                continue
            d = min((near[c] for c in h.cells if c in near), default=-1)
            if d < 0:
                continue
            if n + len(h.cells) + d - 1 > w:
                blocked.append(h)
            else:
                joinable += len(h.cells)
                if id(h) in index:
                    parent[find_root(parent, index[id(h)])] = find_root(parent, k)
        if blocked:
            walk = list(allow)
            for h in blocked:
                for c in h.cells:
                    walk[c] = False
                for c in boundary(h.cells, nbrs):
                    walk[c] = False
            near = distances(g.cells, nbrs, within=need, through=walk)
        mask = 0
        for c, d in near.items():
            if d <= need:
                mask |= 1 << c
        reach.append(mask)
        fixed_in.append(joinable)
    clusters: dict[int, tuple[int, list[tuple[int, int]], int]] = {}
    for k in range(len(growing_groups)):
        need = w - fixed_in[k] if w > fixed_in[k] else 0
        key = find_root(parent, k)
        kept = clusters.get(key)
        mine = (w, reach[k])
        clusters[key] = (bit(w), [mine], need) if kept is None else (kept[0], kept[1] + [mine], max(kept[2], need))
    return list(clusters.values())


def _new_regions(b: Board, clusters: list[tuple[int, list[tuple[int, int]], int]],
                 open_mask: int) -> list[tuple[int, list[tuple[int, int]], int]]:
    """room_count's new regions: open cells that cannot be 1 and that no group of one of their sizes can reach lie
    in regions of open cells only (like db09's clue-free snake of 13). A cell and a cell it cannot reach its least
    size without (must_share's walk) are one region: a part, its size one all its cells allow; parts whose regions
    may meet are one cluster. Each cluster, like a group's (see _taking_groups): the sizes its cells allow, the
    cells its regions can hold (open cells that allow one of its sizes, within its largest size less its cells of a
    part) and the fewest open cells they hold."""
    cand, nbrs = b.cand, b.nbrs
    reached: dict[int, int] = {}  # size -> the cells some group of it can reach
    for sizes, reaches, _ in clusters:
        for _, r in reaches:
            reached[sizes] = reached.get(sizes, 0) | r
    alone = [False] * b.size
    for c in set_bits(open_mask):
        m = cand[c]
        if m & 2:
            continue  # it may be a 1
        if not any(m & sizes and r >> c & 1 for sizes, r in reached.items()):
            alone[c] = True
    cells = [c for c in range(b.size) if alone[c]]
    if not cells:
        return []
    # a cell it cannot reach its least size without is in its region (must_share's walk): one region, one part
    at = b._group_at
    assert at is not None
    part_of = list(range(b.size))
    for c in cells:
        m = cand[c]
        least = (m & -m).bit_length() - 1
        order = _reach(c, m, cand, at, nbrs, least, -1)
        for x in order[1:least]:
            if alone[x] and find_root(part_of, x) != find_root(part_of, c) and \
                    len(_reach(c, m, cand, at, nbrs, least, x)) < least:
                part_of[find_root(part_of, x)] = find_root(part_of, c)
    parts: dict[int, list[int]] = {}
    for c in cells:
        parts.setdefault(find_root(part_of, c), []).append(c)
    found: list[tuple[int, int, int, int]] = []  # (sizes, cells as a mask, reach, fewest cells)
    for part in parts.values():
        sizes = -1
        least = 0
        mask = 0
        for c in part:
            sizes &= cand[c]  # one region: one size, which every cell of it allows
            low = (cand[c] & -cand[c]).bit_length() - 1
            least = low if low > least else least
            mask |= 1 << c
        if not sizes:
            continue  # no size fits them all: must_share says so
        through = [bool(m & sizes and m & (m - 1)) for m in cand]
        # its region's other cells lie within the largest size less its cells of them
        near = distances(part, nbrs, within=top_value(sizes) - len(part), through=through)
        reach = 0
        for c in near:
            reach |= 1 << c
        found.append((sizes, mask, reach, max(len(part), least)))
    # parts whose regions may meet are taken as one: its regions hold both parts' cells
    parent = list(range(len(found)))
    for k, (sizes, _, reach, _) in enumerate(found):
        for j, (other, there, _, _) in enumerate(found):
            if j != k and sizes & other and reach & there:
                parent[find_root(parent, j)] = find_root(parent, k)
    merged: dict[int, tuple[int, int, int, int]] = {}
    for k, (sizes, cells_k, reach, need) in enumerate(found):
        key = find_root(parent, k)
        kept = merged.get(key)
        if kept is None:
            merged[key] = (sizes, cells_k, reach, need)
        else:
            both = kept[1] | cells_k
            merged[key] = (kept[0] | sizes, both, kept[2] | reach, max(kept[3], need, both.bit_count()))
    return [(sizes, [(need, reach)], need) for sizes, _, reach, need in merged.values()]


# ---- expert: cutting an area and the groups that can only grow into it ------------------------------
CUT_AREA_MAX = 40
"""Most open cells cut_area cuts in one area (more: too many ways for a person, and for the search)."""
CUT_AREA_TRIES = 4000
"""Most regions cut_area tries in one area before it gives up on it (no deduction: never a guess)."""


def sealed_areas(b: Board) -> list[tuple[list[int], list[Group]]]:
    """The open cells cut into sealed areas: connected through open neighbours and through the groups short of
    their size next to them, each with those groups. Every region that holds an open cell of an area lies in the
    area and its groups (a region leaves open cells only through the fixed cells of its size, its groups; a
    growing group's open neighbours are in the area, a complete group holds no open cell)."""
    b.groups()
    at, cand, nbrs = b._group_at, b.cand, b.nbrs
    assert at is not None
    seen = [False] * b.size
    out: list[tuple[list[int], list[Group]]] = []
    for s in range(b.size):
        if seen[s] or not cand[s] & (cand[s] - 1):
            continue
        seen[s] = True
        cells, groups, todo = [], [], [s]
        met: set[int] = set()
        while todo:
            c = todo.pop()
            cells.append(c)
            for m in nbrs[c]:
                if seen[m]:
                    continue
                mm = cand[m]
                if mm & (mm - 1):
                    seen[m] = True
                    todo.append(m)
                    continue
                g = at[m]
                if g is not None and len(g.cells) < g.value and id(g) not in met:
                    met.add(id(g))
                    groups.append(g)
                    for x in boundary(g.cells, nbrs):
                        if not seen[x] and cand[x] & (cand[x] - 1):
                            seen[x] = True
                            todo.append(x)
        cells.sort()
        groups.sort(key=lambda g: g.cells[0])
        out.append((cells, groups))
    return out


def cut_area(b: Board, ctx: Context) -> list[LogicStep]:
    """A sealed area (see sealed_areas) is cut into regions: new ones of its open cells, and its groups grown to
    their size with open cells of it (two or more of a size may join). Every way to cut it is tried, and only the
    sizes some way gives a cell are kept."""
    p = Pass(b, "cut_area", "expert", ctx.nested)
    near = None if ctx.dirty is None else Near(b, grown(b, ctx.dirty))
    for cells, groups in sealed_areas(b):
        if len(cells) > CUT_AREA_MAX or (not groups and 6 <= len(cells) <= CLOSED_AREA_MAX):
            continue  # too big, or a closed area closed_area has already cut (it finds what this would)
        if near is not None:
            box = cells_box(b, cells)
            for g in groups:
                box = union_box(box, b.box(g))
            if not near.box(box, 1):
                continue  # nothing it reads changed since it found nothing here
        known = recall(b, ("cut", *cells))
        if known is _MISSING:
            seen = _cuts(b, cells, groups)
            reads = [m for c in cells for m in b.nbrs[c]] + [m for g in groups for c in g.cells for m in b.nbrs[c]]
            keep(b, ("cut", *cells), [*cells, *reads], seen)
        else:
            seen = cast("list[int] | None", known)
        if seen is None:
            continue  # too many ways: no deduction
        if not any(seen):
            raise Contradiction(cells[0], f"the open {names(b, cells)} and the groups that can only grow into them "
                                "cannot be cut into regions")
        removes = {c: b.cand[c] & ~seen[k] for k, c in enumerate(cells)}
        shrunk = [(c, seen[k]) for k, c in enumerate(cells) if removes[c]]
        if shrunk:
            grow = [who(b, g, ctx) for g in groups]
            p.add(cells, partial(_cut_sentence, b.rows, b.cols, cells, grow, shrunk), removes)
    return p.steps


def _cut_sentence(rows: int, cols: int, cells: list[int], grow: list[str], shrunk: list[tuple[int, int]]) -> str:
    """cut_area's sentence (a function, so that a look-ahead's run works it out only when it is read): ``grow`` names
    the groups, ``shrunk`` holds the cells that lose sizes, each with the sizes kept."""
    name = cell_names(rows, cols)
    kept = "; ".join(f"{name[c]} {_sizes(mask)}" for c, mask in shrunk)
    shown = ", ".join(name[c] for c in cells[:6]) + (f" and {len(cells) - 6} more" if len(cells) > 6 else "")
    groups = (", and " + ", ".join(grow) + ", which can grow only into them,") if grow else ""
    return (f"the open {shown} ({len(cells)} cells){groups} must be cut into regions, every group reaching its "
            f"size; the only ways leave {kept}")


def _cuts(b: Board, cells: list[int], groups: list[Group]) -> list[int] | None:
    """Per cell of a sealed area, the sizes some way to cut it gives the cell (bitsets, in the order of ``cells``);
    None when the tries ran out. A region is a connected set of open cells of the area and of its groups (a group
    taken whole), of one size that every one of its open cells allows and its cells count exactly, with no cell of
    that size next to it (a fixed one, or one of a region cut before); every group must be in some region."""
    cutter = _Cutter(b, cells, groups)
    return cutter.seen if cutter.cut() else None


class _Cutter:
    """_cuts' search (methods, not nested functions: a recursive closure is a reference cycle, left to the cyclic
    GC). Nodes are the open cells (their index in ``cells``) and the groups (after them), each with a weight (its
    cells), the sizes it allows and its neighbouring nodes."""

    def __init__(self, b: Board, cells: list[int], groups: list[Group]) -> None:
        cand, nbrs = b.cand, b.nbrs
        at = b._group_at
        assert at is not None
        self.cand, self.nbrs, self.cells = cand, nbrs, cells
        index = {c: k for k, c in enumerate(cells)}
        count = self.count = len(cells)
        group_node = {id(g): count + k for k, g in enumerate(groups)}
        self.weight = [1] * count + [len(g.cells) for g in groups]
        self.masks = [cand[c] for c in cells] + [bit(g.value) for g in groups]
        self.members = [[c] for c in cells] + [list(g.cells) for g in groups]
        self.adj: list[list[int]] = []
        for node in range(len(self.weight)):
            out: dict[int, None] = {}
            for c in self.members[node]:
                for m in nbrs[c]:
                    k = index.get(m)
                    if k is None:
                        h = at[m]
                        k = None if h is None else group_node.get(id(h))
                    if k is not None and k != node:
                        out[k] = None
            self.adj.append(list(out))
        self.assigned: dict[int, int] = {}  # cell -> size, for the open cells and groups of the regions cut so far
        self.free = [True] * len(self.weight)
        self.seen = [0] * count
        self.tries = 0

    def regions(self, start: int) -> Iterator[tuple[list[int], int, int]]:
        """The connected sets of free nodes holding ``start`` some size still fits: (nodes, sizes, weight)."""
        left = sum(w for w, f in zip(self.weight, self.free, strict=True) if f)  # no size above the cells to cut
        first = self.masks[start] & ~((1 << self.weight[start]) - 1) & ((1 << (left + 1)) - 1)
        if first:
            yield from self.grow([start], [y for y in self.adj[start] if self.free[y]], {start}, first,
                                 self.weight[start])

    def grow(self, chosen: list[int], frontier: list[int], banned: set[int], mask: int,
             w: int) -> Iterator[tuple[list[int], int, int]]:
        yield chosen, mask, w
        weight, masks, adj, free = self.weight, self.masks, self.adj, self.free
        for k, x in enumerate(frontier):
            w2 = w + weight[x]
            mask2 = mask & masks[x] & ~((1 << w2) - 1)  # no size below its cell count
            if not mask2:
                continue  # (nor can any set with it and these: sizes only go, cells only come)
            rest = frontier[k + 1:]
            ban = banned | set(frontier[:k + 1])
            new = [y for y in adj[x] if free[y] and y not in ban and y not in rest]
            yield from self.grow(chosen + [x], rest + new, ban, mask2, w2)

    def fits(self, nodes: list[int], v: int) -> bool:
        """Whether no cell of size v is next to the region (it would join it)."""
        inside = {c for x in nodes for c in self.members[x]}
        cand, assigned, b_v = self.cand, self.assigned, 1 << v
        for c in inside:
            for m in self.nbrs[c]:
                if m not in inside and (assigned.get(m) == v or cand[m] == b_v):
                    return False
        return True

    def cut(self) -> bool:
        """Cut the free nodes every way, recording each whole cut in ``seen``; False when the tries ran out."""
        count, free = self.count, self.free
        start = next((k for k in range(count) if free[k]), None)
        if start is None:
            if any(free[count:]):
                return True  # a group left short of its size
            for k, c in enumerate(self.cells):
                self.seen[k] |= 1 << self.assigned[c]
            return True
        for nodes, mask, w in self.regions(start):
            self.tries += 1
            if self.tries > CUT_AREA_TRIES:
                return False
            if not mask >> w & 1 or not self.fits(nodes, w):
                continue
            for x in nodes:
                free[x] = False
                for c in self.members[x]:
                    self.assigned[c] = w
            # a group whose open neighbours are all cut can no longer reach its size
            starved = any(free[x] and not any(free[y] for y in self.adj[x] if y < count)
                          for x in range(count, len(free)))
            ok = True if starved else self.cut()
            for x in nodes:
                free[x] = True
                for c in self.members[x]:
                    del self.assigned[c]
            if not ok:
                return False
        return True


# ---- look-ahead -----------------------------------------------------------------------------------
def _hypotheses(b: Board, width: int, nested: bool) -> list[tuple[int, int, bool]]:
    """(cell, size, is) questions to look ahead on: every size of a cell with at most ``width`` candidates,
    then for each growing group (fewest exits first) whether an exit takes its size or not."""
    out: list[tuple[int, int, bool]] = []
    seen: set[tuple[int, int, bool]] = set()
    for c in b.open_cells():
        m = b.cand[c]
        if bin(m).count("1") <= width:
            for v in set_bits(m):
                out.append((c, v, True))
                seen.add((c, v, True))
    exits = []
    for g in ([] if nested else growing(b)):
        xs = [c for c in boundary(g.cells, b.nbrs) if b.cand[c] & bit(g.value) and not single(b.cand[c])]
        exits.append((len(xs), g.value, xs))
    for k, v, xs in sorted(exits, key=lambda e: e[0]):
        if k > width + 1:
            break
        for x in xs:
            for q in ((x, v, True), (x, v, False)):
                if q not in seen:
                    seen.add(q)
                    out.append(q)
    return out


KEPT_TRIALS_MAX = 4_000_000
"""Most cells (candidates and log entries) of the hard look-ahead's trial grids kept for the expert one."""


def _kept_trials(b: Board, ctx: Context, level: str) -> tuple[dict | None, dict | None]:
    """(where the hard look-ahead keeps its trials, the hard trials the expert look-ahead may carry on from).

    The expert look-ahead runs on the grid the hard one just left unchanged, and asks many of the same
    questions. Its ladder holds the hard one's (when the techniques inside a hard hypothesis are no harder than
    those inside an expert one), so its run on a hypothesis takes the very passes the hard run took, until
    that run stopped: the expert run can carry on from the hard run's grid instead of doing them again."""
    if ctx.nested or not ctx.incremental:
        return None, None
    la = ctx.lookahead
    if level == "hard":
        trials: dict = {}
        b.derived["hard trials"] = (len(b.log), la, trials)
        return trials, None
    kept = b.derived.pop("hard trials", None)
    if kept is not None and kept[0] == len(b.log) and kept[1] == la and \
            LEVELS.index(la.hard_inner) <= LEVELS.index(la.expert_inner):
        return None, kept[2]
    return None, None


def _witness_on(b: Board, ctx: Context) -> list[int] | None:
    """A solution of the puzzle that every cell's candidates still allow, or None. Only at the top level: a
    nested run is on a hypothesis the solution breaks (those it satisfies are skipped), so none would fit."""
    if ctx.nested or ctx.witness is None:
        return None
    sol = ctx.witness()
    if sol is None or any(not m >> v & 1 for m, v in zip(b.cand, sol, strict=True)):
        return None  # e.g. a hint from marks that took a true value away
    return sol


TRIALS_BYTES = 24_000_000
"""About the most memory a Trials holds (its keys' candidate grids, TRIAL_LOGGED_BYTES per cell its outcomes logged)
before it forgets the trials used least recently (a forgotten trial only costs its run again)."""
TRIAL_LOGGED_BYTES = 100
"""About the memory of one logged cell of a kept outcome (its place in the log and its candidates at the end)."""


class _Outcome:
    """What a look-ahead trial's run came to, read as the run (a solver.Run) is: how it ended, its passes, its
    last step (all a look-ahead reads of its steps), the Work checks it made (None: not counted, no Work budget),
    the clues of its steps' sentences (contradictions only: their sentences end up in the rating), and for a run
    that ended stuck or solved what it did to the trial grid: the cells it logged in order, their candidates at
    the end and the log offsets at which techniques found nothing (what the expert look-ahead carries on from)."""

    def __init__(self, state: str, passes: list[str], steps: list[LogicStep], checks: int | None,
                 clues: tuple[int, ...] | None, logged: list[int], ends: dict[int, int], clean: dict[str, int]) -> None:
        self.state = state
        self.passes = passes
        self.steps = steps
        self.checks = checks
        self.clues = clues
        self.logged = logged
        self.ends = ends
        self.clean = clean


class Trials:
    """The look-ahead's trials already run, kept across the ratings of one generation (a generator rates hundreds
    of clue sets of one answer, whose look-aheads try many of the same hypotheses on the same grids): a trial run
    again is given its first run's outcome instead, its Work checks charged to the budget, so ratings (steps,
    levels, where a budget runs out) are exactly those without it.

    Why that is exact: a nested run reads only its grid's candidates (the steps: candidates only shrink, and every
    kept answer in Board.memo or Board.derived is given back only while what it read is the same), the cells each
    technique looks at again (Context.dirty: which and how many checks no_room and new_region make) and its
    settings; the key holds all of these. The clues only name groups in the steps' sentences: a contradiction's
    outcome is given only for the same clues. An outcome is given only when the budget has at least its checks
    left, so that the run would not have stopped early; a run the budget cut is not kept."""

    def __init__(self, max_bytes: int = TRIALS_BYTES) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self.kept: OrderedDict[tuple, tuple[_Outcome, int]] = OrderedDict()
        self.hits = self.misses = 0

    def key(self, trial: Board, up_to: str, depth: int, la: Lookahead, incremental: bool,
            deadline: float | Work | None) -> tuple:
        """What decides the run of the ladder up to ``up_to`` for ``depth`` passes on ``trial``."""
        width = (trial.size + 8) // 8
        grid = b"".join([m.to_bytes(width, "little") for m in trial.cand])
        looks: list[tuple[int, ...] | None] = []
        if incremental:
            top = LEVELS.index(up_to)
            for t in LADDER:
                if not t.lookahead and LEVELS.index(t.level) <= top:
                    dirty = dirty_of(trial, t.name, deadline)
                    looks.append(None if dirty is None else tuple(sorted(dirty)))
        # the look-ahead's settings by value: a key of strings, numbers and bytes only, which the cyclic GC skips
        return (grid, up_to, depth, la.hard_inner, la.hard_passes, la.expert_inner, la.expert_passes, incremental,
                tuple(looks))

    def get(self, key: tuple, deadline: float | Work | None, clues: Sequence[int]) -> _Outcome | None:
        """The outcome kept for ``key`` when it stands for a run now (the budget charged its checks), else None."""
        got = self.kept.get(key)
        if got is None:
            self.misses += 1
            return None
        out = got[0]
        if isinstance(deadline, Work) and (out.checks is None or deadline.left < out.checks) or \
                out.clues is not None and out.clues != tuple(clues):
            self.misses += 1
            return None
        if isinstance(deadline, Work):
            deadline.left -= cast(int, out.checks)
        self.kept.move_to_end(key)
        self.hits += 1
        return out

    def put(self, key: tuple, trial: Board, start: int, run: Any, checks: int | None, clues: Sequence[int]) -> None:
        """Keep a run's outcome (``start``: the length of the trial's log when the run began; ``checks``: the
        Work checks it made, None with no Work budget)."""
        if run.state not in ("stuck", "solved", "contradiction"):
            return
        logged: list[int] = []
        ends: dict[int, int] = {}
        clean: dict[str, int] = {}
        if run.state != "contradiction":
            logged = trial.log[start:]
            ends = {c: trial.cand[c] for c in logged}
            clean = {name: at - start for name, at in trial.clean.items() if at >= start}
        out = _Outcome(run.state, list(run.passes), run.steps[-1:], checks,
                       tuple(clues) if run.state == "contradiction" else None, logged, ends, clean)
        size = len(key[0]) + TRIAL_LOGGED_BYTES * (len(logged) + 1)
        old = self.kept.pop(key, None)
        if old is not None:
            self.bytes -= old[1]
        self.kept[key] = (out, size)
        self.bytes += size
        while self.bytes > self.max_bytes:
            self.bytes -= self.kept.popitem(last=False)[1][1]

    @staticmethod
    def replay(out: _Outcome, trial: Board) -> None:
        """Leave ``trial`` (the grid an outcome was kept for) as its run left it."""
        start = len(trial.log)
        for c, m in out.ends.items():
            trial.cand[c] = m
        if out.logged:
            trial.log.extend(out.logged)
            trial.changed(None)
        for name, at in out.clean.items():
            trial.clean[name] = start + at


def _trial_run(trial: Board, ctx: Context, up_to: str, depth: int, kept: bool) -> Any:
    """The nested run of the ladder up to ``up_to`` for ``depth`` passes on a trial grid (a solver.Run, or the
    outcome ctx.trials kept of the same run, ``trial`` then left as that run left it when ``kept``: the hard
    look-ahead keeps its stuck trials for the expert one to carry on)."""
    trials = ctx.trials
    key = None if trials is None else trials.key(trial, up_to, depth, ctx.lookahead, ctx.incremental, ctx.deadline)
    if trials is not None and key is not None:
        out = trials.get(key, ctx.deadline, ctx.clues)
        if out is not None:
            if kept and out.state != "contradiction":
                Trials.replay(out, trial)
            return out
    deadline, solve = ctx.deadline, ctx.solve
    assert solve is not None
    start = len(trial.log)
    before = deadline.left if isinstance(deadline, Work) else 0
    run = solve(trial, ctx.clues, max_level=up_to, max_passes=depth, deadline=deadline, nested=True,
                lookahead=ctx.lookahead, incremental=ctx.incremental, trials=trials)
    if trials is not None and key is not None:
        if deadline is None:
            trials.put(key, trial, start, run, None, ctx.clues)
        elif isinstance(deadline, Work) and deadline.left >= 0:  # (a CPU deadline: whether it cut the run is unknown)
            trials.put(key, trial, start, run, before - deadline.left, ctx.clues)
    return run


LOOKAHEAD_STALE_BIG = 256
"""On a grid of more than this many cells the top-level look-ahead first tries the hypotheses that are new or near
what changed since their trial last broke no rule, nearest first to the cells changed since it last looked, and
the others after them (so it finds a refutation whenever one is there, maybe another one first): a big grid's
look-ahead otherwise runs the same far-off trials again after every step (janko-330: 3,161 hard trials of 491
hypotheses for 66 refutations). The generator's hard ratings with this order against without, the same ends: 30x30
x0.8, 20x20 x0.76, 15x15 x0.94, 10x10 x1.01."""
LOOKAHEAD_STALE_NEAR = 4
"""A trial comes first again once a cell within this many orthogonal steps of a cell it changed has changed."""

StaleTrials = dict[tuple[int, int], tuple[int, int]]
"""(cell, candidates assumed) -> (the grid's log length when its trial broke no rule, the cells it changed, a mask)."""


def _assumed(b: Board, c: int, v: int, is_v: bool) -> int:
    """The candidates a hypothesis leaves its cell: the size, or every other ("not 3" on a cell left with 3 and 4
    is "4": the same grid)."""
    return bit(v) if is_v else b.cand[c] & ~bit(v)


SCREENED = {"medium": "easy"}
"""Look-aheads that screen their hypotheses: one whose trials run the techniques up to a key level first runs only
those up to the value's level on each hypothesis of a group (fresh ones, then stale ones: _fresh_first), and carries
on with the full ladder, after the whole group has been screened, only the trials that got stuck short of the depth.
While a gentler technique makes progress the ladder takes no other, so a screened trial makes the very passes,
steps and end of the full one (tests/test_logic.py checks): the look-ahead finds a refutation whenever one is there,
the ones that take the gentler techniques alone first (janko-330: 50 of the hard look-ahead's 66; a rating's CPU
x0.8)."""
LOOKAHEAD_SCREEN_BIG = 256
"""Grids of more cells than this screen at the top level. On smaller ones it changes little (the expert look-ahead
is most of a 10x10-15x15 rating, and its hypotheses carry on from the hard one's trials): 51 corpus/ hard and expert
10x10, 12x12 and 15x15 puzzles 219.9 against 218.2 CPU s pure, one hard 10x10 rated medium."""


class _Joined:
    """A trial run in two parts, as the look-ahead reads it: its passes and steps."""

    __slots__ = ("passes", "steps", "state")

    def __init__(self, first: Any, then: Any) -> None:
        self.passes = first.passes + then.passes
        self.steps = first.steps + then.steps
        self.state = then.state


def _refute(b: Board, ctx: Context, name: str, level: str, width: int, depth: int, up_to: str,
            carry: bool = True) -> list[LogicStep]:
    """Look ahead: if assuming a cell has (or has not) a size makes the gentler techniques break a rule
    within ``depth`` steps, the opposite holds. One refutation per pass: the next pass starts again from
    the gentlest technique. ``carry``: the hard look-ahead keeps its trials for the expert one (a look-ahead
    with another ladder inside must not)."""

    p = Pass(b, name, level, ctx.nested)
    assert ctx.solve is not None
    keep_trials, earlier_trials = _kept_trials(b, ctx, level) if carry else (None, None)
    order = _hypotheses(b, width, ctx.nested)
    groups = [order]
    screen: str | None = None
    stale: StaleTrials | None = None
    if not ctx.nested and b.size > LOOKAHEAD_STALE_BIG:
        stale = b.derived.setdefault(("stale trials", name), {})
        groups = list(_fresh_first(b, order, stale, b.derived.get(("looked", name), 0)))
        b.derived[("looked", name)] = len(b.log)
    screened: Screened | None = None
    if not ctx.nested and b.size > LOOKAHEAD_SCREEN_BIG:
        if earlier_trials is None:
            screen = SCREENED.get(up_to)
        kept = b.derived.pop("screened", None)
        if kept is not None and kept[0] == len(b.log) and kept[1] == up_to and kept[2] <= depth:
            screened = kept[3]
    look = _Looking(b, ctx, p, depth, up_to, keep_trials, earlier_trials, stale, screened,
                    {} if screen is not None else None)
    ended = False
    for group in groups:
        ended = look.group(group, screen)
        if ended:
            break
    if screen is not None and not ended:
        # dry: a look-ahead next on this grid with the screen's techniques inside starts from these runs (chain)
        b.derived["screened"] = (len(b.log), screen, depth, look.screens)
    return p.steps


Screened = dict[tuple[int, int], "int | tuple[Board, Any]"]
"""The screening runs of a dry look-ahead, by (cell, candidates assumed): the cells the run changed (a mask) when it
got stuck short of the depth or solved the grid, or (the trial grid, the run) when it made the depth's passes."""


class _Looking:
    """One look-ahead's pass over its hypotheses (see _refute)."""

    def __init__(self, b: Board, ctx: Context, p: Pass, depth: int, up_to: str, keep_trials: dict | None,
                 earlier_trials: dict | None, stale: StaleTrials | None, screened: Screened | None,
                 screens: Screened | None) -> None:
        self.b, self.ctx, self.p, self.depth, self.up_to = b, ctx, p, depth, up_to
        self.keep_trials, self.earlier_trials, self.stale = keep_trials, earlier_trials, stale
        self.screened = screened
        """The runs of the dry screening look-ahead just before on this grid, with the same techniques inside (see
        Screened), or None: a run stuck short of its depth or solved is this run too, one at the depth its start."""
        self.screens = screens
        """Where this look-ahead's screening runs are kept (see Screened), or None."""
        self.screens_cells = 0
        """The cells (candidates and log entries) of the trial grids kept there, at most KEPT_TRIALS_MAX."""
        self.kept_cells = 0
        self.tried: set[tuple[int, int]] = set()
        self.sol = _witness_on(b, ctx)

    def group(self, order: list[tuple[int, int, bool]], screen: str | None) -> bool:
        """Try these hypotheses in order (``screen``: each first with the techniques up to that level only, see
        SCREENED); whether the pass is over (a refutation found, or the budget spent)."""
        b, ctx, depth, up_to = self.b, self.ctx, self.depth, self.up_to
        earlier_trials, keep_trials = self.earlier_trials, self.keep_trials
        later: list[tuple[int, int, bool, int, Board, Any]] = []
        """The screened hypotheses whose gentler run got stuck short of the depth: (cell, size, is, assumed, the
        trial grid as that run left it, the run)."""
        run: Any  # a solver.Run, a kept _Outcome, or a _Joined
        for c, v, is_v in order:
            if past(ctx.deadline):
                return True
            assumed = _assumed(b, c, v, is_v)
            if (c, assumed) in self.tried:  # the same grid, already looked ahead on without a contradiction
                continue
            self.tried.add((c, assumed))
            if self.sol is not None and assumed >> self.sol[c] & 1:
                continue  # a solution survives the hypothesis and every sound step after it: no contradiction
            if self.screened is not None and (c, assumed) in self.screened:
                got = self.screened[(c, assumed)]
                if isinstance(got, int):
                    self._stale(c, assumed, got)  # the same run: stuck or solved, no rule broken
                    continue
                trial = got[0].copy()  # (the grid itself may be the expert look-ahead's to carry on)
                run = _Joined(got[1], _trial_run(trial, ctx, up_to, depth - len(got[1].passes), False))
                if self._ended(c, v, is_v, assumed, trial, run):
                    return True
                continue
            earlier = None if earlier_trials is None else earlier_trials.pop((c, assumed), None)
            if earlier is not None:
                trial, first = earlier
                if len(first.passes) >= depth:
                    continue  # its first passes broke no rule, and the expert run would stop there too
                run = _Joined(first, _trial_run(trial, ctx, up_to, depth - len(first.passes), False))
            else:
                trial = b.copy()
                trial.cand[c] = assumed
                trial.log.append(c)
                trial.changed([c])
                if screen is not None:
                    run = _trial_run(trial, ctx, screen, depth, True)
                    if self.screens is not None and run.state in ("stuck", "solved"):
                        if len(run.passes) < depth:
                            self.screens[(c, assumed)] = self._changed(c, trial)
                        elif self.screens_cells < KEPT_TRIALS_MAX:
                            self.screens[(c, assumed)] = (trial, run)
                            self.screens_cells += len(trial.log) + trial.size
                    if run.state == "stuck" and len(run.passes) < depth:
                        later.append((c, v, is_v, assumed, trial, run))
                        continue
                    # a contradiction, solved, or the depth reached: the full ladder makes these very passes
                else:
                    run = _trial_run(trial, ctx, up_to, depth, keep_trials is not None)
                self._keep(c, assumed, trial, run)
            if self._ended(c, v, is_v, assumed, trial, run):
                return True
        for c, v, is_v, assumed, trial, first in later:
            if past(ctx.deadline):
                return True
            run = _Joined(first, _trial_run(trial, ctx, up_to, depth - len(first.passes), keep_trials is not None))
            self._keep(c, assumed, trial, run)
            if self._ended(c, v, is_v, assumed, trial, run):
                return True
        return False

    def _keep(self, c: int, assumed: int, trial: Board, run: Any) -> None:
        """Keep a trial that broke no rule for the expert look-ahead to carry on (the hard one's only)."""
        if self.keep_trials is not None and run.state in ("stuck", "solved") and self.kept_cells < KEPT_TRIALS_MAX:
            self.keep_trials[(c, assumed)] = (trial, run)
            self.kept_cells += len(trial.log) + trial.size

    def _changed(self, c: int, trial: Board) -> int:
        """The cells a trial on hypothesis cell ``c`` changed, as a cell mask."""
        return bit_mask(trial.log[len(self.b.log):] or [c])

    def _stale(self, c: int, assumed: int, changed: int) -> None:
        """Mark a hypothesis whose trial broke no rule, with the cells it changed (see _fresh_first)."""
        if self.stale is not None:
            self.stale[(c, assumed)] = (len(self.b.log), changed)

    def _ended(self, c: int, v: int, is_v: bool, assumed: int, trial: Board, run: Any) -> bool:
        """Note a trial's outcome; whether it refuted its hypothesis (the pass's step then added)."""
        b = self.b
        if run.state != "contradiction":
            if self.stale is not None:
                self._stale(c, assumed, self._changed(c, trial))
            return False
        steps = run.steps
        last = steps[-1].text() if steps else "a cell has no size left"
        passes = len(run.passes)
        if is_v:
            self.p.add([c], f"if {b.name(c)} were {v}, within {passes} steps {last}; so {b.name(c)} is not {v}",
                       {c: bit(v)})
        else:
            self.p.add([c], f"if {b.name(c)} were not {v}, within {passes} steps {last}; so {b.name(c)} is {v}",
                       place={c: v})
        return True


def _fresh_first(b: Board, order: list[tuple[int, int, bool]], stale: StaleTrials,
                 since: int) -> tuple[list[tuple[int, int, bool]], list[tuple[int, int, bool]]]:
    """The look-ahead's hypotheses (cell, size, is) in two parts: those whose trial last broke no rule and saw no
    change near it since (within LOOKAHEAD_STALE_NEAR orthogonal steps of a cell it changed) second, in their order;
    the others first, nearest first to the cells changed since the grid's log was ``since`` long (a refutation
    changes cells, and a next one is most often found near them)."""
    first: list[tuple[int, int, bool]] = []
    later: list[tuple[int, int, bool]] = []
    nears: dict[int, int] = {}
    for c, v, is_v in order:
        seen = stale.get((c, _assumed(b, c, v, is_v)))
        if seen is None:
            first.append((c, v, is_v))
            continue
        n, changed = seen
        near = nears.get(n)
        if near is None:
            near = nears[n] = bit_ball(bit_mask(b.log[n:]), (1 << b.size) - 1, LOOKAHEAD_STALE_NEAR, b.rows, b.cols)
        (first if near & changed else later).append((c, v, is_v))
    if since < len(b.log):
        far = b.size
        dist = distances(b.log[since:], b.nbrs)
        first.sort(key=lambda q: dist.get(q[0], far))  # stable: each distance in the order given
    return first, later


def short_contradiction(b: Board, ctx: Context) -> list[LogicStep]:
    la = ctx.lookahead
    return _refute(b, ctx, "short_contradiction", "hard", 2, la.hard_passes, la.hard_inner)


CHAIN_PASSES = 1_000_000
"""No cap in effect: an easy run on a hypothesis ends when it is stuck, each of its passes fixing something."""


def chain(b: Board, ctx: Context) -> list[LogicStep]:
    """A forcing chain: assuming a cell has (or has not) a size, the easy techniques alone, one forced step after
    another however many, break a rule; so the opposite holds (penpuz-db05's ring of 2s round the border: pairing
    one 2 the wrong way forces every other 2 round the ring, and the last leaves the 5 at r6c2 no room). Not inside
    the look-ahead's own hypotheses: they have short_contradiction."""
    if ctx.nested:
        return []
    return _refute(b, ctx, "chain", "hard", 2, CHAIN_PASSES, "easy", carry=False)


def contradiction(b: Board, ctx: Context) -> list[LogicStep]:
    la = ctx.lookahead
    return _refute(b, ctx, "contradiction", "expert", 3, la.expert_passes, la.expert_inner)


@dataclass(frozen=True)
class Technique:
    name: str
    level: str
    apply: Callable[[Board, Context], list[LogicStep]]
    lookahead: bool = False
    """Runs the solver on hypotheses (and watches the deadline): looked at afresh every time."""


LADDER: tuple[Technique, ...] = (
    Technique("region_complete", "bookkeeping", region_complete),
    Technique("too_big", "easy", too_big),
    Technique("only_exit", "easy", only_exit),
    Technique("exact_room", "easy", exact_room),
    Technique("no_room", "easy", no_room),
    Technique("pair", "easy", pair),
    Technique("must_include", "medium", must_include),
    Technique("way_through", "medium", way_through),
    Technique("completions", "medium", completions),
    Technique("new_region", "medium", new_region),
    Technique("pocket", "medium", pocket),
    Technique("closed_area", "medium", closed_area),
    Technique("forced", "medium", forced),
    Technique("must_share", "medium", must_share),
    Technique("room_count", "medium", room_count),
    Technique("pocket_exit", "medium", pocket_exit),
    Technique("short_contradiction", "hard", short_contradiction, lookahead=True),
    Technique("chain", "hard", chain, lookahead=True),
    Technique("cut_area", "expert", cut_area),
    Technique("contradiction", "expert", contradiction, lookahead=True),
)
"""Gentlest first: the solver applies the first technique that makes progress."""
