"""The logical rater: every step it takes is judged by ``fillomino.audit`` against the exact solutions, and
what it claims at the end (solved, contradiction) is checked against the engine and the brute force."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from functools import cache
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fillomino.audit import audit, parse_steps
from fillomino.clock import Work
from fillomino.formats import read_puzzle
from fillomino.logic import LADDER, LEVELS, LOOKAHEADS, Board, Lookahead, Solve, check_level, hint, rate, techniques
from fillomino.logic.candidates import values_of
from fillomino.logic.rating import level_of
from fillomino.logic.solver import solve
from fillomino.puzzle import Puzzle, is_solution
from fillomino.solvers import uniqueness
from tests import bruteforce
from tests.conftest import external_files

ROOT = Path(__file__).resolve().parents[1]
PURE_ONLY = pytest.mark.skipif(not techniques.__file__.endswith(".py"), reason="the compiled rater calls its own "
                               "functions directly, past a monkeypatch: the pure run of these tests covers it")
SEED = Puzzle.from_grid([[0, 2, 0], [0, 2, 3], [4, 0, 0]])  # unique: 4 2 3 / 4 2 3 / 4 4 3


def assert_sound(puzzle: Puzzle, rating, *, engine: bool = True) -> None:
    """Every step sound, the end state consistent with the truth; a solve is unique by the CNF engine."""
    result = audit(puzzle, parse_steps(rating.audit_lines(), puzzle))
    assert result.sound, result.unsound[0].reason + " at " + str(result.unsound[0].step)
    if rating.state == "solved":
        assert result.end.verdict == "solved and unique"
        if engine:
            assert uniqueness(puzzle).status == "unique"
    elif rating.state == "contradiction":
        assert result.end.state == "contradiction" and result.end.engine == "none"
    else:
        assert rating.open_cells > 0, "a solved grid is reported as solved, whatever the budget"
        assert result.end.state == "stuck" and rating.open_cells == result.end.open_cells
    if rating.state != "contradiction":
        # every cell's remaining candidates still hold every solution's value there
        for i, values in enumerate(v for row in result.possible.cells for v in row):
            r, c = divmod(i, puzzle.cols)
            assert values <= set(rating.final[r][c])


# ---- techniques on the seed's examples -----------------------------------------------------------
def test_the_seed_puzzle_is_easy_and_solved_with_sentences():
    rating = rate(SEED)
    assert rating.solved and rating.level == "easy" and rating.open_cells == 0
    assert all(s.sentence and s.cells for s in rating.steps)
    assert sum(rating.counts.values()) == len(rating.steps)
    assert_sound(SEED, rating)


def test_too_big_and_only_exit_as_in_the_spec():
    # 2 ? / ? 2: neither ? is 2 (three cells of 2s)
    board = Board.from_puzzle(Puzzle.from_grid([[2, 0], [0, 2]]))
    steps = next(t for t in LADDER if t.name == "too_big").apply(board, _ctx(board))
    assert {c: vs for s in steps for c, vs in s.removes.items()} == {1: [2], 2: [2]}
    assert "r1c2 cannot be 2" in steps[0].sentence
    # 3 3 2 / 1 ? 2: the 3 can only grow into ?
    board = Board.from_puzzle(Puzzle.from_grid([[3, 3, 2], [1, 0, 2]]))
    steps = next(t for t in LADDER if t.name == "only_exit").apply(board, _ctx(board))
    assert steps and steps[0].place == {4: 3}
    assert steps[0].sentence == "the 3 at r1c1 can only grow into r2c2"


def _ctx(board):
    from fillomino.logic.techniques import Context

    return Context([0] * board.size, solve)


def test_every_technique_has_a_level_on_the_ladder_in_order():
    names = [t.name for t in LADDER]
    for needed in ("region_complete", "too_big", "only_exit", "exact_room", "no_room", "pair", "must_include",
                   "completions", "pocket", "forced", "short_contradiction", "contradiction", "way_through",
                   "new_region"):
        assert needed in names
    order = [LEVELS.index(t.level) for t in LADDER]
    assert order == sorted(order)


def test_depth_rule_one_step_of_a_level_does_not_make_the_level():
    assert level_of({"only_exit": 5, "must_include": 1}) == ("easy", "medium")
    assert level_of({"only_exit": 5, "must_include": 3}) == ("medium", "medium")
    assert level_of({"must_include": 4, "short_contradiction": 1}) == ("medium", "hard")
    assert level_of({"short_contradiction": 2}) == ("hard", "hard")
    assert level_of({"contradiction": 1}) == ("easy", "expert")
    assert level_of({"contradiction": 1, "short_contradiction": 2}) == ("hard", "expert")
    assert level_of({"contradiction": 2}) == ("expert", "expert")


def test_candidates_are_not_capped():
    # a 1x12 row with one clue 12 is one region of 12: sizes up to the cell count are kept exactly
    puzzle = Puzzle.from_grid([[12] + [0] * 11])
    rating = rate(puzzle)
    assert rating.solved and rating.final == [[[12]] * 12]
    board = Board.from_puzzle(Puzzle.empty(12, 12))
    assert values_of(board.cand[0]) == list(range(1, 145))


def test_an_ambiguous_board_is_never_solved_and_a_contradiction_is_reported():
    empty = Puzzle.empty(1, 3)  # 1 2 2, 2 2 1, 3 3 3
    rating = rate(empty)
    assert not rating.solved and rating.level == "unrated" and rating.state == "stuck"
    assert_sound(empty, rating)
    broken = Puzzle.from_grid([[1, 1, 0]])
    rating = rate(broken)
    assert rating.state == "contradiction" and rating.contradiction and rating.level == "unrated"
    assert rating.steps[-1].contradiction
    assert_sound(broken, rating)


def test_rating_json_and_steps_format():
    rating = rate(SEED)
    data = rating.to_json(steps=True)
    assert data["level"] == "easy" and data["solved"] and data["step_count"] == len(data["steps"])
    assert data["hardest"]["sentence"] == rating.hardest.sentence
    lines = rating.audit_lines().splitlines()
    assert len(parse_steps(rating.audit_lines(), SEED)) == len(lines) >= len(rating.steps)


def test_hint_is_the_first_step_and_respects_marks():
    step = hint(SEED)
    assert step is not None and step.technique == rate(SEED).steps[0].technique
    # with the user's marks holding the full answer but one cell, the hint is about that cell
    marks = [[4, 2, 3], [4, 2, 3], [4, None, 3]]
    step = hint(SEED, marks)
    assert step is not None and step.cells == [7]
    assert step.place.get(7) == 4 or 4 not in step.removes.get(7, [4])
    result = audit(SEED, parse_steps(step.audit_lines(SEED.cols), SEED), candidates=marks)
    assert result.sound
    solved = [[4, 2, 3], [4, 2, 3], [4, 4, 3]]
    assert hint(SEED, solved) is None


def test_check_level_compares_the_header():
    assert check_level(SEED) is None  # no header: nothing to check
    good = Puzzle(SEED.rows, SEED.cols, SEED.clues, metadata=(("level", "easy"),))
    assert check_level(good) is None
    bad = Puzzle(SEED.rows, SEED.cols, SEED.clues, metadata=(("level", "hard"),))
    problem = check_level(bad)
    assert problem is not None and "hard" in problem and "easy" in problem and "\n" not in problem
    odd = Puzzle(SEED.rows, SEED.cols, SEED.clues, metadata=(("level", "tricky"),))
    assert "not one of" in check_level(odd)


def test_level_mismatch_is_the_one_wording_of_the_header_check():
    from fillomino.logic.rating import level_mismatch

    assert level_mismatch(None, "hard", "solved") is None
    assert level_mismatch("hard (rated 2026)", "hard", "solved") is None
    assert level_mismatch("hard", "expert", "solved") == "level: the header says hard, the rater says expert (solved)"
    assert "not one of" in level_mismatch("tricky", "hard", "solved")
    assert "not one of" in level_mismatch("", "hard", "solved")


def test_a_budget_gives_unrated_never_a_guess():
    puzzle = read_puzzle(str(ROOT / "corpus" / "07x07" / "7x7-s0.txt"))
    rating = rate(puzzle, budget=0.01)
    assert rating.state in ("budget", "stuck", "solved")
    if rating.state != "solved":
        assert rating.level == "unrated"
    assert_sound(puzzle, rating, engine=False)


# ---- Solve: a rating stopped once some cells are fixed, finished later ------------------------------------
SOLVE_SAMPLE = (sorted((ROOT / "corpus" / "06x06").glob("*.txt"))[:3]
                + sorted((ROOT / "corpus" / "07x07").glob("*.txt"))[:2])


def _same_rating(got, want) -> None:
    assert (got.level, got.state, got.score, got.counts, got.used_level, got.open_cells, got.final) == \
        (want.level, want.state, want.score, want.counts, want.used_level, want.open_cells, want.final)
    assert got.audit_lines() == want.audit_lines()
    assert (got.hardest is None) == (want.hardest is None)


@pytest.mark.parametrize("path", SOLVE_SAMPLE, ids=lambda p: p.name)
@pytest.mark.parametrize("max_level", ["easy", "medium", "expert"])
def test_a_solve_stops_once_the_cells_are_fixed_and_finishing_it_is_rate(path, max_level):
    puzzle = read_puzzle(str(path))
    want = rate(puzzle, max_level=max_level)
    open_cells = [c for c, v in enumerate(puzzle.clues) if not v]
    for cells in ([open_cells[0]], open_cells[::3], open_cells):
        run = Solve(puzzle.rows, puzzle.cols, puzzle.clues, max_level=max_level)
        state = run.run(until_fixed=cells)
        if state == "fixed":
            # it stopped after the first pass that fixed them: the steps so far are the whole solve's first steps
            assert set(cells) <= run.fixed() and not run.ended
            assert 0 < len(run.steps) <= len(want.steps)
            assert [s.audit_lines(puzzle.cols) for s in run.steps] == \
                [s.audit_lines(puzzle.cols) for s in want.steps[: len(run.steps)]]
        else:
            assert state == want.state and run.ended  # it came to its end first
        _same_rating(run.finish(), want)
        _same_rating(run.finish(), want)  # finishing twice changes nothing


def test_a_solve_resumed_pass_after_pass_is_the_whole_solve():
    puzzle = read_puzzle(str(SOLVE_SAMPLE[0]))
    want = rate(puzzle)
    run = Solve(puzzle.rows, puzzle.cols, puzzle.clues)
    for c in (c for c, v in enumerate(puzzle.clues) if not v):
        if run.run(until_fixed=[c]) != "fixed":
            break
    _same_rating(run.finish(), want)


def test_a_solve_started_from_a_stuck_grid_of_fewer_clues_ends_as_the_whole_rating():
    """Candidates only shrink, so the grid where fewer clues got stuck is a start for more of them: the solve from
    there ends as rate() of the clues does (its steps are not rate()'s), and a budget of 0 gives "budget"."""
    for path in SOLVE_SAMPLE:
        puzzle = read_puzzle(str(path))
        clued = [c for c, v in enumerate(puzzle.clues) if v]
        fewer = tuple(v if c in clued[1:] else 0 for c, v in enumerate(puzzle.clues))
        stuck = Solve(puzzle.rows, puzzle.cols, fewer, max_level="easy")
        if stuck.run() != "stuck":
            continue
        for level in ("easy", "expert"):
            run = Solve(puzzle.rows, puzzle.cols, puzzle.clues, max_level=level, start=stuck.candidates())
            rated = run.finish()
            want = rate(puzzle, max_level=level)
            assert rated.state == want.state
            if rated.solved:
                assert rated.final == want.final
        spent = Solve(puzzle.rows, puzzle.cols, puzzle.clues, budget=0.0).finish()
        assert spent.state == "budget" and spent.level == "unrated"


# ---- soundness on the corpora ----------------------------------------------------------------------
CORPUS_SAMPLE = (sorted((ROOT / "corpus" / "05x05").glob("*.txt"))
                 + sorted((ROOT / "corpus" / "06x06").glob("*.txt"))
                 + sorted((ROOT / "corpus" / "07x07").glob("*.txt"))[:6])


@pytest.mark.parametrize("path", CORPUS_SAMPLE, ids=lambda p: p.name)
def test_bundled_corpus_ratings_are_sound(path):
    puzzle = read_puzzle(str(path))
    # every sample settles within 3 CPU s, so the budget never decides where the rating ends (6x6-s13 needs
    # about 1.3 s: with 1 s its path depended on the machine's load)
    rating = rate(puzzle, budget=10.0)
    assert rating.state != "contradiction"
    assert_sound(puzzle, rating)
    if rating.solved:
        assert puzzle.solution is None or [v for row in puzzle.solution for v in row] == \
            [r[0] for row in rating.final for r in row]


@pytest.mark.parametrize("budget", [0.15, 0.4, 0.7])
def test_a_rating_cut_by_its_budget_is_sound_so_far(budget):
    """Wherever the budget cuts a rating (mid look-ahead included), its steps are sound and its open cells are
    those the steps leave."""
    puzzle = read_puzzle(str(ROOT / "corpus" / "06x06" / "6x6-s13.txt"))
    rating = rate(puzzle, budget=budget)
    assert rating.state in ("budget", "solved")
    assert_sound(puzzle, rating, engine=False)


@pytest.mark.parametrize("units", [50, 400, 1500])
def test_a_work_budget_cuts_a_rating_at_the_same_step_every_time(units):
    """A clock.Work budget counts the rater's own checks, not time: two ratings stop at the very same step
    (what makes a generator's puzzle the same on every machine), and what they did is sound."""
    from fillomino.clock import Work

    puzzle = read_puzzle(str(ROOT / "corpus" / "06x06" / "6x6-s13.txt"))
    first, second = rate(puzzle, budget=Work(units)), rate(puzzle, budget=Work(units))
    assert first.state == "budget" and first.level == "unrated"
    assert [(s.technique, s.cells, s.text()) for s in first.steps] == \
        [(s.technique, s.cells, s.text()) for s in second.steps]
    assert first.final == second.final
    assert_sound(puzzle, first, engine=False)


def test_a_work_budget_either_cuts_with_cells_open_or_changes_nothing():
    """Regression: a budget spent inside a technique made it find nothing, and the ladder ran a harder technique
    instead (6x6-s1 at Work(57) filled the grid in 41 steps, with cut_area after gentler techniques the budget had
    cut, where the unbudgeted rating is hard in 66), and the run then said "budget" of a solved grid."""
    from fillomino.clock import Work

    puzzle = read_puzzle(str(ROOT / "corpus" / "06x06" / "6x6-s1.txt"))
    full = rate(puzzle)
    for units in range(40, 400, 3):
        cut = rate(puzzle, budget=Work(units))
        if cut.state == "budget":
            assert cut.open_cells > 0 and cut.level == "unrated"
        else:
            _same_rating(cut, full)
            break
    else:
        raise AssertionError("Work(400) should be enough for 6x6-s1")


def test_a_work_budget_large_enough_changes_nothing():
    from fillomino.clock import Work

    puzzle = read_puzzle(str(ROOT / "corpus" / "06x06" / "6x6-s13.txt"))
    _same_rating(rate(puzzle, budget=Work(10**9)), rate(puzzle))


EXTERNAL_SAMPLE = ["janko-001.txt", "janko-002.txt", "janko-003.txt", "janko-006.txt", "janko-008.txt",
                   "janko-011.txt", "janko-012.txt", "janko-013.txt", "janko-015.txt", "janko-017.txt",
                   "janko-020.txt", "janko-025.txt", "penpuz-db04_10x10.txt", "penpuz-db10_9x9.txt",
                   "cspuz_core-test_problem2_4x4.txt", "xcsp24-5-0_5x5.txt", "grilops-wikipedia_9x9.txt",
                   "mznc2009-11.txt"]


@pytest.mark.parametrize("name", EXTERNAL_SAMPLE)
def test_external_corpus_ratings_are_sound(name):
    path = next((p for p in external_files() if p.name == name), None)
    if path is None:
        pytest.skip("../shared/corpus-external (or this file) is not present")
    puzzle = read_puzzle(str(path))
    rating = rate(puzzle, budget=2.0)
    assert_sound(puzzle, rating)


def external_puzzle(corpus: list[Path], name: str) -> Puzzle:
    """The external corpus's puzzle in the file called ``name``."""
    return read_puzzle(str(next(p for p in corpus if p.name == name)))


def test_janko_001_is_easy(external_corpus):
    rating = rate(external_puzzle(external_corpus, "janko-001.txt"))
    assert rating.solved and rating.level == "easy"


# ---- random boards: ambiguous, unique and contradictory ------------------------------------------
@settings(max_examples=250, deadline=None)
@given(rows=st.integers(1, 4), cols=st.integers(1, 4), data=st.data())
def test_random_boards_are_rated_soundly(rows, cols, data):
    n = rows * cols
    clues = [data.draw(st.sampled_from([0, 0, 0, 1, 2, 3, 4, 5])) for _ in range(n)]
    clues = [v if v <= n else 0 for v in clues]
    puzzle = Puzzle(rows, cols, tuple(clues))
    rating = rate(puzzle)
    solutions = bruteforce.pictures(rows, cols, clues)
    if rating.solved:
        assert len(solutions) == 1
        assert list(solutions[0]) == [cell[0] for row in rating.final for cell in row]
        assert is_solution(puzzle, solutions[0])
    if rating.contradiction:
        assert not solutions
    if len(solutions) > 1:
        assert not rating.solved and rating.level == "unrated"
    assert_sound(puzzle, rating, engine=False)


def test_way_through_fires_where_joining_another_group_is_too_big_and_is_sound():
    puzzle = Puzzle(4, 5, (6, 1, 0, 1, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 2, 0, 0, 4, 0))
    rating = rate(puzzle)
    assert rating.counts.get("way_through")
    step = next(s for s in rating.steps if s.technique == "way_through")
    assert "goes through" in step.sentence and step.place
    assert_sound(puzzle, rating, engine=False)


def test_hint_on_marks_that_leave_a_cell_empty_says_so():
    step = hint(SEED, [[4, [1], 3], [4, 2, 3], [4, 4, 3]])
    assert step is not None and step.contradiction and step.cells == [1] and "r1c2 has no size left" in step.sentence


def test_check_level_on_corpus_files_with_the_header_certify_will_read():
    for path in sorted((ROOT / "corpus" / "05x05").glob("*.txt"))[:10]:
        read = read_puzzle(str(path))
        # the file's own level: header (if any) goes, so that the one this test writes is the one read
        meta = tuple(m for m in read.metadata if m[0] != "level")
        puzzle = Puzzle(read.rows, read.cols, read.clues, read.solution, meta)
        level = rate(puzzle).level
        headed = Puzzle(puzzle.rows, puzzle.cols, puzzle.clues, puzzle.solution, (*puzzle.metadata, ("level", level)))
        assert check_level(headed) is None, path.name
        other = "hard" if level != "hard" else "easy"
        wrong = Puzzle(puzzle.rows, puzzle.cols, puzzle.clues, puzzle.solution, (*puzzle.metadata, ("level", other)))
        assert check_level(wrong) == f"level: the header says {other}, the rater says {level} (solved)", path.name


def test_closed_area_cuts_an_enclosed_area_into_its_own_regions_soundly():
    puzzle = Puzzle(3, 5, (2, 0, 2, 2, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    rating = rate(puzzle)
    step = next(s for s in rating.steps if s.technique == "closed_area")
    assert step.removes and "must be cut into new regions of its own" in step.sentence
    assert_sound(puzzle, rating)
    assert rating.solved == (len(bruteforce.pictures(3, 5, list(puzzle.clues))) == 1)


def test_an_enclosed_clue_free_nine_is_found(external_corpus):
    puzzle = external_puzzle(external_corpus, "penpuz-db10_9x9.txt")  # published easy
    rating = rate(puzzle)
    assert rating.solved and rating.counts.get("closed_area") == 1 and rating.level == "easy"
    assert_sound(puzzle, rating)


@cache
def _all_pictures(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    return tuple(bruteforce.pictures(rows, cols, [0] * (rows * cols)))


def _candidate_grid(pictures: tuple[tuple[int, ...], ...], n: int, data) -> list[int]:
    """A candidate grid around one of ``pictures``: some cells fixed at its value, the others with extra sizes,
    now and then without its value."""
    truth = data.draw(st.sampled_from(pictures))
    cand = []
    for v in truth:
        if data.draw(st.booleans()):
            cand.append(1 << v)
            continue
        extra = data.draw(st.sets(st.integers(1, n), max_size=n))
        mask = sum(1 << x for x in extra) | 1 << v
        if data.draw(st.integers(0, 9)) == 0:
            mask &= ~(1 << v)
        cand.append(mask or 1 << v)
    return cand


@settings(max_examples=400, deadline=None)
@given(shape=st.sampled_from([(3, 3), (2, 5), (3, 4)]), name=st.sampled_from(["cut_area", "must_share", "room_count",
                                                                             "pocket_exit", "chain"]),
       data=st.data())
def test_area_techniques_on_candidate_grids_keep_every_solution_they_allow(shape, name, data):
    """cut_area, must_share, room_count, pocket_exit and chain on any candidate grid (see _candidate_grid): they
    remove no size of a picture the grid still allows, and find a broken rule only when the grid allows none (the
    brute force's pictures of the empty board are the truth)."""
    rows, cols = shape
    n = rows * cols
    pictures = _all_pictures(rows, cols)
    cand = _candidate_grid(pictures, n, data)
    board = Board(rows, cols, list(cand))
    allowed = [p for p in pictures if all(m >> v & 1 for m, v in zip(cand, p))]
    try:
        steps = getattr(techniques, name)(board, techniques.Context([0] * n, solve))
    except techniques.Contradiction:
        assert not allowed
        return
    for step in steps:
        assert step.text()
        for c, v in step.place.items():
            assert all(p[c] == v for p in allowed), (step.text(), cand)
        for c, mask in step.masks.items():
            assert not any(mask >> p[c] & 1 for p in allowed), (step.text(), cand)


def test_cut_area_cuts_an_enclosed_area_too_big_for_closed_area(external_corpus):
    puzzle = external_puzzle(external_corpus, "janko-575.txt")  # stuck with 18 open cells before it
    rating = rate(puzzle)
    assert rating.solved and rating.counts.get("cut_area") == 1
    step = next(s for s in rating.steps if s.technique == "cut_area")
    assert "(18 cells) must be cut into regions" in step.text()
    assert_sound(puzzle, rating)


def test_must_share_puts_a_cell_in_the_region_of_an_open_cell_that_needs_it():
    # r1c1, left without 1, 2 and 3, is in a region of 4 or more that can only leave it through r1c2
    puzzle = Puzzle(2, 4, (0, 0, 0, 0, 1, 2, 2, 3))
    board = Board.from_puzzle(puzzle)
    board.cand[0] &= ~0b1110  # not 1, 2 or 3
    steps = techniques.must_share(board, techniques.Context(puzzle.clues))
    assert steps and steps[0].cells[:2] == [0, 1] and "so the two are one region" in steps[0].text()
    assert steps[0].masks[1] == 0b1110  # r1c2 loses the sizes r1c1 does not have
    rating = rate(puzzle)
    assert_sound(puzzle, rating, engine=False)


def test_way_through_walls_a_group_off_from_one_of_its_size_too_far_to_join():
    # 4 at r1c1 and 4 at r1c5; only r1c2-r1c4, r2c2, r3c2 (and r2c5, r3c5 for the right 4) allow 4. The two 4s have
    # three cells between them: 1 + 1 + 3 > 4, so they are two regions ("apart") and the left one may not take
    # r1c4, beside the right one; its only ways are then r1c2 with r1c3 and r2c2, or r1c2, r2c2 and r3c2: r2c2 is
    # its. With the wall only at a gap of one (before generator version 8) r1c2 r1c3 r1c4 was a way too.
    puzzle = Puzzle(3, 5, (4, 0, 0, 0, 4) + (0,) * 10)
    board = Board.from_puzzle(puzzle)
    for c in (5, 7, 8, 10, 12, 13):
        board.cand[c] &= ~(1 << 4)
    steps = techniques.way_through(board, techniques.Context(puzzle.clues))
    placed = {c: v for s in steps for c, v in s.place.items()}
    assert placed.get(6) == 4 and placed.get(1) == 4, [s.text() for s in steps]
    assert "without joining another 4, goes through r2c2" in next(s for s in steps if 6 in s.place).text()


def test_room_counts_cell_masks_kept_on_the_grid_are_those_made_afresh():
    # room_count's masks per size are brought up to date from the grid's last state: after every pass of a solve,
    # and on a copy (a trial), they are the masks made from the candidates as they are
    from fillomino.grid import bit_planes
    from fillomino.logic.techniques import _allow_planes

    puzzle = read_puzzle(str(ROOT / "corpus" / "10x10" / "expert-10x10-s1.txt"))
    b = Board.from_puzzle(puzzle)
    passes = 0
    while solve(b, puzzle.clues, max_passes=1).passes:
        passes += 1
        assert _allow_planes(b) == bit_planes(b.cand)
        if passes % 5 == 0 and b.any_open():
            trial = b.copy()
            _allow_planes(trial)
            c = trial.open_cells()[0]
            trial.cand[c] &= trial.cand[c] - 1  # its smallest size goes
            trial.log.append(c)
            assert _allow_planes(trial) == bit_planes(trial.cand)
    assert passes > 20 and not b.any_open()


def test_room_count_takes_from_a_room_the_cells_other_groups_must_have():
    # r1c1 r1c2 r1c3 r2c1 r2c2 r2c3 are open; the 3 at r3c1 needs its two cells from them (its room outside them is
    # itself), so a region of 5 or 6 through them has at most 4 cells
    puzzle = Puzzle(3, 3, (0, 0, 0, 0, 0, 0, 3, 1, 2))
    board = Board.from_puzzle(puzzle)
    for c in range(6):
        board.cand[c] = 0b1111110  # 1-6 (the grid is 9 cells: 7-9 would go by no_room)
    steps = techniques.room_count(board, techniques.Context(puzzle.clues))
    gone = {c: m for s in steps for c, m in s.masks.items()}
    assert all(gone.get(c, 0) & 0b1100000 == 0b1100000 for c in range(6)), [s.text() for s in steps]
    assert "once the other regions short of their size" in steps[0].text()
    assert_sound(puzzle, rate(puzzle), engine=False)


def test_room_count_bounds_the_clue_free_thirteen_of_db09(external_corpus):
    # published easy; the ladder stalled with the clue-free snake r1c1 ... r7c7 at 13-64 and 64 cells open
    puzzle = external_puzzle(external_corpus, "penpuz-db09_10x10.txt")
    rating = rate(puzzle, max_level="medium")
    assert rating.counts.get("room_count") and rating.final[0][0] == [13, 14]
    assert_sound(puzzle, rating)


def test_room_count_solves_a_big_number_puzzle_the_ladder_stalled_on(external_corpus):
    # janko-369: 31 open cells around two 13s, two 11s, two 7s and two 3s that need 30 of them
    puzzle = external_puzzle(external_corpus, "janko-369.txt")
    rating = rate(puzzle)
    assert rating.solved and rating.counts.get("room_count")
    assert_sound(puzzle, rating)


def test_pocket_exit_leaves_a_pocket_to_the_two_groups_that_share_it(external_corpus):
    # penpuz-db09 (published easy) stalled with 62 cells open: the 7 at r3c6 and the 8 at r4c6 need 4 cells each
    # of the 8-cell pocket r1c7 ... r3c10, whose only way out is r4c10; an 11 or 12 there would leave through it
    puzzle = external_puzzle(external_corpus, "penpuz-db09_10x10.txt")
    rating = rate(puzzle)
    assert rating.solved and rating.counts.get("pocket_exit")
    step = next(s for s in rating.steps if s.technique == "pocket_exit")
    assert "its only way out" in step.text() and "need 8 of its other cells, and only 7" in step.text()
    assert_sound(puzzle, rating)


def test_chain_follows_the_ring_of_2s_round_db05(external_corpus):
    # penpuz-db05 stalled with 34 cells open: the 2s round the border pair one way or the other all together; the
    # wrong way is refuted only after some 35 easy steps, far beyond short_contradiction's 6 passes
    puzzle = external_puzzle(external_corpus, "penpuz-db05_10x10.txt")
    rating = rate(puzzle)
    assert rating.solved and rating.counts.get("chain") and rating.level == "hard"
    step = next(s for s in rating.steps if s.technique == "chain")
    assert "steps" in step.text()
    assert_sound(puzzle, rating)


runs = st.lists(st.tuples(st.integers(0, 150), st.integers(1, 120)), max_size=4).map(
    lambda rs: sum(((1 << n) - 1) << lo for lo, n in rs))


@settings(max_examples=300, deadline=None)
@given(mask=st.one_of(st.integers(0, 2 ** 300), runs, runs.flatmap(lambda m: st.integers(0, 2 ** 200).map(m.__xor__))))
def test_values_of_lists_every_size_of_a_bitset(mask):
    # masks made of runs (a cell losing 13-100) are listed a range at a time, other sets a size at a time
    assert values_of(mask) == [v for v in range(mask.bit_length()) if mask >> v & 1]


def test_size_lists_in_sentences_keep_every_size():
    """Two sizes in a row were once shortened to the first alone ("3" for 3 and 4)."""
    from fillomino.logic.techniques import _sizes, _too_small

    assert _sizes([3, 4]) == "3/4"
    assert _sizes([3, 5, 6, 7, 9]) == "3/5-7/9"
    assert _sizes(sum(1 << v for v in (1, 2, 4, 5, 6))) == "1/2/4-6"
    assert _too_small({4: sum(1 << v for v in (5, 6, 7)), 2: 1 << 3}) == "3 (2 cells), 5-7 (4 cells)"


def test_max_level_limits_the_ladder_and_a_harder_puzzle_is_left_stuck():
    # (a header says hard: the first that the ladder still rates hard, since room_count made some medium)
    puzzle = next(p for p in (read_puzzle(str(f)) for f in sorted((ROOT / "corpus").rglob("*.txt")))
                  if p.meta("level") == "hard" and rate(p).level == "hard")
    limited = rate(puzzle, max_level="medium")
    assert limited.state == "stuck" and limited.level == "unrated"
    assert all(s.level in ("bookkeeping", "easy", "medium") for s in limited.steps)
    with pytest.raises(ValueError):
        rate(puzzle, max_level="impossible")


# ---- incremental passes: the same steps as looking at the whole grid every pass ---------------------
def _steps(puzzle: Puzzle, incremental: bool, passes: int | None = None) -> tuple:
    run = solve(Board.from_puzzle(puzzle), puzzle.clues, max_passes=passes, incremental=incremental)
    return run.state, [(s.technique, s.cells, s.sentence, s.removes, s.place) for s in run.steps]


@pytest.mark.parametrize("name", ["05x05/5x5-s4.txt", "06x06/6x6-s0.txt", "07x07/7x7-s3.txt"])
def test_incremental_passes_take_the_same_steps_on_corpus_puzzles(name):
    # puzzles that need look-ahead: the hypotheses start from the record of what each technique has seen
    puzzle = read_puzzle(str(ROOT / "corpus" / name))
    assert _steps(puzzle, True, 60) == _steps(puzzle, False, 60)


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(2, 5), cols=st.integers(2, 5), data=st.data())
def test_incremental_passes_take_the_same_steps_on_random_boards(rows, cols, data):
    clues = [data.draw(st.sampled_from([0, 0, 0, 0, 1, 2, 3, 4, 5, 6])) for _ in range(rows * cols)]
    puzzle = Puzzle(rows, cols, tuple(v if v <= rows * cols else 0 for v in clues))
    assert _steps(puzzle, True) == _steps(puzzle, False)


@pytest.mark.parametrize("name", ["05x05/5x5-s4.txt", "06x06/6x6-s0.txt", "07x07/7x7-s3.txt",
                                  "10x10/expert-10x10-s3.txt"])
def test_the_big_grid_limit_on_changed_cells_takes_the_same_steps(name, monkeypatch):
    """On a grid over DIRTY_BIG cells techniques look near up to one cell in DIRTY_SHARE changed; forced onto small
    grids (every technique near however many cells changed), the steps are those of the whole grid."""
    puzzle = read_puzzle(str(ROOT / "corpus" / name))
    whole = _steps(puzzle, False, 60)
    monkeypatch.setattr(techniques, "DIRTY_BIG", 0)
    monkeypatch.setattr(techniques, "DIRTY_SHARE", 1)
    assert techniques.dirty_max(Board.from_puzzle(puzzle), "pair", None) == puzzle.rows * puzzle.cols
    assert _steps(puzzle, True, 60) == whole


def test_the_big_grid_look_ahead_tries_first_the_hypotheses_near_what_changed():
    # a hypothesis whose trial broke no rule goes after the others until a cell changes near what its trial changed;
    # the others go nearest first to what changed since the look-ahead last looked
    from fillomino.logic.techniques import _fresh_first

    b = Board.from_puzzle(Puzzle(10, 10, (0,) * 100))
    n = len(b.log)
    stale = {(0, 1 << 2): (n, 1 << 0), (55, 1 << 3): (n, 1 << 55 | 1 << 56), (90, 1 << 5): (n, 1 << 90),
             (33, 1 << 6): (n, 1 << 33 | 1 << 99)}
    b.cand[58] &= ~(1 << 9)
    b.log.append(58)  # r6c9: two steps from r6c7 (4 or under: near), 12 from r10c1, 13 from r1c1
    # r4c4 and r10c10: the box between them holds r6c9, the cells are 7 and 5 steps from it
    order = [(0, 2, True), (55, 3, True), (90, 5, True), (33, 6, True), (99, 4, False), (68, 2, True)]
    later = [(0, 2, True), (90, 5, True), (33, 6, True)]
    # r7c9 one step from r6c9, r6c6 three, r10c10 five
    assert _fresh_first(b, order, stale, n) == ([(68, 2, True), (55, 3, True), (99, 4, False)], later)
    assert _fresh_first(b, order, stale, len(b.log)) == ([(55, 3, True), (99, 4, False), (68, 2, True)], later)
    assert _fresh_first(b, order, {}, len(b.log)) == (order, [])


@pytest.mark.parametrize("name", ["10x10/hard-10x10-s5.txt", "10x10/expert-10x10-s1.txt"])
def test_a_screened_trial_makes_the_passes_of_the_full_ladder(name):
    """The big grid's hard look-ahead first runs the easy techniques alone on a hypothesis, and carries the run on
    with the medium ones only where it got stuck short of the depth: the same passes, end and last step as the run
    with every medium technique from the start, on every hypothesis of the grid where the look-ahead is first
    needed."""
    puzzle = read_puzzle(str(ROOT / "corpus" / name))
    b = Board.from_puzzle(puzzle)
    assert solve(b, puzzle.clues, max_level="medium").state == "stuck"
    depth = LOOKAHEADS["full"].hard_passes
    carried = 0
    for c, v, is_v in techniques._hypotheses(b, 2, False):
        assumed = b.cand[c] & ~(1 << v) if not is_v else 1 << v
        runs = []
        for screened in (False, True):
            trial = b.copy()
            trial.cand[c] = assumed
            trial.log.append(c)
            trial.changed([c])
            run = solve(trial, puzzle.clues, max_level="easy" if screened else "medium", max_passes=depth,
                        nested=True)
            passes, steps = list(run.passes), list(run.steps)
            if screened and run.state == "stuck" and len(passes) < depth:
                carried += 1
                run = solve(trial, puzzle.clues, max_level="medium", max_passes=depth - len(passes), nested=True)
                passes, steps = passes + run.passes, steps + run.steps
            runs.append((run.state, passes, [s.text() for s in steps], trial.cand))
        assert runs[0] == runs[1], (c, v, is_v)
    assert carried


@pytest.mark.parametrize("name", ["06x06/hard-6x6-s6.txt", "10x10/expert-10x10-s1.txt"])
def test_chain_after_a_dry_screened_look_ahead_carries_on_from_its_runs(name, monkeypatch):
    """After a dry hard look-ahead that screened with the easy techniques, chain (the easy techniques, no depth)
    takes the screening runs stuck short of the depth as its own and carries on the others: the very steps of a
    chain run from scratch, on the first six grids of the rating where chain was asked."""
    from fillomino.logic.solver import _apply
    from fillomino.logic.techniques import Context, chain, short_contradiction

    monkeypatch.setattr(techniques, "LOOKAHEAD_SCREEN_BIG", 0)
    puzzle = read_puzzle(str(ROOT / "corpus" / name))
    rating = rate(puzzle)
    assert rating.counts.get("chain")
    asked = [i for i, s in enumerate(rating.steps) if s.technique in ("chain", "cut_area", "contradiction")]
    compared = 0
    for i in asked[:6]:
        found = []
        for reuse in (True, False):
            b = Board.from_puzzle(puzzle)
            for step in rating.steps[:i]:
                _apply(b, step)
            ctx = Context(puzzle.clues, solve)
            assert short_contradiction(b, ctx) == []  # the ladder was past it: dry
            assert "screened" in b.derived
            if not reuse:
                del b.derived["screened"]
            found.append([s.text() for s in chain(b, ctx)])
            assert "screened" not in b.derived
        assert found[0] == found[1]
        compared += bool(found[0])
    assert compared


@pytest.mark.parametrize("name", ["10x10/expert-10x10-s1.txt", "15x15/expert-15x15-s3.txt"])
def test_the_big_grid_look_ahead_forced_onto_small_grids_is_sound_and_loses_nothing(name, monkeypatch):
    """Above LOOKAHEAD_STALE_BIG cells the top-level look-ahead tries first the hypotheses that are new or near what
    changed since their trial broke no rule, the others after them: it finds a refutation whenever one is there
    (maybe another one first). Forced onto small grids: every step sound, the same level and end (15x15-s3 takes
    other steps on the way)."""
    puzzle = read_puzzle(str(ROOT / "corpus" / name))
    plain = rate(puzzle)
    monkeypatch.setattr(techniques, "LOOKAHEAD_STALE_BIG", 0)
    monkeypatch.setattr(techniques, "LOOKAHEAD_SCREEN_BIG", 0)
    fresh = rate(puzzle)
    assert (fresh.level, fresh.state, fresh.open_cells) == (plain.level, plain.state, plain.open_cells)
    assert fresh.counts.get("short_contradiction")
    assert_sound(puzzle, fresh)


@pytest.mark.parametrize("counted", [True, False])
def test_under_a_work_budget_no_room_keeps_its_limit_and_its_checks(counted, monkeypatch):
    """no_room's Work checks (one per size of each area it looks at) depend on how much of the grid it looks at:
    under a Work budget it keeps DIRTY_MAX on a big grid too, so the budget stops where it did (11x11-s4 at 20,000
    checks ends with other checks left when no_room is not kept at it)."""
    puzzle = read_puzzle(str(ROOT / "corpus" / "11x11" / "11x11-s4.txt"))
    work = Work(20_000)
    before = rate(puzzle, budget=work, witness=False)
    monkeypatch.setattr(techniques, "DIRTY_BIG", 0)
    monkeypatch.setattr(techniques, "DIRTY_SHARE", 1)
    if not counted:
        monkeypatch.setattr(techniques, "WORK_COUNTED", frozenset())
    again = Work(20_000)
    after = rate(puzzle, budget=again, witness=False)
    assert (again.left == work.left) == counted
    shared = min(len(before.steps), len(after.steps)) - 1  # the same steps until the sooner budget ran out
    assert [(s.technique, s.cells, s.removes) for s in after.steps[:shared]] == \
        [(s.technique, s.cells, s.removes) for s in before.steps[:shared]]


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 7), cols=st.integers(1, 7), data=st.data())
def test_open_areas_kept_across_fixings_and_copies_match_a_recount(rows, cols, data):
    """open_areas splits the kept areas that lost a cell (and a copy starts from its grid's): the areas, and the
    order of each one's cells, are those grid.components counts afresh."""
    from fillomino.grid import components

    open_areas = techniques.open_areas
    board = Board.from_clues(rows, cols, [0] * (rows * cols))
    boards = [board]
    for _ in range(data.draw(st.integers(1, 6))):
        b = data.draw(st.sampled_from(boards))
        assert open_areas(b) == components([bool(m & (m - 1)) for m in b.cand], b.nbrs)
        if data.draw(st.booleans()):
            b = b.copy()
            boards.append(b)
        for c in data.draw(st.lists(st.integers(0, rows * cols - 1), max_size=rows * cols)):
            b.cand[c] &= 1 << data.draw(st.integers(1, 3)) if data.draw(st.booleans()) else ~(1 << 5)
            if not b.cand[c]:
                b.cand[c] = 1 << 2
            b.log.append(c)
        b.changed(None)
    for b in boards:
        assert open_areas(b) == components([bool(m & (m - 1)) for m in b.cand], b.nbrs)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_snapshot_compares_with_copies_of_its_grid_by_the_log(data):
    """_differing on a copy (or a copy of a copy) made after a snapshot of its grid reads only the cells logged since
    the snapshot: the same cells as comparing every cell; a snapshot taken after the copy is compared cell by cell."""
    board = Board.from_clues(4, 4, [0] * 16)

    def change(b: Board) -> None:
        for c in data.draw(st.lists(st.integers(0, 15), max_size=6)):
            b.cand[c] &= ~(1 << data.draw(st.integers(1, 16)))
            b.log.append(c)

    def every(b: Board, snap: tuple) -> list[int]:
        return [c for c in range(16) if snap[0][c] != b.cand[c]]

    change(board)
    snap = techniques._snapshot(board)
    change(board)
    child = board.copy()
    change(child)
    grandchild = child.copy()
    change(grandchild)
    change(board)  # after the copies: a snapshot now is not of the grid they were copied from
    later = techniques._snapshot(board)
    for b in (board, child, grandchild):
        assert sorted(techniques._differing(b, snap)) == every(b, snap)
        assert sorted(techniques._differing(b, later)) == every(b, later)


def test_groups_kept_up_to_date_match_a_recount():
    """Board.changed(cells) merges a newly fixed cell into its neighbours' groups in place of a recount."""
    board = Board.from_puzzle(Puzzle.from_grid([[3, 0, 0, 3], [0, 1, 0, 0], [2, 0, 0, 2]]))
    board.groups()
    for cell, v in ((2, 3), (1, 3), (6, 3), (4, 2), (10, 2)):
        board.cand[cell] = 1 << v
        board.changed([cell])
        kept = [(g.value, g.cells) for g in board.groups()]
        fresh = Board(board.rows, board.cols, list(board.cand))
        assert kept == [(g.value, g.cells) for g in fresh.groups()]
        assert all((board.group_at(i) is None) == (fresh.group_at(i) is None) for i in range(board.size))


# ---- what a rating keeps between trials: the same steps as working everything out again --------------
def test_a_kept_answer_is_given_only_while_the_cells_it_read_are_unchanged():
    from fillomino.logic.techniques import _MISSING, keep, recall

    board = Board.from_puzzle(SEED)
    keep(board, "question", [0, 4], "answer")
    assert recall(board, "question") == "answer" and recall(board, "other") is _MISSING
    trial = board.copy()  # a look-ahead copy shares the kept answers
    trial.cand[4] = 1 << 2  # a read cell narrowed to what it holds already: still the same
    assert recall(trial, "question") == "answer"
    trial.cand[0] &= ~(1 << 1)
    assert recall(trial, "question") is _MISSING and recall(board, "question") == "answer"


@PURE_ONLY
@pytest.mark.parametrize("name", ["05x05/expert-5x5-s0.txt", "05x05/5x5-s10.txt", "06x06/6x6-s12.txt"])
def test_kept_answers_and_carried_on_trials_take_the_same_steps(name, monkeypatch):
    # expert, hard and stuck puzzles: the expert look-ahead carries on from the hard one's trials, and
    # forced, completions, pair and pocket reuse answers; without either the steps are the same
    from fillomino.logic import techniques

    puzzle = read_puzzle(str(ROOT / "corpus" / name))
    kept = _steps(puzzle, True)
    monkeypatch.setattr(techniques, "recall", lambda b, key: techniques._MISSING)
    monkeypatch.setattr(techniques, "_kept_trials", lambda b, ctx, level: (None, None))
    assert _steps(puzzle, True) == kept


def test_a_size_changes_when_a_cell_gains_loses_or_is_fixed_at_it():
    from fillomino.logic.techniques import _changed_sizes

    old = [0b1110, 0b0110, 0b0100, 0b1000]
    assert _changed_sizes(old, list(old)) == 0
    assert _changed_sizes(old, [0b0110, 0b0110, 0b0100, 0b1000]) == 0b1000  # lost 3
    assert _changed_sizes(old, [0b1110, 0b0100, 0b0100, 0b1000]) == 0b0110  # lost 1, fixed at 2
    assert _changed_sizes([0b0100, 0b0110], [0b0110, 0b0110]) == 0b0110  # gained 1 (another trial), was fixed at 2


def test_changed_sizes_since_a_snapshot_read_from_the_log_or_the_whole_grid_agree():
    from fillomino.logic.candidates import Board
    from fillomino.logic.techniques import _changed_since, _changed_sizes, _snapshot

    b = Board.from_clues(3, 3, [0, 2, 5, 0, 0, 0, 3, 0, 0])
    snap = _snapshot(b)
    assert _snapshot(b)[0] is snap[0]  # one copy per grid state (compiled, the tuple itself is built again)
    old = list(b.cand)
    b.remove(0, 0b0110)
    b.remove(4, 0b1000)
    b.remove(4, 0)  # logs nothing
    b.log.append(2)  # a cell logged without a change counts for nothing (here a fixed 5)
    trial = b.copy()  # another grid: compared cell by cell
    trial.remove(5, 0b0010)
    assert _changed_since(b, snap) == _changed_sizes(old, b.cand) == 0b1110
    assert _changed_since(trial, snap) == _changed_sizes(old, trial.cand) == 0b1110
    assert _changed_since(b, _snapshot(b)) == 0


@PURE_ONLY
@pytest.mark.parametrize("name", ["06x06/hard-6x6-s1.txt", "10x10/10x10-s16.txt"])
def test_way_through_answers_carried_over_per_group_take_the_same_steps(name, monkeypatch):
    # way_through gives a group's answer from the last grid's (or the top-level grid's) while no cell within its
    # need + 1 changed for its size and the groups of its size there are the same; only on grids bigger than
    # ALLOW_LISTS_MAX, so made small here: the same steps as the whole grid every pass, in the look-ahead too
    from fillomino.logic import techniques

    puzzle = read_puzzle(str(ROOT / "corpus" / name))
    whole = _steps(puzzle, False, 150)
    monkeypatch.setattr(techniques, "ALLOW_LISTS_MAX", 0)
    calls = []
    base = techniques._groups_base
    monkeypatch.setattr(techniques, "_groups_base", lambda b, ctx, n: calls.append(n) or base(b, ctx, n))
    assert _steps(puzzle, True, 150) == whole
    assert calls


def _without_kept_sizes(monkeypatch) -> None:
    from fillomino.logic import techniques

    monkeypatch.setattr(techniques, "kept_sizes", lambda b, ctx, name: {})


@PURE_ONLY
@pytest.mark.parametrize("name", ["05x05/expert-5x5-s0.txt", "05x05/5x5-s10.txt", "06x06/6x6-s12.txt",
                                  "06x06/hard-6x6-s1.txt", "07x07/7x7-s3.txt"])
def test_answers_kept_per_size_take_the_same_steps(name, monkeypatch):
    # no_room, new_region, exact_room, must_include and way_through give a kept answer for a size while no cell
    # gained, lost or was fixed at it: working every answer out again takes the same steps
    puzzle = read_puzzle(str(ROOT / "corpus" / name))
    kept = _steps(puzzle, True)
    _without_kept_sizes(monkeypatch)
    assert _steps(puzzle, True) == kept


@PURE_ONLY
@settings(max_examples=40, deadline=None)
@given(rows=st.integers(2, 6), cols=st.integers(2, 6), data=st.data())
def test_answers_kept_per_size_take_the_same_steps_on_random_boards(rows, cols, data):
    clues = [data.draw(st.sampled_from([0, 0, 0, 0, 1, 2, 3, 4, 5, 6])) for _ in range(rows * cols)]
    puzzle = Puzzle(rows, cols, tuple(v if v <= rows * cols else 0 for v in clues))
    kept = _steps(puzzle, True)
    with pytest.MonkeyPatch.context() as mp:
        _without_kept_sizes(mp)
        assert _steps(puzzle, True) == kept


def _every_finish(b: Board, g) -> tuple[bool, set[int], set[int]]:
    """completions' reading of a group's ways to finish, by definition: every set of one or two open cells that
    allow its size and make, with the group and the groups of that size next to them, one connected region of
    exactly that size, whose open neighbours can all do without the size and whose rule check passes."""
    from itertools import combinations

    from fillomino.grid import boundary, connected
    from fillomino.logic.techniques import breaks_rule

    v, bv = g.value, 1 << g.value
    near = [c for c in range(b.size) if b.cand[c] & bv and b.cand[c] & (b.cand[c] - 1)]
    valid = []
    for k in (1, 2):
        for extra in combinations(near, k):
            region = set(g.cells) | set(extra)
            for c in extra:
                for m in b.nbrs[c]:
                    h = b.group_at(m)
                    if h is not None and h.value == v:
                        region.update(h.cells)
            if len(region) != v or not connected(region, b.nbrs):
                continue
            edge = [c for c in boundary(region, b.nbrs) if b.cand[c] & (b.cand[c] - 1)]
            cand = list(b.cand)
            for c in extra:
                cand[c] = bv
            for c in edge:
                cand[c] &= ~bv
            if all(cand[c] for c in edge) and breaks_rule(b, cand, list(extra) + edge +
                                                        [m for c in [*extra, *edge] for m in b.nbrs[c]]) is None:
                valid.append((set(extra), set(edge)))
    if not valid:
        return False, set(), set()
    inside = set.intersection(*(e for e, _ in valid))
    outside = {c for c in set.intersection(*(edge for _, edge in valid)) if b.cand[c] & bv}
    return True, inside, outside


def _every_filling(b: Board, area: list[int]) -> list[int]:
    """pair and pocket's sizes per cell of an area, by definition: every filling of it tried."""
    from itertools import product

    from fillomino.logic.techniques import breaks_rule

    seen = [0] * len(area)
    starts = list(area) + [m for c in area for m in b.nbrs[c]]
    for values in product(*(values_of(b.cand[c]) for c in area)):
        cand = list(b.cand)
        for c, v in zip(area, values):
            cand[c] = 1 << v
        if breaks_rule(b, cand, starts) is None:
            for k, v in enumerate(values):
                seen[k] |= 1 << v
    return seen


@pytest.mark.parametrize("name", ["05x05/5x5-s4.txt", "06x06/hard-6x6-s1.txt", "07x07/7x7-s3.txt"])
def test_ways_to_finish_and_fillings_stop_early_with_what_trying_them_all_gives(name):
    # completions stops at ways that share no cell, pair and pocket skip fillings whose sizes are all kept already:
    # on every grid of a rating, what they give is what trying every way and filling gives
    from fillomino.logic.techniques import POCKET_TRIES, _area_ways, _finishes, growing, open_areas

    finished = filled = 0
    for _, b in _grids_of_a_rating(name, 3):
        for g in growing(b):
            if g.need <= 2:
                valid = _finishes(b, g, list(b.cand))
                got = (bool(valid), set.intersection(*(set(e) for e, _ in valid)) if valid else set(),
                       {c for c in set.intersection(*(e for _, e in valid)) if b.cand[c] >> g.value & 1}
                       if valid else set())
                assert got == _every_finish(b, g)
                finished += 1
        for area in open_areas(b):
            tries = 1
            for c in area:
                tries *= b.cand[c].bit_count()
            if len(area) <= 5 and tries <= POCKET_TRIES:
                assert _area_ways(b, area) == _every_filling(b, area)
                filled += 1
    assert finished and filled


def test_area_fillings_that_break_the_rule_early_are_not_completed(monkeypatch):
    # pair and pocket's search drops a partial filling that breaks the rule around its last cell: on a rating's
    # grids it checks fewer fillings than trying every one (less those whose sizes are all kept), for the same sizes
    import fillomino.logic.techniques as techniques

    checks = [0]
    check = techniques._check_rule

    def counted(*args):
        checks[0] += 1
        return check(*args)

    monkeypatch.setattr(techniques, "_check_rule", counted)
    searched = every = 0
    for _, b in (g for name in ("05x05/5x5-s4.txt", "06x06/hard-6x6-s1.txt", "07x07/7x7-s3.txt")
                 for g in _grids_of_a_rating(name, 3)):
        for area in techniques.open_areas(b):
            tries = 1
            for c in area:
                tries *= b.cand[c].bit_count()
            if len(area) <= 5 and tries <= techniques.POCKET_TRIES:
                checks[0] = 0
                b.memo.clear()
                got = techniques._area_ways(b, area)
                searched += checks[0]
                seen = [0] * len(area)
                for values in product(*(values_of(b.cand[c]) for c in area)):
                    if not all(seen[k] >> v & 1 for k, v in enumerate(values)):
                        every += 1
                        cand = list(b.cand)
                        for c, v in zip(area, values):
                            cand[c] = 1 << v
                        if check(b, cand, techniques._around(b, area), []) is None:
                            for k, v in enumerate(values):
                                seen[k] |= 1 << v
                assert got == seen
    assert every and searched < every


def _every_new_region_note(b: Board, v: int) -> list[tuple[int, int]]:
    """new_region's notes for a size, by definition: the open cells that allow v, that no group of v reaches
    within its need, with the size of their area of cells that allow v, are not fixed and touch no group of v
    (0 for a cell beside one), when that is below v; every area counted whole."""
    from fillomino.grid import component_sizes, distances

    groups = [g for g in b.groups() if g.value == v]
    reached: set[int] = set()
    for g in groups:
        if g.need > 0:
            reached.update(distances(g.cells, b.nbrs, within=g.need, through=b.allows(v)))
    beside = {m for g in groups for c in g.cells for m in b.nbrs[c]}
    free = [bool(m >> v & 1) and m != 1 << v and c not in beside for c, m in enumerate(b.cand)]
    sizes = component_sizes(free, b.nbrs)
    return [(c, sizes[c]) for c in b.open_cells() if b.cand[c] >> v & 1 and c not in reached and sizes[c] < v]


def _box_gap(a: tuple[int, int, int, int], b_: tuple[int, int, int, int]) -> int:
    return max(0, a[0] - b_[1], b_[0] - a[1]) + max(0, a[2] - b_[3], b_[2] - a[3])


@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 6), st.integers(0, 60), st.integers(0, 6)),
                max_size=40),
       st.tuples(st.integers(-5, 65), st.integers(0, 6), st.integers(-5, 65), st.integers(0, 6)), st.integers(0, 12))
