"""Which entity each private region belongs to, and the name template surrogates are rendered from.

Why: one person must get one surrogate identity however they are written.
:mod:`psan.tool.entities.grouping` links "Jonathan Harper", "Harper" and "Mr. Harper"
(or "Jan Novák", "Jana Nováka", "panu Novákovi") into one entity; this module
turns a document's private regions into such entities and records, per person
entity, its *template*: the lemmas of its given names and surname and its
gender.  The replacer then draws one surrogate first name per given name and
one surname per entity (the identity), and renders each mention by aligning its
words with the template: a surname alone takes the surrogate surname, an
initial the surrogate first name's initial, an inflected form the surrogate in
the same grammatical case.

A label is an entity key: when the regions linked into one entity carry one
label, the entity is ``label:<id>`` (an annotator's decision beats automatic
linking); regions with different labels are never merged.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from psan.tool.decisions.voting import PrivateRegion
from psan.tool.entities.grouping import Form, Mention, analyse_document
from psan.tool.text.document import Category

__all__ = ["NameTemplate", "PartialName", "DocumentEntities", "document_entities", "merge_template",
           "resolve_partial"]


@dataclass(frozen=True, slots=True)
class NameTemplate:
    """A person entity's name: lemmas (as written, nominative) of its given names and surname, and gender."""

    given: tuple[str, ...] = ()
    surname: str = ""
    gender: str = ""

    @property
    def size(self) -> int:
        return len(self.given) + (1 if self.surname else 0)


@dataclass(frozen=True, slots=True)
class PartialName:
    """A person entity of one document known only by one name word ("Mr. Harper", "Berg", "J. Smith")."""

    lemmas: frozenset[str]
    gender: str = ""
    initials: tuple[str, ...] = ()


def resolve_partial(partial: PartialName, templates: Mapping[str, NameTemplate]) -> str | None:
    """The one full name (entity key) of the project a partial name fits, as a surname or given name.

    Why: "Mr. Harper" in one document and "Jonathan Harper" in another are one person
    when the project knows no other Harper; with two candidates nothing is guessed.
    """
    def fits(t: NameTemplate) -> bool:
        if partial.gender and t.gender and partial.gender != t.gender:
            return False
        return all(k < len(t.given) and t.given[k][:1].casefold() == ini for k, ini in enumerate(partial.initials))

    full = {k: t for k, t in templates.items() if t.size > 1 and fits(t)}
    by_surname = {k for k, t in full.items() if t.surname.casefold() in partial.lemmas}
    if by_surname:
        return next(iter(by_surname)) if len(by_surname) == 1 else None
    if partial.gender or partial.initials:
        return None
    by_given = {k for k, t in full.items() if t.given and t.given[0].casefold() in partial.lemmas}
    return next(iter(by_given)) if len(by_given) == 1 else None


@dataclass(slots=True)
class DocumentEntities:
    """Entity key of every region of one document (by span) and the person templates found in it."""

    entity_keys: dict[tuple[int, int], str] = field(default_factory=dict)
    #: automatic entity id of every region (before labels), for project-wide label adoption
    auto: dict[tuple[int, int], str] = field(default_factory=dict)
    #: automatic entity id → the one label its regions carry in this document
    label_of: dict[str, str] = field(default_factory=dict)
    #: person templates by entity key and by automatic id
    templates: dict[str, NameTemplate] = field(default_factory=dict)
    #: automatic id → the partial name of a person entity without a full name in this document
    partials: dict[str, PartialName] = field(default_factory=dict)

    @property
    def keys(self) -> dict[tuple[int, int], str]:
        """The older name of :attr:`entity_keys` (read only)."""
        return self.entity_keys


def merge_template(old: NameTemplate | None, new: NameTemplate) -> NameTemplate:
    """The more complete template wins (another document may know the first name); a known gender is kept."""
    if old is None:
        return new
    best = new if new.size > old.size else old
    gender = best.gender or old.gender or new.gender
    return NameTemplate(best.given, best.surname, gender)


def _template(forms: Sequence[Form]) -> NameTemplate | None:
    """Template of one person entity from its mentions' forms (``None`` when no mention has two words)."""
    full = [f for f in forms if len(f.key) > 1 and f.lemmas]
    gender = next((f.gender for f in forms if f.gender), "")
    if not full:
        return NameTemplate((), "", gender) if gender else None
    best = max(full, key=lambda f: (len(f.key), -forms.index(f)))
    gender = gender or best.morph_gender
    return NameTemplate(tuple(best.lemmas[:-1]), best.lemmas[-1], gender)


def document_entities(text: str, regions: Sequence[PrivateRegion], language: str,
                      entity_keys: Mapping[tuple[int, int], str] | None = None) -> DocumentEntities:
    """Link the document's private regions into entities (see module docstring).

    ``entity_keys`` (character span → entity key) override the automatic linking: an annotator's merge
    or split of entities, stored by the application.
    """
    mentions = [Mention(r.start, r.end, r.category if isinstance(r.category, Category) else str(r.category),
                        text[r.start:r.end]) for r in regions]
    ids, forms = analyse_document(mentions, language)
    fixed = set(entity_keys.values()) if entity_keys else set()  # decided by a person: never re-linked
    if entity_keys:
        ids = [entity_keys.get((r.start, r.end), eid) for r, eid in zip(regions, ids, strict=True)]
    labels: dict[str, set[int]] = {}
    for r, eid in zip(regions, ids, strict=True):
        if r.label is not None:
            labels.setdefault(eid, set()).add(r.label)
    out = DocumentEntities()
    members: dict[str, list[Form]] = {}
    for r, eid, form in zip(regions, ids, forms, strict=True):
        found = labels.get(eid, set())
        if r.label is not None:
            key = f"label:{r.label}"
        elif len(found) == 1:
            key = f"label:{next(iter(found))}"
        else:
            key = eid
        out.entity_keys[(r.start, r.end)] = key
        out.auto[(r.start, r.end)] = eid
        if len(found) == 1:
            out.label_of[eid] = f"label:{next(iter(found))}"
        if form is not None and form.category is Category.PERSON:
            members.setdefault(key, []).append(form)
            if key != eid:
                members.setdefault(eid, []).append(form)
    for key, forms_of in members.items():
        template = _template(forms_of)
        if template is not None and template.size:
            out.templates[key] = template
        elif not key.startswith("label:") and key not in fixed and all(len(f.key) == 1 for f in forms_of):
            lemmas = frozenset().union(*(f.alts[0] | {f.key[0]} for f in forms_of))
            out.partials[key] = PartialName(lemmas, next((f.gender for f in forms_of if f.gender), ""),
                                            max((f.initials for f in forms_of), key=len))
    return out
