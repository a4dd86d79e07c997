"""Validation of label fields, shared by the HTML forms, the JSON API and the CSV import so all
three accept exactly the same values."""
from __future__ import annotations

from psan.labels.csvio import has_control_chars
from psan.labels.store import CATEGORIES, NAME_MAX, REPLACEMENT_MAX


def clean_name(value: object) -> tuple[str, str | None]:
    """(normalized name, error message or None)."""
    if not isinstance(value, str):
        return "", "name must be text"
    name = value.strip()
    if not name:
        return name, "name is empty"
    if len(name) > NAME_MAX:
        return name, f"name is longer than {NAME_MAX} characters"
    if has_control_chars(name):
        return name, "name contains control characters"
    return name, None


def clean_category(value: object) -> tuple[str | None, str | None]:
    """Empty means no category; otherwise one of :data:`CATEGORIES` (case-insensitive)."""
    if value is None:
        return None, None
    if not isinstance(value, str):
        return None, "category must be text"
    category = value.strip().upper()
    if not category:
        return None, None
    if category not in CATEGORIES:
        return None, f"unknown category {value.strip()[:50]!r} (use one of {', '.join(CATEGORIES)} or leave empty)"
    return category, None


def clean_replacement(value: object) -> tuple[str | None, str | None]:
    """Empty means no fixed replacement (the output generator invents one)."""
    if value is None:
        return None, None
    if not isinstance(value, str):
        return None, "replacement must be text"
    replacement = value.strip()
    if len(replacement) > REPLACEMENT_MAX:
        return None, f"replacement is longer than {REPLACEMENT_MAX} characters"
    if has_control_chars(replacement):
        return None, "replacement contains control characters"
    return replacement or None, None
