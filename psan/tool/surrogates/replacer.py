"""``SurrogateReplacer``: realistic, consistent, reversible surrogates for ``output.pseudonymize``.

Why and how:

* **consistency** — regions are grouped into entities by
  :mod:`psan.tool.entities.grouping` (through :mod:`.identity`): "Jonathan Harper",
  "Harper", "Mr. Harper" or "Jan Novák", "Jana Nováka", "panu Novákovi" are one
  entity; its key is the label of its regions (``label:7``) or the automatic
  entity id.  Each entity gets one surrogate **identity** (``identities``: for
  persons the gender and one surrogate per given name and surname, for places
  a base name, else the value per original form), drawn from a stream seeded by
  SHA-256 of (project seed, entity, …), so runs and processes agree; a stored
  identity (``identities=`` argument) is reused as it is;
* **form** — every mention is rendered from the identity in its own form: a
  surname alone takes the surrogate surname, initials the surrogate first
  names' initials, Czech forms the surrogate in the same paradigm slot found
  against the entity's lemma (Bílkovi → Dvořákovi, Janem → Petrem), Polish via
  Morfeusz2, gender from the entity (shapes: :mod:`.shape`, :mod:`.dates`, :mod:`.checksum`, :mod:`.names`);
* **uniqueness** — a surrogate (a name word per role, or a whole value) owned
  by one entity is never given to another; the draw is repeated instead
  (fixed/zero masks of the SweLL preset are many-to-one by design);
* **no leaks** — :meth:`SurrogateReplacer.observe` registers the originals of a
  document (or project); a candidate equal to an original, or containing one
  as a whole token sequence, is redrawn; when nothing safe is found the
  region falls back to its tag (``None``);
"""
from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from psan.tool.decisions.voting import PrivateRegion
from psan.tool.entities.grouping import word_lemmas
from psan.tool.morph import context, namelists, wordlist
from psan.tool.morph.analysis import OTHER as M_OTHER
from psan.tool.morph.analysis import PERSON as M_PERSON
from psan.tool.morph.analysis import PLACE as M_PLACE
from psan.tool.morph.analysis import Mention, analyse_document
from psan.tool.morph.declension import inflect_cs
from psan.tool.morph.features import PL_CASE_OF, Features, ud_gender
from psan.tool.release.key import PseudonymKey
from psan.tool.release.output import Output, pseudonymize
from psan.tool.surrogates import birthdates, dates, derived, names, phones, routing, shape, variants
from psan.tool.surrogates.checksum import VALIDATORS, valid_checksum
from psan.tool.surrogates.identity import (
    DocumentEntities,
    NameTemplate,
    PartialName,
    document_entities,
    merge_template,
    resolve_partial,
)
from psan.tool.surrogates.policy import make_policy
from psan.tool.surrogates.rng import digest, stream
from psan.tool.text.shared_words import shares_word, words_of
from psan.tool.words import regnal

__all__ = ["SurrogateReplacer", "pseudonymize_document"]

_PREP_RE = re.compile(r"(?<!\w)(\w{1,2})(\s+)\Z", re.UNICODE)
_TOKEN_RE = re.compile(r"\w+|[^\w\s]", re.UNICODE)
_ALPHA_RE = re.compile(r"[^\W\d_]+", re.UNICODE)
#: a place's UD gender → the gender of the declinable places its surrogate is drawn from
_PLACE_GENDERS = {"Fem": "f", "Masc": "m", "Neut": "n"}
_TRIES = 60
#: languages whose person and place surrogates are rendered in the analysed case (psan.tool.morph)
_INFLECTED = frozenset({"cs", "sk", "sl", "pl"})
#: languages whose one-word organisation names are analysed and get a declined surrogate (Polish: Morfeusz
#: generates no forms of an invented name)
_ORG_DECLINED = frozenset({"cs", "sk", "sl"})
#: parts of invented one-word organisation names ("Agrostav", "Hydromont"): clearly a firm, never a person
#: or a place, and declinable as an inanimate masculine noun ("s Agrostavem", "v Agrostave")
ORG_HEADS = ("Agro", "Stavo", "Hydro", "Elektro", "Metal", "Tex", "Auto", "Inter", "Geo", "Eko", "Chemo", "Techno",
              "Euro", "Kovo", "Novo", "Plasto", "Termo", "Energo", "Data", "Medi", "Fero", "Silo", "Trans", "Pharm")
ORG_TAILS = ("stav", "mont", "servis", "trans", "plast", "com", "lab", "mat", "chem", "tex", "tech", "prom", "kov",
              "sklad", "park", "net", "form", "dat", "man", "mark", "pol", "med", "log", "vit")
#: an original word at least this long must not begin a surrogate word, nor a surrogate word begin it
_STEM = 4


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def _short_or_number(original: str) -> bool:
    """A private original that is a year ("1994") or one letter ("S."): forbidden in the surrogates of its own
    document only.  Why: a project of court decisions holds nearly every year as someone's private original and
    every letter as someone's initial, so forbidding them project-wide left a third of the dates and every
    person with an initial no surrogate but a tag; in another document a year or a letter says nothing about
    the mention it stood for."""
    value = original.strip().rstrip(".")
    return (len(value) == 1 and value.isalpha()) or (len(value) == 4 and value.isdigit())


def _document_only(text: str, regions: Sequence[PrivateRegion]) -> frozenset[str]:
    """The document's private years and single letters (see :func:`_short_or_number`), normalized."""
    return frozenset(_norm(text[r.start:r.end]) for r in regions if _short_or_number(text[r.start:r.end]))


def _title(word: str) -> str:
    return word[:1].upper() + word[1:].lower() if len(word) > 1 and word.isupper() else word


