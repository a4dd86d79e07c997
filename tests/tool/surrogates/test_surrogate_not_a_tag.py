"""Common mentions get a surrogate, not a tag: "Mrs" (a kept word the surrogate may not repeat) becomes "Ms", and a
year or an initial that is private in another document of the project does not forbid it here, while a year
private in this very document is never printed by another surrogate in it."""
from __future__ import annotations

import re

import pytest

from psan.tool.cli.pseudonymize import pseudonymize_corpus


@pytest.fixture(autouse=True)
def _no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)


def _doc(i: int, text: str, mentions: list[tuple[str, str]]) -> dict:
    spans = [{"start": text.index(m), "end": text.index(m) + len(m), "label": label} for m, label in mentions]
    return {"id": f"d{i}", "lang": "en", "text": text, "spans": spans}


@pytest.mark.parametrize("seed", ["0", "1", "2", "3"])
def test_mrs_becomes_ms_and_the_person_gets_a_surrogate(seed):
    doc = _doc(0, "The applicant, Mrs Anna Evagorou Christou, wrote.", [("Mrs Anna Evagorou Christou", "PERSON")])
    (rep,) = pseudonymize_corpus([doc], None, "pseudonymize", seed)[0]["replacements"]
    assert rep["surrogate"].startswith("Ms ") and "Anna" not in rep["surrogate"], rep


@pytest.mark.parametrize("seed", ["0", "1", "2", "3"])
def test_years_and_initials_private_elsewhere_leave_dates_and_persons_a_surrogate(seed):
    years = [str(y) for y in range(1900, 2031)]
    letters = [chr(65 + i % 26) for i in range(len(years))]
    others = [_doc(i + 1, f"It was {y}; Mr {c}. came.", [(y, "DATETIME"), (f"{c}.", "PERSON")])
              for i, (y, c) in enumerate(zip(years, letters, strict=True))]
    doc = _doc(0, "On 31 May 1991 Mr G. Witt met Mrs A. Wittling-Vogel.",
               [("31 May 1991", "DATETIME"), ("Mr G. Witt", "PERSON"), ("Mrs A. Wittling-Vogel", "PERSON")])
    out = pseudonymize_corpus([doc, *others], None, "pseudonymize", seed)[0]
    assert not any(r["surrogate"].startswith("[") for r in out["replacements"]), out["replacements"]


@pytest.mark.parametrize("seed", ["0", "1", "2", "3", "4", "5"])
def test_a_year_private_in_the_document_is_never_printed_by_another_surrogate_there(seed):
    doc = _doc(0, "Born in 1990, she moved on 3 March 1991 and again on 4 June 1992.",
               [("1990", "DATETIME"), ("3 March 1991", "DATETIME"), ("4 June 1992", "DATETIME")])
    out = pseudonymize_corpus([doc], None, "pseudonymize", seed)[0]
    dates = [r["surrogate"] for r in out["replacements"][1:]]
    assert not any(re.search(r"\b1990\b", d) for d in dates), dates


@pytest.mark.parametrize("seed", ["0", "1", "2"])
def test_a_name_particle_of_three_letters_is_left_out_and_the_person_gets_a_surrogate(seed):
    text = "Podatek wprowadził przedsiębiorca Carl Friedrich von Siemens w 1919 r."
    mention = "Carl Friedrich von Siemens"
    doc = {"id": "d", "lang": "pl", "text": text,
           "spans": [{"start": text.index(mention), "end": text.index(mention) + len(mention), "label": "PER"}]}
    (rep,) = pseudonymize_corpus([doc], None, "pseudonymize", seed)[0]["replacements"]
    words = rep["surrogate"].split()
    assert not rep["surrogate"].startswith("[") and "von" not in words and len(words) == 3, rep
