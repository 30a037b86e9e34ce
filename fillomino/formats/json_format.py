"""The JSON format: ``{"genre": "fillomino", "puzzle": {"grid": rows}, "solution": ..., "metadata": ...}``."""

from __future__ import annotations

import json

from ..puzzle import MAX_CELLS, MAX_SIDE, UNMARKED, FillominoError, Puzzle, validate_shape
from .cells import Rows, cell_name, check_metadata, make_puzzle, parse_rows, plural


def json_load(text: str, origin: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FillominoError(f"{origin}: broken JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise FillominoError(f"{origin}: JSON nested too deeply") from None


def json_rows(rows: object, origin: str, what: str, answer: bool, cols: int | None = None) -> list[list[int]]:
    """A JSON grid: a list of strings (text-format rows) or of lists of ints (null = no clue / unmarked)."""
    if not isinstance(rows, list) or not rows:
        raise FillominoError(f"{origin}: {what} must be a non-empty list of rows")
    if len(rows) > MAX_SIDE:
        raise FillominoError(f"{origin}: {what} has {len(rows)} rows: at most {MAX_SIDE} (and {MAX_CELLS} cells)")
    if all(isinstance(r, str) for r in rows):
        numbered = [(i + 1, r.strip()) for i, r in enumerate(rows)]
        return parse_rows(Rows(numbered, by="cell"), origin, answer, cols, what)
    out: list[list[int]] = []
    width = len(rows[0]) if isinstance(rows[0], list) else -1
    for i, row in enumerate(rows):
        if not isinstance(row, list):
            raise FillominoError(f"{origin}: {what} row {i + 1} is not a list (or every row a string)")
        if len(row) != width:
            raise FillominoError(f"{origin}: {what} row {i + 1} has {plural(len(row), 'cell')}, row 1 has {width}")
        if i == 0 and cols is None:
            try:
                validate_shape(len(rows), width)
            except FillominoError as exc:
                raise FillominoError(f"{origin}: {exc}") from None
        vals = []
        for j, v in enumerate(row):
            if v is None:
                vals.append(UNMARKED if answer else 0)
                continue
            if type(v) is int and (v >= 1 or (answer and v >= UNMARKED)):  # the common case, without a message
                vals.append(v)
                continue
            where = f"{origin}: {what} {cell_name(i, j)}"
            if isinstance(v, bool) or not isinstance(v, int):
                raise FillominoError(f"{where}: {v!r} is not a whole number or null")
            elif answer and v < UNMARKED:
                raise FillominoError(f"{where}: {v} is not a number of an answer (-1 unmarked, 0 empty, or positive)")
            elif not answer and v < 1:
                raise FillominoError(f"{where}: clue {v} is not allowed, use null for a cell without a clue")
            else:
                vals.append(v)
        out.append(vals)
    if cols is not None and width != cols:
        raise FillominoError(f"{origin}: {what} has {plural(width, 'column')}, the grid has {cols}")
    return out


def _json_metadata(raw: object, origin: str) -> tuple[tuple[str, str], ...]:
    """Metadata as a list of [key, value] pairs (order and repeats kept) or an object of strings/lists."""
    pairs: list[tuple[str, str]] = []
    if isinstance(raw, dict):
        for k, v in raw.items():
            for item in v if isinstance(v, list) else [v]:
                pairs.append((k, item))
    elif isinstance(raw, list):
        for item in raw:
            if not (isinstance(item, list) and len(item) == 2):
                raise FillominoError(f"{origin}: metadata entries must be [key, value] pairs, got {item!r}"[:200])
            pairs.append((item[0], item[1]))
    else:
        raise FillominoError(f"{origin}: metadata must be a list of [key, value] pairs or an object")
    check_metadata(pairs, origin)
    return tuple(pairs)


def parse_json(text: str, origin: str) -> Puzzle:
    data = json_load(text, origin)
    if isinstance(data, list):
        data = {"puzzle": {"grid": data}}
    if not isinstance(data, dict):
        raise FillominoError(f'{origin}: JSON puzzle must be an object like {{"genre":"fillomino","puzzle":...}}')
    genre = data.get("genre", "fillomino")
    if not isinstance(genre, str) or genre.lower() != "fillomino":
        raise FillominoError(f"{origin}: genre {genre!r} is not fillomino")
    inner = data.get("puzzle", data)
    if isinstance(inner, str):
        from .source import parse_puzzle

        return parse_puzzle(inner, f"{origin}: puzzle")
    if not isinstance(inner, dict) or "grid" not in inner:
        raise FillominoError(f"{origin}: JSON has no puzzle.grid (a list of rows)")
    grid = json_rows(inner["grid"], origin, "grid", answer=False)
    sol_raw = data.get("solution", inner.get("solution"))
    solution = None
    if sol_raw is not None:
        solution = json_rows(sol_raw, origin, "solution", answer=True, cols=len(grid[0]))
        if len(solution) != len(grid):
            raise FillominoError(f"{origin}: solution has {plural(len(solution), 'row')}, the grid has {len(grid)}")
    meta_raw = data.get("metadata", inner.get("metadata"))
    metadata = _json_metadata(meta_raw, origin) if meta_raw is not None else ()
    return make_puzzle(grid, solution, metadata, origin)


def write_json(puzzle: Puzzle) -> str:
    # rows of numbers whatever the clues' widths: one shape for programs, as in every --json answer
    rows = [[v or None for v in row] for row in puzzle.clue_grid()]
    data: dict[str, object] = {"genre": "fillomino", "puzzle": {"grid": rows}}
    if puzzle.solution is not None:
        data["solution"] = [list(row) for row in puzzle.solution]
    if puzzle.metadata:
        data["metadata"] = [[k, v] for k, v in puzzle.metadata]
    return json.dumps(data, ensure_ascii=False) + "\n"