class SurrogateReplacer:
    """A :class:`psan.tool.release.output.Replacer` drawing per-category surrogates (see module docstring)."""

    def __init__(self, policy: Mapping[str, Any] | None = None, language: str = "en", seed: int | str = 0,
                 key: PseudonymKey | None = None, identities: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        self.policy = make_policy(policy)
        self.language = language
        self.seed = seed
        self.key = key
        self._values: dict[tuple[str, str, str], str | None] = {}
        self._words: dict[tuple[str, str, str], str] = {}
        self._gender: dict[str, str] = {}
        self._owner: dict[tuple[str, str], str] = {}
        self._numbers: dict[str, int] = {}
        self._forbidden: set[str] = set()
        #: the current document's private years and single letters: forbidden in its surrogates only
        self._doc_forbidden: frozenset[str] = frozenset()
        self._forbidden_words: set[str] = set()
        #: every prefix (at least ``_STEM`` letters) of a forbidden word, see :meth:`_word_taken`
        self._forbidden_prefixes: set[str] = set()
        #: a date written in a range or list → the words of that whole range ("14 and 27 July 1999 and 24 March
        #: 2000"): its surrogate avoids them too, so the joined range prints no word of its original
        self._range_words: dict[str, set[str]] = {}
        #: birth dates encoded in the national IDs seen → the years the ID's layout allows (see .birthdates)
        self._birth_years: dict[birthdates.Date, tuple[int, int]] = {}
        #: (start, end) → entity key of the regions replaced since the last ``observe``
        self.entities: dict[tuple[int, int], str] = {}
        #: how many identity parts were drawn (not taken from ``identities=``); 0 → rendered from the key alone
        self.drawn = 0
        #: entity key → surrogate identity (JSON-serializable; the project's pseudonym key stores it)
        #: identities used or drawn by this replacer (stored ones are copied in when first used)
        self.identities: dict[str, dict[str, Any]] = {}
        self._stored: Mapping[str, Mapping[str, Any]] = identities or {}
        self._templates: dict[str, NameTemplate] = {}
        self._template_of: dict[str, NameTemplate] = {}
        self._project_labels: dict[str, str | None] = {}
        self._seen: dict[tuple[int, int, str], set[str]] = {}
        self._current: DocumentEntities | None = None
        self._explicit = False
        self._partials: dict[str, PartialName] = {}
        #: entity key → the original forms its mentions were written in (variants derive from the long form)
        self._forms: dict[str, set[str]] = {}
        self._resolved: dict[str, str] = {}  # partial entity → full-name entity (cleared by _learn)
        self._full_cache: dict[str, NameTemplate] | None = None
        #: (start, end) → the UD features each person/place surrogate of the current document is rendered with
        self.features: dict[tuple[int, int], dict[str, str | None]] = {}
        self._morph: dict[tuple[int, int], Features] = {}
        #: (start, end, original) → features over all observed documents (None: two documents disagree)
        self._morph_all: dict[tuple[int, int, str], Features | None] = {}
        self._morph_gender: dict[str, str] = {}
        #: (start, end, original) of person mentions that are possessive adjectives ("Konstantinovy vlády")
        self._possessives: set[tuple[int, int, str]] = set()
        for key, ident in self._stored.items():
            t = ident.get("template")
            if isinstance(t, Mapping):  # a stored identity knows its full name: partial mentions align with it
                self._templates[key] = NameTemplate(tuple(t.get("given", ())), str(t.get("surname", "")),
                                                    str(t.get("gender", "")))

    # ---------------------------------------------------------------- bookkeeping

    def observe(self, text: str, regions: Sequence[PrivateRegion],
                entity_keys: Mapping[tuple[int, int], str] | None = None,
                linked: DocumentEntities | None = None) -> None:
        """Register the private originals of a document, so no surrogate reproduces one of them.

        Also links the document's regions into entities (see :meth:`begin_document`); callers
        that observe one document and replace it right away need nothing else.  ``entity_keys``
        (character span → entity key) override the automatic linking (annotators' merges/splits).
        ``linked``: :func:`document_entities` of these regions in this replacer's language with these keys,
        when the caller has it (one document's download links its entities once, not twice).
        """
        self.entities = {}
        self.enter_document(text, regions)
        for r in regions:
            original = text[r.start:r.end]
            self._birth_date_of(routing.kind_of(r.category, r.type, original), original)
            if not _short_or_number(original):
                self._forbidden.add(_norm(original))
            self._note_range(routing.kind_of(r.category, r.type, original), original)
            for w in _ALPHA_RE.findall(original):
                if len(w) > 1:
                    cf = w.casefold()
                    # without its diacritics too: a surrogate "Kratochvíl" for "Kratochvil" reads as the original
                    for form in dict.fromkeys((cf, derived.fold(cf))):
                        self._forbidden_words.add(form)
                        self._forbidden_prefixes.update(form[:k] for k in range(_STEM, len(form) + 1))
        doc = linked if linked is not None else document_entities(text, regions, self.language, entity_keys)
        self._learn(text, doc)
        self._analyse(text, regions, doc)

    def _note_range(self, kind: str, original: str) -> None:
        parts = variants.date_parts(original) if kind == routing.DATE else None
        words = words_of(original)
        for piece, dated in parts or ():
            if dated and words:
                self._range_words.setdefault(_norm(piece), set()).update(words)

    def enter_document(self, text: str, regions: Sequence[PrivateRegion]) -> None:
        """The document whose regions are replaced next: its private years and single letters are forbidden in its
        surrogates (:func:`_short_or_number`; :meth:`observe` and :meth:`begin_document` call it)."""
        self._doc_forbidden = _document_only(text, regions)

    def begin_document(self, text: str, regions: Sequence[PrivateRegion],
                       entity_keys: Mapping[tuple[int, int], str] | None = None) -> None:
        """Say which document is replaced next, when all documents of a project were observed first.

        Without it the entity of a region is looked up by its offsets and text among all observed
        documents, which is ambiguous only when two documents link the same span differently.
        """
        self.entities = {}
        self.enter_document(text, regions)
        doc = document_entities(text, regions, self.language, entity_keys)
        self._learn(text, doc)
        self._analyse(text, regions, doc)
        self._explicit = True

    def _analyse(self, text: str, regions: Sequence[PrivateRegion], doc: DocumentEntities) -> None:
        """Case, gender and number of the document's person and place mentions (:mod:`psan.tool.morph`)."""
        self.features = {}
        self._morph = {}
        if self.language not in _INFLECTED:
            return
        mentions = []
        for r in regions:
            kind = routing.kind_of(r.category, r.type, text[r.start:r.end])
            mkind = M_PERSON if kind == routing.PERSON else M_PLACE if kind in (routing.CITY, routing.COUNTRY) else ""
            if kind == routing.ORG and self._declined_org(text[r.start:r.end]):
                mkind = M_OTHER
            end = regnal.name_end(text, r.start, r.end) if mkind == M_PERSON else r.end
            mentions.append(Mention(r.start, end, mkind, doc.entity_keys.get((r.start, r.end), "")))
        for r, m in zip(regions, mentions, strict=True):
            if m.kind == M_PERSON and possessive_split(text[r.start:r.end], self.language) is not None \
                    and _NEXT_LOWER.match(text, r.end):
                self._possessives.add((r.start, r.end, text[r.start:r.end]))
        feats, genders = analyse_document(text, mentions, self.language)
        for r, f in zip(regions, feats, strict=True):
            if f.case:
                self._morph[(r.start, r.end)] = f
                where = (r.start, r.end, text[r.start:r.end])
                self._morph_all[where] = f if self._morph_all.get(where, f) == f else None
        for entity, g in genders.items():
            self._morph_gender.setdefault(entity, {"Masc": "m", "Fem": "f"}.get(g, ""))

    @property
    def stored(self) -> Mapping[str, Mapping[str, Any]]:
        """The identities given to the constructor (read only)."""
        return self._stored

    def _identity(self, entity: str, kind: str) -> dict[str, Any]:
        """The entity's identity: used before, else a copy of the stored one, else a new one."""
        ident = self.identities.get(entity)
        if ident is None:
            stored = self._stored.get(entity)
            if stored is None:
                ident = {"kind": kind}
            else:  # two levels: names/values maps grow, the stored mapping stays untouched
                ident = {k: (copy.copy(v) if isinstance(v, dict | list) else v) for k, v in stored.items()}
            self.identities[entity] = ident
        return ident

    def _learn(self, text: str, doc: DocumentEntities) -> None:
        self._current = doc
        self._resolved = {}
        self._full_cache = None
        for eid, label in doc.label_of.items():
            if self._project_labels.setdefault(eid, label) != label:
                self._project_labels[eid] = None  # two labels for one automatic entity: keep them apart
        for key, template in doc.templates.items():
            self._templates[key] = merge_template(self._templates.get(key), template)
        for (start, end), key in doc.entity_keys.items():
            self._seen.setdefault((start, end, text[start:end]), set()).add(key)
            auto = doc.auto.get((start, end), key)
            for k in {key, auto, doc.label_of.get(auto, key)}:
                self._forms.setdefault(k, set()).add(text[start:end])
        self._partials.update(doc.partials)

    def _full_names(self) -> dict[str, NameTemplate]:
        """Full-name templates by their final entity key (automatic ids adopt their project label)."""
        if self._full_cache is not None:
            return self._full_cache
        out: dict[str, NameTemplate] = {}
        for key, template in self._templates.items():
            if template.size > 1:
                final = self._project_labels.get(key) or key
                out[final] = merge_template(out.get(final), template)
        self._full_cache = out
        return out

    def _linked_key(self, region: PrivateRegion, original: str) -> str | None:
        """The entity key :mod:`.identity` gave this region (``None`` when the region was never observed)."""
        where = (region.start, region.end)
        cur = self._current
        if self._explicit and cur is not None and where in cur.entity_keys:
            key, auto = cur.entity_keys[where], cur.auto[where]
        else:
            keys = self._seen.get((region.start, region.end, original))
            if not keys:
                return None
            if len(keys) > 1:
                if cur is None or where not in cur.entity_keys:
                    return None
                key, auto = cur.entity_keys[where], cur.auto[where]
            else:
                key = next(iter(keys))
                auto = cur.auto.get(where, key) if cur is not None and cur.entity_keys.get(where) == key else key
        label = self._project_labels.get(auto) if not key.startswith("label:") else None
        final = label or key
        if final in self._partials:  # "Mr. Harper" here, "Jonathan Harper" in another document
            if final not in self._resolved:
                self._resolved[final] = resolve_partial(self._partials[final], self._full_names()) or final
            final = self._resolved[final]
        template = self._templates.get(final)
        for other in {key, auto} - {final}:
            if other in self._templates:
                template = merge_template(template, self._templates[other])
        if template is not None:
            self._template_of[final] = template
        return final

    def _word_taken(self, cf: str) -> bool:
        """Whether a case-folded surrogate word is, extends or shortens a word of an original.

        Why prefixes: a surrogate "Browne" beside an original "Brown", or "Nováková" for a project
        whose originals include "Novák", reads as the real name (an inflected or derived form of it).
        """
        if cf in self._forbidden_words or cf in self._forbidden or cf in self._forbidden_prefixes:
            return True
        bare = derived.fold(cf)
        if bare != cf and (bare in self._forbidden_words or bare in self._forbidden_prefixes):
            return True
        return any(cf[:k] in self._forbidden_words or bare[:k] in self._forbidden_words for k in range(_STEM, len(cf)))

    @staticmethod
    def _prints_original(candidate: str, original: str) -> bool:
        """Whether a surrogate joined from pieces prints its own original or a word of it.

        Each piece passed :meth:`_leaks` when it was drawn (perhaps in another document); checking the joined
        string against the other originals again would refuse a pair of accepted pieces and draw a fresh,
        different value for the whole, so one date or name would have two surrogates.
        """
        return _norm(candidate) == _norm(original) or shares_word(candidate, original)

    def _leaks(self, candidate: str, original: str, fixed: bool = False) -> bool:
        """Whether the candidate prints the original, a word of it, or another private original.

        ``fixed``: the admin's fixed replacement (``email@dot.com``) may share a word such as a domain ending."""
        if _norm(candidate) == _norm(original) or not fixed and shares_word(candidate, original):
            return True
        if not self._forbidden and not self._doc_forbidden:
            return False
        toks = list(_TOKEN_RE.finditer(candidate))
        for i in range(len(toks)):
            for j in range(i, min(len(toks), i + 12)):
                piece = _norm(candidate[toks[i].start():toks[j].end()])
                if piece in self._forbidden or piece in self._doc_forbidden:
                    return True
        return False

    def _unique(self, kind: str, entity: str, make: Callable[[int], str | None], original: str,
                unique: bool = True, fixed: bool = False) -> str | None:
        """First candidate of ``make(attempt)`` that leaks nothing and no other entity owns (``fixed``: the
        policy's fixed value, which may share a word such as a domain ending)."""
        for attempt in range(_TRIES):
            cand = make(attempt)
            if cand is None:
                return None
            if self._leaks(cand, original, fixed):
                continue
            owner = self._owner.get((kind, _norm(cand)))
            if unique and owner is not None and owner != entity:
                continue
            self._owner[(kind, _norm(cand))] = entity
            return cand
        return None

    def entity_key(self, region: PrivateRegion, original: str, kind: str) -> str:
        """The consistency key: the region's label, its linked entity, else kind + normalized original."""
        linked = self._linked_key(region, original)
        if region.label is not None:
            return f"label:{region.label}"
        if linked is not None:
            return linked
        if kind in (routing.PERSON, routing.CITY):
            role = names.PLACE if kind == routing.CITY else ""
            lemmas = [names.analyse_word(_title(w), self.language, role).lemma.casefold() if len(w) > 1 else w
                      for w in _ALPHA_RE.findall(original)]
            return f"{kind}:{' '.join(lemmas)}"
        return f"{kind}:{_norm(original)}"

    # ---------------------------------------------------------------- Replacer protocol

    def replacement(self, region: PrivateRegion, original: str) -> str | None:
        """Surrogate for ``original`` (``None`` → the caller writes the category tag)."""
        kind = routing.kind_of(region.category, region.type, original)
        entity = self.entity_key(region, original, kind)
        self.entities[(region.start, region.end)] = entity
        feats = self._features_of(region, original)
        if kind == routing.PERSON and (region.start, region.end, original) in self._possessives \
                and self.policy["person"] != "tag":
            got = self._possessive(entity, original)
            if got is not None:
                if feats is not None:
                    self._record(region, entity, original, feats)
                return got
        if kind == routing.PERSON:
            got = self._person(entity, original, region.type, feats)
            if got is not None and feats is not None:
                used = ud_gender(str(self.identities.get(entity, {}).get("gender", "")))
                if used and used != feats.gender:  # the entity's gender (a title, another document) won
                    animacy = ("Hum" if self.language == "pl" else "Anim") if used == "Masc" else ""
                    feats = dataclasses.replace(feats, gender=used, animacy=animacy)
                self._record(region, entity, original, feats)
            return got
        if kind in (routing.CITY, routing.COUNTRY) and feats is not None and self.policy["city"] != "tag":
            got = self._place(entity, original, kind, feats)
            if got is not None:
                self._record(region, entity, original, feats)
                return got
        if kind == routing.ORG and feats is not None and self._declined_org(original):
            got = self._org_word(entity, original, feats)
            if got is not None:
                self._record(region, entity, original, feats)
                return got
        if kind == routing.DATE and region.label is None:
            entity = f"{routing.DATE}:{_norm(original)}"  # a date is a value: one surrogate wherever it stands
        cache_key = (entity, kind, _norm(original))
        if cache_key not in self._values:
            self._values[cache_key] = self._form_value(kind, entity, original, region.type)
        return self._values[cache_key]

    def _form_value(self, kind: str, entity: str, original: str, type_: str) -> str | None:
        """The surrogate of one form of an entity; a variant is rendered from the entity's name (:mod:`.variants`).

        Quotes, brackets and a possessive stay around the name's surrogate (an article is dropped); an
        organisation's legal form follows its name's surrogate in other words; its acronym is the acronym of
        its long form's surrogate.
        Whatever a form got is kept in the entity's identity, so it never changes when other forms (another
        document's long name) become known, and a stored key renders it again.
        """
        ident = self._identity(entity, kind)
        values = ident.setdefault("values", {})
        key = _norm(original)
        if key not in values:
            values[key] = self._variant_value(kind, entity, original, type_)
            self.drawn += 1
        return values[key]

    def _variant_value(self, kind: str, entity: str, original: str, type_: str) -> str | None:
        found = variants.aliased(original)
        if found is not None:  # "British National Party (BNP)": each name rendered as where it stands alone
            name, opening, alias, closing = found
            got, got_alias = (self._form_value(kind, entity, name, type_),
                              self._form_value(kind, entity, alias, type_))
            if got is not None and got_alias is not None \
                    and not self._prints_original(got + opening + got_alias + closing, original):
                return got + opening + got_alias + closing
        parts = variants.date_parts(original) if kind == routing.DATE else None
        if parts is not None:  # "1 May and 3 June 2001": each date as where it stands alone
            rendered = [self._form_value(kind, f"{routing.DATE}:{_norm(p)}", p, type_) if joint is None else joint
                        for (p, _), joint in zip(parts, variants.plain_joints(parts), strict=True)]
            joined = "".join(r or "" for r in rendered)
            # the words between the dates ("and", "until") are said with a sign, so no word of the original stays
            if all(r is not None for r in rendered) and not self._prints_original(joined, original) and not any(
                    dated and self._prints_original(r, p) for r, (p, dated) in zip(rendered, parts, strict=True)):
                return joined
        lead, core, tail = variants.wrapping(original)
        if lead or tail:
            lead = variants.unprinted_lead(lead)  # "the Council" → "Hydromont": the article is a word of it
            got = self._form_value(kind, entity, core, type_)
            if got is None or not self._leaks(lead + got + tail, original):
                return None if got is None else lead + got + tail
        if kind == routing.ORG and self.policy["organization"] == "list":
            name, legal = variants.legal_form(original)
            if name:
                got = self._form_value(kind, entity, name, type_)
                other = variants.other_legal_form(legal)  # "Serco Limited" → "Hydromont Ltd", never "… Limited"
                if got is None or other is not None and not self._leaks(got + other, original):
                    return None if got is None else got + (other or "")
            if variants.is_acronym(original):
                long = self._long_form(entity, original)
                got = self._form_value(kind, entity, long, type_) if long is not None else None
                acronym = variants.acronym_of(got) if got else None
                if acronym is not None and not self._leaks(acronym, original):
                    return acronym
        return self._value(kind, entity, original, type_)

    def _long_form(self, entity: str, acronym: str) -> str | None:
        """The entity's written name an acronym stands for: its initials, else the longest name of the entity.

        Only forms with letters are names: a person may label a company and its phone number as one entity, and
        the number is no long form of the company's acronym.
        """
        forms = sorted(f for f in self._forms.get(entity, ()) if any(c.isalpha() for c in f))
        partners = sorted(n for f in forms if acronym in (parts := variants.name_parts(f)) for n in parts
                          if len(n.split()) > 1)  # written together: "Kurdistan Workers' Party (PKK)"
        names_of = partners or sorted({n for f in forms for n in variants.name_parts(f) if len(n.split()) > 1})
        exact = [n for n in names_of if variants.expands(acronym, n)]
        if exact:
            return exact[0]
        return max(names_of, key=len, default=None)

    def _features_of(self, region: PrivateRegion, original: str) -> Features | None:
        """The analysis of a region: of the current document after :meth:`begin_document`, else of the
        observed documents (``None`` where two documents analysed the same span and text differently)."""
        if self._explicit:
            return self._morph.get((region.start, region.end))
        return self._morph_all.get((region.start, region.end, original))

    def _record(self, region: PrivateRegion, entity: str, original: str, feats: Features) -> None:
        """Keep the features a mention was rendered with: for the CLI/standoff and in the entity's identity."""
        self.features[(region.start, region.end)] = feats.as_dict()
        ident = self.identities.get(entity)
        if ident is not None:
            ident.setdefault("forms", {})[_norm(original)] = {k: v for k, v in feats.as_dict().items() if v}

    def preposition(self, text: str, region: PrivateRegion, replacement: str) -> tuple[int, str]:
        """The one-consonant preposition before a surrogate, vocalized for it ("s Samuelem" → "se Samuelem").

        Returns (characters of the text before the region to replace, their new text), (0, "") for no
        change.  Only where the region's analysed case is one the preposition governs (Czech "se" is
        also a pronoun: "Jan se Petrovi omluvil" stays).
        """
        feats = self._features_of(region, text[region.start:region.end])
        if feats is None or not replacement[:1].isalpha():
            return 0, ""
        m = _PREP_RE.search(text, max(0, region.start - 6), region.start)
        if m is None:
            return 0, ""
        word = m.group(1)
        if feats.case not in context.preposition_cases(word, self.language):
            return 0, ""
        new = context.vocalize(word, replacement, self.language)
        return (0, "") if new == word else (region.start - m.start(), new + m.group(2))

    # ---------------------------------------------------------------- birth dates (IDs ↔ dates of birth)

    def _birth_date_of(self, kind: str, original: str) -> birthdates.Date | None:
        """The shifted birth date an ID surrogate must encode; registers it for the written date of birth."""
        if kind not in birthdates.BIRTH_DATE_IDS or self.policy["national_id"] != "checksum":
            return None
        born = birthdates.decode(kind, original)
        if born is None:
            return None
        years = self._birth_years.setdefault(born, birthdates.year_range(kind, original))
        return birthdates.shift(self.seed, born, self.policy["year_delta"], years)

    def _birth_date_written(self, original: str) -> birthdates.Date | None:
        """The shifted date for a written date equal to a birth date encoded in an ID (same person)."""
        written = dates.parse(original, self.language)
        years = self._birth_years.get(written) if written is not None else None
        if years is None:
            return None
        return birthdates.shift(self.seed, written, self.policy["year_delta"], years)

    # ---------------------------------------------------------------- generators

    def _rng_make(self, entity: str, kind: str, original: str,
                  fn: Callable[[Any], str | None]) -> Callable[[int], str | None]:
        return lambda attempt: fn(stream(self.seed, entity, kind, _norm(original), attempt))

    def _runner(self, kind: str, entity: str, original: str) -> Callable[..., str | None]:
        """The draw-and-check loop of one mention, so each kind's part only says how one candidate is drawn."""
        def run(fn: Callable[[Any], str | None], unique: bool = True, fixed: bool = False) -> str | None:
            return self._unique(kind, entity, self._rng_make(entity, kind, original, fn), original, unique, fixed)
        return run

    def _value(self, kind: str, entity: str, original: str, type_: str) -> str | None:
        """The surrogate of a mention of a non-name kind, by the kind's own part (``None``: tag it)."""
        run = self._runner(kind, entity, original)
        if kind in VALIDATORS:
            return self._id_value(kind, original, run)
        if kind in (routing.EMAIL, routing.URL, routing.USERNAME):
            return self._contact_value(kind, entity, original, run)
        if kind in (routing.PHONE, routing.NUMBER, routing.POSTAL):
            return self._number_value(kind, original, run)
        if kind == routing.IP:
            return run(lambda rng: re.sub(r"\d+", lambda m: str(rng.randint(*_ip_range(m.group()))), original))
        if kind == routing.DATE:
            return self._date_value(original, run)
        if kind == routing.AGE:
            return self._age_value(original, run)
        if kind == routing.ORG:
            return self._org(entity, original, run)
        if kind == routing.COUNTRY:
            return self._country_value(original, run)
        if kind == routing.CITY:
            return self._city(entity, original, run)
        if kind in (routing.STREET, routing.ADDRESS):
            return self._street(original, run, kind)
        return None

    def _id_value(self, kind: str, original: str, run: Callable[..., str | None]) -> str | None:
        """A national ID or account number: zeros, or a valid checksum (encoding the shifted birth date),
        falling back to random digits where no valid number of that shape exists."""
        mode = self.policy["national_id"]
        if mode == "tag":
            return None
        if mode == "zeros":
            return run(lambda rng: shape.zero_mask(original), unique=False)
        if mode == "checksum":
            born = self._birth_date_of(kind, original)
            got = run(lambda rng: valid_checksum(kind, original, rng, born))
            if got is not None:
                return got
        return run(lambda rng: shape.digits_random(original, rng))

    def _contact_value(self, kind: str, entity: str, original: str, run: Callable[..., str | None]) -> str | None:
        """An e-mail, URL or user name: rebuilt from the owner's surrogate name where it spells one
        (unless the policy tags or fixes it), else shaped like the original or the policy's fixed text."""
        p = self.policy
        policy_key = {routing.EMAIL: "email", routing.URL: "url", routing.USERNAME: "username"}[kind]
        if p[policy_key] not in ("tag", "fixed"):
            got = self._derived(entity, kind, original)
            if got is not None:
                return got
        if kind == routing.EMAIL:
            return self._mode(p["email"], run, lambda rng: self._email(original, rng), p["email_fixed"], original)
        if kind == routing.URL:
            return self._mode(p["url"], run, lambda rng: shape.url(original, rng), p["url_fixed"], original)
        return self._mode(p["username"], run, lambda rng: shape.username(original, rng), "@user", original)

    def _number_value(self, kind: str, original: str, run: Callable[..., str | None]) -> str | None:
        """A phone number, postal code or other number: zeros, a phone number of the language's shape, or
        the original's digits scrambled; a span with nothing alphanumeric is tagged."""
        mode = self.policy["phone" if kind == routing.PHONE else "postal_code" if kind == routing.POSTAL
                          else "number"]
        if mode == "tag" or not any(ch.isalnum() for ch in original):
            return None
        if mode == "zeros":
            return run(lambda rng: shape.zero_mask(original), unique=False)
        if kind == routing.PHONE:
            return run(lambda rng: phones.phone(original, self.language, rng))
        return run(lambda rng: shape.scramble(original, rng))

    def _date_value(self, original: str, run: Callable[..., str | None]) -> str | None:
        """A date shifted in the original's format: the same shift as the ID of a person born that day,
        and never a word of the other end of a range it belongs to (such a draw is redrawn)."""
        p = self.policy
        lang = self.language
        if p["date"] == "tag" or not any(ch.isalnum() for ch in original):
            return None
        born = self._birth_date_written(original)
        if born is not None:
            return run(lambda rng: dates.render(original, lang, born, rng), unique=False)
        siblings = " ".join(sorted(self._range_words.get(_norm(original), ())))

        def shifted(rng: Any) -> str:
            got = variants.plain_joint_words(dates.date(original, lang, rng, p["year_delta"]))
            return original if siblings and shares_word(got, siblings) else got  # rejected by _leaks → redraw

        return run(shifted, unique=False)

    def _age_value(self, original: str, run: Callable[..., str | None]) -> str | None:
        """An age shifted within the policy's delta; a span without a digit is tagged."""
        if self.policy["age"] == "tag" or not any(ch.isdigit() for ch in original):
            return None
        return run(lambda rng: dates.age(original, rng, self.policy["age_delta"]), unique=False)

    def _country_value(self, original: str, run: Callable[..., str | None]) -> str | None:
        """A country kept, tagged or drawn from the language's country list, in the original's letter case."""
        mode = self.policy["country"]
        if mode == "keep":
            return original
        if mode == "tag":
            return None
        pool = namelists.pools(self.language).countries
        return run(lambda rng: shape.apply_case(original, rng.choice(pool)))

    def _email(self, original: str, rng: Any) -> str:
        """A shaped address whose domain is the one surrogate of the original domain (one domain, one surrogate)."""
        local, at, domain = original.rpartition("@")
        if not at:
            return shape.email(original, rng)
        domain_rng = stream(self.seed, "domain", domain.casefold(), 0)
        return shape.scramble(local, rng) + "@" + shape.email("x@" + domain, domain_rng).partition("@")[2]

    def _derived(self, entity: str, kind: str, original: str) -> str | None:
        """An address, handle or URL spelling a person's name, rebuilt from that person's surrogate name
        (:mod:`.derived`); ``None`` when it spells no one's name or the result would leak."""
        owners = sorted({k for k, t in self._templates.items() if t.size > 1 and t.surname
                         and derived.mentions_owner(original, t.given, t.surname)})
        if len(owners) != 1 and len({(self._templates[k].given, self._templates[k].surname) for k in owners}) != 1:
            return None  # nobody's, or two different people's: nothing to derive from
        if not owners:
            return None
        person = owners[0]
        template = self._templates[person]
        self._template_of.setdefault(person, template)
        gender = self._person_gender(person, template, (), {})
        given = tuple(self._surrogate(person, names.FIRST, g, gender) for g in template.given)
        surname = self._surrogate(person, names.LAST, template.surname, gender)
        owner = derived.Owner(template.given, template.surname, given, surname)
        domain = original.rpartition("@")[2].casefold()
        for attempt in range(_TRIES):
            got = derived.derive(original, owner, stream(self.seed, entity, kind, _norm(original), attempt),
                                 stream(self.seed, "domain", domain, 0))
            if not self._leaks(got, original):
                return got
        return None

    @staticmethod
    def _mode(mode: str, run: Callable[..., str | None], shaped: Callable[[Any], str], fixed: str,
              original: str) -> str | None:
        if mode == "tag":
            return None
        if mode == "fixed":
            return run(lambda rng: fixed, unique=False, fixed=True)
        return run(shaped)

    def _org(self, entity: str, original: str, run: Callable[..., str | None]) -> str | None:
        mode = self.policy["organization"]
        if mode == "tag":
            return None
        if mode == "numbered":
            n = self._numbers.setdefault(entity, len(self._numbers) + 1)
            return run(lambda rng: f"{self.policy['organization_prefix']}-{n}", unique=False)
        letters = [c for c in original if c.isalpha()]
        single = " " not in original.strip()
        if single and ((len(letters) <= 6 and sum(c.isupper() for c in letters) >= 2)
                       or any(c.isupper() for c in letters[1:])):
            return run(lambda rng: shape.scramble(original, rng))  # acronym, "mBank": same shape (sTank)
        return run(lambda rng: shape.apply_case(original, names.faker_value(
            self.language, "company", rng.getrandbits(32))) if original.isupper() else names.faker_value(
            self.language, "company", rng.getrandbits(32)))

    def _declined_org(self, original: str) -> bool:
        """Whether an organisation's name is one word this language declines (its surrogate follows the case)."""
        return self.language in _ORG_DECLINED and self.policy["organization"] == "list" \
            and bool(_ALPHA_RE.fullmatch(original.strip().replace("-", "")))

    def _org_word(self, entity: str, original: str, feats: Features) -> str | None:
        """A one-word organisation in the analysed case ("s Agroprojektem" → "s Hydromontem").

        An acronym keeps its shape and its case ending ("v rámci KRBu" → "v rámci HYQu"); another name gets
        an invented firm name of the entity, declined as an inanimate noun.  ``None`` where the language
        has no such form (a plural): the caller falls back to an undeclined company name.
        """
        word = original.strip()
        acronym = _acronym(word)
        if acronym is not None and feats.number != "Plur":
            letters, ending = acronym
            ident = self._identity(entity, routing.ORG)
            base = ident.get("acronym")
            if not isinstance(base, str) or len(base) != len(letters):
                rng = stream(self.seed, entity, routing.ORG, letters.casefold(), "acronym")
                for _ in range(_TRIES):
                    base = shape.scramble(letters, rng)
                    if not self._leaks(base, letters):
                        break
                ident["acronym"] = base
            got = base + ending
            return None if self._leaks(got, original) else got
        if acronym is not None or feats.number == "Plur":
            return None  # a firm's name has no plural
        ident = self._identity(entity, routing.ORG)
        base = ident.get("org_base")
        if not isinstance(base, str):
            rng = stream(self.seed, entity, routing.ORG, "org_base")
            for _ in range(_TRIES):
                cand = rng.choice(ORG_HEADS) + rng.choice(ORG_TAILS)
                owner = self._owner.get((routing.ORG, cand.casefold()))
                if not self._word_taken(cand.casefold()) and owner in (None, entity):
                    base = cand
                    break
            if not isinstance(base, str):
                return None
            ident["org_base"] = base
            self._owner[(routing.ORG, base.casefold())] = entity
        got = inflect_case(base, dataclasses.replace(feats, gender="Masc", animacy="Inan"), self.language,
                           names.PLACE, "m")
        if got is None or self._leaks(got, original):
            return None
        return got.upper() if word.isupper() and len(word) > 1 else got

    def _city(self, entity: str, original: str, run: Callable[..., str | None]) -> str | None:
        if self.policy["city"] == "tag":
            return None
        words = _ALPHA_RE.findall(original)
        if len(words) == 1 and len(original.strip()) == len(words[0]):
            word = words[0]
            form = names.analyse_word(_title(word), self.language, names.PLACE)
            pool = names.candidates(self.language, names.PLACE, form.gender, form)
            base = self._base_place(entity, form, pool)
            if base is not None:  # the identity's place, in this mention's form ("Praze" → "Olomouci")
                got = names.realize(base, form, self.language, names.PLACE, strict=True)
                if got is not None and not self._leaks(got, original) and self._real(got):
                    return shape.case_pattern_word(word, got)
            if pool:
                def one(rng: Any) -> str | None:
                    lemma = rng.choice(pool)
                    if self._word_taken(lemma.casefold()):
                        return original  # rejected by _leaks → redraw
                    got = names.realize(lemma, form, self.language, names.PLACE, strict=True)
                    if got is None or not self._real(got):
                        return original  # rejected by _leaks → redraw
                    return shape.case_pattern_word(word, got)
                return run(one)
        pool = namelists.cities_of_length(self.language, len(words))
        if not pool:
            return run(lambda rng: shape.apply_case(original, names.faker_value(self.language, "city",
                                                                               rng.getrandbits(32))))
        return run(lambda rng: shape.apply_case(original, rng.choice(pool)))

    def _place(self, entity: str, original: str, kind: str, feats: Features) -> str | None:
        """A one-word place in the analysed case and number ("v Pardubicích" → "v Teplicích").

        ``None`` when the language has no declinable pool (the caller falls back to the older rendering).
        """
        if kind == routing.COUNTRY and self.policy["country"] != "replace":
            return None
        words = _ALPHA_RE.findall(original)
        if not words:
            return None
        plural = feats.number == "Plur"
        pool = names.declinable_places(self.language, plural)
        gender = _PLACE_GENDERS.get(feats.gender)
        # "z ruskej Karélie", "zastoupeno Polsko": the words around agree with the place, so a place of its gender
        # first; when the project has used them all, any declinable place (agreement lost, still a real word)
        pools = [names.declinable_places_of_gender(self.language, gender), pool] if gender and not plural else [pool]
        lemma = names.analyse_word(_title(words[-1]), self.language, names.PLACE).lemma
        slot = "base_plural" if plural else "base"
        base = None
        for candidates in pools:
            if candidates:
                base = self._base_place(entity, names.WordForm(lemma), candidates, slot, words[-1])
            if base is not None:
                break
        else:
            return None
        got = inflect_case(base, feats, self.language, names.PLACE, "")
        if got is None or self._leaks(got, original) or not self._real(got):
            return None
        return shape.case_pattern_word(words[-1], got) if original.isupper() else got

    def _possessive(self, entity: str, original: str) -> str | None:
        """A possessive adjective of a name gets a possessive of the surrogate name, in the same ending
        ("za Konstantinovy vlády" → "za Radimovy vlády", "so Šafárikovým predhovorom" → "s Hudecovým …")."""
        split = possessive_split(original, self.language)
        if split is None:
            return None
        stem, ending = split
        ident = self._identity(entity, routing.PERSON)
        key = f"possessive:{stem.casefold()}"
        stored = ident.setdefault("names", {}).get(key)
        stems = possessive_stems(self.language)
        mine = [possessive_stem(str(v), self.language) for k, v in ident["names"].items()
                if k in (f"{names.LAST}:{stem.casefold()}", f"{names.FIRST}:{stem.casefold()}")]
        if isinstance(stored, str):
            order = [stored]
        elif any(mine):  # the person's own surrogate name: "Novák" → "Dvořák", "Novákova" → "Dvořákova"
            order = [m for m in mine if m] + list(stream(self.seed, entity, "possessive", stem.casefold()).sample(
                stems, len(stems)))
        else:
            rng = stream(self.seed, entity, "possessive", stem.casefold())
            order = rng.sample(stems, len(stems))
        for cand in order:
            word = cand + ending
            cf = cand.casefold()
            if not self._real(word) or self._word_taken(cf) or self._leaks(word, original) \
                    or self._owner.get((names.LAST, cf)) not in (None, entity):
                continue
            self._owner[(names.LAST, cf)] = entity
            ident["names"][key] = cand
            if not isinstance(stored, str):
                self.drawn += 1
            return shape.case_pattern_word(original, word)
        return None

    def _real(self, form: str) -> bool:
        """Whether every word of a rendered surrogate is a real word of the language (:mod:`.names`)."""
        return all(names.is_real_form(w, self.language) for w in _ALPHA_RE.findall(form))

    def _base_place(self, entity: str, form: names.WordForm, pool: tuple[str, ...],
                    slot: str = "base", word: str = "") -> str | None:
        """One place lemma per entity (stored in its identity), so every form of a place gets the same place."""
        ident = self._identity(entity, routing.CITY)
        if slot in ident:
            return str(ident[slot])
        lemma = form.lemma.casefold()
        for attempt in range(_TRIES if pool else 0):
            cand = stream(self.seed, entity, "place", attempt).choice(pool)
            cf = cand.casefold()
            if cf == lemma or self._word_taken(cf) or (word and cf[:_STEM + 1] == word.casefold()[:_STEM + 1]):
                continue  # (the same stem as the original word: "Teplicím" → not "Teplice")
            owner = self._owner.get(("place", cf))
            if owner is not None and owner != entity:
                continue
            self._owner[("place", cf)] = entity
            ident[slot] = cand
            self.drawn += 1
            return cand
        return None

    def _street(self, original: str, run: Callable[..., str | None], kind: str) -> str | None:
        if self.policy["street"] == "tag":
            return None
        p = namelists.pools(self.language)
        words = list(_ALPHA_RE.finditer(original))

        def make(rng: Any) -> str:
            text = shape.digits_random(original, rng)
            if kind == routing.STREET and words:
                start, end = words[0].start(), words[-1].end()
                n = len(words)
                pool = namelists.streets_of_length(self.language, n) or p.streets
                name = rng.choice(pool) if pool else names.faker_value(self.language, "street_name",
                                                                       rng.getrandbits(32))
                return text[:start] + shape.apply_case(original[start:end], name) + text[end:]
            out, pos = [], 0
            pool = namelists.single_word_places(self.language) or ("Springfield",)
            for m in words:
                out.append(text[pos:m.start()])
                w = m.group()
                if original[m.start() - 1:m.start()].isdigit() or original[m.end():m.end() + 1].isdigit():
                    out.append(shape.scramble(w, rng))  # the letters of a postcode ("OQ6 8PA") or a house "12a"
                else:
                    out.append(shape.case_pattern_word(w, rng.choice(pool)) if w[0].isupper() and len(w) > 2 else w)
                pos = m.end()
            out.append(text[pos:])
            return "".join(out)
        return run(make)

    # ---------------------------------------------------------------- persons

    def _person(self, entity: str, original: str, type_: str, feats: Features | None = None) -> str | None:
        if self.policy["person"] == "tag":
            return None
        matches = list(_ALPHA_RE.finditer(original))

        def kept(m: re.Match[str]) -> bool:
            """Honorifics, possessive 's and the O'/D' prefix stay as they are."""
            w, before, after = m.group(), original[m.start() - 1:m.start()], original[m.end():m.end() + 1]
            hyphen = "-" in (before, after)  # "Ing-wen" is a name, not the title Ing.
            conjunction = w in ("a", "i", "e", "u") and before == " " and after == " "  # "Romana a Petra"
            return ((w.casefold() in namelists.KEEP_WORDS and not hyphen)
                    or (w == "s" and before in "'’" and before != "")
                    or (len(w) == 1 and after in ("'", "’") and after != "") or conjunction)

        def glued(m: re.Match[str]) -> bool:
            """A case ending written after an apostrophe ("Strobe'a", "Dumbledore'a"): the surrogate before it
            is already declined, so the ending goes (never an initial: "Krystiana'm")."""
            before = original[max(0, m.start() - 2):m.start()]
            return (self.language in _INFLECTED and m.group().islower() and len(before) == 2
                    and before[1] in "'’`," and before[0].isalpha())

        endings = {m.start() for m in matches if glued(m)}
        numerals = {m.start() for i, m in enumerate(matches) if regnal.is_regnal(m.group(), first=i == 0)}
        name_words = [m for m in matches if len(m.group()) > 1 and not kept(m) and m.start() not in endings
                      and m.start() not in numerals]
        if not name_words and not any(len(m.group()) == 1 for m in matches):
            return None
        template = self._template_of.get(entity)
        parts = self._align(name_words, template, type_, feats.case if feats is not None and feats.number != "Plur"
                            else "", given_only=bool(numerals))
        gender = self._person_gender(entity, template, name_words, parts)
        ident = self._identity(entity, routing.PERSON)
        ident.setdefault("gender", gender)
        if template is not None and template.size > 1:
            ident["template"] = {"given": list(template.given), "surname": template.surname, "gender": gender}
        rng_digits = stream(self.seed, entity, "digits", _norm(original))
        out: list[str] = []
        pos = 0
        n_initial = 0
        for m in matches:
            if m.start() in endings:  # the apostrophe and the ending go
                out.append(shape.digits_random(original[pos:m.start() - 1], rng_digits))
                pos = m.end()
                continue
            out.append(shape.digits_random(original[pos:m.start()], rng_digits))
            word = m.group()
            if m.start() in parts:
                out.append(self._name_word(entity, word, parts[m.start()], gender, feats))
            elif m.start() in numerals:
                out.append(regnal.regnal_surrogate(word, stream(self.seed, entity, "regnal", word)))
            elif word.casefold() in namelists.HONORIFIC_STANDINS and kept(m):
                out.append(shape.case_pattern_word(word, namelists.HONORIFIC_STANDINS[word.casefold()]))
            elif word.casefold() in namelists.DROPPED_PARTICLES and kept(m) and original[:m.start()].strip() \
                    and original[m.end():m.end() + 1].isspace():
                out[-1] = out[-1].rstrip()  # the particle and the space before it go; the space after it stays
                pos = m.end()
                continue
            elif len(word) == 1 and not kept(m):
                out.append(self._initial(entity, word, n_initial, template, gender))
                n_initial += 1
            else:
                out.append(word)
            pos = m.end()
        out.append(shape.digits_random(original[pos:], rng_digits))
        result = "".join(out)
        if self._leaks(result, original):
            return None
        return result

    def _align(self, name_words: Sequence[re.Match[str]], template: NameTemplate | None,
               type_: str, case: str = "", given_only: bool = False) -> dict[int, tuple[str, str]]:
        """Role and lemma of each name word: from the entity's template where a word matches it, else from the
        word's form in the mention's analysed ``case``.

        ``given_only``: the name has a regnal number ("Jan Pavel II"), so its words are given names, no surname."""
        parts: dict[int, tuple[str, str]] = {}
        for i, m in enumerate(name_words):
            word = _title(m.group())
            if template is not None and template.size:
                lemmas = word_lemmas(word, self.language)
                if template.surname and template.surname.casefold() in lemmas:
                    parts[m.start()] = (names.LAST, template.surname)
                    continue
                given = next((g for g in template.given if g.casefold() in lemmas), None)
                if given is not None:
                    parts[m.start()] = (names.FIRST, given)
                    continue
            if type_ == "pf" or given_only:
                role = names.FIRST
            elif type_ == "ps":
                role = names.LAST
            elif len(name_words) > 1:
                role = names.LAST if i == len(name_words) - 1 else names.FIRST
            else:
                role = self._single_role(word)
            parts[m.start()] = (role, names.analyse_word(word, self.language, role, "", case).lemma)
        return parts

    def _person_gender(self, entity: str, template: NameTemplate | None, name_words: Sequence[re.Match[str]],
                       parts: Mapping[int, tuple[str, str]]) -> str:
        """The entity's gender: stored, from a title or the inflection, else from the first-name lists."""
        stored = (self.identities.get(entity) or self._stored.get(entity) or {}).get("gender")
        if stored is not None:
            return str(stored)
        gender = self._gender.get(entity)
        if gender is not None:
            return gender
        gender = self._morph_gender.get(entity, "")
        if gender:  # the document's analysis: titles, -ová, name lists and the mentions' forms voted
            self._gender[entity] = gender
            return gender
        lang = self.language
        gender = template.gender if template is not None else ""
        if not gender and template is not None:
            for lemma in template.given:
                gender = gender or names.gender_hint(lemma, lang, names.FIRST)
            if template.surname:
                gender = gender or names.gender_hint(template.surname, lang, names.LAST)
        for role in (names.FIRST, names.LAST):
            for m in name_words:
                if gender or parts[m.start()][0] != role:
                    continue
                form = names.analyse_word(_title(m.group()), lang, role)
                gender = names.gender_hint(form.lemma, lang, role) or form.gender
        self._gender[entity] = gender
        return gender

    def _name_word(self, entity: str, word: str, part: tuple[str, str], gender: str,
                   feats: Features | None = None) -> str:
        """One name word rendered from the identity, in the original word's form and case pattern.

        With ``feats`` (the mention's analysed case and number) the surrogate is put in that case;
        otherwise the form is matched against the entity's lemma or analysed alone.
        """
        role, lemma = part
        plural = feats is not None and feats.number == "Plur" and gender != "f"
        sur = self._surrogate(entity, role, lemma, gender, plural)
        surface = self._render(sur, word, lemma, role, gender, feats)
        if not (plural and names.is_family_plural(surface, self.language)) \
                and not names.is_real_form(surface, self.language) and wordlist.available(self.language):
            surface = self._real_redraw(entity, word, lemma, role, gender, feats) or surface
        return shape.case_pattern_word(word, surface)

    def _real_redraw(self, entity: str, word: str, lemma: str, role: str, gender: str,
                     feats: Features | None) -> str | None:
        """Another surrogate lemma for a name word whose form would be no word ("Kdyněe"): the first of the
        role's pool whose form here is a real word; the entity keeps it for its later mentions."""
        lemma_key = lemma.casefold()
        pool = names.candidates(self.language, role, gender, names.analyse_word(
            lemma if lemma[:1].isupper() else lemma.capitalize(), self.language, role, gender))
        pool = pool + tuple(c for c in names.role_pool(self.language, role, gender) if c not in pool)
        rng = stream(self.seed, entity, role, lemma_key, "real")
        for cand in rng.sample(pool, len(pool)):
            cf = cand.casefold()
            if cf == lemma_key or self._word_taken(cf) or self._owner.get((role, cf)) not in (None, entity):
                continue
            surface = self._render(cand, word, lemma, role, gender, feats)
            if names.is_real_form(surface, self.language):
                self._owner[(role, cf)] = entity
                self._words[(entity, role, lemma_key)] = cand
                self._identity(entity, routing.PERSON).setdefault("names", {})[f"{role}:{lemma_key}"] = cand
                return surface
        return None

    def _render(self, sur: str, word: str, lemma: str, role: str, gender: str, feats: Features | None) -> str:
        """The surrogate lemma ``sur`` in the original word's form (the analysed case, else the word's slot)."""
        lang = self.language
        surface: str | None = None
        if feats is not None and feats.case:
            surface = inflect_case(sur, feats, lang, role, gender or feats.short_gender or "m")
        if surface is not None:
            pass
        elif lang == "cs":  # Slovak and Slovenian have paradigms of their own (names.declension_for)
            slot = inflect_cs.slot_of(_title(word), lemma, gender or "m")
            if slot is not None:
                surface = inflect_cs.inflect(sur, slot, gender or "m")
        if surface is None:
            form = names.analyse_word(_title(word), lang, role, gender)
            surface = names.realize(sur, form, lang, role, gender or form.gender) or sur
        if surface.casefold() == word.casefold():
            surface = sur
        return surface

    def _surrogate(self, entity: str, role: str, lemma: str, gender: str, plural: bool = False) -> str:
        """The identity's surrogate lemma for one original name lemma (drawn once per entity; for a ``plural``
        mention, a family or a nation, from the names that have a family plural: Moravec → Moravcovi)."""
        lemma_key = lemma.casefold()
        wkey = (entity, role, lemma_key)
        sur = self._words.get(wkey)
        if sur is not None:
            return sur
        ident = self._identity(entity, routing.PERSON)
        stored = ident.setdefault("names", {}).get(f"{role}:{lemma_key}")
        if stored is not None:
            sur = str(stored)
            self._owner.setdefault((role, sur.casefold()), entity)
        else:
            form = names.analyse_word(lemma if lemma[:1].isupper() else lemma.capitalize(), self.language, role,
                                      gender)
            pool = names.candidates(self.language, role, gender or form.gender, form)
            if plural:
                pool = tuple(c for c in pool if names.plural_person(c, "Nom", self.language)) \
                    or names.family_plural_pool(self.language, role, gender) or pool
            sur = self._draw_word(entity, role, lemma_key, pool)
            ident["names"][f"{role}:{lemma_key}"] = sur
            self.drawn += 1
        self._words[wkey] = sur
        template = self._template_of.get(entity)
        if template is not None:
            if role == names.LAST and lemma == template.surname:
                ident["surname"] = sur
            elif role == names.FIRST and template.given and lemma == template.given[0]:
                ident["first_name"] = sur
        return sur

    def _initial(self, entity: str, word: str, index: int, template: NameTemplate | None, gender: str) -> str:
        """An initial: the initial of the identity's surrogate for that given name ("J. Harper" → "R. Hansen")."""
        if template is not None and index < len(template.given):
            sur = self._surrogate(entity, names.FIRST, template.given[index], gender)
        else:
            sur = self._surrogate(entity, names.FIRST, f"{word.casefold()}#{index}", gender)
        letter = sur[:1] or self.policy["initial"]
        return letter.upper() if word.isupper() else letter.lower()

    def _single_role(self, word: str) -> str:
        p = namelists.pool_sets(self.language)
        if self.language in ("sv", "en") and word.endswith("s") and word not in p.first_m and word not in p.first_f:
            word = word[:-1]  # genitive
        if self.language == "pl":
            readings = names.inflect_pl.analyse(word, names.FIRST)
            if readings and "imię" in readings[0].quals and "nazwisko" not in readings[0].quals:
                return names.FIRST
        if names.declension_for(self.language) is not None:
            readings = names.declension_for(self.language).analyse(word, self.language)
            if readings and readings[0].known and (readings[0].lemma in p.first_m or readings[0].lemma in p.first_f):
                return names.FIRST
        return names.FIRST if word in p.first_m or word in p.first_f else names.LAST

    def _draw_word(self, entity: str, role: str, lemma_key: str, pool: tuple[str, ...]) -> str:
        """A surrogate name word no other entity owns; first names also avoid the original's initial."""
        avoid = lemma_key[:1] if role == names.FIRST else ""
        template = self._template_of.get(entity)
        # none of the person's own names either ("Jána Pavla II." must not become "Augustína Jána XIII.")
        own = {w.casefold() for w in (*template.given, template.surname) if w} if template is not None else set()
        fallback: str | None = None
        for attempt in range(_TRIES):
            rng = stream(self.seed, entity, role, lemma_key, attempt)
            if pool:
                cand = rng.choice(pool)
            else:
                method = "first_name" if role == names.FIRST else "last_name"
                cand = names.faker_value(self.language, method, rng.getrandbits(32))
            cf = cand.casefold()
            if cf == lemma_key or cf in own or self._word_taken(cf):
                continue
            if avoid and cf[:1] == avoid and attempt < _TRIES // 2:
                continue
            fallback = fallback or cand
            owner = self._owner.get((role, cf))
            if owner is not None and owner != entity:
                continue
            self._owner[(role, cf)] = entity
            return cand
        if fallback is not None:
            return fallback
        # never a random string as a name: the whole role's pool, shared with another entity if it must be
        wide = [c for c in names.role_pool(self.language, role, "") if c.casefold() != lemma_key
                and c.casefold() not in own and not self._word_taken(c.casefold())]
        rng = stream(self.seed, entity, role, lemma_key, "wide")
        free = [c for c in wide if self._owner.get((role, c.casefold())) in (None, entity)]
        cand = rng.choice(free or wide) if (free or wide) else names.faker_value(
            self.language, "first_name" if role == names.FIRST else "last_name", rng.getrandbits(32))
        self._owner.setdefault((role, cand.casefold()), entity)
        return cand


#: a lower-case word right after a mention: the noun a possessive adjective agrees with (not a past-tense
#: verb: "Lavrov povedal", "Ivanova řekla" are a Russian name and its verb)
_NEXT_LOWER = re.compile(r"\s+(?![^\W\d_]*(?:l|la|li|lo|ly|ł|ła|ło|li|ły)\b)[^\W\d_A-ZÁČĎÉĚÍĹĽŇÓÔŘŔŠŤÚŮÝŽŁŚŹŻĆŃ]",
                         re.UNICODE)
#: endings of possessive adjectives from men's names (short vowels: "Novákova" is a possessive, "Nováková"
#: a woman's surname), longest first
_POSSESSIVE_ENDINGS = {
    "cs": ("ovými", "ových", "ovým", "ovou", "ův", "ova", "ovo", "ovy", "ově", "ovu"),
    "sk": ("ovými", "ových", "ovým", "ovho", "ovmu", "ovom", "ovej", "ovou", "ov", "ova", "ovo", "ovu"),
    "pl": ("owego", "owemu", "owych", "owymi", "owym", "owej", "ową", "owy", "owa", "owe"),
}


def possessive_split(word: str, language: str) -> tuple[str, str] | None:
    """(stem, ending) of a possessive adjective of a name ("Konstantinovy" → ("Konstantin", "ovy")), else ``None``."""
    if not word[:1].isupper() or not word[1:].islower() or not word.isalpha():
        return None
    for end in _POSSESSIVE_ENDINGS.get(language, ()):
        if word.endswith(end) and len(word) - len(end) >= 3:
            return word[: -len(end)], end
    return None


def possessive_stem(lemma: str, language: str) -> str:
    """The stem a man's name forms its possessive from (Karel → Karl-, Tůma → Tům-, Novák → Novák-; "" none)."""
    decl = names.declension_for(language)
    if lemma.endswith("a") and language != "pl":
        return lemma[:-1]
    if decl is not None:
        gen = decl.decline(lemma, "m", True).get("2", "")
        return gen[:-1] if gen.endswith("a") and not lemma.endswith(("ý", "í", "o", "e", "i")) else ""
    if language == "pl" and lemma[-1:] not in "aąeęioóuy" and not lemma.endswith(names._PL_ADJ):  # noqa: SLF001
        return lemma
    return ""


@cache
def possessive_stems(language: str) -> tuple[str, ...]:
    """Possessive stems of men's surrogate names (:func:`possessive_stem`)."""
    pool = names.role_pool(language, names.FIRST, "m") + names.role_pool(language, names.LAST, "m")
    return tuple(dict.fromkeys(s for s in (possessive_stem(c, language) for c in pool) if s))


def _acronym(word: str) -> tuple[str, str] | None:
    """(capitals, case ending) of an acronym ("KRBu" → ("KRB", "u"), "OSN-u", "UNESCO"), else ``None``."""
    i = len(word)
    while i > 0 and word[i - 1].islower() and len(word) - i < 3:
        i -= 1
    letters, ending = word[:i], word[i:]
    if letters.endswith("-"):
        letters, ending = letters[:-1], "-" + ending
    if len(letters) >= 2 and letters.isupper() and letters.isalpha():
        return letters, ending
    return None


def inflect_case(lemma: str, feats: Features, language: str, role: str, gender: str) -> str | None:
    """``lemma`` (a surrogate) in the case and number of ``feats`` (``None`` when it has no such form)."""
    person = role != names.PLACE
    if language == "pl":
        if not names.inflect_pl.available():
            return None
        number = "pl" if feats.number == "Plur" else "sg"
        g = "" if not person else ("f" if gender == "f" else "m1")
        like = names.inflect_pl.Interp("", frozenset({(number, PL_CASE_OF.get(feats.case, "nom"))}), g, ())
        return names.inflect_pl.inflect(lemma, like, role if person else "place")
    if feats.number == "Plur" and not person:
        return names.plural_place(lemma, feats.case, language)
    if feats.number == "Plur" and gender != "f":  # a family or a nation ("Novákovi", "Maďaři"): a family plural
        got = names.plural_person(lemma, feats.case, language)
        if got is not None:
            return got
    decl = names.declension_for(language)
    if decl is None or not feats.slot:
        return None
    if not person:
        gender = names.place_gender(lemma, language)
    return decl.inflect(lemma, feats.slot, gender or "m", person)


def _ip_range(part: str) -> tuple[int, int]:
    return {1: (0, 9), 2: (10, 99)}.get(len(part), (100, 255))


def pseudonymize_document(text: str, regions: Sequence[PrivateRegion], language: str, seed: int | str = 0,
                          policy: Mapping[str, Any] | None = None, *, replacer: SurrogateReplacer | None = None,
                          document: str = "", key: PseudonymKey | None = None,
                          entity_keys: Mapping[tuple[int, int], str] | None = None,
                          keys: Mapping[tuple[int, int], str] | None = None) -> tuple[Output, list[dict[str, Any]]]:
    """Pseudonymize one document; returns the output and its key entries (standoff + ``entity``/``document``).

    Pass one ``replacer`` for all documents of a project to keep surrogates
    consistent across them; entries are also added to the pseudonymization ``key``
    (or the replacer's) when given.  ``entity_keys`` (character span → entity key)
    override the automatic entity linking; ``keys`` is its older name.
    """
    if replacer is None:
        replacer = SurrogateReplacer(policy, language, seed)
    replacer.observe(text, regions, entity_keys if entity_keys is not None else keys)
    output = pseudonymize(text, regions, replacer, language=language)
    entries = []
    for e in output.standoff:
        entry = dict(e)
        entry["entity"] = replacer.entities.get((e["original_start"], e["original_end"]), "")
        entry["document"] = document
        entries.append(entry)
    target = key if key is not None else replacer.key
    if target is not None:
        target.add(document, entries)
    return output, entries


def digest_seed(seed: int | str) -> int:
    """A project seed from any string (e.g. the project id)."""
    return digest("psan-surrogates", seed)
