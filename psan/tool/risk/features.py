"""What a sentence shows about the risk that it hides a personal mention no span covers.

Why these features (the Tacita approach, thesis seed ``003``: dictionary, word shape and context words, but
per sentence): a mention nobody found is a word no span covers, so only uncovered words count; its shape
(capitalised inside the sentence, digits, all capitals) and the words around it ("born in", "a lawyer",
"Mr") are what a person's hand marks teach the project's model.  Counts are log-scaled so that one long
sentence does not outweigh its words.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["SentenceView", "sentence_features"]


@dataclass(frozen=True, slots=True)
class SentenceView:
    """One sentence as the risk model sees it: its words and which of them a span covers."""

    words: Sequence[str]
    #: per word: some span (public, private or undecided) covers it
    covered: Sequence[bool]
    #: spans in the sentence that are private or undecided (a sentence about a person tends to name more)
    private_spans: int = 0


def _shape(word: str) -> str:
    """A coarse word shape: ``Xx`` capitalised, ``X`` all capitals, ``d`` digits, ``x`` lower, ``.`` other."""
    if any(ch.isdigit() for ch in word):
        return "d"
    if word[:1].isupper():
        return "X" if len(word) > 1 and word.isupper() else "Xx"
    if word[:1].isalpha():
        return "x"
    return "."


def sentence_features(sentence: SentenceView) -> dict[str, float]:
    """Feature name → value for one sentence (hashed downstream, so any word may be a feature)."""
    feats: dict[str, float] = {"bias": 1.0, "len": math.log1p(len(sentence.words)),
                               "private_spans": math.log1p(sentence.private_spans)}
    counts = {"Xx": 0, "X": 0, "d": 0}
    first_alpha = next((i for i, w in enumerate(sentence.words) if w[:1].isalnum()), 0)
    previous = "<s>"
    for i, (word, covered) in enumerate(zip(sentence.words, sentence.covered, strict=True)):
        shape = _shape(word)
        if not covered and shape != ".":
            lower = word.lower()
            feats[f"w={lower}"] = 1.0
            if shape in counts and not (shape == "Xx" and i == first_alpha):
                counts[shape] += 1
                feats[f"prev={previous}|{shape}"] = 1.0
        if shape != ".":
            previous = word.lower()
    for shape, n in counts.items():
        feats[f"uncovered_{shape}"] = math.log1p(n)
    return feats
