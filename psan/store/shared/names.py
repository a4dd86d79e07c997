"""Names people give things (documents, projects, accounts, labels): no invisible control characters.

Why: a right-to-left override (U+202E) or a zero-width character in a file, project, user or label
name reorders or hides the text around it wherever the name is shown (an audit reversed the page
header with one).  Such characters (Unicode categories Cc and Cf: C0/C1 controls, bidi embeddings,
overrides and isolates, zero-width spaces and joiners, the BOM, soft hyphens) are removed from free
names, and refused in label names where the form says what is wrong.  The templates isolate user
text as well (the ``bdi`` filter, :func:`bdi`), for names stored before this rule.
"""
from __future__ import annotations

import unicodedata

from markupsafe import Markup


def is_invisible_control(ch: str) -> bool:
    """A control or format character (not ordinary whitespace)."""
    return unicodedata.category(ch) in ("Cc", "Cf") and not ch.isspace()


def has_invisible_controls(value: str) -> bool:
    return any(is_invisible_control(ch) for ch in value)


def clean_name(value: str, fallback: str = "") -> str:
    """The name without control/format characters, whitespace runs collapsed to one space."""
    kept = "".join(" " if ch.isspace() else ch for ch in value if not is_invisible_control(ch))
    return " ".join(kept.split()) or fallback


def bdi(value: object) -> Markup:
    """Jinja filter: user text isolated from the surrounding text direction (escaped, never raw HTML)."""
    return Markup("<bdi>%s</bdi>") % ("" if value is None else value)


def init_app(app) -> None:
    app.add_template_filter(bdi, "bdi")
