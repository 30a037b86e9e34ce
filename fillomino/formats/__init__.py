"""Read and write puzzles and answers: text, JSON, ``fillomino:RxC:...`` IDs and puzz.link URLs.

One module a format (``text``, ``json_format``, ``puzzle_id``, ``url``), ``answer`` for answers,
``source`` for where the text comes from and which format it is, ``cells`` for what they share (rows of
cells, the clue-range check, metadata rules). Input is auto-detected; anything unusable raises
FillominoError naming what is wrong and where (line and column of a text, character of an ID or URL, the
cell ``r2c3`` of a JSON grid), so the CLI can print one line and exit 2.
"""

from __future__ import annotations

from ..puzzle import FillominoError, Puzzle
from .answer import parse_answer, read_answer
from .cells import MAX_INPUT_CHARS, RESERVED_KEYS
from .json_format import parse_json, write_json
from .puzzle_id import parse_id, write_id
from .source import iter_puzzle_files, parse_puzzle, read_puzzle
from .source import read_source as _read_source
from .text import format_grid, parse_text, write_text
from .url import URL_BASE, parse_url, write_url

FORMATS = ("text", "json", "id", "url")


def write_puzzle(puzzle: Puzzle, fmt: str) -> str:
    """The puzzle in ``fmt`` (text, json, id, url). Text and JSON end with a newline; ID and URL do not."""
    writers = {"text": write_text, "json": write_json, "id": write_id, "url": write_url}
    if fmt not in writers:
        raise FillominoError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    return writers[fmt](puzzle)


__all__ = [
    "FORMATS",
    "MAX_INPUT_CHARS",
    "RESERVED_KEYS",
    "URL_BASE",
    "_read_source",
    "format_grid",
    "iter_puzzle_files",
    "parse_answer",
    "parse_id",
    "parse_json",
    "parse_puzzle",
    "parse_text",
    "parse_url",
    "read_answer",
    "read_puzzle",
    "write_id",
    "write_json",
    "write_puzzle",
    "write_text",
    "write_url",
]
