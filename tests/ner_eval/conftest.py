"""Fixtures: the shared data folder (``$PSAN_SHARED_DIR`` or ``<repo>/../shared``), skipped when missing."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def shared_data() -> Path:
    path = Path(os.environ.get("PSAN_SHARED_DIR") or REPO.parent / "shared") / "data"
    if not path.is_dir():
        pytest.skip(f"shared corpora folder {path} not found (set PSAN_SHARED_DIR)")
    return path