@settings(max_examples=300, deadline=None)
def test_same_size_finds_by_rows_the_groups_every_box_test_finds(boxes, probe, d):
    # way_through and completions find a group's nearby groups of its size through SameSize's band of first rows
    # (the groups sorted by it, as b.groups() lists them, or sorted when not, the tallest's height): the same
    # groups, in the order of their first rows, as asking every one
    from fillomino.logic.candidates import Board, Group
    from fillomino.logic.techniques import SameSize, _boxes_within

    # a group's box is kept on it, which is all SameSize reads (the cells do not matter here)
    groups = [Group(3, [0], (r, r + h, c, c + w)) for r, h, c, w in boxes]
    box = (probe[0], probe[0] + probe[1], probe[2], probe[2] + probe[3])
    same = SameSize(Board(1, 1, [1 << 3]), groups)
    by_row = sorted(groups, key=lambda g: g.box[0] if g.box is not None else 0)
    want = [g for g in by_row if g.box is not None and _boxes_within(box, g.box, d)]
    assert [h for _, h in same.near(box, d)] == want


@pytest.mark.parametrize("name", ["06x06/hard-6x6-s1.txt", "07x07/7x7-s3.txt", "10x10/10x10-s16.txt"])
def test_areas_and_nearby_groups_looked_at_near_the_cells_that_ask_are_what_the_whole_grid_gives(name):
    # new_region counts an area only from a cell that allows the size and only until it has that many cells, and
    # asks which cells groups reach only for the cells left; way_through and completions find a group's nearby
    # groups of its size by boxes written out: on the grids of a rating, and each with a cell fixed as a
    # look-ahead would, what they give is what the definitions over the whole grid give
    from fillomino.logic.techniques import SameSize, _blocking, _finish_box, _new_region_notes

    notes = blocked = 0
    for k, base in _grids_of_a_rating(name, 2):
        grids = [base]
        opened = base.open_cells()
        if opened:
            trial = base.copy()
            c = opened[k % len(opened)]
            trial.cand[c] = 1 << values_of(trial.cand[c])[k % trial.cand[c].bit_count()]
            trial.changed([c])
            grids.append(trial)
        for b in grids:
            sizes = {g.value for g in b.groups()}
            for v in range(2, b.size + 1):
                if v in sizes:
                    want = _every_new_region_note(b, v)
                    assert _new_region_notes(b, v, [g for g in b.groups() if g.value == v], b.open_cells()) == want
                    notes += len(want)
            for g in b.groups():
                same = [h for h in b.groups() if h.value == g.value]
                boxed = SameSize(b, same)
                for d in range(g.need + 2):
                    want_b = [h for h in same if h is not g and _box_gap(b.box(g), b.box(h)) <= d]
                    assert _blocking(boxed, g, b.box(g), d) == want_b
                    blocked += len(want_b)
                r0, r1, c0, c1 = b.box(g)
                box = (r0 - 2, r1 + 2, c0 - 2, c1 + 2)
                for h in same:
                    if h is not g and _box_gap(b.box(g), b.box(h)) <= 3:
                        hb = b.box(h)
                        box = (min(box[0], hb[0]), max(box[1], hb[1]), min(box[2], hb[2]), max(box[3], hb[3]))
                assert _finish_box(boxed, g, b.box(g)) == box
    assert notes and blocked


