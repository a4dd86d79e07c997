"""Project rows and their members.

Why here and not in the view: the annotation pages (another blueprint) and tasks need the same
"which projects may this account annotate" and "which pipeline does this project use" queries.
"""
from __future__ import annotations

import json
from typing import Any

import psycopg2.extras

from psan.runtime import db
from psan.store.admin.rules import blocking_of
from psan.store.shared.document_status import DocumentStatus, sql_value

LANGUAGES = {"en": "English", "cs": "Czech", "pl": "Polish", "sv": "Swedish", "sk": "Slovak", "sl": "Slovenian"}


def list_projects(conn=None) -> list[dict[str, Any]]:
    return db.query(
        "SELECT p.*, (SELECT count(*) FROM document d WHERE d.project_id = p.id) AS documents, "
        "(SELECT count(*) FROM project_member m WHERE m.project_id = p.id) AS members, "
        "(SELECT pm.meta - 'classes' FROM project_model pm WHERE pm.project_id = p.id ORDER BY pm.id DESC LIMIT 1) "
        "AS model_meta FROM project p ORDER BY p.is_default DESC, p.name", None, conn)


def get_project(project_id: int, conn=None) -> dict[str, Any] | None:
    return db.query_one("SELECT * FROM project WHERE id = %s", (project_id,), conn)


def member_ids(project_id: int, conn=None) -> list[int]:
    return [r["account_id"] for r in db.query(
        "SELECT account_id FROM project_member WHERE project_id = %s ORDER BY account_id", (project_id,), conn)]


def set_members(project_id: int, account_ids: list[int], conn=None) -> None:
    """Replace the project's annotators (unknown account ids are ignored)."""
    db.execute("DELETE FROM project_member WHERE project_id = %s", (project_id,), conn)
    if account_ids:
        with (conn or db.get_conn()).cursor() as cur:
            psycopg2.extras.execute_values(
                cur, "INSERT INTO project_member (project_id, account_id) SELECT v.p, v.a FROM (VALUES %s) "
                     "AS v(p, a) JOIN account ON account.id = v.a ON CONFLICT DO NOTHING",
                [(project_id, a) for a in sorted(set(account_ids))])


#: at most this many admin-listed sensitive categories/types (the schema's check), each this long
MAX_SENSITIVE_TYPES, MAX_TYPE_CHARS = 100, 60


def parse_sensitive_types(raw: str | None) -> list[str]:
    """The admin's comma-separated list of sensitive categories/entity types, cleaned and deduplicated.

    Category names are case-insensitive (``address`` → ``ADDRESS``… only known categories are
    upper-cased); entity types keep their case (CNEC ``gu`` is not ``GU``).
    """
    from psan.tool.text.document import Category
    categories = {c.value for c in Category}
    out: list[str] = []
    for part in (raw or "").replace(";", ",").split(","):
        item = "".join(ch for ch in part.strip() if ch.isprintable())[:MAX_TYPE_CHARS]
        if item.upper() in categories:
            item = item.upper()
        if item and item not in out:
            out.append(item)
    return out[:MAX_SENSITIVE_TYPES]


def save_project(values: dict[str, Any], project_id: int | None = None, conn=None) -> int:
    """Insert or update a project's settings; returns its id."""
    params = {**values, "pipeline": json.dumps(values.get("pipeline") or {}),
              "ask_labels": bool(values.get("ask_labels", False)),
              "sensitive_types": list(values.get("sensitive_types") or []),
              "annotators_choose_document": bool(values.get("annotators_choose_document", False)),
              "lookups_everywhere": bool(values.get("lookups_everywhere", False)),
              "tracked_changes": values.get("tracked_changes") if values.get("tracked_changes") == "reject"
              else "accept",
              "double_share": float(values.get("double_share", 0)),
              "review_mode": values.get("review_mode") or "full",
              "qa_target": float(values.get("qa_target") or 0.005)}
    if project_id is None:
        row = db.query_one("INSERT INTO project (name, language, pipeline, public_threshold, private_threshold, "
                           "ask_labels, sensitive_types, annotators_choose_document, lookups_everywhere, double_share, "
                           "tracked_changes, review_mode, qa_target) "
                           "VALUES (%(name)s, %(language)s, %(pipeline)s::jsonb, %(public_threshold)s, "
                           "%(private_threshold)s, %(ask_labels)s, %(sensitive_types)s::text[], "
                           "%(annotators_choose_document)s, %(lookups_everywhere)s, %(double_share)s, "
                           "%(tracked_changes)s, %(review_mode)s, %(qa_target)s) RETURNING id",
                           params, conn)
        return int(row["id"])
    db.execute("UPDATE project SET name = %(name)s, language = %(language)s, pipeline = %(pipeline)s::jsonb, "
               "public_threshold = %(public_threshold)s, private_threshold = %(private_threshold)s, "
               "ask_labels = %(ask_labels)s, sensitive_types = %(sensitive_types)s::text[], "
               "annotators_choose_document = %(annotators_choose_document)s, "
               "lookups_everywhere = %(lookups_everywhere)s, double_share = %(double_share)s, "
               "tracked_changes = %(tracked_changes)s, review_mode = %(review_mode)s, qa_target = %(qa_target)s "
               "WHERE id = %(id)s",
               {**params, "id": project_id}, conn)
    return project_id


