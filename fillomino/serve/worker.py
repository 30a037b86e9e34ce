"""A worker process of ``fillomino serve``: one JSON request per line on stdin, one JSON answer per line on stdout.

Request: ``{"panel": NAME, "puzzle": "fillomino:RxC:...", "seconds": S}`` (and for the loose cells,
optionally ``"candidates"``: rows of value lists that cover every solution); answer: the panel's JSON,
or ``{"error": MESSAGE}``. The server kills a worker whose answer nobody wants any more, so a
worker needs no way to be interrupted; it never touches the disk.
"""

from __future__ import annotations

import json
import sys
import time


def main() -> None:
    from ..formats import parse_id
    from ..puzzle import FillominoError, Puzzle
    from .panels import run_panel

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
