"""The external corpus (904 puzzles by other people and tools): every file reads as its INDEX.tsv says,
writes back byte for byte, survives every format, and its stored solution passes check_answer."""

from __future__ import annotations

from conftest import EXTERNAL

from fillomino.check import check_answer
from fillomino.formats import FORMATS, parse_puzzle, read_puzzle, write_puzzle
from fillomino.puzzle import Puzzle

# Files whose stored solution is not a solution of the plain board as written, each with its reason.
# A file listed here must really fail, so the list cannot go stale silently. Empty today: see
# test_the_variant_answer_in_the_corpus_is_also_a_plain_solution.
ODD_SOLUTIONS: dict[str, str] = {}


def _clues_only(puzzle: Puzzle) -> tuple[int, int, tuple[int, ...]]:
    return puzzle.rows, puzzle.cols, puzzle.clues


def test_every_file_matches_its_index_line(external_corpus):
    index = {}
    for line in (EXTERNAL / "INDEX.tsv").read_text().splitlines()[1:]:
        name, rows, cols, clues, has_solution, status = line.split("\t")
        index[name] = (int(rows), int(cols), int(clues), has_solution == "yes", status)
    assert sorted(index) == [p.name for p in external_corpus]
    for path in external_corpus:
        p = read_puzzle(str(path))
        seen = (p.rows, p.cols, len(p.clue_cells()), p.solution is not None, p.meta("status"))
        assert seen == index[path.name], path.name


def test_every_file_writes_back_unchanged_in_every_format(external_corpus):
    problems = []
    for path in external_corpus:
        puzzle = read_puzzle(str(path))
        if write_puzzle(puzzle, "text") != path.read_text(encoding="utf-8"):
            problems.append(f"{path.name}: text written back differs from the file")
        for fmt in ("text", "json"):
            if parse_puzzle(write_puzzle(puzzle, fmt)) != puzzle:
                problems.append(f"{path.name}: {fmt} round trip changed the puzzle")
        for fmt in ("id", "url"):  # these carry the clues only
            if _clues_only(parse_puzzle(write_puzzle(puzzle, fmt))) != _clues_only(puzzle):
                problems.append(f"{path.name}: {fmt} round trip changed the clues")
    assert set(FORMATS) == {"text", "json", "id", "url"}
    assert problems == []


def test_every_stored_solution_passes_check(external_corpus):
    checked = 0
    problems = []
    for path in external_corpus:
        puzzle = read_puzzle(str(path))
        if puzzle.solution is None:
            continue
        checked += 1
        violations = check_answer(puzzle, puzzle.solution)
        if path.name in ODD_SOLUTIONS:
            if not violations:
                problems.append(f"{path.name}: listed as odd ({ODD_SOLUTIONS[path.name]}) but its solution passes")
        elif violations:
            problems.append(f"{path.name}: {violations[0].describe()}")
    assert problems == []
    assert checked == 888  # INDEX.tsv: has_solution = yes


def test_the_variant_answer_in_the_corpus_is_also_a_plain_solution(external_corpus):
    # This file's answer was written for pzprxs's 'fillomino_tri' variant (pflag t, numbers <= 3); its notes say
    # so. It still obeys the plain rules R1-R3 (status: multiple, since the plain board has other solutions).
    puzzle = read_puzzle(str(EXTERNAL / "cspuz_core-test_problem2_4x4.txt"))
    assert any("fillomino_tri" in v for k, v in puzzle.metadata if k == "note")
    assert check_answer(puzzle, puzzle.solution) == []
    assert puzzle.meta("status") == "multiple"


def test_the_source_urls_in_the_corpus_decode_to_the_same_clues(external_corpus):
    import re

    decoded = 0
    for path in external_corpus:
        text = path.read_text(encoding="utf-8")
        for url in re.findall(r"https?://\S*\?fillomino/[^\s)]+", text):
            if "'?' (unknown-value) clue" in text:
                continue  # the file's notes say its URL has '?' cells, which this engine refuses
            assert _clues_only(parse_puzzle(url)) == _clues_only(read_puzzle(str(path))), path.name
            decoded += 1
    assert decoded >= 10
