"""The text format: ``genre: fillomino``, ``key: value`` headers, ``grid:`` and ``solution:`` blocks."""

from __future__ import annotations

import re

from ..puzzle import FillominoError, Grid, Puzzle, validate_shape
from .cells import (
    HEADER,
    Rows,
    check_metadata,
    column_starts,
    format_rows,
    make_puzzle,
    needs_spaces,
    parse_rows,
    plural,
)

_SHAPE = re.compile(r"([0-9]+)x([0-9]+)")


def parse_text(text: str, origin: str = "<input>") -> Puzzle:
    """The text format: ``genre: fillomino``, other ``key: value`` headers, ``grid:`` and ``solution:`` blocks.

    A text with no header at all is read as a bare grid; rows may also be separated by ``/``.
    """
    lines = text.splitlines()
    by, slash_line = "line", 1
    filled = [n for n, raw in enumerate(lines, 1) if raw.strip()]
    if len(filled) == 1 and "/" in lines[filled[0] - 1] and ":" not in lines[filled[0] - 1]:
        slash_line = filled[0]
        lines, by = lines[slash_line - 1].split("/"), "slash"
    starts = column_starts(lines, by)
    blocks: dict[str, list[tuple[int, str]]] = {}
    declared: dict[str, tuple[int, str]] = {}
    metadata: list[tuple[str, str]] = []
    current: str | None = None
    stray: tuple[int, str] | None = None
    any_header = False
    for lineno, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = HEADER.match(line)
        if m:
            any_header = True
            key, value = m.group(1), m.group(2).strip()
            low = key.lower()
            if low == "genre":
                if value.lower() != "fillomino":
                    raise FillominoError(f"{origin}: line {lineno}: genre {value!r} is not fillomino")
                current = None
            elif low in ("grid", "solution"):
                if low in blocks:
                    raise FillominoError(f"{origin}: line {lineno}: a second {low}: block")
                blocks[low] = []
                if value:
                    declared[low] = (lineno, value)
                current = low
            else:
                metadata.append((key, value))
                current = None
            continue
        if current is None:
            stray = stray or (lineno, line)
            continue
        blocks[current].append((lineno, line))
    if not any_header and stray is not None:  # a bare grid
        rows = [(n, raw.strip()) for n, raw in enumerate(lines, 1) if raw.strip() and not raw.strip().startswith("#")]
        return make_puzzle(parse_rows(_placed(rows, by, starts, slash_line), origin, answer=False), None, (), origin)
    if stray is not None:
        raise FillominoError(
            f"{origin}: line {stray[0]}: {stray[1][:30]!r} is neither a 'key: value' header nor in a grid: block"
        )
    if "grid" not in blocks:
        raise FillominoError(f"{origin}: no grid: block (expected a 'grid:' line followed by the rows)")
    cols = None
    if "grid" in declared:
        lineno, value = declared["grid"]
        m = _SHAPE.fullmatch(value)
        if not m:
            raise FillominoError(f"{origin}: line {lineno}: 'grid: {value}' should be 'grid:' or 'grid: RxC'")
        try:
            validate_shape(int(m.group(1)), int(m.group(2)))
        except FillominoError as exc:
            raise FillominoError(f"{origin}: line {lineno}: {exc}") from None
        cols = int(m.group(2))
        if len(blocks["grid"]) != int(m.group(1)):
            found = plural(len(blocks["grid"]), "row")
            raise FillominoError(f"{origin}: line {lineno}: grid declared {value} but has {found}")
    grid = parse_rows(_placed(blocks["grid"], by, starts, slash_line), origin, answer=False, cols=cols)
    solution = None
    if "solution" in blocks:
        if "solution" in declared:
            lineno, _ = declared["solution"]
            raise FillominoError(f"{origin}: line {lineno}: put the solution rows on the lines after 'solution:'")
        sol_rows = blocks["solution"]
        if len(sol_rows) != len(grid):
            where = f"line {sol_rows[0][0]}" if sol_rows else "end of input"
            found = plural(len(sol_rows), "row")
            raise FillominoError(f"{origin}: {where}: solution has {found}, the grid has {len(grid)}")
        placed = _placed(sol_rows, by, starts, slash_line)
        solution = parse_rows(placed, origin, answer=True, cols=len(grid[0]), what="solution")
    return make_puzzle(grid, solution, tuple(metadata), origin)


def _placed(rows: list[tuple[int, str]], by: str, starts: list[int], line: int = 1) -> Rows:
    return Rows(rows, by, [starts[n - 1] for n, _ in rows], line)


def format_grid(grid: Grid) -> str:
    """An answer as rows (``.`` unmarked, ``0`` empty), spaced when any number has two digits."""
    return "\n".join(format_rows(grid, blank="0")) + "\n"


def write_text(puzzle: Puzzle) -> str:
    check_metadata(puzzle.metadata, "cannot write as text")
    lines = ["genre: fillomino"]
    lines += [f"{k}: {v}" if v else f"{k}:" for k, v in puzzle.metadata]
    # as in the corpus: both blocks are spaced when any value of either has two digits
    spaced = needs_spaces(puzzle.clue_grid()) or (puzzle.solution is not None and needs_spaces(puzzle.solution))
    rows = format_rows(puzzle.clue_grid(), blank=".", spaced=spaced)
    ambiguous = puzzle.cols == 1 and len({len(r) for r in rows}) == 1 and len(rows[0]) > 1
    lines.append(f"grid: {puzzle.shape}" if ambiguous else "grid:")
    lines += rows
    if puzzle.solution is not None:
        lines.append("solution:")
        lines += format_rows(puzzle.solution, blank="0", spaced=spaced)
    return "\n".join(lines) + "\n"
