"""Helpers for the serve tests (no tests here): start ``fillomino serve`` on a free loopback port, POST to its API."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("FILLOMINO_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("FILLOMINO_CHROMEDRIVER", "/usr/bin/chromedriver")
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage")
"""Headless Debian Chromium as root on a machine whose network is closed (no background connections)."""


@contextlib.contextmanager
def running_server(*args: str, root: Path = ROOT) -> Iterator[str]:
    """The base URL of a ``fillomino serve --port 0`` started for the test, stopped with Ctrl-C after it;
    ``root``: the source tree it runs (a benchmark may compare another one)."""
    env = dict(os.environ, PYTHONPATH=str(root))
    proc = subprocess.Popen(
        [sys.executable, "-m", "fillomino", "serve", "--port", "0", "--workers", "2", *args],
        cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        if "http://" not in line:
            proc.kill()
            raise RuntimeError(f"fillomino serve did not start: {line!r} {proc.stderr.read()!r}")  # type: ignore[union-attr]
        for stream in (proc.stdout, proc.stderr):  # drained, so a chatty server never blocks on a full pipe
            threading.Thread(target=stream.read, daemon=True).start()  # type: ignore[union-attr]
        yield line.split()[2].rstrip("/")
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def ahead_state(base: str, boost: bool = False) -> dict:
    """The server's ``/api/ahead``; ``boost`` sets its background workers back to a normal priority (as root),
    so that a test gets an answer on a machine kept busy by a process of higher priority."""
    with urllib.request.urlopen(base + "/api/ahead", timeout=60) as res:
        state = json.loads(res.read())
    pids = state.get("pids", [state["pid"]] if state.get("pid") else [])  # an older server has one worker
    for pid in pids if boost else []:
        with contextlib.suppress(OSError, ValueError):  # it lowers both itself once its imports are done
            if os.getpriority(os.PRIO_PROCESS, pid) > 0:
                os.setpriority(os.PRIO_PROCESS, pid, 0)
            with open(f"/proc/{pid}/autogroup") as group:  # "/autogroup-N nice K"
                lowered = int(group.read().split()[-1]) > 0
            if lowered:
                with open(f"/proc/{pid}/autogroup", "w") as group:
                    group.write("0")
    return state


def post(base: str, path: str, body: object, raw: bool = False) -> tuple[int, object]:
    """(status, JSON answer or raw bytes) of one POST."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    request = urllib.request.Request(base + path, data=data, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as res:
            content = res.read()
            return res.status, content if raw else json.loads(content)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())
