import pytest

from psan.tool.categories import CNEC, category_of
from psan.tool.document import Category


@pytest.mark.parametrize("code,expected", [
    ("P", Category.PERSON), ("pf", Category.PERSON), ("ps", Category.PERSON), ("pc", Category.OTHER),
    ("gu", Category.LOCATION), ("gc", Category.LOCATION), ("if", Category.ORGANIZATION),
    ("io", Category.ORGANIZATION), ("T", Category.DATE), ("ty", Category.DATE), ("ah", Category.LOCATION),
    ("az", Category.LOCATION), ("at", Category.CONTACT), ("me", Category.CONTACT), ("mi", Category.CONTACT),
    ("n_", Category.ID), ("nc", Category.OTHER), ("oa", Category.OTHER), ("ms", Category.ORGANIZATION),
    ("gx", Category.LOCATION),  # unknown CNEC code falls back to its first letter
    ("PER", Category.PERSON), ("LOC", Category.LOCATION), ("ORG", Category.ORGANIZATION), ("MISC", Category.OTHER),
    ("B-PER", Category.PERSON), ("I-ORG", Category.ORGANIZATION),
    ("PERSON", Category.PERSON), ("GPE", Category.LOCATION), ("FAC", Category.LOCATION), ("NORP", Category.OTHER),
    ("DATE", Category.DATE), ("TIME", Category.DATE), ("CARDINAL", Category.OTHER), ("MONEY", Category.OTHER),
    ("DATETIME", Category.DATE), ("CODE", Category.ID), ("EMAIL_ADDRESS", Category.CONTACT),
    ("per", Category.PERSON), ("", Category.OTHER), ("whatever", Category.OTHER),
])
def test_category_of(code, expected):
    assert category_of(code) == expected


def test_all_cnec2_types_mapped():
    types = "ah at az g_ gc gh gl gq gr gs gt gu i_ ia ic if io me mi mn ms n_ na nb nc ni no ns o_ oa oe om op or " \
            "p_ pc pd pf pm pp ps td tf th tm ty P T".split()
    assert set(types) <= set(CNEC)
