"""Fixtures of the store tests (the app and database fixtures are in tests/conftest.py)."""
from __future__ import annotations

import pytest

from tests.people import add_grouped_document


@pytest.fixture()
def document(clean_app) -> int:
    """A pre-annotated document of several people, grouped into entities (tests/people.py)."""
    return add_grouped_document(clean_app)
