"""Recognition pipeline: tokenization → recognizers → token splitting → NER → merge.

Why a config dict: a project stores its pipeline as JSON, e.g.::

    {"language": "cs", "tokenizer": "nametag",
     "ner": [{"kind": "nametag", "model": "/models/czech-cnec2-trivial.ner"}],
     "recognizers": ["patterns", "gazetteers"]}

``tokenizer`` is a kind name or ``{"kind": …, "model": …}`` (``nametag``/``spacy`` without a
model reuse the model of the first NER entry of that kind).  ``ner`` and ``recognizers`` entries
are kind names or dicts with ``kind`` plus factory options; all are looked up by name in
:mod:`psan.tool.detection.registry` (built-ins: :mod:`psan.tool.detection.components`), so new kinds plug in via
:func:`~psan.tool.detection.registry.register_recognizer` (and ``register_tokenizer``); a recognizer that declares a
``trigger`` (:class:`psan.tool.text.document.Recognizer`) is skipped on texts where it finds nothing, one without
runs on every text.  Without a config the
language's :func:`psan.tool.detection.defaults.default_config` is used.  ``split_at`` chooses which candidate
edges become token edges: ``"all"`` (default; every candidate then aligns exactly, e.g. spaCy's
``Smith|'s``) or ``"patterns"``.
``propagate`` (default ``true``) adds further occurrences of found names/IDs in the same document
(:mod:`psan.tool.detection.propagate`); ``false`` turns it off, a dict passes options (``categories``, ``min_chars``).
``sections`` (default ``{"min_chars": 200000, "chars": 100000}``): documents longer than ``min_chars``
are recognized in sections of about ``chars`` characters split at paragraph ends, which
:mod:`psan.tool.detection.parallel` and the worker run in parallel (:mod:`psan.tool.text.sections`); ``false`` turns it
off.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from operator import attrgetter
from typing import Any

from psan.tool.detection.registry import (
    ComponentError,
    Tokenizer,
    as_entry,
    recognizer_factory,
    tokenizer_factory,
)
from psan.tool.text.document import (
    CharSpan,
    Document,
    Recognizer,
    Token,
    TokenArray,
    collector_paused,
    forget_token_texts,
    keep_token_texts,
    token_texts,
)
from psan.tool.text.tokens import clean_tokens, offsets_clean, remap_sentences, split_tokens_and_sentences

_START = attrgetter("start")
_END = attrgetter("end")


def _propagate_options(value: bool | dict[str, Any] | None) -> dict[str, Any] | None:
    """Options of the propagation step from the config's ``propagate`` value; ``None`` = off."""
    if isinstance(value, dict):
        return dict(value)
    return {} if value else None


def _section_options(value: bool | dict[str, Any] | None) -> tuple[int, int]:
    """``(min_chars, chars)`` of the sectioning step; ``min_chars`` is infinite when it is off."""
    from psan.tool.text.sections import DEFAULT_MIN_CHARS, DEFAULT_SECTION_CHARS
    if not value:
        return 2 ** 62, DEFAULT_SECTION_CHARS
    options = value if isinstance(value, dict) else {}
    min_chars = int(options.get("min_chars", DEFAULT_MIN_CHARS))
    chars = int(options.get("chars", DEFAULT_SECTION_CHARS))
    if min_chars < 0 or chars < 1:
        raise ComponentError("'sections' needs min_chars >= 0 and chars >= 1")
    return min_chars, chars


