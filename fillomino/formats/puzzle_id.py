"""The ID format ``fillomino:RxC:body``.

body, row-major: 1-9 a clue; -NN a two-digit clue 10-99 (-00 is 100); +NNN a three-digit clue
100-999; =NNNNN a five-digit clue 1000-99999 (clues go up to the cell count, at most 10000);
a-z a run of 1-26 cells without a clue.
"""

from __future__ import annotations

import re

from ..puzzle import FillominoError, Puzzle, validate_shape
from .cells import cell_name, check_clue, runs

_ID = re.compile(r"fillomino:([0-9]+)x([0-9]+):(.*)", re.IGNORECASE | re.DOTALL)
_ID_WIDTH = {"-": 2, "+": 3, "=": 5}


def parse_id(text: str, origin: str = "<input>") -> Puzzle:
    text = text.strip()
    m = _ID.fullmatch(text)
    if not m:
        raise FillominoError(f"{origin}: broken ID {text[:40]!r}: expected fillomino:<rows>x<cols>:<cells>")
    rows, cols, body = int(m.group(1)), int(m.group(2)), m.group(3)
    try:
        validate_shape(rows, cols)
    except FillominoError as exc:
        raise FillominoError(f"{origin}: ID {exc}") from None
    size = rows * cols
    offset = len(text) - len(body)  # 1-based position of body[i] is offset + i + 1
    clues = [0] * size
    places = [0] * size  # the ID character each clue was read from
    cell = 0
    i = 0
    while i < len(body):
        ch = body[i]
        pos = offset + i + 1
        if cell >= size:
            raise FillominoError(
                f"{origin}: ID character {pos} ({ch!r}): the {rows}x{cols} grid's {size} cells are already filled"
            )
        if "1" <= ch <= "9":
            clues[cell], places[cell] = int(ch), pos
            cell += 1
            i += 1
        elif ch in _ID_WIDTH:
            width = _ID_WIDTH[ch]
            digits = body[i + 1 : i + 1 + width]
            if len(digits) != width or not (digits.isascii() and digits.isdigit()):
                raise FillominoError(f"{origin}: ID character {pos}: {ch!r} must be followed by {width} digits")
            value = int(digits)
            if ch == "-" and value == 0:
                value = 100
            elif ch == "-" and value < 10:
                raise FillominoError(f"{origin}: ID character {pos}: {ch}{digits} is not 10-99 (write {value})")
            elif (ch == "+" and value < 100) or (ch == "=" and value < 1000):
                raise FillominoError(f"{origin}: ID character {pos}: {ch}{digits} has a leading zero")
            clues[cell], places[cell] = value, pos
            cell += 1
            i += 1 + width
        elif "a" <= ch <= "z":
            cell += ord(ch) - ord("a") + 1
            if cell > size:
                raise FillominoError(
                    f"{origin}: ID character {pos} ({ch!r}): run of blanks goes past the {size} cells of {rows}x{cols}"
                )
            i += 1
        elif ch == "0":
            raise FillominoError(f"{origin}: ID character {pos}: clue 0 is not allowed (use a letter for blanks)")
        else:
            raise FillominoError(f"{origin}: ID character {pos}: unknown character {ch!r}")
    if cell != size:
        raise FillominoError(f"{origin}: ID body describes {cell} cells, but {rows}x{cols} has {size}")
    for idx, v in enumerate(clues):
        check_clue(v, rows, cols, f"{origin}: ID character {places[idx]} ({cell_name(idx // cols, idx % cols)})")
    return Puzzle(rows, cols, tuple(clues))


def write_id(puzzle: Puzzle) -> str:
    parts = []
    for item in runs(puzzle.clues, 26):
        if isinstance(item, tuple):
            parts.append(chr(ord("a") + item[1] - 1))
        elif item < 10:
            parts.append(str(item))
        elif item <= 100:
            parts.append(f"-{item % 100:02d}")
        elif item < 1000:
            parts.append(f"+{item}")
        else:
            parts.append(f"={item:05d}")
    return f"fillomino:{puzzle.shape}:{''.join(parts)}"
