"""Ctrl-C on every long-running command: exit 130, one line on stderr, no traceback, no process left behind
(issue 23). Each command gets a question it cannot finish before the signal, sent once it has used 1.5 CPU seconds."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HARD = ROOT / "corpus" / "30x30" / "30x30-s2.txt"
DRAFT_SOURCE = ROOT / "corpus" / "10x10" / "10x10-s0.txt"


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> dict[str, Path]:
    if not HARD.exists() or not DRAFT_SOURCE.exists():
        pytest.skip("corpus puzzles not present")
    from fillomino.formats import read_puzzle

    folder = tmp_path_factory.mktemp("interrupt")
    hard = folder / "hard.txt"  # without its solution block: the engines must find an answer themselves
    hard.write_text(HARD.read_text().split("solution:")[0])
    puzzle = read_puzzle(str(DRAFT_SOURCE))
    clues = list(puzzle.clues)
    for i in [i for i, v in enumerate(clues) if v][::2]:  # half the clues gone: a draft with many answers
        clues[i] = 0
    rows = ["".join(str(v) if v else "." for v in clues[r * 10 : (r + 1) * 10]) for r in range(10)]
    draft = folder / "draft.txt"
    draft.write_text("genre: fillomino\ngrid:\n" + "\n".join(rows) + "\n")
    return {"hard": hard, "draft": draft, "results": folder / "results.jsonl", "svg": folder / "hard.svg"}


CALLS = {
    "unique": ["unique", "{hard}"],
    "solve": ["solve", "{hard}"],
    "ambiguity": ["ambiguity", "{draft}"],
    "count": ["count", "{draft}"],
    "generate": ["generate", "--size", "12x12", "--count", "40", "--workers", "2"],
    "rate": ["rate", "{hard}"],
    "certify": ["certify", "{hard}", "--workers", "1", "--results", "{results}"],
    "crosscheck": ["crosscheck", "{hard}", "--workers", "1"],
    "suggest": ["suggest", "{hard}"],
    "render": ["render", "{hard}", "--solution", "-o", "{svg}"],
}


def _group_cpu_seconds(pgid: int) -> float:
    """CPU seconds the process group has used so far (Linux /proc): past imports means mid-solve."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # fields after the name: state, ppid, pgrp, ... utime (12), stime (13)
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _wait_until_busy(proc: subprocess.Popen, cpu_seconds: float = 1.5, timeout: float = 60) -> None:
    """Wait until the command is past its imports and into the work, however loaded the machine is."""
    deadline = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < deadline:
        if not Path("/proc/self/stat").exists():
            time.sleep(2.0)
            return
        if _group_cpu_seconds(proc.pid) >= cpu_seconds:
            return
        time.sleep(0.05)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("name", sorted(CALLS))
def test_ctrl_c_exits_130_with_one_line_and_leaves_no_process(inputs, name):
    argv = [a.format(**inputs) for a in CALLS[name]]
    proc = subprocess.Popen([sys.executable, "-m", "fillomino", *argv], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    _wait_until_busy(proc)
    assert proc.poll() is None, f"{name} finished before the signal: give it a harder question"
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C sends: the whole process group
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fillomino: interrupted"), err
    deadline = time.monotonic() + 10
    while _group_alive(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    stray = _group_alive(proc.pid)
    if stray:
        os.killpg(proc.pid, signal.SIGKILL)
    assert not stray, f"{name} left a process behind after Ctrl-C"
    if name == "certify" and inputs["results"].exists():
        assert '"failed"' not in inputs["results"].read_text()


def test_ctrl_c_inside_a_big_multiplication_is_a_keyboard_interrupt():
    """CPython looks for a pending signal inside a big-int multiplication and fails it with KeyboardInterrupt; mypyc
    takes a failed int multiplication for out of memory, so a compiled ``a * b`` on big ints aborted the process
    ("fatal: out of memory", exit 134: seen once in CI, a worker of `generate --workers 2` at Ctrl-C). The compiled
    modules multiply what may be big through ``ints.product``, which the signal interrupts cleanly."""
    code = (
        "import signal\n"
        "from fillomino.ints import product\n"
        "def stop(*_):\n"
        "    raise KeyboardInterrupt\n"
        "signal.signal(signal.SIGALRM, stop)\n"
        "a = (1 << 4_000_000) - 1\n"  # about 0.7 s to multiply: the alarm lands inside it
        "signal.setitimer(signal.ITIMER_REAL, 0.05)\n"
        "try:\n"
        "    product(a, a - 2)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "interrupted\n", "")


def test_product_is_the_product():
    from fillomino.ints import SMALL, product

    values = [0, 1, -1, 7, SMALL - 1, SMALL, -SMALL, 1 << 62, (1 << 200) + 3, -(1 << 90)]
    assert all(product(a, b) == a * b for a in values for b in values)
