"""Special-category recognizers (psan.tool.detection.recognizers.sensitive) and their place in the pipeline."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.detection.defaults import default_config
from psan.tool.detection.pipeline import Pipeline
from psan.tool.detection.recognizers.sensitive import (
    TERMS,
    TOPICS,
    SensitiveRecognizer,
    topic_matches,
    topic_patterns,
)
from psan.tool.text.categories import category_of
from psan.tool.text.document import Category


def _found(text: str, lang: str) -> list[tuple[str, str]]:
    return [(text[s.start:s.end], s.type) for s in SensitiveRecognizer(lang).analyze(text)]


@pytest.mark.parametrize(("lang", "text", "expected"), [
    ("en", "In 2007 his wife was diagnosed with paranoid schizophrenia.",
     [("his wife", "FAMILY"), ("diagnosed", "HEALTH"), ("schizophrenia", "HEALTH")]),
    ("en", "He is a practising Muslim and a member of the Communist Party.",
     [("Muslim", "RELIGION"), ("member of the Communist Party", "POLITICS")]),
    ("cs", "Její syn je homosexuál a trpí cukrovkou.",
     [("Její syn", "FAMILY"), ("homosexuál", "SEXUAL_ORIENTATION"), ("cukrovkou", "HEALTH")]),
    ("cs", "Romové z Kladna; pan Roman Novák.", [("Romové", "ETHNICITY")]),
    ("pl", "Jego żona jest w ciąży, a on jest katolikiem.",
     [("Jego żona", "FAMILY"), ("w ciąży", "HEALTH"), ("katolikiem", "RELIGION")]),
    ("sk", "Môj otec bol evanjelik a jeho brat komunista.",
     [("Môj otec", "FAMILY"), ("evanjelik", "RELIGION"), ("jeho brat", "FAMILY"), ("komunista", "POLITICS")]),
    ("sv", "Min man är diabetiker? Nej, han har diabetes och är transperson.",
     [("Min man", "FAMILY"), ("diabetes", "HEALTH"), ("transperson", "GENDER")]),
])
def test_topics_per_language(lang: str, text: str, expected: list[tuple[str, str]]) -> None:
    assert _found(text, lang) == expected


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "The mother of all battles; Mr Gay lives at 12 Via Roma; the religion section."),
    ("en", "The applicant's lawyer and the court clerk."),
    ("cs", "Roman Romanov jel do Říma; matka příroda."),
    ("pl", "Roman i Romek; matka ziemia."),
])
def test_no_flags_on_ordinary_text(lang: str, text: str) -> None:
    assert _found(text, lang) == []


def test_every_language_has_every_topic() -> None:
    for lang, topics in TERMS.items():
        assert set(topics) == set(TOPICS), lang
    assert all(category_of(t) == Category.SENSITIVE for t in TOPICS)


def test_default_pipeline_flags_them_as_weak_suggestions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)
    assert "sensitive" in default_config("cs")["recognizers"]
    assert "sensitive" not in default_config("de")["recognizers"]
    doc = Pipeline({"language": "en", "tokenizer": "regex", "ner": [], "recognizers": ["patterns", "sensitive"]}
                   ).process("On 3 May 2001 her husband had a heart attack.")
    flagged = [(doc.span_text(e.first_token, e.end_token), e.type, e.category, e.score, e.source)
               for e in doc.entities if e.category == Category.SENSITIVE]
    # a whole health condition comes from the family's health-condition recognizer
    # (psan.tool.detection.recognizers.health)
    assert flagged == [("her husband", "FAMILY", Category.SENSITIVE, 0.3, "sensitive"),
                       ("heart attack", "HEALTH", Category.SENSITIVE, 0.3, "health")]


def test_a_name_wins_over_a_topic_on_the_same_text() -> None:
    from psan.tool.text.document import CharSpan, Recognizer

    class Fixed(Recognizer):
        name = "fixed"

        def analyze(self, text, doc):  # noqa: ANN001, ANN201
            start = text.index("Katolícka")
            return [CharSpan(start, start + len("Katolícka univerzita"), "ORG", Category.ORGANIZATION, "fixed")]

    pipe = Pipeline({"language": "sk", "tokenizer": "regex", "ner": [], "recognizers": ["sensitive"]})
    pipe.ner = [Fixed()]
    doc = pipe.process("Študoval na Katolícka univerzita v Ružomberku.")
    assert [(e.type, e.category) for e in doc.entities] == [("ORG", Category.ORGANIZATION)]


_PIECES = ["his wife", "HIV-positive", "a Roma family", "Via Roma", "communist", "member of the Green Party",
           "Muslim", "gay", "Gay", "diabetic", "rakovina", "Rom", "Romové", "jego żona", "min fru", "—", "-",
           "non-binary", "the applicant's son", "Jewish", "Christians", " ", "\n", ",", "x", "1", "cancerous"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=12), st.sampled_from(sorted(TERMS)), st.sampled_from(["", " "]))
def test_one_gated_pass_finds_what_each_topic_pattern_finds(pieces: list[str], language: str, sep: str) -> None:
    """The gated single pass (speed) gives exactly the spans of every topic's own ``finditer``."""
    text = sep.join(pieces)
    expected = sorted((topic, m.start(), m.end()) for topic, pattern in topic_patterns(language)
                      for m in pattern.finditer(text))
    assert sorted(topic_matches(text, language)) == expected
