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


def read_jsonl(path: str | os.PathLike[str], limit: int | None = None) -> list[CorpusDoc]:
    """Read a corpus file; ``limit`` keeps the first N documents (for quick runs)."""
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
