"""Surrogate consistency of the fully automatic path: one entity, every mention covered, one replacement per form.

Why: a pseudonym promises that one person is one pseudonym in every mention.  With gold spans that is
a property of the replacer alone; in real use the spans come from psan's own recognition, and a mention
missed, a mention given another category or a span that swallowed a neighbour ("Keith Walker: Mhm")
breaks the promise.  This measure runs the real ``psan-tool anonymize --mode pseudonymize`` (its own
``main``, default pipeline, no gold spans), reads the standoff key back and asks, for every gold entity
mentioned two or more times in a document:

* is every mention covered (each of its non-blank characters inside a replaced region), and
* is every occurrence of one form (the mention's exact text) rendered by one replacement?

The rendering of a mention is the output text of the region(s) over it; a region reaching beyond the
mention counts only when the replacement keeps the extra text as it was ("Walker's" → "Hardin's") or
when the mention is one piece of a replacement built piece by piece with the original's brackets and
joiners ("Name (Alias)", "1 May and 3 June 2001"), else the whole replacement is the rendering
("Keith Walker: Mhm" → "Chase Carlos: Cobb" differs from "Terrence Hardin"); a category tag is the
same tag wherever it stands.  Mentions are the
corpus' masked gold spans (TAB: DIRECT and QUASI; elsewhere every span with an entity id).  Documents
fall into two folds by a hash of their id, so anything tuned on one is checked on the other.

Run: ``python -m ner_eval consistency --corpus tab-dev`` (a path or a name in the shared data folder).
"""
from __future__ import annotations

import hashlib
import json
import re
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ner_eval.corpus import CorpusDoc, is_gold, read_jsonl

__all__ = ["EntityResult", "fold_of", "score_document", "failure_line", "measure", "main"]

#: a category tag written where no surrogate fits ("[PERSON]", "[DEMOGRAPHIC]")
_TAG_RE = re.compile(r"\[[^\[\]\s]+\]")


