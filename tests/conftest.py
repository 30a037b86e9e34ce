"""Shared test fixtures: where the external corpus lives (it is absent on a user's fresh checkout)."""

from __future__ import annotations

from pathlib import Path

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
