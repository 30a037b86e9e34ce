"""Terminal boards: 2 * rows + 1 lines of equal width, heavy lines exactly where regions change,
ANSI colour only when asked for, and the NO_COLOR / TTY rules."""

from __future__ import annotations

import io
import itertools
import re

import pytest
from conftest import external_files

from fillomino.formats import read_puzzle
from fillomino.puzzle import Puzzle
from fillomino.terminal import HEAVY, LIGHT, NONE, box_chars, format_board, side_by_side, use_color

SEED = read_puzzle("fillomino:3x3:a2b234b")
SEED_SOLUTION = ((4, 2, 3), (4, 2, 3), (4, 4, 3))
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def check_borders(board: str, answer) -> None:
    """Every separator between two cells is heavy exactly when their answers differ."""
    lines = board.split("\n")
    rows, cols = len(answer), len(answer[0])
    assert len(lines) == 2 * rows + 1
    assert len({len(line) for line in lines}) == 1
    step = (len(lines[0]) - 1) // cols  # cell width plus one separator
    for r in range(rows):
        for c in range(1, cols):
            sep = lines[2 * r + 1][c * step]
            assert sep == ("┃" if answer[r][c - 1] != answer[r][c] else "│"), (r, c)
    for r in range(1, rows):
        for c in range(cols):
            segment = lines[2 * r][c * step + 1 : (c + 1) * step]
            assert set(segment) == ({"━"} if answer[r - 1][c] != answer[r][c] else {"─"}), (r, c)


def test_seed_solution_board():
    board = format_board(SEED, SEED_SOLUTION)
    assert board == "\n".join([
        "┏━━━┳━━━┳━━━┓",
        "┃ 4 ┃ 2 ┃ 3 ┃",
        "┠───╂───╂───┨",
        "┃ 4 ┃ 2 ┃ 3 ┃",
        "┠───╄━━━╉───┨",
        "┃ 4 │ 4 ┃ 3 ┃",
        "┗━━━┷━━━┻━━━┛",
    ])
    check_borders(board, SEED_SOLUTION)


def test_bare_puzzle_has_clues_and_a_light_grid_inside_a_heavy_frame():
    assert format_board(SEED) == "\n".join([
        "┏━━━┯━━━┯━━━┓",
        "┃   │ 2 │   ┃",
        "┠───┼───┼───┨",
        "┃   │ 2 │ 3 ┃",
        "┠───┼───┼───┨",
        "┃ 4 │   │   ┃",
        "┗━━━┷━━━┷━━━┛",
    ])


@pytest.mark.skipif(not external_files(), reason="../shared/corpus-external is not present")
def test_two_digit_corpus_puzzle_has_heavy_lines_exactly_on_region_borders():
    path = next(p for p in external_files() if p.name == "janko-033.txt")  # 10x10 with a 10
    puzzle = read_puzzle(str(path))
    board = format_board(puzzle, puzzle.solution)
    assert "\x1b" not in board
    assert "┃10 ┃" not in board and " 10 " in board  # two-digit cells are 4 columns wide
    check_borders(board, puzzle.solution)


def test_color_board_has_ansi_codes_and_the_same_text_underneath():
    plain = format_board(SEED, SEED_SOLUTION)
    colored = format_board(SEED, SEED_SOLUTION, color=True)
    assert "\x1b[1m2\x1b[0m" in colored  # clues bold
    assert ANSI.sub("", colored) == plain


def test_highlight_and_loose_cells_are_marked_without_colour():
    possible = [[{4}, {2}, {3, 4}], [{1, 4}, {2}, {3}], [{4}, {4}, {3}]]
    board = format_board(SEED, possible=possible, highlight={(2, 2)})
    assert board.split("\n")[1] == "┃ 4 ┃ 2 ┃ ? ┃"  # 2 and {3, 4} share no value: a border
    assert board.split("\n")[5] == "┃ 4 │ 4 ┃*3*┃"
    assert "?4?" in format_board(SEED, SEED_SOLUTION, possible=possible)
    assert "\x1b[30;46m" in format_board(SEED, SEED_SOLUTION, possible=possible, color=True)


def test_one_by_one_and_sixty_by_sixty():
    assert format_board(Puzzle.from_grid([[1]]), ((1,),)) == "┏━━━┓\n┃ 1 ┃\n┗━━━┛"
    assert format_board(Puzzle.empty(1, 1)) == "┏━━━┓\n┃   ┃\n┗━━━┛"
    big = Puzzle.from_grid([[100 if (r, c) == (59, 59) else 0 for c in range(60)] for r in range(60)])
    answer = tuple(tuple(100 if c >= 50 else 5 for c in range(60)) for r in range(60))  # a drawing only
    board = format_board(big, answer)
    assert len(board.split("\n")) == 121
    assert "100" in board
    check_borders(board, answer)


def test_every_arm_combination_has_a_box_character():
    chars = box_chars()
    assert len(chars) == 80
    assert all(k in chars for k in itertools.product((NONE, LIGHT, HEAVY), repeat=4) if any(k))
    assert chars[(LIGHT,) * 4] == "┼" and chars[(HEAVY,) * 4] == "╋"
    assert chars[(NONE, HEAVY, HEAVY, NONE)] == "┏"
    assert chars[(HEAVY, LIGHT, HEAVY, LIGHT)] == "╂"  # up, right, down, left


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_use_color_needs_a_tty_no_flag_and_no_NO_COLOR(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color(FakeTTY()) is True
    assert use_color(io.StringIO()) is False
    assert use_color(FakeTTY(), no_color_flag=True) is False
    monkeypatch.setenv("NO_COLOR", "1")
    assert use_color(FakeTTY()) is False
    monkeypatch.setenv("NO_COLOR", "")  # no-color.org: an empty value does not count
    assert use_color(FakeTTY()) is True


def test_side_by_side_joins_boards_line_by_line():
    a = format_board(SEED, SEED_SOLUTION)
    joined = side_by_side([a, format_board(SEED)], gap=2)
    assert joined.split("\n")[0] == "┏━━━┳━━━┳━━━┓  ┏━━━┯━━━┯━━━┓"
    assert len(joined.split("\n")) == 7
