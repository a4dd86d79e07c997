"""Concordance (keyword in context) over a project's documents, for admins: by word, lemma or regex.

Why PostgreSQL's regular expressions: the admin's pattern runs in the database under a statement
timeout (:data:`TIMEOUT_MS`) and a length limit, with PostgreSQL's engine, which cannot be made to
backtrack for minutes the way Python's can; a bad pattern is a clear error, never a hung worker.
Word and lemma searches are built as such patterns too (the word escaped, word boundaries around it).

Positions: per document with a match (a first pass stops at the first one), one more pass of the
pattern (``regexp_replace``) marks every match in a copy of the text, and literal searches for the marks
give the lengths between matches and of the matches, so the character offsets of every match are known
without copying the text to the client (a text that holds a mark character takes two passes:
``regexp_split_to_array`` and ``regexp_matches``); patterns that match empty text are refused.
Each match is mapped to the tokens it overlaps by binary search in the
document's token offsets (:mod:`psan.store.corpus.document_text`, cached per process) and shown
with the span's current decision: the annotation on exactly those tokens, else the first one
overlapping them, else none (text nothing flagged).

Lemma search assumes the suffix lemmatizer (a word and its lemma share the stem): with a dictionary
lemmatizer (Morfeusz for Polish) an irregular form whose stem differs is not found.

Annotators never search: the views are admin-only (an annotator sees only their window).
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg2.errors

from psan.runtime import db
from psan.store.corpus.document_text import document_text
from psan.store.shared.document_status import ANNOTATABLE_SQL
from psan.tool.morph.lemma import get_lemmatizer, identity_lemmatizer

MODES = ("word", "lemma", "regex")
#: longest pattern accepted (characters)
MAX_PATTERN = 200
#: the search statement is cancelled after this long
TIMEOUT_MS = 3000
#: at most this many matches are located and listed (the total is counted up to it)
MAX_HITS = 500
#: characters of context on each side
CONTEXT = 60
#: characters of the lemma that the candidate words must start with (the suffix lemmatizer's min_stem)
LEMMA_PREFIX = 3
#: the longest replacement and the longest ending of psan.tool.morph.lemma.SUFFIX_RULES
LEMMA_REPLACEMENT = 3
LEMMA_ENDING = 6
#: an annotation starting this many tokens before a match is still found as overlapping it
MAX_SPAN_LOOKBACK = 64
_WORD_CHARS = "[:alnum:]_"


class SearchError(ValueError):
    """A search that cannot run (bad or too slow pattern); the message is for the admin."""


@dataclass(frozen=True, slots=True)
class Query:
    mode: str
    text: str
    match_case: bool = False


def escape(text: str) -> str:
    """``text`` as a literal in a PostgreSQL ARE (a backslash before every non-alphanumeric character)."""
    return re.sub(r"([^\w])", r"\\\1", text)


def pattern_of(query: Query, language: str) -> str:
    """The ARE the query runs as (validated for length and emptiness by :func:`search`)."""
    if query.mode == "regex":
        return query.text
    word = query.text.strip()
    if query.mode == "lemma" and get_lemmatizer(language) is not identity_lemmatizer:
        lemma = get_lemmatizer(language)(word)
        # a word with this lemma is its stem (the lemma without a replacement of at most
        # LEMMA_REPLACEMENT characters, at least LEMMA_PREFIX long) plus an ending of at most
        # LEMMA_ENDING characters; the candidates are verified with the lemmatizer itself
        prefix = lemma[:max(LEMMA_PREFIX, len(lemma) - LEMMA_REPLACEMENT)]
        return (f"(?<![{_WORD_CHARS}]){escape(prefix)}[{_WORD_CHARS}]{{0,{LEMMA_REPLACEMENT + LEMMA_ENDING}}}"
                f"(?![{_WORD_CHARS}])")
    return f"(?<![{_WORD_CHARS}]){escape(word)}(?![{_WORD_CHARS}])"


def _check(query: Query) -> None:
    from flask_babel import gettext
    if query.mode not in MODES:
        raise SearchError(gettext("Unknown search mode."))
    if not query.text.strip():
        raise SearchError(gettext("Enter a word or pattern."))
    if len(query.text) > MAX_PATTERN:
        raise SearchError(gettext("The pattern is too long (at most %(n)s characters).", n=MAX_PATTERN))
    if query.mode == "regex" and re.search(r"\\[1-9]", query.text):
        raise SearchError(gettext("Back references are not supported in search patterns."))


#: the project's documents in search order
_DOCUMENTS = ("SELECT id, name FROM document WHERE project_id = %s AND status IN "  # noqa: S608  # nosec B608
              f"{ANNOTATABLE_SQL} AND token_count > 0 ORDER BY id")
#: whether the pattern matches empty text (refused), and the documents in search order as JSON
_EMPTY_AND_DOCUMENTS = (
    "SELECT regexp_like('', %(pat)s, %(flags)s) AS empty, coalesce((SELECT json_agg(json_build_object('id', id, "  # noqa: S608  # nosec B608
    f"'name', name) ORDER BY id) FROM ({_DOCUMENTS.replace('%s', '%(project)s')}) d), '[]') AS documents")
#: the marks around every match in :data:`_MARKED` (a text holding either takes :data:`_MATCHES`)
_OPEN, _CLOSE = "\x01", "\x02"
#: one document's matches in one pass of the pattern: ``regexp_replace`` marks every match (``\\&`` is the
#: match), and the marked text is cut at the opening marks by literal search; the first piece is the text
#: before the first match, every other one a match, the closing mark and the text up to the next match
#: (a first pass that stops at the first match skips documents without one)
_MARKED = (
    "SELECT d.hit, p.plain, m.first, m.lens, m.gaps FROM (SELECT text, regexp_like(text, %(pat)s, %(flags)s) AS hit "
    "FROM document WHERE id = %(doc)s OFFSET 0) d "
    "CROSS JOIN LATERAL (SELECT CASE WHEN d.hit THEN strpos(d.text, %(open)s) = 0 AND strpos(d.text, %(close)s) = 0 "
    "ELSE false END AS plain) p "
    "LEFT JOIN LATERAL (SELECT min(length(x)) FILTER (WHERE n = 1) AS first, "
    "array_agg(strpos(x, %(close)s) - 1 ORDER BY n) FILTER (WHERE n > 1) AS lens, "
    "array_agg(length(x) - strpos(x, %(close)s) ORDER BY n) FILTER (WHERE n > 1) AS gaps "
    "FROM unnest(string_to_array(regexp_replace(d.text, %(pat)s, %(mark)s, 'g' || %(flags)s), %(open)s)) "
    "WITH ORDINALITY u(x, n) WHERE p.plain) m ON true")
#: the same for a text that holds a mark: the lengths between the matches and the matches' lengths
#: (two passes of the pattern; a first pass that stops at the first match skips documents without one)
_MATCHES = (
    "SELECT CASE WHEN d.hit THEN ARRAY(SELECT length(x) FROM unnest(regexp_split_to_array(d.text, %(pat)s, "
    "%(flags)s)) WITH ORDINALITY u(x, n) ORDER BY n) END AS gaps, "
    "CASE WHEN d.hit THEN ARRAY(SELECT length(m[1]) FROM regexp_matches(d.text, '(' || %(pat)s || ')', "
    "'g' || %(flags)s) WITH ORDINALITY r(m, n) ORDER BY n) END AS lens "
    # OFFSET 0: the subquery is not flattened, so the first pass runs once
    "FROM (SELECT text, regexp_like(text, %(pat)s, %(flags)s) AS hit FROM document WHERE id = %(doc)s OFFSET 0) d")


def _locate(conn, project_id: int, pattern: str, flags: str) -> list[tuple[int, str, int, int]]:
    """(document, name, start, end) of the first :data:`MAX_HITS` matches, within :data:`TIMEOUT_MS` in all.

    Document by document, so a search stops reading as soon as it has enough matches; each statement
    gets what is left of the time budget as its timeout.
    """
    from flask_babel import gettext
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    hits: list[tuple[int, str, int, int]] = []
    # the savepoint and the timeout ride with the statements after them (``lead``: one round trip each)
    saved = db.query_one("SELECT current_setting('statement_timeout') AS t", None, conn,
                         lead="SAVEPOINT concordance; ")["t"]
    try:
        first = db.query_one(_EMPTY_AND_DOCUMENTS, {"pat": pattern, "flags": flags, "project": project_id}, conn,
                             lead=f"SET LOCAL statement_timeout = {int(TIMEOUT_MS)}; ")
        if first["empty"]:
            raise SearchError(gettext("The pattern matches empty text; make it match at least one character."))
        for doc in first["documents"]:
            left_ms = int((deadline - time.monotonic()) * 1000)
            if left_ms <= 0:
                raise psycopg2.errors.QueryCanceled()
            params = {"pat": pattern, "flags": flags, "doc": doc["id"], "open": _OPEN, "close": _CLOSE,
                      "mark": f"{_OPEN}\\&{_CLOSE}"}
            timeout = f"SET LOCAL statement_timeout = {max(1, left_ms)}; "
            row = db.query_one(_MARKED, params, conn, lead=timeout)
            if row["hit"] and row["plain"]:
                pos = row["first"] or 0
                for length, gap in zip(row["lens"] or (), row["gaps"] or (), strict=True):
                    hits.append((doc["id"], doc["name"], pos, pos + length))
                    pos += length + gap
            elif row["hit"]:
                row = db.query_one(_MATCHES, params, conn, lead=timeout)
                pos = 0
                for gap, length in zip(row["gaps"] or (), row["lens"] or (), strict=False):
                    pos += gap
                    hits.append((doc["id"], doc["name"], pos, pos + length))
                    pos += length
            if len(hits) >= MAX_HITS:
                break
    except psycopg2.errors.QueryCanceled:
        db.execute("ROLLBACK TO SAVEPOINT concordance", None, conn)
        raise SearchError(gettext("The search took too long; make the pattern more specific.")) from None
    except (psycopg2.errors.InvalidRegularExpression, psycopg2.errors.DataException) as exc:
        db.execute("ROLLBACK TO SAVEPOINT concordance", None, conn)
        raise SearchError(gettext("Invalid regular expression: %(error)s",
                                  error=str(exc.diag.message_primary or exc).strip())) from None
    except SearchError:
        db.execute("ROLLBACK TO SAVEPOINT concordance", None, conn)
        raise
    db.query_one("SELECT set_config('statement_timeout', %s, true)", (saved,), conn,  # the caller's timeout again
                 lead="RELEASE SAVEPOINT concordance; ")
    return hits[:MAX_HITS]


_OCCURRENCES = (
    "SELECT t.n, t.first_token, t.end_token, a.id AS annotation_id, a.first_token AS a_first, a.end_token AS a_end, "
    "a.token_decision::text AS token_decision, "
    "CASE WHEN a.id IS NULL THEN NULL WHEN a.token_decision IS NOT NULL THEN a.token_decision::text "
    "WHEN a.rule_level <= p.private_threshold THEN 'PRIVATE' WHEN a.rule_level >= p.public_threshold THEN 'PUBLIC' "
    "ELSE 'SUSPICIOUS' END AS decision, "
    "(SELECT ne.category FROM named_entity ne WHERE ne.document_id = %(doc)s AND ne.first_token = a.first_token "
    "AND ne.end_token = a.end_token ORDER BY ne.id LIMIT 1) AS category "
    "FROM unnest(%(firsts)s::int[], %(ends)s::int[]) WITH ORDINALITY t(first_token, end_token, n) "
    "CROSS JOIN project p "
    "LEFT JOIN LATERAL (SELECT * FROM annotation a WHERE a.document_id = %(doc)s "
    "AND a.first_token >= t.first_token - %(lookback)s AND a.first_token < t.end_token "
    "AND a.end_token > t.first_token "
    "ORDER BY (a.first_token = t.first_token AND a.end_token = t.end_token) DESC, a.first_token LIMIT 1) a ON true "
    "WHERE p.id = %(p)s ORDER BY t.n")


def token_ranges(starts: np.ndarray, ends: np.ndarray, hits: list[tuple[int, int]]) -> list[tuple[int, int] | None]:
    """The tokens ``[first, end)`` each character range overlaps (``None``: none), by binary search.

    The first token is the last one starting at or before the range's start (the next one if it ends
    there or before), the end token follows the last one starting before the range's end.
    """
    if not hits:
        return []
    lo = np.fromiter((h[0] for h in hits), dtype=np.int64, count=len(hits))
    hi = np.fromiter((h[1] for h in hits), dtype=np.int64, count=len(hits))
    k0 = np.searchsorted(starts, lo, side="right") - 1
    first = np.where(k0 < 0, 0, np.where(ends[np.maximum(k0, 0)] > lo, k0, k0 + 1))
    end = np.searchsorted(starts, hi, side="left")
    return [(f, e) if f < e else None for f, e in zip(first.tolist(), end.tolist(), strict=True)]


def search(conn, project_id: int, language: str, query: Query) -> dict[str, Any]:
    """The occurrences (at most :data:`MAX_HITS`) with context and decision; ``truncated`` when there are more."""
    _check(query)
    pattern = pattern_of(query, language)
    flags = "" if query.match_case else "i"
    hits = _locate(conn, project_id, pattern, flags)
    lemma = None
    if query.mode == "lemma" and get_lemmatizer(language) is not identity_lemmatizer:
        lemmatize = get_lemmatizer(language)
        lemma = lemmatize(query.text.strip()).casefold()
    by_doc: dict[int, list[tuple[int, str, int, int]]] = {}
    for h in hits:
        by_doc.setdefault(h[0], []).append(h)
    occurrences = []
    for document_id, doc_hits in by_doc.items():
        loaded = document_text(conn, document_id)
        if loaded is None:
            continue
        text = loaded.text
        ranges = token_ranges(loaded.starts, loaded.ends, [(h[2], h[3]) for h in doc_hits])
        kept = [(h, r) for h, r in zip(doc_hits, ranges, strict=True) if r is not None]
        rows = db.query(_OCCURRENCES, {"doc": document_id, "p": project_id, "lookback": MAX_SPAN_LOOKBACK,
                                       "firsts": [r[0] for _, r in kept], "ends": [r[1] for _, r in kept]}, conn)
        for r in rows:
            (_, name, start, end), _ = kept[r["n"] - 1]
            match = text[start:end]
            if lemma is not None and lemmatize(match).casefold() != lemma:
                continue
            exact = r["a_first"] == r["first_token"] and r["a_end"] == r["end_token"]
            occurrences.append({
                "document_id": document_id, "document_name": name, "first_token": r["first_token"],
                "end_token": r["end_token"], "left": text[max(0, start - CONTEXT):start], "match": match,
                "right": text[end:end + CONTEXT], "decision": r["decision"] or "NONE", "exact": exact,
                "decided_by_person": bool(exact and r["token_decision"]), "category": r["category"] or "",
            })
    return {"occurrences": occurrences, "truncated": len(hits) >= MAX_HITS, "pattern": pattern}
