"""Voting: rule matches + person decisions -> annotations -> private regions.

Semantics (thesis sections 1.4 and 3.4; tested in ``tests/tool/test_voting.py``):

* An :class:`Annotation` is one token span.  All rules that matched exactly
  that span vote on it; its **rule level** is the sum of their confidences, except that
  a person's public word rule outranks unauthored private NE-type votes
  (:mod:`psan.tool.decisions.precedence`).
* :class:`Thresholds` map the level to a decision: ``level >= public`` →
  PUBLIC, ``level <= private`` → PRIVATE, otherwise SUSPICIOUS (defaults +1/−1,
  so a zero-confidence "lookup" rule alone yields SUSPICIOUS).
* A person's **token-level decision** on a span always wins over the rules
  for *that* span (it is made with context).  It does not change other spans.
* Nesting: the final decision of a *token* is PRIVATE iff at least one span
  covering it is finally PRIVATE.  So a span a person made PUBLIC that
  contains a private nested span still outputs the nested one as private
  (they are different spans), and a PUBLIC span nested inside a PRIVATE one
  is covered by the outer span.
* Overlapping (nested or crossing) private spans merge into one
  :class:`PrivateRegion`; its label and category come from the outermost
  span (the longest; ties → earliest start).  Spans that only touch are not
  merged, so "[Jan Novák] [Praha]" stays two regions with their own labels.
* SUSPICIOUS spans are output as PUBLIC (thesis 3.4.2: undecided spans are
  taken as public in the downloaded document); pass
  ``suspicious_as=Decision.PRIVATE`` for a conservative export.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from psan.tool.morph.lemma import Lemmatizer
from psan.tool.text.document import Category, Decision, Document

from .precedence import rule_level
from .rules import RuleMatch, RuleSet

__all__ = [
    "Thresholds",
    "TokenDecision",
    "Annotation",
    "PrivateRegion",
    "annotate",
    "final_decision",
    "decided_regions",
]


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Per-project mapping of a rule level to a decision."""

    public: float = 1.0
    private: float = -1.0

    def __post_init__(self) -> None:
        if not self.private < self.public:
            raise ValueError(f"private threshold {self.private} must be below public threshold {self.public}")

    def classify(self, level: float) -> Decision:
        if level >= self.public:
            return Decision.PUBLIC
        if level <= self.private:
            return Decision.PRIVATE
        return Decision.SUSPICIOUS


DEFAULT_THRESHOLDS = Thresholds()


@dataclass(frozen=True, slots=True)
class TokenDecision:
    """A person's contextual decision on one token span (PUBLIC or PRIVATE)."""

    first_token: int
    end_token: int
    decision: Decision
    label: int | None = None
    category: Category | None = None

    def __post_init__(self) -> None:
        if self.decision not in (Decision.PUBLIC, Decision.PRIVATE):
            raise ValueError("a token-level decision is PUBLIC or PRIVATE")
        if not 0 <= self.first_token < self.end_token:
            raise ValueError(f"bad token range [{self.first_token}, {self.end_token})")


@dataclass(slots=True)
class Annotation:
    """One span with its votes.

    ``rule_label`` is the label of the strongest (largest ``|confidence|``,
    then lowest id) labelled rule; ``types`` are the entity types found
    exactly on this span.
    """

    first_token: int
    end_token: int
    rule_ids: tuple[int, ...] = ()
    rule_level: float = 0.0
    token_decision: Decision | None = None
    token_label: int | None = None
    rule_label: int | None = None
    category: Category = Category.OTHER
    types: tuple[str, ...] = ()

    @property
    def label(self) -> int | None:
        """Person's label if given, otherwise the rules' label."""
        return self.token_label if self.token_label is not None else self.rule_label

    @property
    def source(self) -> str:
        """``USER`` if a person decided the span, else ``RULE`` (thesis 3.4)."""
        return "USER" if self.token_decision is not None else "RULE"


def final_decision(annotation: Annotation, thresholds: Thresholds = DEFAULT_THRESHOLDS) -> Decision:
    """The span's own decision: the person's if any, else the rule vote."""
    if annotation.token_decision is not None:
        return annotation.token_decision
    return thresholds.classify(annotation.rule_level)


