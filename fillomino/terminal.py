"""Boards in the terminal: Unicode box drawing with heavy lines on region borders, light lines inside.

Every command that prints a board uses ``format_board``; ``use_color`` decides whether ANSI colour is
wanted (a TTY, ``NO_COLOR`` unset or empty as https://no-color.org asks, and no ``--no-color``).
"""

from __future__ import annotations

import os
import unicodedata
from functools import lru_cache
from typing import TextIO

from .puzzle import Grid, Puzzle
from .render import Possible, cell_values, walls

NONE, LIGHT, HEAVY = 0, 1, 2
BOLD, RESET = "\x1b[1m", "\x1b[0m"
HIGHLIGHT_STYLE = "\x1b[30;43m"  # black on yellow
LOOSE_STYLE = "\x1b[30;46m"  # black on cyan


@lru_cache(maxsize=1)
def box_chars() -> dict[tuple[int, int, int, int], str]:
    """Box-drawing character by arm weights (up, right, down, left), each NONE, LIGHT or HEAVY.

    Read from the Unicode names of U+2500..U+257F ("BOX DRAWINGS DOWN LIGHT AND RIGHT HEAVY", ...),
    skipping double, dashed, arc and diagonal lines; all 80 combinations with at least one arm exist.
    """
    arms = {"UP": (0,), "RIGHT": (1,), "DOWN": (2,), "LEFT": (3,), "VERTICAL": (0, 2), "HORIZONTAL": (1, 3)}
    weights = {"LIGHT": LIGHT, "HEAVY": HEAVY}
    table: dict[tuple[int, int, int, int], str] = {}
    for code in range(0x2500, 0x2580):
        words = unicodedata.name(chr(code)).removeprefix("BOX DRAWINGS ").split()
        if any(w not in arms and w not in weights and w != "AND" for w in words):
            continue  # DOUBLE, DASH, ARC, DIAGONAL
        # A weight either leads its arms ("HEAVY UP AND LIGHT DOWN") or follows them ("UP HEAVY AND ...").
        weight_leads = words[0] in weights
        key = [NONE] * 4
        current, pending = NONE, []
        for w in words:
            if w in weights:
                current = weights[w]
                for a in pending:
                    key[a] = current
                pending = []
            elif w in arms:
                for a in arms[w]:
                    if weight_leads:
                        key[a] = current
                    else:
                        pending.append(a)
        table[(key[0], key[1], key[2], key[3])] = chr(code)
    return table


def use_color(stream: TextIO, no_color_flag: bool = False) -> bool:
    """Colour only for a terminal, when NO_COLOR is unset or empty and --no-color was not given."""
    if no_color_flag or os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def format_board(
    puzzle: Puzzle,
    answer: Grid | None = None,
    *,
    color: bool = False,
    possible: Possible | None = None,
    highlight: set[tuple[int, int]] | None = None,
) -> str:
    """The board as text lines (no trailing newline): 2 * rows + 1 lines, heavy lines on the outline and on
    region borders. Clues bold when ``color``; highlighted cells on yellow (``*3*`` without colour); loose
    cells (several possible values) on cyan (``?3?`` without colour, ``?`` when no value is known)."""
    rows, cols = puzzle.rows, puzzle.cols
    values = cell_values(puzzle, answer, possible)
    right, down = walls(puzzle, answer, possible)
    right_set, down_set = set(right), set(down)
    highlight = highlight or set()
    width = max(len(str(v)) for v in values)

    def vertical(r: int, c: int) -> int:
        """Weight of the vertical line left of column c in row r (c = cols is the right edge)."""
        if c in (0, cols):
            return HEAVY
        return HEAVY if (r, c - 1) in right_set else LIGHT

    def horizontal(r: int, c: int) -> int:
        """Weight of the horizontal line above row r in column c (r = rows is the bottom edge)."""
        if r in (0, rows):
            return HEAVY
        return HEAVY if (r - 1, c) in down_set else LIGHT

    chars = box_chars()
    lines: list[str] = []
    for r in range(rows + 1):
        out = []
        for c in range(cols + 1):
            up = vertical(r - 1, c) if r > 0 else NONE
            dn = vertical(r, c) if r < rows else NONE
            lt = horizontal(r, c - 1) if c > 0 else NONE
            rt = horizontal(r, c) if c < cols else NONE
            out.append(chars[(up, rt, dn, lt)])
            if c < cols:
                out.append(("━" if rt == HEAVY else "─") * (width + 2))
        lines.append("".join(out))
        if r == rows:
            break
        out = []
        for c in range(cols):
            out.append("┃" if vertical(r, c) == HEAVY else "│")
            out.append(_cell(puzzle, r, c, values[r * cols + c], width, color, possible, highlight))
        out.append("┃")
        lines.append("".join(out))
    return "\n".join(lines)


def _cell(
    puzzle: Puzzle,
    r: int,
    c: int,
    value: int,
    width: int,
    color: bool,
    possible: Possible | None,
    highlight: set[tuple[int, int]],
) -> str:
    """One cell's text, ``width + 2`` columns wide (plus escape codes when ``color``)."""
    loose = possible is not None and len(possible[r][c]) > 1
    is_clue = puzzle.clue(r, c) > 0
    text = str(value) if value else ("?" if loose else "")
    text = f"{text:>{width}}"  # numbers right-aligned, as in a table
    mark = "*" if (r, c) in highlight else ("?" if loose and value else " ")
    if not color:
        return f"{mark}{text}{mark}"
    style = HIGHLIGHT_STYLE if (r, c) in highlight else (LOOSE_STYLE if loose else "")
    if is_clue:
        return f"{style} {BOLD}{text}{RESET}{style} {RESET if style else ''}"
    return f"{style} {text} {RESET}" if style else f" {text} "


def side_by_side(boards: list[str], gap: int = 3) -> str:
    """Boards of the same shape next to each other (such as two solutions that differ)."""
    return "\n".join((" " * gap).join(lines) for lines in zip(*(b.split("\n") for b in boards), strict=True))
