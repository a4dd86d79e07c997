"""A sentence's risk features do not depend on the per-word memo of shapes and lower cases.

Why: the memo exists for speed only (a project's first reading plan scores every unread sentence); a wrong shape
or a stale lower case would change what the risk model sees and so which sentences nobody reads.  The property
compares :func:`psan.tool.risk.sentence_features` with a plain per-character form of the same rules.
"""
from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.risk import SentenceView, sentence_features


def _plain_shape(word: str) -> str:
    if any(ch.isdigit() for ch in word):
        return "d"
    if word[:1].isupper():
        return "X" if len(word) > 1 and word.isupper() else "Xx"
    return "x" if word[:1].isalpha() else "."


def _plain_features(sentence: SentenceView) -> dict[str, float]:
    feats = {"bias": 1.0, "len": math.log1p(len(sentence.words)), "private_spans": math.log1p(sentence.private_spans)}
    counts = {"Xx": 0, "X": 0, "d": 0}
    first_alpha = next((i for i, w in enumerate(sentence.words) if w[:1].isalnum()), 0)
    previous, public_words = "<s>", 0
    public = sentence.public or (False,) * len(sentence.words)
    for i, (word, covered, by_rule) in enumerate(zip(sentence.words, sentence.covered, public, strict=True)):
        shape = _plain_shape(word)
        if not covered and shape != ".":
            feats[f"w={word.lower()}"] = 1.0
            if shape in counts and not (shape == "Xx" and i == first_alpha):
                counts[shape] += 1
                feats[f"prev={previous}|{shape}"] = 1.0
        elif by_rule and shape != ".":
            feats[f"pub={word.lower()}"] = 1.0
            public_words += 1
        if shape != ".":
            previous = word.lower()
    for shape, n in counts.items():
        feats[f"uncovered_{shape}"] = math.log1p(n)
    feats["public_words"] = math.log1p(public_words)
    return feats


_WORDS = st.one_of(st.sampled_from(["Smith", "SMITH", "smith", "Praha", "2021", "x2", "²", "Ⅻ", "ǅemal", "İstanbul",
                                    "-", "(", "“", "Ö", "a", ""]),
                   st.text(min_size=1, max_size=6))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_WORDS, st.booleans(), st.booleans()), max_size=25), st.integers(0, 5), st.booleans())
def test_features_equal_the_plain_per_character_form(rows, private_spans, with_public):
    words = [w for w, _, _ in rows]
    covered = [c for _, c, _ in rows]
    public = tuple(p for _, _, p in rows) if with_public else ()
    view = SentenceView(words, covered, private_spans, public)
    # twice: the second call reads the memo the first filled
    assert sentence_features(view) == _plain_features(view)
    assert sentence_features(view) == _plain_features(view)
