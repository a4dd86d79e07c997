"""A project's progress for its admin: windows done and left, undecided spans, throughput, forecast.

Why these numbers: a team lead running an annotation project asks "how far are we, who works how
fast, when will it be done".  Everything is an aggregate over indexed rows of one project
(``window_log`` by project, ``decision_log`` by project, suspicious annotations through the partial
index) so the page answers in milliseconds on a project of 10^6 tokens.

Definitions (shown on the page too):

* a *window done* is a window an annotator left after deciding at least one span in it
  (``window_log``, written by a trigger when a lease is replaced or released; admins' forced
  windows are not counted);
* *windows left* estimates the windows still needed: the stretches of ``window_size`` tokens that
  hold at least one span waiting for a person;
* the *forecast* is windows left × the project's median seconds per window, divided among the
  annotators who worked in the last 7 days (at least one).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from psan.runtime import db
from psan.store.shared.document_status import SUSPICIOUS_SQL

#: how an annotation ``a`` (project ``p``; ``ra``: the ids of annotations a person's rule votes on) is
#: decided now, as the release report names it
HOW_SQL = (
    "CASE WHEN a.token_decision IS NOT NULL THEN 'person' "  # noqa: S608  # nosec B608
    f"WHEN {SUSPICIOUS_SQL} THEN 'undecided' "
    "WHEN ra.annotation_id IS NOT NULL THEN 'rule' ELSE 'pre-annotation' END")
#: windows counted as done (see the module docstring)
DONE_SQL = "w.decisions > 0 AND NOT w.forced"
#: annotators who worked within this many days share the remaining work in the forecast
ACTIVE_DAYS = 7


@dataclass(frozen=True, slots=True)
class Forecast:
    """Remaining work: person-hours at the median pace, and wall-clock hours shared by the active annotators."""

    windows_left: int
    median_seconds: float | None
    active_annotators: int

    @property
    def person_hours(self) -> float | None:
        if self.median_seconds is None:
            return None
        return self.windows_left * self.median_seconds / 3600

    @property
    def hours(self) -> float | None:
        person = self.person_hours
        return None if person is None else person / max(1, self.active_annotators)


def windows_done(conn, project_id: int) -> int:
    row = db.query_one(f"SELECT count(*) AS n FROM window_log w WHERE w.project_id = %s AND {DONE_SQL}",  # noqa: S608  # nosec B608
                       (project_id,), conn)
    return int(row["n"])


#: a project's window size (alias ``p``): the median of its members' own sizes, else the site default (%(default)s)
_PROJECT_SIZE_SQL = ("greatest(1, coalesce((SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY acc.window_size) "
                     "FROM project_member m JOIN account acc ON acc.id = m.account_id WHERE m.project_id = p.id), "
                     "%(default)s))")


def project_window_sizes(conn, project_ids: list[int], default_size: int) -> dict[int, int]:
    """Per project: the window size its "windows left" are counted in.

    Why one size per project: the dashboard counted stretches of the site default (300 tokens) and the
    annotator's home windows of the annotator's own size, so the same project had "6" and "about 12" windows
    left.  Both pages now count in this size (:func:`windows_left`, :func:`span_summary`).
    """
    rows = db.query(f"SELECT p.id, {_PROJECT_SIZE_SQL} AS size FROM project p WHERE p.id = ANY(%(ids)s)",  # noqa: S608  # nosec B608
                    {"default": max(1, default_size), "ids": list(project_ids)}, conn)
    return {int(r["id"]): int(r["size"]) for r in rows}


def windows_left(conn, project_ids: list[int], default_size: int) -> dict[int, int]:
    """Per project: stretches of the project's window size (:func:`project_window_sizes`) holding a span that
    waits for a person (an estimate).

    One statement for all the projects (the annotator's home lists several).
    """
    rows = db.query(
        "SELECT d.project_id, count(DISTINCT (a.document_id, a.first_token / s.size)) AS n FROM annotation a "  # noqa: S608  # nosec B608
        "JOIN document d ON d.id = a.document_id JOIN project p ON p.id = d.project_id "
        f"JOIN (SELECT p.id, {_PROJECT_SIZE_SQL} AS size FROM project p WHERE p.id = ANY(%(ids)s)) s ON s.id = p.id "
        f"WHERE {SUSPICIOUS_SQL} GROUP BY 1", {"default": max(1, default_size), "ids": list(project_ids)}, conn)
    counts = {int(r["project_id"]): int(r["n"]) for r in rows}
    return {int(p): counts.get(int(p), 0) for p in project_ids}


#: one scan of the project's annotations: how each is decided; for the undecided and the person-decided
#: ones their category (label, else the recognized entity on exactly the span - the first by name if
#: several - else OTHER).  Rows: ('how', -, how, n), ('doc', document, category, n) of the undecided,
#: ('decided', -, 'PUBLIC|PRIVATE category', n) of the person-decided, ('left', -, -, stretches).
_SPAN_SUMMARY = (
    # annotations a rule with a person as author votes on: one hash join instead of a probe per span
    "WITH ra AS (SELECT DISTINCT ar.annotation_id FROM annotation_rule ar JOIN rule r ON r.id = ar.rule_id "  # noqa: S608  # nosec B608
    "WHERE r.project_id = %(p)s AND r.author_id IS NOT NULL), "
    "s AS MATERIALIZED (SELECT a.document_id, a.first_token, a.end_token, a.token_label_id, "
    f"a.token_decision::text AS decision, {HOW_SQL} AS how FROM annotation a JOIN document d ON d.id = a.document_id "
    "JOIN project p ON p.id = d.project_id LEFT JOIN ra ON ra.annotation_id = a.id WHERE d.project_id = %(p)s), "
    "ne AS (SELECT n.document_id, n.first_token, n.end_token, min(n.category) AS category FROM named_entity n "
    "JOIN document d ON d.id = n.document_id WHERE d.project_id = %(p)s GROUP BY 1, 2, 3), "
    "c AS MATERIALIZED (SELECT s.document_id, s.first_token, s.how, s.decision, "
    "coalesce(l.category, ne.category, 'OTHER') AS category FROM s LEFT JOIN label l ON l.id = s.token_label_id "
    "LEFT JOIN ne USING (document_id, first_token, end_token) WHERE s.how IN ('undecided', 'person')) "
    "SELECT 'how' AS kind, NULL::bigint AS document_id, how AS key, count(*) AS n FROM s GROUP BY how "
    "UNION ALL SELECT 'doc', document_id, category, count(*) FROM c WHERE how = 'undecided' GROUP BY 2, 3 "
    "UNION ALL SELECT 'decided', NULL, decision || ' ' || category, count(*) FROM c WHERE how = 'person' GROUP BY 3 "
    "UNION ALL SELECT 'left', NULL, NULL, count(*) FROM (SELECT 1 FROM c WHERE how = 'undecided' "
    "GROUP BY document_id, first_token / %(size)s) stretches")


def span_summary(conn, project_id: int, window_size: int) -> dict[str, Any]:
    """The project's spans in one scan: undecided per document and category, windows left, spans by how
    decided, and the person's decisions per category.

    ``documents``: per document with spans waiting, its name, total and counts per category (most
    first); ``by_category``: per category the spans a person decided public and private.
    """
    rows = db.query(_SPAN_SUMMARY, {"p": project_id, "size": max(1, window_size)}, conn)
    names = {r["id"]: r["name"] for r in db.query("SELECT id, name FROM document WHERE project_id = %s",
                                                   (project_id,), conn)}
    docs: dict[int, dict[str, Any]] = {}
    how = dict.fromkeys(("person", "rule", "pre-annotation", "undecided"), 0)
    decided: dict[str, dict[str, Any]] = {}
    left = 0
    for r in rows:
        if r["kind"] == "how":
            how[r["key"]] = int(r["n"])
        elif r["kind"] == "left":
            left = int(r["n"])
        elif r["kind"] == "decided":
            decision, category = r["key"].split(" ", 1)
            row = decided.setdefault(category, {"category": category, "public": 0, "private": 0})
            row[decision.lower()] += int(r["n"])
        else:
            doc = docs.setdefault(r["document_id"], {"id": r["document_id"], "name": names.get(r["document_id"], ""),
                                                     "total": 0, "by_category": {}})
            doc["by_category"][r["key"]] = int(r["n"])
            doc["total"] += int(r["n"])
    return {"documents": sorted(docs.values(), key=lambda d: (-d["total"], d["id"])), "windows_left": left,
            "by_how": how, "by_category": [decided[c] for c in sorted(decided)]}


def documents_by_status(conn, project_id: int) -> dict[str, int]:
    rows = db.query("SELECT status::text AS status, count(*) AS n FROM document WHERE project_id = %s "
                    "GROUP BY 1 ORDER BY 1", (project_id,), conn)
    return {r["status"]: int(r["n"]) for r in rows}


def undecided_by_category(documents: list[dict[str, Any]]) -> dict[str, int]:
    """The totals per category of :func:`span_summary`'s documents (no second query)."""
    out: dict[str, int] = {}
    for doc in documents:
        for category, n in doc["by_category"].items():
            out[category] = out.get(category, 0) + n
    return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))