@pytest.mark.parametrize(("name", "every"), [("10x10/10x10-s16.txt", 3), ("10x10/10x10-s3.txt", 3)])
def test_new_region_areas_carried_over_from_another_grid_are_the_areas_counted_from_scratch(name, every):
    # new_region keeps, per size, the small areas of a grid and counts again only those a changed cell can touch:
    # from a rating's grid to a look-ahead trial on it (a few medium passes spread the changes), from one trial to
    # another (cells gain candidates as well as lose them) and back, what it gives is what counting afresh gives,
    # a group's reach taken again from the other grid included
    import random

    from fillomino.logic.techniques import _cells_changed_per_size, _new_region_areas, _new_region_update, set_bits

    rng = random.Random(name)
    compared = redone = reused = 0
    for _, grids in _trial_grids(name, every, rng):
        for old, new in [(a, b) for a in grids for b in grids if a is not b]:
            old.groups()
            new.groups()
            sizes = 0
            for g in new.groups():
                sizes |= 1 << g.value
            sizes &= ~3
            changed = _cells_changed_per_size(old.cand, new.cand,
                                              [c for c in range(new.size) if old.cand[c] != new.cand[c]], sizes)
            for v in set_bits(sizes):
                was = _new_region_areas(old, v, [g for g in old.groups() if g.value == v], old.open_cells())
                fresh = _new_region_areas(new, v, [g for g in new.groups() if g.value == v], new.open_cells())
                got = _new_region_update(new, v, [g for g in new.groups() if g.value == v], old.cand, was,
                                         changed.get(v, []))
                assert got.notes == fresh.notes == _every_new_region_note(new, v)
                assert sorted(map(sorted, got.small)) == sorted(map(sorted, fresh.small))
                assert {c: len(got.small[i]) for c, i in got.area_of.items()} == \
                    {c: len(fresh.small[i]) for c, i in fresh.area_of.items()}
                assert got.beside == fresh.beside
                compared += 1
                redone += bool(changed.get(v))
                reused += sum(1 for k, (g, cells) in got.reach.items() if k in was.reach and was.reach[k][1] is cells)
    assert compared and redone and reused


