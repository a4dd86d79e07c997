"""Helpers of several tool tests: a document of regex tokens, words laid out with their gaps, private regions found
by their text."""
from __future__ import annotations

import re

from psan.tool.decisions.voting import PrivateRegion
from psan.tool.text.document import Category, Document, Sentence, Token

_TOKEN = re.compile(r"\w+|[^\w\s]")


def regex_document(text: str, language: str) -> Document:
    """One sentence of word and punctuation tokens (no tokenizer model needed)."""
    tokens = [Token(i, m.start(), m.end()) for i, m in enumerate(_TOKEN.finditer(text))]
    return Document(text=text, tokens=tokens, sentences=[Sentence(0, len(tokens))], language=language)


def laid_out(pieces: list[tuple[str, str]]) -> tuple[str, list[int], list[int]]:
    """The text of ``(word, gap)`` pieces in order, and each word's start and end offset in it."""
    text, starts, ends = "", [], []
    for word, gap in pieces:
        starts.append(len(text))
        text += word
        ends.append(len(text))
        text += gap
    return text, starts, ends


def regions_for(text: str, spans: list[tuple[str, Category, int | None, str]]) -> list[PrivateRegion]:
    """Private regions (category, label, type) of the given strings, found in order in ``text``."""
    out, pos = [], 0
    for s, cat, label, type_ in spans:
        i = text.index(s, pos)
        out.append(PrivateRegion(i, i + len(s), cat, label, type_))
        pos = i + len(s)
    return out
