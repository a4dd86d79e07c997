"""NameTag 1 (``ufal.nametag``) adapter: NER with nested CNEC containers, and a fast tokenizer.

Why NameTag: ~150k tokens/s with its own tokenizer/sentence splitter and the Czech CNEC model
(P/T containers come out nested with their parts, e.g. ``P`` ⊃ ``pf`` + ``ps``).
"""
from __future__ import annotations

import os
import re
import threading

from psan.tool.detection.ner.base import ModelLoadError, sanitize
from psan.tool.text.categories import category_of
from psan.tool.text.document import Category, CharSpan, Document, Recognizer, Sentence, Token
from psan.tool.words.function_words import function_words

_MODELS: dict[str, object] = {}
_LOCK = threading.Lock()
_THREAD = threading.local()  # per thread: tokenizers and the last result, keyed by model path


def load_model(path: str):  # noqa: ANN201 - ufal.nametag.Ner
    """Load a NameTag model once per process (keyed by absolute path); raise ModelLoadError if impossible."""
    key = os.path.abspath(path)
    model = _MODELS.get(key)
    if model is not None:
        return model
    with _LOCK:
        model = _MODELS.get(key)
        if model is None:
            try:
                from ufal.nametag import Ner
            except ImportError as err:  # pragma: no cover - dependency is installed
                raise ModelLoadError("ufal.nametag is not installed (pip install ufal.nametag)") from err
            if not os.path.isfile(key):
                raise ModelLoadError(f"NameTag model file not found: {key}")
            model = Ner.load(key)
            if model is None:
                raise ModelLoadError(f"cannot load NameTag model {key} (not a NameTag 1 model?)")
            _MODELS[key] = model
    return model


_WORD = re.compile(r"[^\W\d_]+")


def _plausible_names(text: str, spans: list[CharSpan], language: str) -> list[CharSpan]:
    """Spans of a cross-lingual model that can be names of this text (see ``cross_lingual``).

    A name ends in a capitalized word or a number: trailing punctuation is cut off ("Polsce ." → "Polsce")
    and a span ending in a lower-case word is no name ("Trybunału Konstytucyjnego nie", "DDoS w").
    """
    lower = {w for w in _WORD.findall(text) if w.islower()}
    closed = function_words(language)
    out = []
    for s in spans:
        surface = text[s.start:s.end]
        trimmed = surface.rstrip(" .,;:!?)(\"'„“”-–\n")
        if not trimmed:
            continue
        if len(trimmed) < len(surface):
            s = CharSpan(s.start, s.start + len(trimmed), s.type, s.category, s.source, s.score, s.priority)
            surface = trimmed
        if not (surface[:1].isupper() or surface[:1].isdigit()):
            continue
        first = _WORD.match(surface)
        if first and first.group().lower() in closed:
            continue
        words = _WORD.findall(surface)
        if words and words[-1].islower():
            continue
        if _WORD.fullmatch(surface) and surface.lower() in lower:
            continue
        out.append(s)
    return out


def _start_longer_first(entity: tuple[int, int, str]) -> tuple[int, int]:
    return entity[0], -entity[1]


