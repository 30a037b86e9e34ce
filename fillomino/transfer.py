"""Exact counting by a transfer matrix: a row-by-row dynamic program over the frontier of the board.

Cells are laid in reading order along the narrow side. The state is what the rest of the board
can still see of the part already laid: which of the W frontier cells are joined through laid
cells ("pieces"), each piece's size so far and the size a clue demands of it. A cell either joins
each neighbouring piece or not, and "not" is remembered as a pair of pieces that may never merge,
so every partition (cut) is counted once. A piece that leaves the frontier is finished: its size
is now known and must fit its clue.

Pictures are the cuts whose touching regions differ in size, so a piece also remembers the
final sizes it may not take (those of finished regions it touched); when a piece finishes, its
size is forbidden to every open piece it touches. Sizes are decided when a region closes, not
guessed when it opens, which keeps the number of states near the cut count's. After each row a
state and its mirror image are merged when the rows below are symmetric, and in the last row a
piece that can no longer grow is closed at once. The states grow with the width, not the length:
2 x n boards go very far, widths up to ~5 stay practical (docs/benchmarks-count.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from .memory import MemoryGuard, OutOfMemory
from .puzzle import FillominoError, Puzzle

STEP_CHECK = 4095
"""Within a cell's step, the time and memory are read once in this many + 1 states."""


class TooManyStates(FillominoError):
    """The frontier grew past the allowed number of states (the board is too wide for this method)."""


@dataclass
class TransferLimits:
    """Give up (raising) past ``max_states`` live states or after ``seconds``; None = no limit."""

    max_states: int | None = None
    seconds: float | None = None
    memory: MemoryGuard | None = None
    """Past its STOP_SHARE, raise fillomino.memory.OutOfMemory (the states are the count: nothing can go)."""


Pieces = tuple[int, ...]
State = tuple[Pieces, tuple[int, ...], tuple[int, ...], tuple[frozenset[int], ...], tuple[tuple[int, int], ...]]
"""(piece of each frontier cell, then per piece its size, its clue's size (0 = any) and its forbidden final sizes, then
the sorted pairs of touching pieces that stay apart)."""


def _oriented(puzzle: Puzzle) -> tuple[int, int, list[int]]:
    """(rows, width, clues) with the narrow side as the width."""
    if puzzle.cols <= puzzle.rows:
        return puzzle.rows, puzzle.cols, list(puzzle.clues)
    clues = [puzzle.clues[r * puzzle.cols + c] for c in range(puzzle.cols) for r in range(puzzle.rows)]
    return puzzle.cols, puzzle.rows, clues


def _check(states: dict[State, int], limits: TransferLimits, start: float) -> None:
    if limits.max_states is not None and len(states) > limits.max_states:
        raise TooManyStates(f"transfer-matrix count needs more than {limits.max_states} states")
    _check_now(limits, start)


def _check_now(limits: TransferLimits, start: float) -> None:
    """Time and memory, also read within a cell's step (one step of a wide board can take minutes)."""
    if limits.seconds is not None and time.monotonic() - start > limits.seconds:
        raise TimeoutError("transfer-matrix count ran out of time")
    if limits.memory is not None and limits.memory.exhausted():
        raise OutOfMemory


