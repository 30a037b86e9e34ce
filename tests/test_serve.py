"""fillomino serve without a browser: its JSON API over the library, cancellation, limits, the CLI."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="fillomino serve needs the serve extra: pip install 'fillomino[serve]'")
pytest.importorskip("uvicorn", reason="fillomino serve needs the serve extra: pip install 'fillomino[serve]'")

from fillomino.formats import parse_puzzle, parse_url, write_id, write_json, write_url  # noqa: E402
from fillomino.puzzle import FillominoError, Puzzle  # noqa: E402
from fillomino.serve.app import Cancels  # noqa: E402
from fillomino.serve.server import bind, is_loopback  # noqa: E402
from fillomino.serve.workers import Pool  # noqa: E402
from fillomino.solvers import uniqueness  # noqa: E402
from tests.test_serve_support import ROOT, ahead_state, post, running_server  # noqa: E402

# a 5x5 with one solution (janko 001's grid), and the same with two clues taken out
UNIQUE = "3..5.\n.1..2\n.4.2.\n4..3.\n.4..4\n"
LOOSE = "3..5.\n.1..2\n.4.2.\n...3.\n.4...\n"
EMPTY_14 = write_id(Puzzle(14, 14, (0,) * 196))


@pytest.fixture(scope="module")
def server() -> str:
    """A server that works nothing out ahead, so which answers are settled depends on these tests alone."""
    with running_server(write_id(parse_puzzle(UNIQUE)), "--no-ahead") as base:
        yield base


def test_the_page_and_the_puzzle_it_opens_with(server: str) -> None:
    import json
    import urllib.request

    with urllib.request.urlopen(server + "/", timeout=30) as res:
        assert b'<script src="/app.js">' in res.read() and res.headers["Content-Type"].startswith("text/html")
    with urllib.request.urlopen(server + "/api/start", timeout=30) as res:
        start = json.loads(res.read())
    assert tuple(start["puzzle"]["clues"]) == parse_puzzle(UNIQUE).clues
    assert start["panels"] == ["verdict", "loose", "values", "count", "suggest", "level"]


def test_load_reads_every_format_and_answers_the_shape(server: str) -> None:
    puzzle = parse_puzzle(UNIQUE)
    for text in (UNIQUE, write_id(puzzle), write_url(puzzle), write_json(puzzle)):
        status, answer = post(server, "/api/load", {"text": text})
        assert status == 200
        assert (answer["rows"], answer["cols"], tuple(answer["clues"])) == (5, 5, puzzle.clues)


@pytest.mark.parametrize("text", ["3x3\n1?2\n...", "fillomino:300x300:", "{\"puzzle\": 3}", ""])
def test_a_bad_paste_gets_the_readers_one_line_message(server: str, text: str) -> None:
    with pytest.raises(FillominoError) as expected:
        parse_puzzle(text, "<input>")
    status, answer = post(server, "/api/load", {"text": text})
    assert status == 400
    assert answer["error"] == str(expected.value)
    assert "\n" not in answer["error"]
    cli = subprocess.run([sys.executable, "-m", "fillomino", "convert", text], cwd=ROOT, capture_output=True,
                         text=True)
    if text.strip():  # the CLI says the same line (an empty argument it reads as a missing file)
        assert cli.stderr.strip() == f"fillomino: error: {answer['error']}"


def test_a_path_in_the_page_is_text_never_a_file(server: str) -> None:
    path = ROOT / "corpus" / "05x05" / "5x5-s0.txt"
    assert parse_puzzle(path.read_text())  # the file is a puzzle, so only reading it would succeed
    status, answer = post(server, "/api/load", {"text": str(path)})
    assert status == 400 and "error" in answer


def test_an_oversized_body_is_refused_before_it_is_read_whole(server: str) -> None:
    status, answer = post(server, "/api/load", b'{"text": "' + b"1" * 8_100_000 + b'"}')
    assert status == 400 and "larger than" in answer["error"]


def test_panels_answer_like_the_library(server: str) -> None:
    loose = parse_puzzle(LOOSE)
    status, verdict = post(server, "/api/panel/verdict", {"puzzle": LOOSE})
    assert status == 200 and verdict["status"] == "multiple"
    expected = uniqueness(loose)
    assert verdict["differ"] == [list(rc) for rc in expected.differ] and "<svg" in verdict["picture"]
    assert verdict["id"] == write_id(loose)
    status, cells = post(server, "/api/panel/loose", {"puzzle": LOOSE})
    assert cells["status"] == "multiple" and cells["loose"]
    assert all(len(values) > 1 for _, _, values in cells["loose"])
    status, counted = post(server, "/api/panel/count", {"puzzle": LOOSE})
    assert counted["status"] == "exact" and counted["count"] > 1
    status, suggested = post(server, "/api/panel/suggest", {"puzzle": LOOSE})
    clues = list(loose.clues)
    for r, c, v in suggested["clues"]:
        clues[r * 5 + c] = v
    assert uniqueness(Puzzle(5, 5, tuple(clues))).status == "unique"
    status, verdict = post(server, "/api/panel/verdict", {"puzzle": UNIQUE})
    assert verdict["status"] == "unique"
    status, verdict = post(server, "/api/panel/verdict", {"puzzle": "22\n.."})
    assert verdict["status"] == "none" and verdict["conflict"]
    status, answer = post(server, "/api/panel/rating", {"puzzle": UNIQUE})
    assert status == 400 and "no panel" in answer["error"]


def test_the_level_panel_is_the_raters(server: str) -> None:
    from fillomino.logic import hint, rate

    puzzle = parse_puzzle(UNIQUE)
    status, level = post(server, "/api/panel/level", {"puzzle": UNIQUE})
    rating, step = rate(puzzle), hint(puzzle)
    assert status == 200 and level["level"] == rating.level and level["score"] == rating.score
    assert level["status"] == rating.state and level["hint"] == (step.sentence if step else None)
    status, level = post(server, "/api/panel/level", {"puzzle": LOOSE})
    assert level["status"] != "solved" and level["level"] == "unrated"  # a draft with several answers


def test_exports_read_back(server: str) -> None:
    puzzle = parse_puzzle(LOOSE)
    status, url = post(server, "/api/export/url", {"puzzle": LOOSE}, raw=True)
    assert status == 200 and parse_url(url.decode().strip()).clues == puzzle.clues
    status, svg = post(server, "/api/export/svg", {"puzzle": LOOSE}, raw=True)
    assert svg.startswith(b"<svg")
    pytest.importorskip("PIL")
    status, png = post(server, "/api/export/png", {"puzzle": LOOSE}, raw=True)
    assert png.startswith(b"\x89PNG")


def test_a_newer_edit_cancels_the_older_analysis(server: str) -> None:
    slow = EMPTY_14  # every value of an empty 14x14 takes far longer than this test waits
    answers: dict[str, object] = {}

    def old() -> None:
        answers["old"] = post(server, "/api/panel/loose", {"puzzle": slow, "client": "t", "seq": 1})

    thread = threading.Thread(target=old)
    start = time.monotonic()
    thread.start()
    time.sleep(0.5)
    assert post(server, "/api/panel/verdict", {"puzzle": UNIQUE, "client": "t", "seq": 2})[1]["status"] == "unique"
    thread.join(10)
    assert answers["old"] == (200, {"status": "cancelled"})
    assert time.monotonic() - start < 5
    # an edit older than the newest one is not even started
    assert post(server, "/api/panel/verdict", {"puzzle": UNIQUE, "client": "t", "seq": 1})[1] == {"status": "cancelled"}


def test_cancels_keep_the_newest_edit_per_page() -> None:
    async def go() -> None:
        cancels = Cancels()
        loop = asyncio.get_running_loop()
        a = loop.create_task(asyncio.sleep(10))
        other = loop.create_task(asyncio.sleep(10))
        assert cancels.advance("p", 1) and cancels.advance("q", 5)
        cancels.track("p", 1, a)
        cancels.track("q", 5, other)
        assert cancels.advance("p", 2)
        await asyncio.sleep(0)
        assert a.cancelled() and not other.cancelled()
        assert not cancels.advance("p", 1) and cancels.advance("p", 2)
        other.cancel()

    asyncio.run(go())


def test_a_cancelled_question_kills_its_worker() -> None:
    async def go() -> None:
        pool = Pool(warm=0)
        task = asyncio.get_running_loop().create_task(
            pool.run({"panel": "loose", "puzzle": EMPTY_14, "seconds": 60}))
        await asyncio.sleep(1.0)
        (worker,) = pool.busy
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.wait_for(worker.process.wait(), 5)
        assert not worker.alive and not pool.idle
        await pool.close()

    asyncio.run(go())


def test_no_worker_starts_while_a_first_panel_is_answered(monkeypatch) -> None:
    # starting a worker takes a core for about 0.15 s: while the verdict or the loose cells are worked out it waits
    # until they are answered; the other panels' questions start them as before
    from fillomino.serve import workers

    started: list[int] = []

    class Fake:
        def __init__(self) -> None:
            self.answer: asyncio.Future | None = None
            self.alive = True

        @classmethod
        async def start(cls, low_priority: bool = False):
            started.append(1)
            return cls()

        async def ask(self, request: dict) -> dict:
            self.answer = asyncio.get_running_loop().create_future()
            return await self.answer

        def kill(self) -> None:
            self.alive = False

    monkeypatch.setattr(workers, "Worker", Fake)

    async def go() -> None:
        pool = Pool(warm=2)
        for first, other in (("verdict", "count"), ("loose", "level")):
            started.clear()
            pool.idle = [Fake(), Fake()]
            asked = asyncio.get_running_loop().create_task(pool.run({"panel": first}))
            await asyncio.sleep(0.01)
            assert pool.first_running == 1 and not started  # one idle worker left, and none started beside it
            (worker,) = pool.busy
            worker.answer.set_result({"status": "unique"})
            assert await asked == {"status": "unique"}
            await asyncio.sleep(0.01)
            assert pool.first_running == 0 and len(pool.idle) == 2
            asked = asyncio.get_running_loop().create_task(pool.run({"panel": other}))
            await asyncio.sleep(0.01)
            assert started  # not a first panel: the pool tops up its idle workers at once
            (worker,) = pool.busy
            asked.cancel()
            with pytest.raises(asyncio.CancelledError):
                await asked
            assert not worker.alive and pool.first_running == 0
        await pool.close()

    asyncio.run(go())


def test_listening_address_checks() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.4")
    sock = bind("127.0.0.1", 0)
    try:
        with pytest.raises(FillominoError, match="cannot listen on 127.0.0.1"):
            bind("127.0.0.1", sock.getsockname()[1])
    finally:
        sock.close()


def test_serve_refuses_bad_options_with_one_line() -> None:
    for args in (["--budget", "100c"], ["--port", "70000"], ["--workers", "0"]):
        cli = subprocess.run([sys.executable, "-m", "fillomino", "serve", *args], cwd=ROOT, capture_output=True,
                             text=True, timeout=30)
        assert cli.returncode == 2 and cli.stderr.count("\n") == 1, cli.stderr


def test_another_address_warns() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "fillomino", "serve", "--host", "0.0.0.0", "--port", "0",
                             "--workers", "1"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().startswith("fillomino serve: http://0.0.0.0:")  # type: ignore[union-attr]
        assert "warning: listening on 0.0.0.0" in proc.stderr.readline()  # type: ignore[union-attr]
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(15) == 130


def test_loose_cells_of_a_grid_with_more_clues_start_from_the_settled_ones(server: str) -> None:
    from fillomino.possible import possible

    fewer = "3..5.\n.1..2\n.4...\n4..3.\n.....\n"  # janko-001 without three clues (asked nowhere else)
    status, first = post(server, "/api/panel/loose", {"puzzle": fewer})
    assert status == 200 and first["status"] == "multiple" and first["narrowed"] is False
    status, every = post(server, "/api/panel/values", {"puzzle": fewer})  # every value: a cover for more clues
    assert status == 200 and every["complete"] is True
    assert every["loose"] == [[r, c, v] for r, c, v in possible(parse_puzzle(fewer)).loose_cells()]
    more = ("3..5.\n.1..2\n.4...\n4..3.\n.4...\n", "3..5.\n.1..2\n.4.2.\n4..3.\n.4...\n",
            "3..5.\n.1..2\n.4...\n4..3.\n.5...\n", "3..5.\n.1..2\n.4.2.\n4..3.\n.4..4\n")
    for text in more:  # more clues: the search starts from the settled values, and stays exact
        expected = possible(parse_puzzle(text))
        status, answer = post(server, "/api/panel/loose", {"puzzle": text})
        assert answer["narrowed"] is True
        assert answer["status"] == ("none" if not expected.solvable else "unique" if expected.unique else "multiple")
        assert [[r, c] for r, c, _ in answer["loose"]] == [[r, c] for r, c, _ in expected.loose_cells()]
        status, answer = post(server, "/api/panel/values", {"puzzle": text})
        assert answer["narrowed"] is True and answer["complete"] is True
        assert answer["loose"] == [[r, c, v] for r, c, v in expected.loose_cells()]


def test_the_loose_cells_come_first_and_the_values_panel_completes_them(server: str) -> None:
    from fillomino.possible import possible

    expected = possible(parse_puzzle(LOOSE))
    status, first = post(server, "/api/panel/loose", {"puzzle": LOOSE})
    assert status == 200 and first["status"] == "multiple"
    assert [[r, c] for r, c, _ in first["loose"]] == [[r, c] for r, c, _ in expected.loose_cells()]
    for (_, _, seen), (_, _, every) in zip(first["loose"], expected.loose_cells()):
        assert 1 < len(seen) and set(seen) <= set(every)
    assert first["complete"] is False  # a loose-only search never vouches for a loose cell's values
    status, full = post(server, "/api/panel/values", {"puzzle": LOOSE})
    assert status == 200 and full["complete"] is True
    assert full["loose"] == [[r, c, v] for r, c, v in expected.loose_cells()]
    assert full["cells"] == [[sorted(v) for v in row] for row in expected.cells]


def test_only_json_from_loopback_names_is_taken(server: str) -> None:
    import urllib.error
    import urllib.request

    form = urllib.request.Request(server + "/api/load", data=b'{"text": "1"}', method="POST",
                                  headers={"Content-Type": "text/plain"})  # what another site may send unasked
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(form, timeout=30)
    assert refused.value.code == 400
    rebound = urllib.request.Request(server + "/api/start", headers={"Host": "evil.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(rebound, timeout=30)
    assert refused.value.code == 400



AHEAD_WAIT = 600
"""Seconds a test waits for the background at most: it yields the CPU to everyone, and the machine may be busy."""


def removal(text: str, cell: int) -> str:
    puzzle = parse_puzzle(text)
    return write_id(puzzle.with_clues([0 if i == cell else v for i, v in enumerate(puzzle.clues)]))


def wait_ahead(base: str, grid: str) -> dict:
    """Poll until the background has worked through the removals of ``grid`` (generous deadline, no timing)."""
    deadline = time.monotonic() + AHEAD_WAIT
    while time.monotonic() < deadline:
        state = ahead_state(base, boost=True)
        if state["grid"] == grid and state["idle"]:
            return state
        time.sleep(0.2)
    raise AssertionError(f"the background did not finish {grid} in {AHEAD_WAIT} s: {state}")


def same(answer: dict) -> dict:
    """An answer without what says how and when it was computed."""
    return {k: v for k, v in answer.items() if k not in ("ms", "cpu_ms", "seconds", "cached", "ahead")}


def test_the_removal_of_each_clue_is_worked_out_ahead_and_cached() -> None:
    grid = write_id(parse_puzzle(UNIQUE))
    with running_server() as ahead, running_server("--no-ahead") as server:
        assert ahead_state(ahead)["on"] is True
        assert post(ahead, "/api/panel/verdict", {"puzzle": UNIQUE})[1]["status"] == "unique"
        state = wait_ahead(ahead, grid)  # a unique verdict settles the loose cells: nothing more is asked
        clues = parse_puzzle(UNIQUE).clue_cells()
        assert state["answered"] >= len(clues)
        for cell in clues:
            text = removal(UNIQUE, cell)
            verdict = post(ahead, "/api/panel/verdict", {"puzzle": text})[1]
            assert verdict["cached"] is True, cell
            assert same(verdict) == same(post(server, "/api/panel/verdict", {"puzzle": text})[1])
            if verdict["status"] == "multiple":  # a needed clue: its loose cells are settled too
                loose = post(ahead, "/api/panel/loose", {"puzzle": text})[1]
                assert loose["cached"] is True, cell
                assert same(loose) == same(post(server, "/api/panel/loose", {"puzzle": text})[1])


def test_a_newer_grid_goes_first_and_the_grid_before_it_stays_queued() -> None:
    other = "3..5.\n.1..2\n.4.2.\n4..3.\n.4..5\n"  # UNIQUE with another last clue: no solution
    with running_server() as base:
        assert post(base, "/api/panel/verdict", {"puzzle": UNIQUE})[1]["status"] == "unique"
        first = ahead_state(base)
        assert first["grid"] == write_id(parse_puzzle(UNIQUE)) and first["left"] <= 2 * 10
        clues = parse_puzzle(UNIQUE).clue_cells()
        assert post(base, "/api/panel/verdict", {"puzzle": other})[1]["status"] == "none"
        switched = ahead_state(base)
        assert switched["grid"] == write_id(parse_puzzle(other))
        wait_ahead(base, write_id(parse_puzzle(other)))
        # the setter may come back to the first grid: its removals were worked out after the new grid's, this
        # one (not a removal of the new grid, as the last one is) included
        last = removal(UNIQUE, clues[-2])
        assert post(base, "/api/panel/verdict", {"puzzle": last})[1].get("cached") is True


def test_no_ahead_works_nothing_out(server: str) -> None:
    assert ahead_state(server) == {"on": False}
    text = removal(UNIQUE, 0)
    post(server, "/api/panel/verdict", {"puzzle": UNIQUE})
    time.sleep(1.0)
    assert "cached" not in post(server, "/api/panel/loose", {"puzzle": text})[1]


def _children(pid: int) -> set[int]:
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
def test_a_closed_server_leaves_no_worker_behind_not_even_ahead() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "fillomino", "serve", "--port", "0", "--workers", "1"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        base = proc.stdout.readline().split()[2].rstrip("/")  # type: ignore[union-attr]
        slow = EMPTY_14  # its removals are never reached: the empty grid's own loose cells take the budget
        assert post(base, "/api/panel/verdict", {"puzzle": UNIQUE})[1]["status"] == "unique"
        deadline = time.monotonic() + AHEAD_WAIT
        while ahead_state(base)["pid"] is None and time.monotonic() < deadline:
            time.sleep(0.1)
        worker = ahead_state(base)["pid"]
        assert worker in _children(proc.pid)
        def ask() -> None:
            with contextlib.suppress(Exception):  # the server is closed under it: any end will do
                post(base, "/api/panel/loose", {"puzzle": slow})

        thread = threading.Thread(target=ask, daemon=True)
        thread.start()  # a foreground question in flight too
        time.sleep(0.5)
        children = _children(proc.pid)
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(15) == 130
    deadline = time.monotonic() + 10
    while any(_running(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in children if _running(pid)]


def test_newer_grids_keep_the_question_in_flight_their_history_wants_and_kill_the_others() -> None:
    from fillomino.serve.ahead import HISTORY, Ahead

    async def go() -> None:
        def ask(name: str, puzzle: Puzzle) -> dict | None:
            # only the loose cells of the 14x14's removal, the empty grid: endless (its verdict is quick)
            wanted = puzzle.rows == 14 and name == "loose"
            return {"panel": name, "puzzle": write_id(puzzle), "seconds": 600} if wanted else None

        ahead = Ahead(ask, lambda *answer: None)
        ahead.look_at(Puzzle(14, 14, (1,) + (0,) * 195))
        key = ("loose", EMPTY_14)
        for _ in range(600):
            if key in ahead.flight:
                break
            await asyncio.sleep(0.1)
        assert list(ahead.flight) == [key]  # one lane on it, the other does not ask it again
        worker = ahead.workers[ahead.asking.index(key)]
        shared = ahead.pending(key)
        assert worker is not None and shared is not None and ahead.pending(("verdict", EMPTY_14)) is None
        ahead.look_at(Puzzle(14, 14, (2,) + (0,) * 195))  # another grid with the same removal: it is kept
        ahead.look_at(parse_puzzle(UNIQUE))  # a grid without it, but the grids before it are kept queued
        await asyncio.sleep(0.5)
        assert ahead.target == write_id(parse_puzzle(UNIQUE))
        assert list(ahead.flight) == [key] and worker.alive and not shared.done()
        for value in range(1, HISTORY):  # newer grids push both 14x14 grids out: the question is killed
            ahead.look_at(Puzzle(1, 2, (value, 0)))
        await asyncio.wait_for(worker.process.wait(), 30)
        await asyncio.sleep(0.1)
        assert shared.cancelled() and key not in ahead.flight
        await ahead.close()
        assert ahead.worker is None and ahead.pids() == []

    asyncio.run(go())


def test_back_from_taking_a_clue_out_the_background_starts_with_the_clue_after_it() -> None:
    from fillomino.serve.ahead import Ahead, taken_out

    grid = parse_puzzle(UNIQUE)
    cells = grid.clue_cells()
    without = grid.with_clues([0 if i == cells[3] else v for i, v in enumerate(grid.clues)])
    assert taken_out(grid, without) == cells[3] and taken_out(without, grid) is None
    assert taken_out(grid, grid) is None

    async def go() -> list[tuple[str, Puzzle]]:
        asked: list[tuple[str, Puzzle]] = []

        def ask(name: str, puzzle: Puzzle) -> dict | None:
            asked.append((name, puzzle))
            return None  # settled already: nothing is started

        ahead = Ahead(ask, lambda *answer: None, lanes=1)
        ahead.look_at(grid)
        ahead.look_at(without)
        ahead.look_at(without.with_clues([1] + list(without.clues[1:])))  # another clue tried meanwhile
        ahead.look_at(grid)
        for _ in range(100):
            if ahead.idle:
                break
            await asyncio.sleep(0.01)
        await ahead.close()
        return asked

    asked = asyncio.run(go())
    firsts = [puzzle for name, puzzle in asked if name == "verdict"][: len(cells)]
    gone = [taken_out(grid, puzzle) for puzzle in firsts]
    assert gone == cells[4:] + cells[:4]  # from the clue after the one taken out, round to the first


def test_queued_questions_of_grids_of_other_shapes_with_the_same_clue_tuple_are_both_kept() -> None:
    from fillomino.serve.ahead import _unique

    wide, tall = Puzzle(2, 3, (1, 0, 0, 0, 0, 0)), Puzzle(3, 2, (1, 0, 0, 0, 0, 0))
    assert _unique([("verdict", wide), ("verdict", tall), ("verdict", wide)]) == [("verdict", wide), ("verdict", tall)]
