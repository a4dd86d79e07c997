"""Which unread sentences a person reads in full, and which are left to the QA sample.

Why a budget and not a threshold: the release target is a share of missed mentions (say 0.5 %), so the
sentences left unread may together be expected to hide at most half of that share of the project's mentions
(the other half is the QA bound's room for chance).  The riskiest sentences are read until the expected
misses of the rest fit the budget; no constant is tuned on a corpus.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["EXPECTED_SHARE_OF_TARGET", "Routing", "route"]

#: the share of the release target the unread text may be expected to miss
EXPECTED_SHARE_OF_TARGET = 0.5


@dataclass(frozen=True, slots=True)
class Routing:
    """Indexes of the sentences to read, and the expected misses left in the others."""

    read: tuple[int, ...]
    expected_missed: float


def route(risks: Sequence[float], mentions: int, target: float) -> Routing:
    """Read the riskiest sentences until the expected misses of the others are within the budget.

    ``risks``: per unread sentence, the probability that it hides a mention; ``mentions``: the project's
    masked mentions (the budget is a share of them).
    """
    budget = EXPECTED_SHARE_OF_TARGET * target * max(mentions, 0)
    order = sorted(range(len(risks)), key=lambda i: -risks[i])
    remaining = float(sum(risks))
    read: list[int] = []
    for i in order:
        if remaining <= budget:
            break
        read.append(i)
        remaining -= risks[i]
    return Routing(tuple(sorted(read)), max(remaining, 0.0))
