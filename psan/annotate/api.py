"""JSON API of the annotation window (CSRF token in the ``X-CSRFToken`` header for POSTs).

Routes (all for logged-in accounts unless noted):

* ``GET  /annotate/api/window`` – the current window (assigned on first use); with
  ``?document_id=&first_token=&end_token=`` a part of it – anything outside the window is 403.
* ``POST /annotate/api/next`` – leave the window for a new one (409 while it has undecided spans
  and the annotator decided nothing in it); in a project that reviews by risk, once no span waits, the next
  text routed to reading (as ``read``).
* ``POST /annotate/api/read`` – the next stretch of unread text the project routes to reading in full
  (:mod:`psan.store.review.risk_review`); ``window: null`` when none is left.  A reading window's answer has
  ``routing: {kind, reason, risk, why}`` — why it is shown, in words (:mod:`psan.annotate.reading_reasons`).
* ``POST /annotate/api/open`` – admins: ``{document_id, start, size}`` opens any position.
* ``POST /annotate/api/decide`` – ``{document_id, first_token, end_token, decision, scope,
  label_id?, always?, ne_type?}``; scope ``token`` / ``word_type`` / ``ne_type`` / ``entity`` (every
  mention of the span's entity: :mod:`psan.store.annotation.entity_decisions`).
* ``POST /annotate/api/accept`` – ``{document_id}``: decide every suspicious span of the window that
  has a suggestion, as suggested, by token only (no project rule is created; spans that are never
  public by suggestion have none and are left); ``accepted``: how many spans it decided.
* ``POST /annotate/api/undo`` – ``{action_id?}``: undo one of the caller's own actions (without an id:
  the newest one not undone; key ``u``): every decision and rule it changed, here and in other
  documents (:mod:`psan.store.annotation.actions`).  Answers the window as a decision does, plus ``undone``;
  404 unknown or someone else's action, 409 nothing to undo / undone already / a later action
  changed the same rows.
* ``GET  /annotate/api/history`` – the caller's own actions, newest first (``?limit=``, at most 200):
  ``{actions: [{id, kind, decision, created_at, undone, document_id, first_token, end_token, spans,
  rules}]}``.
* Every deciding answer (decide, accept, label) carries ``action_id``: the action to undo.  Action ids here and in
  the history are the numbers :mod:`psan.web.action_refs` shows, not database ids.
* ``POST /annotate/api/label`` – ``{document_id, first_token, end_token, label_id | label_name
  [+ label_category], always?}`` marks the span private with that (possibly new) label.
* ``GET  /annotate/api/annotation/<id>`` – why an annotation of the window is decided; ``id`` is the
  annotation's ``id`` in the window JSON (``"<first_token>-<end_token>"``: nothing the window does not
  show; the window JSON carries no document-wide count either).
* ``GET  /annotate/api/entity?document_id=&first_token=&end_token=`` – the entity of a span of the
  window (key, category, counts, the label to propose); ``POST /annotate/api/entity/merge``
  ``{document_id, first_token, end_token, other_first_token, other_end_token}`` merges the other
  span's entity into this one's; ``POST /annotate/api/entity/split`` ``{document_id, first_token,
  end_token}`` makes the span an entity of its own (see :mod:`psan.store.annotation.entities`).

``decide``, ``accept`` and ``label`` take an optional ``request_id`` (8–64 of ``[A-Za-z0-9_-]``): a
retry with the id of a request that was saved answers the window with ``already_saved: true`` and
decides nothing again (the page retries a lost answer with the same id).
"""
from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import psycopg2.errors
from flask import current_app, jsonify, request
from flask_babel import gettext
from flask_login import current_user
from werkzeug.exceptions import HTTPException, NotFound

from psan.annotate import validate, workflow
from psan.annotate.blueprint import bp
from psan.annotate.content import annotation_ref, elided_range, parse_annotation_ref, window_json
from psan.annotate.detail import annotation_detail
from psan.annotate.entity_view import annotator_entity
from psan.annotate.reading_reasons import routing_json
from psan.runtime import db
from psan.store.admin import project_labels
from psan.store.admin import projects as store_projects
from psan.store.annotation import decision_requests, visibility, window_content
from psan.store.annotation import decisions as store_decisions
from psan.store.annotation import windows as store_windows
from psan.store.annotation.windows import Window
from psan.store.corpus import document_text
from psan.store.review import risk_review as store_risk
from psan.store.shared.document_status import ANNOTATABLE
from psan.web import action_refs, shown
from psan.web.access import admin, user
from psan.web.code_names import action_name, decision_name, status_name
from psan.web.ids import ascii_digits

