"""The CP-SAT backend (flow model) against hand counts and a brute force written here.

The brute force labels cells one by one and checks the rule directly (every maximal group of equal
numbers has as many cells as its number); it knows nothing of regions, roots or flow.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fillomino.encode.cpsat import joinable_shapes, label_domains
from fillomino.formats import read_answer, read_puzzle
from fillomino.puzzle import Puzzle, is_solution
from fillomino.solvers import Budget, BudgetExhausted, Status, enumerate_solutions, solve, uniqueness

NO_LIMIT = Budget()


def brute_pictures(rows: int, cols: int, clues: list[int], max_size: int | None = None) -> set[tuple[int, ...]]:
    """Every labelling (row-major) obeying the rule, by cell-by-cell backtracking over labels 1..N (or 1..K).

    After each cell it rejects a group of equal numbers that is already too big, or that can no longer
    grow (no unlabelled neighbour) and has the wrong size.
    """
    n = rows * cols
    top = min(max_size or n, n)
    nbrs = []
    for i in range(n):
        r, c = divmod(i, cols)
        nbrs.append(
            [j for j, ok in ((i - cols, r > 0), (i - 1, c > 0), (i + 1, c < cols - 1), (i + cols, r < rows - 1)) if ok]
        )
    labels = [0] * n
    found: set[tuple[int, ...]] = set()

    def group_ok(start: int) -> bool:
        v = labels[start]
        group, open_edge, k = [start], False, 0
        while k < len(group):
            for j in nbrs[group[k]]:
                if labels[j] == 0:
                    open_edge = True
                elif labels[j] == v and j not in group:
                    group.append(j)
            k += 1
        return len(group) <= v and (open_edge or len(group) == v)

    def place(i: int) -> None:
        if i == n:
            found.add(tuple(labels))
            return
        for v in [clues[i]] if clues[i] else range(1, top + 1):
            labels[i] = v
            if all(group_ok(j) for j in [i, *nbrs[i]] if labels[j]):
                place(i + 1)
            labels[i] = 0

    place(0)
    return found


def flat(grid) -> tuple[int, ...]:
    return tuple(v for row in grid for v in row)


def cpsat_pictures(puzzle: Puzzle, max_size: int | None = None, limit: int | None = None) -> list[tuple[int, ...]]:
    out = []
    for grid in enumerate_solutions(puzzle, backend="cpsat", max_size=max_size):
        out.append(flat(grid))
        if limit is not None and len(out) > limit:
            break
    return out


def test_seed_example_is_unique_with_its_solution():
    puzzle = Puzzle.from_grid([[0, 2, 0], [0, 2, 3], [4, 0, 0]])
    verdict = uniqueness(puzzle, backend="cpsat")
    assert verdict.status is Status.UNIQUE
    assert verdict.solutions == [((4, 2, 3), (4, 2, 3), (4, 4, 3))]
    assert verdict.backend == "cpsat" and verdict.seconds > 0


@pytest.mark.parametrize(
    ("rows", "cols", "expected"),
    [
        (1, 1, {(1,)}),
        (1, 2, {(2, 2)}),  # "1 1" breaks the rule: the two 1s touch
        (1, 3, {(1, 2, 2), (2, 2, 1), (3, 3, 3)}),
        # 2x2 by hand: 4444, an L-tromino of 3s with the 1 in the corner it leaves (4 ways); a domino
        # always leaves two touching equal leftovers (2+2 or 1+1), so nothing else
        (2, 2, {(4, 4, 4, 4), (3, 3, 3, 1), (3, 3, 1, 3), (3, 1, 3, 3), (1, 3, 3, 3)}),
    ],
)
def test_empty_boards_have_exactly_the_pictures_counted_by_hand(rows, cols, expected):
    pictures = cpsat_pictures(Puzzle.empty(rows, cols))
    assert len(pictures) == len(set(pictures)), "a picture was enumerated twice"
    assert set(pictures) == expected == brute_pictures(rows, cols, [0] * rows * cols)


def test_empty_2x3_matches_the_brute_force_picture_for_picture():
    pictures = cpsat_pictures(Puzzle.empty(2, 3))
    assert len(pictures) == len(set(pictures)) == 33
    assert set(pictures) == brute_pictures(2, 3, [0] * 6)


def test_max_size_is_a_cap_on_labels():
    assert set(cpsat_pictures(Puzzle.empty(1, 3), max_size=2)) == {(1, 2, 2), (2, 2, 1)}
    assert uniqueness(Puzzle.empty(1, 2), backend="cpsat", max_size=1).status is Status.NONE
    verdict = uniqueness(Puzzle.empty(1, 3), backend="cpsat", max_size=2)
    assert verdict.status is Status.MULTIPLE and verdict.max_size == 2


def test_multiple_gives_two_real_solutions_and_where_they_differ():
    puzzle = Puzzle.from_grid([[2, 0, 3], [0, 0, 0], [0, 1, 0], [0, 0, 0]])
    verdict = uniqueness(puzzle, backend="cpsat")
    assert verdict.status is Status.MULTIPLE
    a, b = verdict.solutions
    assert a != b and is_solution(puzzle, a) and is_solution(puzzle, b)
    assert verdict.differ == [(r, c) for r in range(4) for c in range(3) if a[r][c] != b[r][c]]


def _still_solvable_without_any_one(puzzle: Puzzle, conflict: list[tuple[int, int]]) -> bool:
    for r, c in conflict:
        kept = [
            v
            if (i // puzzle.cols, i % puzzle.cols) in conflict and (i // puzzle.cols, i % puzzle.cols) != (r, c)
            else 0
            for i, v in enumerate(puzzle.clues)
        ]
        if not brute_pictures(puzzle.rows, puzzle.cols, kept):
            return False
    return True


@pytest.mark.parametrize(
    ("grid", "expected"),
    [
        ([[1, 1, 0], [0, 0, 0]], [(0, 0), (0, 1)]),  # two touching 1s
        ([[2, 0, 0], [0, 0, 5], [0, 0, 2]], None),  # the 5 cannot fit between the 2s and their neighbours
        ([[3, 0, 0, 4], [0, 0, 0, 0], [0, 0, 0, 0]], None),
        ([[2, 2, 2], [0, 0, 0]], [(0, 0), (0, 2)]),  # the outer 2s have no room left for two dominoes
    ],
)
def test_none_comes_with_a_minimal_conflicting_clue_set(grid, expected):
    puzzle = Puzzle.from_grid(grid)
    brute = brute_pictures(puzzle.rows, puzzle.cols, list(puzzle.clues))
    verdict = uniqueness(puzzle, backend="cpsat")
    if brute:
        assert verdict.status is not Status.NONE
        return
    assert verdict.status is Status.NONE
    conflict = verdict.conflict
    if expected is not None:
        assert conflict == expected
    only = [v if divmod(i, puzzle.cols) in conflict else 0 for i, v in enumerate(puzzle.clues)]
    assert not brute_pictures(puzzle.rows, puzzle.cols, only), "the conflict set alone must have no picture"
    assert _still_solvable_without_any_one(puzzle, conflict), "dropping any one clue must leave a picture"


def test_none_with_a_cap_and_no_clues_has_an_empty_conflict():
    verdict = uniqueness(Puzzle.empty(2, 2), backend="cpsat", max_size=1)
    assert verdict.status is Status.NONE and verdict.conflict == []


def test_solve_returns_a_solution_or_none():
    grid = solve(Puzzle.from_grid([[0, 2, 0], [0, 2, 3], [4, 0, 0]]), backend="cpsat")
    assert grid == ((4, 2, 3), (4, 2, 3), (4, 4, 3))
    assert solve(Puzzle.from_grid([[1, 1]]), backend="cpsat") is None


HARD = Puzzle.empty(6, 6)
"""An empty 6x6: the first search alone takes thousands of conflicts (measured), so one is too few."""


def test_a_one_conflict_budget_gives_unknown_not_a_guess():
    verdict = uniqueness(HARD, backend="cpsat", budget=Budget(conflicts=1))
    assert verdict.status is Status.UNKNOWN and verdict.solutions == []
    with pytest.raises(BudgetExhausted):
        solve(HARD, backend="cpsat", budget=Budget(conflicts=1))


def test_a_tiny_time_budget_gives_unknown():
    verdict = uniqueness(Puzzle.empty(12, 12), backend="cpsat", budget=Budget(seconds=0.001))
    assert verdict.status is Status.UNKNOWN


def test_a_generous_budget_and_two_threads_change_nothing():
    puzzle = Puzzle.from_grid([[0, 2, 0], [0, 2, 3], [4, 0, 0]])
    verdict = uniqueness(puzzle, backend="cpsat", budget=Budget(seconds=60, conflicts=10**6), threads=2)
    assert verdict.status is Status.UNIQUE
    assert verdict.solutions == [((4, 2, 3), (4, 2, 3), (4, 4, 3))]


def test_domains_keep_every_label_the_brute_force_uses():
    puzzle = Puzzle.from_grid([[0, 0, 3, 0], [0, 0, 0, 0], [2, 0, 0, 1]])
    domains = label_domains(puzzle, None)
    for picture in brute_pictures(3, 4, list(puzzle.clues)):
        assert all(v in domains[i] for i, v in enumerate(picture))


ENUMERATION_LIMIT = 25
"""CP-SAT pictures compared per random board; boards with more are checked on the first ones found."""


@st.composite
def small_boards(draw):
    rows = draw(st.integers(1, 3))
    cols = draw(st.integers(1, 4))
    n = rows * cols
    top = draw(st.sampled_from([None, None, 2, 3, 4]))
    most = min(top or n, n, 6)
    clues = draw(st.lists(st.sampled_from([0, 0, 0] + list(range(1, most + 1))), min_size=n, max_size=n))
    return rows, cols, clues, top


@settings(max_examples=40, deadline=None)
@given(small_boards())
def test_random_small_boards_match_the_brute_force(board):
    rows, cols, clues, top = board
    expected = brute_pictures(rows, cols, clues, top)
    puzzle = Puzzle(rows, cols, tuple(clues))
    if top is not None and any(v > top for v in clues):
        return  # the API refuses a clue above the cap
    found = cpsat_pictures(puzzle, max_size=top, limit=ENUMERATION_LIMIT)
    assert len(found) == len(set(found)), "a picture was enumerated twice"
    if len(expected) <= ENUMERATION_LIMIT:
        assert set(found) == expected
    else:
        assert len(found) == ENUMERATION_LIMIT + 1 and set(found) <= expected
    status = uniqueness(puzzle, backend="cpsat", max_size=top).status
    assert status is {0: Status.NONE, 1: Status.UNIQUE}.get(len(expected), Status.MULTIPLE)


def test_shape_clauses_only_cover_sets_that_can_be_one_region():
    # 1x3 board labelled [1] [2] [2]: the 1 joins nothing, so the sets are the three cells and the pair of 2s
    nbrs = [[1], [0, 2], [1]]
    shapes = joinable_shapes(nbrs, [[1], [2], [2]], 6)
    assert sorted(cells for cells, _, _ in shapes) == [[0], [1], [1, 2], [2]]
    pair = next(shape for shape in shapes if shape[0] == [1, 2])
    assert pair[1] == [(1, 2)] and pair[2] == [(1, 0)]


@pytest.mark.slow
def test_large_external_board_is_decided_unique_with_its_stored_solution(external_corpus):
    # janko-034 (13x37, 167 clues): unknown after 60 s before six-cell shape clauses, about 4 CPU s with them
    path = next((p for p in external_corpus if p.name == "janko-034.txt"), None)
    if path is None:
        pytest.skip("janko-034 is not in the external corpus")
    puzzle = read_puzzle(str(path))
    verdict = uniqueness(puzzle, backend="cpsat", budget=Budget(seconds=60))
    assert verdict.status is Status.UNIQUE
    assert [list(row) for row in verdict.solutions[0]] == [list(row) for row in read_answer(str(path), puzzle)]


@settings(max_examples=40, deadline=None)
@given(small_boards(), st.data())
def test_a_candidate_solution_never_changes_the_verdict(board, data):
    """uniqueness(candidate=...) with a true picture, a wrong grid or a grid of the wrong shape: the same
    status as the brute force, and the solutions shown are real pictures."""
    rows, cols, clues, top = board
    if top is not None and any(v > top for v in clues):
        return
    expected = brute_pictures(rows, cols, clues, top)
    n = rows * cols
    choices = [tuple(data.draw(st.lists(st.integers(1, n), min_size=n, max_size=n))), (1,) * (n + 1)]
    if expected:
        choices.append(data.draw(st.sampled_from(sorted(expected))))
    values = data.draw(st.sampled_from(choices))
    candidate = tuple(tuple(values[r * cols : (r + 1) * cols]) for r in range(rows)) if len(values) == n else (values,)
    verdict = uniqueness(Puzzle(rows, cols, tuple(clues)), backend="cpsat", max_size=top, candidate=candidate)
    assert verdict.status is {0: Status.NONE, 1: Status.UNIQUE}.get(len(expected), Status.MULTIPLE)
    assert all(flat(grid) in expected for grid in verdict.solutions)


def test_a_large_clue_on_an_open_board_gets_its_label_domains_at_once():
    # The distance layers once kept a cell once per shortest path to it: on 30x30 with one clue of 400
    # that is over 10^8 copies (label_domains never returned); janko-240 took 128 s to build, now 28.
    clues = [0] * 900
    clues[15 * 30 + 15] = 400
    domains = label_domains(Puzzle(30, 30, tuple(clues)), None)
    assert domains[15 * 30 + 15] == [400]
    # every other cell: any size its 899-cell open area allows, 400 included (the corner is 30 steps away)
    assert all(d == list(range(1, 900)) for i, d in enumerate(domains) if i != 15 * 30 + 15)


def test_building_a_model_stops_when_its_check_says_so():
    # a budget must hold while a big model is built (janko-240: 28 s of encoding), not only between solves
    from fillomino.encode.cpsat import build_model

    puzzle = read_puzzle("fillomino:3x3:a2b234b")
    calls = []

    def check():
        calls.append(1)
        if len(calls) == 5:
            raise BudgetExhausted("stop")

    with pytest.raises(BudgetExhausted):
        build_model(puzzle, None, check=check)
    assert len(calls) == 5  # one call per part and per clue region: 4 parts, then the first clue region


def test_a_budget_spent_before_the_model_is_built_gives_unknown():
    verdict = uniqueness(read_puzzle("fillomino:3x3:a2b234b"), backend="cpsat", budget=Budget(seconds=1e-9))
    assert verdict.status == Status.UNKNOWN
