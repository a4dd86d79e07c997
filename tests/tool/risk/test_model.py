"""The risk model reads everything until the project has shown enough, then learns what hides a mention."""
from psan.tool.risk import RiskModel, SentenceView, sentence_features
from psan.tool.risk.model import MIN_HIT_SENTENCES, MIN_READ_SENTENCES


def _view(text: str, covered: set[int] = frozenset()) -> SentenceView:
    words = text.split()
    return SentenceView(words, [i in covered for i in range(len(words))])


def test_only_uncovered_words_are_features():
    feats = sentence_features(_view("The applicant Smith met Jones", covered={4}))
    assert "w=smith" in feats and "w=jones" not in feats
    assert feats["uncovered_Xx"] > 0  # "Smith" inside the sentence; "The" starts it and does not count


def test_untrained_model_says_read_everything():
    model = RiskModel().fit([_view("a b")] * (MIN_READ_SENTENCES - 1), [True] * MIN_HIT_SENTENCES + [False] * 189)
    assert not model.ready
    assert model.predict([_view("nothing here")]) == [1.0]


def test_learns_which_sentences_hide_names():
    hit = [_view(f"the witness Novak{i} said so") for i in range(60)]
    calm = [_view(f"the court dismissed the appeal number {i} today") for i in range(300)]
    model = RiskModel().fit(hit + calm, [True] * len(hit) + [False] * len(calm))
    assert model.ready
    risky, safe = model.predict([_view("the witness Dvorak said so"), _view("the court dismissed the claim")])
    assert risky > 0.5 > safe


def test_explains_a_risky_sentence_by_its_uncovered_words():
    hit = [_view(f"the witness Novak{i} said so") for i in range(60)]
    calm = [_view(f"the court dismissed the appeal number {i} today") for i in range(300)]
    model = RiskModel().fit(hit + calm, [True] * len(hit) + [False] * len(calm))
    reasons = model.explain(_view("the witness Dvorak said so"))
    assert reasons and any(r in ("w=witness", "prev=witness|Xx", "uncovered_Xx") for r in reasons)
    assert RiskModel().explain(_view("a b")) == []


def test_rare_hits_give_every_sentence_the_hit_rate():
    """Enough read but too few hand marks to learn where they hide: the same risk everywhere, the hit rate per read
    sentence as Jeffreys' posterior mean (0 in 1,000: 0.5 / 1,000, never 0; 9 in 1,000: 9.5 / 1,000)."""
    read = [_view(f"plain sentence {i}") for i in range(1000)]
    model = RiskModel().fit(read, [False] * 1000)
    assert model.ready
    (risk,) = set(model.predict([_view("anything at all"), _view("the witness Novak said so")]))
    assert risk == 0.5 / 1000
    few = RiskModel().fit(read, [i < MIN_HIT_SENTENCES - 1 for i in range(1000)])
    assert few.ready and few.predict([_view("x")]) == [(MIN_HIT_SENTENCES - 0.5) / 1000]
    assert few.explain(_view("x")) == []


def test_risks_of_sentences_it_never_saw_mean_what_they_say():
    """Calibrated on folds it did not learn from: where 1 sentence in 25 of a kind hides a name, the model's risk
    of new sentences of that kind is near 1 in 25, although every hit it learned from had words of its own."""
    import random
    rng = random.Random(7)

    def sentence(i: int, hit: bool) -> SentenceView:
        filler = " ".join(f"w{rng.randrange(3000)}" for _ in range(8))
        name = f" the Name{i} " if hit else " the "
        return _view(f"it was {filler}{name}said")

    hits = [i % 25 == 0 for i in range(2000)]
    model = RiskModel().fit([sentence(i, h) for i, h in enumerate(hits)], hits)
    fresh = [sentence(10_000 + i, i % 25 == 0) for i in range(1000)]
    mean = sum(model.predict(fresh)) / len(fresh)
    assert 0.9 / 25 < mean < 1.1 / 25  # uncalibrated: 0.84 / 25


def test_fitting_on_the_used_columns_only_changes_no_risk():
    """The model fits on the hashed columns its training sentences use; the same model on all 2^18 columns gives
    the same probabilities (to the solver's tolerance), on sentences with words it never saw too."""
    import random

    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.feature_extraction import FeatureHasher
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    from psan.tool.risk.model import CALIBRATION_FOLDS, FEATURES
    rng = random.Random(11)

    def sentence(hit: bool) -> SentenceView:
        words = [rng.choice(["the", "court", "held", "a", "claim", "of", "Brno", "Article"]) for _ in range(12)]
        if hit:
            words[rng.randrange(12)] = f"Name{rng.randrange(400)}"
        return SentenceView(words, [rng.random() < 0.2 for _ in words], rng.randrange(3))

    hits = [i % 9 == 0 for i in range(MIN_READ_SENTENCES + 60)]
    read = [sentence(h) for h in hits]
    model = RiskModel().fit(read, hits)
    every_column = make_pipeline(FeatureHasher(n_features=FEATURES, alternate_sign=False),
                                 CalibratedClassifierCV(LogisticRegression(solver="liblinear", max_iter=1000),
                                                        method="sigmoid", cv=CALIBRATION_FOLDS, ensemble=False))
    every_column.fit([sentence_features(s) for s in read], hits)
    new = [sentence(rng.random() < 0.3) for _ in range(200)]
    ours = model.predict(new)
    theirs = every_column.predict_proba([sentence_features(s) for s in new])[:, 1]
    assert max(abs(a - b) for a, b in zip(ours, theirs, strict=True)) < 1e-5


def test_words_only_rules_made_public_are_features_of_their_own():
    """A name can hide under a span a rule released ("Turkish" in "a Turkish national"): its words count apart
    from the uncovered ones, and a word a person's private span covers counts as neither."""
    words = "by a Turkish national , Mr Novak".split()
    covered = [False, False, True, True, False, True, True]
    public = [False, False, True, True, False, False, False]
    feats = sentence_features(SentenceView(words, covered, 1, public))
    assert feats["pub=turkish"] == 1.0 and feats["pub=national"] == 1.0
    assert not any(k.startswith("pub=") and k not in ("pub=turkish", "pub=national") for k in feats)
    assert "w=turkish" not in feats and "w=novak" not in feats
    assert feats["public_words"] > sentence_features(SentenceView(words, covered, 1))["public_words"] == 0.0


def test_a_model_learns_hits_under_spans_rules_made_public():
    hit = [SentenceView(f"a Turkish national named {i}".split(), [False, True, True, False, False], 0,
                        [False, True, True, False, False]) for i in range(40)]
    calm = [SentenceView(f"a Strasbourg court named {i}".split(), [False, True, True, False, False], 0,
                         [False, True, True, False, False]) for i in range(300)]
    model = RiskModel().fit(hit + calm, [True] * len(hit) + [False] * len(calm))
    risky, safe = model.predict([hit[0], calm[0]])
    assert risky > 0.5 > safe
    assert "pub=turkish" in model.explain(hit[0])
