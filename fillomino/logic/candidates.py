"""The candidate grid of the logical solver: each cell holds the region sizes still possible there.

A cell's candidates are a Python int used as a bitset (bit ``v`` set: size ``v`` still possible), so
sizes are never capped: every size from 1 to the cell count fits. A cell with one candidate is fixed;
a maximal connected set of fixed cells with the same size is a group (a region or part of one).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from ..grid import group_of, groups_by, neighbour_table, set_bits
from ..puzzle import Puzzle
from ..puzzle import cell_name as _cell_name


def bit(v: int) -> int:
    return 1 << v


def values_of(mask: int) -> list[int]:
    """The sizes in a bitset, ascending."""
    count = mask.bit_count()
    if (mask & ~(mask << 1)).bit_count() * 2 <= count:  # runs of sizes (a cell losing 13-100, or 3-7): a range each
        out: list[int] = []
        while mask:
            low = mask & -mask
            run = mask & ~(mask + low)  # adding the lowest bit carries through its run of ones
            out.extend(range(low.bit_length() - 1, run.bit_length()))
            mask ^= run
        return out
    if count > 16:
        digits = bin(mask)[:1:-1]  # one pass over the binary digits: no big-int arithmetic per size
        return [v for v, d in enumerate(digits) if d == "1"]
    return list(set_bits(mask))


def single(mask: int) -> int:
    """The one size in a bitset with exactly one, else 0."""
    return mask.bit_length() - 1 if mask and not mask & (mask - 1) else 0


def cell_name(i: int, cols: int) -> str:
    """``r2c5``: 1-based row and column, as people read a grid."""
    return _cell_name(i // cols, i % cols)


@lru_cache(maxsize=64)
def cell_names(rows: int, cols: int) -> tuple[str, ...]:
    """Every cell's name (``cell_name``), row-major: cached per shape, since the steps' sentences name cells often."""
    return tuple(_cell_name(r, c) for r in range(rows) for c in range(cols))


class Contradiction(Exception):
    """A rule is broken by the current candidates: the puzzle (within them) has no solution."""

    def __init__(self, cell: int, sentence: str) -> None:
        super().__init__(sentence)
        self.cell = cell
        self.sentence = sentence


@dataclass
class Group:
    """Fixed cells of one size, connected: ``cells`` in breadth-first order from the first."""

    value: int
    cells: list[int]
    box: tuple[int, int, int, int] | None = field(default=None, repr=False)
    """(first row, last row, first column, last column), filled in by ``Board.box``."""

    def __init__(self, value: int, cells: list[int], box: tuple[int, int, int, int] | None = None) -> None:
        # written out: compiled, the __init__ dataclass generates would run interpreted (a rating makes many groups)
        self.value = value
        self.cells = cells
        self.box = box

    def __reduce__(self) -> tuple:
        # compiled, a class with its own __init__ is rebuilt by calling it: pickle and copy get its arguments
        return (Group, (self.value, self.cells, self.box))

    @property
    def need(self) -> int:
        return self.value - len(self.cells)


@dataclass
class Board:
    """The candidate grid: rows, columns and one bitset per cell (row-major)."""

    rows: int
    cols: int
    cand: list[int]
    nbrs: tuple[tuple[int, ...], ...] = field(default=(), repr=False)
    _groups: list[Group] | None = field(default=None, repr=False)
    _group_at: list[Group | None] | None = field(default=None, repr=False)
    log: list[int] = field(default_factory=list, repr=False)
    """Every cell whose candidates changed, in order (a cell may appear more than once)."""
    clean: dict[str, int] = field(default_factory=dict, repr=False)
    """Per technique, a length of ``log`` at which the technique found nothing: candidates only ever
    shrink, so later it need only look at what the cells logged since then can change."""
    memo: dict = field(default_factory=dict, repr=False)
    """Answers of techniques.breaks_rule with the candidates they read, shared with every copy (look-ahead
    trials): an answer is given again only while those candidates are the same."""
    derived: dict = field(default_factory=dict, repr=False)
    """What techniques derive from this grid, each kept with the length of ``log`` it was derived at (the grid
    only changes by logging): not shared with copies (but for the open areas and the lineage, see ``copy``)."""

    def __init__(self, rows: int, cols: int, cand: list[int], nbrs: tuple[tuple[int, ...], ...] = (),
                 _groups: list[Group] | None = None, _group_at: list[Group | None] | None = None,
                 log: list[int] | None = None, clean: dict[str, int] | None = None, memo: dict | None = None,
                 derived: dict | None = None) -> None:
        # written out: compiled, the __init__ dataclass generates would run interpreted (every rating and
        # look-ahead trial makes boards)
        self.rows = rows
        self.cols = cols
        self.cand = cand
        self.nbrs = nbrs if nbrs else neighbour_table(rows, cols)
        self._groups = _groups
        self._group_at = _group_at
        self.log = [] if log is None else log
        self.clean = {} if clean is None else clean
        self.memo = {} if memo is None else memo
        self.derived = {} if derived is None else derived

    @classmethod
    def from_clues(cls, rows: int, cols: int, clues: Sequence[int]) -> Board:
        """Every size 1..cells everywhere, a clue (row-major, 0: none) its own value; the clues are taken as they
        are (``from_puzzle`` has a Puzzle's checks behind it)."""
        full = (1 << (rows * cols + 1)) - 2
        return cls(rows, cols, [1 << v if v else full for v in clues])

    @classmethod
    def from_puzzle(cls, puzzle: Puzzle, marks: Sequence[Sequence[Iterable[int] | int | None]] | None = None) -> Board:
        """Every size 1..cells everywhere, a clue its own value; ``marks`` (a candidate grid in the format
        ``fillomino.possible.parse_candidates`` reads) narrows the cells it gives."""
        board = cls.from_clues(puzzle.rows, puzzle.cols, puzzle.clues)
        cand = board.cand
        if marks is not None:
            from ..possible import parse_candidates

            for i, allowed in enumerate(parse_candidates(puzzle, marks)):
                if allowed is not None:
                    cand[i] &= sum(bit(v) for v in allowed)
        return board

    def __reduce__(self) -> tuple:
        # compiled, a class with its own __init__ is rebuilt by calling it: pickle and copy get its arguments
        # (what techniques derived is left behind, as by ``copy``)
        return (Board, (self.rows, self.cols, self.cand, self.nbrs, self._groups, self._group_at, self.log, self.clean,
                        self.memo))

    def copy(self) -> Board:
        """An independent grid with the same candidates (and the same record of what each technique has seen); of
        what techniques derived only the open areas come along (kept with their log length, which the copy's log
        shares, and never changed in place), for techniques.open_areas to start from, and the lineage: the tokens
        of this grid and the grids it was copied from (see techniques._snapshot), each with the length of its log
        when the copy was made, so that a snapshot of one of them compares with the copy by the log."""
        derived = self.derived
        inherited: dict = {}
        areas = derived.get("areas")
        if areas is not None:
            inherited["areas"] = areas
        token = derived.get("token")
        lineage = derived.get("lineage", ())
        if token is not None:
            lineage = ((token, len(self.log)), *lineage)
        if lineage:
            inherited["lineage"] = lineage
        return Board(self.rows, self.cols, list(self.cand), self.nbrs, self._groups,
                     None if self._group_at is None else list(self._group_at), list(self.log), dict(self.clean),
                     self.memo, inherited)

    def box(self, g: Group) -> tuple[int, int, int, int]:
        """The bounding box of a group's cells (cached on the group)."""
        if g.box is None:
            rs = [c // self.cols for c in g.cells]
            cs = [c % self.cols for c in g.cells]
            g.box = (min(rs), max(rs), min(cs), max(cs))
        return g.box

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def name(self, i: int) -> str:
        return cell_names(self.rows, self.cols)[i]

    def value(self, i: int) -> int:
        """The fixed size of a cell, or 0 while it is open."""
        return single(self.cand[i])

    def open_cells(self) -> list[int]:
        return [i for i, m in enumerate(self.cand) if m & (m - 1)]

    def open_count(self) -> int:
        return sum(1 for m in self.cand if m & (m - 1))

    def any_open(self) -> bool:
        """Whether some cell is still open (stops at the first: the solver asks before every pass)."""
        return any(m & (m - 1) for m in self.cand)

    def empty_cell(self) -> int | None:
        return next((i for i, m in enumerate(self.cand) if not m), None)

    def allows(self, v: int) -> list[bool]:
        """Per cell, whether size ``v`` is still a candidate."""
        b = bit(v)
        return [m & b != 0 for m in self.cand]

    def groups(self) -> list[Group]:
        """The groups of fixed cells (cached until the candidates change)."""
        if self._groups is None:
            values = [single(m) for m in self.cand]
            # open cells get distinct negative labels so that they never form a group
            labels = [v if v else -1 - i for i, v in enumerate(values)]
            self._groups = []
            at: list[Group | None] = [None] * self.size
            self._group_at = at
            for cells in groups_by(labels, self.nbrs):
                v = labels[cells[0]]
                if v > 0:
                    g = Group(v, cells)
                    for c in cells:
                        at[c] = g
                    self._groups.append(g)
        return self._groups

    def group_at(self, i: int) -> Group | None:
        if self._group_at is None:
            self.groups()
        return self._group_at[i]  # type: ignore[index]

    def groups_touching(self, cells: Iterable[int]) -> list[Group]:
        """The groups with a cell among ``cells``, in the order of ``groups()`` (by first cell)."""
        self.groups()
        at = self._group_at
        found = {id(g): g for g in (at[c] for c in cells) if g is not None}  # type: ignore[index]
        return sorted(found.values(), key=lambda g: g.cells[0])

    def around(self, cells: Iterable[int]) -> set[int]:
        """The cells and their neighbours."""
        out = set(cells)
        for c in list(out):
            out.update(self.nbrs[c])
        return out

    def changed(self, cells: Iterable[int] | None = None) -> None:
        """The candidates of ``cells`` (None: of any cell) have shrunk: update the groups. A cell that became
        fixed joins the groups of its size next to it; the merged group is listed as a full recount would
        list it (breadth-first from its first cell, among the groups in the order of their first cell)."""
        at, cand = self._group_at, self.cand
        if cells is None or at is None or self._groups is None:
            self._groups = None
            self._group_at = None
            return
        new = [c for c in cells if at[c] is None and cand[c] and not cand[c] & (cand[c] - 1)]
        if not new:
            if any(not cand[c] for c in cells):  # an emptied fixed cell splits its group: count again
                self._groups = None
                self._group_at = None
            return
        if any(not cand[c] or (at[c] is not None and not single(cand[c])) for c in cells):
            self._groups = None
            self._group_at = None
            return
        groups = list(self._groups)
        gone: set[int] = set()
        for c in new:
            if at[c] is not None:
                continue  # already joined by an earlier cell of this change
            comp = group_of(c, cand, self.nbrs)  # equal candidates of a fixed cell: the same size
            gone.update(id(at[x]) for x in comp if at[x] is not None)
            first = min(comp)
            # listed breadth-first from its first cell, which the search above already did when it started there
            g = Group(single(cand[c]), comp if first == c else group_of(first, cand, self.nbrs))
            for x in g.cells:
                at[x] = g
            groups.append(g)
        kept = [g for g in groups if id(g) not in gone]
        kept.sort(key=lambda g: g.cells[0])
        self._groups = kept

    def remove(self, i: int, mask: int) -> bool:
        """Drop the sizes in ``mask`` from cell ``i``; whether anything went."""
        if self.cand[i] & mask:
            self.cand[i] &= ~mask
            self.log.append(i)
            self.changed([i])
            return True
        return False

    def candidates_grid(self) -> list[list[list[int]]]:
        """Rows of sorted candidate lists: the ``candidates`` field of the audit STEPS format."""
        return [[values_of(self.cand[r * self.cols + c]) for c in range(self.cols)] for r in range(self.rows)]

    def solution(self) -> list[int] | None:
        """The fixed value of every cell when no cell is open, else None."""
        values = [single(m) for m in self.cand]
        return None if not all(values) else values

    def describe_group(self, g: Group, clues: Sequence[int] | None = None) -> str:
        """``the 3 at r2c5`` (a clue cell of the group when one is known, else its first cell)."""
        at = g.cells[0]
        if clues is not None:
            at = next((c for c in g.cells if clues[c]), at)
        return f"the {g.value} at {self.name(at)}"