def _trial_grids(name: str, every: int, rng) -> Iterator[tuple[list[int], list[Board]]]:
    """For every ``every``-th grid of the puzzle's rating with open cells: its open cells, and it (first) with
    look-ahead trials on it: a random open cell fixed at one of its sizes, then 0, 4 and 4 medium passes (the
    trials that break no rule)."""
    for _, base in _grids_of_a_rating(name, every):
        opened = base.open_cells()
        if not opened:
            continue
        base.groups()  # worked out before the copies, as in a look-ahead: the groups no change touches are shared
        grids = [base]
        for passes in (0, 4, 4):
            trial = base.copy()
            c = rng.choice(opened)
            trial.cand[c] = 1 << rng.choice(values_of(trial.cand[c]))
            trial.log.append(c)
            trial.changed([c])
            if not passes or solve(trial, _clues(name), max_level="medium", max_passes=passes,
                                   nested=True).state != "contradiction":
                grids.append(trial)
        yield opened, grids


def _forced_record(b: Board):
    """forced's record of a grid worked out afresh: every open cell's answer and what its trials read."""
    from fillomino.logic.techniques import ForcedCells, _forced_at

    b.groups()
    cand = list(b.cand)
    found, reads = {}, {}
    for c in b.open_cells():
        answer, trial = _forced_at(b, cand, c, None)
        if answer is not None:
            found[c] = answer
        if trial[4]:
            reads[c] = trial
    return ForcedCells(found, reads, list(b._group_at))


