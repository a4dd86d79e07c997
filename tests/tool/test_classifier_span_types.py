"""The pre-trained classifier's learnable types (psan.tool.detection.classifier.span_types): category and shape."""
from __future__ import annotations

from psan.tool.decisions.sensitivity import sensitive_type
from psan.tool.decisions.suggest import joinable_pools, learning_pool
from psan.tool.detection.classifier.span_types import (
    is_pretrained_type,
    pretrained_shape,
    pretrained_type,
    typed_spans,
)
from psan.tool.text.categories import category_of, tag_set
from psan.tool.text.document import Category, CharSpan, Document, Sentence
from psan.tool.text.tokens import tokenize


def _types(text: str, words: list[str], with_doc: bool = True) -> list[str]:
    spans = [CharSpan(text.index(w), text.index(w) + len(w), "MODEL", Category.PERSON, "classifier", 0.9, -5)
             for w in words]
    doc = None
    if with_doc:
        tokens, sentences = tokenize(text, "cs")
        doc = Document(text, tokens, [Sentence(s.first_token, s.end_token) for s in sentences], [], "cs")
    return [s.type for s in typed_spans(text, doc, spans)]


def test_the_shape_says_where_and_how_the_words_stand() -> None:
    text = "Binič přišel. „Tatarčuk tu byl,“ řekl Chavez a soused 12345."
    words = ["Binič", "Tatarčuk", "Chavez", "soused", "12345"]
    expected = ["CLS_PERSON_INITIAL", "CLS_PERSON_INITIAL", "CLS_PERSON_CAP", "CLS_PERSON_LOWER", "CLS_PERSON_NUM"]
    assert _types(text, words) == expected
    assert _types(text, words, with_doc=False) == expected  # sentence ends read off the text


def test_a_classifier_type_has_its_category_its_own_tag_set_and_pools() -> None:
    assert pretrained_type("PERSON", "CAP") == "CLS_PERSON_CAP" and is_pretrained_type("CLS_PERSON_CAP")
    assert not is_pretrained_type("MODEL") and not is_pretrained_type("ps")
    assert category_of("CLS_PERSON_CAP") is Category.PERSON and category_of("CLS_ID_NUM") is Category.ID
    assert category_of("CLS_NOPE_CAP") is Category.OTHER and tag_set("CLS_NOPE_CAP") == "NER"
    assert not is_pretrained_type("CLS_NOPE_CAP")  # the tag set and the learning agree on what is one
    assert tag_set("CLS_LOCATION_INITIAL") == "classifier"
    # pooled with its own category's classifier types, and may join CNEC's pool of the category (as psan's types)
    assert learning_pool("CLS_PERSON_INITIAL") == learning_pool("CLS_PERSON_CAP") == "classifier PERSON"
    assert joinable_pools("CLS_PERSON_CAP") == {"classifier PERSON", "CNEC PERSON"}
    assert learning_pool("CLS_OTHER_CAP") is None
    # never learned public: dates, IDs, contacts
    assert sensitive_type("CLS_DATE_NUM") and sensitive_type("CLS_ID_NUM") and sensitive_type("CLS_CONTACT_LOWER")
    assert not sensitive_type("CLS_ORGANIZATION_CAP")


def test_the_shape_is_read_back_from_a_classifier_type_only() -> None:
    assert [pretrained_shape(pretrained_type("PERSON", s)) for s in ("CAP", "INITIAL", "LOWER", "NUM")] == \
        ["CAP", "INITIAL", "LOWER", "NUM"]
    assert pretrained_shape("PERSON_CAP") is None and pretrained_shape("CLS_PERSON_ODD") is None


def test_typed_spans_sets_the_recognizers_source_and_priority_on_its_one_copy() -> None:
    text = "Přišel Chavez."
    span = CharSpan(7, 13, "MODEL", Category.PERSON, "model", 0.8, 0)
    kept, = typed_spans(text, None, [span])
    assert (kept.type, kept.source, kept.priority, kept.score) == ("CLS_PERSON_CAP", "model", 0, 0.8)
    set_, = typed_spans(text, None, [span], source="classifier", priority=-5)
    assert (set_.type, set_.source, set_.priority, set_.score) == ("CLS_PERSON_CAP", "classifier", -5, 0.8)
