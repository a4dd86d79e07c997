"""What the release gives away, measured from the downloaded bytes and the pseudonymization key.

Why from the download: the ZIP is what leaves the building.  The key (``key.json``) maps every
replaced region of an original to its place in the output; every other character is printed in
clear.  The measurement first proves that: the output must equal the original outside the key's
regions, character for character (``key_mismatches`` counts documents where it does not; their
every character then counts as released, fail-safe).  Then:

* ``leaked_mentions``: gold mentions any word character of which is released in clear at its
  place, or a replacement at whose place prints a word of three letters or more of the mention
  (:func:`printed_inside`; ``reprinted_mentions`` counts those alone);
* ``masked_precision``: share of the masked non-whitespace characters that lie inside a gold span;
* ``candidate_miss_rate``: of the tokens the QA sample draws from (released tokens starting with a
  capital or holding a digit), the share overlapping a gold span — the true value of the miss
  rate the release report's QA bound estimates.
"""
from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ner_eval.corpus import CorpusDoc, gold_spans
from psan.store.publish.output import safe_filename
from psan.store.publish.qa import candidate

_WORD = re.compile(r"\w")
_LETTERS = re.compile(r"[^\W\d_]+")
#: a word of a gold mention printed in its replacement counts as a leak from this many letters
REPRINTED_LETTERS = 3


@dataclass
class Released:
    """Counts over the documents of a release."""

    documents: int = 0
    gold_mentions: int = 0
    leaked_mentions: int = 0
    masked_chars: int = 0
    masked_gold_chars: int = 0
    key_mismatches: int = 0
    #: gold mentions leaked only because their replacement prints a word of theirs (:func:`printed_inside`)
    reprinted_mentions: int = 0
    candidate_tokens: int = 0
    candidate_misses: int = 0
    leaked_examples: list[dict[str, Any]] = field(default_factory=list)
    #: masked non-whitespace characters outside gold, by the key entry's type (what costs precision)
    masked_outside_gold: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"gold_mentions": self.gold_mentions, "leaked_mentions": self.leaked_mentions,
                "masked_precision": round(self.masked_gold_chars / self.masked_chars, 4) if self.masked_chars else None,
                "key_mismatches": self.key_mismatches, "released_documents": self.documents,
                "reprinted_mentions": self.reprinted_mentions,
                "candidate_tokens": self.candidate_tokens, "candidate_misses": self.candidate_misses,
                "candidate_miss_rate": round(self.candidate_misses / self.candidate_tokens, 5)
                if self.candidate_tokens else None,
                "masked_outside_gold": dict(sorted(self.masked_outside_gold.items(), key=lambda kv: -kv[1]))}


def masked_mask(original: str, output: str | None, entries: Sequence[dict[str, Any]]) -> tuple[bytearray, bool]:
    """1 per character of ``original`` replaced in ``output``; and whether the output fits the key.

    A leak hides behind a replacement that prints the original: such entries do not mask.
    """
    mask = bytearray(len(original))
    if output is None:
        return mask, False
    out_pos = orig_pos = 0
    fits = True
    for e in sorted(entries, key=lambda e: e["original_start"]):
        # characters the output dropped next to the replacement (``removed_before/after``) are not printed either
        a = e["original_start"] - len(e.get("removed_before") or "")
        b = e["original_end"] + len(e.get("removed_after") or "")
        gap = original[orig_pos:a]
        if a < orig_pos or output[out_pos:out_pos + len(gap)] != gap or e["output_start"] != out_pos + len(gap):
            fits = False
            break
        if e["replacement"] != e["original_text"] or not _WORD.search(e["original_text"]):
            mask[a:b] = b"\x01" * (b - a)
        orig_pos, out_pos = b, e["output_end"]
    if fits and output[out_pos:] != original[orig_pos:]:
        fits = False
    return (mask if fits else bytearray(len(original))), fits


def printed_inside(mention: str, entries: Sequence[dict[str, Any]], start: int, end: int) -> bool:
    """Whether a replacement at the mention's place prints a word of it (letters, at least
    :data:`REPRINTED_LETTERS`, case-insensitive): "Na západní frontě klid (1928)" → "… (1926)" releases the title."""
    words = {w.casefold() for w in _LETTERS.findall(mention) if len(w) >= REPRINTED_LETTERS}
    if not words:
        return False
    return any(e["original_start"] < end and start < e["original_end"]
               and any(w.casefold() in words for w in _LETTERS.findall(e["replacement"] or ""))
               for e in entries)


