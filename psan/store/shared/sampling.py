"""The random draws of QA samples: the operating system's randomness, or a seeded generator for evaluation runs.

Why a seed at all: ``ner_eval release`` compares two versions of the app on the same corpus and document order,
and a sample drawn afresh each run made their bounds and leaks differ by chance alone (a 40-document fold's
leaks moved between 2 and 3 from one run of the same code to the next).  A seeded draw is predictable, so it is
refused in production (:func:`psan.runtime.settings.check_config`): an annotator who could predict the sample
could leave the text it will not show unread.
"""
from __future__ import annotations

import random
import secrets


def sample_random(seed: str | None, *parts: object) -> random.Random:
    """The operating system's randomness; with ``seed`` (evaluation only), a generator seeded with it and ``parts``
    (what the draw is: its kind, the project, the sample's number), the same in every run."""
    if not seed:
        return secrets.SystemRandom()
    return random.Random(":".join(map(str, (seed, *parts))))  # noqa: S311  # nosec B311 - evaluation runs only
