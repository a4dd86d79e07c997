"""Reading the shared JSONL corpora and choosing the gold spans to score.

Why a module of its own: every metric and the simulator must agree on *which*
spans are gold.  CNEC marker labels (``s f ? segm cap lower upper``) are not
entity classes, and TAB's ``NO_MASK`` spans need not be masked, so both are
dropped here once.  The format is described in ``shared/data/README.md``.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

#: CNEC annotation markers, not entity classes (shared/data/README.md)
MARKER_LABELS = frozenset({"s", "f", "?", "segm", "cap", "lower", "upper"})
#: TAB identifier types that must be masked
MASKED_IDENTIFIERS = frozenset({"DIRECT", "QUASI"})

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True, slots=True)
class GoldSpan:
    """One gold annotation (character offsets, end exclusive)."""

    start: int
    end: int
    label: str
    entity: str | None = None
    identifier: str | None = None


@dataclass(slots=True)
class CorpusDoc:
    """One document of a corpus: text plus all its source spans."""

    id: str
    lang: str
    text: str
    spans: list[GoldSpan] = field(default_factory=list)
    source: str = ""


#: sources whose gold marks each name once per article (BSNLP's document-level annotation: the first mention
#: of each form); :func:`complete_first_mentions` marks the form's other occurrences as the same name
FIRST_MENTION_SOURCES = ("bsnlp-",)
_WORD = r"[^\W_]"


def _article(doc_id: str) -> str:
    """The article a chunk of a BSNLP document belongs to ("bsnlp-pl-val-01-02" → "bsnlp-pl-val-01")."""
    parts = doc_id.split("-")
    return "-".join(parts[:4]) if len(parts) > 4 else doc_id


def complete_first_mentions(docs: list[CorpusDoc]) -> None:
    """Mark every whole-word occurrence of a gold form in its article, where the source gold marks one only.

    Why: BSNLP annotates the names of an article as a list of forms, so its token-level conversion marks
    the first occurrence of "Komisja Europejska" and leaves the second unmarked (pl-dev: 428 of 461 gold
    spans are their form's first occurrence; 690 occurrences of gold forms in the text).  Scored against
    that, a correctly masked repeat counts as over-masking and a repeat left in clear as no leak.
    """
    import re
    forms: dict[str, dict[str, str]] = {}
    for doc in docs:
        if doc.source.startswith(FIRST_MENTION_SOURCES):
            for s in doc.spans:
                if is_gold(s):
                    forms.setdefault(_article(doc.id), {}).setdefault(doc.text[s.start:s.end], s.label)
    for doc in docs:
        known = forms.get(_article(doc.id)) if doc.source.startswith(FIRST_MENTION_SOURCES) else None
        if not known:
            continue
        taken = sorted((s.start, s.end) for s in doc.spans)
        added = []
        for form in sorted(known, key=len, reverse=True):
            for m in re.finditer(rf"(?<!{_WORD}){re.escape(form)}(?!{_WORD})", doc.text):
                if not any(a < m.end() and m.start() < b for a, b in taken):
                    added.append(GoldSpan(m.start(), m.end(), known[form]))
                    taken.append((m.start(), m.end()))
        doc.spans = sorted(doc.spans + added, key=lambda s: (s.start, -s.end))


def read_jsonl(path: str | os.PathLike[str], limit: int | None = None) -> list[CorpusDoc]:
    """Read a corpus file; ``limit`` keeps the first N documents (for quick runs).

    A corpus whose gold marks each name once per article is completed (:func:`complete_first_mentions`).
    """
    docs: list[CorpusDoc] = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            raw = json.loads(line)
            spans = [GoldSpan(int(s["start"]), int(s["end"]), str(s["label"]), s.get("entity"), s.get("identifier"))
                     for s in raw.get("spans", [])]
            docs.append(CorpusDoc(str(raw["id"]), str(raw.get("lang", "")), str(raw["text"]), spans,
                                  str(raw.get("source", ""))))
            if limit is not None and len(docs) >= limit:
                break
    complete_first_mentions(docs)
    return docs


def is_gold(span: GoldSpan) -> bool:
    """Should this source span be masked (and so scored)?  Markers and TAB NO_MASK are not."""
    if span.label in MARKER_LABELS:
        return False
    return not (span.identifier is not None and span.identifier not in MASKED_IDENTIFIERS)


def gold_spans(doc: CorpusDoc) -> list[GoldSpan]:
    """The scored gold spans, one per distinct character range (labels are ignored, as in the thesis).

    Why dedupe: CNEC may give one stretch two labels; the thesis scores *where*
    sensitive text is, not its type, so a range counts once.
    """
    seen: set[tuple[int, int]] = set()
    out: list[GoldSpan] = []
    for s in doc.spans:
        if s.end <= s.start or not is_gold(s) or (s.start, s.end) in seen:
            continue
        seen.add((s.start, s.end))
        out.append(s)
    out.sort(key=lambda s: (s.start, -s.end))
    return out


def has_entities(docs: Iterable[CorpusDoc]) -> bool:
    """Does the corpus link mentions into entities (TAB, ELITR)?"""
    return any(s.entity for d in docs for s in d.spans)


def has_identifiers(docs: Iterable[CorpusDoc]) -> bool:
    """Does the corpus carry TAB identifier types?"""
    return any(s.identifier for d in docs for s in d.spans)


def shared_dir() -> Path:
    """``$PSAN_SHARED_DIR`` or ``<repo>/../shared``."""
    return Path(os.environ.get("PSAN_SHARED_DIR") or REPO.parent / "shared")


def data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The corpus folder: ``--data-dir``, else ``$PSAN_SHARED_DIR/data``, else ``<repo>/../shared/data``.

    Raises FileNotFoundError with the places tried, so a missing checkout is obvious.
    """
    tried: list[Path] = []
    candidates = [Path(explicit)] if explicit else [shared_dir() / "data"]
    for c in candidates:
        tried.append(c)
        if c.is_dir():
            return c
    raise FileNotFoundError(f"corpus directory not found (tried {', '.join(map(str, tried))}); "
                            "pass --data-dir or set PSAN_SHARED_DIR")


def models_dir(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """NameTag models: ``--models-dir``, ``$PSAN_NAMETAG_MODELS`` or ``<shared>/models/nametag`` (None if absent)."""
    for c in (explicit, os.environ.get("PSAN_NAMETAG_MODELS"), shared_dir() / "models" / "nametag"):
        if c and Path(c).is_dir():
            return Path(c)
    return None


def corpus_name(path: str | os.PathLike[str]) -> str:
    """``/x/tab-dev.jsonl`` → ``tab-dev``."""
    return Path(path).name.removesuffix(".jsonl")


def iter_tokens_between(text: str, start: int, end: int) -> Iterator[int]:
    """Indexes of non-whitespace characters of ``text[start:end]`` (what "covered" has to cover)."""
    for i in range(start, end):
        if not text[i].isspace():
            yield i