@PURE_ONLY
@pytest.mark.parametrize(("name", "every"), [("10x10/10x10-s16.txt", 5), ("10x10/10x10-s3.txt", 5)])
def test_forced_answers_kept_with_another_grid_are_those_worked_out_afresh(name, every, monkeypatch):
    # forced keeps each open cell's answer and what its trials read (on a grid bigger than ALLOW_LISTS_MAX, made small
    # here), and works out again only the cells ForcedCells.redo names: from a rating's grid to a look-ahead trial on
    # it (a few medium passes spread the changes), from one trial to another (cells gain candidates as well as lose
    # them), to a few cells narrowed at random, and back, every other cell's kept answer and reads are those worked out
    # afresh on the new grid (on a grid of its own: nothing shared)
    import random

    monkeypatch.setattr(techniques, "ALLOW_LISTS_MAX", 0)
    rng = random.Random(name)
    compared = kept = found = 0
    for opened, grids in _trial_grids(name, every, rng):
        base = grids[0]
        for _ in range(2):  # and a few cells narrowed at random, some of them fixed (the answers need not hold)
            trial = base.copy()
            for c in rng.sample(opened, min(len(opened), 8)):
                sizes = values_of(trial.cand[c])
                keep = [rng.choice(sizes)] if rng.random() < 0.4 else rng.sample(sizes, rng.randint(1, len(sizes)))
                trial.cand[c] = sum(1 << v for v in keep)
            trial.changed()
            grids.append(trial)
        records = {id(g): _forced_record(g) for g in grids}
        for old, new in [(a, b) for a in grids for b in grids if a is not b]:
            new.groups()
            fresh = _forced_record(Board(new.rows, new.cols, list(new.cand)))
            redo = records[id(old)].redo(new, old.cand, [c for c in range(new.size) if old.cand[c] != new.cand[c]])
            was = records[id(old)]
            for c in new.open_cells():
                if c in redo:
                    continue
                assert was.found.get(c) == fresh.found.get(c), (c, old.cand[c], new.cand[c])
                a, b = was.reads.get(c), fresh.reads.get(c)
                assert (a is None) == (b is None) and (a is None or [set(x) for x in a[:3]] + list(a[3:]) ==
                                                       [set(x) for x in b[:3]] + list(b[3:]))
                kept += 1
                found += c in fresh.found
            compared += 1
    assert compared and kept and found


