"""How much each model's reading counts (psan.tool.morph.analysis.model_weights) and person nouns known by the
dictionary's paradigms (psan.tool.morph.wordlist).  The weights' fit: tests/ner_eval/test_inflection.py."""
from __future__ import annotations

import pytest

from psan.tool.morph import analysis, wordlist
from psan.tool.morph.analysis import Mention, analyse_document


@pytest.fixture(autouse=True)
def _no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)


def _fake_tagger(monkeypatch: pytest.MonkeyPatch, tags: dict[str, tuple[str, dict[str, str]]]) -> None:
    """A tagger that tags the given words so and every other word a proper noun without features."""
    from psan.tool.morph import tagger
    monkeypatch.setattr(tagger, "tag", lambda language, words: tuple(("", *tags.get(w, ("PROPN", {}))) for w in words))
    monkeypatch.setattr(tagger, "parse", lambda language, words: None)


def test_model_weights_are_the_defaults_overridden_per_language(monkeypatch: pytest.MonkeyPatch) -> None:
    assert analysis.model_weights("xx") == analysis.DEFAULT_MODEL_WEIGHTS
    monkeypatch.setitem(analysis.MODEL_WEIGHTS, "xx", {"tagger_case": 2.0})
    got = analysis.model_weights("xx")
    assert got["tagger_case"] == 2.0
    assert {k: v for k, v in got.items() if k != "tagger_case"} == \
        {k: v for k, v in analysis.DEFAULT_MODEL_WEIGHTS.items() if k != "tagger_case"}


def test_the_taggers_weight_decides_between_the_rules_and_the_tagger(monkeypatch: pytest.MonkeyPatch) -> None:
    """"Honzy" is a nominative (a guessed lemma) or Honza's genitive by its form: the tagger's genitive wins
    only with weight."""
    _fake_tagger(monkeypatch, {"Honzy": ("PROPN", {"Case": "Gen"}), "nebylo": ("VERB", {"VerbForm": "Fin"}),
                               ".": ("PUNCT", {})})
    text = "Honzy nebylo."
    mention = [Mention(0, 5, "person", "e")]
    monkeypatch.setitem(analysis.MODEL_WEIGHTS, "cs", {"tagger_case": 0.0})
    assert analyse_document(text, mention, "cs")[0][0].case == "Nom"
    monkeypatch.setitem(analysis.MODEL_WEIGHTS, "cs", {"tagger_case": 20.0})
    assert analyse_document(text, mention, "cs")[0][0].case == "Gen"


def test_the_taggers_gender_of_the_name_counts_with_its_weight(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lone surname in -ou is a man's (Procházkou) or a woman's (Lollobrigidou) by its form."""
    _fake_tagger(monkeypatch, {"Tančil": ("VERB", {"VerbForm": "Part", "Gender": "Masc"}), "s": ("ADP", {}),
                               "Lollobrigidou": ("PROPN", {"Case": "Ins", "Gender": "Fem"}), ".": ("PUNCT", {})})
    text = "Tančil dnes Lollobrigidou."
    mention = [Mention(12, 25, "person", "e")]
    monkeypatch.setitem(analysis.MODEL_WEIGHTS, "cs", {"tagger_gender": 0.0})
    assert analyse_document(text, mention, "cs")[0][0].gender == "Masc"
    monkeypatch.setitem(analysis.MODEL_WEIGHTS, "cs", {"tagger_gender": 2.5})
    assert analyse_document(text, mention, "cs")[0][0].gender == "Fem"


needs_cs_dictionary = pytest.mark.skipif(not wordlist.available("cs"), reason="no Czech hunspell dictionary")


@needs_cs_dictionary
def test_stems_and_animate_nouns_come_from_the_dictionary() -> None:
    assert "policista" in wordlist.stems("policistu", "cs")
    assert wordlist.animate_noun("policistu", "cs") and wordlist.animate_noun("učiteli", "cs")
    assert wordlist.animate_noun("novinářem", "cs")
    assert not wordlist.animate_noun("hotelu", "cs") and not wordlist.animate_noun("deníku", "cs")
    assert not wordlist.animate_noun("Policistu", "cs")  # a capitalized word is no common noun here
    assert not wordlist.animate_noun("policistu", "pl")  # no paradigm flags read for Polish
    assert wordlist.stems("xqzwv", "cs") == ()


@needs_cs_dictionary
def test_a_person_noun_is_listed_or_declined_as_an_animate() -> None:
    assert analysis.person_noun("bratra", "cs")  # listed
    assert analysis.person_noun("policistu", "cs")  # the dictionary's paradigm
    assert not analysis.person_noun("hotelu", "cs")


@needs_cs_dictionary
def test_an_animate_noun_the_tagger_tags_takes_the_name_in_apposition(monkeypatch: pytest.MonkeyPatch) -> None:
    """The name agrees with a person noun before it; after another noun it is its possessor (genitive)."""
    for noun, case in (("policistu", "Acc"), ("deník", "Gen")):
        _fake_tagger(monkeypatch, {"Zatkli": ("VERB", {"VerbForm": "Fin"}),
                                   noun: ("NOUN", {"Case": "Acc", "Gender": "Masc", "Number": "Sing"}),
                                   ".": ("PUNCT", {})})
        text = f"Zatkli {noun} Norberta Predikanta."
        start = text.index("Norberta")
        feats, _genders = analyse_document(text, [Mention(start, len(text) - 1, "person", "e")], "cs")
        assert feats[0].case == case, noun


def test_czech_trusts_the_taggers_gender_of_a_name_not_its_case(monkeypatch: pytest.MonkeyPatch) -> None:
    """The weights fitted on FicTree's names: a lone -ou surname the tagger calls a woman's reads as hers (the
    rules alone make it a man's, as in the test above), and the tagger's case of a name counts for nothing."""
    _fake_tagger(monkeypatch, {"Tančil": ("VERB", {"VerbForm": "Part", "Gender": "Masc"}),
                               "Lollobrigidou": ("PROPN", {"Case": "Ins", "Gender": "Fem"}), ".": ("PUNCT", {})})
    assert analyse_document("Tančil dnes Lollobrigidou.", [Mention(12, 25, "person", "e")], "cs")[0][0].gender == "Fem"
    assert analysis.model_weights("cs")["tagger_case"] == 0.0


def test_a_participle_the_tagger_leaves_ambiguous_still_gives_its_subject_a_gender(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """"seděla" is tagged Fem,Neut and Plur,Sing (a woman, or neuter plural): a person subject is the woman."""
    _fake_tagger(monkeypatch, {"seděla": ("VERB", {"VerbForm": "Part", "Gender": "Fem,Neut", "Number": "Plur,Sing"}),
                               "Valentýna": ("PROPN", {}), "doma": ("ADV", {}), ".": ("PUNCT", {})})
    text = "Valentýna seděla doma."
    feats, _genders = analyse_document(text, [Mention(0, 9, "person", "e")], "cs")
    assert (feats[0].case, feats[0].gender) == ("Nom", "Fem")
