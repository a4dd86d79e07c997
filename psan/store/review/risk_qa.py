"""The QA sample of the text nobody read, and the bound it certifies for the release.

Why: a project that reviews by risk leaves sentences unread.  A reviewer reads a stratified random sample of
them (:func:`psan.tool.risk.stratified_sample`) and counts the mentions nobody had marked (marking them fixes
them); the one-sided upper bound on the share of mentions still missed
(:func:`psan.tool.risk.missed_share_bound`; 95 % over all the samples a project draws,
:func:`psan.tool.risk.sequential_confidence`) is stated in the release report, and the project's release waits
until it is below the project's target.
A project whose every sentence was read has bound 0.  Samples are stored as token ranges: no text.
"""
from __future__ import annotations

from typing import Any

import psycopg2.extras

from psan.runtime import db
from psan.store.review import risk_review
from psan.store.shared.sampling import sample_random
from psan.tool.risk import (
    allowed_misses,
    missed_share_bound,
    risk_strata,
    sample_size,
    sequential_confidence,
    stratified_sample,
)

#: the most sentences one sample may hold
MAX_SENTENCES = 5000
#: the most misses one sentence may be reported with
MAX_MISSES = 1000


def draw(conn, project_id: int, account_id: int | None, size: int | None = None,
         seed: str | None = None) -> tuple[int, int]:
    """Store a new sample of the project's unread sentences; returns (sample id, sentences drawn).

    ``size`` defaults to what certifies the project's target if at most one miss is found.  ``seed``: evaluation
    runs only (:func:`psan.store.shared.sampling.sample_random`).
    """
    plan = risk_review.reading_plan(conn, project_id)
    population = len(plan.unread)
    number = _drawn(conn, project_id) + 1
    if size is None:
        size = sample_size(population, plan.mentions, plan.target, sequential_confidence(number),
                           expected_miss_rate(conn, project_id, plan))
    size = max(0, min(int(size), population, MAX_SENTENCES))
    chosen = stratified_sample(plan.risks, size, sample_random(seed, "unread", project_id, number))
    strata = risk_strata(plan.risks)
    row = db.query_one("INSERT INTO risk_sample (project_id, created_by, population, mentions) "
                       "VALUES (%s, %s, %s, %s) RETURNING id",
                       (project_id, account_id, population, plan.mentions), conn)
    sample_id = int(row["id"])
    if chosen:
        with conn.cursor() as cur:
            psycopg2.extras.execute_values(
                cur, "INSERT INTO risk_sample_sentence (sample_id, document_id, first_token, end_token, stratum, risk, "
                     "unseen) VALUES %s",
                [(sample_id, plan.unread[i].document_id, plan.unread[i].first_token, plan.unread[i].end_token,
                  strata[i], plan.model_risks[i], [t for stretch in plan.unread[i].unseen for t in stretch])
                 for i in chosen])
    return sample_id, len(chosen)


def expected_miss_rate(conn, project_id: int, plan: risk_review.ReadingPlan) -> float:
    """Misses expected per unread sentence, which the next sample is sized for: the risk model's mean risk of the
    unread sentences, scaled by what the project's samples found against what it expected
    (:attr:`~psan.store.review.risk_review.ReadingPlan.calibration`: the routing has read the riskiest text since,
    so the last sample's own rate would overstate what is left); while the model has too little evidence, what the
    last reviewed sample found per sentence, else 0 (then the smallest certifying sample is drawn)."""
    if plan.model is not None and plan.model.ready and plan.unread:
        return sum(plan.risks) / len(plan.unread)
    row = db.query_one("SELECT count(s.misses) AS reviewed, coalesce(sum(s.misses), 0) AS found "
                       "FROM risk_sample_sentence s WHERE s.sample_id = "
                       "(SELECT max(id) FROM risk_sample WHERE project_id = %s)", (project_id,), conn)
    if row and row["reviewed"]:
        return int(row["found"]) / int(row["reviewed"])
    return 0.0


def _drawn(conn, project_id: int) -> int:
    """Samples the project has drawn so far (the next one is judged at a higher confidence)."""
    return int(db.query_one("SELECT count(*) AS n FROM risk_sample WHERE project_id = %s", (project_id,), conn)["n"])


def reviews_by_risk(conn, project_id: int) -> bool:
    """Whether the project reviews by risk (only then may its release wait for a bound)."""
    row = db.query_one("SELECT review_mode = 'risk' AS by_risk FROM project WHERE id = %s", (project_id,), conn)
    return bool(row and row["by_risk"])


def latest(conn, project_id: int) -> dict[str, Any] | None:
    return db.query_one("SELECT id, created_at, population, mentions FROM risk_sample WHERE project_id = %s "
                        "ORDER BY id DESC LIMIT 1", (project_id,), conn)


