"""Fixtures: the shared corpora folder (``data`` in tests/conftest.py's ``shared_dir``), skipped when missing."""
from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def shared_data(shared_dir: Path) -> Path:
    path = shared_dir / "data"
    if not path.is_dir():
        pytest.skip(f"shared corpora folder {path} not found (set PSAN_SHARED_DIR)")
    return path
