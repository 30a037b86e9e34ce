"""A long-lived worker process that runs a script with one source tree first on the path (``PYTHONPATH=TREE``),
for the A/B scripts that compare two trees, compiled builds included (rate_trees.py, generate_trees.py).

The script prints one JSON line with the path of the ``fillomino.grid`` it imported (``.so``: compiled), then
answers each line it reads on standard input with one JSON line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence


class TreeWorker:
    def __init__(self, tree: str, script: str, args: Sequence[str] = ()) -> None:
        self.tree = tree
        self.proc = subprocess.Popen([sys.executable, "-c", script, *args], cwd=tree, text=True,
                                     env={**os.environ, "PYTHONPATH": tree},
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.grid = self._answer()["grid"]

    def _answer(self) -> dict:
        assert self.proc.stdout is not None
        return json.loads(self.proc.stdout.readline())

    def ask(self, line: str) -> dict:
        """Send one line; the worker's answer."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self._answer()

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()
