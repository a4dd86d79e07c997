"""Versioned releases of a project: release 1, 2, …, the change list between them, and withdrawn documents.

Why: a corrected document must be re-released without touching the others, and whoever received release 1
must learn exactly what release 2 changes.  A release records, per document, the SHA-256 of its
pseudonymized output and its replaced spans as (start, end, category): enough to list what changed, never
an original (the change list travels to data recipients).  Surrogates come from the project's stored key
(:mod:`.pseudonym_key`), so an unchanged document renders byte-identically and keeps its hash.  A document
withdrawn after a release is recorded with who, when and why and left out of every later release.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

from psan.runtime import db
from psan.store.admin.key_access import clean_reason
from psan.store.review import webhooks

__all__ = ["create_release", "changes", "releases", "withdraw", "withdrawals", "MAX_NOTE"]

MAX_NOTE = 1000


def _spans(entries: list[dict[str, Any]]) -> list[list[Any]]:
    return sorted([e["original_start"], e["original_end"], e["category"]] for e in entries)


def create_release(conn, project_id: int, account_id: int | None, note: str = "") -> int:
    """Render the project as it is now and record it as its next release; returns the release number."""
    from psan.store.publish.output import pseudonymize_project
    note = " ".join((note or "").split())
    if len(note) > MAX_NOTE:
        raise ValueError(f"a release note has at most {MAX_NOTE} characters")
    # one release at a time per project: the number is the next one, whoever asks concurrently
    db.query_one("SELECT id FROM project WHERE id = %s FOR UPDATE", (project_id,), conn)
    withdrawn = {r["document_id"] for r in withdrawals(conn, project_id)}
    docs = [d for d in pseudonymize_project(conn, project_id) if d.document_id not in withdrawn]
    row = db.query_one(
        "INSERT INTO project_release (project_id, number, note, created_by) SELECT %s, coalesce(max(number), 0) + 1, "
        "%s, %s FROM project_release WHERE project_id = %s RETURNING id, number",
        (project_id, note, account_id, project_id), conn)
    if row is None:  # INSERT … RETURNING returns its row; anything else is a broken connection
        raise RuntimeError("the release could not be recorded")
    for d in docs:
        db.execute("INSERT INTO release_document (release_id, document_id, name, output_sha256, spans) "
                   "VALUES (%s, %s, %s, %s, %s::jsonb)",
                   (row["id"], d.document_id, d.name, hashlib.sha256(d.text.encode("utf-8")).hexdigest(),
                    json.dumps(_spans(d.entries))), conn)
    webhooks.record(conn, project_id, "release.ready", {"release": int(row["number"]), "documents": len(docs),
                                                        "withdrawn": len(withdrawn)})
    return int(row["number"])


def releases(conn, project_id: int) -> list[dict[str, Any]]:
    """The project's releases, newest first (number, note, when, by whom, how many documents)."""
    return db.query("SELECT r.number, r.note, r.created_at, a.email AS created_by, count(d.document_id) AS documents "
                    "FROM project_release r LEFT JOIN account a ON a.id = r.created_by LEFT JOIN release_document d "
                    "ON d.release_id = r.id WHERE r.project_id = %s GROUP BY r.id, a.email ORDER BY r.number DESC",
                    (project_id,), conn)


def _documents(conn, project_id: int, number: int) -> dict[int, dict[str, Any]] | None:
    rel = db.query_one("SELECT id FROM project_release WHERE project_id = %s AND number = %s", (project_id, number),
                       conn)
    if rel is None:
        return None
    rows = db.query("SELECT document_id, name, output_sha256, spans FROM release_document WHERE release_id = %s",
                    (rel["id"],), conn)
    return {r["document_id"]: r for r in rows}


def changes(conn, project_id: int, number: int) -> dict[str, Any] | None:
    """What release ``number`` changes against the one before (``None`` when there is no such release).

    ``changed`` documents list the spans added and removed as (start, end, category); documents are named by
    id and file name; ``unchanged`` counts documents whose output is byte-identical.
    """
    now = _documents(conn, project_id, number)
    if now is None:
        return None
    before = _documents(conn, project_id, number - 1) if number > 1 else {}
    before = before or {}
    withdrawn = {r["document_id"]: r for r in withdrawals(conn, project_id) if r["after_release"] == number - 1}
    out: dict[str, Any] = {"release": number, "previous": number - 1 if number > 1 else None,
                           "documents": [{"document": d, "name": r["name"]} for d, r in sorted(now.items())],
                           "added": [], "removed": [], "withdrawn": [], "changed": [], "unchanged": 0}
    for doc_id, row in sorted(now.items()):
        old = before.get(doc_id)
        if old is None:
            out["added"].append({"document": doc_id, "name": row["name"]})
        elif old["output_sha256"] == row["output_sha256"]:
            out["unchanged"] += 1
        else:
            new_spans = {tuple(s) for s in row["spans"]}
            old_spans = {tuple(s) for s in old["spans"]}
            out["changed"].append({"document": doc_id, "name": row["name"],
                                   "spans_added": [list(s) for s in sorted(new_spans - old_spans)],
                                   "spans_removed": [list(s) for s in sorted(old_spans - new_spans)]})
    for doc_id, row in sorted(before.items()):
        if doc_id not in now:
            item = {"document": doc_id, "name": row["name"]}
            if doc_id in withdrawn:
                out["withdrawn"].append({**item, "reason": withdrawn[doc_id]["reason"]})
            else:
                out["removed"].append(item)
    return out


def withdraw(conn, project_id: int, document_id: int, reason: str | None, account: str) -> bool:
    """Withdraw a released document (left out of every later release); ``False`` when it was never released.

    ReasonRequired (a ValueError) without a reason.
    """
    text = clean_reason(reason)
    last = db.query_one(
        "SELECT r.number, d.name FROM project_release r JOIN release_document d ON d.release_id = r.id "
        "WHERE r.project_id = %s AND d.document_id = %s ORDER BY r.number DESC LIMIT 1", (project_id, document_id),
        conn)
    if last is None:
        return False
    latest = db.query_one("SELECT max(number) AS n FROM project_release WHERE project_id = %s", (project_id,), conn)
    db.execute("INSERT INTO release_withdrawal (project_id, document_id, name, after_release, reason, account) "
               "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (project_id, document_id) DO NOTHING",
               (project_id, document_id, last["name"], latest["n"] if latest else last["number"], text, account[:254]),
               conn)
    return True


def withdrawals(conn, project_id: int) -> list[dict[str, Any]]:
    """The project's withdrawn documents (document, name, after which release, why, who, when)."""
    return db.query("SELECT document_id, name, after_release, reason, account, created_at FROM release_withdrawal "
                    "WHERE project_id = %s ORDER BY id", (project_id,), conn)
