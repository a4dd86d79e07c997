"""Review by risk: what people have read, what the project's risk model says of the rest, and the reading queue.

Why here: the annotation API hands out reading windows from it, the release's QA sample draws from the
sentences it leaves unread, and ``ner_eval`` measures both through the API.  Shown text is what any window
showed (``window_log`` and the live ``annotation_window`` leases) or a QA reviewer read; a sentence counts as
read when a window showed all of it.  A *hit* is a read sentence holding a mention a person marked by hand: a
private decision on a range no recognizer's span (no ``named_entity`` of that exact range: a name nobody found,
the name inside a longer recognized span, a recognized name made whole) and no earlier rule had, taken while a
window showed it: what a QA sample counts as a miss where nobody reads.  The model learns hits from read
sentences as the person found them (a hand mark does not cover its words there; :class:`psan.tool.risk.RiskModel`),
and :func:`psan.tool.risk.route` picks the unread sentences to read.  A project in ``full`` review reads every
sentence: its queue is every unread sentence.
"""
from __future__ import annotations

import threading
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from psan.runtime import db
from psan.store.annotation import windows as store_windows
from psan.store.corpus.documents import load_document_cached
from psan.store.shared.document_status import ANNOTATED, SUSPICIOUS_SQL
from psan.tool.risk import (
    RiskModel,
    ScoreMemo,
    SentenceView,
    TextWords,
    route,
    sample_calibration,
    sequential_confidence,
)
from psan.tool.risk.rule_errors import RuleRecord, contradiction_rates, sentence_rule_risk, with_rule_risk
from psan.tool.text.document import Document, collector_paused

REVIEW_MODES = ("full", "risk")

#: per document, its spans' token ranges and flags: 1 masked (private or undecided), 2 undecided, 4 decided private
#: by a person, 8 decided private where a rule had shown or masked the span before (a rule of another span that
#: matches it, is older than the decision, not one the same decision made, and does not vote public: a lookup rule's
#: suspicious span, a private word rule's; a private decision against a public rule corrects what would have been
#: released, as a QA reviewer's miss under a public span), 16 decided public by a person (a span neither masked
#: nor decided is public by rules alone), and when each was decided (arrays: one row per document, not per span,
#: for a project of 10^5 spans planned per window)
_ANNOTATIONS = (
    "SELECT a.document_id, array_agg(a.first_token) AS firsts, array_agg(a.end_token) AS ends, array_agg("  # noqa: S608  # nosec B608 - constant fragments
    f"(coalesce(({store_windows.PRIVATE_SQL}) OR ({SUSPICIOUS_SQL}), false))::int "
    f"+ 2 * (coalesce({SUSPICIOUS_SQL}, false))::int "
    "+ 4 * (coalesce(a.token_decision = 'PRIVATE', false))::int "
    "+ 8 * (CASE WHEN a.token_decision = 'PRIVATE' THEN EXISTS (SELECT 1 FROM annotation_rule ar "
    "JOIN rule r ON r.id = ar.rule_id WHERE ar.annotation_id = a.id AND r.annotation_id IS DISTINCT FROM a.id "
    "AND r.created_at < a.decided_at AND r.confidence <= 0) ELSE false END)::int "
    "+ 16 * (coalesce(a.token_decision = 'PUBLIC', false))::int) AS flags, "
    "array_agg(extract(epoch FROM a.decided_at)::float8) AS decided_at "
    "FROM annotation a JOIN document d ON d.id = a.document_id JOIN project p ON p.id = d.project_id "
    "WHERE d.project_id = %s AND d.status::text = ANY(%s) GROUP BY a.document_id")
MASKED, PENDING, DECIDED_PRIVATE, RULE_FOUND, DECIDED_PUBLIC = 1, 2, 4, 8, 16
#: every application of a public rule that a person contradicted somewhere (a private decision overlaps one of its
#: spans; the others add no risk and are not fetched), one row per span and rule, and whether the span is still
#: public by rules alone
_PUBLIC_RULE_LINKS = (
    "WITH links AS (SELECT a.document_id, a.first_token, a.end_token, ar.rule_id, "
    "a.token_decision IS NULL AND a.rule_level >= p.public_threshold AS open_public "
    "FROM annotation a JOIN annotation_rule ar ON ar.annotation_id = a.id JOIN rule r ON r.id = ar.rule_id "
    "JOIN document d ON d.id = a.document_id JOIN project p ON p.id = d.project_id "
    "WHERE d.project_id = %(p)s AND d.status::text = ANY(%(statuses)s) AND r.confidence > 0), "
    "contradicted AS (SELECT DISTINCT l.rule_id FROM links l WHERE EXISTS (SELECT 1 FROM annotation c "
    "WHERE c.document_id = l.document_id AND c.token_decision = 'PRIVATE' AND c.first_token < l.end_token "
    "AND c.end_token > l.first_token)) "
    "SELECT * FROM links WHERE rule_id IN (SELECT rule_id FROM contradicted)")
