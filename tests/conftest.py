"""Shared test fixtures: where the external corpus lives (it is absent on a user's fresh checkout), and the
benchmark scripts loaded as modules."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXTERNAL = ROOT.parent / "shared" / "corpus-external"


def external_files() -> list[Path]:
    """Every puzzle file of ../shared/corpus-external, or [] when the folder is absent."""
    if not EXTERNAL.is_dir():
        return []
    return sorted(p for p in EXTERNAL.glob("*.txt"))


@pytest.fixture
def external_corpus() -> list[Path]:
    files = external_files()
    if not files:
        pytest.skip("../shared/corpus-external is not present")
    return files


def load_benchmark(script: str) -> ModuleType:
    """benchmarks/``script`` loaded as a module (the folder is not a package), to test its functions."""
    spec = importlib.util.spec_from_file_location(f"benchmark_{Path(script).stem}", ROOT / "benchmarks" / script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
