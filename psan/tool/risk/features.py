"""What a sentence shows about the risk that it hides a personal mention no span covers.

Why these features (the Tacita approach, thesis seed ``003``: dictionary, word shape and context words, but
per sentence): a mention nobody found is a word no span covers, so only uncovered words count; its shape
(capitalised inside the sentence, digits, all capitals) and the words around it ("born in", "a lawyer",
"Mr") are what a person's hand marks teach the project's model.  A mention can also hide under a span that only
a rule made public (the name "Turkish" inside "a Turkish national" released by a type rule): nobody looked at
it there, so the words of such spans are features of their own (``pub=``), apart from the uncovered ones.
Counts are log-scaled so that one long sentence does not outweigh its words.
"""
from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from psan.tool.text.document import Token

__all__ = ["SentenceView", "TextWords", "sentence_features"]


class TextWords(Sequence[str]):
    """The words of tokens ``[first, end)`` of a text, sliced only when read.

    Why: a project's reading plan holds a view of every sentence, but the risk model reads the words of only
    those it has not scored yet; slicing every token of a large project on every request cost more than the
    rest of the plan.
    """

    __slots__ = ("_text", "_tokens", "_first", "_end")

    def __init__(self, text: str, tokens: Sequence[Token], first: int, end: int) -> None:
        self._text, self._tokens, self._first, self._end = text, tokens, first, end if end > first else first

    def __len__(self) -> int:
        return self._end - self._first

    def __iter__(self) -> Iterator[str]:
        text = self._text
        return (text[t.start:t.end] for t in self._tokens[self._first:self._end])

    def __getitem__(self, index):  # type: ignore[override]  # noqa: ANN001, ANN204 - int or slice, as list's
        return list(self)[index]


@dataclass(frozen=True, slots=True)
class SentenceView:
    """One sentence as the risk model sees it: its words and which of them a span covers."""

    words: Sequence[str]
    #: per word: some span (public, private or undecided) covers it
    covered: Sequence[bool]
    #: spans in the sentence that are private or undecided (a sentence about a person tends to name more)
    private_spans: int = 0
    #: per word: only spans that rules made public, with no person's decision, cover it (empty: none does)
    public: Sequence[bool] = ()


def _shape(word: str) -> str:
    """A coarse word shape: ``Xx`` capitalised, ``X`` all capitals, ``d`` digits, ``x`` lower, ``.`` other."""
    if any(ch.isdigit() for ch in word):
        return "d"
    if word[:1].isupper():
        return "X" if len(word) > 1 and word.isupper() else "Xx"
    if word[:1].isalpha():
        return "x"
    return "."


@lru_cache(maxsize=1 << 16)
def _shape_and_lower(word: str) -> tuple[str, str]:
    """A word's shape and its lower case, kept per word.

    Why: a project's reading plan scores every unread sentence when a process first plans it, and a project's
    words repeat (a 10^6-token project has tens of thousands of distinct words): testing each token's characters
    again cost half of the first plan.
    """
    return _shape(word), word.lower()


def sentence_features(sentence: SentenceView) -> dict[str, float]:
    """Feature name → value for one sentence (hashed downstream, so any word may be a feature)."""
    feats: dict[str, float] = {"bias": 1.0, "len": math.log1p(len(sentence.words)),
                               "private_spans": math.log1p(sentence.private_spans)}
    counts = {"Xx": 0, "X": 0, "d": 0}
    first_alpha = next((i for i, w in enumerate(sentence.words) if w[:1].isalnum()), 0)
    previous = "<s>"
    public = sentence.public or (False,) * len(sentence.words)
    public_words = 0
    for i, (word, covered, by_rule) in enumerate(zip(sentence.words, sentence.covered, public, strict=True)):
        shape, lower = _shape_and_lower(word)
        if shape == ".":
            continue
        if not covered:
            feats[f"w={lower}"] = 1.0
            if shape in counts and not (shape == "Xx" and i == first_alpha):
                counts[shape] += 1
                feats[f"prev={previous}|{shape}"] = 1.0
        elif by_rule:
            feats[f"pub={lower}"] = 1.0
            public_words += 1
        previous = lower
    for shape, n in counts.items():
        feats[f"uncovered_{shape}"] = math.log1p(n)
    feats["public_words"] = math.log1p(public_words)
    return feats
