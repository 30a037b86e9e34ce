"""An older commit's fillomino package, imported beside today's: for benchmarks that time before and after in one
process, so that both see the same load."""

from __future__ import annotations

import atexit
import importlib
import io
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def module_at(rev: str, module: str) -> ModuleType:
    """``fillomino.<module>`` as it was at commit ``rev``: its whole package, from ``git archive``, unpacked as
    ``fillomino_at_<rev>`` (it imports itself only relatively) into a temporary folder removed when this process
    ends."""
    name = "fillomino_at_" + re.sub(r"\W", "_", rev)
    if name not in sys.modules:
        where = Path(tempfile.mkdtemp(prefix="fillomino-at-"))
        atexit.register(shutil.rmtree, where, ignore_errors=True)
        archive = subprocess.run(["git", "archive", rev, "fillomino"], cwd=ROOT, capture_output=True,
                                 check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(where / "unpacked", filter="data")
        (where / "unpacked" / "fillomino").rename(where / name)
        sys.path.insert(0, str(where))
    return importlib.import_module(f"{name}.{module}")