#: misses found in the project's reviewed QA sample sentences, what the risk model expected there, and the samples
#: drawn so far
_SAMPLED = ("SELECT coalesce(sum(s.misses), 0) AS found, coalesce(sum(s.risk), 0) AS expected, "
            "(SELECT count(*) FROM risk_sample WHERE project_id = %(p)s) AS drawn "
            "FROM risk_sample_sentence s JOIN risk_sample r ON r.id = s.sample_id "
            "WHERE r.project_id = %(p)s AND s.misses IS NOT NULL")
#: every window shown (finished, live, a QA sample's reviewed sentence) and when it was opened
_SHOWN = ("SELECT w.document_id, w.first_token, w.end_token, extract(epoch FROM w.started_at)::float8 AS shown_at "
          "FROM window_log w WHERE w.project_id = %(p)s "
          "UNION ALL SELECT w.document_id, w.first_token, w.end_token, extract(epoch FROM w.created_at)::float8 "
          "FROM annotation_window w JOIN document d ON d.id = w.document_id WHERE d.project_id = %(p)s "
          "UNION ALL SELECT s.document_id, s.first_token, s.end_token, extract(epoch FROM s.reviewed_at)::float8 "
          "FROM risk_sample_sentence s JOIN risk_sample r ON r.id = s.sample_id "
          "WHERE r.project_id = %(p)s AND s.misses IS NOT NULL")


@dataclass(slots=True, eq=False)
class SentenceRef:
    """A sentence of a document (token range) with what the risk model sees of it (never modified once made: not
    frozen only because a plan builds one per sentence of the project on every request, and a frozen dataclass
    costs several times as much to build)."""

    document_id: int
    first_token: int
    end_token: int
    view: SentenceView
    read: bool
    hit: bool
    #: the first token of the sentence no window showed (``end_token`` when it is read): where reading resumes
    #: in a sentence longer than a window
    first_unseen: int = -1
    #: an undecided span waits in it: a span review will show it, so the reading queue leaves it
    pending: bool = False
    #: the end of the unseen stretch that starts at ``first_unseen`` (a span review showed the words after it)
    unseen_end: int = -1
    #: the probability that a span a contradicted rule made public here, unseen, is wrong
    #: (:mod:`psan.tool.risk.rule_errors`)
    rule_risk: float = 0.0
    #: the words of those spans (why the sentence is read)
    doubted: tuple[str, ...] = ()
    #: every stretch of the sentence no window showed, as token ranges (empty when it is read): what a QA
    #: reviewer reads of it, since a person saw the rest
    unseen: tuple[tuple[int, int], ...] = ()
    #: what the risk model's view of the sentence depends on (document and its recognition, range, which words a
    #: span covers, private spans): a model scores a key once (empty: scored every time)
    key: tuple = ()

    @property
    def whole_unseen(self) -> bool:
        """No window showed any of it."""
        return self.first_unseen in (-1, self.first_token) and self.unseen_end in (-1, self.end_token)


@dataclass
class ReadingPlan:
    """A project's sentences, the model, the risk of each unread one and those to read."""

    mode: str
    target: float
    mentions: int
    sentences: list[SentenceRef] = field(default_factory=list)
    unread: list[SentenceRef] = field(default_factory=list)
    risks: list[float] = field(default_factory=list)
    to_read: list[SentenceRef] = field(default_factory=list)
    expected_missed: float = 0.0
    model: RiskModel | None = None
    #: the risks as the model (and the doubted rules) gave them, before the project's QA samples scaled them
    model_risks: list[float] = field(default_factory=list)
    #: what the project's QA samples found over what the model expected there (at least 1; see
    #: :func:`psan.tool.risk.sample_calibration`)
    calibration: float = 1.0

    @property
    def read_sentences(self) -> int:
        return len(self.sentences) - len(self.unread)


