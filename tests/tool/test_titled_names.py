"""A personal title followed by capitalized words is a person ("Mr Tuğrul Akyazıcı")."""
from __future__ import annotations

import pytest

from psan.tool.detection.recognizers import gazetteer
from psan.tool.detection.recognizers.names import TitledNameRecognizer
from psan.tool.text.document import Category


def names(text: str, language: str = "en") -> list[str]:
    return [text[s.start:s.end] for s in TitledNameRecognizer(language).analyze(text)]


@pytest.mark.parametrize("text,expected", [
    ("by a Turkish national, Mr Tuğrul Akyazıcı (“the applicant”)", ["Mr Tuğrul Akyazıcı"]),
    ("by a Polish national, Mr Leszek Gębura (“the applicant”)", ["Mr Leszek Gębura"]),
    ("The applicants, Mr Ahmet Kenan Er and Mr January Jagiełło, complained.",
     ["Mr Ahmet Kenan Er", "Mr January Jagiełło"]),
    ("represented by Mr C. Whomersley and Dr. Heidemarie Abrahamian;",
     ["Mr C. Whomersley", "Dr. Heidemarie Abrahamian"]),
    ("Mr Jan van der Berg said Mrs A. Wittling-Vogel", ["Mr Jan van der Berg", "Mrs A. Wittling-Vogel"]),
    ("Ms Oya Ataman", ["Ms Oya Ataman"]),
    # initials written together: the agent's "Mr X.Y. Surname", and an anonymised party "Mr K.T."
    ("represented by their Agent, Mr B.K. Tuncel, and", ["Mr B.K. Tuncel"]),
    ("The applicant, Mr K.T., and Mrs Ö.Ç. complained", ["Mr K.T.", "Mrs Ö.Ç."]),
])
def test_english_titles_with_the_title(text: str, expected: list[str]) -> None:
    assert names(text) == expected


@pytest.mark.parametrize("text", [
    "Mr President, the Court held that Mr said nothing.",
    "Thank you, Mr Chairman.",
    "Mr. the applicant",
    "Mrs A. said nothing",  # an initial alone is not a name
    "Mr Ab. said nothing",  # nor an abbreviation
])
def test_forms_of_address_are_not_names(text: str) -> None:
    assert names(text) == []


def test_other_languages_give_the_name_without_the_title() -> None:
    assert names("Včera pan Novák a paní Jana Nováková s Ing. Petrem Svobodou.", "cs") == [
        "Novák", "Jana Nováková", "Petrem Svobodou"]
    assert names("Pan Jan Kowalski i pani Anna.", "pl") == ["Jan Kowalski", "Anna"]


def test_name_family_includes_titled_persons_below_ner() -> None:
    text = "by Mr Tuğrul Akyazıcı on 3 May"
    spans = [s for r in gazetteer.default_recognizers("en") for s in r.analyze(text)]
    (titled,) = [s for s in spans if s.type == "TITLED_NAME"]
    assert titled.category is Category.PERSON and titled.priority < 0


def test_czech_and_slovak_feminine_surnames_by_their_ending() -> None:
    from psan.tool.detection.recognizers.names import FeminineSurnameRecognizer
    sk = "Celkové výsledky. Podľa Bushovej administratívy a s Kimovou dcérou hovorila Nová Ves a Jana Nováková."
    assert [sk[s.start:s.end] for s in FeminineSurnameRecognizer("sk").analyze(sk)] == [
        "Bushovej", "Kimovou", "Nováková"]
    cs = "Takové věci. Mluvil s Janou Novákovou a paní Svobodové."
    spans = FeminineSurnameRecognizer("cs").analyze(cs)
    assert [cs[s.start:s.end] for s in spans] == ["Novákovou", "Svobodové"]
    assert all(s.category is Category.PERSON and s.priority < 0 for s in spans)
    assert any(isinstance(r, FeminineSurnameRecognizer) for r in gazetteer.default_recognizers("sk"))
    assert not any(isinstance(r, FeminineSurnameRecognizer) for r in gazetteer.default_recognizers("pl"))
