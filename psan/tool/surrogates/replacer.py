"""``SurrogateReplacer``: realistic, consistent, reversible surrogates for ``output.pseudonymize``.

Why and how:

* **consistency** — the entity key is the region's label (``label:7``) or,
  without one, its kind plus the normalized original (lemmas for names, so
  "Nováka" and "Novák" are one person); every draw comes from a stream seeded
  by SHA-256 of (project seed, entity, …), so runs and processes agree;
* **uniqueness** — a surrogate (a name word per role, or a whole value) owned
  by one entity is never given to another; the draw is repeated instead
  (fixed/zero masks of the SweLL preset are many-to-one by design);
* **no leaks** — :meth:`SurrogateReplacer.observe` registers the originals of a
  document (or project); a candidate equal to an original, or containing one
  as a whole token sequence, is redrawn; when nothing safe is found the
  region falls back to its tag (``None``);
* **form** — see :mod:`.shape`, :mod:`.dates`, :mod:`.checksum`, :mod:`.names`.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from psan.tool.output import Output, pseudonymize
from psan.tool.surrogates import dates, names, routing, shape
from psan.tool.surrogates.checksum import VALIDATORS, valid_checksum
from psan.tool.surrogates.key import PseudonymKey
from psan.tool.surrogates.policy import make_policy
from psan.tool.surrogates.rng import digest, stream
from psan.tool.voting import PrivateRegion

__all__ = ["SurrogateReplacer", "pseudonymize_document"]

_TOKEN_RE = re.compile(r"\w+|[^\w\s]", re.UNICODE)
_ALPHA_RE = re.compile(r"[^\W\d_]+", re.UNICODE)
_TRIES = 60


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def _title(word: str) -> str:
    return word[:1].upper() + word[1:].lower() if len(word) > 1 and word.isupper() else word


class SurrogateReplacer:
    """A :class:`psan.tool.output.Replacer` drawing per-category surrogates (see module docstring)."""

    def __init__(self, policy: Mapping[str, Any] | None = None, language: str = "en", seed: int | str = 0,
                 key: PseudonymKey | None = None) -> None:
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
        self._forbidden_words: set[str] = set()
        #: (start, end) → entity key of the regions replaced since the last ``observe``
        self.entities: dict[tuple[int, int], str] = {}

    # ---------------------------------------------------------------- bookkeeping

    def observe(self, text: str, regions: Sequence[PrivateRegion]) -> None:
        """Register the private originals of a document, so no surrogate reproduces one of them."""
        self.entities = {}
        for r in regions:
            original = text[r.start:r.end]
            self._forbidden.add(_norm(original))
            for w in _ALPHA_RE.findall(original):
                if len(w) > 1:
                    self._forbidden_words.add(w.casefold())

    def _leaks(self, candidate: str, original: str) -> bool:
        if _norm(candidate) == _norm(original):
            return True
        if not self._forbidden:
            return False
        toks = list(_TOKEN_RE.finditer(candidate))
        for i in range(len(toks)):
            for j in range(i, min(len(toks), i + 12)):
                if _norm(candidate[toks[i].start():toks[j].end()]) in self._forbidden:
                    return True
        return False

    def _unique(self, kind: str, entity: str, make: Callable[[int], str | None], original: str,
                unique: bool = True) -> str | None:
        """First candidate of ``make(attempt)`` that leaks nothing and no other entity owns."""
        for attempt in range(_TRIES):
            cand = make(attempt)
            if cand is None:
                return None
            if self._leaks(cand, original):
                continue
            owner = self._owner.get((kind, _norm(cand)))
            if unique and owner is not None and owner != entity:
                continue
            self._owner[(kind, _norm(cand))] = entity
            return cand
        return None

    def entity_key(self, region: PrivateRegion, original: str, kind: str) -> str:
        if region.label is not None:
            return f"label:{region.label}"
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
        if kind == routing.PERSON:
            return self._person(entity, original, region.type)
        cache_key = (entity, kind, _norm(original))
        if cache_key not in self._values:
            self._values[cache_key] = self._value(kind, entity, original, region.type)
        return self._values[cache_key]

    # ---------------------------------------------------------------- generators

    def _rng_make(self, entity: str, kind: str, original: str,
                  fn: Callable[[Any], str | None]) -> Callable[[int], str | None]:
        return lambda attempt: fn(stream(self.seed, entity, kind, _norm(original), attempt))

    def _value(self, kind: str, entity: str, original: str, type_: str) -> str | None:
        p = self.policy
        lang = self.language

        def run(fn: Callable[[Any], str | None], unique: bool = True) -> str | None:
            return self._unique(kind, entity, self._rng_make(entity, kind, original, fn), original, unique)

        if kind in VALIDATORS:
            mode = p["national_id"]
            if mode == "tag":
                return None
            if mode == "zeros":
                return run(lambda rng: shape.zero_mask(original), unique=False)
            if mode == "checksum":
                got = run(lambda rng: valid_checksum(kind, original, rng))
                if got is not None:
                    return got
            return run(lambda rng: shape.digits_random(original, rng))
        if kind == routing.EMAIL:
            return self._mode(p["email"], run, lambda rng: shape.email(original, rng), p["email_fixed"], original)
        if kind == routing.URL:
            return self._mode(p["url"], run, lambda rng: shape.url(original, rng), p["url_fixed"], original)
        if kind == routing.USERNAME:
            return self._mode(p["username"], run, lambda rng: shape.username(original, rng), "@user", original)
        if kind in (routing.PHONE, routing.NUMBER, routing.POSTAL):
            mode = p["phone" if kind == routing.PHONE else "postal_code" if kind == routing.POSTAL else "number"]
            if mode == "tag" or not any(ch.isalnum() for ch in original):
                return None
            if mode == "zeros":
                return run(lambda rng: shape.zero_mask(original), unique=False)
            if kind == routing.PHONE:
                return run(lambda rng: shape.digits_random(original, rng))
            return run(lambda rng: shape.scramble(original, rng))
        if kind == routing.IP:
            return run(lambda rng: re.sub(r"\d+", lambda m: str(rng.randint(*_ip_range(m.group()))), original))
        if kind == routing.DATE:
            if p["date"] == "tag" or not any(ch.isalnum() for ch in original):
                return None
            return run(lambda rng: dates.date(original, lang, rng, p["year_delta"]), unique=False)
        if kind == routing.AGE:
            if p["age"] == "tag" or not any(ch.isdigit() for ch in original):
                return None
            return run(lambda rng: dates.age(original, rng, p["age_delta"]), unique=False)
        if kind == routing.ORG:
            return self._org(entity, original, run)
        if kind == routing.COUNTRY:
            if p["country"] == "keep":
                return original
            if p["country"] == "tag":
                return None
            pool = names.pools(lang).countries
            return run(lambda rng: shape.apply_case(original, rng.choice(pool)))
        if kind == routing.CITY:
            return self._city(entity, original, run)
        if kind in (routing.STREET, routing.ADDRESS):
            return self._street(original, run, kind)
        return None

    @staticmethod
    def _mode(mode: str, run: Callable[..., str | None], shaped: Callable[[Any], str], fixed: str,
              original: str) -> str | None:
        if mode == "tag":
            return None
        if mode == "fixed":
            return run(lambda rng: fixed, unique=False)
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

    def _city(self, entity: str, original: str, run: Callable[..., str | None]) -> str | None:
        if self.policy["city"] == "tag":
            return None
        words = _ALPHA_RE.findall(original)
        if len(words) == 1 and len(original.strip()) == len(words[0]):
            word = words[0]
            form = names.analyse_word(_title(word), self.language, names.PLACE)
            pool = names.candidates(self.language, names.PLACE, form.gender, form)
            if pool:
                def one(rng: Any) -> str | None:
                    lemma = rng.choice(pool)
                    if lemma.casefold() in self._forbidden_words:
                        return original  # rejected by _leaks → redraw
                    got = names.realize(lemma, form, self.language, names.PLACE, strict=True)
                    return original if got is None else shape.case_pattern_word(word, got)  # None → redraw
                return run(one)
        pool = names.cities_of_length(self.language, len(words))
        if not pool:
            return run(lambda rng: shape.apply_case(original, names.faker_value(self.language, "city",
                                                                               rng.getrandbits(32))))
        return run(lambda rng: shape.apply_case(original, rng.choice(pool)))

    def _street(self, original: str, run: Callable[..., str | None], kind: str) -> str | None:
        if self.policy["street"] == "tag":
            return None
        p = names.pools(self.language)
        words = list(_ALPHA_RE.finditer(original))

        def make(rng: Any) -> str:
            text = shape.digits_random(original, rng)
            if kind == routing.STREET and words:
                start, end = words[0].start(), words[-1].end()
                n = len(words)
                pool = names.streets_of_length(self.language, n) or p.streets
                name = rng.choice(pool) if pool else names.faker_value(self.language, "street_name",
                                                                       rng.getrandbits(32))
                return text[:start] + shape.apply_case(original[start:end], name) + text[end:]
            out, pos = [], 0
            pool = names.single_word_places(self.language) or ("Springfield",)
            for m in words:
                out.append(text[pos:m.start()])
                w = m.group()
                out.append(shape.case_pattern_word(w, rng.choice(pool)) if w[0].isupper() and len(w) > 2 else w)
                pos = m.end()
            out.append(text[pos:])
            return "".join(out)
        return run(make)

    # ---------------------------------------------------------------- persons

    def _person(self, entity: str, original: str, type_: str) -> str | None:
        if self.policy["person"] == "tag":
            return None
        lang = self.language
        matches = list(_ALPHA_RE.finditer(original))
        def kept(m: re.Match[str]) -> bool:
            """Honorifics, possessive 's and the O'/D' prefix stay as they are."""
            w, before, after = m.group(), original[m.start() - 1:m.start()], original[m.end():m.end() + 1]
            return (w.casefold() in names.KEEP_WORDS or (w == "s" and before in "'’" and before != "")
                    or (len(w) == 1 and after in ("'", "’") and after != ""))

        name_words = [m for m in matches if len(m.group()) > 1 and not kept(m)]
        if not name_words and not any(len(m.group()) == 1 for m in matches):
            return None
        roles: dict[int, str] = {}
        for i, m in enumerate(name_words):
            if type_ == "pf":
                roles[m.start()] = names.FIRST
            elif type_ == "ps":
                roles[m.start()] = names.LAST
            elif len(name_words) > 1:
                roles[m.start()] = names.LAST if i == len(name_words) - 1 else names.FIRST
            else:
                roles[m.start()] = self._single_role(_title(m.group()))
        gender = self._gender.get(entity)
        if gender is None:
            gender = ""
            for role in (names.FIRST, names.LAST):
                for m in name_words:
                    if roles[m.start()] != role:
                        continue
                    form = names.analyse_word(_title(m.group()), lang, role)
                    gender = gender or names.gender_hint(form.lemma, lang, role) or form.gender
            self._gender[entity] = gender
        rng_digits = stream(self.seed, entity, "digits", _norm(original))
        out: list[str] = []
        pos = 0
        for m in matches:
            out.append(shape.digits_random(original[pos:m.start()], rng_digits))
            word = m.group()
            if m.start() in roles:
                out.append(self._name_word(entity, word, roles[m.start()], gender))
            elif len(word) == 1 and not kept(m):
                letter = self.policy["initial"].upper()
                if word.upper() == letter:
                    letter = "B" if letter != "B" else "C"
                out.append(letter if word.isupper() else letter.lower())
            else:
                out.append(word)
            pos = m.end()
        out.append(shape.digits_random(original[pos:], rng_digits))
        result = "".join(out)
        if self._leaks(result, original):
            return None
        return result

    def _single_role(self, word: str) -> str:
        p = names.pool_sets(self.language)
        if self.language in ("sv", "en") and word.endswith("s") and word not in p.first_m and word not in p.first_f:
            word = word[:-1]  # genitive
        if self.language == "pl":
            readings = names.inflect_pl.analyse(word, names.FIRST)
            if readings and "imię" in readings[0].quals and "nazwisko" not in readings[0].quals:
                return names.FIRST
        if self.language in ("cs", "sk"):
            readings = names.inflect_cs.analyse(word, self.language)
            if readings and readings[0].known and (readings[0].lemma in p.first_m or readings[0].lemma in p.first_f):
                return names.FIRST
        return names.FIRST if word in p.first_m or word in p.first_f else names.LAST

    def _name_word(self, entity: str, word: str, role: str, gender: str) -> str:
        lang = self.language
        title = _title(word)
        form = names.analyse_word(title, lang, role, gender)
        lemma_key = form.lemma.casefold()
        wkey = (entity, role, lemma_key)
        sur = self._words.get(wkey)
        if sur is None:
            pool = names.candidates(lang, role, gender or form.gender, form)
            sur = self._draw_word(entity, role, lemma_key, pool)
            self._words[wkey] = sur
        surface = names.realize(sur, form, lang, role, gender or form.gender) or sur
        if surface.casefold() == word.casefold():
            surface = sur
        return shape.case_pattern_word(word, surface)

    def _draw_word(self, entity: str, role: str, lemma_key: str, pool: tuple[str, ...]) -> str:
        fallback: str | None = None
        for attempt in range(_TRIES):
            rng = stream(self.seed, entity, role, lemma_key, attempt)
            if pool:
                cand = rng.choice(pool)
            else:
                method = "first_name" if role == names.FIRST else "last_name"
                cand = names.faker_value(self.language, method, rng.getrandbits(32))
            cf = cand.casefold()
            if cf == lemma_key or cf in self._forbidden_words or cf in self._forbidden:
                continue
            fallback = fallback or cand
            owner = self._owner.get((role, cf))
            if owner is not None and owner != entity:
                continue
            self._owner[(role, cf)] = entity
            return cand
        if fallback is not None:
            return fallback
        rng = stream(self.seed, entity, role, lemma_key, "scramble")
        return shape.scramble(lemma_key.capitalize(), rng)


def _ip_range(part: str) -> tuple[int, int]:
    return {1: (0, 9), 2: (10, 99)}.get(len(part), (100, 255))


def pseudonymize_document(text: str, regions: Sequence[PrivateRegion], language: str, seed: int | str = 0,
                          policy: Mapping[str, Any] | None = None, *, replacer: SurrogateReplacer | None = None,
                          document: str = "", key: PseudonymKey | None = None
                          ) -> tuple[Output, list[dict[str, Any]]]:
    """Pseudonymize one document; returns the output and its key entries (standoff + ``entity``/``document``).

    Pass one ``replacer`` for all documents of a project to keep surrogates
    consistent across them; entries are also added to ``key`` (or the
    replacer's key) when given.
    """
    if replacer is None:
        replacer = SurrogateReplacer(policy, language, seed)
    replacer.observe(text, regions)
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
