"""A name's words are read together, each as well as the others allow: "Jiřího Kratochvila" is Jiří Kratochvil's
genitive (not a nominative "Jiřího Kratochvila" of two guessed names), so its mentions link to Jiří Kratochvil and
its surrogate takes his paradigm; and no surrogate differs from an original only by its diacritics."""
from __future__ import annotations

import pytest

from psan.tool.cli.pseudonymize import pseudonymize_corpus
from psan.tool.entities.grouping import parse_mention


@pytest.mark.parametrize(("mention", "lemmas"), [
    ("Jiřího Kratochvila", ("Jiří", "Kratochvil")),
    ("Michala Ogórka", ("Michal", "Ogórek")),
    ("Jana Nováka", ("Jan", "Novák")),
    ("Jana Pavla", ("Jana", "Pavla")),  # a woman's nominative reads as well as a man's genitive: hers comes first
    ("Petr Skála", ("Petr", "Skála")),
])
def test_a_names_words_are_read_in_one_case_each_as_well_as_the_others_allow(mention, lemmas):
    form = parse_mention(mention, "PERSON", "cs")
    assert form is not None and form.lemmas == lemmas


@pytest.mark.parametrize("seed", ["0", "1", "2", "3", "4", "5"])
def test_no_surrogate_is_the_original_with_other_diacritics(seed, monkeypatch):
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)
    text = "Porota ocenila práce Jiřího Kratochvila a Michala Ogórka."
    spans = [{"start": text.index(m), "end": text.index(m) + len(m), "label": "P"}
             for m in ("Jiřího Kratochvila", "Michala Ogórka")]
    out = pseudonymize_corpus([{"id": "d", "lang": "cs", "text": text, "spans": spans}], None, "pseudonymize",
                              seed)[0]["text"]
    assert "Kratochv" not in out and "Ogór" not in out, out
