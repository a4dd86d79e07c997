"""Each reader of a mention's evidence (the parts of the analysis' evidence) on sentences that show its job."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from psan.tool.morph import analysis, tagger, wordlist
from psan.tool.morph.analysis import PERSON, PLACE, Evidence, Sentence
from psan.tool.morph.declension import inflect_pl


@pytest.fixture(autouse=True)
def _no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)


def _sentence(text: str, mention: str, kind: str, language: str,
              got: list[tuple[str, str, dict[str, str]]] | None = None) -> tuple[Sentence, Evidence]:
    start = text.index(mention)
    toks, first, last = analysis.sentence_window(text, start, start + len(mention))
    words, title_gender, title_cases = analysis.name_words(toks, first, last, language)
    s = Sentence(toks, first, last, toks.index(words[-1]), kind, language, frozenset(), got)
    readings = analysis.word_readings([w.group() for w in words], kind == PERSON, language)
    return s, Evidence(readings, (), title_gender, title_cases, None)


def test_the_sentence_window_stops_at_sentence_ends_but_not_after_an_initial() -> None:
    text = "Byl tam. Pak přišel J. Novák domů. Konec."
    toks, first, last = analysis.sentence_window(text, text.index("Novák"), text.index("Novák") + 5)
    assert [t.group() for t in toks] == ["Pak", "přišel", "J", ".", "Novák", "domů", "."]
    assert toks[first].group() == toks[last].group() == "Novák"


def test_name_words_leave_out_a_title_and_stop_at_a_preposition_inside_the_name() -> None:
    text = "Zatkli paní Evu Novákovou."
    start = text.index("paní")
    words, gender, _cases = analysis.name_words(*analysis.sentence_window(text, start, len(text) - 1), "cs")
    assert [w.group() for w in words] == ["Evu", "Novákovou"] and gender == "f"
    text = "Jel do Ústí nad Labem."
    start = text.index("Ústí")
    words, _g, _c = analysis.name_words(*analysis.sentence_window(text, start, len(text) - 1), "cs")
    assert [w.group() for w in words] == ["Ústí"]


def test_word_readings_drop_an_undeclined_first_name_and_a_places_adjective() -> None:
    person = analysis.word_readings(["Ivo", "Novákem"], True, "cs")
    assert person[0] == {} and ("Ins", "Sing", "Masc") in person[1]
    assert analysis.word_readings(["Karlovy", "Vary"], False, "cs")[0] == {}


def test_the_tagger_is_asked_only_without_a_preposition_and_pads_a_partial_tagging(
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked = []

    def tag(language: str, words: tuple[str, ...]) -> list[tuple[str, str, dict[str, str]]]:
        asked.append(words)
        return [("", "X", {})] * len(words)

    monkeypatch.setattr(tagger, "parse", lambda language, words: None)
    monkeypatch.setattr(tagger, "tag", tag)
    text = "Jana viděla Jana včera večer."
    start = text.rindex("Jana")
    toks, first, last = analysis.sentence_window(text, start, start + 4)
    ambiguous = analysis.readings("Jana", "cs", True)
    got, syntax, number = analysis.tag_sentence(toks, first, last, first, ambiguous, True, "cs")
    assert asked == [tuple(t.group() for t in toks[max(0, first - 4):last + 2])]
    assert got is not None and len(got) == len(toks) and got[-1] == ("", "", {}) and (syntax, number) == ((), "")
    text = "Šel s Janem."
    toks, first, last = analysis.sentence_window(text, text.index("Janem"), text.index("Janem") + 5)
    assert analysis.tag_sentence(toks, first, last, first, ambiguous, True, "cs") == (None, (), "")
    assert len(asked) == 1


def test_without_a_model_the_tagger_says_nothing() -> None:
    text = "Jana viděla Jana."
    start = text.rindex("Jana")
    toks, first, last = analysis.sentence_window(text, start, start + 4)
    got = analysis.tag_sentence(toks, first, last, first, analysis.readings("Jana", "cs", True), True, "cs")
    assert got == (None, (), "")


@pytest.mark.parametrize(("text", "mention", "kind", "language", "prep", "title"), [
    ("Jel do Brna.", "Brna", PLACE, "cs", ("Gen",), ""),
    ("Byl v Banskej Bystrici.", "Bystrici", PLACE, "sk", ("Loc",), ""),  # over an agreeing adjective
    ("Poučíme se v sousedním Německu.", "Německu", PLACE, "cs", ("Loc",), ""),  # a soft adjective too
    ("Byli v cizích Čechách.", "Čechách", PLACE, "cs", ("Loc",), ""),
    ("Stretol sa s domácim Petrom.", "Petrom", PERSON, "sk", ("Ins",), ""),
    ("V Cannes se promítalo.", "Cannes", PLACE, "cs", ("Loc",), ""),  # where, never whereto
    ("Mluvil s panem Novákem.", "Novákem", PERSON, "cs", ("Ins", "Gen"), "m"),  # over a title, which counts
    ("Jan se Pavlovi omluvil.", "Pavlovi", PERSON, "cs", (), ""),  # "se", the reflexive pronoun
])
def test_the_governing_preposition_is_found_over_titles_and_adjectives(text: str, mention: str, kind: str,
                                                                       language: str, prep: tuple[str, ...],
                                                                       title: str) -> None:
    s, ev = _sentence(text, mention, kind, language)
    analysis.read_preposition(s, ev)
    assert (ev.prep, ev.title_gender) == (prep, title)


def test_a_role_noun_before_a_name_gives_its_cases_and_gender_without_a_tagger() -> None:
    s, ev = _sentence("Přišla manželka Laura.", "Laura", PERSON, "cs")
    analysis.read_preposition(s, ev)
    analysis.read_left_neighbour(s, ev)
    assert ev.after_noun and "Nom" in ev.noun_cases and ev.title_gender == "f"


def test_the_tagged_word_before_the_name_makes_it_a_possessor_an_agreeing_noun_or_an_object() -> None:
    got = [("", "NOUN", {"Case": "Nom"}), ("", "NOUN", {"Case": "Gen"}), ("", "PROPN", {"Case": "Gen"}),
           ("", "PUNCT", {})]
    s, ev = _sentence("Úřad města Prahy.", "Prahy", PLACE, "cs", got)
    analysis.read_left_neighbour(s, ev)
    assert ev.after_noun and ev.tagged == {"Case": "Gen"} and ev.place_noun_case == "Gen"
    adjective = {"Case": "Acc", "Gender": "Masc", "Animacy": "Anim", "Number": "Sing"}
    got = [("", "VERB", {}), ("", "ADJ", adjective), ("", "PROPN", {}), ("", "PUNCT", {})]
    s, ev = _sentence("Viděl mladého Kozáka.", "Kozáka", PERSON, "cs", got)
    analysis.read_left_neighbour(s, ev)
    assert ev.agreeing == adjective and not ev.after_noun
    got = [("", "PROPN", {"Case": "Nom"}), ("", "VERB", {"VerbForm": "Part", "Gender": "Masc"}), ("", "PROPN", {}),
           ("", "PUNCT", {})]
    s, ev = _sentence("Bush kritizoval Irán.", "Irán", PLACE, "cs", got)
    analysis.read_left_neighbour(s, ev)
    assert ev.after_verb and ev.subject_before and ev.verb_cases is None  # no valency table without models


def test_a_role_noun_that_opens_the_sentence_is_a_role_noun_not_a_possessed_noun() -> None:
    """"Profesor Havlena pokrčil": the capital is the sentence's, the name stands in apposition (Nom), it is no
    possessor as after "Cena Karla Čapka"."""
    got = [("", "NOUN", {"Case": "Nom"}), ("", "PROPN", {}), ("", "VERB", {}), ("", "NOUN", {}), ("", "PUNCT", {})]
    s, ev = _sentence("Profesor Havlena pokrčil rameny.", "Havlena", PERSON, "cs", got)
    analysis.read_left_neighbour(s, ev)
    assert ev.after_noun and ev.noun_cases == ("Nom",) and ev.title_gender == "m"
    got = [("", "NOUN", {"Case": "Nom"}), ("", "PROPN", {}), ("", "PROPN", {}), ("", "PUNCT", {})]
    s, ev = _sentence("Cena Karla Čapka.", "Karla Čapka", PERSON, "cs", got)
    analysis.read_left_neighbour(s, ev)
    assert ev.after_noun and not ev.noun_cases  # a possessor


@pytest.mark.skipif(not wordlist.available("cs"), reason="no Czech hunspell dictionary")
def test_without_a_tagger_a_verb_before_the_name_is_known_by_the_dictionary() -> None:
    """"chytila Eduarda": a man's genitive = accusative form after a verb is its object; "světa Eduarda" (a
    noun ending like an infinitive's stem) is no verb."""
    s, ev = _sentence("Pak chytila Eduarda za ruku.", "Eduarda", PERSON, "cs")
    analysis.read_left_neighbour(s, ev)
    assert ev.object_of_verb and analysis._case_score(ev, PERSON, "Acc", "cs") > analysis._case_score(
        ev, PERSON, "Gen", "cs")
    s, ev = _sentence("Konec světa Eduarda.", "Eduarda", PERSON, "cs")
    analysis.read_left_neighbour(s, ev)
    assert not ev.object_of_verb
    assert wordlist.verb_form("četl", "cs") and wordlist.verb_form("prohlížejí", "cs")
    assert not wordlist.verb_form("bytu", "cs") and not wordlist.verb_form("platu", "cs")


