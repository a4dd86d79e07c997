"""Loading a language's dictionary when the pipeline is built (psan.tool.words.lexicon.warm_up)."""
from __future__ import annotations

import pytest

from psan.tool.detection.pipeline import Pipeline
from psan.tool.detection.recognizers.acronyms import AcronymRecognizer
from psan.tool.words import lexicon

pytestmark = pytest.mark.skipif(not lexicon.available(), reason="simplemma (pip extra 'swedish') is not installed")


def test_warm_up_answers_the_same_and_tolerates_a_language_without_a_dictionary() -> None:
    lexicon.warm_up("en")
    lexicon.warm_up("xx")  # no dictionary: nothing to load, no error at start-up
    assert lexicon.is_known("court", ["en"]) is True
    assert lexicon.is_known("Qzxvbk", ["en"]) is False


def test_warm_up_asks_the_dictionary_once(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[str, tuple[str, ...]]] = []
    monkeypatch.setattr(lexicon, "_lookup", lambda word, languages: asked.append((word, languages)) or True)
    lexicon.warm_up("sk")
    assert asked == [("a", ("sk",))]


@pytest.mark.parametrize(("config", "loads"), [({"recognizers": ["patterns"]}, True),
                                               ({"recognizers": ["patterns"], "consolidate": False}, False)])
def test_a_pipeline_that_cuts_glued_spans_loads_its_dictionary_when_built(
        monkeypatch: pytest.MonkeyPatch, config: dict, loads: bool) -> None:
    warmed: list[str] = []
    monkeypatch.setattr(lexicon, "warm_up", warmed.append)
    Pipeline({"language": "cs", **config}, language="cs")
    assert ("cs" in warmed) is loads


def test_the_coined_acronym_recognizer_loads_its_dictionary(monkeypatch: pytest.MonkeyPatch) -> None:
    warmed: list[str] = []
    monkeypatch.setattr(lexicon, "warm_up", warmed.append)
    AcronymRecognizer("pl", coined_only=True).warm_up()
    AcronymRecognizer("cs").warm_up()
    assert warmed == ["pl"]
