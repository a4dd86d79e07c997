"""CoNLL-2003: one token per line, the entity tag in the last column, a blank line between sentences and
``-DOCSTART- -X- -X- O`` before each document.

psan writes IOB2 tags (``B-`` starts every entity) and ``_`` for the part-of-speech and chunk columns it
does not have; it reads IOB1 too (an ``I-`` after ``O`` or after another type starts an entity).  CoNLL has no
text: read alone, a document is its tokens joined by blanks, sentences by line breaks; imported into a known
document, the tokens are found again in its text (:func:`psan.tool.formats.annotations.attach`).  One tag per
token: nested spans cannot be written (the outermost are kept).
"""
from __future__ import annotations

from collections.abc import Sequence

from psan.tool.formats.annotations import register
from psan.tool.formats.annotations.base import AnnotatedText, AnnotationFormatError, decode
from psan.tool.formats.annotations.bio import spans_from_tags, tagged_sentences

DOCSTART = "-DOCSTART-"


def rebuild(sentences: list[list[tuple[str, str]]], name: str | None, where: str) -> AnnotatedText:
    """A document from (token, tag) sentences: text = tokens joined by blanks, sentences by line breaks."""
    parts: list[str] = []
    tokens: list[tuple[int, int]] = []
    tags: list[str] = []
    pos = 0
    for k, sentence in enumerate(sentences):
        if k:
            parts.append("\n")
            pos += 1
        for j, (tok, tag) in enumerate(sentence):
            if j:
                parts.append(" ")
                pos += 1
            parts.append(tok)
            tokens.append((pos, pos + len(tok)))
            tags.append(tag)
            pos += len(tok)
    doc = AnnotatedText(name=name, text="".join(parts), tokens=tokens, token_based=True)
    doc.spans = spans_from_tags(tokens, tags, where)
    return doc


class Conll2003:
    name = "conll"
    title = "CoNLL-2003 (IOB)"
    suffix = ".conll"
    multi_document = True
    nests = False

    def read(self, data: bytes, name: str) -> list[AnnotatedText]:
        docs: list[AnnotatedText] = []
        sentences: list[list[tuple[str, str]]] = []
        sentence: list[tuple[str, str]] = []
        started = False

        def flush_doc() -> None:
            if sentence:
                sentences.append(list(sentence))
                sentence.clear()
            if sentences or started:
                docs.append(rebuild(sentences, None, f"document {len(docs) + 1}"))
                sentences.clear()

        for lineno, line in enumerate(decode(data, "CoNLL").split("\n"), start=1):
            line = line.rstrip("\r")
            if not line.strip():
                if sentence:
                    sentences.append(list(sentence))
                    sentence.clear()
                continue
            cols = line.split()
            if cols[0] == DOCSTART:
                flush_doc()
                started = True
                continue
            if len(cols) < 2:
                raise AnnotationFormatError(f"line {lineno}: expected a token and a tag, got {line[:60]!r}")
            sentence.append((cols[0], cols[-1]))
        flush_doc()
        return docs

    def write(self, docs: Sequence[AnnotatedText]) -> tuple[bytes, int]:
        lines: list[str] = []
        dropped = 0
        for doc in docs:
            text = doc.text or ""
            lines.append(f"{DOCSTART} -X- -X- O\n\n")
            sentences, left = tagged_sentences(doc)
            dropped += left
            for sentence in sentences:
                for s, e, tag in sentence:
                    lines.append(f"{text[s:e]} _ _ {tag}\n")
                lines.append("\n")
        return "".join(lines).encode("utf-8"), dropped


register(Conll2003())