def note_blocking_changes(conn, project_id: int, before: frozenset[str], after: frozenset[str]) -> int:
    """Log the NE types whose precedence (:mod:`psan.tool.decisions.precedence`) the sensitive list changed, as rule
    changes.

    Why: whether a person's word rule outranks a learned type on a span depends on the admin's list, and
    the levels are stored; the project run (:mod:`psan.store.corpus.rule_changes`) re-annotates the
    documents with entities of these types.  The caller schedules the run when this returns more than 0
    (how many types were logged).
    """
    if before == after:
        return 0
    types = [r["condition"] for r in db.query("SELECT DISTINCT condition FROM rule WHERE project_id = %s "
                                              "AND type = 'NE_TYPE' ORDER BY condition", (project_id,), conn)]
    changed = sorted(set(blocking_of(types, before)) ^ set(blocking_of(types, after)))
    if changed:
        db.execute("INSERT INTO rule_change (project_id, rule_id, old_type, old_condition, new_type, new_condition) "
                   "SELECT r.project_id, r.id, 'NE_TYPE', r.condition, 'NE_TYPE', r.condition FROM rule r "
                   "WHERE r.project_id = %s AND r.type = 'NE_TYPE' AND r.condition = ANY(%s)",
                   (project_id, changed), conn)
    return len(changed)


def name_taken(name: str, exclude_id: int | None = None, conn=None) -> bool:
    return db.query_one("SELECT 1 FROM project WHERE name = %s AND id IS DISTINCT FROM %s",
                        (name, exclude_id), conn) is not None


def delete_project(project_id: int, conn=None) -> bool:
    """Delete a project with its documents, rules, labels and everything below (cascade)."""
    return db.execute("DELETE FROM project WHERE id = %s AND NOT is_default", (project_id,), conn) > 0


def membership_count(account_id: int, conn=None) -> int:
    """How many projects the account may annotate as a member (an annotator with 0 has nothing to do)."""
    row = db.query_one("SELECT count(*) AS n FROM project_member WHERE account_id = %s", (account_id,), conn)
    return int(row["n"])


def admin_contacts(limit: int = 3, conn=None) -> list[str]:
    """``Name <e-mail>`` of active admins, oldest first: whom an annotator without a project should ask."""
    rows = db.query("SELECT email, name FROM account WHERE role = 'ADMIN' AND active ORDER BY id LIMIT %s",
                    (limit,), conn)
    return [f"{r['name']} <{r['email']}>" if r["name"] else r["email"] for r in rows]


def setup_progress(conn=None) -> dict[str, int]:
    """Counts behind the admin's "next steps" on the home page (projects, documents, annotators, members)."""
    return dict(db.query_one(
        "SELECT (SELECT count(*) FROM project WHERE NOT is_default) AS projects, "  # noqa: S608  # nosec B608
        "(SELECT count(*) FROM document) AS documents, "
        "(SELECT count(*) FROM account WHERE role = 'USER') AS annotators, "
        "(SELECT count(*) FROM project_member) AS members, "
        "(SELECT count(*) FROM document WHERE status = " + sql_value(DocumentStatus.DONE) + ") AS done",
        None, conn))


def accessible_projects(conn, account_id: int, is_admin: bool) -> list[dict[str, Any]]:
    """Projects the account may use (admins: all; annotators: their memberships), the default first."""
    if is_admin:
        return db.query("SELECT id, name, is_default FROM project ORDER BY is_default DESC, name, id", None, conn)
    return db.query("SELECT p.id, p.name, p.is_default FROM project p "
                    "JOIN project_member m ON m.project_id = p.id AND m.account_id = %s "
                    "ORDER BY p.is_default DESC, p.name, p.id", (account_id,), conn)


def accessible_project(conn, project_id: int, account_id: int, is_admin: bool) -> dict[str, Any] | None:
    """The project's id, name and is_default if the account may use it, else None (as if missing)."""
    if is_admin:
        return db.query_one("SELECT id, name, is_default FROM project WHERE id = %s", (project_id,), conn)
    return db.query_one("SELECT p.id, p.name, p.is_default FROM project p JOIN project_member m "
                        "ON m.project_id = p.id AND m.account_id = %s WHERE p.id = %s", (account_id, project_id), conn)


def default_project_id(conn) -> int | None:
    """The default project (or the oldest one when none is marked default); None without projects."""
    row = db.query_one("SELECT id FROM project ORDER BY is_default DESC, id LIMIT 1", None, conn)
    return row["id"] if row else None


def set_undecided_output(conn, project_id: int, policy: str) -> None:
    """What downloads do with undecided spans: ``mask`` or ``keep`` (the caller checks the value)."""
    db.execute("UPDATE project SET undecided_output = %s WHERE id = %s", (policy, project_id), conn)


def qa_sample(conn, project_id: int, sample_id: int) -> dict[str, Any] | None:
    """The QA sample (id, project_id) if it belongs to the project, else None."""
    return db.query_one("SELECT id, project_id FROM qa_sample WHERE id = %s AND project_id = %s",
                        (sample_id, project_id), conn)
