import pytest

from psan.tool.text.categories import CNEC, category_of
from psan.tool.text.document import Category


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


# --- psan's own recognizer types: the category of a type name is the category its spans carry -------------
LANGUAGES = ("cs", "en", "pl", "sk", "sl", "sv")
RECOGNIZER_MODULES = ("patterns", "gazetteer", "sensitive", "demographic")
#: sentences that make the recognizers without a fixed type (gazetteers, institutions, initials …) fire
SAMPLES = {
    "cs": "Jan Novák a paní Marie Svobodová z Brna bydlí v ulici Dlouhá 12, 110 00 Praha 1. Ing. Petr Dvořák, "
          "lékař, katolík, žije v Olomouckém kraji. Věznice Pankrác, ČEZ a.s., IČO 25596641. Rodné číslo "
          "736028/5163. Je mu 42 let.",
    "en": "Mr John Smith, a nurse from Leeds, met Dr Ann Brown at HM Prison Brixton on 3 May 2001 for two weeks. "
          "Contact @anka_88, password: hunter2. He is 42 years old and a Catholic.",
    "pl": "Jan Kowalski z Krakowa, PESEL 44051401458, NIP 123-456-32-18, kod 31-000.",
    "sv": "Anna Svensson från Göteborg, personnummer 811218-9876, bor på Storgatan 3, 412 58 Göteborg.",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_fixed_type_recognizers_agree_with_category_of(language):
    """A type's category decides its learned-type pool, a word-type rule's reach and whether it may ever be
    learned public; it must be the category the recognizer gives its spans (SURNAME was OTHER here, PERSON there)."""
    import importlib
    checked = 0
    for module in RECOGNIZER_MODULES:
        for recognizer in importlib.import_module(f"psan.tool.detection.recognizers.{module}").default_recognizers(
            language):
            type_, category = getattr(recognizer, "type", None), getattr(recognizer, "category", None)
            if isinstance(type_, str) and isinstance(category, Category):
                assert category_of(type_) is category, (recognizer, type_, category)
                checked += 1
    assert checked >= 10


def test_recognized_spans_carry_the_category_of_their_type():
    from psan.tool.detection.pipeline import Pipeline
    seen = set()
    for language, text in SAMPLES.items():
        pipeline = Pipeline({"language": language, "tokenizer": "regex", "ner": [],
                             "recognizers": ["patterns", "gazetteers", "sensitive", "demographic"]},
                            language=language)
        for entity in pipeline.process(text).entities:
            assert category_of(entity.type) is entity.category, (language, entity)
            seen.add(entity.type)
    assert {"SURNAME", "PERSON_NAME", "TITLED_NAME", "CITY", "ADDRESS", "POSTAL_CODE", "PRISON", "CZ_ICO",
            "PL_PESEL", "SE_PERSONNUMMER", "AGE", "DURATION", "USERNAME", "SECRET"} <= seen, seen
