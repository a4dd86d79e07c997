"""What the app suggests for a suspicious span, so one key can accept a whole window's suggestions.

Why: most suspicious spans of a window are decided the way the project already decided their
words, their entity type, or the way the learned model predicts.  Showing that suggestion lets
the annotator fix only the wrong ones and accept the rest with one key ("accept the window's
remaining suggestions").  The evidence is the project's own decisions, so the suggestions get
better while people annotate; the order of evidence is from the most to the least specific.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from psan.tool.text.categories import CNEC, category_of, tag_set
from psan.tool.text.document import Category

__all__ = ["Evidence", "suggest_private", "uncertainty", "learned_type_confidence", "pooled_private_types",
           "PRIVATE_CATEGORIES", "POOLED_CATEGORIES", "MIN_POOLED_TYPES", "MIN_TYPE_DECISIONS", "LEARN_TYPE_AFTER",
           "LEARN_TYPE_SHARE", "LEARN_TYPE_BOUND", "POOL_AGREE_BOUND", "LEARN_TYPE_Z", "LEARN_PUBLIC_AFTER",
           "private_share_bound", "agrees_with_private_pool", "learning_pool", "joinable_pools", "learned_pools",
           "POOLED_CNEC_SUPERTYPES"]

#: categories suggested private when nothing else is known
PRIVATE_CATEGORIES = frozenset({Category.PERSON, Category.ID, Category.CONTACT})
#: decisions on an entity type needed before its private share is trusted
MIN_TYPE_DECISIONS = 3


@dataclass(frozen=True, slots=True)
class Evidence:
    """What the project knows about one span."""

    words_private: int = 0  # earlier decisions on the same words (token, word type, entity)
    words_public: int = 0
    type_private: int = 0  # earlier decisions on spans of the same entity type
    type_public: int = 0
    model_p: float | None = None  # the learned model's p(private) for the span, if it has one
    category: Category = Category.OTHER


def suggest_private(ev: Evidence) -> bool:
    """``True``: suggest PRIVATE, ``False``: PUBLIC (ties go to PRIVATE: a wrong "private" leaks nothing)."""
    if ev.words_private or ev.words_public:
        return ev.words_private >= ev.words_public
    if ev.model_p is not None:
        return ev.model_p >= 0.5
    if ev.type_private + ev.type_public >= MIN_TYPE_DECISIONS:
        return ev.type_private >= ev.type_public
    return ev.category in PRIVATE_CATEGORIES


def uncertainty(ev: Evidence) -> float:
    """How unsure the suggestion is, 0 (sure) … 1 (a coin toss): for showing the least sure spans first.

    The most specific evidence :func:`suggest_private` uses, as a smoothed p(private)
    (``(private + 1) / (all + 2)``, so two agreeing decisions are surer than one); with no
    evidence at all the category prior counts as one decision's worth.
    """
    if ev.words_private or ev.words_public:
        p = (ev.words_private + 1) / (ev.words_private + ev.words_public + 2)
    elif ev.model_p is not None:
        p = ev.model_p
    elif ev.type_private + ev.type_public >= MIN_TYPE_DECISIONS:
        p = (ev.type_private + 1) / (ev.type_private + ev.type_public + 2)
    else:
        p = 2 / 3 if ev.category in PRIVATE_CATEGORIES else 1 / 3
    return 1.0 - abs(2.0 * p - 1.0)


#: an entity type decided this many times by people ...
LEARN_TYPE_AFTER = 10
#: ... with at least this private share is decided private automatically ...
LEARN_TYPE_SHARE = 0.95
#: ... and so is a type the project is 95 % sure (one-sided Wilson score bound) is private at least this often,
#: however its first decisions went: 544 of 575 (94.6 %, bound 0.93) are clear, though never 95 % of the count;
#: 60 of 65 (92 %) too, where 0.90 waited for ever at 93 % (CNEC's capitalized words: 174 of 187 decided one by
#: one in one document order, 10 in another); 4 in 5 (tab-dev's spaCy PERSON) never reaches it
LEARN_TYPE_BOUND = 0.85
#: a type joins its category's learned pool unless even the upper bound of its private share is below this
POOL_AGREE_BOUND = 0.90
#: one-sided 95 % normal quantile of the bound
LEARN_TYPE_Z = 1.6449
#: public needs more: this many decisions and never one private (a wrong "public" would leak)
LEARN_PUBLIC_AFTER = 20


def private_share_bound(private: int, public: int, z: float = LEARN_TYPE_Z) -> float:
    """Lower Wilson score bound of the private share of ``private`` out of ``private + public`` decisions.

    Why a bound besides the share: a type's decisions arrive in the order of the documents, and a
    few public ones among the first decisions kept a 94.6 %-private type (tab-dev's dates) below a
    95 % share for ever, for 574 decisions.  A bound grows surer with every decision.
    """
    n = private + public
    if n <= 0:
        return 0.0
    share = private / n
    z2 = z * z
    centre = share + z2 / (2 * n)
    spread = z * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n))
    return max(0.0, (centre - spread) / (1 + z2 / n))


def learned_type_confidence(private: int, public: int) -> float | None:
    """−1 / +1 once the project's decisions on a type are clear enough (see the constants), else ``None``.

    Private: at least :data:`LEARN_TYPE_AFTER` decisions, :data:`LEARN_TYPE_SHARE` of them private, or a
    :func:`private_share_bound` of :data:`LEARN_TYPE_BOUND` (a wrong "private" leaks nothing; it masks a
    span for nothing, so the bound is strict).  Public: :data:`LEARN_PUBLIC_AFTER` decisions, none private.
    """
    total = private + public
    if total < LEARN_TYPE_AFTER:
        return None
    if private >= LEARN_TYPE_SHARE * total or private_share_bound(private, public) >= LEARN_TYPE_BOUND:
        return -1.0
    return 1.0 if private == 0 and total >= LEARN_PUBLIC_AFTER else None


#: categories whose entity types are learned private together (see :func:`pooled_private_types`).  Not OTHER
#: (nor ID, CONTACT, DEMOGRAPHIC, SENSITIVE): OTHER holds numbers, laws, languages and capitalized words side by
#: side, and when psan's speaker slots and surnames still fell to OTHER by name, a meeting's private speakers
#: taught "numbers are private" (ELITR: 807 digits masked for nothing)
POOLED_CATEGORIES = frozenset({Category.PERSON, Category.LOCATION, Category.ORGANIZATION, Category.DATE})
#: CNEC supertypes whose types are learned together though their coarse category is not pooled: numbers
#: (cardinals, ordinals, ages, scores, unclassified numbers) and artifacts (titles of works, products, laws …)
POOLED_CNEC_SUPERTYPES = frozenset({"n", "o"})
#: a category's decisions count as the category's only when they span this many of its types
MIN_POOLED_TYPES = 2


def learning_pool(ne_type: str) -> str | None:
    """The pool whose decisions a type is learned private with (:func:`pooled_private_types`); ``None``: alone.

    A pool is one of :data:`POOLED_CATEGORIES` within one tag set (:func:`psan.tool.text.categories.tag_set`: an
    NER model's, CNEC's, psan's own recognizers'): the types of one tag set divide a category between them,
    types of two tag sets overlap and differ in what they catch.  Court decisions: spaCy's PERSON (judges,
    counsel: 4 in 5 private) pooled with psan's titled names and surnames (nearly all private) was learned
    private with them and masked the judges (tab-dev 1–40: masked precision 0.928 → 0.901).

    Why CNEC's supertypes besides the coarse categories: the Czech NER's tag set is two-level, and its
    numbers (``nc``, ``no``, ``nb`` …) and artifacts (``oa``, ``op``, ``or`` …) are each one kind of thing
    split ten ways.  Their coarse category (OTHER, ID for ``n_``) is no pool, as it also holds unrelated
    types; so in a project that masks numbers each number type was learned on its own, ten decisions each.
    """
    category = category_of(ne_type)
    if category in POOLED_CATEGORIES:
        return f"{tag_set(ne_type)} {category}"
    if ne_type in CNEC and ne_type[0] in POOLED_CNEC_SUPERTYPES:
        return f"CNEC {ne_type[0]}*"
    return None


def joinable_pools(ne_type: str) -> frozenset[str]:
    """The pools that may decide a type private: its own, and for a type of another tag set CNEC's of its category.

    Why CNEC's: it divides each category five to ten ways (first name, surname, nickname …; city, street,
    river …), so its pool is about the category as a whole, and a surname or street psan's recognizers found
    where the Czech NER did not belongs to it.  Their decisions still count in their own pool only: a
    narrow recognizer's spans being private says nothing about a broad type (spaCy's PERSON, with judges).
    """
    own = learning_pool(ne_type)
    if own is None:
        return frozenset()
    category = category_of(ne_type)
    if tag_set(ne_type) != "CNEC" and category in POOLED_CATEGORIES:
        return frozenset({own, f"CNEC {category}"})
    return frozenset({own})


def learned_pools(statistics: Mapping[str, tuple[int, int]]) -> set[str]:
    """The pools whose decisions are, summed, clearly private (see :func:`pooled_private_types`)."""
    pools: dict[str, list[int]] = {}
    for t, (private, public) in statistics.items():
        key = learning_pool(t)
        if key is not None and private + public and agrees_with_private_pool(private, public):
            counts = pools.setdefault(key, [0, 0, 0])
            counts[0] += private
            counts[1] += public
            counts[2] += 1
    return {key for key, (private, public, types) in pools.items()
            if types >= MIN_POOLED_TYPES and learned_type_confidence(private, public) == -1.0}


def pooled_private_types(statistics: Mapping[str, tuple[int, int]], candidates: Iterable[str],
                         learned: set[str] | None = None) -> set[str]:
    """The ``candidates`` to decide private because their pool's decisions are clearly private.

    Why: a fine-grained NER (CNEC's 40-odd types: city, country, street, river …) spreads a project's
    decisions so thin that few types ever reach :data:`LEARN_TYPE_AFTER` on their own, though every
    location the annotators saw was private.  When the decisions on the types of one pool
    (:func:`learning_pool`: one of :data:`POOLED_CATEGORIES` within a tag set, or a CNEC supertype;
    ``statistics``: type -> (private, public)), summed, are as clear as :func:`learned_type_confidence` asks
    of one type, span at least :data:`MIN_POOLED_TYPES` types, and are private, every candidate type that
    may join that pool (:func:`joinable_pools`) and whose own decisions agree is decided private too
    (:func:`agrees_with_private_pool`).  Only ever private: public
    stays a per-type matter with the stricter evidence (a wrong "private" leaks nothing; it masks a span
    for nothing).

    A type whose own decisions disagree (clearly less private) neither joins nor weighs on its pool:
    an abbreviation recognizer's "ČR", "TV" (CNEC: 36 of 48 private) says nothing about firms and
    institutions, and it kept CNEC's organisations (if, ic, io, ia, mn: 97 % private) out of the pool
    for the whole test set, about 100 judgments one at a time.

    ``learned``: :func:`learned_pools` of ``statistics``, when the caller has it already.
    """
    if learned is None:
        learned = learned_pools(statistics)
    return {t for t in candidates
            if joinable_pools(t) & learned and agrees_with_private_pool(*statistics.get(t, (0, 0)))}


def agrees_with_private_pool(private: int, public: int) -> bool:
    """Whether a type's own decisions allow it to be as private as a learned category: not clearly less.

    Why not "nobody decided it public": every recognizer has false alarms, and one early public decision
    (a greeting recognized as a surname, a league table's abbreviation as an organization) kept a type out of
    its category for good — it then needs :data:`LEARN_TYPE_SHARE` on its own, 19 private decisions per public
    one, and the person settled every later name of it one at a time (CNEC: about 60 judgments of 266 in one
    document order, none in another).  A type joins unless its decisions show, at the same one-sided 95 %
    level as :func:`private_share_bound`, that its private share is below :data:`POOL_AGREE_BOUND`: the
    upper Wilson bound of its private share must reach it (one public decision of one: no; after two
    private ones: yes; 5 of 10 private: no).
    """
    if not public:
        return True
    return 1.0 - private_share_bound(public, private) >= POOL_AGREE_BOUND
