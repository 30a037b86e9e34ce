"""The CNF engine against the independent brute force: verdicts, solutions, enumeration, the oracle.

The engine starts with K explicit sizes and a BIG label for larger regions; tests run with K as
small as 1 so that the abstraction and its refinement are exercised on tiny boards.
"""

from __future__ import annotations

import functools
import gc
import itertools
import threading
import time
import weakref
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fillomino.clock import Clock
from fillomino.encode import cnf as encode
from fillomino.formats import read_puzzle
from fillomino.puzzle import Puzzle, is_solution
from fillomino.solvers import Budget, Status, cnf, enumerate_solutions, uniqueness
from tests import bruteforce

SEED = Puzzle.from_grid([[0, 2, 0], [0, 2, 3], [4, 0, 0]])


def flat(grid) -> tuple[int, ...]:
    return tuple(v for row in grid for v in row)


def _check_agrees(oracle, kept, answers, answer) -> list:
    """Asks ``oracle`` about the clue cells ``kept`` of ``answer`` and checks it against the brute force's
    ``answers``; returns the answers that agree with those clues."""
    truth = [t for t in answers if all(t[i] == answer[i] for i in kept)]
    status, other = oracle.check(sorted(kept))
    if len(truth) == 1:
        assert status is Status.UNIQUE and other is None
    else:
        assert status is Status.MULTIPLE
        assert flat(other) in truth and flat(other) != answer
    return truth


def to_rows(values, cols: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(values[i : i + cols]) for i in range(0, len(values), cols))


CONFIGS = {
    # the shipped settings
    "default": {},
    # every exact clause up front: rooted regions for clued sizes from 2, the area sum
    "strong": {"escalate_after": None, "anchor_from": 2},
    # the same added at the first solve, region counts only when a region shows up wrong, a coarse area sum
    # ("at most one label" by a counter, not pairwise, too)
    "lazy": {"escalate_after": 0, "anchor_from": 2, "eager_cost": 0, "area_limit": 16, "pairwise_up_to": 0},
    # no root variables: clued sizes above K rest on the lazy checks alone
    "bare": {"root_limit": 0},
}


@pytest.fixture(params=[(1, "default"), (2, "strong"), (3, "lazy"), (9, "default"), (1, "bare"), (2, "lazy"),
                        (9, "strong"), (2, "bare")], ids=lambda p: f"K{p[0]}-{p[1]}")
def small_k(request) -> encode.CnfEngine:
    """An engine with this many explicit sizes (the rest is BIG, refined on demand) and these settings."""
    k, name = request.param
    return encode.CnfEngine(first_k=k, **CONFIGS[name])