log = logging.getLogger(__name__)


class Refused(HTTPException):
    """403 with a message for the annotator (outside the window, expired window …)."""

    code = 403


class Conflict(HTTPException):
    code = 409


@bp.errorhandler(psycopg2.errors.TransactionRollbackError)
@bp.errorhandler(psycopg2.errors.LockNotAvailable)
@bp.errorhandler(psycopg2.errors.ForeignKeyViolation)
def _concurrent_change(exc: Exception):
    """A deadlock, serialization failure or a rule deleted under the write (409); what was not committed
    is rolled back, and the message says "nothing was saved" only when nothing was committed before."""
    log.warning("annotation request rolled back after a concurrent change: %s", exc.__class__.__name__)
    db.mark_rollback()
    if db.request_may_have_saved():
        message = gettext("Someone changed this document at the same moment. Your decision may have been saved "
                          "in part; check the window before trying again.")
    else:
        message = gettext("Someone changed this document at the same moment; nothing was saved. Try again.")
    if request.path.startswith("/annotate/api/"):
        return jsonify(error=message), 409
    return Conflict(message)


@bp.errorhandler(HTTPException)
def _json_error(exc: HTTPException):
    """The API always answers JSON, whatever the Accept header said."""
    if request.path.startswith("/annotate/api/"):
        return jsonify(error=exc.description or exc.name), exc.code or 500
    return exc


def _lease_seconds() -> int:
    return int(current_app.config.get("WINDOW_LEASE_SECONDS", 900))


def _window_size(size: int | None = None) -> int:
    return shown.window_size(size)


def _payload() -> dict[str, Any]:
    return validate.json_object(request.get_json(silent=True))


def _owned_window(conn) -> Window:
    """The caller's window, checked: it exists, is not lost to another annotator, project still allowed."""
    window = store_windows.current_window(conn, current_user.id)
    if window is None:
        raise Refused(gettext("You have no annotation window; request one first."))
    if store_windows.lost_to_other(conn, window):
        raise Refused(gettext("Your annotation window expired and was given to someone else; request a new one."))
    if not (current_user.is_admin or window.member):  # membership read with the window
        store_windows.release(conn, current_user.id)
        raise Refused(gettext("You may no longer annotate this project."))
    return window


def _shown_size() -> int | None:
    """The annotator's window size, which caps what a window shows (admins: no cap)."""
    return shown.shown_size()


def _check_span(window: Window, document_id: int, first: int, end: int) -> None:
    """Refuse (403) anything outside the window, including forged document ids, and the elided middle
    of an over-long window (:func:`psan.annotate.content.elided_range`: never shown, never decided alone)."""
    if document_id != window.document_id or not _shows(window, first, end):
        raise Refused(gettext("That text is outside your annotation window."))


def _shows(window: Window, first: int, end: int) -> bool:
    """Is the span ``[first, end)`` of the window's document one the caller is shown: inside the window, not in its
    elided middle?"""
    return window.contains(first, end) and not visibility.hidden_span(first, end, _hidden(window))


def _nothing_to_annotate(conn) -> str:
    """Why there is no window: an annotator in no project must learn whom to ask, not wait for work."""
    if not current_user.is_admin and store_projects.membership_count(current_user.id, conn) == 0:
        return gettext("You are not in any project yet, so there is nothing to annotate. Ask an administrator "
                       "to add you to a project: %(admins)s.",
                       admins=", ".join(store_projects.admin_contacts(conn=conn)) or gettext("the administrator"))
    return gettext("Nothing is left to annotate right now.")


def _window_answer(conn, window: Window | None, **extra: Any):
    if window is None:
        return jsonify(window=None, message=_nothing_to_annotate(conn), **extra)
    response = jsonify(**window_json(conn, window, current_user.is_admin, size=_shown_size()), **extra)
    if window.recognized_at is not None and document_text.cached(window.document_id, window.recognized_at) is None:
        # answered from range reads: load the whole document once the annotator has the answer
        app, document_id, stamp = current_app._get_current_object(), window.document_id, window.recognized_at
        response.call_on_close(lambda: _load_document_text(app, document_id, stamp))
    return response


