"""The pre-trained classifier's spans as entity types a project can learn: its category and the span's shape.

Why: a pipeline's pre-trained classifier (``classifier-<lang>.bin``) finds names NER misses, but with the one type
``MODEL`` each of its spans waited for a person, one judgment each (CNEC: 34 hand marks instead of 79, and a
quarter more judgments).  Its spans are independent evidence (unlike the project model's own proposals, which
stay ``MODEL``), so the app learns them as it learns an NER model's types: per type, by a confidence bound, and
in its category's pool (:mod:`psan.tool.decisions.suggest`).

The type is ``CLS_<CATEGORY>_<SHAPE>`` (:data:`psan.tool.text.categories.CLASSIFIER_TYPE_PREFIX`): the category the
classifier predicted and what the words look like where they stand, because the classifier's precision differs
by shape, not by corpus: a capitalized word inside a sentence (``CAP``) is usually a name, the first word of a
sentence (``INITIAL``) is capitalized whatever it is, a lower-case run (``LOWER``) is rarely one, and a run
starting with a digit (``NUM``) is a number.  Nothing here depends on a corpus or a language.
"""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from psan.tool.text.categories import CLASSIFIER_TYPE_PREFIX, classifier_type_category
from psan.tool.text.document import CharSpan, Document

__all__ = ["SHAPES", "pretrained_type", "pretrained_shape", "span_shape", "sentence_word_starts", "typed_spans",
           "is_pretrained_type"]

#: the shapes a span can have (see the module docstring)
SHAPES = ("CAP", "INITIAL", "LOWER", "NUM")
#: characters that end a sentence, for a text without the pipeline's sentences
_SENTENCE_END = ".!?…\n"


def pretrained_type(category: str, shape: str) -> str:
    """The entity type of a pre-trained classifier's span: ``CLS_PERSON_CAP``."""
    return f"{CLASSIFIER_TYPE_PREFIX}{category}_{shape}"


def pretrained_shape(ne_type: str) -> str | None:
    """The shape of a pre-trained classifier's type (``CLS_PERSON_CAP`` → ``CAP``); ``None``: not such a type."""
    shape = ne_type.rpartition("_")[2]
    return shape if is_pretrained_type(ne_type) and shape in SHAPES else None


def is_pretrained_type(ne_type: str) -> bool:
    """Whether an entity type is a pre-trained classifier's (:func:`pretrained_type`): the prefix and a category, as
    :func:`~psan.tool.text.categories.classifier_type_category` reads it, so the two never disagree."""
    return classifier_type_category(ne_type) is not None


def span_shape(text: str, start: int, sentence_initial: bool) -> str:
    """The shape of the span starting at ``start`` (see the module docstring)."""
    first = text[start] if start < len(text) else ""
    if first.isdigit():
        return "NUM"
    if first.isalpha() and first.isupper():
        return "INITIAL" if sentence_initial else "CAP"
    return "LOWER"


def sentence_word_starts(doc: Document) -> list[int]:
    """The character offset of each sentence's first word (the first token with a letter or a digit), sorted.

    Why the first *word*: a sentence opened by a quote, a dash or an item number ("1.") still starts there.
    """
    text, tokens = doc.text, doc.tokens
    out = []
    for s in doc.sentences:
        for i in range(s.first_token, min(s.end_token, len(tokens))):
            token = tokens[i]
            if any(c.isalnum() for c in text[token.start:token.end]):
                out.append(token.start)
                break
    return sorted(out)


def _initial_in_text(text: str, start: int) -> bool:
    """Without the pipeline's sentences: only punctuation and spaces since the text's start or a sentence end."""
    i = start - 1
    while i >= 0 and not text[i].isalnum():
        if text[i] in _SENTENCE_END:
            return True
        i -= 1
    return i < 0


def typed_spans(text: str, doc: Document | None, spans: Sequence[CharSpan], source: str | None = None,
                priority: int | None = None) -> list[CharSpan]:
    """The classifier's ``spans`` with their learnable type (:func:`pretrained_type`); ``doc``: the pipeline's
    tokens and sentences, when it has them (else sentence ends are read off the text).  ``source`` and
    ``priority``, when given, replace the spans' own (the recognizer's, set on the one copy it makes)."""
    starts = sentence_word_starts(doc) if doc is not None and doc.sentences and len(doc.tokens) else None
    out = []
    for s in spans:
        if starts is not None:
            at = bisect_right(starts, s.start) - 1
            initial = at >= 0 and starts[at] == s.start
        else:
            initial = _initial_in_text(text, s.start)
        ne_type = pretrained_type(str(s.category), span_shape(text, s.start, initial))
        out.append(CharSpan(s.start, s.end, ne_type, s.category, s.source if source is None else source, s.score,
                            s.priority if priority is None else priority))
    return out