@PURE_ONLY
@pytest.mark.parametrize("name", ["06x06/hard-6x6-s1.txt", "10x10/10x10-s16.txt", "10x10/10x10-s3.txt"])
def test_forced_answers_carried_over_per_cell_take_the_same_steps(name, monkeypatch):
    # forced keeps each cell's answer with a big grid (ALLOW_LISTS_MAX made small here) and works out only the cells
    # whose reads differ: the same steps as the whole grid every pass, in the look-ahead too
    puzzle = read_puzzle(str(ROOT / "corpus" / name))
    whole = _steps(puzzle, False, 150)
    monkeypatch.setattr(techniques, "ALLOW_LISTS_MAX", 0)
    calls = []
    redo = techniques.ForcedCells.redo
    monkeypatch.setattr(techniques.ForcedCells, "redo", lambda self, *a: calls.append(1) or redo(self, *a))
    assert _steps(puzzle, True, 150) == whole
    assert calls


def _clues(name: str) -> tuple[int, ...]:
    return tuple(read_puzzle(str(ROOT / "corpus" / name)).clues)


# ---- cheaper look-ahead presets: as sound as the default, which stays full -------------------------
CHEAP = [name for name in LOOKAHEADS if name != "full"]
LOOKAHEAD_SAMPLE = ["05x05/5x5-s4.txt", "05x05/5x5-s10.txt", "05x05/expert-5x5-s0.txt", "06x06/6x6-s0.txt",
                    "06x06/6x6-s13.txt", "06x06/hard-6x6-s1.txt", "06x06/6x6-s12.txt"]
