"""The annotator's home: their projects with progress, the project (and document) they chose, their history.

Why a chosen project: without it every "next window" picked a random document among all the
annotator's projects, so windows hopped between projects (and their labels and instructions).  The
choice is stored per account (``annotator_choice``, migration 0024) and
:func:`psan.store.annotation.windows.candidate_documents` draws only from it; a chosen document comes first,
then the rest of its project.  Choosing a document is offered only where the admin allows it
(``project.annotators_choose_document``): otherwise annotators learn nothing about documents beyond
their window, not even names or counts.
"""
from __future__ import annotations

from typing import Any

from psan.runtime import db
from psan.store.annotation import actions, visibility
from psan.store.annotation.window_content import span_text
from psan.store.review.dashboard import DONE_SQL, windows_left
from psan.store.shared.document_status import SUSPICIOUS_SQL, DocumentStatus, sql_value

#: how many of the account's own decisions the history lists
HISTORY = 50
#: words of a span shown in the history (an accepted window is cut here)
SPAN_WORDS = 8


def may_annotate(conn, account_id: int, is_admin: bool, project_id: int) -> bool:
    if is_admin:
        return db.query_one("SELECT 1 FROM project WHERE id = %s", (project_id,), conn) is not None
    return db.query_one("SELECT 1 FROM project_member WHERE project_id = %s AND account_id = %s",
                        (project_id, account_id), conn) is not None


def projects(conn, account_id: int, is_admin: bool, window_size: int) -> list[dict[str, Any]]:
    """The projects the account may annotate, each with the account's windows done and the project's left."""
    rows = db.query(
        "SELECT p.id, p.name, p.annotators_choose_document, "  # noqa: S608  # nosec B608
        f"(SELECT count(*) FROM window_log w WHERE w.project_id = p.id AND w.account_id = %(me)s AND {DONE_SQL}) "
        "AS mine, EXISTS (SELECT 1 FROM annotator_choice c WHERE c.account_id = %(me)s AND c.project_id = p.id) "
        "AS chosen FROM project p "
        "WHERE %(admin)s OR EXISTS (SELECT 1 FROM project_member m WHERE m.project_id = p.id "
        "AND m.account_id = %(me)s) "
        "ORDER BY p.is_default, p.name", {"me": account_id, "admin": is_admin}, conn)
    left = windows_left(conn, [r["id"] for r in rows], window_size)
    for r in rows:
        r["left"] = left[r["id"]]
    return rows


def documents(conn, project_id: int) -> list[dict[str, Any]]:
    """Documents an annotator may choose (only call for a project that allows it): those with spans waiting."""
    return db.query(
        "SELECT d.id, d.name, (SELECT count(*) FROM annotation a JOIN project p ON p.id = d.project_id "  # noqa: S608  # nosec B608
        f"WHERE a.document_id = d.id AND {SUSPICIOUS_SQL}) AS waiting FROM document d "
        f"WHERE d.project_id = %s AND d.status = {sql_value(DocumentStatus.PRE_ANNOTATED)} ORDER BY d.name, d.id",
        (project_id,), conn)


def choice(conn, account_id: int) -> dict[str, Any]:
    row = db.query_one("SELECT c.project_id AS chosen_project_id, c.document_id AS chosen_document_id, "
                       "p.name AS project_name, d.name AS document_name FROM annotator_choice c "
                       "JOIN project p ON p.id = c.project_id LEFT JOIN document d ON d.id = c.document_id "
                       "WHERE c.account_id = %s", (account_id,), conn)
    return row or {}


def choose(conn, account_id: int, is_admin: bool, project_id: int | None, document_id: int | None) -> bool:
    """Store the choice (``None``: any project); ``False`` if the account may not annotate it or the document
    is not one of the project's choosable documents."""
    if project_id is None:
        db.execute("DELETE FROM annotator_choice WHERE account_id = %s", (account_id,), conn)
        return True
    if not may_annotate(conn, account_id, is_admin, project_id):
        return False
    if document_id is not None:
        allowed = db.query_one("SELECT 1 FROM document d JOIN project p ON p.id = d.project_id WHERE d.id = %s "
                               "AND d.project_id = %s AND (p.annotators_choose_document OR %s)",
                               (document_id, project_id, is_admin), conn)
        if allowed is None:
            return False
    db.execute("INSERT INTO annotator_choice (account_id, project_id, document_id) VALUES (%s, %s, %s) "
               "ON CONFLICT (account_id) DO UPDATE SET project_id = EXCLUDED.project_id, "
               "document_id = EXCLUDED.document_id", (account_id, project_id, document_id), conn)
    return True


