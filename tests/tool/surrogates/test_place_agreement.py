"""A place's surrogate has the original's gender, so the words that agree with it stay right ("zastoupeno Polsko"
→ a neuter town, "v sousedním Německu" → "v sousedním Kladně"), and the gender's places running out never leaves a
place undeclined."""
from __future__ import annotations

import pytest

from psan.tool.cli.pseudonymize import pseudonymize_corpus
from psan.tool.surrogates import names


@pytest.fixture(autouse=True)
def _no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)


def _surrogates(lang: str, texts: list[tuple[str, str]], seed: str) -> list[dict]:
    docs = []
    for i, (text, mention) in enumerate(texts):
        start = text.index(mention)
        docs.append({"id": f"d{i}", "lang": lang, "text": text,
                     "spans": [{"start": start, "end": start + len(mention), "label": "LOCATION"}]})
    return [r["replacements"][0] for r in pseudonymize_corpus(docs, None, "pseudonymize", seed)]


@pytest.mark.parametrize(("lang", "text", "mention", "gender"), [
    ("cs", "Na festivalu bude zastoupeno Polsko.", "Polsko", "n"),
    ("cs", "Musíme se poučit v sousedním Německu.", "Německu", "n"),
    ("sk", "Vrátil sa z ruskej Karélie.", "Karélie", "f"),
])
@pytest.mark.parametrize("seed", ["0", "1", "2"])
def test_a_places_surrogate_agrees_with_the_words_around_it(lang, text, mention, gender, seed):
    (rep,) = _surrogates(lang, [(text, mention)], seed)
    assert rep["features"]["Gender"] == {"n": "Neut", "f": "Fem", "m": "Masc"}[gender], rep
    lemma = names.analyse_word(rep["surrogate"].split()[-1], lang, names.PLACE).lemma
    assert names.agreement_gender(lemma, lang) == gender, rep


def test_when_the_places_of_a_gender_are_used_up_a_place_is_still_declined():
    neuter = names.declinable_places_of_gender("cs", "n")
    countries = [f"Země{i}sko" for i in range(len(neuter) + 5)]
    reps = _surrogates("cs", [(f"Cesta z {c}a vedla dál.", f"{c}a") for c in countries], "0")
    assert len({r["surrogate"] for r in reps}) == len(reps)
    assert all(r["surrogate"] and not r["surrogate"].startswith("[") for r in reps), reps