"""Hard, expert and unrated corpus puzzles: the ones whose ratings run the look-ahead techniques."""


@pytest.mark.parametrize("lookahead", CHEAP)
@pytest.mark.parametrize("name", LOOKAHEAD_SAMPLE)
def test_cheaper_lookahead_ratings_are_sound(name, lookahead):
    puzzle = read_puzzle(str(ROOT / "corpus" / name))
    rating = rate(puzzle, budget=1.0, lookahead=lookahead)
    assert rating.state != "contradiction"
    assert_sound(puzzle, rating)


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 4), cols=st.integers(1, 4), lookahead=st.sampled_from(CHEAP), data=st.data())
def test_cheaper_lookahead_on_random_boards_is_sound(rows, cols, lookahead, data):
    clues = [data.draw(st.sampled_from([0, 0, 0, 1, 2, 3, 4, 5])) for _ in range(rows * cols)]
    puzzle = Puzzle(rows, cols, tuple(v if v <= rows * cols else 0 for v in clues))
    rating = rate(puzzle, lookahead=lookahead)
    solutions = bruteforce.pictures(rows, cols, puzzle.clues)
    if rating.solved:
        assert len(solutions) == 1
    if rating.contradiction:
        assert not solutions
    assert_sound(puzzle, rating, engine=False)


def _path(rating) -> list:
    return [(s.technique, s.cells, s.removes, s.place) for s in rating.steps]


def test_the_default_lookahead_is_full_and_a_cheaper_one_changes_the_path():
    puzzle = read_puzzle(str(ROOT / "corpus" / "05x05" / "5x5-s4.txt"))
    default = rate(puzzle)
    assert _path(default) == _path(rate(puzzle, lookahead="full")) == _path(rate(puzzle, lookahead=Lookahead("x")))
    assert (default.level, default.state) == ("hard", "solved")
    cheap = rate(puzzle, lookahead=Lookahead("inner_bookkeeping", hard_inner="bookkeeping", expert_inner="bookkeeping"))
    assert _path(cheap) != _path(default)
    assert_sound(puzzle, cheap)


def test_a_lookahead_must_run_gentler_techniques_than_itself():
    with pytest.raises(ValueError):
        Lookahead("loop", hard_inner="hard")
    with pytest.raises(ValueError):
        Lookahead("loop", expert_inner="expert")
    with pytest.raises(ValueError):
        rate(SEED, lookahead="nope")


# ---- the witness: hypotheses a known solution satisfies are skipped, the rating is the same ---------------
def _everything(rating) -> tuple:
    """All a rating says but its time."""
    return (rating.level, rating.state, rating.score, rating.counts, rating.open_cells, rating.used_level,
            rating.final, [(s.technique, s.level, s.cells, s.sentence, s.removes, s.place, s.contradiction)
                           for s in rating.steps])


def _nested_runs(monkeypatch) -> list:
    """Count the look-ahead's runs on hypotheses (solver.solve called with nested=True)."""
    from fillomino.logic import solver

    calls: list = []
    real = solver.solve

    def counting(*args, **kwargs):
        calls.append(kwargs.get("nested"))
        return real(*args, **kwargs)

    monkeypatch.setattr(solver, "solve", counting)
    return calls


def _dropped(puzzle: Puzzle, k: int) -> Puzzle:
    clued = [c for c, v in enumerate(puzzle.clues) if v]
    return Puzzle(puzzle.rows, puzzle.cols, tuple(0 if c in clued[:k] else v for c, v in enumerate(puzzle.clues)))


@pytest.mark.parametrize("name", ["05x05/5x5-s4.txt", "05x05/expert-5x5-s0.txt", "06x06/hard-6x6-s1.txt",
                                  "06x06/6x6-s12.txt"])
def test_the_witness_skips_hypotheses_and_leaves_every_rating_the_same(name, monkeypatch):
    # hard, expert, hard and stuck; then without the stored solution (the CNF engine finds one) and with
    # clues dropped (several solutions: the engine's first is one of them)
    puzzle = read_puzzle(str(ROOT / "corpus" / name))
    unsolved = Puzzle(puzzle.rows, puzzle.cols, puzzle.clues)
    for p in (puzzle, unsolved, _dropped(puzzle, 2)):
        calls = _nested_runs(monkeypatch)
        without = rate(p, witness=False)
        runs_without = len(calls)
        with_ = rate(p)
        assert _everything(with_) == _everything(without)
        assert len(calls) - runs_without < runs_without  # the witness spared some runs
    assert _everything(rate(puzzle, lookahead="flat")) == _everything(rate(puzzle, lookahead="flat", witness=False))


def test_a_witness_on_a_puzzle_without_a_solution_is_none_and_nothing_changes():
    from fillomino.logic.rating import Witness

    puzzle = read_puzzle(str(ROOT / "corpus" / "05x05" / "5x5-s4.txt"))
    clues = list(puzzle.clues)
    clues[3] = 8  # the 4 at r1c4 made an 8: no solution (the CNF engine says so)
    broken = Puzzle(puzzle.rows, puzzle.cols, tuple(clues), solution=puzzle.solution)
    assert Witness(broken)() is None
    assert _everything(rate(broken)) == _everything(rate(broken, witness=False))


def _board_before(puzzle: Puzzle, rating, k: int) -> Board:
    """The grid the rating's step ``k`` was found on."""
    from fillomino.logic.solver import _apply

    board = Board.from_puzzle(puzzle)
    for step in rating.steps[:k]:
        _apply(board, step)
    return board


def _grids_of_a_rating(name: str, every: int) -> Iterator[tuple[int, Board]]:
    """Every ``every``-th grid a rating (witness off) of the corpus puzzle ``name`` passes through: (the number of
    steps before it, the grid)."""
    puzzle = read_puzzle(str(ROOT / "corpus" / name))
    rating = rate(puzzle, witness=False)
    for k in range(0, len(rating.steps), every):
        yield k, _board_before(puzzle, rating, k)


def test_a_wrong_solution_is_not_trusted():
    # the first look-ahead step refutes "c is v" (or "c is not v"); a grid that is the solution but for c
    # satisfies that hypothesis and fits the grid it was found on, so trusting it would skip the refutation
    from fillomino.logic.rating import Witness, rate_board

    puzzle = read_puzzle(str(ROOT / "corpus" / "05x05" / "5x5-s4.txt"))
    plain = rate(puzzle, witness=False)
    k = next(k for k, s in enumerate(plain.steps) if s.technique in ("short_contradiction", "contradiction"))
    step = plain.steps[k]
    (c,) = step.cells
    truth = [v for row in puzzle.solution for v in row]
    cand = _board_before(puzzle, plain, k).cand[c]
    wrong = list(truth)
    wrong[c] = next(v for v in values_of(cand) if v != truth[c]) if step.place else step.removes[c][0]
    assert wrong != truth and not is_solution(puzzle, wrong)

    trusted = Witness(puzzle)
    trusted.asked, trusted.values = True, wrong  # what believing it would do
    believed = rate_board(Board.from_puzzle(puzzle), puzzle.clues, puzzle.rows, puzzle.cols, witness=trusted)
    assert _everything(believed) != _everything(plain)

    grid = [wrong[r * puzzle.cols:(r + 1) * puzzle.cols] for r in range(puzzle.rows)]
    assert _everything(rate(puzzle, solution=grid)) == _everything(plain)
    assert _everything(rate(puzzle, solution=wrong)) == _everything(plain)
    stored_wrong = Puzzle(puzzle.rows, puzzle.cols, puzzle.clues, solution=grid)
    assert _everything(rate(stored_wrong)) == _everything(plain)
    assert Witness(stored_wrong)() == truth  # the engine's: this puzzle has only the one


