"""The one budget clock: what a solve spends is charged to it, and a spent clock means unknown, never a guess."""

from __future__ import annotations

import pytest

from fillomino.clock import Clock, Work, past
from fillomino.puzzle import Puzzle
from fillomino.solvers import Budget, BudgetExhausted, Status
from fillomino.solvers.cnf import UniquenessOracle


def test_a_clock_counts_down_and_is_spent_at_zero():
    assert not Clock.of(Budget()).limited and not Clock().spent()
    clock = Clock.after(None, 10)
    clock.charge(4)
    assert clock.conflicts == 6 and not clock.spent()
    clock.charge(6)
    assert clock.spent()
    assert Clock.after(-1.0).spent() and Clock.after(60).seconds_left() > 59


def test_work_is_spent_one_check_at_a_time_and_stays_spent():
    work = Work(2)
    assert [past(work) for _ in range(4)] == [False, False, True, True]
    assert not past(None) and past(0.0) and not past(float("inf"))


class _FakeTime:
    """A wall clock and a CPU clock moved by hand, counting the CPU clock's readings."""

    def __init__(self) -> None:
        self.wall, self.cpu, self.reads = 0.0, 0.0, 0

    def perf_counter(self) -> float:
        return self.wall

    def process_time(self) -> float:
        self.reads += 1
        return self.cpu


def test_a_cpu_deadline_is_read_only_when_it_could_have_passed(monkeypatch):
    from fillomino import clock

    fake = _FakeTime()
    monkeypatch.setattr(clock, "time", fake)
    monkeypatch.setattr(clock, "CPUS", 2)
    monkeypatch.setattr(clock, "_gate", (float("nan"), 0.0))
    assert not past(1.0) and fake.reads == 1  # 2 CPUs: the deadline is at least 0.5 s of wall time away
    fake.wall, fake.cpu = 0.25, 0.5
    assert not past(1.0) and fake.reads == 1
    assert not past(2.0) and fake.reads == 2  # another deadline: read
    fake.wall, fake.cpu = 0.5, 1.0
    assert not past(1.0) and fake.reads == 3  # could have passed: read, and it has not (yet)
    fake.wall, fake.cpu = 0.5001, 1.0002
    assert past(1.0) and fake.reads == 4


def test_a_cpu_deadline_is_seen_as_soon_as_it_passes():
    import time

    deadline = time.process_time() + 0.05
    assert not past(deadline)
    while time.process_time() <= deadline:
        pass
    assert past(deadline)


def test_an_oracle_on_a_shared_clock_stops_once_it_is_spent():
    answer = ((1, 2, 2), (3, 3, 3))
    clock = Clock.after(None, 10**6)
    oracle = UniquenessOracle(answer, clock=clock)
    try:
        assert oracle.check([])[0] is Status.MULTIPLE
        clock.conflicts = 0  # the command's budget is spent: every later question is unknown
        assert oracle.check([]) == (Status.UNKNOWN, None)
        assert oracle.others([], many=3, gather=True) is None
    finally:
        oracle.close()


def test_cpsat_never_gives_a_conflict_it_has_not_shrunk_to_minimal():
    from fillomino.solvers import cpsat

    unsolvable = Puzzle.from_grid([[1, 1, 0], [0, 0, 0], [0, 0, 2]])
    assert cpsat.minimal_conflict(unsolvable, None) == [0, 1]
    with pytest.raises(BudgetExhausted):
        cpsat.minimal_conflict(unsolvable, None, Clock.after(None, 0))


def test_a_shared_clock_spends_its_parents_conflicts_and_ends_with_it():
    budget = Clock.after(30, 100)
    question = budget.share(40)
    assert question.end == budget.end and question.conflicts == 40
    question.charge(40)
    assert question.spent() and not budget.spent() and budget.conflicts == 60
    last = budget.share(80)  # never more than the budget has left
    assert last.conflicts == 60
    last.charge(60)
    assert budget.spent() and budget.conflicts == 0
    assert Clock.after(None).share(5).conflicts == 5  # a budget without a conflict limit still caps the question
