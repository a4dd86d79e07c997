"""The release report: what the data owner signs before handing a collection out.

Why counts only: the report travels inside every output ZIP, so it must never hold an original
string — no span text, no label names (labels are often named after the person), no token text.
Documents are named by their file name (already the ZIP member names), labels by their
project-local number and category, people by their account e-mail.

How a span was decided: ``person`` (a token decision), ``rule`` (some voting rule has a person as
author: a word-type rule, an NE-type confidence someone set, a lookup rule), ``pre-annotation``
(only automatic rules voted), ``undecided`` (still SUSPICIOUS: masked or kept by the policy).
"""
from __future__ import annotations

import html
from collections import Counter
from datetime import UTC, datetime
from typing import Any

from psan.runtime import db
from psan.store.corpus.documents import load_document
from psan.store.publish import qa as store_qa
from psan.store.publish import regions as store_regions
from psan.store.publish.files import files_report
from psan.store.publish.release_entities import entities_report
from psan.store.review import double_annotation as store_double
from psan.store.review import risk_qa
from psan.store.shared.document_status import ANNOTATED, SUSPICIOUS_SQL
from psan.tool.decisions.voting import final_decision
from psan.tool.text.document import Decision

REPORT_VERSION = 1


def _how(ann, ctx: store_regions.ProjectOutputContext, decision: Decision) -> str:
    if ann.token_decision is not None:
        return "person"
    if decision is Decision.SUSPICIOUS:
        return "undecided"
    rules = [ctx.ruleset.rules[rid] for rid in ann.rule_ids if rid in ctx.ruleset.rules]
    return "rule" if any(r.author is not None for r in rules) else "pre-annotation"


def document_report(conn, document_id: int, name: str, ctx: store_regions.ProjectOutputContext) -> dict[str, Any]:
    """Counts of one annotated document (no text)."""
    cached = ctx.rendered.get(document_id)
    if cached is not None:  # rendered for the output of the same request: same state, reuse
        doc_row = db.query_one("SELECT language, token_count FROM document WHERE id = %s", (document_id,), conn)
        annotations, regions = cached
        language, tokens = doc_row["language"], doc_row["token_count"] or 0
    else:
        doc = load_document(conn, document_id)
        regions = store_regions.private_regions(conn, document_id, doc, ctx) if doc else []
        annotations = ctx.rendered[document_id][0] if doc else []
        language, tokens = (doc.language, len(doc.tokens)) if doc else (None, 0)
    by_decision: Counter[str] = Counter()
    by_how: Counter[str] = Counter()
    by_decision_how: Counter[str] = Counter()
    private_categories: Counter[str] = Counter()
    labels: Counter[int] = Counter()
    for ann in annotations:
        decision = final_decision(ann, ctx.thresholds)
        how = _how(ann, ctx, decision)
        by_decision[str(decision)] += 1
        by_how[how] += 1
        by_decision_how[f"{decision}/{how}"] += 1
        if decision is Decision.PRIVATE:
            private_categories[str(ann.category)] += 1
            if ann.label is not None:
                labels[ann.label] += 1
    masked = store_regions.masked_counts(annotations, ctx.thresholds, ctx.undecided)
    return {
        "id": document_id, "name": name, "language": language,
        "tokens": tokens, "spans": len(annotations),
        "by_decision": dict(sorted(by_decision.items())), "by_how": dict(sorted(by_how.items())),
        "by_decision_and_how": dict(sorted(by_decision_how.items())),
        "private_by_category": dict(sorted(private_categories.items())),
        "undecided": {"policy": masked.policy, "total": masked.total, "by_category": dict(sorted(
            masked.by_category.items()))},
        "output_regions": len(regions),
        "output_regions_by_category": dict(sorted(Counter(str(r.category) for r in regions).items())),
        "labels": {str(k): v for k, v in sorted(labels.items())},
    }