def reprinting_kinds(entries: Sequence[dict[str, Any]], start: int, end: int) -> list[str]:
    """The types of the key entries overlapping a mention, a tag marked ``tag:``: which operator reprinted it
    (a report names kinds, never corpus text)."""
    out = []
    for e in entries:
        if e["original_start"] < end and start < e["original_end"]:
            kind = str(e.get("type") or e.get("category") or "-")
            out.append(f"tag:{kind}" if (e["replacement"] or "").startswith("[") else kind)
    return out


def released_documents(corpus: Sequence[CorpusDoc], doc_ids: dict[str, int], archive: zipfile.ZipFile,
                       key: dict[str, Any]
                       ) -> Iterator[tuple[CorpusDoc, int, str | None, bytearray, bool, list[dict[str, Any]]]]:
    """Each corpus document with its document id, its text in the downloaded archive (``None``: not there), its
    masked characters and whether the key fits the text (:func:`masked_mask`), and its key entries.

    Why one reader: the measurement and the attribution must read the same bytes of the same archive member."""
    names = {d["id"]: d["name"] for d in key.get("documents", [])}
    entries: dict[int, list[dict[str, Any]]] = {}
    for e in key.get("entries", []):
        entries.setdefault(int(e["document_id"]), []).append(e)
    members = set(archive.namelist())
    for doc in corpus:
        doc_id = doc_ids[doc.id]
        name = safe_filename(names.get(doc_id, f"{doc.id}.txt"), ".pseudonymize.txt")
        member = name if name in members else f"{doc_id}-{name}"
        output = archive.read(member).decode("utf-8") if member in members else None
        doc_entries = entries.get(doc_id, [])
        mask, fits = masked_mask(doc.text, output, doc_entries)
        yield doc, doc_id, output, mask, fits, doc_entries


def measure_release(corpus: Sequence[CorpusDoc], doc_ids: dict[str, int], archive: zipfile.ZipFile,
                    key: dict[str, Any], tokens: dict[int, list[tuple[int, int]]]) -> Released:
    """Compare the downloaded release with the gold of ``corpus`` (``doc_ids``: corpus id → document id).

    ``tokens``: the app's token offsets per document id (for the QA candidate tokens).
    """
    result = Released()
    for doc, doc_id, output, mask, fits, doc_entries in released_documents(corpus, doc_ids, archive, key):
        result.documents += output is not None
        result.key_mismatches += not fits
        gold = gold_spans(doc)
        inside = bytearray(len(doc.text))
        for g in gold:
            inside[g.start:g.end] = b"\x01" * (g.end - g.start)
            result.gold_mentions += 1
            clear = [i for i in range(g.start, g.end) if not mask[i] and _WORD.match(doc.text[i])]
            reprinted = fits and printed_inside(doc.text[g.start:g.end], doc_entries, g.start, g.end)
            result.reprinted_mentions += bool(reprinted and not clear)
            if clear or reprinted:
                result.leaked_mentions += 1
                if len(result.leaked_examples) < 20:  # offsets and label only: no corpus text in reports
                    result.leaked_examples.append({"document": doc.id, "start": g.start, "end": g.end,
                                                   "label": g.label, "clear_chars": len(clear),
                                                   "reprinted_by": reprinting_kinds(doc_entries, g.start, g.end)
                                                   if reprinted else []})
        for i, ch in enumerate(doc.text):
            if mask[i] and not ch.isspace():
                result.masked_chars += 1
                result.masked_gold_chars += inside[i]
        for e in doc_entries if fits else []:
            outside = sum(1 for i in range(e["original_start"], e["original_end"])
                          if not inside[i] and not doc.text[i].isspace())
            if outside:
                kind = str(e.get("type") or e.get("category") or "-")
                result.masked_outside_gold[kind] = result.masked_outside_gold.get(kind, 0) + outside
        for start, end in tokens.get(doc_id, []):
            if not any(mask[start:end]) and candidate(doc.text[start:end]):
                result.candidate_tokens += 1
                result.candidate_misses += any(inside[start:end])
    return result
