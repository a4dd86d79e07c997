"""Tokens and sentences for the token-based formats (CoNLL, CoNLL-U, WebAnno TSV, XMI), and aligning tokens back.

Why here and not psan's tokenizer: writing a file must work for any text without loading models, and
every span boundary must fall on a token boundary (a BIO tag or a TSV row covers whole tokens), so the
tokens are cut at span boundaries too and a sentence never ends inside a span.  psan's own tokens, when the
caller has them, are used and only cut where a span needs it.
"""
from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence

from psan.tool.formats.annotations.base import AnnotatedText, AnnotationFormatError

_TOKEN = re.compile(r"\w+(?:[-'’.]\w+)*|[^\w\s]", re.UNICODE)
_NONBLANK = re.compile(r"\S+")
_SENTENCE_END = re.compile(r"[.!?]+[\"'”»)]*\s+|\n+")


def _simple_tokens(text: str, start: int, end: int) -> list[tuple[int, int]]:
    return [(start + m.start(), start + m.end()) for m in _TOKEN.finditer(text[start:end])]


def _cut(tokens: Iterable[tuple[int, int]], cuts: Sequence[int]) -> list[tuple[int, int]]:
    """Tokens split at every cut position strictly inside them (cuts sorted)."""
    out: list[tuple[int, int]] = []
    for s, e in tokens:
        i = bisect.bisect_right(cuts, s)
        pos = s
        while i < len(cuts) and cuts[i] < e:
            if cuts[i] > pos:
                out.append((pos, cuts[i]))
                pos = cuts[i]
            i += 1
        out.append((pos, e))
    return out


def _strip(text: str, tokens: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Tokens split at blanks inside them (a column format cannot hold one); blank-only pieces dropped."""
    out = []
    for s, e in tokens:
        piece = text[s:e]
        if not any(ch.isspace() for ch in piece):
            out.append((s, e))
            continue
        out += [(s + m.start(), s + m.end()) for m in _NONBLANK.finditer(piece)]
    return out


def _inside_spans(text: str, doc: AnnotatedText) -> list[bool]:
    """For each position 0..len(text): is it strictly inside some span (a sentence must not end there)?"""
    depth = [0] * (len(text) + 2)
    for sp in doc.spans:
        depth[sp.start + 1] += 1
        depth[sp.end] -= 1
    running = 0
    out = []
    for d in depth:
        running += d
        out.append(running > 0)
    return out


def segment(doc: AnnotatedText) -> list[list[tuple[int, int]]]:
    """Sentences of tokens (character ranges) covering every span's characters, cut at every span boundary.

    Sentence ends: the document's sentences if given, else line breaks and ``. ! ?`` before a blank; a sentence end
    inside a span is dropped (the sentence goes on to the span's end).
    """
    text = doc.text or ""
    cuts = sorted({b for sp in doc.spans for b in (sp.start, sp.end)})
    if doc.tokens:
        tokens = list(doc.tokens)
        # text not covered by the given tokens (rare: a tokenizer skipping characters) gets simple tokens
        covered = []
        pos = 0
        for s, e in sorted(tokens):
            if s > pos:
                covered += _simple_tokens(text, pos, s)
            covered.append((s, e))
            pos = max(pos, e)
        covered += _simple_tokens(text, pos, len(text))
        tokens = covered
    else:
        tokens = _simple_tokens(text, 0, len(text))
    # characters of a span no token covers (whitespace inside a span is fine, other gaps are not)
    tokens = _strip(text, _cut(tokens, cuts))
    if doc.sentences:
        ends = sorted({e for _, e in doc.sentences})
    else:
        ends = sorted({m.end() for m in _SENTENCE_END.finditer(text)})
    if doc.spans:
        inside = _inside_spans(text, doc)
        ends = [e for e in ends if not inside[e]]
    sentences: list[list[tuple[int, int]]] = []
    current: list[tuple[int, int]] = []
    current_end_idx = 0
    for tok in tokens:
        while current_end_idx < len(ends) and ends[current_end_idx] <= tok[0]:
            if current:
                sentences.append(current)
                current = []
            current_end_idx += 1
        current.append(tok)
    if current:
        sentences.append(current)
    return sentences


def align(text: str, tokens: Sequence[str], start: int, where: str) -> list[tuple[int, int]]:
    """Character ranges of ``tokens`` found one after the other in ``text`` from ``start``, blanks skipped.

    Why strict: a token that is not next in the text means the file belongs to another text (or was
    tokenized from a changed one); guessing would put spans on the wrong words.
    """
    out = []
    pos = start
    n = len(text)
    for i, tok in enumerate(tokens):
        while pos < n and text[pos].isspace():
            pos += 1
        if not tok:
            raise AnnotationFormatError(f"{where}: empty token")
        if text.startswith(tok, pos):
            out.append((pos, pos + len(tok)))
            pos += len(tok)
            continue
        # a token with blanks inside (a multi-word token) or the text's blanks differently normalized
        compact = "".join(tok.split())
        j, k = pos, 0
        while j < n and k < len(compact):
            if text[j].isspace():
                j += 1
                continue
            if text[j] != compact[k]:
                break
            j += 1
            k += 1
        if k == len(compact) and compact:
            out.append((pos, j))
            pos = j
            continue
        found = text[pos:pos + 20]
        raise AnnotationFormatError(f"{where}: token {i + 1} {tok[:30]!r} does not match the document text at "
                                    f"character {pos} ({found!r}): the file belongs to another text")
    return out