def annotate(doc: Document, ruleset: RuleSet, token_decisions: Iterable[TokenDecision] = (),
             thresholds: Thresholds = DEFAULT_THRESHOLDS, *,
             lemmatizer: Lemmatizer | Sequence[str] | None = None,
             matches: Iterable[RuleMatch] | None = None) -> list[Annotation]:
    """Merge rule matches and person decisions into one annotation per span.

    ``matches`` may be passed when already computed (e.g. stored in the
    database); otherwise ``ruleset.match(doc, lemmatizer)`` runs, leaving out the matches a span the
    person decided private covers (:func:`psan.tool.decisions.rules.drop_covered`).
    ``thresholds`` is accepted for symmetry with :func:`final_decision`;
    annotations store raw levels so a threshold change needs no re-annotation.
    Result sorted by ``(first_token, end_token)``.
    """
    del thresholds  # levels are stored raw; decisions are derived on demand
    n_tokens = len(doc.tokens)
    token_decisions = list(token_decisions)
    if matches is None:
        matches = ruleset.match(doc, lemmatizer,
                                private=[(td.first_token, td.end_token) for td in token_decisions
                                         if td.decision is Decision.PRIVATE],
                                decided=[(td.first_token, td.end_token) for td in token_decisions])
    entity_types: dict[tuple[int, int], list[str]] = {}
    entity_category: dict[tuple[int, int], Category] = {}
    for ent in doc.entities:
        key = (ent.first_token, ent.end_token)
        entity_types.setdefault(key, []).append(ent.type)
        entity_category.setdefault(key, ent.category)

    spans: dict[tuple[int, int], Annotation] = {}
    person_category: set[tuple[int, int]] = set()
    for m in matches:
        key = (m.first_token, m.end_token)
        ann = spans.get(key)
        if ann is None:
            ann = spans[key] = Annotation(m.first_token, m.end_token)
        ids = sorted(set(ann.rule_ids) | set(m.rule_ids))
        ann.rule_ids = tuple(ids)
        all_rules = [ruleset[rid] for rid in ids]
        ann.rule_level = rule_level(all_rules, ruleset.blocking)
        labelled = sorted((r for r in all_rules if r.label is not None), key=lambda r: (-abs(r.confidence), r.id))
        ann.rule_label = labelled[0].label if labelled else None
    for td in token_decisions:
        if td.end_token > n_tokens:
            raise ValueError(f"token decision [{td.first_token}, {td.end_token}) beyond {n_tokens} tokens")
        key = (td.first_token, td.end_token)
        ann = spans.get(key)
        if ann is None:
            ann = spans[key] = Annotation(td.first_token, td.end_token)
        ann.token_decision = td.decision
        ann.token_label = td.label
        if td.category is not None:
            ann.category = td.category
            person_category.add(key)
    for key, ann in spans.items():
        ann.types = tuple(entity_types.get(key, ()))
        if key not in person_category:
            ann.category = _category(ann, ruleset, entity_category.get(key))
    return [spans[k] for k in sorted(spans)]


def _category(ann: Annotation, ruleset: RuleSet, entity_category: Category | None) -> Category:
    """Entity category on the exact span, else the strongest rule's category, else OTHER."""
    if entity_category is not None:
        return entity_category
    with_cat = sorted((ruleset[rid] for rid in ann.rule_ids if ruleset[rid].category is not None),
                      key=lambda r: (-abs(r.confidence), r.id))
    return with_cat[0].category if with_cat else Category.OTHER  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class PrivateRegion:
    """A maximal run of overlapping private spans, ready for output.

    ``start``/``end`` are character offsets (end exclusive); ``token_spans``
    the character ranges of its tokens (for one-tag-per-token output).
    """

    start: int
    end: int
    category: Category = Category.OTHER
    label: int | None = None
    type: str = ""
    first_token: int = -1
    end_token: int = -1
    token_spans: tuple[tuple[int, int], ...] = field(default=())


def decided_regions(doc: Document, annotations: Iterable[Annotation],
                    thresholds: Thresholds = DEFAULT_THRESHOLDS, *,
                    suspicious_as: Decision = Decision.PUBLIC) -> list[PrivateRegion]:
    """Private character regions of the document, sorted and non-overlapping."""
    if suspicious_as not in (Decision.PUBLIC, Decision.PRIVATE):
        raise ValueError("suspicious_as must be PUBLIC or PRIVATE")
    private: list[Annotation] = []
    for ann in annotations:
        decision = final_decision(ann, thresholds)
        if decision is Decision.SUSPICIOUS:
            decision = suspicious_as
        if decision is Decision.PRIVATE:
            private.append(ann)
    private.sort(key=lambda a: (a.first_token, -a.end_token))
    groups: list[list[Annotation]] = []
    group_end = -1
    for ann in private:
        if groups and ann.first_token < group_end:
            groups[-1].append(ann)
            group_end = max(group_end, ann.end_token)
        else:
            groups.append([ann])
            group_end = ann.end_token
    regions: list[PrivateRegion] = []
    tokens = doc.tokens
    for group in groups:
        first = group[0].first_token
        end = max(a.end_token for a in group)
        outer = min(group, key=lambda a: (-(a.end_token - a.first_token), a.first_token))
        regions.append(PrivateRegion(
            start=tokens[first].start,
            end=tokens[end - 1].end,
            category=outer.category,
            label=outer.label,
            type=outer.types[0] if outer.types else "",
            first_token=first,
            end_token=end,
            token_spans=tuple((t.start, t.end) for t in tokens[first:end]),
        ))
    return regions
