"""Pipeline components by name (psan.tool.detection.registry, built-ins in psan.tool.detection.components)."""
from __future__ import annotations

import ast
import importlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from psan.tool.cli import main
from psan.tool.detection import components, registry
from psan.tool.detection.defaults import default_config, find_nametag_model
from psan.tool.detection.pipeline import Pipeline
from psan.tool.detection.registry import (
    ComponentError,
    recognizer_factory,
    register_recognizer,
    register_tokenizer,
    registered,
    tokenizer_factory,
)
from psan.tool.text.document import Category, CharSpan, Recognizer

BUILTIN_RECOGNIZERS = ["classifier", "gazetteers", "nametag", "patterns", "sensitive", "spacy"]
BUILTIN_TOKENIZERS = ["nametag", "regex", "spacy"]


@pytest.fixture()
def clean_registry() -> Iterator[None]:
    """Whatever a test registers is gone afterwards (the registry is process-wide)."""
    registered()  # the built-ins first, so the snapshot holds them
    recognizers, tokenizers = dict(registry._RECOGNIZERS), dict(registry._TOKENIZERS)
    yield
    registry._RECOGNIZERS.clear()
    registry._RECOGNIZERS.update(recognizers)
    registry._TOKENIZERS.clear()
    registry._TOKENIZERS.update(tokenizers)


class Upper(Recognizer):
    name = "upper"

    def analyze(self, text, doc=None):
        import re
        return [CharSpan(m.start(), m.end(), "UP", Category.OTHER, self.name, 1.0, 5)
                for m in re.finditer(r"\b[A-Z]{3,}\b", text)]


def test_builtins_are_registered():
    names = registered()
    assert set(BUILTIN_RECOGNIZERS) <= set(names["recognizers"])
    assert set(BUILTIN_TOKENIZERS) <= set(names["tokenizers"])


def test_classifier_is_registered_once_in_components():
    factory = recognizer_factory("classifier")
    assert factory is components._classifier
    importlib.import_module("psan.tool.detection.classifier")  # importing the package no longer registers anything
    importlib.import_module("psan.tool.detection.classifier.recognizer")
    assert recognizer_factory("classifier") is factory
    with pytest.raises(ComponentError, match="needs 'model_path'"):
        Pipeline({"language": "cs", "recognizers": [{"kind": "classifier"}]})


