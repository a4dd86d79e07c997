"""Health-condition mentions (TAB's DEM diagnoses): whole mentions, SENSITIVE HEALTH, low score."""
from __future__ import annotations

import pytest

from psan.tool.decisions.sensitivity import never_public_by_suggestion
from psan.tool.detection.defaults import default_config
from psan.tool.detection.pipeline import Pipeline
from psan.tool.detection.recognizers import sensitive
from psan.tool.detection.recognizers.health import SCORE, HealthConditionRecognizer, health_mentions
from psan.tool.text.categories import category_of
from psan.tool.text.document import Category


def found(text: str) -> list[str]:
    return [text[a:b] for a, b in health_mentions(text)]


@pytest.mark.parametrize("text,expected", [
    # medical endings, with the modifiers before them
    ("In 2004 she developed chronic pancreatitis.", ["chronic pancreatitis"]),
    ("The report found moderate spondylosis and bilateral neuropathy.", ["moderate spondylosis",
                                                                          "bilateral neuropathy"]),
    ("a mild coxarthrosis of the right hip", ["mild coxarthrosis of the right hip"]),
    ("He has suffered from intercostal neuralgia since the accident.", ["intercostal neuralgia"]),
    ("She had a mastectomy in 1999.", ["mastectomy"]),
    ("signs of retinopathy and hypermetropia", ["retinopathy", "hypermetropia"]),
    # condition nouns need a modifier that says which
    ("He was found to have a chronic heart disease.", ["chronic heart disease"]),
    ("diagnosed with post-traumatic stress disorder", ["post-traumatic stress disorder"]),
    ("He had Hodgkin's disease.", ["Hodgkin's disease"]),
    ("The board assessed a total disability.", ["total disability"]),
    ("a severe depressive illness", ["severe depressive illness"]),
    ("after two knee operations and reconstructive surgery", ["knee operations", "reconstructive surgery"]),
    # frames
    ("She sustained a fracture of the right collarbone which healed badly.", ["fracture of the right collarbone"]),
    ("a fracture of the 3rd lumbar vertebra", ["fracture of the 3rd lumbar vertebra"]),
    ("He suffered a loss of hearing in his left ear.", ["loss of hearing in his left ear"]),
    ("an assessed 40 % of loss of sight", ["40 % of loss of sight"]),
    ("a 25% disability", ["25% disability"]),
    ("She was diagnosed with a rare blood disorder in 2001.", ["rare blood disorder"]),
    ("a young man with a disability, living alone", ["disability"]),
    ("children with learning disabilities", ["learning disabilities"]),
    ("a hernia at L4-L5 and C5–C6", ["hernia", "L4-L5", "C5–C6"]),
    # the body part a condition is of or to belongs to the mention
    ("a severe calcification of the left elbow was seen", ["severe calcification of the left elbow"]),
    ("with multiple lesions to his face and hands", ["multiple lesions to his face"]),
    ("there was chronic damage to the tenancy", ["chronic damage"]),  # no body part: the condition alone
    # a signed measure before, a lay gloss in brackets after, a measure between condition and body part
    ("he had \u2011 4, 50 of myopia (short-sightedness) and", ["\u2011 4, 50 of myopia (short-sightedness)"]),
    ("a strong myopic degeneration (-6 dioptres) in her right eye", [
        "strong myopic degeneration (-6 dioptres) in her right eye"]),
    ("chronic bronchitis (see paragraph 12) was noted", ["chronic bronchitis"]),
    # conditions whose names have no medical ending
    ("He has had chronic asthma and recurrent migraines since 1990.", ["chronic asthma", "migraines"]),
    # typeset hyphens
    ("a cervico\u2011thoracic radiculopathy", ["cervico\u2011thoracic radiculopathy"]),
])
def test_health_mentions(text: str, expected: list[str]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize("text", [
    "The diagnosis was confirmed by the hospital.",  # the word "diagnosis" names no condition
    "He expressed his sympathy and some nostalgia.",
    "She obtained a diploma in academia.",
    "He claimed a disability pension before the disability tribunal.",  # no modifier: a benefit, a body
    "He suffered from discrimination at work.",  # a frame without a condition in it
    "the medical condition of detainees",
    "with a disability pension",  # a benefit: the frame needs the condition to end there
    "Form T1-2, the S5-S9 series and section S1",
    "used for other purposes",
    "during the military operations in the region",
    "It was a utopia, a trophy of the regime.",
    "He showed no vertigoes and no diabetesx",  # a condition noun counts only as a whole word
])
def test_no_condition(text: str) -> None:
    assert found(text) == []


def test_sensitive_health_low_score_in_the_sensitive_family() -> None:
    text = "He suffered from paranoid schizophrenia."
    (span,) = HealthConditionRecognizer().analyze(text)
    assert (text[span.start:span.end], span.type, span.category, span.score) == (
        "paranoid schizophrenia", "HEALTH", Category.SENSITIVE, SCORE)
    assert category_of("HEALTH") is Category.SENSITIVE
    assert any(isinstance(r, HealthConditionRecognizer) for r in sensitive.default_recognizers("en"))
    assert not any(isinstance(r, HealthConditionRecognizer) for r in sensitive.default_recognizers("cs"))
    assert never_public_by_suggestion(["HEALTH"], Category.SENSITIVE, ["paranoid", "schizophrenia"])


def test_the_condition_wins_over_its_topic_word_and_names_win_over_it() -> None:
    config = default_config("en")
    config["ner"] = []  # the recognizers alone: no model needed
    doc = Pipeline(config, language="en").process("Mr Smith suffered from paranoid schizophrenia.")
    spans = {(doc.text[a:b], e.source) for e in doc.entities for a, b in [doc.char_range(e.first_token, e.end_token)]}
    assert ("paranoid schizophrenia", "health") in spans
    assert ("schizophrenia", "sensitive") not in spans  # the topic word gives way to the whole condition
