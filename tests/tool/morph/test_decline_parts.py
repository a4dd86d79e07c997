"""The parts of ``inflect_cs.decline``: one Czech singular paradigm per word class, each on its own."""
from __future__ import annotations

from psan.tool.morph.declension import inflect_cs


def forms(table: dict[str, str], *slots: str) -> list[str]:
    return [table[s] for s in slots]


def test_adjective_paradigm_of_ova_y_and_i_names() -> None:
    p = inflect_cs._adjective_paradigm
    assert forms(p("Nováková", "ova", "f"), "2", "4", "7") == ["Novákové", "Novákovou", "Novákovou"]
    assert forms(p("Malý", "y_adj", "m"), "2", "3", "6", "7") == ["Malého", "Malému", "Malém", "Malým"]
    assert forms(p("Krejčí", "i_adj", "m"), "2", "3", "7") == ["Krejčího", "Krejčímu", "Krejčím"]
    assert p("Krejčí", "i_adj", "f") == {"1": "Krejčí"}  # a woman's -í is not declined


def test_vowel_paradigm_of_ie_e_and_a_names() -> None:
    p = inflect_cs._vowel_paradigm
    assert forms(p("Marie", "ie", "f", True), "2", "3", "7") == ["Marie", "Marii", "Marií"]
    assert forms(p("Alice", "e", "f", True), "3", "7") == ["Alici", "Alicí"]
    assert p("Goethe", "e", "m", True) == {"1": "Goethe"}
    assert forms(p("Svoboda", "a_m", "m", True), "2", "3", "4", "5") == ["Svobody", "Svobodovi", "Svobodu", "Svobodo"]
    assert forms(p("Praha", "a_f", "f", False), "2", "3", "6", "7") == ["Prahy", "Praze", "Praze", "Prahou"]
    assert forms(p("Kája", "a_f_soft", "f", True), "2", "4") == ["Káji", "Káji"]


def test_o_paradigm_of_people_and_places() -> None:
    assert forms(inflect_cs._o_paradigm("Marko", True), "2", "3", "7") == ["Marka", "Markovi", "Markem"]
    assert forms(inflect_cs._o_paradigm("Brno", False), "6a", "6b") == ["Brně", "Brnu"]
    milevsko = inflect_cs._o_paradigm("Milevsko", False)
    assert milevsko["6"] == "Milevsku" and "6a" not in milevsko


def test_fleeting_paradigm_drops_the_e() -> None:
    marek = inflect_cs._fleeting_paradigm("Marek", True)
    assert forms(marek, "2", "3a", "5", "7") == ["Marka", "Markovi", "Marku", "Markem"]
    assert forms(inflect_cs._fleeting_paradigm("Němec", True), "2", "3b", "5") == ["Němce", "Němci", "Němče"]
    pisek = inflect_cs._fleeting_paradigm("Písek", False)
    assert pisek["4"] == "Písek" and "3a" not in pisek and pisek["6"] == "Písku"


def test_consonant_paradigm_animate_person_and_inanimate_place() -> None:
    p = inflect_cs._consonant_paradigm
    assert forms(p("Novák", "hard_k", True), "2", "3a", "4", "5") == ["Nováka", "Novákovi", "Nováka", "Nováku"]
    assert forms(p("Tomáš", "soft", True), "2", "5") == ["Tomáše", "Tomáši"]
    assert p("Petr", "hard_r", True)["5"] == "Petře"
    kolin = p("Kolín", "hard", False)
    assert forms(kolin, "2a", "4", "6a") == ["Kolína", "Kolín", "Kolíně"]


def test_decline_dispatches_by_word_class() -> None:
    assert inflect_cs.decline("Billy", "m", True)["2"] == "Billyho"
    assert inflect_cs.decline("Ruth", "f", True) == {"1": "Ruth"}
    assert inflect_cs.decline("Novák", "m", True) == inflect_cs._consonant_paradigm("Novák", "hard_k", True)
    assert inflect_cs.decline("Praha", "f", False) == inflect_cs._vowel_paradigm("Praha", "a_f", "f", False)
    assert inflect_cs.decline("Brno", "n", False) == inflect_cs._o_paradigm("Brno", False)