def count_pictures(
    puzzle: Puzzle,
    max_size: int | None = None,
    limits: TransferLimits | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """The exact number of solutions (pictures) of ``puzzle`` whose regions have at most ``max_size`` cells."""
    return _count(puzzle, max_size, True, limits or TransferLimits(), progress)


def count_cuts(
    puzzle: Puzzle,
    max_size: int | None = None,
    limits: TransferLimits | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """The exact number of cuts: partitions into connected regions of at most ``max_size`` cells keeping the clues."""
    return _count(puzzle, max_size, False, limits or TransferLimits(), progress)


_NONE: frozenset[int] = frozenset()


def _count(
    puzzle: Puzzle,
    max_size: int | None,
    pictures: bool,
    limits: TransferLimits,
    progress: Callable[[int, int], None] | None,
) -> int:
    rows, width, clues = _oriented(puzzle)
    n = rows * width
    cap = n if max_size is None else min(n, max_size)
    start = time.monotonic()
    # state: (piece of each frontier cell (-1 before the first row), then per piece its size, the
    # size a clue requires (0 = any) and its forbidden final sizes, then the sorted pairs of touching
    # pieces that stay apart). Pieces are numbered 0.. in frontier order, so equal states are equal.
    states: dict[State, int] = {((-1,) * width, (), (), (), ()): 1}
    # after row r, may a state and its mirror image be counted as one? (the rows below read the same mirrored)
    symmetric_below = [
        all(clues[k * width + x] == clues[k * width + width - 1 - x] for k in range(r + 1, rows) for x in range(width))
        for r in range(rows)
    ]
    for p in range(n):
        c = p % width
        clue = clues[p]
        remaining = n - p - 1
        last_row = p >= n - width
        new_states: dict[State, int] = {}
        get = new_states.get
        seen = 0
        for state, ways in states.items():
            seen += 1
            if not seen & STEP_CHECK:
                _check_now(limits, start)
            pieces = state[0]
            up = pieces[c]
            left = pieces[c - 1] if c else -1
            options: tuple[tuple[int, ...], ...]
            if up >= 0 and left >= 0 and up != left:
                options = ((), (up,), (left,), (up, left) if up < left else (left, up))
            elif up >= 0 or left >= 0:
                options = ((), (max(up, left),))
            else:
                options = ((),)
            for joined in options:
                nxt = _step(state, c, clue, cap, remaining, pictures, joined, up, left, last_row)
                if nxt is not None:
                    new_states[nxt] = get(nxt, 0) + ways
        states = new_states
        if c == width - 1 and p + 1 < n and symmetric_below[p // width]:
            states = _fold_mirror_images(states)
        _check(states, limits, start)
        if progress:
            progress(p + 1, n)
    total = 0
    for (_pieces, sizes, required, forbidden, apart), ways in states.items():
        if not all(_may_close(sizes[j], required[j], forbidden[j]) for j in range(len(sizes))):
            continue
        if pictures and any(sizes[a] == sizes[b] for a, b in apart):
            continue
        total += ways
    return total


def _fold_mirror_images(states: dict[State, int]) -> dict[State, int]:
    """Merge each full-row state with its mirror image: when the rows below are mirror-symmetric,
    both have the same completions, so one representative carries both counts (about half the states)."""
    folded: dict[State, int] = {}
    for state, ways in states.items():
        image = _mirror(state)
        key = state if _order(state) <= _order(image) else image
        folded[key] = folded.get(key, 0) + ways
    return folded


def _order(state: State) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...],
                                  tuple[tuple[int, int], ...]]:
    pieces, sizes, required, forbidden, apart = state
    return pieces, sizes, required, tuple(tuple(sorted(f)) for f in forbidden), apart


def _mirror(state: State) -> State:
    """The same state read right to left, pieces renumbered in the new frontier order."""
    pieces, sizes, required, forbidden, apart = state
    ids: dict[int, int] = {}
    out = tuple(ids.setdefault(x, len(ids)) for x in reversed(pieces))
    order = sorted(ids, key=ids.__getitem__)  # old id of each new id
    pairs = tuple(sorted((min(ids[a], ids[b]), max(ids[a], ids[b])) for a, b in apart))
    return (
        out,
        tuple(sizes[o] for o in order),
        tuple(required[o] for o in order),
        tuple(forbidden[o] for o in order),
        pairs,
    )


def _may_close(size: int, required: int, forbidden: frozenset[int]) -> bool:
    return (not required or size == required) and size not in forbidden


def _step(
    state: State,
    c: int,
    clue: int,
    cap: int,
    remaining: int,
    pictures: bool,
    joined: tuple[int, ...],
    up: int,
    left: int,
    last_row: bool,
) -> State | None:
    """The state after the cell at frontier position ``c`` joins the pieces ``joined``, or None if illegal.

    ``up`` and ``left`` are the neighbouring pieces (-1 = none). A piece with no frontier cell left
    is finished: the piece above when this cell was its last one, and in the last row every piece
    left of this cell (nothing lies below it any more).
    """
    pieces, sizes, required, forbidden, apart = state
    if len(joined) == 2 and joined in apart:
        return None
    size = 1
    need = clue
    for j in joined:
        size += sizes[j]
        q = required[j]
        if q:
            if need and need != q:
                return None
            need = q
    if size > cap or (need and size > need):
        return None
    new = len(sizes)  # the new cell's piece, before renumbering
    # renumber in frontier order
    ids: dict[int, int] = {}
    out = []
    for k, x in enumerate(pieces):
        if last_row and k < c:
            out.append(-1)  # a last-row cell left of this one: no cell below or to come touches it
            continue
        if k == c or x in joined:
            x = new
        elif x < 0:
            out.append(-1)
            continue
        y = ids.get(x)
        if y is None:
            y = ids[x] = len(ids)
        out.append(y)
    gone = {x for x in pieces if x >= 0 and x not in joined and x not in ids}
    for x in gone:
        if (required[x] and sizes[x] != required[x]) or sizes[x] in forbidden[x]:
            return None
    m = len(ids)
    new_sizes = [0] * m
    new_req = [0] * m
    new_forb = [_NONE] * m
    for old, y in ids.items():
        if old == new:
            new_sizes[y] = size
            new_req[y] = need
            if len(joined) == 1:
                new_forb[y] = forbidden[joined[0]]
            elif joined:
                new_forb[y] = forbidden[joined[0]] | forbidden[joined[1]]
        else:
            new_sizes[y] = sizes[old]
            new_req[y] = required[old]
            new_forb[y] = forbidden[old]
    # pairs of touching pieces that stay apart; a finished piece passes its size on as forbidden
    pairs = set()
    me = ids[new]
    touching = [(a, b) for a, b in apart]
    if up >= 0 and up not in joined:
        touching.append((up, new))
    if left >= 0 and left not in joined and left != up:
        touching.append((left, new))
    for a, b in touching:
        if a in gone or b in gone:
            if not pictures:
                continue
            if a in gone and b in gone:
                if sizes[a] == sizes[b]:
                    return None  # two finished touching regions of one size
                continue
            done, other = (a, b) if a in gone else (b, a)
            other = me if other in joined or other == new else ids[other]
            new_forb[other] = new_forb[other] | {sizes[done]}
            continue
        a = me if a in joined or a == new else ids[a]
        b = me if b in joined or b == new else ids[b]
        pairs.add((a, b) if a < b else (b, a))
    # no piece can end larger than all open pieces together plus the cells not yet laid
    bound = min(cap, remaining + sum(new_sizes))
    for y in range(m):
        q = new_req[y]
        f = new_forb[y]
        if q:
            if q in f or q > bound:
                return None
            new_forb[y] = _NONE
        elif f:
            s = new_sizes[y]
            f = frozenset(v for v in f if s <= v <= bound)
            if len(f) == bound - s + 1:
                return None  # every size it could still take is forbidden
            new_forb[y] = f
    return (tuple(out), tuple(new_sizes), tuple(new_req), tuple(new_forb), tuple(sorted(pairs)))