def _decisions_by_person(conn, project_id: int) -> list[dict[str, Any]]:
    rows = db.query(
        "SELECT coalesce(a.email, '(deleted account)') AS account, l.action, l.decision::text AS decision, "
        "count(*) AS n, min(l.created_at) AS first_at, max(l.created_at) AS last_at "
        "FROM decision_log l LEFT JOIN account a ON a.id = l.account_id WHERE l.project_id = %s "
        "GROUP BY 1, 2, 3 ORDER BY 1, 2, 3", (project_id,), conn)
    return [{"account": r["account"], "action": r["action"], "decision": r["decision"], "count": r["n"],
             "first_at": r["first_at"].isoformat(), "last_at": r["last_at"].isoformat()} for r in rows]


def _agreement(conn, project_id: int) -> dict[str, Any]:
    """Agreement of the double-annotated windows (counts and figures only, no text)."""
    compared, by_category = store_double.project_agreement(conn, project_id)
    return {"windows": compared, "states": store_double.counts(conn, project_id),
            "by_category": {c: {"kappa": a.kappa, "f1": a.f1, "spans_first": a.spans_first,
                                "spans_second": a.spans_second, "spans_matched": a.spans_matched,
                                "tokens": a.tokens, "tokens_agreed": a.tokens_agreed}
                            for c, a in by_category.items()} if compared else {}}


def project_report(conn, project_id: int, ctx: store_regions.ProjectOutputContext | None = None) -> dict[str, Any]:
    """The whole release report of a project as JSON-ready data (never an original string)."""
    project = db.query_one("SELECT id, name, language, public_threshold, private_threshold, undecided_output "
                           "FROM project WHERE id = %s", (project_id,), conn)
    ctx = ctx or store_regions.project_context(conn, project_id)
    docs = db.query("SELECT id, name, status::text AS status FROM document WHERE project_id = %s ORDER BY id",
                    (project_id,), conn)
    documents = []
    not_ready = []
    for d in docs:
        if d["status"] in ANNOTATED:
            documents.append(document_report(conn, d["id"], d["name"], ctx))
        else:
            not_ready.append({"id": d["id"], "name": d["name"], "status": d["status"]})
    totals: dict[str, Counter[str]] = {k: Counter() for k in ("by_decision", "by_how", "by_decision_and_how",
                                                              "private_by_category", "output_regions_by_category")}
    undecided: Counter[str] = Counter()
    for d in documents:
        for key, counter in totals.items():
            counter.update(d[key])
        undecided.update(d["undecided"]["by_category"])
    labels = db.query("SELECT id, category FROM label WHERE project_id = %s ORDER BY id", (project_id,), conn)
    label_rows = [{"number": ctx.label_numbers.get(r["id"]), "category": r["category"],
                   "private_spans": sum(d["labels"].get(str(ctx.label_numbers.get(r["id"])), 0) for d in documents)}
                  for r in labels]
    return {
        "report_version": REPORT_VERSION,
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "project": {"id": project["id"], "name": project["name"], "language": project["language"],
                    "public_threshold": project["public_threshold"],
                    "private_threshold": project["private_threshold"],
                    "undecided_output": ctx.undecided},
        "totals": {**{k: dict(sorted(v.items())) for k, v in totals.items()},
                   "documents": len(documents), "tokens": sum(d["tokens"] for d in documents),
                   "undecided": {"policy": ctx.undecided, "total": sum(undecided.values()),
                                 "by_category": dict(sorted(undecided.items()))}},
        "labels": label_rows,
        "entities": entities_report(conn, project_id),
        "documents": documents,
        "documents_not_annotated": not_ready,
        "decisions_by_person": _decisions_by_person(conn, project_id),
        "qa": store_qa.summary(conn, project_id),
        "review": risk_qa.summary(conn, project_id),
        "agreement": _agreement(conn, project_id),
        "files": files_report(conn, project_id),
    }


