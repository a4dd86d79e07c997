"""Suggestions for suspicious spans: the most specific evidence wins, ties go to private."""
from __future__ import annotations

from psan.tool.decisions.suggest import Evidence, suggest_private
from psan.tool.text.document import Category


def test_words_beat_model_beat_type_beat_category() -> None:
    assert suggest_private(Evidence(words_public=2, model_p=0.9, category=Category.PERSON)) is False
    assert suggest_private(Evidence(words_private=1, words_public=1)) is True  # a tie: private
    assert suggest_private(Evidence(model_p=0.2, type_private=9, category=Category.PERSON)) is False
    assert suggest_private(Evidence(type_private=1, type_public=5, category=Category.PERSON)) is False
    assert suggest_private(Evidence(type_private=1, type_public=1, category=Category.PERSON)) is True  # too few
    assert suggest_private(Evidence(category=Category.ORGANIZATION)) is False
    assert suggest_private(Evidence(category=Category.CONTACT)) is True


def test_types_are_learned_only_when_the_decisions_are_clear() -> None:
    from psan.tool.decisions.suggest import learned_type_confidence
    assert learned_type_confidence(5, 0) is None  # too few
    assert learned_type_confidence(19, 1) == -1.0
    assert learned_type_confidence(15, 5) is None  # mixed: people keep deciding
    assert learned_type_confidence(0, 12) is None  # public needs more evidence than private
    assert learned_type_confidence(0, 20) == 1.0
    assert learned_type_confidence(1, 25) is None


def test_a_type_learned_private_by_a_bound_not_by_the_share_of_its_first_decisions() -> None:
    """A type a few public decisions came early to stays learnable: every decision makes the bound surer."""
    from psan.tool.decisions.suggest import learned_type_confidence, private_share_bound
    assert learned_type_confidence(9, 1) is None  # one public in the first ten: not yet ...
    assert learned_type_confidence(36, 4) is None
    assert learned_type_confidence(300, 17) == -1.0  # ... 94.6 % private, now beyond doubt
    assert learned_type_confidence(60, 5) == -1.0  # 92 %: clear after 65 decisions (a 95 % share never comes)
    assert learned_type_confidence(100, 12) is None  # 89 %: not yet
    assert learned_type_confidence(80, 20) is None  # a type 4 in 5 private is never learned, however often decided
    assert learned_type_confidence(800, 200) is None
    # the bound rises with the evidence at the same share and never exceeds the share
    bounds = [private_share_bound(19 * k, k) for k in (1, 4, 16, 64)]
    assert bounds == sorted(bounds) and bounds[-1] < 0.95
    assert private_share_bound(0, 0) == 0.0 and private_share_bound(0, 5) == 0.0


def test_uncertainty_falls_with_agreeing_evidence() -> None:
    from psan.tool.decisions.suggest import uncertainty
    assert uncertainty(Evidence(words_private=1, words_public=1)) == 1.0
    one, three = uncertainty(Evidence(words_private=1)), uncertainty(Evidence(words_private=3))
    assert 0.0 < three < one < 1.0
    assert uncertainty(Evidence(model_p=0.5)) == 1.0 and uncertainty(Evidence(model_p=1.0)) == 0.0
    # no evidence: the category prior, as unsure as one decision
    import pytest
    assert uncertainty(Evidence(category=Category.PERSON)) == pytest.approx(one)
    assert uncertainty(Evidence(category=Category.OTHER)) == pytest.approx(one)


def test_a_category_clearly_private_as_a_whole_decides_its_undecided_types_private() -> None:
    """CNEC spreads locations over city, country, street …: none reaches 10 decisions, the category does."""
    from psan.tool.decisions.suggest import pooled_private_types
    stats = {"gu": (6, 0), "gc": (4, 1), "P": (3, 0)}
    candidates = ["gu", "gc", "gq", "gt", "P", "ps", "ic"]
    # 10 private location decisions of 11 over two types that both look private (91 %): not clear enough
    assert pooled_private_types(stats, candidates) == set()
    stats["gc"] = (5, 0)
    stats["gt"] = (0, 1)
    # a type whose own decisions are clearly less private ("gt", public once) neither joins nor weighs on the
    # category: the other location types, 11 of 11 private, are
    assert pooled_private_types(stats, candidates) == {"gu", "gc", "gq"}
    stats["gu"] = (20, 0)  # 25 of 26 = 96 %: locations are private; "gt" keeps waiting for its own evidence
    assert pooled_private_types(stats, candidates) == {"gu", "gc", "gq"}
    # one type's decisions are not the category's; OTHER (numbers, laws, languages) and quasi-identifiers never
    # pool: a meeting's private speakers and surnames decide its other name types, not its numbers
    assert pooled_private_types({"gu": (30, 0)}, candidates) == set()
    assert pooled_private_types({"SPEAKER": (300, 0), "SURNAME": (10, 0)}, ["CARDINAL", "LANGUAGE", "FIRST_NAME"]) \
        == {"FIRST_NAME"}
    assert pooled_private_types({"OCCUPATION": (10, 0), "NATIONALITY": (10, 0)}, ["OCCUPATION"]) \
        == set()


