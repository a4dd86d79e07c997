"""Capitalized words inside a Czech or Slovak sentence as name evidence (CNEC and Slovak recall)."""
from __future__ import annotations

from psan.tool.detection.recognizers import gazetteer
from psan.tool.detection.recognizers.capitalized import CapitalizedWordRecognizer, starts_clause
from psan.tool.text.document import Category


def found(text: str, language: str = "cs") -> list[str]:
    return [text[s.start:s.end] for s in CapitalizedWordRecognizer(language).analyze(text)]


def test_rare_names_inside_a_sentence_and_runs_of_them() -> None:
    assert found("Letí tedy i zahraniční posily Binič a Tatarčuk .") == ["Binič", "Tatarčuk"]
    assert found("Olympiáda v Lake Placid skončila , vyhrál Mexičan Chavez .") == ["Lake Placid", "Mexičan Chavez"]
    assert found("Pracuje ve firmě Frýdek-Místek Plus .") == ["Frýdek-Místek Plus"]
    assert found("Vzťahy s Európou a cesta po Balkáne .", "sk") == ["Európou", "Balkáne"]


def test_capitals_that_prove_nothing() -> None:
    # sentence and line starts, quoted speech, list numbers, a label before a colon, an e-mail, a dateline
    assert found("Posily přiletěly. Tatarčuk hrál.\nBinič taky.") == []
    assert found('Řekl : " Podle mých zkušeností ne . " 30 Avšak nesnáze .') == []
    assert found("Kontakt Telefon: 123 456 , mail a@b.cz Poštou na adresu") == []
    assert found("PRAHA ( ČTK ) - Předseda komory řekl , že … Ostrava - Nový ředitel") == ["Nový"]
    # a closed-class word, a word the text also writes in lower case, a word in capitals, an initial
    assert found("Dal to Ani jednou , řekl Most a most , přišla ODS a B . Novák .") == ["Novák"]


def test_a_name_after_a_dash_or_in_brackets_inside_a_sentence_stays() -> None:
    assert starts_clause("nové mesto nazývané Spalato – Split .", 31) is False
    assert found("mestá Serdica a Viminacium ( Kostolac ) .", "sk") == ["Serdica", "Viminacium", "Kostolac"]
    assert found("sbírku B . Sluckého a dílo B. Hrabala , čo urobili sv. František a sv. Dominik", "sk") == [
        "Sluckého", "Hrabala", "František", "Dominik"]


def test_only_czech_and_slovak_below_every_other_evidence() -> None:
    for language in ("cs", "sk"):
        assert any(isinstance(r, CapitalizedWordRecognizer) for r in gazetteer.default_recognizers(language))
    for language in ("pl", "sv", "en"):
        assert not any(isinstance(r, CapitalizedWordRecognizer) for r in gazetteer.default_recognizers(language))
    span = CapitalizedWordRecognizer("cs").analyze("přišel Tatarčuk .")[0]
    assert span.category is Category.OTHER and span.type == "PROPER_NOUN"
    assert span.priority < gazetteer.PRIORITY_GAZETTEER
