"""A reading window says why it is read in words a person understands, for every feature the risk model names."""
from psan.annotate.reading_reasons import routing_json
from psan.store.review.risk_review import Reading
from psan.tool.risk import SentenceView, sentence_features


def test_every_feature_a_sentence_can_raise_its_risk_by_is_said_in_words(clean_app):
    view = SentenceView("Yesterday Mr Novak met a Turkish national , 42 , in ABC".split(),
                        [False, False, False, False, False, True, True, False, False, False, False, False], 1,
                        [False, False, False, False, False, True, True, False, False, False, False, False])
    names = tuple(n for n in sentence_features(view) if n != "bias")
    with clean_app.test_request_context():
        why = routing_json(Reading(None, "risk", 0.5, names))["why"]  # type: ignore[arg-type]
    assert len(why) == len(names)
    assert "the word “turkish”, released by a rule where nobody checked it" in why
    assert "the word “novak”, which no span covers" in why
