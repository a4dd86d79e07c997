"""A public rule people contradicted makes its unread applications as doubtful as its record; one nobody
contradicted adds nothing."""
from hypothesis import given
from hypothesis import strategies as st

from psan.tool.risk.rule_errors import RuleRecord, contradiction_rates, sentence_rule_risk, with_rule_risk


def test_only_contradicted_rules_have_a_rate_and_it_is_their_share_of_what_people_saw():
    rates = contradiction_rates({1: RuleRecord(seen=4, contradicted=1), 2: RuleRecord(seen=9, contradicted=0),
                                 3: RuleRecord(seen=0, contradicted=2)})
    assert rates == {1: 0.25, 3: 1.0}


def test_a_span_is_as_doubtful_as_its_most_contradicted_rule_and_spans_add_up():
    rates = {1: 0.5, 2: 0.1}
    assert sentence_rule_risk([(1, 2)], rates) == 0.5
    assert sentence_rule_risk([(7,)], rates) == 0.0
    assert abs(sentence_rule_risk([(1,), (2,)], rates) - (1 - 0.5 * 0.9)) < 1e-12
    assert sentence_rule_risk([], rates) == 0.0


@given(st.floats(0, 1), st.floats(0, 1))
def test_the_combined_risk_is_a_probability_no_lower_than_either_part(model, rules):
    risk = with_rule_risk(model, rules)
    assert 0.0 <= risk <= 1.0
    assert risk >= max(model, rules) - 1e-12
