"""Inter-annotator agreement of double-annotated windows: span-level F1 and Cohen's κ on tokens, per category.

Why both: F1 over exact spans says whether two people marked the *same mentions* private (a span
marked one token too short is a miss); κ over tokens says how much they agree beyond chance on
*which text* is private, forgiving boundary differences.  Both are computed per category (PERSON,
ADDRESS …) and for all categories together (``ALL``), from the one function :func:`agreement`, which
the dashboard and the release report both call.

Input: each window with its tokens ``[first_token, end_token)`` and each annotator's *version* of it:
the spans that version makes private, with their category.  The caller decides what a version's
private spans are (the web app lists only the spans each annotator decided private).  Public spans
need not be listed: a token is private in a version when a private span of it covers the token.

κ for one category: every token of every window is labelled 1 (covered by a private span of that
category) or 0, once per annotator; p_o is the share of tokens labelled alike, p_e = p1·p2 + (1−p1)·(1−p2)
with p_k the share of 1s of annotator k; κ = (p_o − p_e) / (1 − p_e).  When p_e = 1 (both labelled
every token alike and all the same), κ is 1 (total agreement, nothing to correct for chance).
F1 for one category: 2·|A∩B| / (|A| + |B|) over exact ``(document, first, end)`` spans (symmetric, so it
does not matter who is "gold"); ``None`` when neither marked a span of the category.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

ALL = "ALL"


@dataclass(frozen=True, slots=True)
class PrivateSpan:
    first_token: int
    end_token: int
    category: str


@dataclass(frozen=True, slots=True)
class DoubleWindow:
    """One window annotated twice: its token range and both versions' private spans."""

    document_id: int
    first_token: int
    end_token: int
    first: Sequence[PrivateSpan]
    second: Sequence[PrivateSpan]


@dataclass(frozen=True, slots=True)
class Agreement:
    """Agreement of one category: span counts and F1, token counts and κ."""

    category: str
    spans_first: int
    spans_second: int
    spans_matched: int
    tokens: int
    tokens_agreed: int
    kappa: float | None
    f1: float | None

    @property
    def observed(self) -> float | None:
        return self.tokens_agreed / self.tokens if self.tokens else None


def _kappa(pairs: list[tuple[bool, bool]]) -> tuple[int, float | None]:
    n = len(pairs)
    if n == 0:
        return 0, None
    agreed = sum(1 for a, b in pairs if a == b)
    p1 = sum(1 for a, _ in pairs if a) / n
    p2 = sum(1 for _, b in pairs if b) / n
    po = agreed / n
    pe = p1 * p2 + (1 - p1) * (1 - p2)
    if pe >= 1.0:
        return agreed, 1.0 if po >= 1.0 else 0.0
    return agreed, (po - pe) / (1 - pe)


def _category_agreement(windows: Sequence[DoubleWindow], category: str) -> Agreement:
    def keep(span: PrivateSpan) -> bool:
        return category == ALL or span.category == category

    spans_a: set[tuple[int, int, int]] = set()
    spans_b: set[tuple[int, int, int]] = set()
    pairs: list[tuple[bool, bool]] = []
    for w in windows:
        a = [s for s in w.first if keep(s)]
        b = [s for s in w.second if keep(s)]
        spans_a |= {(w.document_id, s.first_token, s.end_token) for s in a}
        spans_b |= {(w.document_id, s.first_token, s.end_token) for s in b}
        covered_a = {t for s in a for t in range(max(s.first_token, w.first_token), min(s.end_token, w.end_token))}
        covered_b = {t for s in b for t in range(max(s.first_token, w.first_token), min(s.end_token, w.end_token))}
        pairs += [(t in covered_a, t in covered_b) for t in range(w.first_token, w.end_token)]
    agreed, kappa = _kappa(pairs)
    matched = len(spans_a & spans_b)
    total = len(spans_a) + len(spans_b)
    return Agreement(category, len(spans_a), len(spans_b), matched, len(pairs), agreed, kappa,
                     2 * matched / total if total else None)


def agreement(windows: Iterable[DoubleWindow]) -> dict[str, Agreement]:
    """Agreement per category seen in either version, plus :data:`ALL` (every category together)."""
    windows = list(windows)
    categories = sorted({s.category for w in windows for s in (*w.first, *w.second)})
    out = {c: _category_agreement(windows, c) for c in categories}
    out[ALL] = _category_agreement(windows, ALL)
    return out
