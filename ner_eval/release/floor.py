"""The least reading any review by risk could have got away with in a finished run: the *reading floor*.

Why: a run's time is mostly reading (0.25 s a token), and review by risk may only leave text unread where a QA
sample then certifies the release bound.  Whatever the risk model, the person must read every sentence that held
a mention nobody's recognizer found (they marked it by hand there: leaving it unread leaks it), and the QA sample
must read enough of the other sentences to certify the target even if they hide nothing.  An oracle that knew
the hand-marked sentences in advance would read exactly those and the smallest sample that certifies with one miss
(:func:`psan.tool.risk.sample_size`, as the app sizes its first sample).  Nothing cheaper is possible with the same
judgments, so a run near its floor cannot be made faster by routing, only by finding more mentions automatically
(fewer hand marks) or by a larger project (the bound's room grows with the mentions).  The floor charges nothing for
what span reviews must show to decide their spans (a sentence with a span but no hand mark is left to the sample),
so it is a lower bound: on a corpus with many candidates outside the hand-marked sentences (court decisions) the real
least reading is higher.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from psan.tool.risk import sample_size

__all__ = ["ReadingFloor", "reading_floor"]


@dataclass(frozen=True, slots=True)
class ReadingFloor:
    """Sentences of the project, those that held a hand-marked mention, and the oracle's reading."""

    sentences: int
    hit_sentences: int
    hit_tokens: int
    #: the sentences the oracle leaves to the QA sample, and the sample that certifies the target with one miss
    qa_population: int
    qa_sample: int
    #: tokens the oracle reads: the hit sentences and the sample (at the mean length of the sampled population)
    tokens_read: float

    def to_dict(self) -> dict[str, float | int]:
        return {k: round(v, 1) if isinstance(v, float) else v for k, v in asdict(self).items()}


def reading_floor(sentences: Sequence[tuple[int, bool]], mentions: int, target: float) -> ReadingFloor:
    """The oracle's reading (see the module docstring) of ``sentences`` ((tokens, held a hand-marked mention)),
    with ``mentions`` masked mentions and the project's ``target`` share of missed mentions."""
    hits = [n for n, hit in sentences if hit]
    rest = [n for n, hit in sentences if not hit]
    sample = sample_size(len(rest), mentions, target) if rest else 0
    mean = sum(rest) / len(rest) if rest else 0.0
    return ReadingFloor(len(sentences), len(hits), sum(hits), len(rest), sample, sum(hits) + sample * mean)
