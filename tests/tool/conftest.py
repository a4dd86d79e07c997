"""Fixtures locating the shared models/data (``$PSAN_SHARED_DIR`` or ``<repo>/../shared``)."""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def shared_path() -> Path:
    return Path(os.environ.get("PSAN_SHARED_DIR", REPO.parent / "shared"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    path = shared_path()
    if not path.is_dir():
        pytest.skip(f"shared models/data directory {path} not found (set PSAN_SHARED_DIR)")
    return path


@pytest.fixture(scope="session")
def nametag_model(shared_dir: Path) -> Callable[[str], str]:
    """``nametag_model("czech-cnec2-trivial.ner")`` → path, or skip when the model is missing."""
    def locate(name: str) -> str:
        path = shared_dir / "models" / "nametag" / name
        if not path.is_file():
            pytest.skip(f"NameTag model {path} not found")
        return str(path)
    return locate