def _load_document_text(app, document_id: int, stamp: Any) -> None:
    """Cache a document's text and token offsets in this process (after a response: nobody waits for it).

    Why: the next decision's word-type search and every later window read them from the cache; the
    first window of a process was answered from range reads instead of waiting for a 10^6-token load.
    Never raises: the answer is sent; a failed load is retried by the next request that needs it.
    """
    try:
        with app.app_context(), db.transaction(app) as conn:
            document_text.document_text(conn, document_id, stamp)
    except Exception:  # noqa: BLE001 - best effort, after the response
        log.warning("could not cache document %s after the response", document_id, exc_info=True)


def _release_assignment_lock(conn) -> None:
    """Commit the new lease now: window choices are serialized by a transaction-scoped lock, and the
    answer (tokens, annotations) only reads, so 20 annotators must not wait for each other's rendering."""
    db.autocommit_from_here(conn)


@bp.route("/api/window", methods=["GET"])
@user
def api_window():
    conn = db.get_conn()
    if any(k in request.args for k in ("document_id", "first_token", "end_token")):
        values: dict[str, Any] = {}
        for key in ("document_id", "first_token", "end_token"):
            raw = request.args.get(key, "")
            values[key] = int(raw) if ascii_digits(raw) and len(raw) < 19 else raw
        document_id, first, end = validate.span(values)
        window = _owned_window(conn)
        _check_span(window, document_id, first, end)
        store_windows.renew(conn, current_user.id, _lease_seconds())
        return jsonify(**window_json(conn, window, current_user.is_admin, first, end, size=_shown_size()))
    window = store_windows.current_window(conn, current_user.id)
    if window is not None and (store_windows.lost_to_other(conn, window)
                               or not (current_user.is_admin or window.member)):
        window = None
    if window is None:
        return _assign_next(conn)
    else:
        window = store_windows.renew_window(conn, current_user.id, _lease_seconds())
    return _window_answer(conn, window)


@bp.route("/api/next", methods=["POST"])
@user
def api_next():
    conn = db.get_conn()
    window = store_windows.current_window(conn, current_user.id)
    if (window is not None and not current_user.is_admin and window.decisions == 0
            and not store_windows.lost_to_other(conn, window)
            and store_windows.has_undecided(conn, window, _hidden(window))):
        raise Conflict(gettext("Decide at least one highlighted span in this window before moving on."))
    return _assign_next(conn)


@bp.route("/api/read", methods=["POST"])
@user
def api_read():
    """The next stretch of text the project routes to reading in full (review by risk: the risky sentences nobody
    read; read everything: every sentence no window showed), or ``window: null`` when none is left."""
    conn = db.get_conn()
    window = store_windows.current_window(conn, current_user.id)
    if (window is not None and not current_user.is_admin and window.decisions == 0
            and not store_windows.lost_to_other(conn, window)
            and store_windows.has_undecided(conn, window, _hidden(window))):
        raise Conflict(gettext("Decide at least one highlighted span in this window before moving on."))
    reading = store_risk.assign_reading(conn, current_user.id, current_user.is_admin, _window_size(),
                                        _lease_seconds())
    if reading is None:
        store_windows.release(conn, current_user.id)
        return jsonify(window=None, message=gettext("No text is left to read."))
    return _window_answer(conn, reading.window, routing=routing_json(reading))


def _assign_next(conn):
    """The next span window; in a project that reviews by risk, when no span waits, the next text to read.

    Returns the JSON answer."""
    db.autocommit_from_here(conn)  # the claim then commits by itself, holding the lock one statement
    window = store_windows.assign_next(conn, current_user.id, current_user.is_admin, _window_size(), _lease_seconds())
    _release_assignment_lock(conn)
    if window is not None:
        return _window_answer(conn, window)
    conn.autocommit = False  # the document's window lock holds until the reading lease is committed
    reading = store_risk.assign_reading(conn, current_user.id, current_user.is_admin, _window_size(),
                                        _lease_seconds(), by_risk_only=True)
    if reading is None:
        return _window_answer(conn, None)
    return _window_answer(conn, reading.window, routing=routing_json(reading))