class NameTagRecognizer(Recognizer):
    """NameTag NER over the model's own tokenization (per sentence); also usable as tokenizer."""

    def __init__(self, model: str, score: float = 0.8, priority: int = 0, source: str = "nametag",
                 categories: list[str] | None = None, cross_lingual: bool = False) -> None:
        """``categories`` keeps only entities of these coarse categories (e.g. names only when a model is
        used cross-lingually: its dates and numbers follow another language's conventions).

        ``cross_lingual`` (a model of another language, e.g. Czech on Slovak or Swedish): it does not
        know the language's function words, so it tags capitalized pronouns at sentence starts ("Du",
        "Vi") and particles ("de sig").  Keep only spans that start with a capital letter or digit, and
        drop a one-word span whose word also occurs in lower case in the same text (a common word).
        """
        self.model_path = os.path.abspath(model)
        self.ner = load_model(model)
        self.score = score
        self.priority = priority
        self.name = source
        self.cross_lingual = cross_lingual
        try:
            self.categories = frozenset(Category(c) for c in categories) if categories else None
        except ValueError as err:
            raise ModelLoadError(f"unknown category in NameTag 'categories': {err}") from None

    def _raw(self, text: str, tokens: bool = True) -> tuple[list[int], list[int], list[Sentence],
                                                            list[tuple[int, int, str]]]:
        """Token starts, token ends, sentences and (start, end, type) entities of one NameTag run.

        Why plain offset lists: a Token object per token costs about a third of NameTag's own time;
        the pipeline builds the tokens once, after cleaning (:meth:`token_offsets`).
        ``tokens`` false (NER only, another tokenizer's tokens): the token lists stay empty and only the
        entities' edge tokens are read; reading every token's range from NameTag cost a third of its own run.
        Why the cache (the last result per thread and model): a pipeline using NameTag as tokenizer
        *and* NER asks twice for the same text, one right after the other.
        """
        local = _THREAD
        cache = getattr(local, "last", None)
        if cache is None:
            cache = local.last = {}
        hit = cache.get(self.model_path)
        if hit is not None and hit[0] is text and (hit[2] or not tokens):
            return hit[1]
        from ufal.nametag import Forms, NamedEntities, TokenRanges
        tokenizers = getattr(local, "tokenizers", None)
        if tokenizers is None:
            tokenizers = local.tokenizers = {}
        tokenizer = tokenizers.get(self.model_path)
        if tokenizer is None:
            tokenizer = tokenizers[self.model_path] = self.ner.newTokenizer()
            if tokenizer is None:
                raise ModelLoadError(f"NameTag model {self.model_path} has no tokenizer")
        forms, ranges, entities = Forms(), TokenRanges(), NamedEntities()
        starts: list[int] = []
        ends: list[int] = []
        sentences: list[Sentence] = []
        found: list[tuple[int, int, str]] = []
        recognize = self.ner.recognize
        tokenizer.setText(sanitize(text))
        while tokenizer.nextSentence(forms, ranges):
            if not tokens:
                recognize(forms, entities)
                for e in entities:
                    last = ranges[e.start + e.length - 1]
                    found.append((ranges[e.start].start, last.start + last.length, e.type))
                continue
            first = len(starts)
            for r in ranges:
                start = r.start
                starts.append(start)
                ends.append(start + r.length)
            sentences.append(Sentence(first, len(starts)))
            recognize(forms, entities)
            for e in entities:
                at = first + e.start
                found.append((starts[at], ends[at + e.length - 1], e.type))
        tokenizer.setText("")
        result = (starts, ends, sentences, found)
        cache[self.model_path] = (text, result, tokens)
        return result

    def token_offsets(self, text: str) -> tuple[list[int], list[int], list[Sentence]]:
        """Token starts, token ends and sentences by the model's tokenizer, without Token objects."""
        starts, ends, sentences, _ = self._raw(text)
        return list(starts), list(ends), list(sentences)

    def tokenize(self, text: str) -> tuple[list[Token], list[Sentence]]:
        """Tokens and sentences by the model's tokenizer (may include tokens the regex tokenizer splits)."""
        starts, ends, sentences, _ = self._raw(text)
        return list(map(Token, range(len(starts)), starts, ends)), list(sentences)

    def analyze(self, text: str, doc: Document) -> list[CharSpan]:
        """Entities (nested ones too), sorted by start, longer first."""
        found = self._raw(text, tokens=False)[3]
        categories = {t: category_of(t) for t in {e[2] for e in found}}  # a handful of types
        spans = [CharSpan(a, b, t, categories[t], self.name, self.score, self.priority)
                 for a, b, t in sorted(found, key=_start_longer_first)]
        if self.categories is not None:
            spans = [s for s in spans if s.category in self.categories]
        if self.cross_lingual and spans:
            spans = _plausible_names(text, spans, doc.language if doc is not None else "")
        return spans
