"""Acronyms ("KE", "PAP", "BBC", "FAO", "KĽDR") and names of peoples ("Slovinců", "Austriacy")."""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.detection.recognizers import gazetteer
from psan.tool.detection.recognizers.acronyms import (
    ACRONYM_PLAIN,
    ACRONYM_RE,
    COINED_PLAIN,
    COINED_RE,
    AcronymRecognizer,
)
from psan.tool.text.document import Category


def found(text: str, language: str = "pl") -> list[str]:
    return [text[s.start:s.end] for s in AcronymRecognizer(language).analyze(text)]


def test_isolated_acronyms_with_digits_and_case_endings() -> None:
    assert found("Jak podała agencja PAP , decyzję KE poparł TVN24 , format A4 .") == ["PAP", "KE", "TVN24"]
    assert found("v rámci kola GATTu a podle agentury ČTK", "cs") == ["GATTu", "ČTK"]
    assert found("o czym pisze PAP-u redakcja", "pl") == ["PAP-u"]
    assert found("Spravodajca BBC informoval, že KĽDR je na kolenách.", "sk") == ["BBC", "KĽDR"]
    assert found("enligt FAO och Naturvårdsverket", "sv") == ["FAO"]


def test_common_abbreviations_roman_numerals_and_formulas_are_not_names() -> None:
    text = "stawka VAT , PKB i DPH , IČO 123 , XXVI . sjezd , emise CO2 a SO2 , 5 USD , GPS i SMS"
    assert found(text) == []


def test_capitals_runs_and_headings_prove_nothing() -> None:
    assert found("GRUPY ROBOCZE W RAMACH KOMISJI EUROPEJSKIEJ działają") == []
    assert found("BARAN 21. 3. - 20. 4.\nNeriešte to.\nSOBOTA A NEDEĽA\nKĽDR je chudobná.", "sk") == ["KĽDR"]


def test_a_long_word_in_capitals_that_the_text_also_writes_in_lower_case() -> None:
    assert found("Program na SOBOTU: v sobotu prší. NASA letí.", "sk") == ["NASA"]


def test_not_part_of_longer_tokens_urls_or_hyphenated_compounds() -> None:
    assert found("LO-SAF-uppgörelsen och ATP-poäng, mejla info@ABC.se eller www.KE.eu", "sv") == []
    assert found("K.E. jest organem") == []


def test_in_the_name_family_for_the_inflected_and_swedish_languages_only() -> None:
    for language in ("cs", "sk", "pl", "sv"):
        assert any(isinstance(r, AcronymRecognizer) for r in gazetteer.default_recognizers(language))
    (english,) = [r for r in gazetteer.default_recognizers("en") if isinstance(r, AcronymRecognizer)]
    assert english.coined_only
    span = AcronymRecognizer("pl").analyze("w rozmowie z PAP .")[0]
    assert span.category is Category.ORGANIZATION and span.priority < 0 and span.type == "ACRONYM"


def test_english_takes_only_coined_names_in_capitals_the_dictionary_does_not_know() -> None:
    text = ("Kevin: I think TEBRAR is better than COFOBRIM.\nWe sent it over HTTPS to NATO and UNESCO, "
            "see the PDF; the CNITAAT upheld it, and ASR works.\nKEGO, the TVN24 and the OHRA-x list.")
    assert [text[s.start:s.end] for s in AcronymRecognizer("en", coined_only=True).analyze(text)] == [
        "TEBRAR", "COFOBRIM", "CNITAAT", "KEGO"]


def test_demonyms_by_their_suffixes() -> None:
    from psan.tool.detection.recognizers.demonyms import DemonymRecognizer
    from psan.tool.detection.recognizers.gazetteer import person_name_kind

    def demonyms(text: str, language: str) -> list[str]:
        return [text[s.start:s.end] for s in DemonymRecognizer(language, person_name_kind).analyze(text)]

    assert demonyms("Mexičan vyhrál. Obávala se ho desetina Slovinců a Pražanům zůstal zápas.", "cs") == [
        "Mexičan", "Slovinců", "Pražanům"]
    assert demonyms("Vybrané výrobky. Opakované chyby. Milan a Roman přišli, Dušan též.", "cs") == []
    assert demonyms("mier medzi Izraelom a Palestínčanmi, v marci Nemci rozhodli", "sk") == ["Palestínčanmi", "Nemci"]
    assert demonyms("Czesi i Austriacy chcieli , a Holendrów nie pytano .", "pl") == ["Austriacy", "Holendrów"]
    # sentence-initial verbal nouns and participles, adjectives in -scy
    assert demonyms("Zarejestrowanie jest proste . Przewodniczący mówi , że Polscy rolnicy …", "pl") == []
    assert demonyms("Rusové a Srbové", "sv") == []
    span = DemonymRecognizer("cs").analyze("podle Američanů")[0]
    assert span.category is Category.DEMOGRAPHIC and span.type == "DEMONYM" and span.priority < 0


def test_the_new_types_keep_their_category_when_stored_by_type() -> None:
    from psan.tool.text.categories import category_of
    assert category_of("ACRONYM") is Category.ORGANIZATION
    assert category_of("DEMONYM") is Category.DEMOGRAPHIC
    assert category_of("PROPER_NOUN") is Category.OTHER


def test_a_common_abbreviation_the_text_defines_after_a_name_is_an_acronym_there() -> None:
    text = "Úvěr poskytla Komerční banka (KB) a KB ho pak prodala ; disk má 512 KB ."
    assert found(text, "cs") == ["KB", "KB", "KB"]
    assert found("disk má 512 KB , platí se DPH .", "cs") == []


#: capitals runs of every length around the limits, digits, case endings and what may stand before or after them
_ACRONYM_PIECES = ["NATO", "OSN", "AB", "A", "COFOBRIM", "ABCDEFGHIJ", "KLMNO", "ÁČŽ", "ĽUBO", "Å", "2", "12", "-u",
                   "ové", "ová", "x", "é", "_", "-", ".", "/", "@", " ", "\n", ".a", "ß"]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_ACRONYM_PIECES), max_size=8).map("".join))
def test_class_first_acronym_regexes_find_the_plain_matches(text: str) -> None:
    for fast, plain in ((ACRONYM_RE, ACRONYM_PLAIN), (COINED_RE, COINED_PLAIN)):
        assert [(m.span(), m.groups()) for m in fast.finditer(text)] == \
            [(m.span(), m.groups()) for m in re.finditer(plain, text)], (plain, text)
