"""Suggestions for suspicious spans: the most specific evidence wins, ties go to private."""
from __future__ import annotations

from psan.tool.document import Category
from psan.tool.suggest import Evidence, suggest_private


def test_words_beat_model_beat_type_beat_category() -> None:
    assert suggest_private(Evidence(words_public=2, model_p=0.9, category=Category.PERSON)) is False
    assert suggest_private(Evidence(words_private=1, words_public=1)) is True  # a tie: private
    assert suggest_private(Evidence(model_p=0.2, type_private=9, category=Category.PERSON)) is False
    assert suggest_private(Evidence(type_private=1, type_public=5, category=Category.PERSON)) is False
    assert suggest_private(Evidence(type_private=1, type_public=1, category=Category.PERSON)) is True  # too few
    assert suggest_private(Evidence(category=Category.ORGANIZATION)) is False
    assert suggest_private(Evidence(category=Category.CONTACT)) is True


def test_types_are_learned_only_when_the_decisions_are_clear() -> None:
    from psan.tool.suggest import learned_type_confidence
    assert learned_type_confidence(5, 0) is None  # too few
    assert learned_type_confidence(19, 1) == -1.0
    assert learned_type_confidence(15, 5) is None  # mixed: people keep deciding
    assert learned_type_confidence(0, 12) is None  # public needs more evidence than private
    assert learned_type_confidence(0, 20) == 1.0
    assert learned_type_confidence(1, 25) is None


def test_uncertainty_falls_with_agreeing_evidence() -> None:
    from psan.tool.suggest import uncertainty
    assert uncertainty(Evidence(words_private=1, words_public=1)) == 1.0
    one, three = uncertainty(Evidence(words_private=1)), uncertainty(Evidence(words_private=3))
    assert 0.0 < three < one < 1.0
    assert uncertainty(Evidence(model_p=0.5)) == 1.0 and uncertainty(Evidence(model_p=1.0)) == 0.0
    # no evidence: the category prior, as unsure as one decision
    import pytest
    assert uncertainty(Evidence(category=Category.PERSON)) == pytest.approx(one)
    assert uncertainty(Evidence(category=Category.OTHER)) == pytest.approx(one)