@pytest.mark.skipif(not inflect_pl.available(), reason="morfeusz2 not installed")
def test_polish_neighbours_come_from_morfeusz() -> None:
    s, ev = _sentence("Zygmunta wezwał sąd.", "Zygmunta", PERSON, "pl")
    analysis.read_polish_neighbours(s, ev, s.first - 1)
    assert ev.before_verb and not ev.after_noun
    s, ev = _sentence("Spotkał burmistrza Jana.", "Jana", PERSON, "pl")
    analysis.read_polish_neighbours(s, ev, s.first - 1)
    assert ev.after_noun and set(ev.noun_cases) == {"Gen", "Acc"} and not ev.after_verb


def test_polish_neighbours_are_read_for_polish_only() -> None:
    s, ev = _sentence("Zygmunta wezwal soud.", "Zygmunta", PERSON, "cs")
    analysis.read_polish_neighbours(s, ev, s.first - 1)
    assert not (ev.before_verb or ev.after_noun or ev.after_verb)


def test_a_participle_next_to_the_name_gives_its_gender_and_number() -> None:
    s, ev = _sentence("Drahuš pravila, že přijde.", "Drahuš", PERSON, "cs")  # by the ending, no tagger
    analysis.read_subject(s, ev)
    assert (ev.subject_gender, ev.subject_number) == ("Fem", "Sing")
    got = [("", "VERB", {"VerbForm": "Part", "Gender": "Masc", "Number": "Plur"}), ("", "PROPN", {}),
           ("", "PUNCT", {})]
    s, ev = _sentence("rozhodli Nemci.", "Nemci", PLACE, "sk", got)  # by the tagger, before the name
    analysis.read_subject(s, ev)
    assert (ev.subject_gender, ev.subject_number) == ("Masc", "Plur")


