"""Runs of capitalized words at the start of a Swedish sentence as name evidence (Swedish recall)."""
from __future__ import annotations

import pytest

from psan.tool.detection.pipeline import Pipeline
from psan.tool.detection.recognizers import gazetteer
from psan.tool.detection.recognizers.initial_runs import InitialRunRecognizer, InitialUnknownWordRecognizer
from psan.tool.text.document import WEAK_SOURCES, Category
from psan.tool.words import lexicon


def found(text: str, language: str = "sv") -> list[str]:
    return [text[s.start:s.end] for s in InitialRunRecognizer(language).analyze(text)]


def test_a_sentence_starting_with_an_unlisted_name() -> None:
    assert found("Vad säger forskningen? Ylvander Tornvall, docent i statistik, menar att det är fel.") == [
        "Ylvander Tornvall"]
    assert found("Gustava Lindqvist-Öberg har skrivit boken.\nVita Bandet samlar in pengar.") == [
        "Gustava Lindqvist-Öberg", "Vita Bandet"]
    assert found("Det var sent. ”Björn Åkerlöf kommer snart”, sa hon.") == ["Björn Åkerlöf"]


def test_what_proves_nothing() -> None:
    # one capitalized word, a closed-class first word, a run inside the sentence, a form label, capitals
    assert found("Tornvall menar att det är fel. I Sverige är det annorlunda. Men Ylvander Tornvall vet.") == []
    assert found("Boken heter Vita Bandet och kom ut i år.") == []
    assert found("Telefon Arbete: 08-123 45 67\nUSA Idag skriver om det.") == []
    # a word the paragraph also writes in lower case: a heading or a title, not a name
    assert found("Nya Bostäder för alla. Det behövs nya bostäder i staden.") == []


def test_swedish_only_weak_and_below_every_other_evidence() -> None:
    assert any(isinstance(r, InitialRunRecognizer) for r in gazetteer.default_recognizers("sv"))
    for language in ("cs", "sk", "pl", "en", "sl"):
        assert not any(isinstance(r, InitialRunRecognizer) for r in gazetteer.default_recognizers(language))
    span = InitialRunRecognizer("sv").analyze("Ylvander Tornvall menar det.")[0]
    assert span.category is Category.OTHER and span.type == "PROPER_NOUN"
    assert span.source in WEAK_SOURCES and span.priority < gazetteer.PRIORITY_GAZETTEER


def test_the_swedish_pipeline_shows_the_whole_name() -> None:
    text = "Hur ser det ut i dag? Ylvander Tornvall, docent i statistik, menar att läget är oklart."
    doc = Pipeline({"language": "sv", "tokenizer": "regex", "ner": [], "recognizers": ["gazetteers"],
                    "propagate": False}, language="sv").process(text)
    spans = {text[slice(*doc.char_range(e.first_token, e.end_token))] for e in doc.entities}
    assert "Ylvander Tornvall" in spans


# ---- a single unknown word at a sentence start (the optional dictionaries of psan.tool.words.lexicon)

def test_without_a_dictionary_nothing_is_added(monkeypatch: pytest.MonkeyPatch) -> None:
    from psan.tool.detection.recognizers import initial_runs
    monkeypatch.setattr(initial_runs, "available", lambda: False)
    monkeypatch.setattr(lexicon, "available", lambda: False)
    assert [type(r) for r in initial_runs.default_recognizers("sv")] == [InitialRunRecognizer]
    assert lexicon.is_word("Tornqvaal", ["sv"]) is None  # "cannot tell": the recognizer adds nothing
    assert InitialUnknownWordRecognizer("sv").analyze("Mötet var kort. Tornqvaal sade det.") == []


@pytest.mark.skipif(not lexicon.available(), reason="simplemma (pip extra 'swedish') is not installed")
def test_a_sentence_starting_with_a_word_no_dictionary_knows() -> None:
    def single(text: str) -> list[str]:
        return [text[s.start:s.end] for s in InitialUnknownWordRecognizer("sv").analyze(text)]

    assert single("Mötet var kort. Tornqvaal sade att han var nöjd.") == ["Tornqvaal"]
    # a Swedish word, a compound of Swedish words, an English word, a run (left to InitialRunRecognizer)
    assert single("Kvinnorna sade att de var nöjda. Ännu var det tidigt.") == []
    assert single("Göteborgsflickor sjöng. Barnomsorgsfrågan är svår.") == []
    assert single("Mothering är en bok om mödrar.") == []
    assert single("Ylvander Tornvall, docent i statistik, menar det.") == []
    # inside a sentence a capital is evidence enough for other recognizers: not this one's business
    assert single("Han träffade Tornqvaal i går.") == []


@pytest.mark.skipif(not lexicon.available(), reason="simplemma (pip extra 'swedish') is not installed")
def test_dictionary_answers() -> None:
    assert lexicon.is_known("Kvinnorna", ["sv"]) and lexicon.is_known("inom", ["sv"])
    assert lexicon.is_compound("stockholmspojkar", ["sv"]) and not lexicon.is_compound("tornqvaal", ["sv"])
    assert lexicon.is_word("Tornqvaal", ["sv", "en"]) is False
