"""Fixtures locating the shared models (``shared_dir`` itself is in tests/conftest.py)."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def nametag_model(shared_dir: Path) -> Callable[[str], str]:
    """``nametag_model("czech-cnec2-trivial.ner")`` → path, or skip when the model is missing."""
    def locate(name: str) -> str:
        path = shared_dir / "models" / "nametag" / name
        if not path.is_file():
            pytest.skip(f"NameTag model {path} not found")
        return str(path)
    return locate
