"""The parts of ``analysis._declension_readings``: which paradigm readings count, how much, and their keys."""
from __future__ import annotations

import pytest

from psan.tool.morph import analysis, wordlist
from psan.tool.morph.declension import inflect_cs
from psan.tool.morph.declension.inflect_cs import Reading


def test_implausible_readings_are_a_mans_womans_name_and_odd_place_lemmas() -> None:
    assert analysis._implausible_reading(Reading("Tománkovou", "1", "m", False), "Tománkovou", "cs", True)
    assert analysis._implausible_reading(Reading("Nováková", "1", "m", True), "Nováková", "cs", True)
    assert not analysis._implausible_reading(Reading("Nováková", "1", "f", True), "Nováková", "cs", True)
    assert analysis._implausible_reading(Reading("Poděbrada", "2", "m", False), "Poděbrady", "cs", False)
    assert analysis._implausible_reading(Reading("Námestio", "6", "n", False), "Námestie", "sk", False)
    assert not analysis._implausible_reading(Reading("Námestio", "6", "n", False), "Námestie", "cs", False)
    assert not analysis._implausible_reading(Reading("Praha", "1", "f", True), "Praha", "cs", False)


def test_reading_weight_prefers_listed_names_and_doubts_oblique_looking_nominatives() -> None:
    w = analysis._reading_weight
    assert w(Reading("Novák", "3a", "m", True), "Novákovi", "cs", True) == 2.0
    assert w(Reading("Novákovi", "1", "m", False), "Novákovi", "cs", True) == 0.3  # oblique ending
    assert w(Reading("Nemci", "1", "m", False), "Nemci", "sk", True) == 0.3  # a plural nominative
    assert w(Reading("Tománkovou", "1", "m", False), "Tománkovou", "cs", True) is None
    assert w(Reading("Drahuška", "1", "f", False), "Drahuška", "cs", True) == 2.0
    assert w(Reading("Slovensko", "1", "n", False), "Slovensko", "sk", False) == 1.5


def test_person_weight_of_guessed_feminine_readings() -> None:
    assert analysis._person_weight(Reading("Drahuška", "1", "f", False), 0.3) == 2.0  # diminutive
    assert analysis._person_weight(Reading("Koštunica", "1", "f", False), 1.0) == 0.5  # rather a man's surname
    assert analysis._person_weight(Reading("Koštunica", "1", "f", True), 2.0) == 2.0  # listed
    assert analysis._person_weight(Reading("Malá", "1", "f", False), 1.0) == 1.0  # -á is a woman's
    assert analysis._person_weight(Reading("Novák", "1", "m", False), 1.0) == 1.0


@pytest.mark.skipif(not wordlist.available("cs"), reason="no Czech hunspell dictionary")
def test_the_dictionary_says_whose_name_an_a_word_is() -> None:
    """"Diana" is declined as a woman's name only, "Honza" as a man's only; "Magda" both ways, but only its
    woman's possessive "Magdin" is listed, "Jirka" only its man's "Jirkův", "Petra" both ("Petrův" is Petr's);
    an unlisted one ("Valentýna") says nothing."""
    assert wordlist.name_genders("Diana", "cs") == {"Fem"} and wordlist.name_genders("Honza", "cs") == {"Masc"}
    assert wordlist.name_genders("Magda", "cs") == {"Fem"} and wordlist.name_genders("Hanka", "cs") == {"Fem"}
    assert wordlist.name_genders("Jirka", "cs") == {"Masc"} and wordlist.name_genders("Petra", "cs") == {"Fem", "Masc"}
    assert not wordlist.name_genders("Valentýna", "cs")
    assert analysis._person_weight(Reading("Diana", "1", "f", False), 1.0, "cs") == 2.0  # as a listed name
    assert analysis._person_weight(Reading("Petra", "1", "f", False), 1.0, "cs") == 1.0  # as good as the man's
    assert analysis._person_weight(Reading("Diana", "1", "m", False), 1.0, "cs") == 0.5  # no man's -a name
    assert analysis._person_weight(Reading("Honza", "1", "f", False), 1.0, "cs") == 0.5
    assert analysis._person_weight(Reading("Honza", "1", "m", False), 1.0, "cs") == 1.0


