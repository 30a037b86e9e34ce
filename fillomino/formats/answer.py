"""Answers: rows like ``423/423/443``, a text with a ``solution:`` block, or JSON; ``.`` unmarked, ``0`` empty."""

from __future__ import annotations

from ..puzzle import MAX_SIDE, FillominoError, Grid, Puzzle
from .cells import HEADER, Rows, column_starts, parse_rows
from .json_format import json_load, json_rows
from .source import maybe_a_missing_file, read_source


def read_answer(source: str, puzzle: Puzzle | None = None) -> Grid:
    """An answer from a path, ``-`` or inline rows (``423/423/443``), a text with ``solution:``, or JSON.

    ``.`` is unmarked (UNMARKED), ``0`` an empty cell. With ``puzzle``, the shape must match it.
    """
    loaded = read_source(source, "answer")
    if loaded is None:
        with maybe_a_missing_file(source, "answer"):
            return parse_answer(source, "<answer>", puzzle)
    return parse_answer(*loaded, puzzle)


def parse_answer(text: str, origin: str = "<answer>", puzzle: Puzzle | None = None) -> Grid:
    body = text.strip()
    if not body:
        raise FillominoError(f"{origin}: empty answer")
    cols = puzzle.cols if puzzle else None
    if body[0] in "[{":
        data = json_load(body, origin)
        if isinstance(data, dict):
            if "solution" not in data and isinstance(data.get("puzzle"), dict):
                data = data["puzzle"]
            if "solution" not in data:
                raise FillominoError(f'{origin}: JSON answer has no "solution" (a list of rows)')
            data = data["solution"]
        rows = json_rows(data, origin, "answer", answer=True, cols=cols)
    else:
        lines = text.splitlines()
        by, line = "line", 1
        if len(body.splitlines()) == 1 and "/" in body:
            line = next(n for n, raw in enumerate(lines, 1) if raw.strip())
            lead = len(lines[line - 1]) - len(lines[line - 1].lstrip())
            lines, by = body.split("/"), "slash"
        starts = column_starts(lines, by)
        if by == "slash":
            starts = [s + lead for s in starts]
        numbered = [(n, ln.strip()) for n, ln in enumerate(lines, 1) if ln.strip() and not ln.startswith("#")]
        if any(HEADER.match(ln) for _, ln in numbered):
            numbered = _solution_block(numbered, origin)
        if len(numbered) > MAX_SIDE:
            raise FillominoError(f"{origin}: answer has {len(numbered)} rows, at most {MAX_SIDE}")
        placed = Rows(numbered, by, [starts[n - 1] for n, _ in numbered], line=line)
        rows = parse_rows(placed, origin, answer=True, cols=cols, what="answer")
    if puzzle is not None:
        if len(rows) != puzzle.rows or any(len(r) != puzzle.cols for r in rows):
            raise FillominoError(f"{origin}: answer is {len(rows)}x{len(rows[0])}, the puzzle is {puzzle.shape}")
    return tuple(tuple(r) for r in rows)


def _solution_block(lines: list[tuple[int, str]], origin: str) -> list[tuple[int, str]]:
    """The rows under ``solution:`` in a text with headers (a puzzle file with its solution)."""
    rows: list[tuple[int, str]] | None = None
    for lineno, line in lines:
        m = HEADER.match(line)
        if m and m.group(1).lower() == "solution":
            rows = []
        elif m:
            if rows is not None:
                break
        elif rows is not None:
            rows.append((lineno, line))
    if not rows:
        raise FillominoError(f"{origin}: no solution: block with rows in this text")
    return rows
