"""NER candidates that are never personal (issue 22, TAB precision): dropped before merging, nothing else."""
from __future__ import annotations

import pytest

from psan.tool.document import Category, CharSpan, Document, Sentence, Token
from psan.tool.merge import resolve
from psan.tool.nonpersonal import drop_never_personal, is_never_personal


def ner(text: str, value: str, type_: str, start: int = 0) -> CharSpan:
    i = text.index(value, start)
    return CharSpan(i, i + len(value), type_, Category.ORGANIZATION, "spacy", 0.8)


@pytest.mark.parametrize("text,value,type_", [
    ("The Court notes that the applicant complained.", "Court", "ORG"),
    ("It was examined by the Chamber of the Fourth Section.", "the Chamber", "ORG"),
    ("THE FACTS\n\nThe applicant was born in 1960.", "FACTS", "ORG"),
    ("They relied, inter alia, on the contract.", "inter alia", "ORG"),
    ("lodged with the European Commission of Human Rights", "the European Commission of Human Rights", "ORG"),
    ("The Government did not reply.", "Government", "ORG"),
    ("under Article 29 § 3 of the Convention", "Article 29 § 3 of the Convention", "LAW"),
    ("(Rule 26 § 1 of the Rules of Court)", "Rule 26 § 1 of the Rules of Court", "LAW"),
    ("The first hearing was held.", "first", "ORDINAL"),
    ("the Fourth Section (Rule 52 § 1).", "1", "CARDINAL"),
    ("He complained under Articles 8 and 14 of the Convention.", "14", "CARDINAL"),
])
def test_public_everywhere(text: str, value: str, type_: str) -> None:
    assert is_never_personal(text, ner(text, value, type_), "en")


@pytest.mark.parametrize("text,value,type_", [
    ("before the Istanbul State Security Court", "the Istanbul State Security Court", "ORG"),
    ("held in HM Prison Manchester", "HM Prison Manchester", "ORG"),
    ("the Court of Cassation upheld it", "the Court of Cassation", "ORG"),  # which country's proceedings
    ("The Turkish Government were represented", "The Turkish Government", "ORG"),
    ("against the Republic of Turkey", "the Republic of Turkey", "GPE"),
    ("regulated by the Reindeer Husbandry Act", "the Reindeer Husbandry Act", "LAW"),
    ("pursuant to Article 187 of the Turkish Civil Code", "Article 187 of the Turkish Civil Code", "LAW"),
    ("the applicant and seven other persons", "seven", "CARDINAL"),
    ("plots nos. 260, 268 and 425", "425", "CARDINAL"),
    ("Mr Court lives in Leeds.", "Mr Court", "PERSON"),
])
def test_kept_when_it_can_identify(text: str, value: str, type_: str) -> None:
    assert not is_never_personal(text, ner(text, value, type_), "en")


def test_other_languages_and_pattern_spans_pass_through() -> None:
    text = "Ústavní soud rozhodl."
    assert drop_never_personal(text, [ner(text, "Ústavní soud", "ic")], "cs") != []
    date = CharSpan(0, 5, "DATE", Category.DATE, "date", 0.9, 20)
    assert drop_never_personal("first", [date], "en") == [date]


def test_resolve_drops_them_before_merging() -> None:
    text = "The Court heard Mr Akyazıcı."
    tokens = [Token(0, 0, 3), Token(1, 4, 9), Token(2, 10, 15), Token(3, 16, 18), Token(4, 19, 27), Token(5, 27, 28)]
    doc = Document(text, tokens, [Sentence(0, 6)], [], "en")
    found = resolve(doc, [ner(text, "Court", "ORG"), ner(text, "Akyazıcı", "PERSON")])
    assert [(e.first_token, e.type) for e in found] == [(4, "PERSON")]
