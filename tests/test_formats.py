"""Formats: every reader accepts what the matching writer writes, and the documented examples parse as stated."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fillomino.formats import (
    FORMATS,
    format_grid,
    iter_puzzle_files,
    parse_puzzle,
    read_answer,
    read_puzzle,
    write_puzzle,
)
from fillomino.puzzle import UNMARKED, FillominoError, Puzzle

SEED = Puzzle(3, 3, (0, 2, 0, 0, 2, 3, 4, 0, 0))
SEED_TEXT = "genre: fillomino\ngrid:\n.2.\n.23\n4..\n"


# ---------------------------------------------------------------- the seed example in every format


def test_seed_example_id_reads_as_the_spec_grid():
    assert read_puzzle("fillomino:3x3:a2b234b") == SEED


def test_seed_example_writes_the_spec_text_id_json_and_url():
    assert write_puzzle(SEED, "text") == SEED_TEXT
    assert write_puzzle(SEED, "id") == "fillomino:3x3:a2b234b"
    grid = [[None, 2, None], [None, 2, 3], [4, None, None]]  # rows of numbers whatever the clue widths (issue 23)
    assert json.loads(write_puzzle(SEED, "json")) == {"genre": "fillomino", "puzzle": {"grid": grid}}
    assert write_puzzle(SEED, "url") == "https://puzz.link/p?fillomino/3/3/g2h234h"


@pytest.mark.parametrize(
    "source",
    [
        SEED_TEXT,
        ".2.\n.23\n4..\n",  # a bare grid
        ".2./.23/4..",  # rows separated by '/'
        '{"genre":"fillomino","puzzle":{"grid":[".2.",".23","4.."]}}',
        '{"puzzle":{"grid":[[null,2,null],[null,2,3],[4,null,null]]}}',
        '[".2.", ".23", "4.."]',
        "fillomino:3x3:a2b234b",
        "FILLOMINO:3x3:a2b234b",
        "https://puzz.link/p?fillomino/3/3/g2h234h",
        "http://pzv.jp/p.html?fillomino/3/3/g2h234h",
        "https://pzprxs.vercel.app/p?fillomino/3/3/g2h234h",
        "https://puzz.link/p?fillomino/t/3/3/g2h234h",  # a pflag segment
        "https://puzz.link/p?fillomino/b/3/3/g2h234h/0000",  # trailing border data is ignored
        "https://puzz.link/p?fillomino/3/3/g2h234h0000",  # pzprjs border data that sets no border
        "puzz.link/p?fillomino/3/3/g2h234h",
        "  fillomino:3x3:a2b234b\n",
    ],
)
def test_every_spelling_of_the_seed_example_reads_the_same(source):
    assert read_puzzle(source).clues == SEED.clues
    assert read_puzzle(source).shape == "3x3"


# ---------------------------------------------------------------- multi-digit clues


def test_id_multi_digit_clues_follow_the_spec_and_extend_with_plus_and_equals():
    # 12x12 = 144 cells: clues 12, 100 (-00), 144 (+144)
    puzzle = Puzzle.empty(12, 12).with_clues([12, 100, 144] + [0] * 141)
    assert write_puzzle(puzzle, "id") == "fillomino:12x12:-12-00+144" + "z" * 5 + "k"
    assert read_puzzle(write_puzzle(puzzle, "id")) == puzzle
    big = Puzzle.empty(100, 100).with_clues([10000, 1000, 999] + [0] * 9997)
    assert write_puzzle(big, "id").startswith("fillomino:100x100:=10000=01000+999")
    assert read_puzzle(write_puzzle(big, "id")) == big


def test_url_uses_pzprjs_number16_for_large_clues():
    puzzle = Puzzle.empty(100, 100).with_clues([15, 16, 255, 256, 4095, 4096, 8191, 8192, 10000] + [0] * 9991)
    url = write_puzzle(puzzle, "url")
    assert url.startswith("https://puzz.link/p?fillomino/100/100/f-10-ff+100+fff=000=fff%000%710z")
    assert read_puzzle(url) == puzzle


def test_url_columns_come_before_rows():
    puzzle = read_puzzle("https://puzz.link/p?fillomino/4/2/1j2h")
    assert (puzzle.rows, puzzle.cols) == (2, 4)
    assert puzzle.clues == (1, 0, 0, 0, 0, 2, 0, 0)


def test_blank_runs_longer_than_one_letter_split_into_several_letters():
    empty = Puzzle.empty(10, 10)
    assert write_puzzle(empty, "id") == "fillomino:10x10:zzzv"
    assert write_puzzle(empty, "url") == "https://puzz.link/p?fillomino/10/10/zzzzz"
    assert read_puzzle("fillomino:10x10:zzzv") == empty


def test_text_with_a_two_digit_clue_is_spaced_and_reads_back():
    puzzle = Puzzle.from_grid([[12, 0, 0, 0], [0, 0, 0, 1], [0, 0, 3, 0]])
    text = write_puzzle(puzzle, "text")
    assert text == "genre: fillomino\ngrid:\n12 . . .\n. . . 1\n. . 3 .\n"
    assert read_puzzle(text) == puzzle


def test_one_column_grid_of_equal_width_numbers_declares_its_shape():
    # rows "11" x 11 would otherwise read as an 11x2 grid of 1s
    puzzle = Puzzle.from_grid([[11]] * 11)
    text = write_puzzle(puzzle, "text")
    assert "grid: 11x1\n" in text
    assert read_puzzle(text) == puzzle
    mixed = Puzzle.from_grid([[12]] + [[0]] * 11)
    assert "grid:\n" in write_puzzle(mixed, "text")
    assert read_puzzle(write_puzzle(mixed, "text")) == mixed


# ---------------------------------------------------------------- metadata and solution blocks


def test_header_lines_are_kept_in_order_and_written_back():
    text = (
        "genre: fillomino\nsource: somewhere (https://x.y/p?a)\nnote: first\nnote: second\nstatus: unique\n"
        "grid:\n.2.\n.23\n4..\nsolution:\n423\n423\n443\n"
    )
    puzzle = read_puzzle(text)
    assert puzzle.metadata == (
        ("source", "somewhere (https://x.y/p?a)"),
        ("note", "first"),
        ("note", "second"),
        ("status", "unique"),
    )
    assert puzzle.solution == ((4, 2, 3), (4, 2, 3), (4, 4, 3))
    assert write_puzzle(puzzle, "text") == text
    assert parse_puzzle(write_puzzle(puzzle, "json")) == puzzle


def test_solution_block_with_unmarked_and_empty_cells():
    puzzle = read_puzzle("grid:\n.2.\n.23\n4..\nsolution:\n4.3\n4.3\n400\n")
    assert puzzle.solution == ((4, UNMARKED, 3), (4, UNMARKED, 3), (4, 0, 0))
    assert read_puzzle(write_puzzle(puzzle, "text")) == puzzle


def test_two_digit_solution_values_space_both_blocks_as_the_corpus_does():
    puzzle = Puzzle.from_grid([[0] * 10], solution=((10,) * 10,))
    assert write_puzzle(puzzle, "text").splitlines()[2:] == [". " * 9 + ".", "solution:", "10 " * 9 + "10"]


def test_json_metadata_also_accepted_as_an_object():
    data = {"puzzle": {"grid": ["1"]}, "metadata": {"source": "a", "note": ["x", "y"]}}
    assert read_puzzle(json.dumps(data)).metadata == (("source", "a"), ("note", "x"), ("note", "y"))


# ---------------------------------------------------------------- sources: files, stdin, folders


def test_reads_files_and_stdin(tmp_path, monkeypatch):
    path = tmp_path / "p.txt"
    path.write_text(SEED_TEXT)
    assert read_puzzle(str(path)) == SEED
    monkeypatch.setattr("sys.stdin", io.StringIO("fillomino:3x3:a2b234b\n"))
    assert read_puzzle("-") == SEED


def test_iter_puzzle_files_recurses_sorted_and_skips_index_files(tmp_path):
    (tmp_path / "b").mkdir()
    for name in ["b/2.json", "a.txt", "b/1.txt", "README.md", "INDEX.tsv", "c.png"]:
        (tmp_path / name).write_text("x")
    found = [p.relative_to(tmp_path).as_posix() for p in iter_puzzle_files([str(tmp_path)])]
    assert found == ["a.txt", "b/1.txt", "b/2.json"]
    assert list(iter_puzzle_files([str(tmp_path / "a.txt")])) == [tmp_path / "a.txt"]
    with pytest.raises(FillominoError, match="no such file or folder"):
        list(iter_puzzle_files([str(tmp_path / "missing")]))


def test_sixty_by_sixty_grid_with_the_largest_clue_round_trips():
    clues = [0] * 3600
    clues[0], clues[1], clues[3599] = 3600, 59, 7
    puzzle = Puzzle.empty(60, 60).with_clues(clues)
    for fmt in FORMATS:
        assert parse_puzzle(write_puzzle(puzzle, fmt)) == puzzle


# ---------------------------------------------------------------- answers


@pytest.mark.parametrize(
    "source",
    [
        "423/423/443",
        "423\n423\n443\n",
        "4 2 3/4 2 3/4 4 3",
        "[[4,2,3],[4,2,3],[4,4,3]]",
        '{"solution":["423","423","443"]}',
        "genre: fillomino\ngrid:\n.2.\n.23\n4..\nsolution:\n423\n423\n443\n",
        "solution:\n423\n423\n443",
    ],
)
def test_answer_spellings(source):
    assert read_answer(source, SEED) == ((4, 2, 3), (4, 2, 3), (4, 4, 3))
    assert read_answer(source) == ((4, 2, 3), (4, 2, 3), (4, 4, 3))


def test_answer_dots_are_unmarked_and_zeros_empty():
    assert read_answer("4.3/403/...", SEED) == ((4, UNMARKED, 3), (4, 0, 3), (UNMARKED,) * 3)


def test_answer_with_two_digit_numbers_is_spaced_like_the_grid():
    grid = ((12, 12, 1), (12, 12, 12))
    assert format_grid(grid) == "12 12 1\n12 12 12\n"
    assert read_answer(format_grid(grid)) == grid


def test_one_column_answer_of_two_digit_numbers_reads_with_the_puzzle():
    puzzle = Puzzle.empty(12, 1)
    assert read_answer("12\n" * 12, puzzle) == ((12,),) * 12


def test_answer_shape_must_match_the_puzzle():
    with pytest.raises(FillominoError, match="answer is 2x3, the puzzle is 3x3"):
        read_answer("423/423", SEED)


def test_answer_file(tmp_path):
    path = tmp_path / "answer.txt"
    path.write_text(format_grid(((4, 2, 3), (4, 2, 3), (4, 4, 3))))
    assert read_answer(str(path), SEED)[2] == (4, 4, 3)


# ---------------------------------------------------------------- round trips over random puzzles


@st.composite
def puzzles(draw, with_extras: bool = False):
    rows = draw(st.integers(1, 12))
    cols = draw(st.integers(1, 12))
    size = rows * cols
    clue = st.one_of(st.just(0), st.integers(1, min(9, size)), st.integers(1, size))
    clues = draw(st.lists(clue, min_size=size, max_size=size))
    solution = metadata = None
    if with_extras:
        value = st.one_of(st.integers(-1, 9), st.integers(1, size))
        if draw(st.booleans()):
            flat = draw(st.lists(value, min_size=size, max_size=size))
            solution = tuple(tuple(flat[i : i + cols]) for i in range(0, size, cols))
        key = st.from_regex(r"[A-Za-z][A-Za-z0-9_.-]{0,8}", fullmatch=True).filter(
            lambda k: k.lower() not in ("genre", "grid", "solution")
        )
        text = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=20).map(str.strip)
        metadata = tuple(draw(st.lists(st.tuples(key, text), max_size=4)))
    return Puzzle(rows, cols, tuple(clues), solution, metadata or ())


@settings(max_examples=200, deadline=None)
@given(puzzles())
def test_clues_round_trip_through_every_format(puzzle):
    for fmt in FORMATS:
        assert parse_puzzle(write_puzzle(puzzle, fmt)) == puzzle, fmt


@settings(max_examples=200, deadline=None)
@given(puzzles(with_extras=True))
def test_text_and_json_round_trip_solution_and_metadata_and_answers_round_trip(puzzle):
    for fmt in ("text", "json"):
        assert parse_puzzle(write_puzzle(puzzle, fmt)) == puzzle, fmt
    if puzzle.solution is not None:
        assert read_answer(format_grid(puzzle.solution), puzzle) == puzzle.solution
