"""Only real words come out: every printed person and place surrogate form is a word of its language.

The word list is Debian's hunspell dictionary of the language (``hunspell-cs``/``-sk``/``-pl``), for Polish
also Morfeusz's dictionary of names (SGJP: real names with their paradigms); a family plural ("Novákovci")
is a regular derivation of a name whose whole paradigm passed.  Organisations are no words of a
dictionary: an invented one-word firm name ("Agrostav") is checked against its own list and declension,
an acronym by its shape, a company name by Faker's lists the surrogate was drawn from.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from psan.tool.cli.pseudonymize import pseudonymize_corpus
from psan.tool.morph import namelists, wordlist
from psan.tool.morph.declension import declension_for, inflect_pl
from psan.tool.surrogates import names
from psan.tool.surrogates.replacer import ORG_HEADS, ORG_TAILS

SHARED = Path(os.environ.get("PSAN_SHARED_DIR", Path(__file__).resolve().parents[3] / "shared"))
WORD = re.compile(r"[^\W\d_]+")


def _firm_form(word: str, language: str) -> bool:
    """An invented firm name of the replacer's list in a form of its (inanimate masculine) declension."""
    decl = declension_for(language)
    low = word.casefold()
    for head in ORG_HEADS:
        for tail in ORG_TAILS:
            base = head + tail
            if low.startswith(base.casefold()[:-2]) and decl is not None \
                    and low in {f.casefold() for f in decl.decline(base, "m", False).values()}:
                return True
    return False


def _company(word: str, language: str) -> bool:
    """A word of Faker's company names: its surnames and its legal forms."""
    p = namelists.pools(language)
    return word in p.last or word in p.last_m or word in p.last_f or word.casefold() in ("a", "syn", "spol", "sro")


def _acronym(word: str) -> bool:
    letters = word.rstrip("abcdefghijklmnopqrstuvwxyzáéíóúůýěščřžňťď-")
    return len(letters) >= 2 and letters.isupper()


@pytest.mark.parametrize("lang", ["cs", "sk", "pl"])
def test_every_surrogate_of_the_dev_names_is_a_real_word(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)
    corpus = SHARED / "data" / f"inflect-{lang}-dev.jsonl"
    if not corpus.is_file():
        pytest.skip(f"{corpus} not there (../shared)")
    if not wordlist.available(lang):
        pytest.skip(f"no hunspell dictionary for {lang} (apt-get install libhunspell-1.7-0 hunspell-{lang})")
    if lang == "pl" and not inflect_pl.available():
        pytest.skip("morfeusz2 not installed (the polish extra)")
    docs = [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines() if line.strip()]
    failures, checked = [], 0
    for record, doc in zip(pseudonymize_corpus(docs, None, "pseudonymize", "1"), docs, strict=True):
        labels = {(s["start"], s["end"]): s["label"] for s in doc["spans"]}
        for rep in record["replacements"]:
            label = labels.get((rep["start"], rep["end"]), "")
            for word in WORD.findall(rep["surrogate"] or ""):
                if rep["surrogate"].startswith("["):
                    continue  # the category tag (nothing safe found)
                checked += 1
                ok = names.is_real_form(word, lang) or len(word) == 1 or word.casefold() in namelists.KEEP_WORDS \
                    or names.is_family_plural(word, lang) \
                    or label == "ORGANIZATION" and (_firm_form(word, lang) or _acronym(word) or _company(word, lang))
                if not ok:
                    failures.append((doc["text"][rep["start"]:rep["end"]], rep["surrogate"]))
    assert checked > 150
    assert failures == []


@pytest.mark.parametrize(("lang", "lemma", "role", "gender"), [
    ("cs", "Kdyně", names.PLACE, "f"),  # "v Kdyněe": the rules decline it into non-words
])
def test_a_lemma_whose_paradigm_has_a_non_word_is_never_drawn(lang: str, lemma: str, role: str, gender: str) -> None:
    if not wordlist.available(lang):
        pytest.skip(f"no hunspell dictionary for {lang}")
    assert lemma not in names.role_pool(lang, role, "")
    assert all(names.real_paradigm(c, lang, role, names.place_gender(c, lang)) for c in names.role_pool(lang, role, ""))


def test_no_random_string_is_a_name_when_every_pool_name_is_taken() -> None:
    from psan.tool.surrogates.replacer import SurrogateReplacer
    rep = SurrogateReplacer(None, "cs", 1)
    for name in names.role_pool("cs", names.FIRST, "m"):  # every first name already belongs to someone else
        rep._owner[(names.FIRST, name.casefold())] = "someone"  # noqa: SLF001
    got = rep._draw_word("p", names.FIRST, "jiří", names.role_pool("cs", names.FIRST, "m")[:3])  # noqa: SLF001
    assert got in names.role_pool("cs", names.FIRST, "")