def throughput(conn, project_id: int) -> list[dict[str, Any]]:
    """Per annotator: windows done, judgments, hours in windows, windows and judgments per hour, median s/window."""
    rows = db.query(
        "WITH w AS (SELECT w.account_id, count(*) AS windows, "  # noqa: S608  # nosec B608
        "sum(extract(epoch FROM w.finished_at - w.started_at)) AS seconds, "
        "percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM w.finished_at - w.started_at)) AS median, "
        "max(w.finished_at) AS last_at "
        f"FROM window_log w WHERE w.project_id = %(p)s AND {DONE_SQL} GROUP BY 1), "
        "j AS (SELECT account_id, count(*) AS judgments FROM decision_log WHERE project_id = %(p)s "
        "AND account_id IS NOT NULL GROUP BY 1) "
        "SELECT coalesce(w.account_id, j.account_id) AS account_id, a.email, a.name, "
        "coalesce(w.windows, 0) AS windows, coalesce(j.judgments, 0) AS judgments, "
        "coalesce(w.seconds, 0) AS seconds, w.median, w.last_at FROM w FULL JOIN j ON j.account_id = w.account_id "
        "JOIN account a ON a.id = coalesce(w.account_id, j.account_id) "
        "ORDER BY a.email", {"p": project_id}, conn)
    out = []
    for r in rows:
        hours = float(r["seconds"]) / 3600
        out.append({"account_id": r["account_id"], "email": r["email"], "name": r["name"],
                    "windows": int(r["windows"]), "judgments": int(r["judgments"]), "hours": hours,
                    "windows_per_hour": r["windows"] / hours if hours > 0 else None,
                    "judgments_per_hour": r["judgments"] / hours if hours > 0 else None,
                    "median_seconds": float(r["median"]) if r["median"] is not None else None,
                    "last_at": r["last_at"]})
    return out


