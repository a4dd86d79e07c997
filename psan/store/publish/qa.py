"""QA sampling: a second reviewer checks a random sample of public output tokens.

Why: "nobody found anything more" is not a measurement.  The admin draws a uniform random sample
of tokens the output leaves in clear that could be personal data (capitalised words, numbers);
a second reviewer marks each one ok or miss.  With k misses among n reviewed tokens the one-sided
95 % Clopper–Pearson upper bound on the miss rate is ``Beta.ppf(0.95, k + 1, n - k)`` — 200
reviewed with 0 misses gives ≈ 1.5 %.  Samples are stored by (document, token id): no text.
"""
from __future__ import annotations

from typing import Any

import psycopg2.extras
from scipy.stats import beta

from psan.runtime import db
from psan.store.corpus.documents import load_document
from psan.store.publish import regions as store_regions
from psan.store.shared.document_status import ANNOTATED
from psan.store.shared.sampling import sample_random

#: default and largest sample size
DEFAULT_SAMPLE = 200
MAX_SAMPLE = 2000
VERDICTS = ("ok", "miss")


def upper_bound(reviewed: int, misses: int, confidence: float = 0.95) -> float | None:
    """One-sided Clopper–Pearson upper bound of the miss rate (``None`` when nothing was reviewed)."""
    if reviewed <= 0:
        return None
    if misses >= reviewed:
        return 1.0
    return float(beta.ppf(confidence, misses + 1, reviewed - misses))


def candidate(text: str) -> bool:
    """A token worth a second look: starts with an upper-case letter or contains a digit."""
    return bool(text) and (text[0].isupper() or any(ch.isdigit() for ch in text))


def public_candidates(conn, project_id: int) -> list[tuple[int, int]]:
    """(document id, token id) of every candidate token the current output leaves in clear."""
    ctx = store_regions.project_context(conn, project_id)
    rows = db.query("SELECT id FROM document WHERE project_id = %s AND status::text = ANY(%s) ORDER BY id",
                    (project_id, list(ANNOTATED)), conn)
    found: list[tuple[int, int]] = []
    for row in rows:
        doc = load_document(conn, row["id"])
        if doc is None:
            continue
        covered: set[int] = set()
        for region in store_regions.private_regions(conn, row["id"], doc, ctx):
            covered.update(range(region.first_token, region.end_token))
        found.extend((row["id"], t.id) for t in doc.tokens
                     if t.id not in covered and candidate(doc.text[t.start:t.end]))
    return found


def draw_sample(conn, project_id: int, size: int, account_id: int | None,
                seed: str | None = None) -> tuple[int, int]:
    """Store a new sample of up to ``size`` candidate tokens; returns (sample id, tokens drawn).

    ``seed``: evaluation runs only (:func:`psan.store.shared.sampling.sample_random`)."""
    size = max(1, min(int(size), MAX_SAMPLE))
    pool = public_candidates(conn, project_id)
    number = 1 + int(db.query_one("SELECT count(*) AS n FROM qa_sample WHERE project_id = %s", (project_id,),
                                  conn)["n"])
    chosen = sample_random(seed, "public", project_id, number).sample(pool, min(size, len(pool)))
    sample_id = int(db.query_one("INSERT INTO qa_sample (project_id, created_by) VALUES (%s, %s) RETURNING id",
                                 (project_id, account_id), conn)["id"])
    if chosen:
        with conn.cursor() as cur:
            psycopg2.extras.execute_values(
                cur, "INSERT INTO qa_sample_token (sample_id, document_id, token_id) VALUES %s",
                [(sample_id, d, t) for d, t in sorted(chosen)])
    return sample_id, len(chosen)


def latest_sample(conn, project_id: int) -> dict[str, Any] | None:
    return db.query_one("SELECT id, created_at FROM qa_sample WHERE project_id = %s ORDER BY id DESC LIMIT 1",
                        (project_id,), conn)


def sample_tokens(conn, sample_id: int) -> list[dict[str, Any]]:
    """The sampled tokens with a short context (for the reviewer's page only; holds document text)."""
    rows = db.query("SELECT s.document_id, s.token_id, s.verdict, d.name, d.text, t.start_char, t.end_char "
                    "FROM qa_sample_token s JOIN document d ON d.id = s.document_id "
                    "JOIN token t ON t.document_id = s.document_id AND t.idx = s.token_id "
                    "WHERE s.sample_id = %s ORDER BY s.document_id, s.token_id", (sample_id,), conn)
    out = []
    for r in rows:
        text, start, end = r["text"], r["start_char"], r["end_char"]
        out.append({"document_id": r["document_id"], "token_id": r["token_id"], "verdict": r["verdict"],
                    "document": r["name"], "before": text[max(0, start - 60):start], "token": text[start:end],
                    "after": text[end:end + 60]})
    return out


def record_verdicts(conn, sample_id: int, verdicts: dict[tuple[int, int], str], account_id: int) -> int:
    """Store the reviewer's ok/miss marks (unknown tokens and verdicts are ignored); returns how many."""
    done = 0
    for (document_id, token_id), verdict in verdicts.items():
        if verdict not in VERDICTS:
            continue
        done += db.execute("UPDATE qa_sample_token SET verdict = %s, reviewed_by = %s, reviewed_at = now() "
                           "WHERE sample_id = %s AND document_id = %s AND token_id = %s",
                           (verdict, account_id, sample_id, document_id, token_id), conn)
    return done


def summary(conn, project_id: int) -> dict[str, Any]:
    """Counts of the latest sample and the upper bound on the remaining miss rate."""
    sample = latest_sample(conn, project_id)
    if sample is None:
        return {"sample_id": None, "sampled": 0, "reviewed": 0, "misses": 0, "upper_bound": None}
    row = db.query_one("SELECT count(*) AS sampled, count(verdict) AS reviewed, "
                       "count(*) FILTER (WHERE verdict = 'miss') AS misses FROM qa_sample_token "
                       "WHERE sample_id = %s", (sample["id"],), conn)
    return {"sample_id": sample["id"], "drawn_at": sample["created_at"].isoformat(timespec="seconds"),
            "sampled": row["sampled"], "reviewed": row["reviewed"], "misses": row["misses"],
            "upper_bound": upper_bound(row["reviewed"], row["misses"]), "confidence": 0.95}
