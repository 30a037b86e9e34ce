"""Unusable input: every reader raises FillominoError naming what and where, and the CLI prints one
line on stderr and exits 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fillomino.cli import main
from fillomino.formats import parse_answer, parse_puzzle, read_answer, read_puzzle, write_puzzle
from fillomino.puzzle import FillominoError, Puzzle

HUGE_TEXT = "genre: fillomino\ngrid:\n" + ("." * 1000 + "\n") * 1000
HUGE_JSON = '{"puzzle": {"grid": [' + ",".join(["[" + ",".join(["null"] * 1000) + "]"] * 1000) + "]}}"

# (name, input, a fragment the message must contain: what and where)
BAD_PUZZLES = [
    ("ragged rows", "grid:\n.2.\n.23\n4.\n", "line 4: grid row has 2 cells, expected 3"),
    ("unknown character", "grid:\n.2.\n.x3\n4..\n", "line 3, column 2: unknown character 'x'"),
    ("clue 0", "grid:\n.2.\n.03\n4..\n", "line 3, column 2: clue 0"),
    ("clue above cell count", "grid:\n. 2 .\n. 2 10\n4 . .\n", "line 3, column 5: clue 10 is out of range 1..9"),
    ("unknown-number clue", "grid:\n.?.\n.23\n4..\n", "line 2, column 2: '?'"),
    ("negative token", "grid:\n. 2 .\n. -2 3\n4 . .\n", "line 3, column 3: unknown token '-2'"),
    ("empty input", "", "empty input"),
    ("blank input", "  \n\n ", "empty input"),
    ("other genre", "genre: sudoku\ngrid:\n1\n", "genre 'sudoku' is not fillomino"),
    ("no grid block", "genre: fillomino\nsource: x\n", "no grid: block"),
    ("grid block without rows", "genre: fillomino\ngrid:\nsolution:\n1\n", "grid block has no rows"),
    ("second grid block", "grid:\n1\ngrid:\n1\n", "line 3: a second grid: block"),
    ("row outside a block", "genre: fillomino\n.2.\ngrid:\n.2.\n", "line 2: '.2.' is neither"),
    ("solution row count", "grid:\n.2.\n.23\n4..\nsolution:\n423\n423\n", "solution has 2 rows, the grid has 3"),
    ("ragged solution", "grid:\n.2.\n.23\n4..\nsolution:\n423\n42\n443\n", "line 7: solution row has 2 cells"),
    ("letter in solution", "grid:\n.2.\n.23\n4..\nsolution:\n423\n4z3\n443\n", "line 7, column 2: unknown"),
    ("declared shape mismatch", "grid: 4x1\n1\n2\n", "grid declared 4x1 but has 2 rows"),
    ("bad declared shape", "grid: big\n1\n", "line 1: 'grid: big'"),
    ("million-cell text grid", HUGE_TEXT, "grid 1000x1000 is too large"),
    ("ID without body", "fillomino:3x3", "broken ID"),
    ("ID body too short", "fillomino:3x3:a2b234", "ID body describes 7 cells, but 3x3 has 9"),
    ("ID body too long", "fillomino:3x3:a2b234b1", "ID character 22 ('1'): the 3x3 grid's 9 cells are already filled"),
    ("ID run past the end", "fillomino:3x3:a2b234c", "ID character 21 ('c'): run of blanks goes past"),
    ("ID unknown character", "fillomino:3x3:a2b2!4b", "ID character 19: unknown character '!'"),
    ("ID clue 0", "fillomino:3x3:a2b034b", "ID character 18: clue 0"),
    ("ID dash with one digit", "fillomino:3x3:a2b23b-1", "ID character 21: '-' must be followed by 2 digits"),
    ("ID clue above cell count", "fillomino:3x3:a2b2-10c", "ID character 19 (r2c3): clue 10 is out of range"),
    ("ID zero rows", "fillomino:0x3:", "grid 0x3 is empty"),
    ("ID million cells", "fillomino:1000x1000:" + "z" * 40000, "grid 1000x1000 is too large"),
    ("URL missing rows", "https://puzz.link/p?fillomino/3/g2h234h", "broken URL"),
    ("URL body too short", "https://puzz.link/p?fillomino/3/3/g2h23", "URL body describes 6 cells"),
    ("URL unknown-number cell", "https://puzz.link/p?fillomino/3/3/g.h234h", "URL character 36: '?'"),
    ("URL unknown character", "https://puzz.link/p?fillomino/3/3/g2h2!4h", "URL character 39: unknown character '!'"),
    ("URL other genre", "https://puzz.link/p?nurikabe/3/3/g2h234h", "not a fillomino puzz.link URL"),
    ("URL clue 0", "https://puzz.link/p?fillomino/3/3/g0h234h", "URL character 36: clue 0"),
    ("URL clue above cell count", "https://puzz.link/p?fillomino/3/3/g2h23ah", "URL character 40 (r3c1): clue 10"),
    ("URL million cells", "https://puzz.link/p?fillomino/1000/1000/zzzz", "grid 1000x1000 is too large"),
    ("URL given borders", "https://puzz.link/p?fillomino/3/3/g2h234h0g00", "URL character 42: the URL draws given"),
    ("URL trailing junk", "https://puzz.link/p?fillomino/3/3/g2h234h999999", "URL character 42 ('9'): the 3x3 grid's"),
    ("URL truncated hex", "https://puzz.link/p?fillomino/3/3/g2h23-1", "'-' must be followed by 2 hex digits"),
    ("broken JSON", '{"genre": "fillomino", "puzzle": ', "broken JSON at line 1, column 33"),
    ("JSON without grid", '{"genre": "fillomino"}', "no puzzle.grid"),
    ("JSON other genre", '{"genre": "slitherlink", "puzzle": {"grid": ["1"]}}', "genre 'slitherlink'"),
    ("JSON ragged lists", '{"puzzle": {"grid": [[1, null], [null]]}}', "grid row 2 has 1 cell, row 1 has 2"),
    ("JSON ragged strings", '{"puzzle": {"grid": [".2.", ".2"]}}', "grid row 2 has 2 cells, expected 3 like row 1"),
    ("JSON text cell", '{"puzzle": {"grid": [[1, "a"]]}}', "grid r1c2: 'a' is not a whole number"),
    ("JSON boolean cell", '{"puzzle": {"grid": [[true]]}}', "grid r1c1: True is not a whole number"),
    ("JSON clue 0", '{"puzzle": {"grid": [[0, 1]]}}', "grid r1c1: clue 0 is not allowed"),
    ("JSON grid not a list", '{"puzzle": {"grid": 5}}', "grid must be a non-empty list of rows"),
    ("JSON empty grid", '{"puzzle": {"grid": []}}', "grid must be a non-empty list of rows"),
    ("JSON reserved metadata", '{"puzzle": {"grid": ["1"]}, "metadata": [["grid", "x"]]}', "metadata key 'grid'"),
    ("JSON solution shape", '{"puzzle": {"grid": ["1."]}, "solution": [[1]]}', "solution has 1 column, the grid has 2"),
    ("JSON million cells", HUGE_JSON, "grid has 1000 rows"),
    ("JSON a bare number", "[", "broken JSON at line 1, column 2"),
]

BAD_ANSWERS = [
    ("ragged answer", "423/42/443", "row 2: answer row has 2 cells, expected 3"),
    ("unknown character", "423/4x3/443", "line 1, column 6: unknown character 'x'"),
    ("too few rows", "423/423", "answer is 2x3, the puzzle is 3x3"),
    ("negative number", "4 2 3/4 -2 3/4 4 3", "line 1, column 9: unknown token '-2'"),
    ("empty answer", "", "empty answer"),
    ("broken JSON", "[[4,2,3]", "broken JSON at line 1"),
    ("JSON solution not rows", '{"solution": 5}', "answer must be a non-empty list of rows"),
    ("JSON without solution", '{"grid": [[1]]}', 'no "solution"'),
    ("JSON below -1", "[[4,2,3],[4,-2,3],[4,4,3]]", "answer r2c2: -2 is not a number of an answer"),
    ("text without solution block", "genre: fillomino\ngrid:\n.2.\n.23\n4..\n", "no solution: block"),
    ("too many columns", "4233/423/443", "row 1: answer row has 4 cells"),
    ("missing answer file", "answers/none.txt", "no such file: 'answers/none.txt'"),
    ("missing answer file without extension", "answers/none", "no such file 'answers/none', and as an inline"),
]

SEED = Puzzle(3, 3, (0, 2, 0, 0, 2, 3, 4, 0, 0))


def test_there_are_at_least_thirty_kinds():
    assert len(BAD_PUZZLES) >= 30
    assert len({name for name, _, _ in BAD_PUZZLES}) == len(BAD_PUZZLES)


@pytest.mark.parametrize("name,text,where", BAD_PUZZLES, ids=[b[0] for b in BAD_PUZZLES])
def test_read_puzzle_inline_names_what_and_where(name, text, where):
    start = time.perf_counter()
    with pytest.raises(FillominoError) as info:
        read_puzzle(text)
    assert where in str(info.value)
    assert "\n" not in str(info.value)
    assert time.perf_counter() - start < 2.0, "refusal must be fast"


@pytest.mark.parametrize("name,text,where", BAD_PUZZLES, ids=[b[0] for b in BAD_PUZZLES])
def test_read_puzzle_from_a_file_names_the_file(name, text, where, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(FillominoError) as info:
        read_puzzle(str(path))
    assert str(info.value).startswith(str(path))
    assert where in str(info.value)


def _cli_fails_cleanly(argv, capsys):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("fillomino: error: ")
    assert "Traceback" not in captured.err
    return lines[0]


@pytest.mark.parametrize("name,text,where", BAD_PUZZLES, ids=[b[0] for b in BAD_PUZZLES])
def test_cli_convert_and_check_exit_2_with_one_line(name, text, where, tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    assert where in _cli_fails_cleanly(["convert", str(path), "--to", "id"], capsys)
    assert where in _cli_fails_cleanly(["check", str(path), "423/423/443"], capsys)
    if text.strip() and len(text) < 1000:
        assert where in _cli_fails_cleanly(["convert", text], capsys)


@pytest.mark.parametrize("name,text,where", BAD_ANSWERS, ids=[b[0] for b in BAD_ANSWERS])
def test_read_answer_names_what_and_where(name, text, where):
    with pytest.raises(FillominoError) as info:
        read_answer(text, SEED)
    assert where in str(info.value)


@pytest.mark.parametrize("name,text,where", BAD_ANSWERS, ids=[b[0] for b in BAD_ANSWERS])
def test_cli_check_with_a_bad_answer_exits_2(name, text, where, capsys):
    assert where in _cli_fails_cleanly(["check", "fillomino:3x3:a2b234b", text], capsys)


def test_missing_file_and_directory_and_binary_file(tmp_path, capsys):
    assert "no such file: 'puzzles/missing.txt'" in _cli_fails_cleanly(["convert", "puzzles/missing.txt"], capsys)
    assert "is a directory" in _cli_fails_cleanly(["convert", str(tmp_path)], capsys)
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00grid")
    assert "not a UTF-8 text file" in _cli_fails_cleanly(["convert", str(binary)], capsys)


def test_writing_an_unknown_format_is_refused():
    with pytest.raises(FillominoError, match="unknown format 'svg'"):
        write_puzzle(SEED, "svg")


def test_unknown_option_values_are_usage_errors(capsys):
    assert "invalid choice" in _cli_fails_cleanly(["convert", "fillomino:3x3:a2b234b", "--to", "svg"], capsys)


@pytest.mark.parametrize(
    "argv",
    [
        ["convert", "fillomino:3x3:a2b234"],
        ["check", "fillomino:3x3:a2b234b", "42/423/443"],
        ["convert", "fillomino:1000x1000:zzzz"],
    ],
)
def test_a_real_process_prints_one_line_and_exits_2(argv):
    done = subprocess.run([sys.executable, "-m", "fillomino", *argv], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1
    assert "Traceback" not in done.stderr


# ---------------------------------------------------------------- fuzzing: never anything but FillominoError

ALPHABET = 'fillomino:x0123456789abcdefgz.-+=%*$?/ \n{}[]",:genridsoluthp'
VALID = [
    "fillomino:3x3:a2b234b",
    "https://puzz.link/p?fillomino/3/3/g2h234h",
    "genre: fillomino\ngrid:\n. 2 .\n. 2 3\n4 . .\nsolution:\n4 2 3\n4 2 3\n4 4 3\n",
    '{"genre":"fillomino","puzzle":{"grid":[[null,2,null],[null,2,3],[4,null,null]]},"solution":[[4,2,3]]}',
]


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(ALPHABET, max_size=60), st.text(max_size=30)))
def test_random_text_parses_or_raises_fillomino_error(text):
    for reader in (parse_puzzle, lambda t: parse_answer(t, "<answer>", SEED), parse_answer):
        try:
            reader(text)
        except FillominoError as exc:
            assert "\n" not in str(exc)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(VALID), st.integers(0, 200), st.text(ALPHABET, min_size=0, max_size=3), st.integers(0, 3))
def test_mutated_valid_inputs_parse_or_raise_fillomino_error(text, at, insert, cut):
    at %= len(text) + 1
    mutated = text[:at] + insert + text[at + cut :]
    try:
        parse_puzzle(mutated)
    except FillominoError as exc:
        assert "\n" not in str(exc)


def test_version_cell_size_and_stdin_twice(capsys):
    from fillomino.cli import main

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.startswith("fillomino ")
    assert main(["render", "fillomino:3x3:a2b234b", "--cell-size", "100000", "-o", "never.png"]) == 2
    assert "too large" in capsys.readouterr().err
    assert main(["check", "-", "-"]) == 2
    assert "cannot both be read from stdin" in capsys.readouterr().err


# One style for places in input messages (issue 23): text is placed by line and column of the input, IDs and URLs
# by character, JSON values by the grid cell they fill (r2c3); never "cell 3" or "row 2, column 3".
POSITIONS = [
    ("indented text row", "grid:\n  .2.\n  .x3\n4..\n", "line 3, column 4: unknown character 'x'"),
    ("spaced clue out of range", "grid:\n. 2 .\n. 2 10\n4 . .\n", "line 3, column 5: clue 10 is out of range"),
    ("slash rows", ".2./.x3/4..", "line 1, column 6: unknown character 'x'"),
    ("slash rows after blank lines", "\n\n .2./.x3/4..", "line 3, column 7: unknown character 'x'"),
    ("ID clue out of range", "fillomino:3x3:a2b2-10c", "ID character 19 (r2c3): clue 10 is out of range"),
    ("URL clue out of range", "https://puzz.link/p?fillomino/3/3/g2h23ah", "URL character 40 (r3c1): clue 10"),
    ("JSON number row", '{"puzzle": {"grid": [[1, "a"]]}}', "grid r1c2: 'a' is not a whole number"),
    ("JSON string row", '{"puzzle": {"grid": [".2.", ".x3", "4.."]}}', "grid r2c2: unknown character 'x'"),
    ("JSON spaced string row", '{"puzzle": {"grid": ["1 .", ". 10"]}}', "grid r2c2: clue 10 is out of range"),
]


@pytest.mark.parametrize("name,text,where", POSITIONS, ids=[p[0] for p in POSITIONS])
def test_input_positions_have_one_style(name, text, where):
    with pytest.raises(FillominoError) as info:
        read_puzzle(text)
    assert where in str(info.value)


def test_no_message_uses_a_retired_position_style():
    import re

    messages = []
    for _, text, _ in BAD_PUZZLES + POSITIONS:
        with pytest.raises(FillominoError) as info:
            read_puzzle(text)
        messages.append(str(info.value))
    for _, text, _ in BAD_ANSWERS[:-2]:  # the last two are missing files
        with pytest.raises(FillominoError) as info:
            parse_answer(text, "<answer>", SEED)
        messages.append(str(info.value))
    with pytest.raises(FillominoError) as info:  # a library caller building a Puzzle directly
        Puzzle(1, 2, (0, 3))
    assert "r1c2" in str(info.value)
    messages.append(str(info.value))
    retired = re.compile(r"\bcell \d|\brow \d+, (column|cell) \d|\(\d+, ?\d+\)")
    assert not [m for m in messages if retired.search(m)]