@dataclass(slots=True)
class EntityResult:
    """The verdict on one multi-mention gold entity of one document."""

    document: str
    entity: str
    mentions: int
    covered: bool
    consistent: bool
    #: form → its renderings (only kept for failures, to show what went wrong)
    renderings: dict[str, list[str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.covered and self.consistent


def fold_of(doc_id: str) -> int:
    """0 or 1: a stable split of the documents independent of their order."""
    return hashlib.sha256(doc_id.encode("utf-8")).digest()[0] & 1


def _pieces(original: str, replacement: str) -> list[tuple[int, int, str]]:
    """(start, end in the original, rendering) of the names a composite replacement was built from.

    The replacer renders "Name (Alias)" and a date range piece by piece, keeping brackets and joiners
    (:mod:`psan.tool.surrogates.variants`); a mention that is one such piece is rendered by that piece.
    """
    from psan.tool.surrogates.variants import aliased, date_parts, plain_joints, wrapping
    a, b = aliased(original), aliased(replacement)
    if a is not None and b is not None and a[1] == b[1] and a[3] == b[3]:
        out = [(0, len(a[0]), b[0]), (len(a[0]) + len(a[1]), len(original) - len(a[3]), b[2])]
        for start, end, rendered in list(out):  # “EAT” → EAT: the quotes stay, the name inside is the piece
            lead, core, tail = wrapping(original[start:end])
            r_lead, r_core, r_tail = wrapping(rendered)
            if (lead or tail) and (lead, tail) == (r_lead, r_tail):
                out.append((start + len(lead), end - len(tail), r_core))
        return out
    da, db = date_parts(original), date_parts(replacement)
    if da is None or db is None:
        return []
    # the joints are said with signs in the surrogate ("and" → "&", "from" dropped): pair what is written
    kept, pos = [], 0
    for (piece, dated), joint in zip(da, plain_joints(da), strict=True):
        if dated or joint:
            kept.append((pos, piece, dated, joint))
        pos += len(piece)
    if len(kept) != len(db) or any(dated != y[1] or (not dated and joint != y[0])
                                   for (_, _, dated, joint), y in zip(kept, db, strict=True)):
        return []
    return [(at, at + len(piece), rendered) for (at, piece, dated, _), (rendered, _) in zip(kept, db, strict=True)
            if dated]


def _rendering(text: str, start: int, end: int, entries: Sequence[dict[str, Any]]) -> str | None:
    """The output written for ``text[start:end]``, ``None`` when a non-blank character is not replaced."""
    over = [e for e in entries if e["original_start"] < end and e["original_end"] > start]
    covered = set()
    for e in over:
        covered.update(range(max(start, e["original_start"]), min(end, e["original_end"])))
    if any(not text[i].isspace() and i not in covered for i in range(start, end)):
        return None
    parts: list[str] = []
    pos = start
    for e in sorted(over, key=lambda e: e["original_start"]):
        if e["original_start"] > pos:
            parts.append(text[pos:e["original_start"]])
        rep = e["replacement"]
        pre = text[e["original_start"]:max(start, e["original_start"])]
        post = text[min(end, e["original_end"]):e["original_end"]]
        piece = [r for a, b, r in _pieces(text[e["original_start"]:e["original_end"]], rep)
                 if (a, b) == (len(pre), len(pre) + end - start)]
        if rep.startswith(pre) and rep.endswith(post) and len(rep) >= len(pre) + len(post):
            parts.append(rep[len(pre):len(rep) - len(post)])
        elif piece:  # the mention is one piece of "Name (Alias)" or of a date range
            parts.append(piece[0])
        elif _TAG_RE.fullmatch(rep):  # a category tag says the same wherever it stands
            parts.append(rep)
        else:  # the region swallowed a neighbour and changed it: the whole replacement is what the reader sees
            parts.append(f"⟨{rep}⟩")
        pos = max(pos, e["original_end"])
    return "".join(parts)


def _mentions(doc: CorpusDoc) -> dict[str, list[tuple[int, int]]]:
    by_entity: dict[str, set[tuple[int, int]]] = defaultdict(set)
    for s in doc.spans:
        if s.entity and s.end > s.start and is_gold(s):
            by_entity[s.entity].add((s.start, s.end))
    return {k: sorted(v) for k, v in by_entity.items() if len(v) > 1}


def score_document(doc: CorpusDoc, entries: Sequence[dict[str, Any]]) -> list[EntityResult]:
    """One result per gold entity of ``doc`` with two or more mentions, given the document's standoff."""
    results = []
    for entity, spans in sorted(_mentions(doc).items()):
        forms: dict[str, set[str | None]] = defaultdict(set)
        for start, end in spans:
            forms[doc.text[start:end]].add(_rendering(doc.text, start, end, entries))
        covered = all(None not in r for r in forms.values())
        consistent = all(len(r) == 1 for r in forms.values())
        res = EntityResult(doc.id, entity, len(spans), covered, consistent)
        if not res.ok:
            res.renderings = {f: sorted("∅" if r is None else r for r in rs) for f, rs in forms.items()}
        results.append(res)
    return results


def failure_line(r: EntityResult) -> str:
    """One failing entity for the eye: its fold (rules are chosen on one, judged on the other), document, id and
    each form with its renderings ("∅": a mention not covered; "⟨…⟩": a region wider than the mention, changed)."""
    forms = "; ".join(f"{f!r} → {', '.join(map(repr, rs))}" for f, rs in r.renderings.items())
    return f"  fold{fold_of(r.document)} {r.document} {r.entity}: {forms}"


def run_anonymize(docs: Sequence[CorpusDoc], language: str, models: Path | None, seed: str = "0",
                  jobs: int = 1) -> dict[str, list[dict[str, Any]]]:
    """Standoff entries per document id, from ``psan-tool anonymize --mode pseudonymize`` on the texts."""
    from psan.tool.cli import main as psan_tool

    with tempfile.TemporaryDirectory(prefix="psan-consistency-") as tmp:
        src, out, standoff = Path(tmp, "in"), Path(tmp, "out"), Path(tmp, "standoff")
        src.mkdir()
        names = {}
        for i, doc in enumerate(docs):
            name = f"{i:05d}.txt"
            names[name] = doc.id
            Path(src, name).write_text(doc.text, encoding="utf-8", newline="")
        argv = ["anonymize", str(src), "--lang", language, "--mode", "pseudonymize", "--out", str(out),
                "--standoff-dir", str(standoff), "--reason", "consistency measurement", "--seed", seed, "--quiet",
                "--jobs", str(jobs)]
        if models is not None:
            argv += ["--models-dir", str(models)]
        status = psan_tool(argv)
        if status != 0:
            raise RuntimeError(f"psan-tool anonymize failed (exit status {status})")
        found = {}
        for name, doc_id in names.items():
            record = json.loads(Path(standoff, f"{name}.json").read_text(encoding="utf-8"))
            found[doc_id] = record["standoff"]
        return found


def summarize(results: Sequence[EntityResult]) -> dict[str, Any]:
    n = len(results)
    return {"entities": n, "consistent_share": round(sum(r.ok for r in results) / n, 3) if n else None,
            "uncovered": sum(not r.covered for r in results),
            "inconsistent": sum(r.covered and not r.consistent for r in results)}


def measure(docs: Sequence[CorpusDoc], language: str | None, models: Path | None, seed: str = "0",
            jobs: int = 1) -> tuple[dict[str, Any], list[EntityResult]]:
    """The summary (all documents and both folds) and every entity's result."""
    by_lang: dict[str, list[CorpusDoc]] = defaultdict(list)
    for d in docs:
        by_lang[language or d.lang or "en"].append(d)
    results: list[EntityResult] = []
    for lang, group in by_lang.items():
        standoff = run_anonymize(group, lang, models, seed, jobs)
        for d in group:
            results.extend(score_document(d, standoff[d.id]))
    fold = {d.id: fold_of(d.id) for d in docs}
    summary = {"all": summarize(results),
               "fold0": summarize([r for r in results if fold[r.document] == 0]),
               "fold1": summarize([r for r in results if fold[r.document] == 1])}
    return summary, results


def main(corpus: str, language: str | None, data: str | None, models: str | None, limit: int | None,
         seed: str, as_json: bool, failures: int, jobs: int = 1) -> int:
    """Print the share of consistent multi-mention entities (and some failures to look at)."""
    import sys

    from ner_eval.corpus import corpus_name, data_dir, models_dir

    path = Path(corpus)
    if not path.is_file():
        try:
            path = data_dir(data) / f"{corpus.removesuffix('.jsonl')}.jsonl"
        except FileNotFoundError as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
    if not path.is_file():
        print(f"error: corpus {corpus} not found (a path, or a name in the shared data folder)", file=sys.stderr)
        return 2
    docs = read_jsonl(path, limit)
    summary, results = measure(docs, language, models_dir(models), seed, jobs)
    summary["corpus"] = corpus_name(path)
    if as_json:
        print(json.dumps(summary, sort_keys=True))
    else:
        for part in ("all", "fold0", "fold1"):
            s = summary[part]
            print(f"{summary['corpus']} {part}: {s['consistent_share']} of {s['entities']} multi-mention entities "
                  f"consistent ({s['uncovered']} with a mention not covered, {s['inconsistent']} with two "
                  f"renderings of one form)")
    for r in [r for r in results if not r.ok][:failures]:
        print(failure_line(r), file=sys.stderr)
    return 0
