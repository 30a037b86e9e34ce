"""A worker process of ``fillomino serve``: one JSON request per line on stdin, one JSON answer per line on stdout.

Request: ``{"panel": NAME, "puzzle": "fillomino:RxC:...", "seconds": S}`` (and for the loose cells,
optionally ``"candidates"``: rows of value lists that cover every solution); answer: the panel's JSON,
or ``{"error": MESSAGE}``. The server kills a worker whose answer nobody wants any more, so a
worker needs no way to be interrupted; it never touches the disk. ``--low-priority`` (a worker that
works ahead) gives way to every other process: nice 19, for its kernel autogroup as well.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time


def lower_priority() -> None:
    """Take the CPU only when nobody else wants it. The worker leads its own session, so on Linux it has its own
    autogroup, whose nice (not the process's) weighs it against the other sessions: both are set, the autogroup's
    only when this worker leads its session (else the group would be its caller's too)."""
    with contextlib.suppress(OSError):
        os.nice(19)
    if os.getsid(0) == os.getpid():
        with contextlib.suppress(OSError), open("/proc/self/autogroup", "w") as group:
            group.write("19")


def main() -> None:
    from ..formats import parse_id
    from ..puzzle import FillominoError, Puzzle
    from .panels import run_panel

    if "--low-priority" in sys.argv[1:]:
        lower_priority()
    out = sys.stdout
    sys.stdout = sys.stderr  # nothing but answers may reach the server's pipe
    run_panel("verdict", Puzzle(1, 1, (1,)), 1.0)  # loads the solver before the first real question
    for line in sys.stdin:
        request: dict = {}
        try:
            request = json.loads(line)
            puzzle = parse_id(request["puzzle"], "<input>")
            cpu = time.process_time()
            answer = run_panel(request["panel"], puzzle, float(request["seconds"]), request.get("candidates"))
            answer["cpu_ms"] = round(1000 * (time.process_time() - cpu), 1)
        except FillominoError as exc:
            answer = {"error": str(exc)}
        except Exception as exc:  # noqa: BLE001 - a bug in one panel must not take the worker down silently
            answer = {"error": f"internal error in the {request.get('panel')} panel: {exc!r}"}
        out.write(json.dumps(answer) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
