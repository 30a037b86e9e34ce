"""The puzzle model every other module uses: a rectangular grid of clues, answers, groups.

Cells are numbered row-major: cell ``i`` is at row ``i // cols``, column ``i % cols``.
A clue of 0 means "no clue". An answer (``Grid``) is a tuple of rows of ints where 0 is an
empty cell and ``UNMARKED`` (-1) a cell the answer leaves unmarked (``.`` in the text format).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .grid import groups, neighbours  # noqa: F401  (the grid module owns them; re-exported for callers)

Grid = tuple[tuple[int, ...], ...]
"""Rows of numbers: a full answer, 0 = empty, UNMARKED = not marked."""

UNMARKED = -1
MAX_SIDE = 200
"""Largest number of rows or columns accepted."""
MAX_CELLS = 10_000
"""Largest grid accepted (100x100); larger input is refused rather than left to hang."""


class FillominoError(Exception):
    """Unusable input or an impossible request; the message tells the user what and where."""


def cell_name(row: int, col: int) -> str:
    """A grid cell as every message names it: ``r1c4`` (1-based row and column)."""
    return f"r{row + 1}c{col + 1}"


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 step``, ``2 steps``: counts in messages read as English."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


@dataclass(frozen=True)
class Puzzle:
    """An R x C Fillomino: clues row-major (0 = no clue), optional stored solution and metadata.

    ``metadata`` keeps header lines such as ``source:``, ``note:`` (repeatable) and ``status:``
    in their order, so writing a puzzle back loses nothing.
    """

    rows: int
    cols: int
    clues: tuple[int, ...]
    solution: Grid | None = None
    metadata: tuple[tuple[str, str], ...] = field(default=())

    def __post_init__(self) -> None:
        validate_shape(self.rows, self.cols)
        if len(self.clues) != self.rows * self.cols:
            raise FillominoError(
                f"{self.rows}x{self.cols} grid needs {self.rows * self.cols} cells, got {len(self.clues)}"
            )
        n = self.size
        for i, v in enumerate(self.clues):
            if not 0 <= v <= n:
                r, c = divmod(i, self.cols)
                raise FillominoError(
                    f"clue {v} at {cell_name(r, c)} is out of range 1..{n} for a {self.rows}x{self.cols} grid"
                )
        if self.solution is not None:
            if len(self.solution) != self.rows or any(len(row) != self.cols for row in self.solution):
                raise FillominoError(f"solution is not {self.rows}x{self.cols} like the grid")

    @property
    def size(self) -> int:
        """Number of cells."""
        return self.rows * self.cols

    @property
    def shape(self) -> str:
        """The shape as written everywhere: ``<rows>x<cols>``."""
        return f"{self.rows}x{self.cols}"

    def clue(self, r: int, c: int) -> int:
        return self.clues[r * self.cols + c]

    def clue_cells(self) -> list[int]:
        """Indices of the clued cells, row-major."""
        return [i for i, v in enumerate(self.clues) if v]

    def clue_grid(self) -> Grid:
        """The clues as rows (0 = no clue)."""
        return to_grid(self.clues, self.cols)

    def meta(self, key: str) -> str | None:
        """The first metadata value under ``key``, or None."""
        for k, v in self.metadata:
            if k == key:
                return v
        return None

    def with_clues(self, clues: Sequence[int]) -> Puzzle:
        """The same puzzle shape and metadata with other clues (the solution is dropped)."""
        return Puzzle(self.rows, self.cols, tuple(clues), None, self.metadata)

    @classmethod
    def empty(cls, rows: int, cols: int) -> Puzzle:
        """An R x C board with no clues."""
        validate_shape(rows, cols)
        return cls(rows, cols, (0,) * (rows * cols))

    @classmethod
    def from_grid(cls, grid: Sequence[Sequence[int]], **kwargs: object) -> Puzzle:
        """Build from rows of clues (0 = no clue)."""
        rows = len(grid)
        cols = len(grid[0]) if rows else 0
        if any(len(row) != cols for row in grid):
            raise FillominoError("rows have different lengths")
        return cls(rows, cols, tuple(v for row in grid for v in row), **kwargs)  # type: ignore[arg-type]


def validate_shape(rows: int, cols: int) -> None:
    """Refuse empty, negative or enormous shapes with a message."""
    if rows < 1 or cols < 1:
        raise FillominoError(f"grid {rows}x{cols} is empty: a grid needs at least one row and one column")
    if rows > MAX_SIDE or cols > MAX_SIDE or rows * cols > MAX_CELLS:
        raise FillominoError(
            f"grid {rows}x{cols} is too large: at most {MAX_SIDE} rows or columns and {MAX_CELLS} cells"
        )


def validate_max_size(puzzle: Puzzle | None, max_size: int | None) -> None:
    """Refuse a --max-size promise that is not positive or that a printed clue already breaks.

    The promise is ``max_size``: None for none (the CNF engine then names large regions BIG and refines
    them), else every region has at most that many cells. Each entry point (``solvers.solve`` and
    friends, ``possible``, ``suggest``, the generator with no puzzle yet) checks it here once.
    """
    if max_size is None:
        return
    if max_size < 1:
        raise FillominoError(f"--max-size must be at least 1, got {max_size}")
    big = [] if puzzle is None else [v for v in puzzle.clues if v > max_size]
    if big:
        raise FillominoError(f"clue {max(big)} is larger than the assumed --max-size {max_size}")


def to_grid(values: Sequence[int], cols: int) -> Grid:
    """Cut a row-major sequence into rows."""
    return tuple(tuple(values[i : i + cols]) for i in range(0, len(values), cols))


def flatten(grid: Sequence[Sequence[int]]) -> list[int]:
    """Rows back to a row-major list."""
    return [v for row in grid for v in row]


def is_solution(puzzle: Puzzle, answer: Sequence[Sequence[int]] | Sequence[int]) -> bool:
    """True when ``answer`` (rows or row-major) fills every cell, keeps the clues and every group fits."""
    values = list(answer)
    if values and isinstance(values[0], (tuple, list)):
        values = flatten(values)  # type: ignore[arg-type]
    if len(values) != puzzle.size:
        return False
    for v, clue in zip(values, puzzle.clues):
        if v < 1 or (clue and v != clue):  # type: ignore[operator]
            return False
    return all(len(g) == values[g[0]] for g in groups(values, puzzle.rows, puzzle.cols))  # type: ignore[arg-type]


def cell_rc(i: int, cols: int) -> tuple[int, int]:
    """Row and column (0-based) of cell ``i``."""
    return divmod(i, cols)  # type: ignore[return-value]