def masked_mentions(spans: list[tuple[int, int]]) -> int:
    """Masked spans not nested in another (one mention with a span inside it counts once)."""
    count, reach = 0, -1
    for _, end in sorted(spans, key=lambda s: (s[0], -s[1])):
        if end <= reach:
            continue
        count += 1
        reach = max(reach, end)
    return count


def ranges_mask(n: int, firsts: np.ndarray | Sequence[int], ends: np.ndarray | Sequence[int]) -> bytearray:
    """``n`` bytes, 1 on every token of the ranges ``[firsts[i], ends[i])`` (clipped to the document), else 0.

    Why counted, not written range by range: a large document has 10^4-10^5 spans and windows, and the plan
    marks them on every reading window.
    """
    firsts = np.clip(np.asarray(firsts, dtype=np.int64), 0, n)
    ends = np.clip(np.asarray(ends, dtype=np.int64), 0, n)
    keep = firsts < ends
    if not keep.any():
        return bytearray(n)
    opened = np.bincount(firsts[keep], minlength=n + 1) - np.bincount(ends[keep], minlength=n + 1)
    return bytearray((np.cumsum(opened[:n]) > 0).astype(np.uint8).tobytes())


def decided_while_shown(firsts: np.ndarray, decided_at: np.ndarray,
                        shown: Sequence[tuple[int, int, float | None]]) -> np.ndarray:
    """Per span (its first token, when it was decided; NaN: never), whether a window ``(first, end, opened at)``
    showed its first token when it was decided (opened no later; a window with no time never counts).

    Why per span: only the private decisions no recognizer's span has are asked (a few per hundred sentences)."""
    out = np.zeros(len(firsts), dtype=bool)
    if not len(shown):
        return out
    starts = np.array([f for f, _, _ in shown], dtype=np.int64)
    stops = np.array([e for _, e, _ in shown], dtype=np.int64)
    opened = np.array([np.nan if t is None else t for _, _, t in shown], dtype=np.float64)
    for i in np.flatnonzero(~np.isnan(decided_at)).tolist():
        out[i] = bool(((starts <= firsts[i]) & (firsts[i] < stops) & (opened <= decided_at[i])).any())
    return out


def without(mask: bytearray, other: bytearray) -> bytearray:
    """``mask`` with the tokens ``other`` marks cleared (two masks of one document)."""
    a, b = np.frombuffer(mask, dtype=np.uint8), np.frombuffer(other, dtype=np.uint8)
    return bytearray((a & (b ^ 1)).tobytes())


def starts_mask(n: int, firsts: np.ndarray) -> bytearray:
    """``n`` bytes, 1 on every token that is one of ``firsts`` (those outside the document left out)."""
    mask = np.zeros(n, dtype=np.uint8)
    mask[firsts[(firsts >= 0) & (firsts < n)]] = 1
    return bytearray(mask.tobytes())


#: a span ``[first, end)`` as one number, ``first * RANGE_KEY + end`` (token indexes stay far below it)
RANGE_KEY = 1 << 32


def recognized_keys(doc: Document) -> np.ndarray:
    """The document's recognized spans as :data:`RANGE_KEY` numbers, to test decided ranges against at once."""
    return np.fromiter((e.first_token * RANGE_KEY + e.end_token for e in doc.entities), np.int64, len(doc.entities))


def unseen_stretches(seen: bytearray, first: int, end: int) -> tuple[tuple[int, int], ...]:
    """The maximal runs of tokens in ``[first, end)`` that ``seen`` does not mark, in order."""
    out = []
    at = seen.find(0, first, end)
    while at >= 0:
        stop = seen.find(1, at, end)
        stop = end if stop < 0 else stop
        out.append((at, stop))
        at = seen.find(0, stop, end) if stop < end else -1
    return tuple(out)