def test_a_hint_on_marks_that_rule_out_the_solution_is_the_same_with_the_witness():
    puzzle = read_puzzle(str(ROOT / "corpus" / "05x05" / "5x5-s4.txt"))
    plain = rate(puzzle, witness=False)
    k = next(k for k, s in enumerate(plain.steps) if s.technique in ("short_contradiction", "contradiction"))
    board = _board_before(puzzle, plain, k)
    truth = [v for row in puzzle.solution for v in row]
    marks = board.candidates_grid()
    assert hint(puzzle, marks) == hint(puzzle, marks, witness=False) == plain.steps[k]
    for c in board.open_cells():  # a true value taken away: the solution no longer fits, nothing is skipped
        wrong = [[list(vs) for vs in row] for row in marks]
        wrong[c // puzzle.cols][c % puzzle.cols].remove(truth[c])
        assert hint(puzzle, wrong) == hint(puzzle, wrong, witness=False)


def test_a_hint_never_asks_the_engine_for_a_witness(monkeypatch):
    """hint has no budget, so it uses a stored solution only: a puzzle without one gets the same step, unhelped."""
    import fillomino.solvers

    puzzle = read_puzzle(str(ROOT / "corpus" / "05x05" / "5x5-s4.txt"))
    plain = rate(puzzle, witness=False)
    k = next(k for k, s in enumerate(plain.steps) if s.technique in ("short_contradiction", "contradiction"))
    marks = _board_before(puzzle, plain, k).candidates_grid()
    bare = Puzzle(puzzle.rows, puzzle.cols, puzzle.clues)  # no stored solution

    def refuse(*args, **kwargs):
        raise AssertionError("hint asked the engine for a solution")

    monkeypatch.setattr(fillomino.solvers, "solve", refuse)
    assert hint(bare, marks) == plain.steps[k]


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(2, 5), cols=st.integers(2, 5), data=st.data())
def test_the_witness_leaves_ratings_of_random_boards_the_same(rows, cols, data):
    clues = [data.draw(st.sampled_from([0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6])) for _ in range(rows * cols)]
    puzzle = Puzzle(rows, cols, tuple(v if v <= rows * cols else 0 for v in clues))
    assert _everything(rate(puzzle)) == _everything(rate(puzzle, witness=False))


def test_a_nested_pass_keeps_masks_and_works_its_sentences_out_only_when_read():
    """Inside a look-ahead's run a step keeps its masks, not its removal lists, and no_room's sentence is the same
    once read (a refutation quotes the last one)."""
    from fillomino.logic.techniques import Context

    puzzle = Puzzle.from_grid([[3, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]])
    no_room = next(t for t in LADDER if t.name == "no_room")
    top = no_room.apply(Board.from_puzzle(puzzle), Context(puzzle.clues))
    inner = no_room.apply(Board.from_puzzle(puzzle), Context(puzzle.clues, nested=True))
    assert top and len(top) == len(inner)
    for a, b in zip(top, inner, strict=True):
        assert a.later is None and b.later is not None and b.sentence == ""
        assert all(not vs for vs in b.removes.values()) and b.masks == a.masks
        assert {c: values_of(m) for c, m in b.masks.items()} == a.removes
        assert b.text() == a.sentence == a.text() and b.later is None and b.sentence == a.sentence


def test_a_rating_survives_pickling_as_a_worker_pool_sends_it():
    """Compiled, LogicStep (with an __init__ of its own) was rebuilt by calling it with no arguments: every
    rating sent back by a worker process failed to unpickle. Board, Group, Run and new_region's SizeAreas (kept in
    a grid's memo) likewise."""
    import copy
    import pickle

    from fillomino.logic.solver import solve

    puzzle = read_puzzle(str(ROOT / "corpus" / "05x05" / "5x5-s4.txt"))
    run = solve(Board.from_puzzle(puzzle), puzzle.clues, max_level="medium")
    for again in (pickle.loads(pickle.dumps(run)), copy.deepcopy(run)):
        assert (again.state, again.passes, len(again.steps)) == (run.state, run.passes, len(run.steps))
        b, was = again.board, run.board
        assert (b.rows, b.cols, b.cand) == (was.rows, was.cols, was.cand)
        assert [(g.value, g.cells) for g in b.groups()] == [(g.value, g.cells) for g in was.groups()]

    def fields(step):
        return (step.technique, step.level, step.cells, step.text(), step.removes, step.place, step.contradiction,
                step.masks)

    r = rate(read_puzzle(str(ROOT / "corpus" / "05x05" / "5x5-s4.txt")))
    back = pickle.loads(pickle.dumps(r))
    assert back.steps and [fields(s) for s in back.steps] == [fields(s) for s in r.steps]
    assert (back.level, back.state, back.score, back.counts, back.final) == (r.level, r.state, r.score, r.counts,
                                                                            r.final)


# ---- the cyclic GC around a solve ------------------------------------------------------------------
def test_a_rating_leaves_no_reference_cycles():
    # a look-ahead's trial grids are freed as each trial ends, not left to the cyclic GC (a Changes kept in a
    # grid's derived data once held the grid)
    puzzle = read_puzzle(str(ROOT / "corpus" / "05x05" / "5x5-s4.txt"))  # hard: it looks ahead
    gc.collect()
    gc.disable()
    try:
        rate(puzzle, witness=False)
        assert gc.collect() == 0
    finally:
        gc.enable()


def _threshold_during_lookahead(puzzle: Puzzle) -> tuple[int, int, int]:
    """The GC thresholds as the top-level look-ahead asks for its witness (inside solve)."""
    seen: list[tuple[int, int, int]] = []

    def witness() -> list[int] | None:
        seen.append(gc.get_threshold())
        return None

    solve(Board.from_puzzle(puzzle), puzzle.clues, witness=witness)
    assert seen, "the puzzle should need the look-ahead"
    return seen[0]


def test_a_solve_raises_the_gc_threshold_while_it_runs_and_puts_the_callers_back():
    from fillomino.logic.solver import YOUNG_OBJECTS

    puzzle = read_puzzle(str(ROOT / "corpus" / "05x05" / "5x5-s4.txt"))  # hard: it looks ahead
    saved = gc.get_threshold()
    try:
        gc.set_threshold(700, 11, 12)
        assert _threshold_during_lookahead(puzzle) == (YOUNG_OBJECTS, 11, 12)
        assert gc.get_threshold() == (700, 11, 12)
        gc.set_threshold(0, 11, 12)  # the caller turned collection off: it stays off
        assert _threshold_during_lookahead(puzzle) == (0, 11, 12)
        assert gc.get_threshold() == (0, 11, 12)
        gc.set_threshold(90_000, 11, 12)  # already higher: left alone
        assert _threshold_during_lookahead(puzzle) == (90_000, 11, 12)
        assert gc.get_threshold() == (90_000, 11, 12)
        gc.set_threshold(700, 11, 12)
        with pytest.raises(ValueError):
            solve(Board.from_puzzle(puzzle), puzzle.clues, max_level="nonsense")
        assert gc.get_threshold() == (700, 11, 12)
    finally:
        gc.set_threshold(*saved)


def test_the_gc_threshold_of_nested_and_overlapping_solves_is_put_back_by_the_last():
    from fillomino.logic.solver import _COLLECTIONS, YOUNG_OBJECTS

    saved = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        _COLLECTIONS.enter()
        _COLLECTIONS.enter()
        _COLLECTIONS.leave()
        assert gc.get_threshold() == (YOUNG_OBJECTS, 10, 10)
        _COLLECTIONS.leave()
        assert gc.get_threshold() == (700, 10, 10)
        _COLLECTIONS.enter()
        gc.set_threshold(5000, 10, 10)  # the caller's own setting, made meanwhile, is kept
        _COLLECTIONS.leave()
        assert gc.get_threshold() == (5000, 10, 10)
    finally:
        gc.set_threshold(*saved)


# ---- look-ahead trials kept across ratings (a generation's): the same ratings, the same Work spent ----------------
def _rating_and_work(puzzle: Puzzle, units: int | None, trials=None, max_level: str = "expert") -> tuple:
    from fillomino.clock import Work

    work = None if units is None else Work(units)
    r = rate(puzzle, budget=work, max_level=max_level, trials=trials)
    return (r.level, r.state, r.score, r.final, [(s.technique, s.cells, s.text()) for s in r.steps],
            None if work is None else work.left)


def _without_clue(puzzle: Puzzle, cell: int) -> Puzzle:
    return Puzzle(puzzle.rows, puzzle.cols, tuple(0 if i == cell else v for i, v in enumerate(puzzle.clues)),
                  puzzle.solution)


@pytest.mark.parametrize("name", ["05x05/expert-5x5-s0.txt", "05x05/5x5-s10.txt", "07x07/7x7-s3.txt",
                                  "06x06/6x6-s12.txt"])
def test_kept_trials_give_the_same_ratings_and_work_left(name):
    """Ratings sharing a Trials, as a generation's do (the same clues again, fewer clues, budgets that cut them at
    various points, a hard phase then the expert one), take the very steps a rating without one takes and leave
    the very same Work: the trials they repeat are given, not run, and their checks charged."""
    from fillomino.logic import Trials

    puzzle = read_puzzle(str(ROOT / "corpus" / name))
    whole = 10**9 - _rating_and_work(puzzle, 10**9)[-1]
    trials = Trials()
    clue_cells = [i for i, v in enumerate(puzzle.clues) if v]
    asked = [(puzzle, None, "expert"), (puzzle, whole, "hard"), (puzzle, whole, "expert"),
             (puzzle, whole - 1, "expert"), (puzzle, whole // 2, "expert"), (puzzle, whole // 5, "expert")]
    for cell in clue_cells[:2]:
        fewer = _without_clue(puzzle, cell)
        asked += [(fewer, whole, "hard"), (fewer, whole, "expert"), (fewer, 2 * whole // 3, "expert")]
    asked += [(puzzle, whole // 2, "expert"), (puzzle, whole, "expert")]
    for p, units, level in asked:
        assert _rating_and_work(p, units, trials, level) == _rating_and_work(p, units, None, level), (units, level)
    assert trials.hits > 0 and trials.kept


def test_kept_trials_are_forgotten_beyond_their_memory_and_still_give_the_same_ratings():
    from fillomino.logic import Trials

    puzzle = read_puzzle(str(ROOT / "corpus" / "05x05" / "5x5-s10.txt"))
    trials = Trials(max_bytes=4_000)
    for units in (None, 10**9, 10**9):
        assert _rating_and_work(puzzle, units, trials) == _rating_and_work(puzzle, units)
        assert trials.bytes <= 4_000 and trials.bytes == sum(size for _, size in trials.kept.values())
