"""The risk that a span a rule made public, in text nobody read, is personal data after all.

Why: the risk model learns where mentions *no span covers* hide; it cannot see a span that a rule made
public.  Such a span is released in clear unread, and if the rule is wrong there, the release leaks it.  A rule
people have contradicted (a person decided private a span the rule had made public: "Turkish" public by a word
rule, private in one judgment's "a Turkish national") is wrong in about the share of the applications people
saw where they contradicted it; an unread application is wrong with that probability.  A rule nobody
contradicted adds no risk: its unread applications are left, as the risk model leaves sentences, to the QA
sample, which counts a wrong public span as a miss.  Nothing is tuned: the rate is the project's own.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = ["RuleRecord", "contradiction_rates", "sentence_rule_risk", "with_rule_risk"]


@dataclass
class RuleRecord:
    """What people saw of one public rule's applications."""

    #: applications in text a person read (decided or left as the rule made them)
    seen: int = 0
    #: of those, applications a person decided private (or covered with a private span)
    contradicted: int = 0


def contradiction_rates(records: Mapping[int, RuleRecord]) -> dict[int, float]:
    """Rule id → the share of its seen applications people contradicted (contradicted rules only)."""
    return {rule: min(1.0, r.contradicted / max(r.seen, r.contradicted))
            for rule, r in records.items() if r.contradicted > 0}


def sentence_rule_risk(span_rules: Iterable[Iterable[int]], rates: Mapping[int, float]) -> float:
    """The probability that at least one of a sentence's rule-public spans is wrong.

    ``span_rules``: per undecided span public by rules, the public rules voting for it; a span is as doubtful as
    its most contradicted rule (the others voted the same way and may be right only where it is).
    """
    keep = 1.0
    for rules in span_rules:
        keep *= 1.0 - max((rates.get(r, 0.0) for r in rules), default=0.0)
    return 1.0 - keep


def with_rule_risk(model_risk: float, rule_risk: float) -> float:
    """A sentence's risk from both sources: a mention nobody marked, or a wrong public span (independent)."""
    return 1.0 - (1.0 - model_risk) * (1.0 - rule_risk)
