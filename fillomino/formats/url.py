"""The puzz.link / pzprjs URL format (number16 cells): ``https://puzz.link/p?fillomino/<cols>/<rows>/<body>``."""

from __future__ import annotations

import re

from ..puzzle import FillominoError, Puzzle, validate_shape
from .cells import cell_name, check_clue, runs

_URL = re.compile(r"(?:https?://)?[A-Za-z0-9.-]+(?::\d+)?/p(?:\.html)?\?(.*)", re.IGNORECASE | re.DOTALL)
_NUMBER = re.compile(r"[0-9]+")
URL_BASE = "https://puzz.link/p?fillomino"
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"
_NUM16 = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192), "*": (4, 12240), "$": (5, 77776)}


def parse_url(text: str, origin: str = "<input>") -> Puzzle:
    """``https://puzz.link/p?fillomino/[flag/]<cols>/<rows>/<body>`` (also pzv.jp, pzprxs, p.html)."""
    text = text.strip()
    m = _URL.fullmatch(text)
    query = m.group(1) if m else text
    parts = query.split("/")
    if parts[0].lower() != "fillomino":
        raise FillominoError(f"{origin}: not a fillomino puzz.link URL: {text[:60]!r}")
    k = 2 if len(parts) > 1 and parts[1] and not _NUMBER.fullmatch(parts[1]) else 1  # skip a pflag ('t', 'b')
    if len(parts) < k + 3 or not _NUMBER.fullmatch(parts[k]) or not _NUMBER.fullmatch(parts[k + 1]):
        raise FillominoError(f"{origin}: broken URL {text[:60]!r}: expected ...?fillomino/<cols>/<rows>/<cells>")
    cols, rows, body = int(parts[k]), int(parts[k + 1]), parts[k + 2]
    try:
        validate_shape(rows, cols)
    except FillominoError as exc:
        raise FillominoError(f"{origin}: URL {exc}") from None
    size = rows * cols
    offset = len(text) - len(query) + sum(len(p) + 1 for p in parts[: k + 2])
    clues = [0] * size
    cell = 0
    i = 0
    while i < len(body) and cell < size:
        ch = body[i]
        pos = offset + i + 1
        if ch in "0123456789abcdef":
            value, i = int(ch, 16), i + 1
        elif ch in _NUM16:
            width, base = _NUM16[ch]
            digits = body[i + 1 : i + 1 + width]
            if len(digits) != width or any(d not in "0123456789abcdefABCDEF" for d in digits):
                raise FillominoError(f"{origin}: URL character {pos}: {ch!r} must be followed by {width} hex digits")
            value, i = int(digits, 16) + base, i + 1 + width
        elif "g" <= ch <= "z":
            run = int(ch, 36) - 15
            if cell + run > size:
                raise FillominoError(
                    f"{origin}: URL character {pos} ({ch!r}): run of blanks goes past the {size} cells of {rows}x{cols}"
                )
            cell += run
            i += 1
            continue
        elif ch == ".":
            raise FillominoError(f"{origin}: URL character {pos}: '?' (unknown number) clues are not supported")
        else:
            raise FillominoError(f"{origin}: URL character {pos}: unknown character {ch!r}")
        if value == 0:
            raise FillominoError(f"{origin}: URL character {pos}: clue 0 is not allowed")
        check_clue(value, rows, cols, f"{origin}: URL character {pos} ({cell_name(cell // cols, cell % cols)})")
        clues[cell] = value
        cell += 1
    if cell != size:
        raise FillominoError(f"{origin}: URL body describes {cell} cells, but {cols} columns x {rows} rows is {size}")
    tail = body[i:]
    if tail and len(tail) == _border_chars(rows, cols) and all(ch in _BASE36[:32] for ch in tail):
        # pzprjs writes given borders after the cells: no border set is a plain puzzle, any other is not ours
        if tail.strip("0"):
            raise FillominoError(
                f"{origin}: URL character {offset + i + 1}: the URL draws given borders after the cells, "
                "which this engine does not support"
            )
        i = len(body)
    if i < len(body):
        raise FillominoError(
            f"{origin}: URL character {offset + i + 1} ({body[i]!r}): "
            f"the {rows}x{cols} grid's {size} cells are already filled"
        )
    return Puzzle(rows, cols, tuple(clues))


def _border_chars(rows: int, cols: int) -> int:
    """Length of pzprjs border data: a bit per inner border, vertical then horizontal, 5 bits a character."""
    return -(-(cols - 1) * rows // 5) + -(-cols * (rows - 1) // 5)


def write_url(puzzle: Puzzle) -> str:
    parts = []
    for item in runs(puzzle.clues, 20):
        if isinstance(item, tuple):
            parts.append(_BASE36[item[1] + 15])
        elif item < 16:
            parts.append(format(item, "x"))
        elif item < 256:
            parts.append(f"-{item:02x}")
        elif item < 4096:
            parts.append(f"+{item:03x}")
        elif item < 8192:
            parts.append(f"={item - 4096:03x}")
        elif item < 12240:
            parts.append(f"%{item - 8192:03x}")
        elif item < 77776:
            parts.append(f"*{item - 12240:04x}")
        else:
            parts.append(f"${item - 77776:05x}")
    return f"{URL_BASE}/{puzzle.cols}/{puzzle.rows}/{''.join(parts)}"
