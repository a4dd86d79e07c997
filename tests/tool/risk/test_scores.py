"""A model's scores kept between plans are the scores it would give, and only new views are scored."""
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.risk import RiskModel, ScoreMemo, SentenceView, TextWords
from psan.tool.text.document import Token


class CountingModel(RiskModel):
    """A real risk model that counts the views it scores."""

    def __init__(self) -> None:
        super().__init__()
        self.scored = 0

    def predict(self, sentences):  # noqa: ANN001, ANN201 - as RiskModel's
        self.scored += len(sentences)
        return super().predict(sentences)


def _view(rng: random.Random, hit: bool) -> SentenceView:
    words = [rng.choice(["the", "court", "held", "that", "a", "claim"]) for _ in range(rng.randint(3, 12))]
    covered = [False] * len(words)
    if hit:
        words[rng.randrange(len(words))] = rng.choice(["Novak", "Dvorak", "Svoboda"])
    return SentenceView(words, covered)


def _fitted(seed: int) -> CountingModel:
    rng = random.Random(seed)
    hits = [i % 7 == 0 for i in range(300)]
    model = CountingModel()
    model.fit([_view(rng, h) for h in hits], hits)
    assert model.ready
    return model


def test_kept_scores_are_the_models_and_only_new_keys_are_scored():
    model, rng, memo = _fitted(1), random.Random(2), ScoreMemo()
    views = [_view(rng, i % 5 == 0) for i in range(40)]
    keys = [("s", i) for i in range(40)]
    expected = RiskModel.predict(model, views)
    model.scored = 0
    assert memo.scores(model, views, keys) == expected
    assert model.scored == 40
    changed = _view(rng, True)
    views2, keys2 = [*views[:39], changed], [*keys[:39], ("s", 39, "changed")]
    assert memo.scores(model, views2, keys2) == RiskModel.predict(model, views2)
    assert model.scored == 40 + 1  # the changed sentence only (the reference predictions call the base class)


def test_a_new_model_or_no_key_scores_again():
    first, second, rng, memo = _fitted(1), _fitted(3), random.Random(4), ScoreMemo()
    views = [_view(rng, i % 3 == 0) for i in range(10)]
    keys = [("s", i) for i in range(10)]
    memo.scores(first, views, keys)
    second.scored = 0
    assert memo.scores(second, views, keys) == RiskModel.predict(second, views)
    assert second.scored == 10
    second.scored = 0
    memo.scores(second, views, [None] * 10)
    assert second.scored == 10


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="ab Čx1\u00a0", min_size=1, max_size=6), max_size=30), st.data())
def test_text_words_read_as_the_slices_of_their_tokens(words, data):
    text, tokens, at = "", [], 0
    for i, word in enumerate(words):
        text += word + " "
        tokens.append(Token(i, at, at + len(word)))
        at += len(word) + 1
    first = data.draw(st.integers(0, len(tokens)))
    end = data.draw(st.integers(first, len(tokens)))
    lazy = TextWords(text, tokens, first, end)
    eager = [text[t.start:t.end] for t in tokens[first:end]]
    assert list(lazy) == eager and len(lazy) == len(eager)
    if eager:
        assert lazy[0] == eager[0] and lazy[-1] == eager[-1] and lazy[1:] == eager[1:]
