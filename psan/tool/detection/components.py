"""The built-in pipeline components, registered by name in :mod:`psan.tool.detection.registry`.

Why one module: every built-in name (``regex``/``nametag``/``spacy`` tokenizers; ``nametag``/
``spacy`` NER; ``patterns``, ``gazetteers``, ``sensitive``, ``demographic``, ``classifier`` recognizers) is
registered exactly once, here, and the registry imports this module before its first lookup.
The concrete modules (NameTag, spaCy, the classifier, the recognizer families) are imported only
when a config uses them, so a pipeline without spaCy never imports it.
"""
from __future__ import annotations

import importlib
from typing import Any

from psan.tool.detection.registry import (
    ComponentError,
    RecognizerFactory,
    Tokenizer,
    as_entry,
    register_recognizer,
    register_tokenizer,
)
from psan.tool.text.document import Recognizer, Sentence, Token, TokenArray
from psan.tool.text.tokens import tokenize, tokenize_array


# --- tokenizers --------------------------------------------------------------------------------------------
class RegexTokenizer:
    """:func:`psan.tool.text.tokens.tokenize` with the language's abbreviation list.

    Its ``token_array`` gives the same tokens as offset arrays; a tokenizer with one promises clean tokens,
    and the pipeline takes them from it instead of ``tokenize``'s Token objects (:meth:`Pipeline._tokenize`).
    """

    #: its tokens are clean by construction (the pipeline skips the cleaning copy)
    tokens_clean = True

    def __init__(self, language: str = "") -> None:
        self.language = language

    def tokenize(self, text: str) -> tuple[list[Token], list[Sentence]]:
        return tokenize(text, self.language)

    def token_array(self, text: str) -> tuple[TokenArray, list[Sentence]]:
        """The tokens as offset arrays (the pipeline's path: no Token object per token)."""
        return tokenize_array(text, self.language)


def _ner_model_of(config: dict[str, Any], kind: str) -> str | None:
    """The ``model`` of the config's first NER entry of ``kind`` (a tokenizer without its own reuses it)."""
    return next((e.get("model") for e in map(as_entry, config.get("ner", [])) if e.get("kind") == kind), None)


@register_tokenizer("regex")
def _regex_tokenizer(entry: dict[str, Any], config: dict[str, Any]) -> Tokenizer:
    return RegexTokenizer(config.get("language", ""))


@register_tokenizer("nametag")
def _nametag_tokenizer(entry: dict[str, Any], config: dict[str, Any]) -> Tokenizer:
    from psan.tool.detection.ner.nametag import NameTagRecognizer
    model = entry.get("model") or _ner_model_of(config, "nametag")
    if not model:
        raise ComponentError("tokenizer 'nametag' needs a model (in the tokenizer entry or a nametag NER entry)")
    return NameTagRecognizer(model)


@register_tokenizer("spacy")
def _spacy_tokenizer(entry: dict[str, Any], config: dict[str, Any]) -> Tokenizer:
    from psan.tool.detection.ner.spacy_ner import DEFAULT_MODELS, SpacyTokenizer
    model = entry.get("model") or _ner_model_of(config, "spacy") or DEFAULT_MODELS.get(config.get("language", ""))
    if not model:
        raise ComponentError("tokenizer 'spacy' needs a model name")
    return SpacyTokenizer(model)


# --- NER ---------------------------------------------------------------------------------------------------
def _options(entry: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in entry.items() if k != "kind"}


@register_recognizer("nametag")
def _nametag(entry: dict[str, Any], language: str) -> Recognizer:
    from psan.tool.detection.ner.nametag import NameTagRecognizer
    if not entry.get("model"):
        raise ComponentError("NER kind 'nametag' needs 'model': path to a .ner file")
    return NameTagRecognizer(**_options(entry))


@register_recognizer("spacy")
def _spacy(entry: dict[str, Any], language: str) -> Recognizer:
    from psan.tool.detection.ner.spacy_ner import DEFAULT_MODELS, SpacyRecognizer
    options = _options(entry)
    options.setdefault("model", DEFAULT_MODELS.get(language, DEFAULT_MODELS["en"]))
    return SpacyRecognizer(**options)


# --- recognizers -------------------------------------------------------------------------------------------
def _module_recognizers(module: str) -> RecognizerFactory:
    """A factory for a recognizer family: the module's ``default_recognizers(language)``."""
    def factory(entry: dict[str, Any], language: str) -> list[Recognizer]:
        try:
            mod = importlib.import_module(module)
        except ImportError as err:
            raise ComponentError(f"recognizer kind {entry['kind']!r} needs {module}: {err}") from err
        return list(mod.default_recognizers(entry.get("language", language)))
    return factory


register_recognizer("patterns", _module_recognizers("psan.tool.detection.recognizers.patterns"))
register_recognizer("gazetteers", _module_recognizers("psan.tool.detection.recognizers.gazetteer"))
register_recognizer("sensitive", _module_recognizers("psan.tool.detection.recognizers.sensitive"))
register_recognizer("demographic", _module_recognizers("psan.tool.detection.recognizers.demographic"))


@register_recognizer("classifier")
def _classifier(entry: dict[str, Any], language: str) -> Recognizer:
    """The learned token classifier (:mod:`psan.tool.detection.classifier.recognizer`), imported only when used."""
    from psan.tool.detection.classifier.recognizer import classifier_factory
    return classifier_factory(entry, language)