@bp.route("/api/open", methods=["POST"])
@admin
def api_open():
    payload = _payload()
    document_id = validate.integer(payload, "document_id", validate.MAX_ID)
    start = validate.integer(payload, "start", required=False) or 0
    size = validate.integer(payload, "size", store_windows.MAX_ADMIN_WINDOW, required=False)
    conn = db.get_conn()
    doc = store_windows.document_for_admin(conn, document_id)
    if doc is None:
        raise _not_found()
    if doc["status"] not in ANNOTATABLE or doc["token_count"] == 0:
        raise Conflict(gettext("The document is %(status)s; it has no annotatable text yet.",
                                status=status_name(doc["status"])))
    exact = payload.get("exact", False)
    if not isinstance(exact, bool):
        raise validate.Invalid(gettext("exact must be true or false"))
    window = store_windows.open_at(conn, current_user.id, doc["id"], start, _window_size(size), _lease_seconds(),
                                   exact)
    return _window_answer(conn, window)


def _not_found() -> HTTPException:
    return NotFound(gettext("Not found."))


def _label_of_project(conn, project_id: int, label_id: int | None) -> int | None:
    if label_id is None:
        return None
    if not project_labels.label_in_project(conn, project_id, label_id):
        raise validate.Invalid(gettext("unknown label"))
    return label_id


def _decision_target(conn, payload: dict[str, Any], document_id: int, first: int,
                     end: int) -> tuple[Window, store_decisions.Span, int | None]:
    """The caller's window, the span checked against it, and the payload's label (of the window's project)."""
    window = _owned_window(conn)
    _check_span(window, document_id, first, end)
    label_id = _label_of_project(conn, window.project_id,
                                 validate.integer(payload, "label_id", validate.MAX_ID, required=False))
    return window, store_decisions.Span(window.project_id, document_id, first, end), label_id


@contextlib.contextmanager
def _refused_decision() -> Iterator[None]:
    """A decision the store refuses (:class:`psan.store.annotation.decisions.DecisionError`): 400 to the annotator."""
    try:
        yield
    except store_decisions.DecisionError as exc:
        raise validate.Invalid(str(exc)) from None


@bp.errorhandler(workflow.AlreadySaved)
def _already_saved(exc: workflow.AlreadySaved):
    """A retry of a request that was saved (its ``request_id`` is known): the window as it is, nothing again."""
    conn = db.get_conn()
    conn.rollback()  # only the claim was tried; the request's transaction wrote nothing else
    return _window_answer(conn, store_windows.current_window(conn, current_user.id), already_saved=True)


def _ref_of(conn, outcome: store_decisions.Outcome) -> str | None:
    """The window's id (:func:`psan.annotate.content.annotation_ref`) of the outcome's decided annotation row.

    The span of one decision is known (:attr:`psan.store.annotation.decisions.Outcome.span_types`); the row
    is read only for merged outcomes.
    """
    if outcome.span_types is not None:
        span = outcome.span_types[0]
        return annotation_ref(span.first_token, span.end_token)
    row = window_content.annotation_span(conn, outcome.annotation_id) if outcome.annotation_id else None
    return annotation_ref(row["first_token"], row["end_token"]) if row else None


def _decided_answer(conn, decided: workflow.Decided, **extra: Any):
    db.autocommit_from_here(conn)  # the decision is saved: the answer only reads
    window = decided.window or store_windows.current_window(conn, current_user.id)
    if window is not None and decided.status:  # read before the decision: the status it left
        window = replace(window, document_status=decided.status)
    return _window_answer(conn, window, annotation_id=_ref_of(conn, decided.outcome),
                          document_status=decided.status,
                          rules_changed=decided.outcome.rules_changed,
                          action_id=action_refs.to_ref(decided.action_id) if decided.action_id else None, **extra)


@bp.route("/api/decide", methods=["POST"])
@user
@db.lean  # reads as single statements, the decision one transaction begun and committed by text
def api_decide():
    payload = _payload()
    document_id, first, end = validate.span(payload)
    decision = validate.decision(payload)
    if payload.get("scope") == "entity":
        return _decide_entity(payload, document_id, first, end, decision)
    try:
        scope = store_decisions.Scope(payload.get("scope", "token"))
    except (ValueError, TypeError):
        raise validate.Invalid(gettext("scope must be token, word_type, ne_type or entity")) from None
    always = validate.flag(payload, "always")
    ne_type = validate.optional_text(payload, "ne_type")
    conn = db.get_conn()
    window, span, label_id = _decision_target(conn, payload, document_id, first, end)
    with _refused_decision():
        decided = workflow.decide_span(conn, window, span, scope, decision, current_user.id, label_id=label_id,
                                       always=always, ne_type=ne_type, lease_seconds=_lease_seconds(),
                                       request_id=validate.request_id(payload))
    return _decided_answer(conn, decided, category_needed=decided.category_needed)