@st.composite
def boards(draw, max_cells: int = 12):
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, max(1, min(4, max_cells // rows))))
    n = rows * cols
    density = draw(st.sampled_from([0.0, 0.15, 0.3, 0.6]))
    clues = []
    for _ in range(n):
        if draw(st.floats(0, 1)) < density:
            clues.append(draw(st.integers(1, min(n, 6))))
        else:
            clues.append(0)
    return Puzzle(rows, cols, tuple(clues))


def test_seed_example_is_unique_with_its_answer():
    v = uniqueness(SEED)
    assert v.status is Status.UNIQUE
    assert v.solutions == [((4, 2, 3), (4, 2, 3), (4, 4, 3))]


def test_empty_1x3_has_several_answers_and_says_where_they_differ():
    v = uniqueness(Puzzle.empty(1, 3))
    assert v.status is Status.MULTIPLE
    a, b = v.solutions
    assert a != b and all(is_solution(Puzzle.empty(1, 3), g) for g in (a, b))
    assert v.differ == [(0, c) for c in range(3) if a[0][c] != b[0][c]]


def test_contradiction_names_a_minimal_set_of_clues():
    # the two 1s touch: those two clues alone already conflict; the 3 is innocent
    p = Puzzle.from_grid([[1, 1, 0], [0, 0, 0], [0, 0, 3]])
    v = uniqueness(p)
    assert v.status is Status.NONE
    assert v.conflict == [(0, 0), (0, 1)]


def test_a_single_clue_can_conflict_with_the_board():
    # on a 1x2 board the only picture is "2 2", so a 1 anywhere has no solution
    v = uniqueness(Puzzle.from_grid([[1, 0]]))
    assert v.status is Status.NONE and v.conflict == [(0, 0)]


def test_max_size_is_a_promise_that_can_hide_answers():
    # 1x4 empty: 1 3 3 3 / 3 3 3 1 / 4 4 4 4 / 1 2 2 1 ... capped at 2 only "1 2 2 1" and "2 2 1 ..." fit
    capped = {flat(g) for g in enumerate_solutions(Puzzle.empty(1, 4), max_size=2)}
    assert capped == {t for t in bruteforce.pictures(1, 4, [0] * 4) if max(t) <= 2}
    assert uniqueness(Puzzle.empty(1, 4), max_size=2).max_size == 2


def test_a_large_unclued_region_is_found_exactly(small_k):
    # 4x4 with clues that force a 12-cell unclued region: far above every small K
    p = Puzzle.from_grid([[1, 0, 0, 0], [3, 0, 0, 0], [3, 3, 0, 0], [0, 0, 0, 0]])
    expected = bruteforce.pictures(4, 4, list(p.clues))
    got = sorted(flat(g) for g in cnf.enumerate_solutions(p, engine=small_k))
    assert got == sorted(expected)


def test_budget_of_one_conflict_gives_unknown_not_a_guess():
    v = uniqueness(Puzzle.empty(6, 6), budget=Budget(conflicts=1))
    assert v.status in (Status.UNKNOWN, Status.MULTIPLE)
    hard = Puzzle.empty(8, 8)
    v = uniqueness(hard, budget=Budget(seconds=1e-6))
    assert v.status is Status.UNKNOWN


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(p=boards())
def test_verdict_and_enumeration_match_brute_force(small_k, p):
    expected = sorted(bruteforce.pictures(p.rows, p.cols, list(p.clues)))
    got = sorted(flat(g) for g in cnf.enumerate_solutions(p, engine=small_k))
    assert got == expected
    v = cnf.uniqueness(p, engine=small_k)
    if not expected:
        assert v.status is Status.NONE
        # the named clues alone already have no solution, and each of them is needed
        keep = {r * p.cols + c for r, c in v.conflict}
        sub = [p.clues[i] if i in keep else 0 for i in range(p.size)]
        assert not bruteforce.pictures(p.rows, p.cols, sub)
        for i in keep:
            fewer = [0 if j == i else sub[j] for j in range(p.size)]
            assert bruteforce.pictures(p.rows, p.cols, fewer)
    elif len(expected) == 1:
        assert v.status is Status.UNIQUE and flat(v.solutions[0]) == expected[0]
    else:
        assert v.status is Status.MULTIPLE
        assert {flat(g) for g in v.solutions} <= set(expected) and v.solutions[0] != v.solutions[1]
    found = cnf.solve(p, engine=small_k)
    assert (found is None) == (not expected)


def test_every_empty_board_up_to_3x4_enumerates_like_brute_force(small_k):
    for rows, cols in itertools.product(range(1, 4), range(1, 5)):
        expected = sorted(bruteforce.pictures(rows, cols, [0] * (rows * cols)))
        got = sorted(flat(g) for g in cnf.enumerate_solutions(Puzzle.empty(rows, cols), engine=small_k))
        assert got == expected, (rows, cols)


@functools.cache
def every_answer(rows: int, cols: int) -> list[tuple[int, ...]]:
    """All answers of the empty board (the answers with clues are those that agree with them)."""
    return bruteforce.pictures(rows, cols, [0] * (rows * cols))


@pytest.mark.parametrize("setting", ["default", "lazy"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_oracle_says_unique_exactly_when_the_clues_pin_the_answer(setting, data):
    rows, cols = data.draw(st.sampled_from([(2, 3), (3, 3), (3, 4), (2, 5)]))
    answers = every_answer(rows, cols)
    answer = data.draw(st.sampled_from(answers))
    grid = tuple(tuple(answer[r * cols : (r + 1) * cols]) for r in range(rows))
    oracle = cnf.UniquenessOracle(grid, engine=encode.CnfEngine(**CONFIGS[setting]))
    try:
        for _ in range(4):
            cells = data.draw(st.sets(st.integers(0, rows * cols - 1)))
            _check_agrees(oracle, cells, answers, answer)
    finally:
        oracle.close()


@pytest.mark.parametrize(
    "ways",
    [(("g4", 0),), cnf.FRESH_WAYS, (("cd195", 0),), cnf.RACING_WAYS[:2]],
    ids=["fresh-strong", "fresh-default", "fresh-cadical", "fresh-raced"],
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_oracle_told_where_others_must_differ_agrees_with_the_brute_force(ways, data):
    """Clues K unique for the answer, R taken out: the oracle (incremental or fresh), told that another
    solution differs on R, says unique exactly when the brute force finds only the answer for K minus R;
    and a second question with other cells must not see the first one's narrowing. The fresh model
    is asked with its rooted clue regions from the start, with the shipped escalation, with CaDiCaL,
    and as the race of two ways that ``generate --threads 2`` runs."""
    rows, cols = data.draw(st.sampled_from([(2, 3), (3, 3), (3, 4), (2, 5)]))
    answers = every_answer(rows, cols)
    answer = data.draw(st.sampled_from(answers))
    grid = tuple(tuple(answer[r * cols : (r + 1) * cols]) for r in range(rows))
    cells = range(rows * cols)
    oracle = cnf.UniquenessOracle(grid)
    try:
        for _ in range(3):
            kept = data.draw(st.sets(st.sampled_from(cells)))
            if len([t for t in answers if all(t[i] == answer[i] for i in kept)]) != 1:
                continue  # the narrowing is promised only for a unique K
            removal = data.draw(st.sets(st.sampled_from(sorted(kept)), min_size=1)) if kept else set()
            held = sorted(kept - removal)
            truth = [t for t in answers if all(t[i] == answer[i] for i in held)]
            for ask in (oracle.check, functools.partial(oracle.check_fresh, ways=ways)):
                status, other = ask(held, must_differ=sorted(removal))
                if len(truth) == 1:
                    assert status is Status.UNIQUE and other is None
                else:
                    assert status is Status.MULTIPLE
                    assert flat(other) in truth and flat(other) != answer
            status, _ = oracle.check(sorted(kept))  # the narrowing was for that question only
            assert status is Status.UNIQUE
            if len(truth) > 1:
                status, other = oracle.check(held)
                assert status is Status.MULTIPLE and flat(other) in truth
    finally:
        oracle.close()


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_shared_oracles_of_one_shape_answer_each_answer_alone(data):
    """Oracles with ``shared=True`` hand one model on from answer to answer (what the lazy clauses taught it kept):
    each says unique exactly when the brute force finds only its own answer, so an earlier answer's block is off
    once its oracle is closed, and a narrowing (``must_differ``) is for its question only."""
    rows, cols = data.draw(st.sampled_from([(2, 3), (3, 3), (2, 4)]))
    answers = every_answer(rows, cols)
    k = data.draw(st.sampled_from(sorted({max(a) for a in answers})))
    same_k = [a for a in answers if max(a) == k]  # K is the answer's largest size: one shape, one model
    cnf._SHARED.kept.clear()
    models = []
    for answer in data.draw(st.lists(st.sampled_from(same_k), min_size=2, max_size=4)):
        oracle = cnf.UniquenessOracle(to_rows(answer, cols), shared=True)
        models.append(oracle.model)
        try:
            for _ in range(3):
                kept = data.draw(st.sets(st.sampled_from(range(rows * cols))))
                truth = _check_agrees(oracle, kept, answers, answer)
                if len(truth) == 1 and kept:
                    cell = data.draw(st.sampled_from(sorted(kept)))
                    held = sorted(kept - {cell})
                    rest = [t for t in answers if all(t[i] == answer[i] for i in held)]
                    status, _ = oracle.check(held, must_differ=[cell])
                    assert (status is Status.UNIQUE) == (len(rest) == 1)
        finally:
            oracle.close()
            oracle.close()  # a second close leaves the model handed back alone
    assert all(m is models[0] for m in models)
    assert list(cnf._SHARED.kept) == [(rows, cols, k, True, encode.DEFAULT_ENGINE)]
    cnf._SHARED.kept.clear()
    models[0].close()


def test_a_shared_model_finds_the_answer_of_an_oracle_closed_before():
    """Two answers of one shape that only each other leave open on the cells where they agree: the second oracle
    of the shared model must find the first answer, whose block went off with its oracle."""
    answers = every_answer(3, 3)
    pair = next((a, b) for a, b in itertools.combinations(answers, 2) if max(a) == max(b)
                and [t for t in answers if all(t[i] == a[i] for i in range(9) if a[i] == b[i])] == [a, b])
    cnf._SHARED.kept.clear()
    first = cnf.UniquenessOracle(to_rows(pair[0], 3), shared=True)
    first.close()
    second = cnf.UniquenessOracle(to_rows(pair[1], 3), shared=True)
    try:
        assert second.model is first.model
        status, other = second.check([i for i in range(9) if pair[0][i] == pair[1][i]])
        assert status is Status.MULTIPLE and flat(other) == pair[0]
    finally:
        second.close()
        cnf._SHARED.kept.clear()
        second.model.close()


def test_a_shared_model_is_dropped_after_its_answers():
    cnf._SHARED.kept.clear()
    grid = ((1, 2, 2),)
    seen = []
    for _ in range(cnf.SHARED_ANSWERS + 1):
        oracle = cnf.UniquenessOracle(grid, shared=True)
        seen.append(oracle.model)
        assert oracle.check([0])[0] is Status.UNIQUE and oracle.check([])[0] is Status.MULTIPLE
        oracle.close()
    assert all(m is seen[0] for m in seen[: cnf.SHARED_ANSWERS]) and seen[-1] is not seen[0]
    assert [m for m, _ in cnf._SHARED.kept.values()] == [seen[-1]]
    cnf._SHARED.kept.clear()
    seen[-1].close()


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_oracle_looking_near_a_removed_clue_first_agrees_with_the_brute_force(data):
    """Clues unique for the answer, one taken out: ``check_near`` (windows of 1, 2, 4... steps around
    that cell before the whole grid) says unique exactly when the brute force finds only the answer,
    and any other solution it gives is a real one that differs at that cell."""
    rows, cols = data.draw(st.sampled_from([(2, 3), (3, 3), (3, 4), (2, 5), (1, 6)]))
    answers = every_answer(rows, cols)
    answer = data.draw(st.sampled_from(answers))
    grid = tuple(tuple(answer[r * cols : (r + 1) * cols]) for r in range(rows))
    oracle = cnf.UniquenessOracle(grid)
    try:
        for _ in range(3):
            kept = data.draw(st.sets(st.sampled_from(range(rows * cols)), min_size=1))
            if len([t for t in answers if all(t[i] == answer[i] for i in kept)]) != 1:
                continue
            cell = data.draw(st.sampled_from(sorted(kept)))
            held = sorted(kept - {cell})
            truth = [t for t in answers if all(t[i] == answer[i] for i in held)]
            status, other = oracle.check_near(held, cell, first_radius=data.draw(st.sampled_from([1, 2])))
            if len(truth) == 1:
                assert status is Status.UNIQUE and other is None
            else:
                assert status is Status.MULTIPLE
                assert flat(other) in truth and flat(other)[cell] != answer[cell]
    finally:
        oracle.close()


def test_oracle_looking_near_needs_a_window():
    oracle = cnf.UniquenessOracle(((1, 2, 2),))
    try:
        with pytest.raises(ValueError, match="first_radius"):
            oracle.check_near([0], 1, first_radius=0)
    finally:
        oracle.close()


def test_escalate_after_is_an_engine_setting_per_model():
    """None adds the rooted regions up front; a large allowance leaves an easy search without them;
    either way the answer is a solution (the clauses are redundant)."""
    puzzle = Puzzle.from_grid([[4, 0, 0, 0], [0, 0, 0, 4], [5, 0, 0, 0], [0, 0, 0, 0]])
    answers = []
    for escalate, strong in ((None, True), (10**9, False)):
        model = cnf.puzzle_model(puzzle, 9, None, encode.CnfEngine(escalate_after=escalate))
        try:
            model.pin(cnf.clue_assumptions(model, puzzle))
            assert model.strong is strong
            ans = model.solve()
            assert model.strong is strong
            answers.append(ans.concrete if ans else None)
        finally:
            model.close()
    assert all(a is not None and is_solution(puzzle, a) for a in answers)


def test_a_model_of_a_kept_shape_adds_the_clauses_a_new_one_would():
    """The static clauses kept per shape and K are the ones a model would make: the same list, in the same order
    (the solver's search depends on it), and models with extra sizes or too many labels make their own."""
    encode._STATIC.kept.clear()
    first = encode.DEFAULT_ENGINE.model(3, 4, k=3)
    second = encode.DEFAULT_ENGINE.model(3, 4, k=3)
    extra = encode.DEFAULT_ENGINE.model(3, 4, (0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0), k=3)
    counter = encode.CnfEngine(pairwise_up_to=2).model(3, 4, k=6)
    try:
        assert list(encode._STATIC.kept) == [(3, 4, 3, True, encode.DEFAULT_ENGINE.pairwise_up_to)]
        made = [clause for clauses in second._static_clauses() for clause in clauses]
        assert second._static() == made
        assert len(made) == 12 + 12 * 6 + 17 + 12 * 3  # one label; at most one of four; 1s apart; a neighbour
        assert extra.extra and len(encode._STATIC.kept) == 1
        assert counter.pool.top > counter.lits[-1][encode.BIG]  # a counter's variables
        assert len(encode._STATIC.kept) == 1
        assert first.solve() is not None and second.solve() is not None
    finally:
        for model in (first, second, extra, counter):
            model.close()


def test_a_closed_model_ignores_further_clauses():
    """Clauses go straight to Glucose's C function; once the solver is freed they must not reach it."""
    model = encode.DEFAULT_ENGINE.model(2, 2, k=2)
    assert model._add is not model.solver.add_clause
    model.close()
    model.add_clause([1, 2])
    model.block([1, 1, 1, 1])


def test_solvers_other_than_glucose_4_take_clauses_through_pysat():
    model = encode.CnfEngine(solver="cd195").model(2, 2, k=4)
    try:
        assert model._add == model.solver.add_clause
        model.pin([model.lit(0, 1)])
        ans = model.solve()
        assert ans is not None and ans.concrete == [1, 3, 3, 3]
    finally:
        model.close()


class _CountedTimer(threading.Timer):
    started = 0

    def start(self) -> None:
        _CountedTimer.started += 1
        super().start()


def test_one_deadline_is_one_timer_however_many_calls(monkeypatch):
    """A search asks hundreds of questions under one deadline: one timer interrupts them all (a thread per
    call cost a quarter of a millisecond of CPU each); a new deadline replaces it."""
    monkeypatch.setattr(encode.threading, "Timer", _CountedTimer)
    _CountedTimer.started = 0
    model = cnf.puzzle_model(Puzzle.empty(3, 3), 9, None)
    try:
        clock = Clock.after(60)
        for _ in range(6):
            ans = model.solve([], clock.share(10**6))
            assert ans is not None
            model.block(ans.labels)
        assert _CountedTimer.started == 1
        assert model.solve([], Clock.after(60)) is not None
        assert _CountedTimer.started == 2
    finally:
        model.close()


def test_a_deadline_that_passed_interrupts_no_later_question():
    """The timer of a deadline that passed between two calls has interrupted the solver: a question without
    a deadline, or with a new one, must still get its answer (an interrupted unlimited call reads as UNSAT).
    The grid's first answer takes some 900 conflicts, so an interrupt left behind would stop it."""
    puzzle = read_puzzle(str(Path(__file__).resolve().parents[1] / "corpus" / "10x10" / "10x10-s10.txt"))
    for new_clock in (None, Clock.after(60)):
        model = cnf.puzzle_model(puzzle, 9, None)
        try:
            x = model.lit(0, 1)
            assert model.solve([x, -x], Clock.after(0.05)) is None  # no search: arms the deadline's timer
            time.sleep(0.3)  # the timer fires now, between calls
            ans = model.solve(cnf.clue_assumptions(model, puzzle), new_clock)
            assert ans is not None and is_solution(puzzle, ans.concrete)
            with pytest.raises(encode.Interrupted):
                model.solve([], Clock(end=time.monotonic() - 1))
        finally:
            model.close()


def test_lazy_clauses_carried_to_a_larger_k_keep_every_solution():
    """A model with K = 2 learns how regions of sizes 1 and 2 may lie; handed to a model with K = 12, those
    clauses (and only those: not BIG's, whose meaning changes with K) leave it every solution of the board."""
    puzzle = Puzzle.from_grid([[1, 0, 0, 0], [3, 0, 0, 0], [3, 3, 0, 0], [0, 0, 0, 0]])
    small = cnf.puzzle_model(puzzle, 2, None)
    large = cnf.puzzle_model(puzzle, 12, None)
    try:
        clues = cnf.clue_assumptions(small, puzzle)
        lazy: list[list[int]] = []
        add = small._add
        while True:
            small._add = lambda cl: (lazy.append(list(cl)), add(cl))  # the clauses the solve adds, lazy ones
            ans = small.solve(clues)
            small._add = add
            if ans is None or not ans.exact:
                break
            small.block(ans.labels)
        assert small.size_clauses and small.lazy_clauses > len(small.size_clauses)  # BIG's were left out
        assert small.size_clauses == [cl for cl in lazy if all(0 < small._value_of[abs(x)] <= 2 for x in cl)]
        large.carry(small)
        assert len(large.size_clauses) == len(small.size_clauses)
        clues = cnf.clue_assumptions(large, puzzle)
        found = []
        while (ans := large.solve(clues)) is not None:
            assert not ans.big_groups
            found.append(tuple(ans.concrete))
            large.block(ans.labels)
        assert sorted(found) == sorted(bruteforce.pictures(4, 4, list(puzzle.clues)))
        with pytest.raises(ValueError):
            small.carry(large)
    finally:
        small.close()
        large.close()


def test_a_model_dropped_unclosed_is_not_kept_alive_by_its_deadline():
    """The timer of a long deadline holds the solver weakly: a model nobody closed is freed all the same."""
    model = cnf.puzzle_model(Puzzle.empty(3, 3), 9, None)
    assert model.solve([], Clock.after(600)) is not None
    solver = weakref.ref(model.solver)
    del model
    gc.collect()
    assert solver() is None


@pytest.mark.parametrize("occupied", [[], [[12, 15]]])
def test_fresh_ids_are_the_ones_pool_id_would_give(occupied):
    from pysat.formula import IDPool

    from fillomino.encode.anchors import fresh_ids

    one_by_one, at_once = IDPool(start_from=10, occupied=occupied), IDPool(start_from=10, occupied=occupied)
    expected = [one_by_one.id() for _ in range(7)] + [one_by_one.id(("named", 1))]
    assert fresh_ids(at_once, 7) + [at_once.id(("named", 1))] == expected


@pytest.mark.parametrize(("n", "cap"), [(1, 2), (2, 3), (3, 2), (4, 5), (5, 3), (6, 7)])
def test_unary_count_says_how_many_literals_are_true(n, cap):
    from pysat.formula import IDPool
    from pysat.solvers import Glucose4

    from fillomino.encode.anchors import unary_count

    with Glucose4() as solver:
        out = unary_count(list(range(1, n + 1)), cap, IDPool(start_from=n + 1), solver.add_clause)
        assert len(out) == min(n, cap)
        for bits in itertools.product([False, True], repeat=n):
            assert solver.solve(assumptions=[i + 1 if b else -(i + 1) for i, b in enumerate(bits)])
            model = set(solver.get_model())
            assert [o in model for o in out] == [sum(bits) > i for i in range(len(out))]
