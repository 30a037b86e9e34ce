"""Racing one exact question several ways: the first settled answer wins, crashes and give-ups do not."""

import os
import time

import pytest

from fillomino.race import can_race, first_answer

pytestmark = pytest.mark.skipif(not can_race(), reason="racing needs fork")


def slow(value, seconds):
    def way():
        time.sleep(seconds)
        return value

    return way


def fails():
    raise ValueError("this racer crashed")


def test_the_first_answer_wins_and_the_slow_racer_is_stopped():
    start = time.monotonic()
    assert first_answer([slow("slow", 30), slow("fast", 0.1)]) == "fast"
    assert time.monotonic() - start < 10


def test_an_unsettled_answer_waits_for_a_settled_one():
    assert first_answer([slow("gave up", 0), slow("answer", 0.3)], settled=lambda r: r != "gave up") == "answer"


def test_an_unsettled_answer_is_returned_when_nothing_settles():
    assert first_answer([slow("gave up", 0), slow("gave up too", 0.1)], settled=lambda r: False) == "gave up"


def test_a_crashed_racer_does_not_decide():
    assert first_answer([fails, slow("answer", 0.2)]) == "answer"


def test_every_racer_crashing_is_an_error_naming_the_first():
    with pytest.raises(RuntimeError, match="this racer crashed"):
        first_answer([fails, fails])


def test_a_racer_that_dies_without_a_word_does_not_decide():
    assert first_answer([lambda: os._exit(3), slow("answer", 0.2)]) == "answer"


def test_the_timeout_stops_every_racer():
    start = time.monotonic()
    with pytest.raises(TimeoutError):
        first_answer([slow(1, 30), slow(2, 30)], timeout=0.5)
    assert time.monotonic() - start < 10


def test_one_way_runs_here_unless_isolated():
    pid = os.getpid()
    assert first_answer([os.getpid]) == pid
    assert first_answer([os.getpid], isolate=True) != pid


def test_an_isolated_way_is_stopped_by_the_timeout():
    start = time.monotonic()
    with pytest.raises(TimeoutError):
        first_answer([slow(1, 30)], timeout=0.3, isolate=True)
    assert time.monotonic() - start < 10


def _race_in_a_pool_worker(_):
    return first_answer([slow("first", 0), slow("second", 0)])


def test_a_pool_worker_runs_the_first_way_itself():
    """Pool workers are daemonic and may not fork children: they run the first way instead of failing."""
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.map(_race_in_a_pool_worker, [0]) == ["first"]
