"""Undo from the workspace pages (the home page's history, the search page's bulk decision)."""
from __future__ import annotations

from flask import abort, flash, request
from flask_babel import gettext
from flask_login import current_user

from psan.annotate import workflow
from psan.runtime import db
from psan.store.annotation.actions import Undone
from psan.store.annotation.decisions import DecisionError
from psan.web import action_refs
from psan.web.ids import ascii_digits


def undo_posted_action() -> None:
    """Undo the posted ``action_id`` of the caller (only the author may: psan.store.annotation.actions) and say so."""
    raw = request.form.get("action_id", "")
    if not ascii_digits(raw) or len(raw) > 18:
        abort(400)
    try:
        undone = workflow.undo(db.get_conn(), current_user.id, action_refs.from_ref(int(raw)) or 0)
    except DecisionError as exc:
        flash(str(exc), "warning")
    else:
        _say_undone(undone)


def _say_undone(undone: Undone) -> None:
    """How much the undo restored; an entity decision's count would count mentions outside the window."""
    if undone.shown_spans is None:
        flash(gettext("Undone."), "success")
    else:
        flash(gettext("Undone: %(n)s decisions restored.", n=undone.shown_spans), "success")
