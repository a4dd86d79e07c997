"""The caller's window size and the cap it puts on what they are shown (one place for every page and API).

The rule itself (how much of a window a size allows, what is elided) is
:mod:`psan.store.annotation.visibility`; this module only reads the caller: annotators are capped by
their own window size, administrators are not (they see what they open).
"""
from __future__ import annotations

from flask import current_app
from flask_login import current_user


def window_size(size: int | None = None) -> int:
    """The caller's window size (or ``size`` where an admin asks for one), at least 10 tokens."""
    return max(10, size or current_user.window_size or current_app.config.get("DEFAULT_WINDOW_SIZE", 300))


def shown_size() -> int | None:
    """The window size that caps what the caller is shown; ``None`` for administrators (no cap)."""
    return None if current_user.is_admin else window_size()