# --- the pipeline ----------------------------------------------------------------------------------------
class Pipeline:
    """A configured recognition pipeline; build once, process many texts."""

    def __init__(self, config: dict[str, Any] | None = None, language: str = "en") -> None:
        if config is None:
            from psan.tool.detection.defaults import default_config
            config = default_config(language)
        self.config = dict(config)
        self.language = self.config.setdefault("language", language)
        self.split_at = self.config.get("split_at", "all")
        self.propagate = _propagate_options(self.config.get("propagate", True))
        self.section_min_chars, self.section_chars = _section_options(self.config.get("sections", True))
        tok = as_entry(self.config.get("tokenizer", "regex"))
        self.tokenizer: Tokenizer = tokenizer_factory(tok.get("kind"))(tok, self.config)
        self.recognizers = self._build(self.config.get("recognizers", []))
        self.ner = self._build(self.config.get("ner", []))
        self._warm_up()

    def _build(self, entries: Iterable[str | dict[str, Any]]) -> list[Recognizer]:
        out: list[Recognizer] = []
        for entry in map(as_entry, entries):
            made = recognizer_factory(entry.get("kind"))(entry, self.language)
            out.extend(made if isinstance(made, list) else [made])
        return out

    def _warm_up(self) -> None:
        """One-time loads of the components and of the document-level steps, now rather than in a document.

        Why: a worker or CLI process builds its pipeline once; what a component would load at its first
        text (:meth:`psan.tool.text.document.Recognizer.warm_up`, optional) or name completion at its first
        foreign-looking name (every Faker locale's first names) is then paid at start-up, not by whichever
        document happens to need it first.
        """
        for component in (self.tokenizer, *self.recognizers, *self.ner):
            warm_up = getattr(component, "warm_up", None)
            if warm_up is not None:
                warm_up()
        if self.config.get("complete_names", True):
            from psan.tool.detection.completion import warm_up as warm_up_completion
            warm_up_completion(self.language)
        if self.config.get("consolidate", True):  # its cut of glued spans asks the dictionary at sentence starts
            from psan.tool.words.lexicon import warm_up as warm_up_lexicon
            warm_up_lexicon(self.language)

    def _tokenize(self, text: str) -> Document:
        array_of = getattr(self.tokenizer, "token_array", None)
        if array_of is not None:  # clean offset arrays by construction (regex): no check, no Token objects
            array, sentences = array_of(text)
            return Document(text, array, list(sentences), [], self.language)
        offsets = getattr(self.tokenizer, "token_offsets", None)
        if offsets is not None:  # offset lists (NameTag): clean ones stay offset arrays, no Token objects
            starts, ends, sentences = offsets(text)
            array = TokenArray(starts, ends)
            known = getattr(self.tokenizer, "known_token_texts", None)  # the texts its run read (NameTag, long texts)
            texts = known(text) if known is not None else None
            if texts is not None:  # clean tokens by construction (see known_token_texts): no check, no slices
                keep_token_texts(text, array, texts)
                return Document(text, array, list(sentences), [], self.language)
            if offsets_clean(text, starts, ends, token_texts(text, array)):  # propagation reuses the texts
                return Document(text, array, list(sentences), [], self.language)
            tokens = list(map(Token, range(len(starts)), starts, ends))
        else:
            tokens, sentences = self.tokenizer.tokenize(text)
            if getattr(self.tokenizer, "tokens_clean", False):  # clean by construction (regex): skip the copy
                return Document(text, tokens, list(sentences), [], self.language)
        cleaned = clean_tokens(text, tokens)
        if len(cleaned) != len(tokens) or any(
                a.start != b.start or a.end != b.end for a, b in zip(cleaned, tokens, strict=True)):
            sentences = remap_sentences(tokens, sentences, cleaned)
        return Document(text, cleaned, list(sentences), [], self.language)

    def candidates(self, text: str, doc: Document) -> list[CharSpan]:
        """The recognizers' candidates (NER excluded); one whose ``trigger`` finds nothing in the text is skipped."""
        out: list[CharSpan] = []
        for r in self.recognizers:
            trigger = getattr(r, "trigger", None)
            if trigger is None or trigger.search(text) is not None:
                out.extend(r.analyze(text, doc))
        return out

    def _finish(self, doc: Document, patterns: list[CharSpan], ner: list[CharSpan]) -> Document:
        return self.finish_document(self._resolve(doc, patterns, ner))

    def _resolve(self, doc: Document, patterns: list[CharSpan], ner: list[CharSpan]) -> Document:
        from psan.tool.detection.merge import resolve  # lazily: the merger is a separate module
        if self.config.get("extend_mentions", True):
            from psan.tool.detection.extension import extend_mentions
            patterns = extend_mentions(doc.text, patterns, self.language)
            ner = extend_mentions(doc.text, ner, self.language)
        if self.config.get("place_readings", True):
            from psan.tool.detection.place_readings import places_over_lone_persons
            ner = places_over_lone_persons(doc.text, patterns, ner, self.language)
        edges = patterns + ner if self.split_at == "all" else patterns
        bounds = set(map(_START, edges))  # the candidates' edges (attrgetters in C: 10^5 per large document)
        bounds.update(map(_END, edges))
        doc.tokens, doc.sentences = split_tokens_and_sentences(doc.tokens, doc.sentences, bounds)
        doc.entities = resolve(doc, patterns + ner)
        return doc

    def finish_document(self, doc: Document) -> Document:
        """The document-level steps after merging (name completion, propagation); once per document.

        ``consolidate`` (default ``true``): spans glued to a neighbour are cut before completion and
        propagation, and one string gets one category after them (psan.tool.detection.consolidate).
        ``long_forms`` (default ``true``, with ``consolidate``): the long form of a recognized acronym the text
        defines is masked with it (psan.tool.detection.acronym_definitions).
        ``complete_names`` (default ``true``): person spans grow to the whole name (psan.tool.detection.completion).
        """
        consolidate = self.config.get("consolidate", True)
        if consolidate:
            from psan.tool.detection.consolidate import split_glued
            split_glued(doc)
            if self.config.get("long_forms", True):
                from psan.tool.detection.acronym_definitions import mark_long_forms
                mark_long_forms(doc)
        if self.config.get("complete_names", True):
            from psan.tool.detection.completion import complete_names
            complete_names(doc)
        if self.propagate is not None:
            from psan.tool.detection.propagate import with_propagation
            with_propagation(doc, **self.propagate)
        if consolidate:
            from psan.tool.detection.consolidate import unify_categories
            unify_categories(doc)
        forget_token_texts(doc.tokens)
        return doc

    def _combine_ner(self, text: str, found: list[list[CharSpan]]) -> list[CharSpan]:
        """The NER candidates of one text, one list per NER entry; pieces a borrowed (``cross_lingual``)
        model finds inside a native model's span are dropped, and (Polish, Slovak) sentence-initial common words,
        alone or before a native model's person name, and (Polish) name spans without a capital letter; trailing
        punctuation is cut from Polish names
        (:mod:`psan.tool.detection.candidate_combination`, a step of the pipeline, not a component)."""
        from psan.tool.detection.candidate_combination import (
            drop_common_initial_words,
            drop_nested_borrowed,
            names_with_capitals,
            trim_initial_common_words,
        )
        borrowed_flags = [bool(getattr(r, "cross_lingual", False)) for r in self.ner]
        native = [c for spans, b in zip(found, borrowed_flags, strict=True) if not b for c in spans]
        borrowed = [c for spans, b in zip(found, borrowed_flags, strict=True) if b for c in spans]
        # a title cut from a native person only: a borrowed model's name pieces nest in its spans
        native = trim_initial_common_words(text, native, self.language)
        combined = native + (drop_nested_borrowed(text, native, borrowed, self.language) if native else borrowed)
        return names_with_capitals(text, drop_common_initial_words(text, combined, self.language), self.language)

    def sections(self, text: str) -> list[tuple[int, int]]:
        """The character ranges this pipeline recognizes independently (one for all but large texts)."""
        from psan.tool.text.sections import split_sections
        return split_sections(text, self.section_min_chars, self.section_chars)

    def recognize_section(self, text: str) -> Document:
        """Tokens, sentences and merged entities of one section, without the document-level steps."""
        with collector_paused():
            doc = self._tokenize(text)
            patterns = self.candidates(text, doc)
            ner = self._combine_ner(text, [r.analyze(text, doc) for r in self.ner])
            return self._resolve(doc, patterns, ner)

    def recognize_packed(self, text: str, binary: bool = False) -> list:
        """:meth:`recognize_section` as plain lists (:func:`psan.tool.text.sections.pack`) for another process
        (``binary``: its token offsets as an array, for a process pool; not JSON)."""
        from psan.tool.text.sections import pack
        with collector_paused():
            return pack(self.recognize_section(text), binary)

    def merge(self, text: str, parts: Iterable[tuple[int, list | Document]]) -> Document:
        """The document from its section results (documents or packed, in text order), finished once."""
        from psan.tool.text.sections import merge_sections
        with collector_paused():
            return self.finish_document(merge_sections(text, self.language, parts))

    def process(self, text: str) -> Document:
        """Recognize one text (section by section when it is large; :mod:`psan.tool.detection.parallel` does it in
        parallel)."""
        ranges = self.sections(text)
        if len(ranges) == 1:
            with collector_paused():
                return self.finish_document(self.recognize_section(text))
        # a generator: each section's document is merged and let go before the next one is recognized
        return self.merge(text, ((start, self.recognize_section(text[start:end])) for start, end in ranges))

    def iter_process(self, texts: Iterable[str], batch_size: int = 32) -> Iterator[Document]:
        """Recognize texts lazily in batches (NER adapters with ``analyze_many`` run batched)."""
        batch: list[str] = []
        for text in texts:
            batch.append(text)
            if len(batch) >= batch_size:
                yield from self._batch(batch)
                batch = []
        if batch:
            yield from self._batch(batch)

    def process_many(self, texts: Iterable[str], batch_size: int = 32) -> list[Document]:
        """Recognize many texts, batching NER for speed."""
        return list(self.iter_process(texts, batch_size))

    def _batch(self, texts: Sequence[str]) -> list[Document]:
        with collector_paused():
            return self._batch_unpaused(texts)

    def _batch_unpaused(self, texts: Sequence[str]) -> list[Document]:
        if any(len(self.sections(t)) > 1 for t in texts):  # large texts go section by section, like process()
            return [self.process(t) for t in texts]
        # NER without analyze_many runs on each text right after it is tokenized: NameTag as tokenizer *and*
        # NER then reuses its one run (its cache holds the last text); batched NER (spaCy) runs on the batch
        batched = [getattr(r, "analyze_many", None) for r in self.ner]
        results: list[list[list[CharSpan]]] = [[] for _ in self.ner]
        docs = []
        for text in texts:
            doc = self._tokenize(text)
            docs.append(doc)
            for r, many, acc in zip(self.ner, batched, results, strict=True):
                if many is None:
                    acc.append(r.analyze(text, doc))
        for many, acc in zip(batched, results, strict=True):
            if many is not None:
                acc.extend(many(texts))
        ner = [self._combine_ner(text, [res[i] for res in results]) for i, text in enumerate(texts)]
        out = []
        for text, doc, found in zip(texts, docs, ner, strict=True):
            patterns = self.candidates(text, doc)
            out.append(self._finish(doc, patterns, found))
        return out

    def to_config(self) -> dict[str, Any]:
        """The JSON-serializable config this pipeline was built from."""
        return dict(self.config)