def project_sentences(conn, project_id: int) -> tuple[list[SentenceRef], int]:
    """Every sentence of the project's annotated documents (document order) and the masked mentions."""
    docs = db.query("SELECT id, recognized_at FROM document WHERE project_id = %s AND status::text = ANY(%s) "
                    "ORDER BY id", (project_id, list(ANNOTATED)), conn)
    spans = {r["document_id"]: (r["firsts"], r["ends"], r["flags"], r["decided_at"])
             for r in db.query(_ANNOTATIONS, (project_id, list(ANNOTATED)), conn)}
    shown: dict[int, list[tuple[int, int, float]]] = defaultdict(list)
    for r in db.query(_SHOWN, {"p": project_id}, conn):
        shown[r["document_id"]].append((r["first_token"], r["end_token"], r["shown_at"]))
    links: dict[int, list[tuple[int, int, int, bool]]] = defaultdict(list)
    for r in db.query(_PUBLIC_RULE_LINKS, {"p": project_id, "statuses": list(ANNOTATED)}, conn):
        links[r["document_id"]].append((r["first_token"], r["end_token"], r["rule_id"], bool(r["open_public"])))
    out: list[SentenceRef] = []
    mentions = 0
    records: dict[int, RuleRecord] = defaultdict(RuleRecord)
    open_spans: list[tuple[int, int, int, tuple[int, ...], str]] = []  # unseen spans public by rules alone
    with collector_paused():  # 10^5 sentence records, free of cycles: no collector pass over them
        for row in docs:
            mentions += _document_plan(conn, row, spans, shown, links, records, open_spans, out)
    return _with_rule_risks(out, open_spans, contradiction_rates(records)), mentions


def _document_plan(conn, row: dict, spans: dict, shown: dict, links: dict,
                   records: dict[int, RuleRecord], open_spans: list, out: list[SentenceRef]) -> int:
    """Add one document's sentences to ``out`` and its public rules' applications to ``records`` and
    ``open_spans``; its masked mentions."""
    doc = load_document_cached(conn, row["id"], row["recognized_at"])
    if doc is None or not doc.tokens:
        return 0
    n = len(doc.tokens)
    doc_firsts, doc_ends, doc_flags, doc_decided_at = spans.get(row["id"], ((), (), (), ()))
    firsts, ends = np.array(doc_firsts, dtype=np.int64), np.array(doc_ends, dtype=np.int64)
    flags = np.array(doc_flags, dtype=np.int64)
    masked, waits, decided = (flags & MASKED) > 0, (flags & PENDING) > 0, (flags & DECIDED_PRIVATE) > 0
    seen_ranges = shown.get(row["id"], ())
    # a private decision on a range no recognized span and no earlier rule had, taken while a window showed it,
    # was marked by hand (the recognized spans are ``named_entity``'s: every change to them bumps
    # ``recognized_at``, so the cached document's are the stored ones); one taken before any window showed it
    # came from a decision elsewhere (the entity's other mentions in the document): nobody had to find it there
    by_hand = decided & ((flags & RULE_FOUND) == 0) & ~np.isin(firsts * RANGE_KEY + ends, recognized_keys(doc))
    marked = np.flatnonzero(by_hand)
    if marked.size:  # most documents have none: their decision times are not read
        by_hand[marked] = decided_while_shown(firsts[marked], np.array(doc_decided_at, dtype=np.float64)[marked],
                                              seen_ranges)
    covered = ranges_mask(n, firsts, ends)
    pending = ranges_mask(n, firsts[waits], ends[waits])
    person_private = ranges_mask(n, firsts[decided], ends[decided])
    hand = ranges_mask(n, firsts[by_hand], ends[by_hand])
    # what a person found in a sentence before marking it: its spans but the hand marks
    found = ~by_hand
    covered_found = ranges_mask(n, firsts[found], ends[found])
    masked_starts = starts_mask(n, firsts[masked])
    found_starts = starts_mask(n, firsts[masked & found])
    # words only rules made public (no span masks them, no person decided them public): a miss can hide there
    public_by_rule = ~masked & ((flags & DECIDED_PUBLIC) == 0)
    by_rules = ranges_mask(n, firsts[public_by_rule], ends[public_by_rule])
    public = without(by_rules, ranges_mask(n, firsts[masked], ends[masked]))
    public_found = without(by_rules, ranges_mask(n, firsts[masked & found], ends[masked & found]))
    seen = ranges_mask(n, [f for f, _, _ in seen_ranges], [e for _, e, _ in seen_ranges])
    open_spans.extend(_record_rule_links(links.get(row["id"], []), seen, person_private, records, row["id"], doc))
    out.extend(document_sentences(row["id"], row["recognized_at"], doc, covered, seen, hand, pending, masked_starts,
                                  covered_found, found_starts, public, public_found))
    return masked_mentions(list(zip(firsts[masked].tolist(), ends[masked].tolist(), strict=True)))


