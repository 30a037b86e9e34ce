"""Possible values per cell against the independent brute force, with tiny K so that sizes above K
(the BIG label and its refinement) are exercised, with size caps and with a rater's candidate grid."""

from __future__ import annotations

import dataclasses
import itertools
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fillomino import possible as possible_module
from fillomino.cli import main
from fillomino.encode.cnf import DEFAULT_ENGINE, CnfEngine
from fillomino.formats import read_puzzle
from fillomino.possible import SEARCH_ENGINE, Possible, parse_candidates, possible
from fillomino.puzzle import FillominoError, Puzzle
from fillomino.solvers import Budget, BudgetExhausted, enumerate_solutions
from fillomino.terminal import format_board
from tests import bruteforce
from tests.conftest import EXTERNAL, external_files

SEED = Puzzle.from_grid([[0, 2, 0], [0, 2, 3], [4, 0, 0]])
FIXTURE_CASES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def flat(p: Possible) -> list[set[int]]:
    return [values for row in p.cells for values in row]


@pytest.fixture(params=[1, 2, 3, 9])
def small_k(request) -> CnfEngine:
    """An engine with this many explicit sizes (larger regions start as BIG and must be refined away)."""
    return CnfEngine(first_k=request.param)


@st.composite
def boards(draw, max_cells: int = 12):
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, max(1, min(4, max_cells // rows))))
    n = rows * cols
    density = draw(st.sampled_from([0.0, 0.15, 0.3, 0.6]))
    clues = [draw(st.integers(1, min(n, 6))) if draw(st.floats(0, 1)) < density else 0 for _ in range(n)]
    return Puzzle(rows, cols, tuple(clues))


def test_a_unique_puzzle_has_one_value_everywhere():
    p = possible(SEED)
    assert p.cells == [[{4}, {2}, {3}], [{4}, {2}, {3}], [{4}, {4}, {3}]]
    assert (p.forced, p.loose, p.solutions_seen) == (9, 0, 1)
    assert p.unique


def test_empty_1x3_board_lists_every_value_of_its_three_solutions():
    # the solutions are 1 2 2, 2 2 1 and 3 3 3
    p = possible(Puzzle.empty(1, 3))
    assert p.cells == [[{1, 2, 3}, {2, 3}, {1, 2, 3}]]
    assert (p.forced, p.loose, p.solutions_seen) == (0, 3, 3)
    assert p.to_json() == {"cells": [[[1, 2, 3], [2, 3], [1, 2, 3]]], "forced": 0, "loose": 3,
                           "solutions_seen": 3, "max_size": None, "values_complete": True}


def test_no_solution_gives_empty_sets_everywhere():
    p = possible(Puzzle.from_grid([[1, 1, 0], [0, 0, 0]]))  # two touching 1s
    assert flat(p) == [set()] * 6
    assert (p.forced, p.loose, p.solutions_seen) == (0, 0, 0) and not p.solvable


def test_sizes_far_above_k_are_exact(small_k):
    # 4x4 whose clues leave one 12-cell unclued area: with K = 1 every size above 1 starts as BIG
    board = Puzzle.from_grid([[1, 0, 0, 0], [3, 0, 0, 0], [3, 3, 0, 0], [0, 0, 0, 0]])
    assert flat(possible(board, engine=small_k)) == bruteforce.possible_values(4, 4, list(board.clues))


def test_every_empty_board_up_to_3x4_matches_brute_force(small_k):
    for rows, cols in itertools.product(range(1, 4), range(1, 5)):
        expected = bruteforce.possible_values(rows, cols, [0] * (rows * cols))
        assert flat(possible(Puzzle.empty(rows, cols), engine=small_k)) == expected, (rows, cols)


@FIXTURE_CASES
@given(p=boards())
def test_random_boards_match_brute_force(small_k, p):
    result = possible(p, engine=small_k)
    expected = bruteforce.possible_values(p.rows, p.cols, list(p.clues))
    assert flat(result) == expected
    assert result.forced == sum(len(v) == 1 for v in expected)
    assert result.loose == sum(len(v) > 1 for v in expected)


@FIXTURE_CASES
@given(p=boards())
def test_rooted_small_clued_sizes_and_their_area_sum_keep_every_answer(small_k, p):
    # the search's engine roots clued 2s and 3s once a search gets long; stated up front they bite on small boards
    engine = dataclasses.replace(SEARCH_ENGINE, first_k=small_k.first_k, escalate_after=None)
    expected = bruteforce.possible_values(p.rows, p.cols, list(p.clues))
    assert flat(possible(p, engine=engine)) == expected
    got = flat(possible(p, engine=engine, loose_only=True))
    assert all(g == e if len(e) < 2 else len(g) > 1 and g <= e for g, e in zip(got, expected))


@pytest.mark.parametrize("name, cell", [("janko-007.txt", "r2c3"), ("janko-007.txt", "r4c4"),
                                        ("janko-016.txt", "r9c2")])
def test_the_search_engine_finds_the_loose_and_forced_cells_of_the_shipped_solve_engine(name, cell):
    # the workbench's slowest needed removals: the same loose cells and forced values as before the change
    if not (EXTERNAL / name).exists():
        pytest.skip("../shared/corpus-external is not present")
    full = read_puzzle(str(EXTERNAL / name))
    row, col = (int(x) - 1 for x in cell[1:].split("c"))
    puzzle = full.with_clues([0 if i == row * full.cols + col else v for i, v in enumerate(full.clues)])
    answers = [possible(puzzle, engine=engine, loose_only=True) for engine in (SEARCH_ENGINE, DEFAULT_ENGINE)]
    loose = [[(r, c) for r, c, _ in a.loose_cells()] for a in answers]
    forced = [[v if len(v) == 1 else None for v in flat(a)] for a in answers]
    assert loose[0] == loose[1] and forced[0] == forced[1] and loose[0]


@FIXTURE_CASES
@given(p=boards())
def test_loose_only_finds_exactly_the_loose_cells_and_only_possible_values(small_k, p):
    result = possible(p, engine=small_k, loose_only=True)
    expected = bruteforce.possible_values(p.rows, p.cols, list(p.clues))
    got = flat(result)
    assert [len(v) > 1 for v in got] == [len(v) > 1 for v in expected]
    assert all(g == e if len(e) < 2 else g <= e for g, e in zip(got, expected))  # forced cells exact
    assert result.values_complete is (result.loose == 0)
    # K rises only to regions the answers showed: a model for sizes no solution has is pure cost
    assert result.k <= max(small_k.first_k, max((max(e) for e in expected if e), default=0))


def test_loose_only_raises_k_no_further_than_the_regions_shown():
    # janko.at #067 without its 4 at r7c4: answers show a region of 10 at K = 9, then one of 15; raising K by half
    # each time went 9 -> 13 -> 19 and spent most of a second on a K = 19 model no solution needs
    path = EXTERNAL / "janko-067.txt"
    if not path.exists():
        pytest.skip("../shared/corpus-external is not present")
    puzzle = read_puzzle(str(path))
    clues = list(puzzle.clues)
    clues[6 * puzzle.cols + 3] = 0
    draft = Puzzle(puzzle.rows, puzzle.cols, tuple(clues))
    whole = possible(draft)
    loose = possible(draft, loose_only=True)
    assert [len(v) > 1 for v in flat(loose)] == [len(v) > 1 for v in flat(whole)]
    assert loose.k <= max(max(v) for v in flat(whole)) == 15


def test_loose_only_on_an_empty_board_shows_two_values_where_there_are_more():
    result = possible(Puzzle.empty(1, 3), loose_only=True)
    assert all(len(v) > 1 for v in flat(result)) and not result.values_complete  # 1 2 2 / 2 2 1 / 3 3 3
    assert result.to_json()["values_complete"] is False


@settings(max_examples=40, deadline=None)
@given(p=boards(), cap=st.integers(1, 5))
def test_a_size_cap_matches_brute_force_with_the_same_cap(p, cap):
    if max(p.clues) > cap:
        with pytest.raises(FillominoError, match="larger than the assumed --max-size"):
            possible(p, max_size=cap)
        return
    result = possible(p, max_size=cap)
    assert flat(result) == bruteforce.possible_values(p.rows, p.cols, list(p.clues), max_size=cap)
    assert result.to_json()["max_size"] == cap


@FIXTURE_CASES
@given(p=boards(), data=st.data())
def test_candidates_restrict_to_the_solutions_inside_them(small_k, p, data):
    n = p.size
    values = st.sets(st.integers(1, n + 2), min_size=1, max_size=n + 1)
    grid = [[data.draw(st.one_of(st.none(), values)) for _ in range(p.cols)] for _ in range(p.rows)]
    allowed = [cell for row in grid for cell in row]
    expected: list[set[int]] = [set() for _ in range(n)]
    for picture in bruteforce.pictures(p.rows, p.cols, list(p.clues)):
        if all(a is None or v in a for v, a in zip(picture, allowed)):
            for i, v in enumerate(picture):
                expected[i].add(v)
    assert flat(possible(p, candidates=grid, engine=small_k)) == expected


def test_candidates_that_allow_sizes_above_k_keep_them_after_a_first_answer_within_k():
    # 1x4 empty, the first cell 1: solutions 1 2 2 1 and 1 3 3 3. With K = 2 the first answer was 1 2 2 1 and the
    # cell questions left out BIG (0 is not among a cell's allowed values), so 3 was never asked and the loose
    # cells came out forced at 2 (found by hypothesis in the test above)
    grid = [[[1], [1, 2, 3], [1, 2, 3], [1, 2, 3]]]
    result = possible(Puzzle.empty(1, 4), candidates=grid, engine=CnfEngine(first_k=2))
    assert result.cells == [[{1}, {2, 3}, {2, 3}, {1, 3}]]


def test_candidates_above_k_only_are_still_exact(small_k):
    # 1x4 empty: solutions 1 3 3 3, 3 3 3 1, 4 4 4 4 and 1 2 2 1; allowing only 3 and 4
    # in the last three cells keeps "1 3 3 3" and "4 4 4 4" (the first cell is free)
    grid = [[None, [3, 4], [3, 4], [3, 4]]]
    assert possible(Puzzle.empty(1, 4), candidates=grid, engine=small_k).cells == [[{1, 4}, {3, 4}, {3, 4}, {3, 4}]]


def test_candidates_that_exclude_a_clue_leave_no_solution():
    assert not possible(SEED, candidates=[[[4], [1], [3]], [[4], [2], [3]], [[4], [4], [3]]]).solvable


@pytest.mark.parametrize(
    "grid, message",
    [
        ([[[1]]], "3 rows"),
        ([[[1], [2]], [[1], [2], [3]], [[1], [2], [3]]], "row 1 must have 3 cells"),
        ([[[1], [0], [3]], [[1], [2], [3]], [[1], [2], [3]]], "r1c2"),
        ([[[1], ["2"], [3]], [[1], [2], [3]], [[1], [2], [3]]], "positive whole numbers"),
    ],
)
def test_malformed_candidates_are_refused_with_a_location(grid, message):
    with pytest.raises(FillominoError, match=message):
        parse_candidates(SEED, grid)


def test_the_result_reads_as_rows_of_sets_for_the_board_printer():
    p = possible(Puzzle.empty(1, 3))
    assert len(p) == 1 and p[0][1] == {2, 3} and list(p)[0] is p.cells[0]
    assert "?" in format_board(Puzzle.empty(1, 3), possible=p)


def test_a_spent_budget_raises_rather_than_guesses():
    with pytest.raises(BudgetExhausted):
        possible(Puzzle.empty(7, 7), budget=Budget(conflicts=1))


def _multiple_boards():
    out = []
    for path in external_files():
        text = path.read_text(encoding="utf-8")
        if "\nstatus: multiple" in text:
            out.append(path)
    return out


# The one ambiguous board of at most 64 cells the brute force takes more than a few seconds on:
# checked against both engines' enumerations instead.
ENUMERATED = {"xcsp24-7-0_7x7.txt"}


@pytest.mark.slow
def test_ambiguous_external_boards_match_brute_force_or_enumeration():
    boards = _multiple_boards()
    if not boards:
        pytest.skip("../shared/corpus-external is not present")
    checked = 0
    for path in boards:
        puzzle = read_puzzle(str(path))
        if puzzle.size > 64:
            continue  # the 15x15 with 60-cell open areas: far too many solutions to enumerate
        result = possible(puzzle)
        assert result.loose > 0, path.name  # the corpus says: several solutions
        if path.name not in ENUMERATED:
            expected = bruteforce.possible_values(puzzle.rows, puzzle.cols, list(puzzle.clues))
        else:
            expected = [set() for _ in range(puzzle.size)]
            for backend in ("cnf", "cpsat"):
                union: list[set[int]] = [set() for _ in range(puzzle.size)]
                for count, grid in enumerate(enumerate_solutions(puzzle, backend=backend), 1):
                    assert count <= 5000, f"{path.name}: enumeration too long for a test"
                    for i, v in enumerate(v for row in grid for v in row):
                        union[i].add(v)
                assert not any(expected) or union == expected, path.name
                expected = union
        assert flat(result) == expected, path.name
        checked += 1
    assert checked >= 15


def test_a_board_with_huge_open_regions_reports_unknown_under_a_budget():
    # noqx 15x15 (old version): regions of 60+ unclued cells are possible, so proving every cell's
    # largest size is far beyond two seconds; the answer must be "unknown", never a guess
    path = next((p for p in _multiple_boards() if p.name == "noqx-url_15x15_old.txt"), None)
    if path is None:
        pytest.skip("../shared/corpus-external is not present")
    with pytest.raises(BudgetExhausted):
        possible(read_puzzle(str(path)), budget=Budget(seconds=2))


# ---- `fillomino ambiguity` ------------------------------------------------------------------------
def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_json_has_every_cells_values_and_the_counts(capsys):
    code, out, _ = run(capsys, "ambiguity", "fillomino:1x3:c", "--json")
    doc = json.loads(out)
    assert code == 0
    assert doc["cells"] == [[[1, 2, 3], [2, 3], [1, 2, 3]]]
    assert (doc["forced"], doc["loose"], doc["solutions_seen"], doc["status"]) == (0, 3, 3, "multiple")
    assert doc["solver_calls"] >= 1


def test_cli_loose_only_marks_the_same_cells_and_says_its_values_may_be_partial(capsys):
    code, out, _ = run(capsys, "ambiguity", "fillomino:1x3:c", "--json", "--loose-only")
    doc = json.loads(out)
    assert code == 0 and doc["values_complete"] is False and doc["loose"] == 3 and doc["status"] == "multiple"
    assert all(len(v) > 1 and set(v) <= {1, 2, 3} for v in doc["cells"][0])
    code, out, _ = run(capsys, "ambiguity", "fillomino:1x3:c", "--loose-only", "--no-color")
    assert code == 0 and "values seen; --loose-only did not look for more" in out


def test_cli_text_shows_forced_numbers_marks_loose_cells_and_explains(capsys):
    code, out, _ = run(capsys, "ambiguity", "fillomino:1x3:c", "--no-color")
    assert code == 0
    assert out.startswith("ambiguous: 3 loose cells, 0 forced (3 solutions seen,")
    assert "? = loose" in out and "legend" in out
    assert "r1c2  2 3" in out and "r1c1  1 2 3" in out
    code, out, _ = run(capsys, "ambiguity", "fillomino:3x3:a2b234b", "--no-color")
    assert code == 0 and out.startswith("unique: every cell is forced") and "?" not in out


def test_cli_no_solution_is_an_answer_too(capsys):
    code, out, _ = run(capsys, "ambiguity", "fillomino:2x2:11b", "--json")
    assert code == 0 and json.loads(out)["status"] == "none"
    code, out, _ = run(capsys, "ambiguity", "fillomino:2x2:11b")
    assert code == 0 and out.startswith("none: no solution")


def test_cli_candidates_from_a_file_inline_or_the_json_output(capsys, tmp_path):
    # first cell 1 or 2 only: the solutions 1 2 2 and 2 2 1 remain
    expected = [[[1, 2], [2], [1, 2]]]
    grid = tmp_path / "cands.json"
    grid.write_text(json.dumps([[[1, 2], None, None]]))
    for source in (str(grid), '[[[1, 2], null, null]]'):
        code, out, _ = run(capsys, "ambiguity", "fillomino:1x3:c", "--candidates", source, "--json")
        assert code == 0 and json.loads(out)["cells"] == expected
    previous = tmp_path / "previous.json"
    previous.write_text(json.dumps({"cells": expected}))
    code, out, _ = run(capsys, "ambiguity", "fillomino:1x3:c", "--candidates", str(previous), "--json")
    assert json.loads(out)["cells"] == expected


@pytest.mark.parametrize(
    "candidates, message",
    [
        ("[[1, 2]]", "--candidates: candidates row 1 must have 3 cells"),
        ("[[[1], [2], ", "--candidates: not JSON"),
        ("missing.json", "no such file"),
    ],
)
def test_cli_unusable_candidates_exit_2_with_the_reason(capsys, candidates, message):
    code, _, err = run(capsys, "ambiguity", "fillomino:1x3:c", "--candidates", candidates)
    assert code == 2 and message in err


def test_cli_max_size_is_stated_and_used(capsys):
    code, out, _ = run(capsys, "ambiguity", "fillomino:1x3:c", "--max-size", "2", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["cells"] == [[[1, 2], [2], [1, 2]]] and doc["max_size"] == 2
    code, out, _ = run(capsys, "ambiguity", "fillomino:1x3:c", "--max-size", "2")
    assert "--max-size 2" in out


def test_cli_spent_budget_exits_3(capsys, monkeypatch):
    def spent(*args, **kwargs):
        raise BudgetExhausted("spent")

    monkeypatch.setattr(possible_module, "possible", spent)
    code, out, _ = run(capsys, "ambiguity", "fillomino:1x3:c")
    assert code == 3 and out.startswith("unknown")


def test_progress_hears_of_every_cell_settled_in_order():
    from fillomino.formats import read_puzzle
    from fillomino.possible import possible

    puzzle = read_puzzle("fillomino:1x4:d")
    heard: list[tuple[int, int]] = []
    result = possible(puzzle, progress=lambda done, total: heard.append((done, total)))
    assert heard == [(k, 4) for k in range(1, 5)]
    assert not result.unique


class Spy:
    """Counts how often a Search method raised or was called, passing everything through."""

    def __init__(self) -> None:
        self.long_proofs = 0
        self.fallbacks = 0


@pytest.fixture
def spy(monkeypatch) -> Spy:
    seen = Spy()
    ask, narrow = possible_module.Search._ask, possible_module.Search._possible

    def counting_ask(self, *args, **kwargs):
        try:
            return ask(self, *args, **kwargs)
        except possible_module.LongProof:
            seen.long_proofs += 1
            raise

    def counting_possible(self, *args, **kwargs):
        try:
            return narrow(self, *args, **kwargs)
        except possible_module._RegionAboveK:  # met a region above an unproved K
            seen.fallbacks += 1
            raise

    monkeypatch.setattr(possible_module.Search, "_ask", counting_ask)
    monkeypatch.setattr(possible_module.Search, "_possible", counting_possible)
    return seen


def possible_with_short_proofs(puzzle: Puzzle, **options) -> Possible:
    """possible() with an allowance of one conflict per cell question: most run long and go to the shared one."""
    search = possible_module.Search(puzzle, defer_k=True, short_proof=1, **options)
    try:
        return search.result(search.possible(), 0.0)
    finally:
        search.close()


def test_cells_whose_proof_runs_long_are_settled_together_exactly(spy):
    for rows, cols in [(3, 4), (4, 4)]:
        expected = bruteforce.possible_values(rows, cols, [0] * (rows * cols))
        assert flat(possible_with_short_proofs(Puzzle.empty(rows, cols))) == expected, (rows, cols)
    board = Puzzle.from_grid([[0, 0, 0, 0], [0, 3, 0, 0], [0, 0, 0, 4], [0, 0, 0, 0]])
    assert flat(possible_with_short_proofs(board)) == bruteforce.possible_values(4, 4, list(board.clues))
    assert spy.long_proofs > 0


@FIXTURE_CASES
@given(p=boards())
def test_random_boards_with_long_proofs_asked_together_match_brute_force(p):
    assert flat(possible_with_short_proofs(p, engine=CnfEngine(first_k=2))) == bruteforce.possible_values(
        p.rows, p.cols, list(p.clues))


def test_an_unproved_k_that_is_wrong_is_settled_the_long_way(spy):
    # with K = 3 a first answer without a region above 3 leaves K unproved; a larger region then shows up
    engine = CnfEngine(first_k=3)
    for rows, cols in itertools.product(range(1, 4), range(1, 5)):
        expected = bruteforce.possible_values(rows, cols, [0] * (rows * cols))
        assert flat(possible(Puzzle.empty(rows, cols), engine=engine)) == expected, (rows, cols)
    assert spy.fallbacks > 0


def test_k_raised_after_a_region_above_it_is_left_unproved_again(spy):
    # with K = 3 a region above 3 raises K, whose proof is again left to the cells' questions: a region
    # above the raised K sends the search back once more, and the answer stays exact
    for rows, cols, loose_only in [(3, 4, False), (4, 4, False), (3, 2, True)]:
        spy.fallbacks = 0
        expected = bruteforce.possible_values(rows, cols, [0] * (rows * cols))
        got = flat(possible(Puzzle.empty(rows, cols), engine=CnfEngine(first_k=3), loose_only=loose_only))
        assert [len(v) > 1 for v in got] == [len(v) > 1 for v in expected], (rows, cols)
        assert all(g == e if len(e) < 2 or not loose_only else g <= e for g, e in zip(got, expected)), (rows, cols)
        assert spy.fallbacks >= 2, (rows, cols)


def test_a_spent_conflict_budget_is_unknown_not_a_long_proof():
    for conflicts in (1, 50, 400):
        try:
            possible(Puzzle.empty(7, 7), budget=Budget(conflicts=conflicts))
        except BudgetExhausted:
            continue
        pytest.fail(f"a 7x7 empty board cannot be settled in {conflicts} conflicts")
