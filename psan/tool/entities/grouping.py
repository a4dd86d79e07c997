"""Group mentions into entities: one person, organisation or place = one entity, however it is written.

Why: a pseudonym key is only consistent if "Jonathan Harper", "Harper" and
"Mr. Harper" (or "Jan Novák", "Jana Nováka", "panu Novákovi") are known to be
one entity.  This module is pure (no web, no database) so the app, the CLI
(``psan-tool entities``) and the evaluation (:mod:`ner_eval.entity_links`) use
the same logic.

Within a document, mentions of compatible coarse categories are linked by

* the same normalized form: case-insensitive, without articles, titles
  ("Mr", "paní", "panu"), quotes and an English possessive, with inflected
  words reduced to their lemma (cs/sk by the name declension tables of
  :mod:`psan.tool.morph.declension.inflect_cs` with case/gender agreement inside the
  name, pl by Morfeusz2, sl by the suffix lemmatizer);
* aliases written inside a mention: "PKK (the Kurdistan Workers' Party)", and an organisation's
  name without its legal form ("Serco Limited" … "Serco", "Škoda a.s." … "Škoda"),
  "Zakłady Metalowe “Domgos”", "… (hereinafter “the State Railways”)";
* acronyms of a unique longer name ("EAT" ↔ "Employment Appeal Tribunal");
* partial person names: surname (or a middle name) alone, title + surname,
  initials + surname, first name alone, each only when exactly one full name
  of the document fits (initials and a gendered title must agree);
* a definite description "the University" naming the head of exactly one
  longer name of the same category.

Across documents, entities with the same category and canonical form (the
most complete normalized name) share an id, which is a digest of both, so ids
are deterministic and independent of document order.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from psan.tool.morph.lemma import SuffixLemmatizer
from psan.tool.text.categories import category_of
from psan.tool.text.document import Category, Document, in_span_order
from psan.tool.words.name_joints import ARTICLES, FUNCTION_WORDS, LEGAL_FORM_RE
from psan.tool.words.regnal import is_regnal

__all__ = ["Mention", "Form", "parse_mention", "group_document", "EntitySpan", "document_entity_spans",
           "analyse_document", "group_documents", "entity_id", "word_lemmas"]

_WORD_RE = re.compile(r"[^\W_](?:[\w]|[-'’](?=\w))*")
_PAREN_RE = re.compile(r"^(.*?)\s*\((.*)\)?\s*$", re.DOTALL)
_QUOTED_RE = re.compile(r"[“\"„«‘‚](.+?)[”\"“»’‘]")
_HEREINAFTER_RE = re.compile(r"\b(?:hereinafter|henceforth|dále jen|dalej|zwan[aey]+ dalej)\b", re.IGNORECASE)
_QUOTES = "\"'“”„«»‘’‚`"
#: titles and honorifics, lower case, with their gender ("" = either)
TITLES: dict[str, str] = {
    **dict.fromkeys(("mr", "sir", "lord", "herr", "monsieur", "m", "señor", "signor"), "m"),
    **dict.fromkeys(("mrs", "ms", "miss", "lady", "frau", "fru", "fröken", "madame", "mme", "mlle", "señora"), "f"),
    **dict.fromkeys(("dr", "prof", "judge", "justice", "ing", "mgr", "bc", "phdr", "mudr", "judr", "rndr", "doc",
                     "dipl", "president", "minister"), ""),
    # Czech / Slovak (all cases)
    **dict.fromkeys(("pan", "pana", "panu", "pane", "panem", "pán", "pána", "pánovi", "pánom"), "m"),
    **dict.fromkeys(("paní", "pani", "slečna", "slečny", "slečně", "slečnu", "slečnou", "panej", "paniou"), "f"),
    # Polish
    **dict.fromkeys(("panią", "pań"), "f"),
    # Slovenian
    **dict.fromkeys(("gospod", "gospoda", "gospodu", "gospodom"), "m"),
    **dict.fromkeys(("gospa", "gospe", "gospo", "gospodična"), "f"),
}
_NAME_CATEGORIES = (Category.PERSON,)


@dataclass(frozen=True, slots=True)
class Mention:
    """One mention to link: its span, category (any native label or a coarse category) and text."""

    start: int
    end: int
    category: str
    text: str


@dataclass(frozen=True, slots=True)
class Form:
    """A mention reduced to what linking compares (see module docstring)."""

    category: Category
    key: tuple[str, ...]                    # normalized (lemmatized, case-folded) name words
    alts: tuple[frozenset[str], ...]        # per word: every lemma reading (partial matching)
    initials: tuple[str, ...]               # initials written before the name ("J. R. Harper" → j, r)
    gender: str                             # from a gendered title ("Mr", "paní"); "" unknown
    titled: bool                            # a title or an article preceded the name
    aliases: tuple[tuple[str, ...], ...] = ()  # keys of alternative names written in the mention
    surface: tuple[str, ...] = field(default=())  # the name words as written (acronym detection)
    common: bool = False                    # no capital letter: a common noun phrase, not a name
    morph_gender: str = ""                  # from the inflection (cs/sk/pl), surrogates follow it
    lemmas: tuple[str, ...] = ()            # ``key`` before case folding (surrogates decline from it)


# ---------------------------------------------------------------- lemmas


_PL_CASES = {"nom": 0, "gen": 1, "dat": 2, "acc": 3, "inst": 4, "loc": 5, "voc": 6}


@cache
def _suffix(language: str) -> SuffixLemmatizer:
    return SuffixLemmatizer(language)


def _readings(word: str, language: str, person: bool) -> list[tuple[str, str, str]]:
    """(lemma, case, gender) readings of one word, best first; the word itself when nothing is known."""
    if language in ("cs", "sk") and word[:1].isupper() and word.isalpha():
        from psan.tool.morph.declension import inflect_cs
        out = [(r.lemma, r.slot[:1], r.gender) for r in inflect_cs.analyse(word, language, "", person)[:6]
               if r.known or r.lemma == word or len(r.lemma) >= 3]
        return out or [(word, "", "")]
    if language == "pl" and word[:1].isupper() and word.isalpha():
        from psan.tool.morph.declension import inflect_pl
        wanted = ("imię", "nazwisko") if person else ("nazwa_geograficzna", "nazwa_organizacji")
        ranked = []
        for r in inflect_pl.analyse(word):
            if r.base[:1].isupper():
                g = "f" if r.gender == "f" else "m" if r.gender.startswith("m") else ""
                rank = 0 if any(q in wanted for q in r.quals) else 1
                # a woman's reading of a consonant-final name ("Jan", "Kowalski" as indeclinable) is rare
                odd = 1 if g == "f" and not r.base.endswith("a") else 0
                for num, case in sorted(r.forms) or [("", "")]:
                    ranked.append((rank, 0 if num == "sg" else 1, odd, _PL_CASES.get(case, 9), r.base, case, g))
        ranked.sort(key=lambda x: x[:4])  # stable: Morfeusz's order within a rank
        out = [(b, c, g) for *_r, b, c, g in ranked]
        return out or [(_suffix("pl")(word), "", "")]
    if language == "sl" and word.isalpha():
        return [(_suffix("sl")(word), "", "")]
    return [(word, "", "")]


def _lemmas(words: Sequence[str], language: str, person: bool, masculine_first: bool = False
            ) -> tuple[tuple[str, ...], tuple[frozenset[str], ...], str, tuple[str, ...]]:
    """Joint lemmas of a name: inside a name all words agree in case and gender ("Jana Nováka" = Jan Novák).

    ``masculine_first``: a man's reading wins where the words allow one (a monarch's given names before a regnal
    number: "Jana Pavla II." is Jan Pavel's genitive more likely than Jana Pavla's nominative)."""
    readings = [_readings(w, language, person) for w in words]
    if masculine_first:
        readings = [sorted(rs, key=lambda r: r[2] != "m") for rs in readings]
    alts = tuple(frozenset(r[0].casefold() for r in rs) for rs in readings)
    chosen = [rs[0] for rs in readings]
    if len(words) > 1 and any(len(rs) > 1 for rs in readings):
        chosen = _joint_reading(readings, words) or chosen
    gender = chosen[-1][2] if person and language in ("cs", "sk", "pl") else ""
    return tuple(c[0].casefold() for c in chosen), alts, gender, tuple(c[0] for c in chosen)


def _joint_reading(readings: Sequence[list[tuple[str, str, str]]], words: Sequence[str]
                   ) -> list[tuple[str, str, str]] | None:
    """The readings of a name's words that agree in case and gender, each word's as good as the others allow: the
    smallest sum of the readings' ranks; on a tie, the fewest words read as their own lemma (a guessed nominative),
    then the last word's first reading.

    Why not the last word's first reading that the others can follow: an unlisted surname's first reading is a
    guessed nominative ("Kratochvila"), and a first name has a guessed nominative too ("Jiřího"), so "Jiřího
    Kratochvila" became a nominative Jiřího Kratochvila instead of Jiří Kratochvil's genitive, and the surrogate
    took the wrong paradigm."""
    best: list[tuple[str, str, str]] | None = None
    best_cost: tuple[int, int] | None = None
    for h, head in enumerate(readings[-1]):
        picks, ranks = [], h
        for rs in readings[:-1]:
            k = next((k for k, r in enumerate(rs) if (not head[1] or not r[1] or r[1] == head[1])
                      and (not head[2] or not r[2] or r[2] == head[2])), None)
            if k is None:
                break
            picks.append(rs[k])
            ranks += k
        else:
            joint = [*picks, head]
            cost = (ranks, sum(r[0] == w for r, w in zip(joint, words, strict=True)))
            if best_cost is None or cost < best_cost:
                best, best_cost = joint, cost
    return best


def word_lemmas(word: str, language: str, person: bool = True) -> frozenset[str]:
    """Every lemma reading of one word, case-folded, the word itself included (aligns a mention with a name)."""
    return frozenset({word.casefold(), *(r[0].casefold() for r in _readings(word, (language or "en")[:2], person))})


# ---------------------------------------------------------------- parsing


def _strip(text: str) -> str:
    return text.strip().strip(_QUOTES + " \t\n,.;:").strip()


def _words(text: str, language: str) -> list[str]:
    words = _WORD_RE.findall(text)
    if language in ("en", "sv", "") or language not in ("cs", "sk", "pl", "sl"):
        words = [w[:-2] if w.endswith(("'s", "’s")) and len(w) > 3 else w for w in words]
        words = [w[:-1] if w.endswith(("'", "’")) else w for w in words]
    return words


def _name(text: str, language: str, category: Category) -> tuple[Form | None, str]:
    """The form of one name (no aliases); ``None`` when nothing is left after stripping."""
    words = _words(_strip(text), language)
    titled = False
    gender = ""
    initials: list[str] = []
    while words:
        low = words[0].casefold()
        if low in ARTICLES and len(words) > 1:
            titled = True
            words = words[1:]
        elif category in _NAME_CATEGORIES and low in TITLES and len(words) > 1:
            titled = True
            gender = gender or TITLES[low]
            words = words[1:]
        else:
            break
    if category in _NAME_CATEGORIES:
        while len(words) > 1 and len(words[0]) == 1 and words[0].isalpha():
            initials.append(words[0].casefold())
            words = words[1:]
        if len(words) > 1 and len(words[-1]) == 1:
            words = words[:-1]  # "Harper J." → surname with a trailing initial
    if not words:
        return None, ""
    person = category in _NAME_CATEGORIES
    numeral = words[-1] if person and len(words) > 1 and is_regnal(words[-1], first=False) else ""
    if numeral:  # "Karla IV.", "Karel IV.": the given names are read without the numeral, which stays as it is
        words = words[:-1]
    key, alts, morph_gender, lemmas = _lemmas(words, language, person, masculine_first=bool(numeral))
    if numeral:
        key, alts, lemmas = (*key, numeral.casefold()), (*alts, frozenset((numeral.casefold(),))), (*lemmas, numeral)
        words = [*words, numeral]
    # a common noun phrase ("reindeer") is not a case variant of a name ("Reindeer")
    common = not any(ch.isupper() for w in words for ch in w)
    return Form(category, key, alts, tuple(initials), gender, titled, (), tuple(words), common,
                morph_gender, lemmas), text


def parse_mention(text: str, category: str | Category, language: str = "en") -> Form | None:
    """Normalize one mention (see module docstring); ``None`` for a mention without any word."""
    cat = category if isinstance(category, Category) else category_of(category)
    lang = (language or "en").lower()[:2]
    body = text.strip()
    aliases: list[str] = []
    m = _PAREN_RE.match(body)
    if m and m.group(1).strip() and "(" in body:
        body, inner = m.group(1), m.group(2).rstrip(")")
        aliases.extend(_inner_aliases(inner))
    for q in _QUOTED_RE.finditer(body):
        if _strip(q.group(1)) and _strip(q.group(1)) != _strip(body):
            aliases.append(q.group(1))
    if cat is Category.ORGANIZATION:
        short = LEGAL_FORM_RE.sub("", body)
        if short != body and _strip(short):
            aliases.append(short)  # "Serco Limited" is also "Serco", "Škoda a.s." also "Škoda"
    main, _ = _name(body, lang, cat)
    alias_keys = []
    for a in aliases:
        form, _ = _name(a, lang, cat)
        if form is not None and form.key:
            alias_keys.append(form.key)
    if main is None:
        if not alias_keys:
            return None
        main = Form(cat, alias_keys[0], tuple(frozenset((w,)) for w in alias_keys[0]), (), "", False)
    return Form(main.category, main.key, main.alts, main.initials, main.gender, main.titled,
                tuple(k for k in alias_keys if k != main.key), main.surface, main.common, main.morph_gender,
                main.lemmas)


def _inner_aliases(inner: str) -> list[str]:
    """Names inside parentheses: "CDOKP: hereinafter “the State Railways”" → CDOKP, the State Railways."""
    out = [q.group(1) for q in _QUOTED_RE.finditer(inner)]
    if _HEREINAFTER_RE.search(inner):
        head = _HEREINAFTER_RE.split(inner, maxsplit=1)[0]
        inner = head
    head = re.split(r"[,;:]", inner, maxsplit=1)[0]
    if _strip(head):
        out.append(head)
    return out


# ---------------------------------------------------------------- linking


class _Union:
    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            # the smaller index stays root: deterministic whatever the order of unions
            self.parent[max(ra, rb)] = min(ra, rb)


def _acronym(words: Sequence[str]) -> tuple[str, str]:
    """(initials of content words, initials of all words), upper case."""
    content = "".join(w[0] for w in words if w.casefold() not in FUNCTION_WORDS and w[:1].isalpha())
    every = "".join(w[0] for w in words if w[:1].isalpha())
    return content.upper(), every.upper()


def _is_acronym(form: Form) -> bool:
    if len(form.surface) != 1:
        return False
    w = form.surface[0].replace("-", "")
    return 2 <= len(w) <= 8 and w.isalpha() and w.isupper()


#: full names by (category, key): lemma of a surname, of a first name, last word, initials
_Table = dict[tuple[Category, str], list[int]]


def _link_same_keys(forms: Sequence[Form | None], uf: _Union) -> None:
    """Join the mentions of one category sharing a normalized form or an alias; a common word ("the Court")
    joins only mentions written the same common way, never a name that has it as an alias."""
    same_key: dict[tuple[Category, bool, tuple[str, ...]], list[int]] = {}
    for i, f in enumerate(forms):
        if f is None:
            continue
        for key in dict.fromkeys((f.key, *f.aliases)):
            same_key.setdefault((f.category, f.common and key == f.key, key), []).append(i)
    for members in same_key.values():
        _link_same_key(members, forms, uf)


def _distinct_full_names(forms: Sequence[Form | None], uf: _Union) -> list[int]:
    """One mention of more than one word (persons: first name + surname) per (entity so far, name), in order.

    Why: the others answer every lookup alike (what ``fits`` and ``unique_root`` read), and 10^4 mentions of
    "Jonathan Harper" must not be 10^4 candidates each."""
    distinct: dict[tuple[int, tuple[str, ...], tuple[frozenset[str], ...]], int] = {}
    for j, g in enumerate(forms):
        if g is not None and len(g.key) > 1 and not g.common:
            distinct.setdefault((uf.find(j), g.key, g.alts), j)
    return sorted(distinct.values())


def _full_name_tables(forms: Sequence[Form | None], full: list[int]) -> tuple[_Table, _Table, _Table, _Table]:
    """Indexes over the full names (by surname lemma, first-name lemma, last word, both initials forms), so
    that a document with thousands of mentions stays linear."""
    by_surname: _Table = {}
    by_first: _Table = {}
    by_head: _Table = {}
    by_acronym: _Table = {}  # both initials forms of every full name, once
    for j in full:
        g = forms[j]
        assert g is not None  # noqa: S101 - filtered by _distinct_full_names
        for acronym in dict.fromkeys(_acronym(g.surface)):
            by_acronym.setdefault((g.category, acronym), []).append(j)
        by_head.setdefault((g.category, g.key[-1]), []).append(j)
        for lemma in g.alts[0]:
            by_first.setdefault((g.category, lemma), []).append(j)
        for lemma in set().union(*g.alts[1:]):
            by_surname.setdefault((g.category, lemma), []).append(j)
    return by_surname, by_first, by_head, by_acronym


def _cluster_genders(forms: Sequence[Form | None], uf: _Union) -> dict[int, set[str]]:
    """The genders the mentions of each entity so far (by root) show, so that a partial name does not join a
    full name of the other gender."""
    genders: dict[int, set[str]] = {}
    for j, g in enumerate(forms):
        if g is not None and g.gender:
            genders.setdefault(uf.find(j), set()).add(g.gender)
    return genders


def _lookup_key(f: Form) -> tuple | None:
    """What the target of a short mention depends on (None = no short mention: it joins by its form only).

    Why: a mention is never its own candidate (partial names, acronyms and heads are one word, a longer name
    must be longer), so the target depends on these fields only and each key is looked up once."""
    if f.category in _NAME_CATEGORIES:
        return ("p", f.category, f.key, f.alts, f.initials, f.gender, f.titled)
    if _is_acronym(f):
        return ("a", f.category, f.surface[0].replace("-", "").upper())
    if f.titled and len(f.key) == 1:
        return ("h", f.category, f.key[0])
    return None


def _short_mention_links(forms: Sequence[Form | None], uf: _Union, index: _Index, by_head: _Table,
                         by_acronym: _Table) -> list[tuple[int, int]]:
    """(mention, full name) for every partial person name, acronym or titled head that fits exactly one entity;
    all found before any is joined, so that the order of mentions does not matter."""

    def unique_root(cands: Iterable[int]) -> int | None:
        roots = {uf.find(j) for j in cands}
        return roots.pop() if len(roots) == 1 else None

    targets: dict[tuple, int | None] = {}
    links: list[tuple[int, int]] = []
    for i, f in enumerate(forms):
        if f is None or (memo := _lookup_key(f)) is None:
            continue
        if memo not in targets:
            if memo[0] == "p":
                targets[memo] = _partial_person(i, f, forms, uf, unique_root, index)
            else:
                table = by_acronym if memo[0] == "a" else by_head
                targets[memo] = unique_root(j for j in table.get((memo[1], memo[2]), ()) if j != i)
        target = targets[memo]
        if target is not None:
            links.append((i, target))
    return links


def _link(forms: Sequence[Form | None]) -> _Union:
    """The entities of the mentions: first by equal forms, then short mentions to the one full name they fit
    (the full names and genders are read from the clusters of the first step)."""
    uf = _Union(len(forms))
    _link_same_keys(forms, uf)
    full = _distinct_full_names(forms, uf)
    by_surname, by_first, by_head, by_acronym = _full_name_tables(forms, full)
    index = _Index(by_surname, by_first, _cluster_genders(forms, uf))
    for i, j in _short_mention_links(forms, uf, index, by_head, by_acronym):
        uf.union(i, j)
    return uf


@dataclass(frozen=True, slots=True)
class _Index:
    """Full names by lemma of a surname (or middle name) and of the first name; genders by cluster root."""

    surname: dict[tuple[Category, str], list[int]]
    first: dict[tuple[Category, str], list[int]]
    genders: dict[int, set[str]]

    def lookup(self, table: dict[tuple[Category, str], list[int]], category: Category,
               lemmas: Iterable[str]) -> list[int]:
        found: set[int] = set()
        for lemma in lemmas:
            found.update(table.get((category, lemma), ()))
        return sorted(found)


def _compatible(a: Form, b: Form) -> bool:
    """Two person mentions of one name may be one person: gendered titles and initials agree."""
    if a.gender and b.gender and a.gender != b.gender:
        return False
    n = min(len(a.initials), len(b.initials))
    return a.initials[:n] == b.initials[:n]


def _link_same_key(members: list[int], forms: Sequence[Form | None], uf: _Union) -> None:
    """Union mentions with one normalized form, keeping "Mr İ. Akın" and "Ms N. Akın" apart.

    Bare mentions ("Akın") join the specific ones only when those are all one person.
    """
    specific = [i for i in members if forms[i].gender or forms[i].initials]  # type: ignore[union-attr]
    chosen = set(specific)
    bare = [i for i in members if i not in chosen]
    # mentions with one (gender, initials) are compatible with each other and with the same others:
    # pairs of distinct signatures only, so 10^4 "Mr Harper" are linear, not 10^8 comparisons
    by_signature: dict[tuple[str, tuple[str, ...]], list[int]] = {}
    for i in specific:
        by_signature.setdefault((forms[i].gender, forms[i].initials), []).append(i)  # type: ignore[union-attr]
    heads = [group[0] for group in by_signature.values()]
    for group in by_signature.values():
        for i in group[1:]:
            uf.union(group[0], i)
    for x, i in enumerate(heads):
        for j in heads[:x]:
            if _compatible(forms[i], forms[j]):  # type: ignore[arg-type]
                uf.union(i, j)
    for i in bare[1:]:
        uf.union(bare[0], i)
    if bare and specific and len({uf.find(i) for i in specific}) == 1:
        uf.union(bare[0], specific[0])


def _partial_person(i: int, f: Form, forms: Sequence[Form | None], uf: _Union,
                    unique_root: Callable[[Iterable[int]], int | None], index: _Index) -> int | None:
    """The one full name a partial person mention belongs to, if exactly one fits."""

    def fits(j: int) -> bool:
        g = forms[j]
        assert g is not None  # noqa: S101 - from the index of full names
        if j == i:
            return False
        if f.initials and any(k >= len(g.key) - 1 or g.key[k][:1] != ini for k, ini in enumerate(f.initials)):
            return False
        if f.gender:
            genders = index.genders.get(uf.find(j), set())
            if genders and f.gender not in genders:
                return False
        return True

    if len(f.key) == 1:
        word = f.alts[0] | {f.key[0]}
        by_surname = [j for j in index.lookup(index.surname, f.category, word) if fits(j)]
        if by_surname:
            return unique_root(by_surname)
        if f.titled or f.initials:
            return None
        return unique_root(j for j in index.lookup(index.first, f.category, word) if fits(j))
    # "Gülizar Güneş" ↔ "Gülizar Tuncer Güneş": same first and last name, fewer middle names
    longer = [j for j in index.lookup(index.first, f.category, f.alts[0])
              if len(forms[j].key) > len(f.key) and fits(j)  # type: ignore[union-attr]
              and f.alts[-1] & forms[j].alts[-1]]  # type: ignore[union-attr]
    return unique_root(longer)


def entity_id(category: Category, canonical: str) -> str:
    """Deterministic id of an entity: digest of its category and canonical form."""
    h = hashlib.sha256(f"{category.value}\x1f{canonical}".encode()).hexdigest()
    return f"{category.value.lower()}-{h[:12]}"


def _canonical(forms: Sequence[Form]) -> str:
    """The most complete name of a cluster; a surname alone keeps its initials and gendered title."""
    def size(f: Form) -> tuple[int, int]:
        return len(f.key), sum(map(len, f.key))
    top = max(size(f) for f in forms)
    best = min((f for f in forms if size(f) == top), key=lambda f: (f.key, f.initials, f.gender))
    text = " ".join(best.key)
    if best.common:
        text = "~" + text
    if best.category in _NAME_CATEGORIES and len(best.key) == 1:
        initials = max((f.initials for f in forms), key=len)
        gender = next((f.gender for f in forms if f.gender), "")
        text = f"{text}|{'.'.join(initials)}|{gender}"
    return text


def group_document(mentions: Sequence[Mention], language: str = "en") -> list[str]:
    """Entity id of every mention of one document (same order as ``mentions``)."""
    return analyse_document(mentions, language)[0]


def analyse_document(mentions: Sequence[Mention], language: str = "en") -> tuple[list[str], list[Form | None]]:
    """Entity ids and normalized forms of every mention of one document (surrogates need both)."""
    forms = [parse_mention(m.text, m.category, language) for m in mentions]
    uf = _link(forms)
    clusters: dict[int, list[int]] = {}
    for i in range(len(mentions)):
        clusters.setdefault(uf.find(i), []).append(i)
    ids = [""] * len(mentions)
    used: set[str] = set()
    for members in clusters.values():
        present = [forms[i] for i in members if forms[i] is not None]
        if present:
            eid = entity_id(present[0].category, _canonical(present))  # type: ignore[arg-type]
        else:
            m = mentions[members[0]]
            eid = entity_id(category_of(m.category) if not isinstance(m.category, Category) else m.category,
                            " ".join(m.text.casefold().split()))
        if eid in used:  # two entities of one document with one canonical form (an ambiguous surname)
            eid = entity_id(present[0].category if present else Category.OTHER,  # type: ignore[union-attr]
                            f"{mentions[members[0]].text}#{members[0]}")
        used.add(eid)
        for i in members:
            ids[i] = eid
    return ids, forms


def group_documents(documents: Iterable[tuple[Sequence[Mention], str]]) -> Iterable[list[str]]:
    """:func:`group_document` over many documents; equal canonical forms share ids across documents."""
    for mentions, language in documents:
        yield group_document(mentions, language)


@dataclass(frozen=True, slots=True)
class EntitySpan:
    """A recognized token span of a document and the id of the entity it mentions."""

    first_token: int
    end_token: int
    category: str
    key: str


def document_entity_spans(doc: Document) -> list[EntitySpan]:
    """The document's mentions as the app stores them (``entity_mention``): one per token range.

    Why here: the app (:mod:`psan.store.annotation.entities`) and ``ner_eval``'s simulated annotator must
    group exactly alike.  Of the entities on one token range the first of the (first, -end) order wins.
    """
    seen: dict[tuple[int, int], tuple[int, int, str, int, int]] = {}
    for e in in_span_order(doc.entities):
        if not 0 <= e.first_token < e.end_token <= len(doc.tokens):
            continue
        if (e.first_token, e.end_token) not in seen:
            start, stop = doc.char_range(e.first_token, e.end_token)
            seen[(e.first_token, e.end_token)] = (e.first_token, e.end_token, str(e.category), start, stop)
    spans = list(seen.values())
    keys = group_document([Mention(a, b, c, doc.text[a:b]) for _, _, c, a, b in spans], doc.language or "en")
    return [EntitySpan(f, e, c, k) for (f, e, c, _, _), k in zip(spans, keys, strict=True)]