#: per document: its recognition stamp, the masks its sentences were last made from, and those sentences
_last_sentences: dict[int, tuple[object, tuple[bytes, ...], list[SentenceRef]]] = {}
_last_sentences_lock = threading.Lock()
_last_sentences_tokens = 0
#: the most tokens the documents in :data:`_last_sentences` may hold together (their masks and records stay in memory)
LAST_SENTENCES_MAX_TOKENS = 2_000_000


def document_sentences(document_id: int, stamp: object, doc: Document, covered: bytearray, seen: bytearray,
                        hand: bytearray, pending: bytearray, masked_starts: bytearray, covered_found: bytearray,
                        found_starts: bytearray, public: bytearray, public_found: bytearray) -> list[SentenceRef]:
    """The sentences of one document as the plan sees them (the token masks: 1 where a span covers, a window
    showed, a hand mark or an undecided span lies, a masked span starts, only spans rules made public cover;
    ``covered_found``, ``found_starts`` and ``public_found``: the same without the hand marks).

    Why a read sentence is seen without its hand marks: the model learns from read sentences what hides a name
    nobody found, and predicts it for unread ones, where such a name is a word no span covers.  Seen with the
    mark over the name, a hit looked like a sentence with nothing uncovered, and the model learned that hits
    show no sign (on court decisions and news the QA samples found 2-10 times the misses it expected).

    Why sums per sentence, and the last plan's records reused: a large project has 10^4-10^5 sentences and is
    planned again on every reading window, and between two windows only the sentences a decision or a window
    touched change (``stamp``: the document's recognition, ``None`` to keep nothing).
    """
    n = len(doc.tokens)
    masks = (bytes(covered), bytes(seen), bytes(hand), bytes(pending), bytes(masked_starts), bytes(covered_found),
             bytes(found_starts), bytes(public), bytes(public_found))
    with _last_sentences_lock:
        last = _last_sentences.get(document_id)
    bounds = [(s.first_token, min(s.end_token, n)) for s in doc.sentences]
    bounds = [(f, e) for f, e in bounds if f < e]
    if not bounds:
        return []
    firsts = np.fromiter((f for f, _ in bounds), dtype=np.int64, count=len(bounds))
    ends = np.fromiter((e for _, e in bounds), dtype=np.int64, count=len(bounds))

    def per_sentence(mask: bytes | np.ndarray) -> np.ndarray:
        values = np.frombuffer(mask, dtype=np.uint8) if isinstance(mask, bytes) else mask
        sums = np.concatenate(([0], np.cumsum(values, dtype=np.int64)))
        return sums[ends] - sums[firsts]

    if stamp is not None and last is not None and last[0] == stamp and len(last[2]) == len(bounds) \
            and all(len(m) == n for m in last[1]):
        differs = np.zeros(n, dtype=np.uint8)
        for now, before in zip(masks, last[1], strict=True):
            differs |= np.frombuffer(now, dtype=np.uint8) ^ np.frombuffer(before, dtype=np.uint8)
        todo = np.flatnonzero(per_sentence(differs)).tolist()
        out = list(last[2])
    else:
        todo, out = list(range(len(bounds))), [None] * len(bounds)
    if todo:
        seen_counts, hands, waits, privates, privates_found = (per_sentence(masks[m])[todo].tolist()
                                                               for m in (1, 2, 3, 4, 6))
        covered_bytes, found_bytes, text, tokens = masks[0], masks[5], doc.text, doc.tokens
        public_bytes, public_found_bytes = masks[7], masks[8]
        for i, seen_count, hands_in, waits_in, private_spans, private_found in zip(
                todo, seen_counts, hands, waits, privates, privates_found, strict=True):
            first, end = bounds[i]
            if seen_count == 0:
                stretches: tuple[tuple[int, int], ...] = ((first, end),)
            elif seen_count == end - first:
                stretches = ()
            else:
                stretches = unseen_stretches(seen, first, end)
            unseen, unseen_end = stretches[0] if stretches else (end, end)
            if stretches:
                words_covered, words_public = covered_bytes[first:end], public_bytes[first:end]
            else:  # read: as the person found it
                words_covered, private_spans = found_bytes[first:end], private_found
                words_public = public_found_bytes[first:end]
            key = (document_id, stamp, first, end, words_covered, private_spans, words_public) \
                if stamp is not None else ()
            out[i] = SentenceRef(document_id, first, end,
                                 SentenceView(TextWords(text, tokens, first, end), words_covered, private_spans,
                                              words_public),
                                 not stretches, hands_in > 0, unseen, waits_in > 0, unseen_end, unseen=stretches,
                                 key=key)
    if stamp is not None:
        _keep_sentences(document_id, (stamp, masks, out))
    return out


