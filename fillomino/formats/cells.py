"""What the formats share: rows of cells as text, the clue-range check, metadata rules, building the Puzzle."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from ..puzzle import UNMARKED, FillominoError, Grid, Puzzle, cell_name, plural, validate_shape

MAX_INPUT_CHARS = 8_000_000
"""Refuse bigger inputs outright: the largest legal grid with a solution and notes is far smaller."""
RESERVED_KEYS = ("genre", "grid", "solution")
_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*")
HEADER = re.compile(r"\s*([A-Za-z][A-Za-z0-9_.-]*)\s*:(.*)$")
_TOKEN = re.compile(r"\.|[0-9]+")


def _split_row(line: str, tokens: bool) -> list[tuple[str, int]]:
    """Cells of one row with their 1-based character columns."""
    if not tokens:
        return [(ch, i + 1) for i, ch in enumerate(line)]
    return [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", line)]


def _cell_value(tok: str, answer: bool) -> int:
    """One token as a number: '.' is no clue (0) in a grid, unmarked in an answer; the caller adds the place."""
    if tok == ".":
        return UNMARKED if answer else 0
    if tok.isascii() and tok.isdigit():
        value = int(tok)
        if value == 0 and not answer:
            raise FillominoError("clue 0 is not allowed, write '.' for a cell without a clue")
        return value
    if tok == "?":
        raise FillominoError("'?' (unknown number) clues are not supported")
    raise FillominoError(f"unknown {'character' if len(tok) == 1 else 'token'} {tok[:20]!r}")


class Rows:
    """Rows of cells as text, with where each row stands in the input, so every message names one place.

    Text read line by line (``by="line"``) is placed by line and column of the input; a one-line grid whose
    rows are separated by ``/`` (``by="slash"``) by column of its one line; string rows inside a JSON
    document (``by="cell"``) by the grid cell, ``r2c3``, as JSON values have no line once parsed.
    """

    def __init__(self, rows: list[tuple[int, str]], by: str = "line", starts: Sequence[int] | None = None,
                 line: int = 1) -> None:
        self.rows = rows
        self.by = by
        self.line = line  # the input line of ``/`` rows
        self.starts = list(starts) if starts is not None else [1] * len(rows)

    def row(self, i: int) -> str:
        """Row ``i`` (0-based) of the block, for messages about a whole row."""
        lineno = self.rows[i][0]
        return f"line {lineno}" if self.by == "line" else f"row {lineno}"

    def cell(self, i: int, k: int, col: int) -> str:
        """Cell ``k`` (0-based) of row ``i``, whose text starts at character ``col`` (1-based) of the row."""
        if self.by == "cell":
            return cell_name(i, k)
        lineno = self.rows[i][0] if self.by == "line" else self.line
        return f"line {lineno}, column {self.starts[i] + col - 1}"


def column_starts(lines: list[str], by: str) -> list[int]:
    """The 1-based input column where each line's stripped text starts (of the one line, for ``/`` rows)."""
    starts, offset = [], 0
    for raw in lines:
        starts.append((offset if by == "slash" else 0) + len(raw) - len(raw.lstrip()) + 1)
        offset += len(raw) + 1
    return starts


