"""Recognized entities → private regions, and a simple surrogate provider for fully automatic output.

Why: the command line (and any caller without people or rules) treats every recognized entity
as private.  Instead of re-implementing region merging, each entity becomes a person-style
PRIVATE :class:`~psan.tool.voting.Annotation` and :func:`~psan.tool.voting.decided_regions`
merges overlapping ones exactly as in the annotated workflow (outermost span gives the category).
"""
from __future__ import annotations

import random
import string
from collections.abc import Iterable

from .model import Category, Decision, Document, Entity
from .voting import Annotation, PrivateRegion, decided_regions

__all__ = ["entity_annotations", "entity_regions", "ShapeReplacer"]

FAKER_LOCALES: dict[str, str] = {"cs": "cs_CZ", "sk": "sk_SK", "pl": "pl_PL", "sv": "sv_SE", "sl": "sl_SI",
                                 "de": "de_DE", "en": "en_US"}


def entity_annotations(entities: Iterable[Entity], categories: Iterable[Category] | None = None) -> list[Annotation]:
    """One PRIVATE annotation per distinct entity span (types of equal spans are collected, first category kept)."""
    wanted = set(categories) if categories is not None else None
    spans: dict[tuple[int, int], Annotation] = {}
    for ent in entities:
        if wanted is not None and ent.category not in wanted:
            continue
        key = (ent.first_token, ent.end_token)
        ann = spans.get(key)
        if ann is None:
            spans[key] = Annotation(ent.first_token, ent.end_token, token_decision=Decision.PRIVATE,
                                    category=ent.category, types=(ent.type,))
        elif ent.type not in ann.types:
            ann.types = (*ann.types, ent.type)
    return [spans[k] for k in sorted(spans)]


def entity_regions(doc: Document, categories: Iterable[Category] | None = None) -> list[PrivateRegion]:
    """Sorted, non-overlapping private regions covering every (selected) entity of ``doc``; label is None."""
    return decided_regions(doc, entity_annotations(doc.entities, categories))


class ShapeReplacer:
    """Surrogates without any project data: Faker names/places/companies, shape-preserving strings otherwise.

    Why shape-preserving for IDs, contacts and dates: the output keeps its format (digit count,
    separators, ``@`` and dots of an e-mail) without keeping any original character.  The same
    original always gets the same surrogate within one replacer (one document), so co-reference
    survives.  Not cryptographic: surrogates only have to look plausible.
    """

    def __init__(self, language: str = "en", seed: int | str | None = None) -> None:
        from faker import Faker
        self.faker = Faker(FAKER_LOCALES.get(language, "en_US"))
        self.random = random.Random(seed)
        self.faker.seed_instance(self.random.random())
        self.cache: dict[tuple[str, str], str] = {}

    def _shape(self, original: str) -> str:
        out = []
        for ch in original:
            if ch.isdigit():
                out.append(self.random.choice(string.digits))
            elif ch.isalpha():
                letter = self.random.choice(string.ascii_lowercase)
                out.append(letter.upper() if ch.isupper() else letter)
            else:
                out.append(ch)
        return "".join(out)

    def _make(self, category: str, original: str) -> str:
        if category == Category.PERSON:
            words = len(original.split())
            return self.faker.name() if words > 1 else self.faker.last_name()
        if category == Category.LOCATION:
            return self.faker.city()
        if category == Category.ORGANIZATION:
            return self.faker.company()
        return self._shape(original)

    def replacement(self, region: PrivateRegion, original: str) -> str | None:
        """A surrogate for the region, consistent for equal originals of the same category."""
        category = str(region.category)
        key = (category, original)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = self._make(category, original)
        return found