def sample_sentences(conn, sample_id: int) -> list[dict[str, Any]]:
    """The sampled sentences with their text (for the reviewer's page only).

    ``unseen``: the parts of the sentence no window had shown when the sample was drawn (token range and text),
    which the reviewer reads; a person saw the rest (``text`` is the whole sentence)."""
    rows = db.query("SELECT s.document_id, s.first_token, s.end_token, s.stratum, s.misses, s.unseen, d.name, "
                    "substr(d.text, ft.start_char + 1, lt.end_char - ft.start_char) AS text, ft.start_char "
                    "FROM risk_sample_sentence s JOIN document d ON d.id = s.document_id "
                    "JOIN token ft ON ft.document_id = s.document_id AND ft.idx = s.first_token "
                    "JOIN token lt ON lt.document_id = s.document_id AND lt.idx = s.end_token - 1 "
                    "WHERE s.sample_id = %s ORDER BY s.document_id, s.first_token", (sample_id,), conn)
    out = [dict(r) for r in rows]
    for row in out:
        bounds = row.pop("unseen")
        row["unseen"] = (list(zip(bounds[::2], bounds[1::2], strict=True)) if bounds
                         else [(row["first_token"], row["end_token"])])
    wanted = {(row["document_id"], t) for row in out for f, e in row["unseen"] for t in (f, e - 1)}
    offsets = {(r["document_id"], r["idx"]): (r["start_char"], r["end_char"]) for r in db.query(
        "SELECT t.document_id, t.idx, t.start_char, t.end_char FROM token t "
        "JOIN unnest(%s::bigint[], %s::integer[]) AS k(document_id, idx) "
        "ON t.document_id = k.document_id AND t.idx = k.idx",
        ([d for d, _ in wanted], [t for _, t in wanted]), conn)} if wanted else {}
    for row in out:
        base, doc = row.pop("start_char"), row["document_id"]
        row["unseen"] = [{"first_token": f, "end_token": e,
                          "text": row["text"][offsets[(doc, f)][0] - base:offsets[(doc, e - 1)][1] - base]}
                         for f, e in row["unseen"] if (doc, f) in offsets and (doc, e - 1) in offsets]
    return out


def sampled_ranges(conn, sample_id: int) -> list[tuple[int, int, int]]:
    """(document id, first token, end token) of each sampled sentence (no text)."""
    return [(r["document_id"], r["first_token"], r["end_token"]) for r in db.query(
        "SELECT document_id, first_token, end_token FROM risk_sample_sentence WHERE sample_id = %s "
        "ORDER BY document_id, first_token", (sample_id,), conn)]


def sampled_sentences(conn, project_id: int) -> set[tuple[int, int]]:
    """(document id, first token) of every sentence any QA sample of the project drew (no text)."""
    return {(r["document_id"], r["first_token"]) for r in db.query(
        "SELECT s.document_id, s.first_token FROM risk_sample_sentence s JOIN risk_sample r ON r.id = s.sample_id "
        "WHERE r.project_id = %s", (project_id,), conn)}


def record(conn, sample_id: int, misses: dict[tuple[int, int], int], account_id: int) -> int:
    """Store the misses found per sampled sentence ((document id, first token) → count); returns how many.

    Sentences not in the sample and counts out of range are ignored.
    """
    done = 0
    for (document_id, first_token), found in misses.items():
        if not 0 <= int(found) <= MAX_MISSES:
            continue
        done += db.execute("UPDATE risk_sample_sentence SET misses = %s, reviewed_by = %s, reviewed_at = now() "
                           "WHERE sample_id = %s AND document_id = %s AND first_token = %s",
                           (int(found), account_id, sample_id, document_id, first_token), conn)
    return done


def summary(conn, project_id: int) -> dict[str, Any]:
    """The project's review mode, what is unread, the latest sample and its bound, and whether it may be released.

    ``bound``: the one-sided 95 % upper bound on the share of mentions the release still misses (0 when every
    sentence was read; ``None`` when text is unread and no sample covers it: none was drawn, or text was added
    since).
    """
    plan = risk_review.reading_plan(conn, project_id)
    # every sample drawn is stated, and the k-th is judged at a higher confidence than the first
    drawn = _drawn(conn, project_id)
    out: dict[str, Any] = {"mode": plan.mode, "target": plan.target, "sentences": len(plan.sentences),
                           "unread": len(plan.unread), "to_read": len(plan.to_read), "mentions": plan.mentions,
                           # whole missed mentions the target allows (0: a sample must hold nearly all unread text)
                           "room": allowed_misses(plan.mentions, plan.target),
                           "model_ready": bool(plan.model and plan.model.ready),
                           "suggested_sample": sample_size(len(plan.unread), plan.mentions, plan.target,
                                                           sequential_confidence(drawn + 1),
                                                           expected_miss_rate(conn, project_id, plan)),
                           "sample_id": None, "sampled": 0, "reviewed": 0, "found": 0, "expected": None,
                           "bound": None,
                           "samples": drawn, "confidence": sequential_confidence(max(drawn, 1))}
    if not plan.unread:
        out["bound"] = 0.0
    sample = latest(conn, project_id)
    if sample is not None:
        row = db.query_one("SELECT count(*) AS sampled, count(misses) AS reviewed, coalesce(sum(misses), 0) AS found, "
                           "coalesce(sum(risk) FILTER (WHERE misses IS NOT NULL), 0) AS expected "
                           "FROM risk_sample_sentence WHERE sample_id = %s", (sample["id"],), conn)
        # what the risk model expected the reviewed sentences to hide, beside what they did: its calibration
        out.update(sample_id=sample["id"], sampled=row["sampled"], reviewed=row["reviewed"], found=int(row["found"]),
                   expected=round(float(row["expected"]), 2),
                   drawn_at=sample["created_at"].isoformat(timespec="seconds"))
        if plan.unread and len(plan.unread) <= sample["population"]:
            # the population the sample was drawn from (text read since only lowers the true share)
            out["bound"] = missed_share_bound(out["found"], out["reviewed"], sample["population"],
                                              max(sample["mentions"], plan.mentions), out["confidence"])
    out["blocked"] = plan.mode == "risk" and (out["bound"] is None or out["bound"] > plan.target)
    return out