def forecast(conn, project_id: int, left: int) -> Forecast:
    """:class:`Forecast` from the project's median window time and its recently active annotators."""
    row = db.query_one(
        "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM w.finished_at - w.started_at)) "  # noqa: S608  # nosec B608
        "AS median, count(DISTINCT w.account_id) FILTER (WHERE w.finished_at > now() - make_interval(days => %s)) "
        f"AS active FROM window_log w WHERE w.project_id = %s AND {DONE_SQL}", (ACTIVE_DAYS, project_id), conn)
    median = float(row["median"]) if row and row["median"] is not None else None
    return Forecast(left, median, int(row["active"]) if row else 0)


def progress_over_time(conn, project_id: int) -> list[dict[str, Any]]:
    """Per day with activity: decisions and windows done that day and cumulated (the progress chart)."""
    rows = db.query(
        "WITH d AS (SELECT created_at::date AS day, count(*) AS decisions FROM decision_log "  # noqa: S608  # nosec B608
        "WHERE project_id = %(p)s GROUP BY 1), "
        f"w AS (SELECT w.finished_at::date AS day, count(*) AS windows FROM window_log w WHERE w.project_id = %(p)s "
        f"AND {DONE_SQL} GROUP BY 1) "
        "SELECT coalesce(d.day, w.day) AS day, coalesce(d.decisions, 0) AS decisions, "
        "coalesce(w.windows, 0) AS windows FROM d FULL JOIN w ON w.day = d.day ORDER BY 1", {"p": project_id}, conn)
    out, decisions, windows = [], 0, 0
    for r in rows:
        decisions += int(r["decisions"])
        windows += int(r["windows"])
        day: date = r["day"]
        out.append({"day": day.isoformat(), "decisions": int(r["decisions"]), "windows": int(r["windows"]),
                    "decisions_total": decisions, "windows_total": windows})
    return out


def project_dashboard(conn, project_id: int, default_size: int) -> dict[str, Any]:
    """Everything the dashboard page shows, in one dict (each chart's numbers are its table's)."""
    window_size = project_window_sizes(conn, [project_id], default_size).get(project_id, default_size)
    spans = span_summary(conn, project_id, window_size)
    left = spans["windows_left"]
    return {
        "window_size": window_size,
        "documents_by_status": documents_by_status(conn, project_id),
        "windows_done": windows_done(conn, project_id),
        "windows_left": left,
        "undecided_documents": spans["documents"],
        "undecided_by_category": undecided_by_category(spans["documents"]),
        "throughput": throughput(conn, project_id),
        "forecast": forecast(conn, project_id, left),
        "progress": progress_over_time(conn, project_id),
        "by_category": spans["by_category"],
        "by_how": spans["by_how"],
    }
