"""Sections of a large document: split at paragraph ends, recognized one by one, merged back.

Why: a document of a million tokens used one core however many were free.  Above
``min_chars`` characters the pipeline recognizes a document section by section (sections of
about ``chars`` characters ending at a blank line, or at a line end when a section has no blank
line); the sections are independent, so :mod:`psan.tool.detection.parallel` and the Celery worker
(``psan.celery.sections``) recognize them in parallel and the result is the same as the serial run
by construction: both merge the same section results with :func:`merge_sections`, and the
document-level steps (propagation) run once, after the merge.

The section size does not depend on the number of processes, so the output never depends on it.
A section boundary is also a sentence boundary (a blank line ends a sentence for every tokenizer);
recognizers' context windows (a few dozen characters) do not reach across it.
"""
from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Sequence

from psan.tool.text.document import (
    Category,
    Document,
    Entity,
    Sentence,
    TokenArray,
    keep_token_texts,
    token_bounds,
    token_texts,
)

__all__ = ["DEFAULT_MIN_CHARS", "DEFAULT_SECTION_CHARS", "Packed", "merge_sections", "pack", "split_sections"]

#: documents longer than this are recognized in sections (shorter ones exactly as before)
DEFAULT_MIN_CHARS = 200_000
#: the size a section aims at
DEFAULT_SECTION_CHARS = 100_000

_BLANK_LINE_RE = re.compile(r"\n[^\S\n]*\n")


def _cut(text: str, pos: int, limit: int) -> int:
    """The end of the section starting at ``pos``: after the last blank line (else line end) before ``limit``.

    When the window has neither, the section grows to the next blank line or line end (never mid-line).
    """
    last = None
    for m in _BLANK_LINE_RE.finditer(text, pos, limit):
        last = m.end()
    if last is not None and last > pos:
        return last
    nl = text.rfind("\n", pos, limit)
    if nl >= pos:
        return nl + 1
    m = _BLANK_LINE_RE.search(text, limit)
    nl = text.find("\n", limit)
    ends = [e for e in ((m.end() if m else -1), (nl + 1 if nl >= 0 else -1)) if e > pos]
    return min(ends) if ends else len(text)


def split_sections(text: str, min_chars: int = DEFAULT_MIN_CHARS,
                   chars: int = DEFAULT_SECTION_CHARS) -> list[tuple[int, int]]:
    """``(start, end)`` character ranges covering ``text``; one range when it is not longer than ``min_chars``."""
    n = len(text)
    if n <= min_chars or chars <= 0:
        return [(0, n)]
    out: list[tuple[int, int]] = []
    pos = 0
    while pos < n:
        end = n if n - pos <= chars else _cut(text, pos, pos + chars)
        out.append((pos, end))
        pos = end
    return out


#: one recognized section as plain lists (cheap to pickle, JSON-serializable for Celery):
#: ``[token starts and ends interleaved, sentence first/end tokens interleaved, entities as lists]``
Packed = list
#: the categories by name (``Category(name)`` costs a tenth of a second per 10^5 entities)
_CATEGORY_OF = {str(c): c for c in Category}


def pack(doc: Document, binary: bool = False) -> Packed:
    """A section's document as plain lists; token ids are the list positions (as in every Document).

    ``binary``: the token offsets as one ``array`` instead of a list, for a process pool (pickled as its
    bytes: unpickling 10^6 offsets as Python ints cost the receiving process a quarter of a second); not JSON.
    """
    starts, ends = token_bounds(doc.tokens)
    bounds: list[int] | array[int] = [0] * (2 * len(starts))
    bounds[0::2] = starts
    bounds[1::2] = ends
    if binary:  # a section's offsets are its own (from 0): 32 bits hold them but in a section of 2^31 characters
        bounds = array("i" if not bounds or bounds[-1] < 2 ** 31 else "q", bounds)
    sents: list[int] = []
    for s in doc.sentences:
        sents += (s.first_token, s.end_token)
    ents = [[e.first_token, e.end_token, e.type, str(e.category), e.source, e.score] for e in doc.entities]
    return [bounds, sents, ents]


#: lists at least this long are shifted in NumPy (its fixed cost is a few microseconds)
_NUMPY_SHIFT = 1024


def _shifted(values: Sequence[int], by: int) -> list[int]:
    """``values`` plus ``by`` each, as a new list (in C: 10^6 offsets per large document).

    Why NumPy for long lists: read into an int64 array, added and listed again costs two thirds of adding per
    item (the same Python ints: offsets and token counts are far below 2^63).
    """
    if by == 0:
        return list(values)
    if len(values) < _NUMPY_SHIFT:
        return list(map(by.__add__, values))
    import numpy as np
    return (np.fromiter(values, dtype=np.int64, count=len(values)) + by).tolist()


def merge_sections(text: str, language: str, parts: Iterable[tuple[int, Packed | Document]]) -> Document:
    """One document from the section results ``(char offset, section document or its pack())``, in text order.

    Token ids, sentence and entity token ranges move by the tokens of the sections before; offsets by
    the section's start.  Deterministic: the result depends only on the parts, never on who made them
    (a serial run passes the documents themselves, which saves packing them).

    The tokens come back as a :class:`~psan.tool.text.document.TokenArray` (two offset lists, no Token object per
    token: a large document has 10^6 of them); when every part is a document, the token texts its
    recognition kept are kept for the merged one (propagation reads them).
    """
    starts: list[int] = []
    ends: list[int] = []
    texts: list[str] | None = []
    sentences: list[Sentence] = []
    entities: list[Entity] = []
    for offset, part in parts:
        base = len(starts)
        if isinstance(part, Document):
            part_starts, part_ends = token_bounds(part.tokens)
            starts += _shifted(part_starts, offset)
            ends += _shifted(part_ends, offset)
            if texts is not None:
                texts += token_texts(part.text, part.tokens)
            sentences.extend(Sentence(base + s.first_token, base + s.end_token) for s in part.sentences)
            entities.extend(Entity(base + e.first_token, base + e.end_token, e.type, e.category, e.source, e.score)
                            for e in part.entities)
            continue
        texts = None
        bounds, sents, ents = part
        if isinstance(bounds, array):  # pack(binary=True): shifted in NumPy
            import numpy as np
            both = np.frombuffer(bounds, dtype=f"i{bounds.itemsize}").astype(np.int64) + offset
            starts += both[0::2].tolist()
            ends += both[1::2].tolist()
        else:
            starts += _shifted(bounds[0::2], offset)
            ends += _shifted(bounds[1::2], offset)
        sentences.extend(map(Sentence, _shifted(sents[0::2], base), _shifted(sents[1::2], base)))
        entities.extend(Entity(base + first, base + end, typ, _CATEGORY_OF.get(cat) or Category(cat), source, score)
                        for first, end, typ, cat, source, score in ents)
    tokens = TokenArray(starts, ends)
    if texts is not None and len(texts) == len(starts):
        keep_token_texts(text, tokens, texts)
    return Document(text, tokens, sentences, entities, language)
