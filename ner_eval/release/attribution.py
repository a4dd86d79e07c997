"""What made each masked character outside gold private: the mechanism behind the span that masks it.

Why: ``masked_precision`` says how much is masked for nothing, not why.  Read from the store of the
finished run (before the throw-away instance goes), every masked non-whitespace character outside the
gold is charged to the covering span whose final decision is not PUBLIC, by what settled that span:

* ``token`` / ``accept`` / ``word_type`` / ``ne_type`` / ``entity`` / ``hand``: a person's decision
  on exactly that span (the ``decision_log`` action of its last decision);
* ``rule:word_type`` / ``rule:entity``: a private WORD_TYPE rule a person made by word type or by the
  entity decision (``x``), matching the span here;
* ``rule:ne_type``: an NE_TYPE rule a person decided private; ``rule:learned``: one the project learned
  (:func:`psan.store.annotation.suggestions.learn_type_rules`); ``rule:preset``: private when the
  project was created;
* ``rule:model`` and other rule types by name; ``undecided``: never decided (masked fail-closed);
* ``none``: no annotation covers it (a surrogate region wider than the spans).

When several spans cover a character, the first in the order above wins (a person's exact decision
is the most specific cause).  Only counts leave this module: no document text.
"""
from __future__ import annotations

import zipfile
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ner_eval.corpus import CorpusDoc, gold_spans
from ner_eval.release.measure import released_documents

ORDER = ("token", "hand", "accept", "entity", "word_type", "ne_type", "search", "rule:entity", "rule:word_type",
         "rule:ne_type", "rule:learned", "rule:preset", "rule:model", "rule:other", "undecided")


def _mechanisms(conn, project_id: int, document_id: int, threshold: float, preset: set[int],
                rule_actions: dict[int, str]) -> list[tuple[int, int, str, str]]:
    """(first, end, mechanism, NE type) of every span of the document whose final decision is not PUBLIC."""
    from psan.store.publish.release_audit import span_provenance
    rows = span_provenance(conn, document_id)
    out = []
    for r in rows:
        ne = r["ne_type"] or "-"
        if r["decision"] == "PUBLIC":
            continue
        if r["decision"] == "PRIVATE":
            out.append((r["first_token"], r["end_token"], r["action"] or "token", ne))
            continue
        if r["rule_level"] > threshold:
            if r["rule_level"] < 1:  # not public by the rules either: undecided
                out.append((r["first_token"], r["end_token"], "undecided", ne))
            continue
        votes = [(rid, kind, conf, authored) for rid, kind, conf, authored in r["rules"] if conf < 0]
        out.append((r["first_token"], r["end_token"], _rule_mechanism(votes, preset, rule_actions), ne))
    return out


def _rule_mechanism(votes: list[Any], preset: set[int], rule_actions: dict[int, str]) -> str:
    names = []
    for rid, kind, _conf, authored in votes:
        if kind == "WORD_TYPE":
            names.append("rule:entity" if rule_actions.get(rid) == "entity" else "rule:word_type")
        elif kind == "NE_TYPE":
            names.append("rule:ne_type" if authored else "rule:preset" if rid in preset else "rule:learned")
        elif kind == "MODEL":
            names.append("rule:model")
        else:
            names.append("rule:other")
    return min(names, key=ORDER.index) if names else "rule:other"


def attribute(conn, project_id: int, corpus: Sequence[CorpusDoc], doc_ids: dict[str, int],
              tokens: dict[int, list[tuple[int, int]]], archive: zipfile.ZipFile, key: dict[str, Any],
              preset: set[int]) -> dict[str, Any]:
    """Masked characters outside gold by mechanism, and by mechanism and NE type (see the module docstring)."""
    from psan.store.admin.projects import get_project
    from psan.store.publish.release_audit import rule_first_actions
    threshold = float(get_project(project_id, conn)["private_threshold"])
    rule_actions = rule_first_actions(conn, project_id)
    by_mechanism: Counter[str] = Counter()
    by_type: Counter[str] = Counter()
    spans_by_mechanism: Counter[str] = Counter()
    partial: Counter[str] = Counter()
    detail: dict[tuple[str, int, int, str, str], list[int]] = {}
    for doc, doc_id, _, mask, fits, _ in released_documents(corpus, doc_ids, archive, key):
        if not fits:
            continue
        inside = bytearray(len(doc.text))
        for g in gold_spans(doc):
            inside[g.start:g.end] = b"\x01" * (g.end - g.start)
        spans = _mechanisms(conn, project_id, doc_id, threshold, {*preset}, rule_actions)
        toks = tokens[doc_id]
        charged: set[tuple[int, int, str]] = set()
        for i, ch in enumerate(doc.text):
            if not mask[i] or inside[i] or ch.isspace():
                continue
            t = _token_at(toks, i)
            cover = [s for s in spans if t is not None and s[0] <= t < s[1]]
            if not cover:
                by_mechanism["none"] += 1
                by_type["none|-"] += 1
                continue
            first, end, mech, ne = min(cover, key=lambda s: (ORDER.index(s[2]), s[1] - s[0]))
            by_mechanism[mech] += 1
            by_type[f"{mech}|{ne}"] += 1
            start, stop = toks[first][0], toks[end - 1][1]
            row = detail.setdefault((doc.id, start, stop, mech, ne), [0, int(any(inside[start:stop]))])
            row[0] += 1
            partial[mech] += row[1]
            if (first, end, mech) not in charged:
                charged.add((first, end, mech))
                spans_by_mechanism[mech] += 1
    return {"chars": dict(by_mechanism.most_common()), "spans": dict(spans_by_mechanism.most_common()),
            "chars_by_type": dict(by_type.most_common(40)),
            #: of ``chars``, those of spans that overlap gold too (a span wider than the gold mention)
            "chars_partial": dict(partial.most_common()),
            #: every charged span: [corpus document, start, end (characters), mechanism, NE type, chars, overlaps gold]
            "detail": [[*k, *v] for k, v in sorted(detail.items())]}


def _token_at(toks: list[tuple[int, int]], i: int) -> int | None:
    import bisect
    k = bisect.bisect_right(toks, (i, 1 << 62)) - 1
    return k if k >= 0 and toks[k][0] <= i < toks[k][1] else None