def test_cnec_numbers_and_artifacts_are_learned_with_their_supertype() -> None:
    """CNEC splits numbers ten ways (cardinal, ordinal, age, score …): a project masking numbers learns them once."""
    from psan.tool.decisions.suggest import learning_pool, pooled_private_types
    assert learning_pool("nc") == learning_pool("n_") == learning_pool("no") != learning_pool("oa")
    assert learning_pool("oa") == learning_pool("op") and learning_pool("gu") == learning_pool("gc")
    # not pooled: OntoNotes' numbers (one coarse OTHER with languages and laws), nationalities ("pc"), contacts
    assert learning_pool("CARDINAL") is None and learning_pool("pc") is None and learning_pool("me") is None
    numbers = {"nc": (7, 0), "no": (5, 0)}
    candidates = ["nb", "na", "ns", "oa", "CARDINAL"]
    assert pooled_private_types(numbers, candidates) == {"nb", "na", "ns"}
    # a score type the project decides public mostly stays out, and the numbers' pool does not need it
    assert pooled_private_types({**numbers, "ns": (2, 6)}, candidates) == {"nb", "na"}
    assert pooled_private_types({"nc": (12, 0)}, candidates) == set()  # one type is no pool


def test_types_of_two_tag_sets_are_not_learned_together() -> None:
    """Court decisions: spaCy's PERSON (judges, counsel: 4 in 5 private) is no sibling of psan's "Mr X"."""
    from psan.tool.decisions.suggest import joinable_pools, learning_pool, pooled_private_types
    assert learning_pool("PERSON") != learning_pool("TITLED_NAME") == learning_pool("SURNAME")
    assert learning_pool("gu") != learning_pool("CITY") and learning_pool("ps") != learning_pool("PERSON")
    names = {"TITLED_NAME": (10, 0), "SURNAME": (5, 0), "PERSON": (4, 1)}
    assert pooled_private_types(names, ["PERSON", "FIRST_NAME"]) == {"FIRST_NAME"}
    # CNEC's pools speak for their whole category: a surname or a street psan found joins them (its decisions
    # still count in its own pool only), a CNEC type never joins another tag set's pool
    assert joinable_pools("SURNAME") == {learning_pool("SURNAME"), learning_pool("ps")}
    assert joinable_pools("ps") == {learning_pool("ps")} and joinable_pools("pc") == frozenset()
    cnec_places = {"gu": (8, 0), "gc": (4, 0)}
    assert pooled_private_types(cnec_places, ["STREET", "CITY", "GPE", "gq"]) == {"STREET", "CITY", "GPE", "gq"}
    assert pooled_private_types({"CITY": (8, 0), "STREET": (4, 0)}, ["gu", "GPE", "REGION"]) == {"REGION"}


def test_one_early_false_alarm_does_not_keep_a_type_out_of_its_private_category() -> None:
    """A greeting recognized as a surname (one public "ps" decision) must not make every later surname a judgment."""
    from psan.tool.decisions.suggest import agrees_with_private_pool, pooled_private_types
    persons = {"P": (30, 0), "pf": (20, 0)}
    assert pooled_private_types({**persons, "ps": (0, 1)}, ["ps"]) == set()  # nothing else known yet
    assert pooled_private_types({**persons, "ps": (2, 1)}, ["ps"]) == {"ps"}
    assert pooled_private_types({**persons, "ps": (5, 2)}, ["ps"]) == {"ps"}
    # a type whose own decisions are clearly less private than a learned category keeps waiting
    assert pooled_private_types({**persons, "ps": (5, 5)}, ["ps"]) == set()
    assert agrees_with_private_pool(0, 0) and agrees_with_private_pool(30, 0)
    assert not agrees_with_private_pool(0, 2) and not agrees_with_private_pool(1, 1)
    assert agrees_with_private_pool(20, 3) and not agrees_with_private_pool(10, 5)