def history(conn, account_id: int, limit: int = HISTORY, size: int | None = None) -> list[dict[str, Any]]:
    """The account's own latest actions (:func:`psan.store.annotation.actions.history`: undoable units) with the names
    of their documents and projects and the words of each span (their own decisions only).

    ``size``: the caller's window size (``None``: an administrator, not capped); a span's words then stop where the
    window it was decided in stopped showing them (:func:`shown_ends`)."""
    rows = actions.history(conn, account_id, limit)
    if size is not None:
        for r, end in zip(rows, shown_ends(conn, account_id, rows, size), strict=True):
            r["shown_end"] = end
    ids = sorted({r["document_id"] for r in rows if r["document_id"] is not None})
    names = {r["id"]: r for r in db.query(
        "SELECT d.id, d.name, p.name AS project_name, (a.role = 'ADMIN' OR EXISTS (SELECT 1 FROM project_member m "
        "WHERE m.project_id = p.id AND m.account_id = a.id)) AS member FROM document d "
        "JOIN project p ON p.id = d.project_id JOIN account a ON a.id = %s WHERE d.id = ANY(%s)",
        (account_id, ids), conn)} if ids else {}
    for r in rows:
        doc = names.get(r["document_id"], {})
        r["document_name"], r["project_name"] = doc.get("name"), doc.get("project_name")
        # the words only while the person may still annotate the project (no text of a project they left)
        r["words"] = _words(conn, r) if doc.get("member") else ""
    return rows


def _words(conn, row: dict[str, Any]) -> str:
    """The words of an action's span, as the annotator decided them in their own window (token numbers told
    nobody which name was meant); long spans are cut after :data:`SPAN_WORDS` words."""
    if row["first_token"] is None or row["end_token"] is None:
        return ""
    end = min(row["end_token"], row["first_token"] + SPAN_WORDS, row.get("shown_end", row["end_token"]))
    words = span_text(conn, row["document_id"], row["first_token"], end) if end > row["first_token"] else []
    return " ".join(words + (["…"] if end < row["end_token"] else []))


def shown_ends(conn, account_id: int, rows: list[dict[str, Any]], size: int) -> list[int | None]:
    """For each action row, where its span's words stopped being shown in the window the account decided it in: the
    span's end, or the start of that window's elided middle (:func:`psan.store.annotation.visibility.elided_range`)
    when the span reaches into it from before; ``None`` (no words) when no window of the account held the span then.

    Why: an over-long window shows a long span by its two ends only; its middle words must not reach the annotator
    later through the history either.
    """
    spans = [(i, r) for i, r in enumerate(rows) if r["first_token"] is not None and r["end_token"] is not None
             and r["document_id"] is not None]
    out: list[int | None] = [r["end_token"] for r in rows]
    if not spans:
        return out
    found = {int(w["i"]): w for w in db.query(
        "SELECT s.i, w.first_token, w.end_token FROM unnest(%s::int[], %s::bigint[], %s::int[], %s::int[], "
        "%s::timestamptz[]) AS s (i, document_id, first_token, end_token, at) "
        "CROSS JOIN LATERAL (SELECT first_token, end_token FROM (SELECT first_token, end_token, created_at AS started "
        "FROM annotation_window WHERE account_id = %s AND document_id = s.document_id UNION ALL "
        "SELECT first_token, end_token, started_at FROM window_log WHERE account_id = %s "
        "AND document_id = s.document_id) k WHERE k.first_token <= s.first_token AND k.end_token >= s.end_token "
        "AND k.started <= s.at ORDER BY k.started DESC LIMIT 1) w",
        ([i for i, _ in spans], [r["document_id"] for _, r in spans], [r["first_token"] for _, r in spans],
         [r["end_token"] for _, r in spans], [r["created_at"] for _, r in spans], account_id, account_id), conn)}
    for i, r in spans:
        window = found.get(i)
        if window is None:
            out[i] = None
            continue
        elided = visibility.elided_range(window["first_token"], window["end_token"], size)
        if elided is not None and r["first_token"] < elided[1]:
            out[i] = min(r["end_token"], max(r["first_token"], elided[0]))
    return out
