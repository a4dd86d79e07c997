"""Gazetteers: Faker lists per language, inflected forms, stoplist/sentence-start policy, Polish Morfeusz2."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.detection.recognizers import gazetteer
from psan.tool.detection.recognizers.gazetteer import GazetteerRecognizer, inflect
from psan.tool.morph.morfeusz import morfeusz_available
from psan.tool.text.document import Category
from psan.tool.words.names import name_lists


def found(text: str, language: str, **kw) -> list[tuple[str, str]]:
    return [(text[s.start:s.end], s.type) for s in GazetteerRecognizer(language, **kw).analyze(text, None)]


@pytest.mark.parametrize("lang", ["cs", "sk", "pl", "sv", "sl", "en"])
def test_name_lists_have_gendered_first_names(lang: str) -> None:
    lists = name_lists(lang)
    assert len(lists.first_names_male) > 50 and len(lists.first_names_female) > 50
    assert len(lists.last_names) > 100
    assert lists is name_lists(lang)  # loaded once


def test_name_lists_content() -> None:
    cs = name_lists("cs")
    assert "Jan" in cs.first_names_male and "Jana" in cs.first_names_female and "Praha" in cs.cities
    assert "Nováková" in cs.last_names_female and "Novák" in cs.last_names_male
    assert "Kowalska" in name_lists("pl").last_names  # feminine forms derived for Polish
    assert name_lists("xx").first_names_male == frozenset()
    assert gazetteer.default_recognizers("xx") == []


def test_inflection_rules() -> None:
    assert {"Jany", "Janě", "Janu", "Janou"} <= inflect("Jana", "cs")
    assert {"Nováka", "Novákovi", "Novákem"} <= inflect("Novák", "cs")
    assert {"Novákové", "Novákovou"} <= inflect("Nováková", "cs")
    assert {"Marka", "Markovi"} <= inflect("Marek", "cs")
    assert {"Praze", "Prahy"} <= inflect("Praha", "cs", person=False)
    assert {"Nováka", "Novákovi", "Novákom"} <= inflect("Novák", "sk")
    assert {"Novaka", "Novaku", "Novakom"} <= inflect("Novak", "sl")
    assert inflect("Anna", "en") == set()
    assert inflect("Andersson", "sv") == {"Anderssons"} and inflect("Peru", "sv", person=False) == {"Perus"}
    assert inflect("Paris", "sv", person=False) == set()  # a name ending in s takes no genitive s


@pytest.mark.parametrize(("language", "text", "country"), [
    ("sv", "Han reste till Peru förra året.", "Peru"),
    ("sv", "Hon flyttade till Storbritannien.", "Storbritannien"),
    ("sv", "Det gäller Storbritanniens regering.", "Storbritanniens"),
    ("sv", "De bodde i Förenade Arabemiraten.", "Förenade Arabemiraten"),
    ("cs", "Odjel do Peru a pak do Česka.", "Česka"),
    ("pl", "Wyjechał do Czech i Peru.", "Peru"),
    ("sl", "Živel je v Združeno kraljestvo.", "Združeno kraljestvo"),
    ("en", "They flew to Peru and then Czechia.", "Czechia"),
])
def test_every_country_is_a_place_in_every_language(language: str, text: str, country: str) -> None:
    assert (country, "REGION") in found(text, language, use_morfeusz=False)


@pytest.mark.parametrize(("language", "text", "country"), [
    ("sv", "Peru har många invånare.", "Peru"),
    ("sv", "Storbritannien lämnade unionen.", "Storbritannien"),
    ("cs", "Španělsko má mnoho obyvatel.", "Španělsko"),
    ("en", "Czechia has many inhabitants.", "Czechia"),
])
def test_a_country_at_a_sentence_start_is_still_a_place(language: str, text: str, country: str) -> None:
    """A lone capitalized word at a sentence start proves nothing, but a country of the lists is no common word."""
    assert (country, "REGION") in found(text, language, use_morfeusz=False)


def test_a_country_that_is_also_a_lower_case_word_is_no_place_at_a_sentence_start() -> None:
    from psan.tool.morph import wordlist
    if not wordlist.available("sk"):
        pytest.skip("the Slovak hunspell dictionary (hunspell-sk) is not installed")
    assert ("Mali", "REGION") not in found("Mali sme pravdu.", "sk", use_morfeusz=False)  # "we were right"
    assert ("Mali", "REGION") in found("Odišiel do Mali.", "sk", use_morfeusz=False)
    assert ("Jordan", "REGION") not in found("Jordan has arrived.", "en", use_morfeusz=False)  # a listed name


def test_country_names_come_from_cldr_and_iso_in_each_language() -> None:
    from psan.tool.words.country_names import country_names
    assert {"Peru", "Storbritannien", "Tjeckien", "Förenade kungariket"} <= country_names("sv")
    assert {"Spojené království", "Česko"} <= country_names("cs")
    assert all(len(country_names(language)) >= 240 for language in ("cs", "sk", "pl", "sv", "sl", "en"))
    assert "Förenta Nationerna" not in country_names("sv")  # the UN is no country


def test_czech_names_and_places_with_inflection() -> None:
    text = "Včera jsem potkal Janu Novákovou a Petra Dvořáka v Praze. Pak přišel Novák s Janou."
    got = found(text, "cs")
    assert ("Janu Novákovou", "PERSON_NAME") in got
    assert ("Petra Dvořáka", "PERSON_NAME") in got
    assert ("Praze", "CITY") in got
    assert ("Novák", "SURNAME") in got and ("Janou", "FIRST_NAME") in got


def test_spans_are_person_or_location_with_low_priority() -> None:
    spans = GazetteerRecognizer("cs").analyze("Potkal jsem Jana Nováka v Brně.", None)
    assert {s.category for s in spans} == {Category.PERSON, Category.LOCATION}
    assert all(s.priority < 0 and 0 < s.score <= 0.6 for s in spans)


def test_sentence_start_and_stoplist_policy() -> None:
    assert found("Mary went home.", "en") == []                   # lone name at sentence start
    assert ("Mary Smith", "PERSON_NAME") in found("Mary Smith went home.", "en")  # corroborated
    assert found("We will meet in May and Will said so.", "en") == []  # stoplist
    assert ("Mary", "FIRST_NAME") in found("Then I met Mary.", "en")
    assert found("jan novák přišel", "cs") == []                  # lowercase never matches


def test_multiword_place_and_street() -> None:
    got = found("Bydlí v Hradec Králové, ulice Vizovická 12.", "cs")
    assert ("Hradec Králové", "CITY") in got
    assert ("Vizovická", "STREET") in got
    assert ("Vizovická", "STREET") not in found("Vizovická silnice je dlouhá.", "cs")


@pytest.mark.parametrize("lang,text,expected", [
    ("sk", "Stretol som Jána Nováka v Bratislave.", [("Jána Nováka", "PERSON_NAME"), ("Bratislave", "CITY")]),
    ("sl", "Včeraj sem srečal Janeza Novaka v Ljubljani.", [("Janeza Novaka", "PERSON_NAME"), ("Ljubljani", "CITY")]),
    ("sv", "Igår träffade jag Anna Andersson i Göteborg.", [("Anna Andersson", "PERSON_NAME"), ("Göteborg", "CITY")]),
    ("en", "Yesterday John Smith moved to Alabama.", [("John Smith", "PERSON_NAME"), ("Alabama", "REGION")]),
])
def test_other_languages(lang: str, text: str, expected: list[tuple[str, str]]) -> None:
    got = found(text, lang)
    for item in expected:
        assert item in got


@pytest.mark.skipif(not morfeusz_available(), reason="morfeusz2 (with its dictionary) is not installed")
def test_polish_morfeusz_inflected_names_and_places() -> None:
    text = ("Wczoraj spotkałem Jana Kowalskiego we Wrocławiu. Mieszka w Zielonej Górze. "
            "Sąd Najwyższy orzekł. Rozmawiałem z Kowalskim.")
    got = found(text, "pl")
    assert ("Jana Kowalskiego", "PERSON_NAME") in got
    assert ("Wrocławiu", "CITY") in got
    assert ("Zielonej Górze", "CITY") in got or ("Zielonej Górze", "PLACE") in got
    assert ("Kowalskim", "SURNAME") in got
    assert not any(t in ("Sąd", "Najwyższy", "Sąd Najwyższy") for t, _ in got)
    assert GazetteerRecognizer("pl").name == "gazetteer_morfeusz"
    assert ("Kanadzie", "PLACE") in found("Rozmawiał o Kanadzie.", "pl")  # geographic, not a city


def test_polish_fallback_without_morfeusz() -> None:
    got = found("Wczoraj spotkałem Jana Kowalskiego w Krakowie.", "pl", use_morfeusz=False)
    assert any(t == "Kowalskiego" or t.endswith("Kowalskiego") for t, _ in got)


def test_listed_first_name_and_an_unlisted_capitalized_word_are_a_full_name() -> None:
    from psan.tool.detection.recognizers.gazetteer import GazetteerRecognizer

    def names(text: str, language: str) -> list[tuple[str, str]]:
        return [(text[s.start:s.end], s.type) for s in GazetteerRecognizer(language).analyze(text)]

    assert ("Ernest Nagy", "PERSON_NAME") in names("Pátrali po ňom.\nErnest Nagy.\nNagy.", "sk")
    # a word in capitals, a closed-class word, a word also written in lower case: no surname
    text = "Ernest NAGY prišiel. Ernest Ale nie. Ernest Most a most. Včera Ernest Nagy nie."
    assert not any(t == "PERSON_NAME" for _, t in names(text, "sk"))
    # English keeps its first names alone ("Will Power" is no person)
    assert not any(t == "PERSON_NAME" for _, t in names("We met Ernest Hemingwayish there.", "en"))


def _reference_analyze(recognizer: GazetteerRecognizer, text: str) -> list:
    """The recognizer as it was: every capitalized word in a Python loop, each multi-word entry tried in turn."""
    lex = gazetteer._lexicon(recognizer.language)
    known = gazetteer._lexicon_words(recognizer.language)

    def entry_end(start: int, entry: tuple[str, ...]) -> int:
        phrase = " ".join(entry)
        end = start + len(phrase)
        return 0 if not text.startswith(phrase, start) or gazetteer._WORD_GOES_ON.match(text, end) else end

    spans, items, done = [], [], 0
    for m in gazetteer.capitalized_word_re().finditer(text):
        word = m.group()
        start, end = m.span()
        if word not in known or start < done or not gazetteer._is_capitalized(word):
            continue
        matched = next(filter(None, (entry_end(start, e) for e in lex.streets.get(word, ()))), 0)
        if matched and gazetteer._HOUSE_NUMBER.match(text, matched):
            spans.append((start, matched, "STREET"))
            done = matched
            continue
        best = next(((j, kind, len(e)) for e, kind in lex.multi.get(word, ()) if (j := entry_end(start, e))), None)
        if best:
            items.append((start, best[0], best[1], best[2], False))
            done = best[0]
            continue
        kind = lex.forms.get(word, 0)
        if kind:
            items.append((start, end, kind, 1, False))
    return spans + [(s.start, s.end, s.type) for s in recognizer._group(text, items, lex)]


def _entry_texts(language: str) -> st.SearchStrategy[str]:
    """Texts of list entries (multi-word ones above all, cut short or run on), streets, house numbers and glue."""
    lex = gazetteer._lexicon(language)
    phrases = sorted({" ".join(e) for es in lex.multi.values() for e, _ in es}
                     | {" ".join(e) for es in lex.streets.values() for e in es})
    pieces = st.one_of(st.sampled_from(phrases), st.sampled_from(phrases).map(lambda p: p[:-1]),
                       st.sampled_from(sorted(lex.multi) + sorted(lex.streets) or ["X"]),
                       st.sampled_from(sorted(lex.forms)),
                       st.sampled_from([" ", "  ", "-", "-Nord", "s", "a", " 12", " 3a/5", ". ", ", ", "\n", "é", "1"]))
    return st.lists(pieces, max_size=12).map("".join)


@pytest.mark.parametrize("language", ["en", "cs", "sv"])
def test_candidates_and_entry_regexes_find_what_the_word_loop_found(language: str) -> None:
    recognizer = GazetteerRecognizer(language, use_morfeusz=False)

    @settings(max_examples=300, deadline=None)
    @given(_entry_texts(language))
    def check(text: str) -> None:
        got = [(s.start, s.end, s.type) for s in recognizer.analyze(text, None)]
        assert got == _reference_analyze(recognizer, text)

    check()


def _loop_first_matching(language: str, table: str, word: str, text: str, start: int) -> tuple[int, int] | None:
    """The obvious form of ``_first_matching``: each entry of the word in the table's order, the first whose phrase
    stands at ``start`` and ends a word."""
    lex = gazetteer._lexicon(language)
    entries = [e for e, _kind in lex.multi.get(word, ())] if table == gazetteer.MULTI else lex.streets.get(word, ())
    for index, entry in enumerate(entries):
        phrase = " ".join(entry)
        end = start + len(phrase)
        if text.startswith(phrase, start) and not gazetteer._WORD_GOES_ON.match(text, end):
            return end, index
    return None


@pytest.mark.parametrize("language", ["en", "cs", "sv"])
def test_first_matching_entry_equals_the_loop_over_the_entries(language: str) -> None:
    """The entry found by the phrases' lengths is the loop's, at every position of texts of entries cut short, run
    on (a letter, a hyphened word: no word end), glued and at the text's end."""
    lex = gazetteer._lexicon(language)
    tables = [(gazetteer.MULTI, w) for w in lex.multi] + [(gazetteer.STREETS, w) for w in lex.streets]

    @settings(max_examples=300, deadline=None)
    @given(_entry_texts(language))
    def check(text: str) -> None:
        for start in range(len(text) + 1):
            for table, word in tables:
                if text.startswith(word, start):
                    got = gazetteer._first_matching(language, table, word, text, start)
                    assert got == _loop_first_matching(language, table, word, text, start), (table, word, start)

    check()


@pytest.mark.parametrize("language", ["en", "cs", "sk", "pl", "sv", "sl"])
def test_every_multi_word_entry_is_found_as_the_word_loop_found_it(language: str) -> None:
    """Each entry alone, after a word and before a house number: "Hong Kong SAR China" is not cut at "Hong Kong"."""
    recognizer = GazetteerRecognizer(language, use_morfeusz=False)
    lex = gazetteer._lexicon(language)
    phrases = sorted({" ".join(e) for es in lex.multi.values() for e, _ in es}
                     | {" ".join(e) for es in lex.streets.values() for e in es})
    for phrase in phrases:
        for text in (phrase, f"in {phrase} 12", f"{phrase}n", f"x {phrase}-Nord, {phrase[:-1]}"):
            got = [(s.start, s.end, s.type) for s in recognizer.analyze(text, None)]
            assert got == _reference_analyze(recognizer, text), text