def _decide_entity(payload: dict[str, Any], document_id: int, first: int, end: int, decision: str):
    """``scope: "entity"``: every mention of the span's entity, here and in the project's other documents."""
    conn = db.get_conn()
    window, span, label_id = _decision_target(conn, payload, document_id, first, end)
    with _refused_decision():
        decided = workflow.decide_entity(conn, window, span, decision, current_user.id, label_id=label_id,
                                         lease_seconds=_lease_seconds(), request_id=validate.request_id(payload))
    kept = [span for span in decided.outcome.kept_private if _shows(window, *span)]  # nothing outside the window
    return _decided_answer(conn, decided, category_needed=False, kept_private=len(kept))


@bp.route("/api/accept", methods=["POST"])
@user
def api_accept():
    """Accept the suggestions of every suspicious span left in the window (one key: ``a``)."""
    payload = _payload()
    document_id = validate.integer(payload, "document_id", validate.MAX_ID)
    conn = db.get_conn()
    window = _owned_window(conn)
    if document_id != window.document_id:
        raise Refused(gettext("That text is outside your annotation window."))
    request_id = validate.request_id(payload)
    with _refused_decision():
        decided = workflow.accept_suggestions(conn, window, current_user.id, lease_seconds=_lease_seconds(),
                                              request_id=request_id, elided=_hidden(window))
    if decided is None:
        if request_id is not None and decision_requests.seen(conn, current_user.id, request_id):
            raise workflow.AlreadySaved(request_id)  # the retry of an accept that was saved: nothing left now
        raise Conflict(gettext("Nothing is left to accept in this window."))
    return _decided_answer(conn, decided, accepted=decided.spans)


@bp.route("/api/undo", methods=["POST"])
@user
def api_undo():
    """Undo one of the caller's own actions (key ``u``; the history list names the others)."""
    payload = _payload()
    shown = validate.integer(payload, "action_id", validate.MAX_ID, required=False)
    action_id = None if shown is None else action_refs.from_ref(shown) or 0  # (0: no such action: a 404)
    conn = db.get_conn()
    try:
        undone = workflow.undo(conn, current_user.id, action_id)
    except store_decisions.DecisionError as exc:
        db.mark_rollback()
        return jsonify(error=str(exc)), exc.status
    db.autocommit_from_here(conn)
    window = store_windows.current_window(conn, current_user.id)
    if window is not None and (store_windows.lost_to_other(conn, window)
                               or not (current_user.is_admin or window.member)):
        window = None
    return _window_answer(conn, window, undone=action_refs.to_ref(undone.action_id),
                          rules_changed=undone.rules_changed, history=_named_history(conn, 20))


@bp.route("/api/history", methods=["GET"])
@user
def api_history():
    """The caller's own actions, newest first (for the history list of the annotate page)."""
    raw = request.args.get("limit", "50")
    limit = min(int(raw), 200) if ascii_digits(raw) and len(raw) < 6 else 50
    conn = db.get_conn()
    db.autocommit_from_here(conn)
    return jsonify(actions=_named_history(conn, max(limit, 1)))


def _named_history(conn, limit: int) -> list[dict[str, Any]]:
    """The caller's own actions, newest first, with their shown numbers and the kind and decision as words in the
    user's language (never the codes): the history list after an undo reads the same as the one it replaces."""
    from psan.store.annotation import actions as store_actions
    actions = action_refs.with_refs(store_actions.history(conn, current_user.id, limit))
    for a in actions:
        a["kind_name"] = action_name(a["kind"])
        a["decision_name"] = decision_name(a["decision"]) if a["decision"] else ""
    return actions


def _label_from_payload(conn, payload: dict[str, Any], project_id: int) -> int:
    """An existing label of the project (by id or name) or a new one (annotators may create labels)."""
    label_id = validate.integer(payload, "label_id", validate.MAX_ID, required=False)
    if label_id is not None:
        return _label_of_project(conn, project_id, label_id) or label_id
    from psan.labels import validate as label_validate
    name, error = label_validate.clean_name(payload.get("label_name"))
    category, category_error = label_validate.clean_category(payload.get("label_category"))
    if error or category_error:
        raise validate.Invalid(error or category_error)
    return project_labels.label_by_name(conn, project_id, name, category, current_user.id)