def _keep_sentences(document_id: int, entry: tuple[object, tuple[bytes, ...], list[SentenceRef]]) -> None:
    """Keep a document's sentence records for the next plan, the least recently planned documents dropped beyond
    :data:`LAST_SENTENCES_MAX_TOKENS`."""
    global _last_sentences_tokens
    with _last_sentences_lock:
        before = _last_sentences.pop(document_id, None)
        _last_sentences[document_id] = entry  # dicts keep insertion order: the first is the least recent
        _last_sentences_tokens += len(entry[1][0]) - (len(before[1][0]) if before else 0)
        while _last_sentences_tokens > LAST_SENTENCES_MAX_TOKENS and len(_last_sentences) > 1:
            oldest = next(iter(_last_sentences))
            _last_sentences_tokens -= len(_last_sentences.pop(oldest)[1][0])


def _record_rule_links(links: list[tuple[int, int, int, bool]], seen: bytearray, person_private: bytearray,
                       records: dict[int, RuleRecord], document_id: int,
                       doc: Document) -> list[tuple[int, int, int, tuple[int, ...], str]]:
    """Count what people saw of each public rule's applications in one document; return the spans still public
    by rules alone that nobody saw, with their rules (document id, first, end, rule ids, words)."""
    by_span: dict[tuple[int, int], list[int]] = defaultdict(list)
    open_public: set[tuple[int, int]] = set()
    for first, end, rule_id, is_open in links:
        by_span[(first, end)].append(rule_id)
        if is_open:
            open_public.add((first, end))
    unseen_spans = []
    for (first, end), rules in by_span.items():
        if first >= end or end > len(seen):
            continue
        contradicted = person_private.find(1, first, end) >= 0
        looked_at = seen.find(0, first, end) < 0
        for rule_id in rules:
            record = records[rule_id]
            record.seen += looked_at or contradicted
            record.contradicted += contradicted
        if (first, end) in open_public and not contradicted and not looked_at:
            words = doc.text[doc.tokens[first].start:doc.tokens[end - 1].end]
            unseen_spans.append((document_id, first, end, tuple(rules), words))
    return unseen_spans


def _with_rule_risks(sentences: list[SentenceRef], open_spans: list[tuple[int, int, int, tuple[int, ...], str]],
                     rates: dict[int, float]) -> list[SentenceRef]:
    """The sentences with the risk of their unseen spans public by contradicted rules (a span belongs to the
    sentence its first token is in; found by bisection: a large document has many sentences and spans)."""
    by_document: dict[int, list[tuple[int, int, tuple[int, ...], str]]] = defaultdict(list)
    for document_id, first, end, rules, words in open_spans:
        if any(r in rates for r in rules):
            by_document[document_id].append((first, end, rules, words))
    if not by_document:
        return sentences
    starts: dict[int, list[int]] = {}
    for document_id, doubted in by_document.items():
        doubted.sort()
        starts[document_id] = [d[0] for d in doubted]
    out = []
    for s in sentences:
        doubted = by_document.get(s.document_id)
        if doubted:
            at = starts[s.document_id]
            inside = doubted[bisect_left(at, s.first_token):bisect_left(at, s.end_token)]
            if inside:
                s = replace(s, rule_risk=sentence_rule_risk([d[2] for d in inside], rates),
                            doubted=tuple(dict.fromkeys(d[3] for d in inside)))
        out.append(s)
    return out


def _risks(project_id: int, model: RiskModel, sentences: list[SentenceRef]) -> list[float]:
    """Each sentence's risk: the model's (a mention nobody marked) with its doubted public spans'."""
    return [with_rule_risk(risk, s.rule_risk)
            for risk, s in zip(_model_risks(project_id, model, sentences), sentences, strict=True)]


