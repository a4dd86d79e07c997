"""Prisons, counties and Turkish provinces in English text ("HMP Northumberland", "Edirne")."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.detection.recognizers import gazetteer
from psan.tool.detection.recognizers.institutions import NEEDS, InstitutionRecognizer, finditer_in_runs
from psan.tool.text.document import Category


def found(text: str) -> list[tuple[str, str]]:
    return [(text[s.start:s.end], s.type) for s in InstitutionRecognizer().analyze(text)]


def test_prisons_counties_and_provinces() -> None:
    text = ("He was moved to HMP Northumberland and then to HM Prison Manchester. In Sztum Prison he met a man "
            "from Edirne who had lived in Nottinghamshire and Diyarbakir.")
    assert found(text) == [("HMP Northumberland", "PRISON"), ("HM Prison Manchester", "PRISON"),
                           ("Sztum Prison", "PRISON"), ("Nottinghamshire", "COUNTY"), ("Edirne", "PROVINCE"),
                           ("Diyarbakir", "PROVINCE")]


def test_hyphenated_organisation_acronyms() -> None:
    assert found("a member of the DHKP-C (Revolutionary People’s Liberation Party-Front) and COVID-19, L5-S1") == [
        ("DHKP-C", "ORG_ACRONYM")]


def test_ordinary_words_are_not_places() -> None:
    assert found("The prison was full. Van Gogh painted it; Batman is a film; the shire horse ran.") == []


def test_in_the_english_name_family_below_ner() -> None:
    recs = gazetteer.default_recognizers("en")
    assert any(isinstance(r, InstitutionRecognizer) for r in recs)
    assert not any(isinstance(r, InstitutionRecognizer) for r in gazetteer.default_recognizers("cs"))
    assert InstitutionRecognizer("sv").analyze("He was moved to HMP Northumberland.") == []
    spans = InstitutionRecognizer().analyze("held in HMP Northumberland")
    assert spans[0].category is Category.ORGANIZATION and spans[0].priority < 0


def test_swedish_authorities_by_their_last_compound_part() -> None:
    text = ("Enligt Naturvårdsverket och Socialstyrelsen ska Försäkringskassan betala; "
            "Migrationsverkets beslut. Ett verk av styrelsen i rådet.")
    assert [text[s.start:s.end] for s in InstitutionRecognizer("sv").analyze(text)] == [
        "Naturvårdsverket", "Socialstyrelsen", "Försäkringskassan", "Migrationsverkets"]
    assert any(isinstance(r, InstitutionRecognizer) and r.language == "sv" for r in gazetteer.default_recognizers("sv"))


#: pieces of prison and county names and what ends a run of them (punctuation) or continues it (word characters,
#: apostrophes, hyphens, spaces of every kind)
_RUN_PIECES = ["HMP", "HM", "HMYOI", "Prison", "Remand", "Centre", "Detention", "Penitentiary", "Gaol", "Sztum",
               "Young", "Offender", "Institution", "Nottinghamshire", "shire", "Lanca", "County", "Durham", "Council",
               "Court", "Kent", "Sztum-Wielki", "O'Brien", "Ankara’s", "the", "The", "x", "_", "٣", "é", " ", "\n",
               "\u00a0", "\t", "-", "'", "’", ".", ",", "(", ")", ";", "/", "“"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_RUN_PIECES), max_size=14).map("".join))
def test_scanning_only_the_runs_with_a_needed_word_finds_every_match(text: str) -> None:
    for regex, words in NEEDS.items():
        assert [m.span() for m in finditer_in_runs(regex, text, words)] == [m.span() for m in regex.finditer(text)], \
            (regex.pattern[:40], text)
