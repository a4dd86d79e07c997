"""A span's rule level: the sum of its rules' votes, where a person's word rule outranks a learned type and a
lookup keeps its words from being released.

Why: an annotator who decided words public by word type (``S``: a WORD_TYPE rule at +1 that they
authored) has decided exactly those words; an entity type the project learned private on its own
(:func:`psan.store.annotation.suggestions.learn_type_rules`: an NE_TYPE rule nobody authored, moved from 0
to −1) is evidence about a whole type.  Summed, the two cancelled (level 0, suspicious) and the person
was asked about the same words at every occurrence ("Overleaf" 27 times in one ELITR run).  The more
specific rule a person authored takes precedence: on a span one of their public word rules matches,
the unauthored private NE-type votes do not count.

What stays as it was (the precedence never applies):

* a span with an entity type in ``blocking`` (addresses, dates, IDs, contacts, the admin's sensitive
  list, the types private by default: :func:`psan.store.admin.rules.load_ruleset` fills it): nothing
  a word rule cannot already release alone is released for them;
* a word rule whose words hold a digit (a date of birth, "Praha 1", a number): may be an address or a date;
* NE-type votes a person chose (an annotator's "by NE type", an admin's edit: their rule has an
  author) and private word rules: they are summed as before.

A word rule at 0 (a lookup: the words of a span a person decided private, made suspicious where they recur)
keeps every span it matches at most suspicious, whatever votes public there.  Why: a person who finds the words
private in this document has contradicted the public rules on them here (a court decided public by word type in
other judgments, the applicant's employer in this one); summed, the public vote released the other mentions in
the same document unseen, and a person reading found them one by one.  Private votes are summed as before.

A person's token decision still beats every rule (:func:`psan.tool.decisions.voting.final_decision`).  The same
semantics are computed in SQL by :mod:`psan.store.annotation.apply_rule` (targeted re-application;
``tests/store/test_apply_rule.py`` checks both agree).
"""
from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from .rules import SEQUENCE_KINDS, Rule, RuleType
from .sensitivity import sensitive_type

__all__ = ["rule_level", "asks_a_person", "persons_public_words", "yields_to_person", "DIGIT"]

#: a word rule with a digit gets no precedence (SQL: the same character class, ``~ '[0-9]'``)
DIGIT = re.compile("[0-9]")


def persons_public_words(rule: Rule) -> bool:
    """A public word rule a person authored, on words without a digit."""
    return (rule.type in SEQUENCE_KINDS and rule.author is not None and rule.confidence > 0
            and not DIGIT.search(" ".join(rule.condition)))


def asks_a_person(rule: Rule) -> bool:
    """A word rule at 0: exact words a person wants to see (the lookup of a span decided private)."""
    return rule.type in SEQUENCE_KINDS and rule.confidence == 0


def yields_to_person(rule: Rule) -> bool:
    """A private NE-type vote nobody authored (learned, or preset by the system)."""
    return rule.type == RuleType.NE_TYPE.value and rule.author is None and rule.confidence < 0


def _blocks(rule: Rule, blocking: Collection[str] | None) -> bool:
    if rule.type != RuleType.NE_TYPE.value:
        return False
    return sensitive_type(str(rule.condition)) if blocking is None else rule.condition in blocking


def rule_level(rules: Iterable[Rule], blocking: Collection[str] | None = None) -> float:
    """Sum of the votes of the rules that matched exactly one span, in rule-id order (see module docstring).

    ``blocking``: the NE types whose spans get no precedence; ``None``: the built-in sensitive types
    (:func:`psan.tool.decisions.sensitivity.sensitive_type`, for rule sets not loaded from a project).
    """
    ordered = sorted(rules, key=lambda r: r.id)
    if any(persons_public_words(r) for r in ordered) and not any(_blocks(r, blocking) for r in ordered):
        ordered = [r for r in ordered if not yields_to_person(r)]
    level = float(sum(r.confidence for r in ordered))
    if level > 0 and any(asks_a_person(r) for r in ordered):
        return 0.0
    return level