def _table(rows: list[list[Any]], head: list[str]) -> str:
    cells = "".join(f"<th>{html.escape(str(h))}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"


def _counts(mapping: dict[str, int]) -> str:
    return ", ".join(f"{k}: {v}" for k, v in mapping.items()) or "–"


def _entities_html(e: dict[str, Any]) -> str:
    return _table([["entities", e["entities"]], ["mentions", e["mentions"]],
                   ["entities by category", _counts(e["by_category"])],
                   ["entities by number of mentions", _counts(e["mentions_per_entity"])],
                   ["most mentions of one entity", e["max_mentions"]],
                   ["entities in more than one document", e["across_documents"]],
                   ["entities with a label", e["labelled"]],
                   ["entities merged into another by a person", e["merged_by_person"]],
                   ["entities split off by a person", e["split_by_person"]],
                   ["entities a person corrected (merge or split)", e["corrected_by_person"]]], ["", "count"])


def _not_included_html(rows: list[dict[str, Any]]) -> list[str]:
    """The documents a release leaves out (not annotated yet): never silently missing from the ZIP."""
    if not rows:
        return []
    return ["<h2>Documents not included</h2>",
            f"<p><strong>{len(rows)} document(s) are not in this release</strong>: they are not annotated yet "
            "(waiting for recognition, being processed or failed). Release again once they are.</p>",
            _table([[r["id"], r["name"], r["status"]] for r in rows], ["id", "document", "status"])]


def _files_html(rows: list[dict[str, Any]]) -> list[str]:
    """Documents uploaded as office files, pages or PDFs: what was found, removed, dropped or kept unread."""
    if not rows:
        return []
    return ["<h2>Original files</h2>",
            "<p>Metadata fields removed and parts dropped per file (names only). Parts kept unread (images) "
            "are released as they were: check them.</p>",
            _table([[r["id"], r["name"], r["format"], _counts(r["parts"]), ", ".join(r["metadata_removed"]) or "–",
                     ", ".join(r["parts_dropped"]) or "–", ", ".join(r["kept_unread"]) or "–", r["tracked_changes"]]
                    for r in rows], ["id", "document", "format", "parts found", "metadata removed",
                                     "parts dropped", "kept unread", "tracked changes"])]


def _figure(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _agreement_html(a: dict[str, Any]) -> str:
    if not a.get("windows"):
        return "<p>No window was annotated by two people.</p>"
    rows = [[c, _figure(v["kappa"]), _figure(v["f1"]), v["spans_first"], v["spans_second"], v["spans_matched"],
             v["tokens"]] for c, v in a["by_category"].items()]
    return (f"<p>{a['windows']} windows annotated independently by two people; still to adjudicate: "
            f"{a['states'].get('disagreed', 0)}. An undecided span counts as private.</p>"
            + _table(rows, ["category", "Cohen's kappa (tokens)", "span F1", "private spans (first)",
                            "private spans (second)", "same spans", "tokens"]))


def report_html(report: dict[str, Any]) -> str:
    """A standalone HTML page of the report (for the ZIP; every value escaped, no scripts)."""
    p, t, qa = report["project"], report["totals"], report["qa"]
    keep = p["undecided_output"] == "keep"
    parts = [
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Release report</title></head><body>",
        f"<h1>Release report: {html.escape(p['name'])}</h1>",
        f"<p>Generated {html.escape(report['generated_at'])}. Undecided spans: <strong>"
        f"{'KEPT AS PUBLIC (explicit project setting)' if keep else 'masked'}</strong>; "
        f"{t['undecided']['total']} undecided spans ({_counts(t['undecided']['by_category'])}).</p>",
        "<h2>Project totals</h2>",
        _table([["documents", t["documents"]], ["tokens", t["tokens"]],
                ["spans by final decision", _counts(t["by_decision"])],
                ["spans by how decided", _counts(t["by_how"])],
                ["decision / how", _counts(t["by_decision_and_how"])],
                ["private spans by category", _counts(t["private_by_category"])],
                ["output regions by category", _counts(t["output_regions_by_category"])]], ["", "count"]),
        "<h2>Quality check (second reviewer)</h2>",
    ]
    if qa["sampled"]:
        bound = "–" if qa["upper_bound"] is None else f"{100 * qa['upper_bound']:.2f} %"
        parts.append(_table([[qa["sampled"], qa["reviewed"], qa["misses"], bound]],
                            ["sampled tokens", "reviewed", "misses", "95 % upper bound on the miss rate"]))
    else:
        parts.append("<p>No QA sample drawn.</p>")
    rv = report["review"]
    review_bound = "–" if rv["bound"] is None else f"{100 * rv['bound']:.2f} %"
    parts += [
        "<h2>Review depth and the bound on missed mentions</h2>",
        _table([["review depth", "by risk" if rv["mode"] == "risk" else "read everything"],
                ["sentences", rv["sentences"]], ["sentences nobody read", rv["unread"]],
                ["masked mentions", rv["mentions"]],
                ["samples of unread sentences drawn", rv["samples"]],
                ["unread sentences sampled / reviewed (latest sample)", f"{rv['sampled']} / {rv['reviewed']}"],
                ["missed mentions found in the sample", rv["found"]],
                ["95 % upper bound on the share of missed mentions", review_bound],
                ["target", f"{100 * rv['target']:.2f} %"],
                ["missed mentions the target leaves room for", rv.get("room", "–")]], ["", "value"])]
    parts += [
        "<h2>Inter-annotator agreement (double-annotated windows)</h2>",
        _agreement_html(report.get("agreement") or {}),
        "<h2>Labels</h2>",
        _table([[r["number"], r["category"] or "–", r["private_spans"]] for r in report["labels"]],
               ["label", "category", "private spans"]),
        "<h2>Entities</h2>",
        _entities_html(report["entities"]),
        "<h2>Documents</h2>",
        _table([[d["id"], d["name"], d["language"], d["tokens"], _counts(d["by_decision"]), _counts(d["by_how"]),
                 f"{d['undecided']['total']} ({_counts(d['undecided']['by_category'])})", d["output_regions"]]
                for d in report["documents"]],
               ["id", "document", "language", "tokens", "by decision", "by how decided",
                "undecided " + ("kept" if keep else "masked"), "output regions"]),
        *_not_included_html(report["documents_not_annotated"]),
        *_files_html(report.get("files") or []),
        "<h2>Who decided what and when</h2>",
        _table([[r["account"], r["action"], r["decision"] or "–", r["count"], r["first_at"], r["last_at"]]
                for r in report["decisions_by_person"]], ["account", "action", "decision", "count", "first", "last"]),
        "</body></html>",
    ]
    return "\n".join(parts)


def undecided_by_category(conn, project_id: int) -> dict[int, dict[str, int]]:
    """Per document: undecided spans (by the stored rule levels) by recognizer category, for the list page
    and the keep confirmation; a span's category as the dashboard gives it (the first category of the
    entities on exactly the span, psan.store.review.dashboard), so the pages agree.

    Why SQL and not a render: the documents page is loaded often; the exact counts after
    corrections are in ``MASKED.json`` and the release report.
    """
    rows = db.query(
        "SELECT a.document_id, coalesce((SELECT min(ne.category)::text FROM named_entity ne "  # noqa: S608  # nosec B608
        "WHERE ne.document_id = a.document_id AND ne.first_token = a.first_token AND ne.end_token = a.end_token"
        "), 'OTHER') AS category, count(*) AS n "
        "FROM annotation a JOIN document d ON d.id = a.document_id JOIN project p ON p.id = d.project_id "
        "WHERE d.project_id = %s AND " + SUSPICIOUS_SQL + " GROUP BY 1, 2 ORDER BY 1, 2", (project_id,), conn)
    out: dict[int, dict[str, int]] = {}
    for r in rows:
        out.setdefault(r["document_id"], {})[r["category"]] = r["n"]
    return out
