"""Which words a project has decided public often enough to offer them as a project-wide "public" rule.

Why: in a collection of one document type, organisations and places that are public by nature (the courts
and ministries of case law, a meeting's conference and platform names) are decided public again in every
document, one accepted suggestion at a time.  Once persons have decided the same words public several times, in
more than one document, and never private, the words are *offered* as a rule; the rule exists only after a
person confirms it (a rule a person made), so nothing becomes public on learning alone.

The evidence is counted per *form*: the span's tokens case-folded and joined by single spaces (tokens hold no
whitespace), so "European Court of Human Rights" and "european court of human rights" are one form.  Inflected
forms ("Nejvyššího soudu", "Nejvyšší soud") are separate forms, each with its own evidence: a lemma rule would
decide forms nobody decided.

An offer needs (:func:`offerable`):

* at least :data:`MIN_PUBLIC` public decisions of the form and :data:`MIN_DOCUMENTS` documents among them (a word
  public in one document says little about the next: "Istanbul" the court's seat in one judgment, the applicant's
  home in another);
* **no** private decision of the form anywhere in the project (one is enough to withhold the offer: a one-sided
  evidence rule, the upper bound on the private share is :func:`private_share_bound`);
* an organisation or a place recognized on every public span counted (never a name, an ID, a contact, a date or
  another sensitive type: :func:`psan.tool.decisions.sensitivity.never_public_by_suggestion`), and no digit in the words
  (an
  address, "Praha 1").

:data:`MIN_PUBLIC` was chosen on tab-dev documents 1–20 and reported on documents 57–76 and on ELITR meetings
(ner_eval/results/README.md, "Offered public rules").
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from psan.tool.decisions.sensitivity import never_public_by_suggestion
from psan.tool.text.categories import category_of
from psan.tool.text.document import Category

__all__ = ["MIN_PUBLIC", "MIN_DOCUMENTS", "MAX_TOKENS", "OFFER_CATEGORIES", "FormEvidence", "normalise",
           "offerable", "private_share_bound", "collect"]

#: identical public decisions a form needs before it is offered (chosen on tab-dev 1–20)
MIN_PUBLIC = 3
#: documents those decisions must come from
MIN_DOCUMENTS = 2
#: longer spans are clauses, not names of an organisation or a place
MAX_TOKENS = 8
#: the categories whose words may be offered
OFFER_CATEGORIES = frozenset({Category.ORGANIZATION, Category.LOCATION})
#: one-sided confidence of :func:`private_share_bound`
CONFIDENCE = 0.95
_DIGIT = re.compile("[0-9]")
_WORD = re.compile(r"\w")


def normalise(tokens: Sequence[str]) -> str:
    """The form of a span's tokens: case-folded, joined by single spaces."""
    return " ".join(t.casefold() for t in tokens if t and not t.isspace())


def private_share_bound(public: int, private: int = 0) -> float:
    """One-sided upper bound (:data:`CONFIDENCE`) on the share of the form's mentions that are private.

    Exact for ``private == 0`` (``1 - (1 - c) ** (1 / n)``); with private decisions nothing is offered, so the bound
    is reported as 1.
    """
    n = public + private
    if private or n == 0:
        return 1.0
    return 1.0 - (1.0 - CONFIDENCE) ** (1.0 / n)


@dataclass
class FormEvidence:
    """The counted decisions of one form in a project."""

    form: str
    tokens: tuple[str, ...]
    public: int = 0
    private: int = 0
    documents: set[int] = field(default_factory=set)
    #: every counted public span carried an organisation or a place, and nothing sensitive
    eligible: bool = True

    def add(self, document_id: int, private: bool | None, types: Sequence[str], categories: Sequence[str],
            words: Sequence[str], sensitive: Iterable[str] = ()) -> None:
        """Count one decided span (``private``: ``None`` for a decision that is not counted)."""
        if private is None:
            return
        if private:
            self.private += 1
            return
        self.public += 1
        self.documents.add(document_id)
        if not _eligible_span(types, categories, words, frozenset(sensitive)):
            self.eligible = False


def _eligible_span(types: Sequence[str], categories: Sequence[str], words: Sequence[str],
                   sensitive: frozenset[str]) -> bool:
    cats = {str(c) for c in categories} | {str(category_of(t)) for t in types}
    if not cats & {str(c) for c in OFFER_CATEGORIES}:
        return False
    if cats & {str(Category.PERSON), str(Category.ID), str(Category.CONTACT), str(Category.DATE)}:
        return False
    category = next((c for c in categories if c in {str(x) for x in OFFER_CATEGORIES}), None)
    return not never_public_by_suggestion(list(types), category, list(words), sensitive)


def offerable(evidence: FormEvidence, min_public: int = MIN_PUBLIC, min_documents: int = MIN_DOCUMENTS) -> bool:
    """May this form be offered as a project-wide public rule (see the module docstring)?"""
    return (evidence.private == 0 and evidence.public >= min_public and len(evidence.documents) >= min_documents
            and evidence.eligible and 0 < len(evidence.tokens) <= MAX_TOKENS
            and not _DIGIT.search(evidence.form) and bool(_WORD.search(evidence.form)))


def collect(spans: Iterable[tuple[int, Sequence[str], bool | None, Sequence[str], Sequence[str]]],
            sensitive: Iterable[str] = ()) -> dict[str, FormEvidence]:
    """The evidence per form of decided spans ``(document id, words, private, entity types, categories)``."""
    extra = frozenset(sensitive)
    out: dict[str, FormEvidence] = {}
    for document_id, words, private, types, categories in spans:
        form = normalise(words)
        if not form:
            continue
        ev = out.get(form)
        if ev is None:
            ev = out[form] = FormEvidence(form, tuple(form.split(" ")))
        ev.add(document_id, private, types, categories, words, extra)
    return out
