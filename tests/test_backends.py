"""Conformance: every backend answers the Backend protocol's three questions alike, against the brute force.

One suite run over each backend in solvers.BACKENDS: verdicts with their evidence, enumeration, the
size cap, candidates that must not change a verdict, and the one rule for a spent budget (unknown with
no evidence; solve and enumeration raise).
"""

from __future__ import annotations

import inspect

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fillomino.puzzle import Puzzle, is_solution
from fillomino.solvers import (
    BACKENDS,
    Budget,
    BudgetExhausted,
    Status,
    differing_cells,
    enumerate_solutions,
    get_backend,
    solve,
    uniqueness,
)
from fillomino.solvers.base import Backend
from tests import bruteforce

pytestmark = pytest.mark.parametrize("backend", BACKENDS)


def flat(grid) -> tuple[int, ...]:
    return tuple(v for row in grid for v in row)


@st.composite
def boards(draw):
    rows, cols = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    n = rows * cols
    clues = [draw(st.one_of(st.just(0), st.integers(1, min(n, 5)))) for _ in range(n)]
    return Puzzle(rows, cols, tuple(clues))


def test_the_module_has_the_protocol_s_names_and_parameters(backend):
    module = get_backend(backend)
    assert module.NAME == backend
    for name in ("solve", "uniqueness", "enumerate_solutions"):
        wanted = set(inspect.signature(getattr(Backend, name)).parameters) - {"self"}
        assert wanted <= set(inspect.signature(getattr(module, name)).parameters), name


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(p=boards())
def test_verdict_solve_and_enumeration_match_the_brute_force(backend, p):
    expected = sorted(bruteforce.pictures(p.rows, p.cols, list(p.clues)))
    assert sorted(flat(g) for g in enumerate_solutions(p, backend=backend)) == expected
    found = solve(p, backend=backend)
    assert (found is None) == (not expected) and (found is None or flat(found) in expected)
    v = uniqueness(p, backend=backend)
    assert v.backend == backend
    if not expected:
        assert v.status is Status.NONE and not v.solutions
        keep = {r * p.cols + c for r, c in v.conflict}
        sub = [p.clues[i] if i in keep else 0 for i in range(p.size)]
        assert not bruteforce.pictures(p.rows, p.cols, sub)
        for i in keep:  # minimal: each named clue is needed
            assert bruteforce.pictures(p.rows, p.cols, [0 if j == i else sub[j] for j in range(p.size)])
    elif len(expected) == 1:
        assert v.status is Status.UNIQUE and [flat(g) for g in v.solutions] == expected and not v.conflict
    else:
        assert v.status is Status.MULTIPLE and not v.conflict
        a, b = v.solutions
        assert a != b and flat(a) in expected and flat(b) in expected
        assert v.differ == differing_cells(a, b)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(p=boards(), cap=st.integers(1, 4))
def test_a_size_cap_keeps_exactly_the_capped_solutions(backend, p, cap):
    if max(p.clues) > cap:
        return
    expected = sorted(bruteforce.pictures(p.rows, p.cols, list(p.clues), max_size=cap))
    assert sorted(flat(g) for g in enumerate_solutions(p, backend=backend, max_size=cap)) == expected
    v = uniqueness(p, backend=backend, max_size=cap)
    assert v.max_size == cap
    assert v.status is {0: Status.NONE, 1: Status.UNIQUE}.get(len(expected), Status.MULTIPLE)


def test_a_candidate_never_changes_the_verdict(backend):
    wrong = ((1, 1, 1), (1, 1, 1), (1, 1, 1))
    for p in (Puzzle.from_grid([[4, 2, 3], [0, 0, 0], [0, 0, 3]]), Puzzle.from_grid([[4, 0, 3], [0, 2, 0], [0, 0, 0]])):
        plain = uniqueness(p, backend=backend)
        for candidate in (wrong, *plain.solutions):
            again = uniqueness(p, backend=backend, candidate=candidate)
            assert again.status == plain.status
            if plain.status is Status.UNIQUE:
                assert again.solutions == plain.solutions


def test_a_spent_budget_gives_unknown_and_no_evidence(backend):
    for p in (Puzzle.empty(8, 8), Puzzle.from_grid([[1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])):
        v = uniqueness(p, backend=backend, budget=Budget(seconds=1e-9))
        assert v.status is Status.UNKNOWN
        assert (v.solutions, v.differ, v.conflict) == ([], [], [])
    with pytest.raises(BudgetExhausted):
        solve(Puzzle.empty(8, 8), backend=backend, budget=Budget(seconds=1e-9))
    with pytest.raises(BudgetExhausted):
        list(enumerate_solutions(Puzzle.empty(8, 8), backend=backend, budget=Budget(seconds=1e-9)))


def test_a_one_conflict_budget_gives_unknown_or_a_settled_answer(backend):
    p = Puzzle.empty(6, 6)
    v = uniqueness(p, backend=backend, budget=Budget(conflicts=1))
    if v.status is Status.UNKNOWN:
        assert (v.solutions, v.differ, v.conflict) == ([], [], [])
    else:
        assert v.status is Status.MULTIPLE and all(is_solution(p, g) for g in v.solutions)
