"""Validation of label fields, shared by the HTML forms, the JSON API and the CSV import so all
three accept exactly the same values."""
from __future__ import annotations

from flask_babel import gettext

from psan.store.admin.labels import CATEGORIES, NAME_MAX, REPLACEMENT_MAX
from psan.store.shared.names import has_invisible_controls
from psan.web.csvio import has_control_chars


def clean_name(value: object) -> tuple[str, str | None]:
    """(normalized name, error message or None)."""
    if not isinstance(value, str):
        return "", gettext("name must be text")
    name = value.strip()
    if not name:
        return name, gettext("name is empty")
    if len(name) > NAME_MAX:
        return name, gettext("name is longer than %(limit)s characters", limit=NAME_MAX)
    if has_control_chars(name) or has_invisible_controls(name):
        return name, gettext("name contains control characters")
    return name, None


def clean_category(value: object) -> tuple[str | None, str | None]:
    """Empty means no category; otherwise one of :data:`CATEGORIES` (case-insensitive)."""
    if value is None:
        return None, None
    if not isinstance(value, str):
        return None, gettext("category must be text")
    category = value.strip().upper()
    if not category:
        return None, None
    if category not in CATEGORIES:
        return None, gettext("unknown category %(value)s (use one of %(categories)s or leave empty)",
                             value=repr(value.strip()[:50]), categories=", ".join(CATEGORIES))
    return category, None


def clean_replacement(value: object) -> tuple[str | None, str | None]:
    """Empty means no fixed replacement (the output generator invents one)."""
    if value is None:
        return None, None
    if not isinstance(value, str):
        return None, gettext("replacement must be text")
    replacement = value.strip()
    if len(replacement) > REPLACEMENT_MAX:
        return None, gettext("replacement is longer than %(limit)s characters", limit=REPLACEMENT_MAX)
    if has_control_chars(replacement) or has_invisible_controls(replacement):
        return None, gettext("replacement contains control characters")
    return replacement or None, None
