"""The trained tagger (UDPipe 1) of a language, if the models folder has it.

Why optional: a user's clone has no model (it is trained from the treebanks by
``python -m psan.tool.morph train``, see the README); without it the analysis falls back to
prepositions, titles and paradigms, with one warning per language, never an error.  Slovenian
uses the Slovak model (no Slovenian treebank here).  Tagging is cached per sentence (a tuple of
words), so a name repeated in equal sentences is tagged once.  An optional parser (``parse-<lang>.udpipe``,
``--parser``) adds each word's head and dependency relation.
"""
from __future__ import annotations

import logging
import os
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from psan.tool.morph.train import model_path
from psan.tool.morph.valency import load, valency_path

log = logging.getLogger(__name__)

#: the model a language uses when it has none of its own
MODEL_OF = {"cs": "cs", "sk": "sk", "sl": "sk"}
Tagged = tuple[tuple[str, str, dict[str, str]], ...]  # (lemma, UPOS, feats) per word
#: (lemma, UPOS, feats, head (1-based, 0 = root), deprel) per word
Parsed = tuple[tuple[str, str, dict[str, str], int, str], ...]


def models_dir() -> str | None:
    """The models folder (``$PSAN_NAMETAG_MODELS``)."""
    return os.environ.get("PSAN_NAMETAG_MODELS") or None


@cache
def _load(path: str) -> Any | None:
    try:
        from ufal.udpipe import Model
    except ImportError:
        log.warning("ufal.udpipe is not installed: surrogate morphology uses rules only (pip install ufal.udpipe)")
        return None
    if not Path(path).is_file():
        log.warning("no morphological model %s: surrogate morphology uses rules only "
                    "(train it with python -m psan.tool.morph train, see README)", path)
        return None
    model = Model.load(path)
    if model is None:
        log.warning("%s is not a UDPipe model: surrogate morphology uses rules only", path)
    return model


def model_for(language: str) -> Any | None:
    """The loaded tagger of ``language`` (``None`` without a model)."""
    lang = MODEL_OF.get(language)
    folder = models_dir()
    if lang is None or folder is None:
        return None
    return _load(str(model_path(folder, lang)))


@cache
def _load_parser(path: str) -> Any | None:
    """A parser model, silently ``None`` when absent (it is optional even where the tagger is there)."""
    if not Path(path).is_file():
        return None
    from ufal.udpipe import Model
    return Model.load(path)


def parser_for(language: str) -> Any | None:
    """The loaded dependency parser of ``language`` (``None`` without one or without a tagger)."""
    lang = MODEL_OF.get(language)
    folder = models_dir()
    if lang is None or folder is None or model_for(language) is None:
        return None
    return _load_parser(str(model_path(folder, lang, parser=True)))


@cache
def _valency(path: str) -> dict[str, dict[str, object]] | None:
    return load(path)


def valency_table(language: str) -> dict[str, dict[str, object]] | None:
    """The prepositions' cases by governing word learned with the tagger (``valency-<lang>.json``), if there."""
    lang = MODEL_OF.get(language)
    folder = models_dir()
    if lang is None or folder is None:
        return None
    return _valency(str(valency_path(folder, lang)))


def available(language: str) -> bool:
    """Whether a trained tagger is there for ``language``."""
    return model_for(language) is not None


def _tagged_sentence(tagger_path: str, words: tuple[str, ...]):
    """A UDPipe sentence of ``words`` tagged by the model at ``tagger_path``."""
    from ufal.udpipe import Model, Sentence
    sentence = Sentence()
    for w in words:
        sentence.addWord(w)
    _load(tagger_path).tag(sentence, Model.DEFAULT)
    return sentence


def _features(word) -> dict[str, str]:
    """A UDPipe word's ``Feat=Value|…`` string as a dict."""
    return dict(f.split("=", 1) for f in word.feats.split("|") if "=" in f)


@lru_cache(maxsize=50_000)
def _tag(path: str, words: tuple[str, ...]) -> Tagged:
    sentence = _tagged_sentence(path, words)
    return tuple((word.lemma, word.upostag, _features(word)) for word in list(sentence.words)[1:])


def tag(language: str, words: tuple[str, ...]) -> Tagged | None:
    """(lemma, UPOS, feats) of each word of a sentence, ``None`` without a model."""
    if model_for(language) is None or not words:
        return None
    folder = models_dir()
    assert folder is not None  # noqa: S101 - model_for returned a model, so the folder is set
    return _tag(str(model_path(folder, MODEL_OF[language])), words)


@lru_cache(maxsize=20_000)
def _parse(tagger_path: str, parser_path: str, words: tuple[str, ...]) -> Parsed:
    from ufal.udpipe import Model
    sentence = _tagged_sentence(tagger_path, words)
    _load_parser(parser_path).parse(sentence, Model.DEFAULT)
    return tuple((word.lemma, word.upostag, _features(word), int(word.head), word.deprel)
                 for word in list(sentence.words)[1:])


def parse(language: str, words: tuple[str, ...]) -> Parsed | None:
    """Tagged and parsed words of a sentence, ``None`` without a tagger and a parser."""
    if parser_for(language) is None or not words:
        return None
    folder = models_dir()
    assert folder is not None  # noqa: S101 - parser_for returned a model, so the folder is set
    lang = MODEL_OF[language]
    return _parse(str(model_path(folder, lang)), str(model_path(folder, lang, parser=True)), words)