@bp.route("/api/label", methods=["POST"])
@user
def api_label():
    payload = _payload()
    document_id, first, end = validate.span(payload)
    always = validate.flag(payload, "always")
    conn = db.get_conn()
    window = _owned_window(conn)
    _check_span(window, document_id, first, end)
    label_id = _label_from_payload(conn, payload, window.project_id)
    span = store_decisions.Span(window.project_id, document_id, first, end)
    with _refused_decision():
        decided = workflow.assign_label(conn, window, span, label_id, current_user.id, always=always,
                                        lease_seconds=_lease_seconds(), request_id=validate.request_id(payload))
    return _decided_answer(conn, decided)


@bp.route("/api/annotation/<ref>", methods=["GET"])
@user
def api_annotation(ref: str):
    """Why a span of the window is decided; ``ref``: the span's id in the window JSON (its token range)."""
    span = parse_annotation_ref(ref)
    if span is None:
        raise _not_found()
    conn = db.get_conn()
    window = _owned_window(conn)
    _check_span(window, window.document_id, *span)
    annotation_id = window_content.annotation_at(conn, window.document_id, *span)
    if annotation_id is None:
        raise _not_found()
    return jsonify(annotation_detail(conn, window, annotation_id, _hidden(window)))


# --- entities (psan.store.annotation.entities) -------------------------------------------------------------------
def _range(window: Window) -> tuple[int, int]:
    """The window's token range: entity counts are of it only (nothing about mentions outside)."""
    return window.first_token, window.end_token


def _hidden(window: Window) -> tuple[int, int] | None:
    """The window's elided middle as the caller is shown the window (none for an administrator): never decided,
    counted or waited for."""
    return elided_range(window, _shown_size())


def _entity_error(exc) -> validate.Invalid:  # noqa: ANN001 - psan.store.annotation.entities.EntityError
    messages = {
        "none": gettext("No entity was recognized at that span."),
        "same": gettext("Both spans already belong to one entity."),
        "category": gettext("Entities of different categories cannot be merged."),
    }
    return validate.Invalid(messages.get(exc.code, gettext("Not found.")))


@bp.route("/api/entity", methods=["GET"])
@user
def api_entity():
    from psan.store.annotation import entities as store_entities
    values: dict[str, Any] = {}
    for key in ("document_id", "first_token", "end_token"):
        raw = request.args.get(key, "")
        values[key] = int(raw) if ascii_digits(raw) and len(raw) < 19 else raw
    document_id, first, end = validate.span(values)
    conn = db.get_conn()
    window = _owned_window(conn)
    _check_span(window, document_id, first, end)
    entity = store_entities.entity_of_span(conn, document_id, first, end, within=_range(window),
                                            hidden=_hidden(window))
    return jsonify(entity=annotator_entity(entity))


def _entity_action(conn, window: Window, kind: str, first: int, end: int) -> None:
    """A merge or split is an action of the annotator's too: logged, so ``u`` undoes it."""
    from psan.store.annotation import actions as store_actions
    store_actions.begin(conn, window.project_id, current_user.id, kind, window.document_id, first, end)


@bp.route("/api/entity/merge", methods=["POST"])
@user
def api_entity_merge():
    from psan.store.annotation import entities as store_entities
    payload = _payload()
    document_id, first, end = validate.span(payload)
    other = validate.span({"document_id": document_id, "first_token": payload.get("other_first_token"),
                           "end_token": payload.get("other_end_token")})
    conn = db.get_conn()
    window = _owned_window(conn)
    _check_span(window, document_id, first, end)
    _check_span(window, document_id, other[1], other[2])
    _entity_action(conn, window, "entity_merge", first, end)
    try:
        entity = store_entities.merge(conn, document_id, (first, end), (other[1], other[2]), current_user.id,
                                      within=_range(window), hidden=_hidden(window))
    except store_entities.EntityError as exc:
        raise _entity_error(exc) from None
    return jsonify(entity=annotator_entity(entity))


@bp.route("/api/entity/split", methods=["POST"])
@user
def api_entity_split():
    from psan.store.annotation import entities as store_entities
    payload = _payload()
    document_id, first, end = validate.span(payload)
    conn = db.get_conn()
    window = _owned_window(conn)
    _check_span(window, document_id, first, end)
    _entity_action(conn, window, "entity_split", first, end)
    try:
        entity = store_entities.split(conn, document_id, (first, end), current_user.id, within=_range(window),
                                     hidden=_hidden(window))
    except store_entities.EntityError as exc:
        raise _entity_error(exc) from None
    return jsonify(entity=annotator_entity(entity))