@pytest.mark.skipif(not wordlist.available("cs"), reason="no Czech hunspell dictionary")
def test_the_dictionary_knows_oblique_forms_and_plural_places() -> None:
    """"Evropu" is a form of Evropa, no place "Evropu"; "Čechy", "Alpy" are plural places ("zbytek Čech")."""
    assert analysis._reading_weight(Reading("Evropu", "1", "m", False), "Evropu", "cs", False) == 0.3
    assert analysis._reading_weight(Reading("Evropa", "4", "f", False), "Evropu", "cs", False) == 1.0
    plural = wordlist.plural_places("cs")
    assert {"Čechy", "Alpy", "Benátky"} <= plural and "Broadway" not in plural
    assert analysis.readings("Čech", "cs", False)[("Gen", "Plur", "Fem")] == 2.5


@pytest.mark.skipif(not wordlist.available("cs"), reason="no Czech hunspell dictionary")
def test_a_guessed_lemma_the_dictionary_lacks_is_doubted_for_a_czech_place() -> None:
    """"Evropu" is a form of the dictionary's Evropa: a guessed "Evrop" (genitive "Evropu") or "Evropo" (dative)
    is hardly its lemma; Slovak keeps its guesses (its dictionary's stems miss readings), and a person's readings
    are not touched."""
    w = analysis._reading_weight
    assert w(Reading("Evrop", "2b", "m", False), "Evropu", "cs", False) == 0.3
    assert w(Reading("Evropo", "3", "f", False), "Evropu", "cs", False) == 0.3
    assert w(Reading("Evropa", "4", "f", False), "Evropu", "cs", False) == 1.0
    assert w(Reading("Evrop", "2b", "m", False), "Evropu", "sk", False) != 0.3
    assert w(Reading("Evrop", "2b", "m", True), "Evropu", "cs", False) != 0.3  # a listed lemma is no guess
    got = analysis.readings("Evropu", "cs", False)
    assert max(got, key=lambda k: got[k]) == ("Acc", "Sing", "Fem")
    assert got.get(("Gen", "Sing", "Masc"), 0.0) < 1.0


def test_place_weight_of_guessed_sko_and_ska_places() -> None:
    assert analysis._place_weight(Reading("Uhorsko", "1", "n", False), 1.0) == 1.5
    assert analysis._place_weight(Reading("Uhorska", "1", "f", False), 1.0) == 0.7
    assert analysis._place_weight(Reading("Uhorska", "1", "m", False), 1.0) == 1.0
    assert analysis._place_weight(Reading("Slovensko", "1", "n", True), 2.0) == 2.0  # listed: no guess to weigh


def test_add_singular_reading_keys_by_slot_and_keeps_the_best_weight() -> None:
    out: dict[tuple[str, str, str], float] = {}
    analysis._add_singular_reading(out, inflect_cs, Reading("Novák", "3a", "m", True), 2.0, True)
    analysis._add_singular_reading(out, inflect_cs, Reading("Novák", "3a", "m", True), 0.5, True)
    assert out == {("Dat", "Sing", "Masc"): 2.0}
    out = {}
    analysis._add_singular_reading(out, inflect_cs, Reading("Brno", "1", "m", True), 2.0, False)
    assert out == {("Nom", "Sing", "Neut"): 2.0}  # a place of the -o class is neuter


def test_add_plural_readings_for_families_places_and_slovak_regions() -> None:
    out: dict[tuple[str, str, str], float] = {}
    analysis._add_plural_readings(out, "Novákové", "cs", True)
    assert out == {("Nom", "Plur", "Masc"): 1.5}
    out = {}
    analysis._add_plural_readings(out, "Záhorie", "sk", False)
    assert out[("Nom", "Sing", "Neut")] == 0.7 and out[("Acc", "Sing", "Neut")] == 0.7
    out = {}
    analysis._add_plural_readings(out, "Poděbrady", "cs", False)
    assert all(k[1:] == ("Plur", "Fem") for k in out)


def test_declension_readings_join_the_parts() -> None:
    got = analysis._declension_readings("Novákovi", "cs", True)
    assert got[("Dat", "Sing", "Masc")] == 2.0 and got[("Nom", "Sing", "Masc")] == 0.3
    assert analysis._declension_readings("Novák", "pl", True) == {}  # no suffix rules for Polish
    assert not any(k[2] == "Masc" and k[1] == "Sing" for k in analysis._declension_readings("Tománkovou", "cs", True))