#: per project, its model's scores of sentence keys (:attr:`SentenceRef.key`) since the model was fitted
_scores: dict[int, ScoreMemo] = {}


def _model_risks(project_id: int, model: RiskModel, sentences: list[SentenceRef]) -> list[float]:
    """The model's probability for each sentence; a key the model scored before is not scored again."""
    with _models_lock:
        memo = _scores.setdefault(project_id, ScoreMemo())
    return memo.scores(model, [s.view for s in sentences], [s.key or None for s in sentences])


def project_review(conn, project_id: int) -> dict | None:
    return db.query_one("SELECT id, review_mode, qa_target FROM project WHERE id = %s", (project_id,), conn)


#: a project's model is fitted again when its read or its hand-marked sentences grow by more than this share, or
#: shrink (a fit of 10^4 read sentences takes seconds, and a person waits for it)
REFIT_GROWTH = 0.05
_models: dict[int, tuple[int, int, RiskModel]] = {}
_models_lock = threading.Lock()


def _model(project_id: int, read: list[SentenceRef]) -> RiskModel:
    """The project's risk model on its read sentences, fitted again only when they changed enough (see
    :data:`REFIT_GROWTH`): a reading window per request must not pay for a fit each time."""
    hits = sum(s.hit for s in read)
    with _models_lock:
        cached = _models.get(project_id)
    if cached is not None and within_growth(cached[0], len(read)) and within_growth(cached[1], hits):
        return cached[2]
    model = RiskModel().fit([s.view for s in read], [s.hit for s in read])
    with _models_lock:
        _models[project_id] = (len(read), hits, model)
    return model


def within_growth(fitted: int, now: int) -> bool:
    """``now`` is no less than ``fitted`` and no more than :data:`REFIT_GROWTH` above it: the same model serves."""
    return fitted <= now <= fitted * (1 + REFIT_GROWTH)


def forget_models() -> None:
    """Drop the fitted models and kept sentences (project ids restart in a fresh database)."""
    global _last_sentences_tokens
    with _models_lock:
        _models.clear()
        _scores.clear()
    with _last_sentences_lock:
        _last_sentences.clear()
        _last_sentences_tokens = 0


def reading_plan(conn, project_id: int) -> ReadingPlan:
    """The project's reading plan now (see the module docstring)."""
    project = project_review(conn, project_id)
    mode = project["review_mode"] if project else "full"
    target = float(project["qa_target"]) if project else 0.005
    sentences, mentions = project_sentences(conn, project_id)
    plan = ReadingPlan(mode, target, mentions, sentences)
    plan.unread = [s for s in sentences if not s.read]
    if mode != "risk":
        plan.risks = plan.model_risks = [1.0] * len(plan.unread)
        plan.to_read = list(plan.unread)
        plan.expected_missed = 0.0
        return plan
    read = [s for s in sentences if s.read]
    plan.model = _model(project_id, read)
    plan.risks = plan.model_risks = _risks(project_id, plan.model, plan.unread)
    if not plan.model.ready:  # too little evidence yet: everything is read
        plan.to_read = list(plan.unread)
        return plan
    sampled = db.query_one(_SAMPLED, {"p": project_id}, conn)
    plan.calibration = sample_calibration(int(sampled["found"]), float(sampled["expected"]))
    plan.risks = [min(1.0, r * plan.calibration) for r in plan.model_risks]
    # the next sample is judged at the confidence of its look, and reads what nobody saw of each sentence
    routing = route(plan.risks, mentions, target, sequential_confidence(int(sampled["drawn"]) + 1),
                    [sum(e - f for f, e in s.unseen) for s in plan.unread])
    plan.to_read = [plan.unread[i] for i in routing.read]
    plan.expected_missed = routing.expected_missed
    return plan


def _live_leases(conn, project_id: int, account_id: int) -> dict[int, list[tuple[int, int]]]:
    rows = db.query("SELECT w.document_id, w.first_token, w.end_token FROM annotation_window w "
                    "JOIN document d ON d.id = w.document_id WHERE d.project_id = %s AND w.account_id <> %s "
                    "AND w.expires_at > now()", (project_id, account_id), conn)
    leases: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for r in rows:
        leases[r["document_id"]].append((r["first_token"], r["end_token"]))
    return leases


