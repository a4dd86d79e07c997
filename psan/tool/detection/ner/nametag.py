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
from psan.tool.text.form_offsets import offsets_of_texts
from psan.tool.words.function_words import function_words

_MODELS: dict[str, object] = {}
_LOCK = threading.Lock()
_THREAD = threading.local()  # per thread: tokenizers and the last result, keyed by model path
#: texts this long or longer are read by their token texts, not their tokens' ranges (``_run_by_forms``)
FORMS_MIN_CHARS = 2_000


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
                                                            list[tuple[int, int, str]], list[str] | None]:
        """Token starts, token ends, sentences, (start, end, type) entities of one NameTag run, and the token
        texts when the run read them (else ``None``).

        Why plain offset lists: a Token object per token costs about a third of NameTag's own time;
        the pipeline builds the tokens once, after cleaning (:meth:`token_offsets`).
        ``tokens`` false (NER only, another tokenizer's tokens): the token lists stay empty and only the
        entities' edge tokens are read; reading every token's range from NameTag cost a third of its own run.
        A text of :data:`FORMS_MIN_CHARS` or more is read by its token texts (:meth:`_run_by_forms`).
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
        tokenizer = self._tokenizer()
        clean = sanitize(text)
        result = self._run_by_forms(tokenizer, clean) if tokens and len(text) >= FORMS_MIN_CHARS else None
        if result is None:
            result = self._run_by_ranges(tokenizer, clean, tokens)
        cache[self.model_path] = (text, result, tokens)
        return result

    def _tokenizer(self):  # noqa: ANN202 - ufal.nametag.Tokenizer
        """The model's tokenizer of this thread (made once)."""
        tokenizers = getattr(_THREAD, "tokenizers", None)
        if tokenizers is None:
            tokenizers = _THREAD.tokenizers = {}
        tokenizer = tokenizers.get(self.model_path)
        if tokenizer is None:
            tokenizer = tokenizers[self.model_path] = self.ner.newTokenizer()
            if tokenizer is None:
                raise ModelLoadError(f"NameTag model {self.model_path} has no tokenizer")
        return tokenizer

    def _run_by_ranges(self, tokenizer, clean: str, tokens: bool, recognize: bool = True,  # noqa: ANN001
                       ) -> tuple[list[int], list[int], list[Sentence], list[tuple[int, int, str]], None]:
        """:meth:`_raw`'s run reading every token's range (``recognize`` false: the tokenizer only)."""
        from ufal.nametag import Forms, NamedEntities, TokenRanges
        forms, ranges, entities = Forms(), TokenRanges(), NamedEntities()
        starts: list[int] = []
        ends: list[int] = []
        sentences: list[Sentence] = []
        found: list[tuple[int, int, str]] = []
        ner = self.ner.recognize if recognize else None
        tokenizer.setText(clean)
        try:
            while tokenizer.nextSentence(forms, ranges):
                if not tokens:
                    ner(forms, entities)
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
                if ner is None:
                    continue
                ner(forms, entities)
                for e in entities:
                    at = first + e.start
                    found.append((starts[at], ends[at + e.length - 1], e.type))
        finally:
            tokenizer.setText("")
        return starts, ends, sentences, found, None

    def _run_by_forms(self, tokenizer, clean: str,  # noqa: ANN001
                      ) -> tuple[list[int], list[int], list[Sentence], list[tuple[int, int, str]], list[str]]:
        """:meth:`_raw`'s run with tokens, reading the token texts (one call per sentence) instead of every token's
        range; the offsets follow from the texts (:func:`psan.tool.text.form_offsets.offsets_of_texts`).  Where the
        texts are not the text's non-blank characters in order (NameTag leaves a character out of every token, or
        takes a blank into one), the tokenizer runs once more and its ranges are read, as :meth:`_run_by_ranges`
        does: the same tokens and sentences either way."""
        from ufal.nametag import Forms, NamedEntities, TokenRanges
        forms, ranges, entities = Forms(), TokenRanges(), NamedEntities()
        texts: list[str] = []
        sentences: list[Sentence] = []
        edges: list[tuple[int, int, str]] = []  # an entity's first and last token
        recognize = self.ner.recognize
        tokenizer.setText(clean)
        try:
            while tokenizer.nextSentence(forms, ranges):
                first = len(texts)
                texts += forms
                sentences.append(Sentence(first, len(texts)))
                recognize(forms, entities)
                if entities.size():  # (no SWIG iterator for the 40 % of sentences without an entity)
                    for e in entities:
                        at = first + e.start
                        edges.append((at, at + e.length - 1, e.type))
        finally:
            tokenizer.setText("")
        offsets = offsets_of_texts(clean, texts)
        if offsets is None:
            starts, ends, again, _, _ = self._run_by_ranges(tokenizer, clean, True, recognize=False)
            if again != sentences:
                raise RuntimeError("NameTag tokenized the same text twice differently")
            texts = None  # type: ignore[assignment]  # not the texts of these offsets
        else:
            starts, ends = offsets
        found = [(starts[a], ends[b], kind) for a, b, kind in edges]
        return starts, ends, sentences, found, texts

    def token_offsets(self, text: str) -> tuple[list[int], list[int], list[Sentence]]:
        """Token starts, token ends and sentences by the model's tokenizer, without Token objects."""
        starts, ends, sentences, _, _ = self._raw(text)
        return list(starts), list(ends), list(sentences)

    def known_token_texts(self, text: str) -> list[str] | None:
        """The texts of the tokens :meth:`token_offsets` just gave for ``text`` when its run read them (a long text),
        else ``None``: the pipeline keeps them instead of cutting 10^6 slices out of the text again.

        Texts given are clean tokens (:func:`psan.tool.text.tokens.offsets_clean`): none is empty or holds a blank
        (:func:`psan.tool.text.form_offsets.offsets_of_texts` takes no other) or an XML-forbidden character (NameTag
        read the text with those made spaces, :func:`psan.tool.detection.ner.base.sanitize`).
        """
        texts = self._raw(text)[4]
        return None if texts is None else list(texts)

    def tokenize(self, text: str) -> tuple[list[Token], list[Sentence]]:
        """Tokens and sentences by the model's tokenizer (may include tokens the regex tokenizer splits)."""
        starts, ends, sentences, _, _ = self._raw(text)
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
