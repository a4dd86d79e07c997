"""Surrogates for Slovak, Slovenian and Swedish: name pools by gender, declension, genitive, places."""
from __future__ import annotations

import pytest

from psan.tool.morph import namelists
from psan.tool.morph.declension.lang_sk import SLOVAK
from psan.tool.morph.declension.lang_sl import SLOVENIAN
from psan.tool.surrogates.replacer import pseudonymize_document
from psan.tool.text.document import Category as C
from tests.tool.helpers import regions_for


@pytest.mark.parametrize("lang", ["sk", "sl", "sv"])
def test_pools_by_gender_and_country(lang: str) -> None:
    p = namelists.pools(lang)
    assert len(p.first_m) > 20 and len(p.first_f) > 20 and len(p.cities) > 20 and len(p.countries) > 20
    assert not set(p.first_m) & set(p.first_f)  # ambiguous names are in neither gendered pool


def test_slovak_paradigms() -> None:
    assert SLOVAK.decline("Novák")["7"] == "Novákom"
    assert SLOVAK.decline("Nováková", "f")["6"] == "Novákovej"
    assert SLOVAK.decline("Nováková", "f")["4"] == "Novákovú"
    assert SLOVAK.decline("Jana", "f")["3"] == "Jane"
    assert SLOVAK.decline("Mária", "f")["7"] == "Máriou"
    assert SLOVAK.decline("Marek")["2"] == "Marka"
    assert SLOVAK.decline("Peter")["3"] == "Petrovi"
    assert SLOVAK.decline("Zvolen", "m", person=False)["6"] == "Zvolene"
    best = SLOVAK.analyse("Novákom")[0]
    assert (best.lemma, best.slot) == ("Novák", "7")


def test_slovenian_paradigms() -> None:
    assert SLOVENIAN.decline("Novak")["7"] == "Novakom"
    assert SLOVENIAN.decline("Kranj", "m", person=False)["7"] == "Kranjem"
    assert SLOVENIAN.decline("Ana", "f")["4"] == "Ano"
    assert SLOVENIAN.decline("Slovenec")["2"] == "Slovenca"
    assert SLOVENIAN.decline("Novak", "f") == {"1": "Novak"}  # women's surnames in a consonant do not decline
    best = SLOVENIAN.analyse("Ljubljani", person=False)[0]
    assert best.lemma == "Ljubljana"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_slovak_person_and_place_keep_their_case(seed: int) -> None:
    text = "Hovoril som s Jánom Novákom a Janou Novákovou o Bratislave."
    regions = regions_for(text, [("Jánom Novákom", C.PERSON, 1, "P"), ("Janou Novákovou", C.PERSON, 2, "P"),
                                 ("Bratislave", C.LOCATION, 3, "LOC")])
    out, _ = pseudonymize_document(text, regions, "sk", seed=seed)
    body = out.text[len("Hovoril som s "):].rstrip(".")
    man, rest = body.split(" a ")
    woman, place = rest.split(" o ")
    assert all(w.endswith("om") for w in man.split()), man
    assert all(w.endswith("ou") for w in woman.split()) and woman.endswith("ovou"), woman
    assert place.endswith(("e", "i")) and place != "Bratislave", place  # a locative: "o Senici", "o Trnave"
    assert "Novák" not in out.text and "Bratislav" not in out.text


@pytest.mark.parametrize("seed", [1, 2])
def test_slovenian_person_and_place_keep_their_case(seed: int) -> None:
    text = "Govoril sem z Janezom Novakom v Ljubljani."
    regions = regions_for(text, [("Janezom Novakom", C.PERSON, 1, "P"), ("Ljubljani", C.LOCATION, 2, "LOC")])
    out, _ = pseudonymize_document(text, regions, "sl", seed=seed)
    person, place = out.text[len("Govoril sem z "):].rstrip(".").split(" v ")
    assert all(w.endswith(("om", "em")) for w in person.split()), person
    assert place.endswith(("i", "u")) and place != "Ljubljani", place  # locative: v Kranju, v Celju, v Kopru
    assert "Novak" not in out.text and "Janez" not in out.text


def test_swedish_genitive_and_consistent_surname() -> None:
    text = "Erik Johansson bor i Uppsala. Johanssons bil står här."
    regions = regions_for(text, [("Erik Johansson", C.PERSON, 1, "PER"), ("Uppsala", C.LOCATION, 2, "LOC"),
                                 ("Johanssons", C.PERSON, 1, "PER")])
    out, _ = pseudonymize_document(text, regions, "sv", seed=4)
    surname = out.text.split()[1]
    assert surname != "Johansson" and f" {surname}s bil" in out.text
    assert "Uppsala" not in out.text