@pytest.mark.skipif(not wordlist.available("cs"), reason="no Czech hunspell dictionary")
def test_a_womans_participle_before_the_name_is_read_by_the_dictionary() -> None:
    """"pravila Drahuš": an inverted subject; "škola Jana" is a noun's possessor, no participle."""
    s, ev = _sentence("Nemáš chuť, pravila Drahuš.", "Drahuš", PERSON, "cs")
    analysis.read_subject(s, ev)
    assert (ev.subject_gender, ev.subject_number) == ("Fem", "Sing")
    s, ev = _sentence("Tam stojí škola Jana Ámose.", "Jana Ámose", PERSON, "cs")
    analysis.read_subject(s, ev)
    assert ev.subject_gender == ""
    assert wordlist.feminine_participle("řekla", "cs") and wordlist.feminine_participle("šla", "cs")
    assert not wordlist.feminine_participle("síla", "cs") and not wordlist.feminine_participle("kola", "cs")
    assert wordlist.feminine_participle("povedala", "sk") and not wordlist.feminine_participle("pravila", "pl")


def test_a_role_noun_before_acronyms_and_the_preposition_before_a_role_noun_count() -> None:
    s, ev = _sentence("Zvolili předsedu OIRT Zelenku.", "Zelenku", PERSON, "cs")
    analysis.read_preposition(s, ev)
    analysis.read_left_neighbour(s, ev)
    analysis.read_role_noun(s, ev)
    assert ev.after_noun and "Acc" in ev.noun_cases and ev.title_gender == "m"
    s, ev = _sentence("Modlili sa za pápeža Jána.", "Jána", PERSON, "sk")
    analysis.read_preposition(s, ev)
    analysis.read_left_neighbour(s, ev)
    assert "Gen" in ev.noun_cases
    analysis.read_role_noun(s, ev)
    assert ev.noun_cases == ("Acc",)  # "za" takes the accusative