def parse_rows(
    rows: list[tuple[int, str]] | Rows,
    origin: str,
    answer: bool,
    cols: int | None = None,
    what: str = "grid",
) -> list[list[int]]:
    """Rows (line number, text) of one block, or a Rows that says how to place them; ``cols`` when the width
    is known already. Clues of a grid are checked against its cell count here, where their place is known.

    A row is one character per cell unless it has spaces (then space-separated tokens). Without a
    known width, any spaced row makes every row tokenized, and so do rows of unequal length that are
    each one number (a one-column grid with a multi-digit clue).
    """
    placed = rows if isinstance(rows, Rows) else Rows(rows)
    rows = placed.rows
    if not rows:
        raise FillominoError(f"{origin}: the {what} block has no rows")
    if cols is None:
        spaced = any(re.search(r"\s", text) for _, text in rows)
        uneven = len({len(text) for _, text in rows}) > 1
        tokens = spaced or (uneven and all(_TOKEN.fullmatch(text) for _, text in rows))
        first = rows[0][1]
        width = len(first.split()) if tokens else len(first)
        try:
            validate_shape(len(rows), width)  # refuse a huge grid before touching every cell
        except FillominoError as exc:
            # The shape message already says "grid RxC": name the part once ("answer 3x201", not "grid grid").
            detail = str(exc).removeprefix("grid ")
            named = origin if origin.endswith(f": {what}") else f"{origin}: {what}"
            raise FillominoError(f"{named} {detail}") from None
    out: list[list[int]] = []
    spans: list[list[tuple[str, int]]] = []
    expected = cols
    for i, (_, text) in enumerate(rows):
        if cols is not None:
            tokens = cols == 1 or bool(re.search(r"\s", text))
        cells = _split_row(text, tokens)
        if expected is None:
            expected = len(cells)
        if len(cells) != expected:
            ref = f"like {placed.row(0)}" if cols is None else f"for the {cols}-column grid"
            head = f"{what} {placed.row(i)}" if placed.by == "cell" else f"{placed.row(i)}: {what} row"
            raise FillominoError(f"{origin}: {head} has {plural(len(cells), 'cell')}, expected {expected} {ref}")
        values = []
        for k, (tok, col) in enumerate(cells):
            try:
                values.append(_cell_value(tok, answer))
            except FillominoError as exc:
                raise FillominoError(f"{origin}: {_where(placed, what, i, k, col)}: {exc}") from None
        out.append(values)
        spans.append(cells)
    if not answer:
        top = len(out) * (expected or 0)
        for i, values in enumerate(out):
            for k, v in enumerate(values):
                if v > top:  # the place is worked out only for the message
                    check_clue(v, len(out), expected or 0, f"{origin}: {_where(placed, what, i, k, spans[i][k][1])}")
    return out


def _where(placed: Rows, what: str, i: int, k: int, col: int) -> str:
    return (f"{what} " if placed.by == "cell" else "") + placed.cell(i, k, col)


def check_clue(value: int, rows: int, cols: int, where: str) -> None:
    """Refuse a clue above the cell count (0 is no clue): every format reads its clues through this."""
    if not 0 <= value <= rows * cols:
        raise FillominoError(f"{where}: clue {value} is out of range 1..{rows * cols} for a {rows}x{cols} grid")


def make_puzzle(
    grid: list[list[int]],
    solution: list[list[int]] | None,
    metadata: tuple[tuple[str, str], ...],
    origin: str,
) -> Puzzle:
    """Build the Puzzle, first checking clue ranges so the message can name the cell."""
    rows, cols = len(grid), len(grid[0])
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            check_clue(v, rows, cols, f"{origin}: grid {cell_name(r, c)}")
    sol = tuple(tuple(row) for row in solution) if solution is not None else None
    try:
        return Puzzle(rows, cols, tuple(v for row in grid for v in row), sol, metadata)
    except FillominoError as exc:
        raise FillominoError(f"{origin}: {exc}") from None


def needs_spaces(values: Grid) -> bool:
    return any(v >= 10 or v < UNMARKED for row in values for v in row)


def format_rows(values: Grid, blank: str, spaced: bool | None = None) -> list[str]:
    """Rows as text: one character per cell, or space-separated tokens when any number has two digits."""

    def token(v: int) -> str:
        if v == UNMARKED or (v == 0 and blank == "."):
            return "."
        return str(v)

    if spaced is None:
        spaced = needs_spaces(values)
    sep = " " if spaced else ""
    return [sep.join(token(v) for v in row) for row in values]


def check_metadata(metadata: Sequence[tuple[str, str]], origin: str) -> None:
    for key, value in metadata:
        if not isinstance(key, str) or not isinstance(value, str):
            raise FillominoError(f"{origin}: metadata {key!r}: keys and values must be strings")
        if not _KEY.fullmatch(key) or key.lower() in RESERVED_KEYS:
            raise FillominoError(f"{origin}: metadata key {key!r} is not a usable header name")
        if "\n" in value or "\r" in value or value != value.strip():
            raise FillominoError(f"{origin}: metadata {key!r}: value must be one line without outer spaces")


def runs(clues: Sequence[int], longest: int) -> Iterator[int | tuple[None, int]]:
    """Clues as they come, blank cells grouped in runs of at most ``longest``: (None, length)."""
    run = 0
    for v in clues:
        if v == 0:
            run += 1
            if run == longest:
                yield (None, run)
                run = 0
            continue
        if run:
            yield (None, run)
            run = 0
        yield v
    if run:
        yield (None, run)
