"""One progress display for every long command: a tqdm bar on stderr when it is a terminal, else nothing.

Commands open a :class:`Progress` around their loop and call :meth:`Progress.advance` per item done.
No bar when stderr is not a terminal (CI logs, pipes) or when the user asked for ``--quiet``; tqdm is
imported only when a bar is really drawn, so short commands pay nothing for it.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO


class Progress:
    """``with Progress(total, "certifying", unit="puzzle") as bar: ... bar.advance(failed=2)``.

    ``total`` may be None when the amount of work is not known (the bar then counts up). ``enabled``
    forces the bar on or off; by default it is on exactly when stderr is a terminal and ``quiet`` is off.
    """

    def __init__(self, total: int | None, desc: str, *, unit: str = "it", quiet: bool = False,
                 enabled: bool | None = None) -> None:
        self.total, self.desc, self.unit = total, desc, unit
        self.enabled = (not quiet and sys.stderr.isatty()) if enabled is None else enabled
        self.done = 0
        self._bar: Any = None

    def __enter__(self) -> Progress:
        if self.enabled:
            from tqdm import tqdm

            self._bar = tqdm(total=self.total, desc=self.desc, unit=self.unit, file=sys.stderr,
                             dynamic_ncols=True, leave=False)
        return self

    def advance(self, n: int = 1, **status: object) -> None:
        """``n`` more items done; ``status`` (say ``failed=2``) is shown after the bar."""
        self.done += n
        if self._bar is not None:
            if status:
                self._bar.set_postfix(status, refresh=False)
            self._bar.update(n)

    def note(self, text: str) -> None:
        """Change the text before the bar (say, which puzzle is being worked on)."""
        if self._bar is not None:
            self._bar.set_description_str(f"{self.desc} {text}".strip())

    def write(self, line: str, stream: TextIO | None = None) -> None:
        """Print a line (to stderr unless ``stream`` says otherwise) above the bar without breaking it."""
        stream = stream or sys.stderr
        if self._bar is not None:
            self._bar.write(line, file=stream)
        else:
            print(line, file=stream, flush=True)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