def test_an_apposition_to_an_acronym_and_an_address_are_recognised() -> None:
    s, ev = _sentence("Pracoval v JZD Ráby.", "Ráby", PLACE, "cs")
    analysis.read_preposition(s, ev)
    analysis.read_address(s, ev)
    assert ev.apposition and not ev.vocative
    s, ev = _sentence("Franto, povídám, pojď.", "Franto", PERSON, "cs")
    analysis.read_preposition(s, ev)
    analysis.read_address(s, ev)
    assert ev.vocative and not ev.apposition


def test_an_address_may_close_with_a_question_mark() -> None:
    """"„Láďo?“" is an address (its -o form a vocative, not a nominative "Láďo"); a name inside a question, or
    after a word of its sentence, is none."""
    s, ev = _sentence('"Láďo?"', "Láďo", PERSON, "cs")
    analysis.read_preposition(s, ev)
    analysis.read_address(s, ev)
    assert ev.vocative
    for text in ("Kde je Láďo?", "Řekni, kde je Láďo?"):
        s, ev = _sentence(text, "Láďo", PERSON, "cs")
        analysis.read_address(s, ev)
        assert not ev.vocative
    features, _genders = analysis.analyse_document('"Láďo?"', [analysis.Mention(1, 5, PERSON)], "cs")
    assert features[0].case == "Voc"
    features, _genders = analysis.analyse_document("Kde je Láďo?", [analysis.Mention(7, 11, PERSON)], "cs")
    assert features[0].case == "Nom"


def test_the_learned_reader_speaks_only_with_a_model_of_a_weighted_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s, _ev = _sentence("Hovoril s Novákom.", "Novákom", PERSON, "sk")
    assert analysis.learned_reading(s) is None
    model = {"Case": {"classes": ["Nom", "Ins"], "intercept": [0.0, 1.0], "weights": {"p=s": [0.0, 2.0]}}}
    (tmp_path / "cases-sk.json").write_text(json.dumps({"record": {}, "model": model}), encoding="utf-8")
    monkeypatch.setenv("PSAN_NAMETAG_MODELS", str(tmp_path))
    got = analysis.learned_reading(s)
    assert got is not None and got["Case"]["Ins"] > 0.9
    cs, _ev = _sentence("Mluvil s Novákem.", "Novákem", PERSON, "cs")
    (tmp_path / "cases-cs.json").write_text(json.dumps({"record": {}, "model": model}), encoding="utf-8")
    assert analysis.learned_reading(cs) is None  # Czech gives the reader no weight