def test_pipeline_imports_no_concrete_component():
    """pipeline.py looks components up by name; it imports no recognizer, NER adapter or classifier."""
    import psan.tool.detection.pipeline as pipeline_module
    tree = ast.parse(Path(pipeline_module.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    concrete = ("psan.tool.detection.ner", "psan.tool.detection.recognizers", "psan.tool.detection.classifier",
                "psan.tool.detection.components")
    assert not [m for m in imported if m and m.startswith(concrete)]


def test_register_and_lookup(clean_registry):
    @register_recognizer("upper-test")
    def make_upper(entry, language):
        return Upper()

    assert recognizer_factory("upper-test") is make_upper
    assert "upper-test" in registered()["recognizers"]
    doc = Pipeline({"language": "en", "tokenizer": "regex", "recognizers": ["upper-test"]}).process("a NATO b")
    assert [(e.type, doc.span_text(e.first_token, e.end_token)) for e in doc.entities] == [("UP", "NATO")]

    register_tokenizer("regex-test", lambda entry, config: components.RegexTokenizer(config["language"]))
    assert "regex-test" in registered()["tokenizers"]
    pipe = Pipeline({"language": "en", "tokenizer": {"kind": "regex-test"}, "recognizers": []})
    assert [pipe.process("Hi there.").token_text(i) for i in range(3)] == ["Hi", "there", "."]


class Warming(Upper):
    name = "warming"

    def __init__(self) -> None:
        self.warmed = 0

    def warm_up(self) -> None:
        self.warmed += 1


class WarmTokenizer(components.RegexTokenizer):
    warmed = 0

    def warm_up(self) -> None:
        WarmTokenizer.warmed += 1


def test_the_pipeline_warms_every_component_up_once_when_built(clean_registry):
    """Components with a ``warm_up`` have it called once when the pipeline is built; those without still work."""
    class Plain:  # a component that does not subclass Recognizer: no warm_up at all
        name = "plain"

        def analyze(self, text, doc=None):
            return []

    register_recognizer("warming-test", lambda entry, language: Warming())
    register_recognizer("plain-test", lambda entry, language: Plain())
    register_tokenizer("warm-tokenizer-test", lambda entry, config: WarmTokenizer(config["language"]))
    pipe = Pipeline({"language": "en", "tokenizer": "warm-tokenizer-test",
                     "recognizers": ["warming-test", "plain-test"]})
    assert pipe.recognizers[0].warmed == 1
    assert WarmTokenizer.warmed == 1
    doc = pipe.process("a NATO b")
    assert pipe.recognizers[0].warmed == 1
    assert [e.type for e in doc.entities] == ["UP"]


def test_building_the_pipeline_loads_the_name_lists_completion_reads():
    """Name completion's lists (every Faker locale's first names) load when the pipeline is built, not at a document;
    a pipeline without completion does not load them."""
    from psan.tool.detection.recognizers import gazetteer
    gazetteer._first_names_of_all_locales.cache_clear()
    Pipeline({"language": "en", "tokenizer": "regex", "recognizers": [], "complete_names": False})
    assert gazetteer._first_names_of_all_locales.cache_info().currsize == 0
    Pipeline({"language": "en", "tokenizer": "regex", "recognizers": []})
    assert gazetteer._first_names_of_all_locales.cache_info().currsize == 1
    assert gazetteer.foreign_first_name("Mehmet", "en")


def test_a_later_registration_replaces_a_builtin(clean_registry):
    register_recognizer("patterns", lambda entry, language: Upper())
    assert [type(r) for r in Pipeline({"language": "en", "recognizers": ["patterns"]}).recognizers] == [Upper]


@pytest.mark.parametrize("kind", ["nope", None, 3, ["patterns"]])
def test_unknown_recognizer_lists_the_known_names(kind):
    with pytest.raises(ComponentError) as err:
        recognizer_factory(kind)
    message = str(err.value)
    assert message.startswith(f"unknown recognizer kind {kind!r}; known: ")
    assert all(name in message for name in BUILTIN_RECOGNIZERS)
    assert "\n" not in message


def test_unknown_tokenizer_lists_the_known_names():
    with pytest.raises(ComponentError, match=r"unknown tokenizer 'nope'; known: nametag, regex, spacy"):
        tokenizer_factory("nope")
    with pytest.raises(ComponentError, match="unknown tokenizer"):
        Pipeline({"language": "en", "tokenizer": {"model": "x"}})


def test_cli_unknown_component_is_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "a.txt").write_text("Write to john.smith@example.com.\n", encoding="utf-8")
    config = tmp_path / "pipeline.json"
    config.write_text(json.dumps({"language": "en", "tokenizer": "regex", "recognizers": ["nosuch"]}),
                      encoding="utf-8")
    status = main(["anonymize", str(tmp_path / "a.txt"), "--out", str(tmp_path / "out"), "--pipeline", str(config),
                   "-q"])
    err = capsys.readouterr().err.strip()
    assert status == 2
    assert len(err.splitlines()) == 1
    assert "unknown recognizer kind 'nosuch'; known: " in err
    assert all(name in err for name in BUILTIN_RECOGNIZERS)


def _families(language: str) -> list[type]:
    """Classes of the recognizer families a default config names, built without the registry."""
    from psan.tool.detection.recognizers import gazetteer, patterns
    return [type(r) for r in [*patterns.default_recognizers(language), *gazetteer.default_recognizers(language)]]


@pytest.mark.parametrize("language", ["cs", "en", "sk", "sl", "pl", "sv", "de"])
def test_default_pipelines_build_the_same_components(language, monkeypatch):
    """Without models: the regex tokenizer and exactly the recognizer families of the config."""
    from psan.tool.detection.recognizers import sensitive
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)
    config = default_config(language)
    if config["ner"]:  # an installed spaCy model (English, Czech)
        pytest.skip("a spaCy model is installed; the model-free default is not built")
    pipe = Pipeline(config)
    assert isinstance(pipe.tokenizer, components.RegexTokenizer)
    assert pipe.ner == []
    expected = _families(language)
    if "sensitive" in config["recognizers"]:
        expected += [type(r) for r in sensitive.default_recognizers(language)]
    assert [type(r) for r in pipe.recognizers] == expected


def test_default_pipeline_with_models_builds_nametag(shared_dir, monkeypatch):
    from psan.tool.detection.ner.nametag import NameTagRecognizer
    models = shared_dir / "models" / "nametag"
    if not find_nametag_model("cs", str(models)) or not find_nametag_model("sk", str(models)):
        pytest.skip("no Czech/Slovak NameTag models in ../shared/models/nametag")
    monkeypatch.setenv("PSAN_NAMETAG_MODELS", str(models))
    czech = Pipeline(default_config("cs"))
    assert isinstance(czech.tokenizer, NameTagRecognizer)
    assert [type(r) for r in czech.ner] == [NameTagRecognizer]
    slovak = Pipeline(default_config("sk"))
    assert isinstance(slovak.tokenizer, components.RegexTokenizer)
    assert {type(r) for r in slovak.ner} == {NameTagRecognizer}
    assert [r.cross_lingual for r in slovak.ner][-1] is True