def next_stretch(plan: ReadingPlan, size: int, leases: dict[int, list[tuple[int, int]]]) -> list[SentenceRef]:
    """The first run of sentences to read (one document, consecutive, at most ``size`` tokens unless one
    sentence is longer), skipping text under other accounts' live leases and sentences where an undecided span
    waits for its span review; empty when none is left."""
    def free(s: SentenceRef) -> bool:
        return not s.pending and not any(a < s.end_token and s.first_token < b
                                         for a, b in leases.get(s.document_id, ()))
    queue = [s for s in plan.to_read if free(s)]
    if not queue:
        return []
    run = [queue[0]]
    start = _start(queue[0])
    for s in queue[1:]:
        if s.document_id != run[0].document_id or s.first_token != run[-1].end_token \
                or _unseen_end(run[-1]) < run[-1].end_token or not s.whole_unseen or s.end_token - start > size:
            break
        run.append(s)
    return run


def _start(s: SentenceRef) -> int:
    return s.first_unseen if s.first_unseen >= 0 else s.first_token


def _unseen_end(s: SentenceRef) -> int:
    return s.unseen_end if s.unseen_end >= 0 else s.end_token


def reading_range(run: list[SentenceRef], size: int) -> tuple[int, int]:
    """The token range of a reading window on a run of sentences: from the first token no window showed to the
    next one a window did show (or the run's end), at most ``size`` tokens.

    Why stop at shown text: a span review showed a long sentence's words around its spans; reading it again
    would charge them twice.  So a sentence a span review showed in part is read in its unseen stretches, and
    one longer than the account's window in parts; neither is ever shown whole."""
    start = _start(run[0])
    end = run[-1].end_token if len(run) > 1 else _unseen_end(run[0])
    return start, min(end, start + size)


@dataclass(frozen=True, slots=True)
class Reading:
    """A reading window and why it is read: its riskiest sentence's risk and the features behind it."""

    window: store_windows.Window
    #: ``risk``: the project's risk model chose it; ``untrained``: too few hand marks yet, everything is read;
    #: ``full``: the project reads everything
    reason: str
    risk: float
    features: tuple[str, ...] = ()


def reading_projects(conn, account_id: int, is_admin: bool, by_risk_only: bool = False) -> list[int]:
    """Projects whose text the account may be given to read (its chosen project only, if it chose one)."""
    member = "" if is_admin else ("AND EXISTS (SELECT 1 FROM project_member m WHERE m.project_id = p.id "
                                  "AND m.account_id = %(me)s) ")
    mode = "AND p.review_mode = 'risk' " if by_risk_only else ""
    rows = db.query("SELECT p.id FROM project p LEFT JOIN annotator_choice c ON c.account_id = %(me)s "  # noqa: S608  # nosec B608
                    "WHERE (c.project_id IS NULL OR c.project_id = p.id) " + member + mode + "ORDER BY p.id",
                    {"me": account_id}, conn)
    return [r["id"] for r in rows]


def assign_reading(conn, account_id: int, is_admin: bool, size: int, lease_seconds: int,
                   by_risk_only: bool = False) -> Reading | None:
    """Lease the account a window on the next text its projects route to reading, or ``None``.

    ``by_risk_only``: only projects that review by risk (where reading follows the span reviews by itself).
    """
    for pid in reading_projects(conn, account_id, is_admin, by_risk_only):
        plan = reading_plan(conn, pid)
        run = next_stretch(plan, size, _live_leases(conn, pid, account_id))
        if not run:
            continue
        first, end = reading_range(run, size)
        store_windows.lock_assignment(conn, run[0].document_id)
        first, end = store_windows.widen_to_spans(conn, run[0].document_id, account_id, first, end,
                                                  max(end - first, size))
        window = store_windows.store_window(conn, account_id, run[0].document_id, first, end, lease_seconds)
        if plan.mode != "risk":
            return Reading(window, "full", 1.0)
        if plan.model is None or not plan.model.ready:
            return Reading(window, "untrained", 1.0)
        by_sentence = dict(zip(map(id, plan.unread), plan.model_risks, strict=True))
        risks = [by_sentence[id(s)] for s in run]  # the run is of the plan's unread sentences
        riskiest = max(range(len(run)), key=lambda i: risks[i])
        doubted = tuple(f"rule={words}" for words in run[riskiest].doubted)
        return Reading(window, "risk", risks[riskiest], doubted + tuple(plan.model.explain(run[riskiest].view)))
    return None
