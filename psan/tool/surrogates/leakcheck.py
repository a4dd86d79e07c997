"""Corpus check: pseudonymize gold-annotated documents and count leaks and reversal failures.

Why: the promise of pseudonymization is that no private original survives
in the output.  A *leak* is an original private string (gold span, outermost
of nested spans) that occurs in the output — as a whole token sequence — more
often than it occurs in the document's public text (so "Article 5" in public
text does not excuse nor incriminate a date "5").  Reversal must give the
original text byte for byte.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from psan.tool.decisions.voting import PrivateRegion
from psan.tool.release.key import de_pseudonymize
from psan.tool.surrogates.replacer import SurrogateReplacer, pseudonymize_document
from psan.tool.text.categories import category_of

#: CNEC annotation markers that are not entities
MARKERS = frozenset({"s", "f", "?", "segm", "cap", "lower", "upper"})


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def gold_regions(doc: dict[str, Any], entity_ids: dict[str, int]) -> list[PrivateRegion]:
    """Outermost gold spans as regions (label = corpus entity id where the corpus links mentions)."""
    spans = sorted((s for s in doc["spans"] if s["label"] not in MARKERS and s["end"] > s["start"]),
                   key=lambda s: (s["start"], -s["end"]))
    regions: list[PrivateRegion] = []
    for s in spans:
        if regions and s["start"] < regions[-1].end:
            continue  # nested (or same stretch labelled twice): the outermost wins
        label = None
        if s.get("entity"):
            label = entity_ids.setdefault(s["entity"], len(entity_ids))
        regions.append(PrivateRegion(s["start"], s["end"], category_of(s["label"]), label, s["label"]))
    return regions


def _count(haystack: str, needle: str) -> int:
    pattern = (r"(?<!\w)" if needle[:1].isalnum() else "") + re.escape(needle) + (
        r"(?!\w)" if needle[-1:].isalnum() else "")
    return len(re.findall(pattern, haystack))


def leaks(text: str, regions: Iterable[PrivateRegion], output: str) -> list[str]:
    """Originals found in ``output`` more often than in the public text of ``text``."""
    regions = list(regions)
    public, pos = [], 0
    for r in regions:
        public.append(text[pos:r.start])
        public.append("\x00")
        pos = r.end
    public.append(text[pos:])
    public_text = "".join(public)
    found = []
    for original in sorted({text[r.start:r.end].strip() for r in regions}):
        if original and _count(output, original) > _count(public_text, original):
            found.append(original)
    return found


@dataclass(slots=True)
class Report:
    documents: int = 0
    regions: int = 0
    surrogates: int = 0
    tags: int = 0
    leaks: int = 0
    reversal_errors: int = 0
    leaked: list[str] = field(default_factory=list)


def check_file(path: Path, seed: int = 1, limit: int | None = None, policy: dict[str, Any] | None = None) -> Report:
    """Pseudonymize every document of one corpus file as one project and count leaks/reversal errors."""
    docs = list(read_jsonl(path))[:limit] if limit else list(read_jsonl(path))
    language = docs[0]["lang"] if docs else "en"
    entity_ids: dict[str, int] = {}
    prepared = [(d, gold_regions(d, entity_ids)) for d in docs]
    replacer = SurrogateReplacer({"country": "replace", **(policy or {})}, language, seed)
    for d, regions in prepared:  # the whole project's originals are forbidden as surrogates
        replacer.observe(d["text"], regions)
    report = Report()
    for d, regions in prepared:
        out, entries = pseudonymize_document(d["text"], regions, d["lang"], seed, replacer=replacer, document=d["id"])
        report.documents += 1
        report.regions += len(regions)
        for e in entries:
            if e["replacement"] and not e["replacement"].startswith("["):
                report.surrogates += 1
            else:
                report.tags += 1
        found = leaks(d["text"], regions, out.text)
        report.leaks += len(found)
        report.leaked.extend(found[:3])
        if de_pseudonymize(out.text, entries) != d["text"]:
            report.reversal_errors += 1
    return report
