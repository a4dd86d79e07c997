"""Special categories of personal data (GDPR art. 9) as suspicious ``SENSITIVE`` spans.

Why: a text can identify nobody by name and still reveal a person's health, religion, political
opinion, sexual orientation, ethnicity, family or gender; psan cannot decide these, so it shows
them to the annotator as suspicious spans of category ``SENSITIVE`` whose type is the topic
(``HEALTH``, ``RELIGION``, ``POLITICS``, ``SEXUAL_ORIENTATION``, ``ETHNICITY``, ``FAMILY``,
``GENDER``), which the detail panel shows as the entity type.

Policy, to keep annotators from being flooded (measured in ``ner_eval/results/sensitive/``):

* short term lists per language (cs, en, pl, sk, sv) of words that name the category itself –
  diagnoses, denominations, party membership, orientations, ethnic groups – not words that merely
  relate to it ("hospital", "church", "party" alone are not flagged);
* family relations only as a possessive + kinship noun ("his wife", "její syn", "jego żona"):
  a bare "mother" is everywhere, "the applicant's mother" points at a person;
* whole words only, case-insensitive except where a capital matters (Czech/Slovak "Rom");
  inflected languages list stems with an explicit ending class, never a bare prefix of a name;
* low score (0.3) and the lowest priority, so a name, date or ID on the same text always wins
  and these spans stay suggestions until someone decides.

The family also holds :mod:`.health` (English): whole mentions of health conditions ("paranoid
schizophrenia", "fracture of the left kneecap"), type ``HEALTH`` too; a topic word inside one gives way to it.
"""
from __future__ import annotations

import re
from functools import cache

from psan.tool.detection.recognizers import health
from psan.tool.detection.recognizers.base import case_insensitive_class
from psan.tool.text.document import Category, CharSpan, Document, Recognizer

PRIORITY_SENSITIVE = -20
SCORE = 0.3
TOPICS = ("HEALTH", "RELIGION", "POLITICS", "SEXUAL_ORIENTATION", "ETHNICITY", "FAMILY", "GENDER")

_W = r"[^\W\d_]*"  # an inflectional ending (any letters)

#: per language and topic: regex alternatives (no groups), matched as whole words, case-insensitive
TERMS: dict[str, dict[str, list[str]]] = {
    "en": {
        "HEALTH": [r"HIV", r"AIDS", r"cancer", r"tumou?rs?", r"diabet(?:es|ic)", r"depression", r"depressive",
                   r"schizophreni(?:a|c)", r"epilep(?:sy|tic)", r"hepatitis", r"tuberculosis", r"dementia",
                   r"Alzheimer'?s?", r"psychiatric", r"mental (?:illness|disorder|health problems?)",
                   r"disabilit(?:y|ies)", r"disabled", r"pregnan(?:t|cy)", r"diagnosed", r"diagnos[ie]s",
                   r"post-traumatic stress disorder", r"PTSD", r"heart attack", r"HIV-positive",
                   r"drug addiction", r"alcoholism", r"alcoholic"],
        "RELIGION": [r"Catholics?", r"Protestants?", r"Muslims?", r"Islamic", r"Jews?", r"Jewish", r"Christians?",
                     r"Buddhists?", r"Hindus?", r"atheists?", r"Jehovah's Witness(?:es)?", r"Orthodox Christians?",
                     r"Sikhs?", r"religious beliefs?"],
        "POLITICS": [r"communists?", r"fascists?", r"anarchists?", r"member of the [A-Z][\w ]{0,40}? [Pp]arty",
                     r"trade union members?", r"political (?:opinions?|views|beliefs|affiliation)",
                     r"voted for"],
        "SEXUAL_ORIENTATION": [r"(?-i:gay)", r"lesbians?", r"homosexual(?:s|ity)?", r"bisexual(?:s|ity)?",
                               r"heterosexual(?:s|ity)?", r"LGBT\w*", r"sexual orientation"],
        "ETHNICITY": [r"(?<!Via )(?<!via )Roma", r"Romani", r"Gypsy", r"Gypsies", r"ethnic origin", r"ethnicity",
                      r"Kurds?", r"Kurdish", r"Chechens?", r"of (?:African|Arab|Asian) descent"],
        "FAMILY": [r"(?:my|his|her|their|your|our|the applicant's|the applicants')\s+(?:wife|husband|son|"
                   r"daughter|mother|father|brother|sister|partner|fianc[ée]e?|grandmother|grandfather|grandson|"
                   r"granddaughter|uncle|aunt|nephew|niece|cousin|children|child|parents|stepfather|stepmother|"
                   r"sons|daughters|brothers|sisters)"],
        "GENDER": [r"transgender", r"transsexual", r"non-binary", r"intersex", r"gender identity",
                   r"sex reassignment", r"gender reassignment"],
    },
    "cs": {
        "HEALTH": [r"HIV", r"AIDS", r"rakovin" + _W, r"nádor" + _W, r"cukrovk" + _W, r"diabet" + _W,
                   r"depres[ei]" + _W, r"schizofren" + _W, r"epilep" + _W, r"hepatitid" + _W,
                   r"tuberkulóz" + _W, r"demenc" + _W, r"Alzheimer" + _W, r"psychiatrick" + _W,
                   r"duševní (?:onemocnění|porucha|poruchu|poruchou)", r"invalidit" + _W, r"postižen[íý]" + _W,
                   r"těhotn" + _W, r"diagnó[zs]" + _W, r"onkologick" + _W, r"infarkt" + _W, r"mrtvic" + _W,
                   r"alkoholi[sk]" + _W, r"drogov[ýáé] závislost" + _W],
        "RELIGION": [r"katolí[kc]" + _W, r"katolick" + _W, r"evangelí[kc]" + _W, r"evangelick" + _W,
                     r"muslim" + _W, r"islámsk" + _W, r"židovsk" + _W, r"Žid(?:é|ů|ovi|em|y)?", r"křesťan" + _W,
                     r"buddhist" + _W, r"hinduist" + _W, r"ateist" + _W, r"svěd(?:ek|k\w*) Jehovov" + _W,
                     r"pravoslavn" + _W, r"náboženské vyznání"],
        "POLITICS": [r"komunist" + _W, r"fašist" + _W, r"anarchist" + _W, r"členem (?:strany|KSČ|ODS|ČSSD|SPD)",
                     r"člen(?:ka|kou)? (?:strany|KSČ|ODS|ČSSD|SPD)", r"odborář" + _W,
                     r"politick[éý] (?:názor|přesvědčení)" + _W],
        "SEXUAL_ORIENTATION": [r"(?-i:gay)", r"gayové", r"lesb" + _W, r"homosexu" + _W, r"bisexu" + _W,
                               r"heterosexu" + _W, r"LGBT\w*", r"sexuální orientac" + _W],
        "ETHNICITY": [r"Rom(?:ové|ů|y|ka|ky|kou|ovi|em)?", r"romsk" + _W, r"cikán" + _W, r"Cikán" + _W,
                      r"etnick" + _W, r"národnostní menšin" + _W, r"Vietnamc" + _W],
        "FAMILY": [r"(?:můj|moje|má|mého|mému|mou|mojí|jeho|její|jejich|svého|svému|své|svou|svým|svojí)\s+"
                   r"(?:manžel(?:a|ovi|em|é)?|manželk[aouyi]|manželce|syn(?:a|ovi|em|ové)?|dcer[aouy]|dceři|"
                   r"matk[aouy]|matce|otc(?:e|i|em)|otec|bratr(?:a|ovi|em)?|sestr[aouy]|sestře|druh(?:a|ovi|em)?|"
                   r"družk[aouy]|babičk[aouy]|dědeč?k(?:a|ovi|em)?|vnu[kc]" + _W + r"|vnučk" + _W + r"|strýc" + _W
                   + r"|tet[aouy]|bratran" + _W + r"|sestřenic" + _W + r"|rodič" + _W + r"|dět(?:i|í|em|mi)|"
                   r"tchán" + _W + r"|tchyn" + _W + r")"],
        "GENDER": [r"transgender" + _W, r"transsexu" + _W, r"nebinární" + _W, r"intersex" + _W,
                   r"změn[auy] pohlaví", r"genderov[áé] identit" + _W],
    },
    "sk": {
        "HEALTH": [r"HIV", r"AIDS", r"rakovin" + _W, r"nádor" + _W, r"cukrovk" + _W, r"diabet" + _W,
                   r"depresi" + _W, r"schizofrén" + _W, r"epilep" + _W, r"tuberkulóz" + _W, r"demenci" + _W,
                   r"psychiatrick" + _W, r"invalidit" + _W, r"tehotn" + _W, r"diagnóz" + _W, r"infarkt" + _W],
        "RELIGION": [r"katolí[kc]" + _W, r"katolíck" + _W, r"evanjelik" + _W, r"evanjelick" + _W, r"moslim" + _W,
                     r"islamsk" + _W, r"židovsk" + _W, r"Žid(?:ia|ov|om|mi)?", r"kresťan" + _W, r"ateist" + _W,
                     r"pravoslávn" + _W, r"náboženské vyznanie"],
        "POLITICS": [r"komunist" + _W, r"fašist" + _W, r"anarchist" + _W, r"člen(?:om|ka|kou)? strany",
                     r"odborár" + _W, r"politick[éý] (?:názor|presvedčenie)" + _W],
        "SEXUAL_ORIENTATION": [r"gej" + _W, r"(?-i:gay)", r"lesb" + _W, r"homosexu" + _W, r"bisexu" + _W, r"LGBT\w*",
                               r"sexuáln[ae] orientáci" + _W],
        "ETHNICITY": [r"Róm(?:ovia|ov|om|a|ka|ky|kou)?", r"rómsk" + _W, r"cigán" + _W, r"Cigán" + _W,
                      r"etnick" + _W, r"národnostn[ej] menšin" + _W],
        "FAMILY": [r"(?:môj|moja|moje|môjho|mojej|mojou|jeho|jej|ich|svojho|svojej|svoju|svojou|svojim)\s+"
                   r"(?:manžel(?:a|ovi|om)?|manželk[aouy]|manželke|syn(?:a|ovi|om|ovia)?|dcér[aouy]|dcére|"
                   r"matk[aouy]|matke|otc(?:a|ovi|om)|otec|brat(?:a|ovi|om)?|sestr[aouy]|sestre|"
                   r"rodič" + _W + r"|det(?:i|í|om|mi)|star(?:ou|á) mam" + _W + r"|vnuk" + _W + r"|vnučk" + _W + r")"],
        "GENDER": [r"transgender" + _W, r"transsexu" + _W, r"nebinárn" + _W, r"zmen[auy] pohlavia"],
    },
    "pl": {
        "HEALTH": [r"HIV", r"AIDS", r"nowotw[óo]r" + _W, r"cukrzyc" + _W, r"depresj" + _W, r"schizofreni" + _W,
                   r"padaczk" + _W, r"epilepsj" + _W, r"gruźlic" + _W, r"demencj" + _W, r"Alzheimer" + _W,
                   r"psychiatryczn" + _W, r"niepełnosprawn" + _W, r"w ciąży", r"ciąż[ay]", r"diagnoz" + _W,
                   r"zawał" + _W, r"udar" + _W, r"alkoholi[kz]" + _W, r"choroby psychicznej",
                   r"choroba psychiczna", r"nowotworow" + _W],
        "RELIGION": [r"katolik" + _W, r"katolick" + _W, r"protestan" + _W, r"muzułma" + _W, r"islamsk" + _W,
                     r"żydowsk" + _W, r"Żyd(?:a|ów|zi|owi|em)?", r"chrześcija" + _W, r"buddyst" + _W,
                     r"ateist" + _W, r"Świadk" + _W + r" Jehowy", r"prawosławn" + _W, r"wyznani" + _W],
        "POLITICS": [r"komunist" + _W, r"faszyst" + _W, r"anarchist" + _W,
                     r"członk(?:iem|ini[ąa]?) (?:partii|PZPR|PiS|PO)",
                     r"związkow(?:iec|ca|cem|cy)", r"poglądy polityczne", r"poglądów politycznych",
                     r"głosował(?:a|em|am)? na"],
        "SEXUAL_ORIENTATION": [r"gej" + _W, r"lesbij" + _W, r"homoseksual" + _W, r"biseksual" + _W,
                               r"heteroseksual" + _W, r"LGBT\w*", r"orientacj[ai] seksualn" + _W],
        "ETHNICITY": [r"Rom(?:owie|ów|a|ka|ki|om)?", r"romsk" + _W, r"Cygan" + _W, r"cygańsk" + _W,
                      r"pochodzeni[ea] etniczn" + _W, r"etniczn" + _W, r"mniejszości narodowej"],
        "FAMILY": [r"(?:mój|moja|moje|mojego|mojej|moją|mojemu|jego|jej|ich|swojego|swojej|swoją|swoim|swojemu)\s+"
                   r"(?:mąż|męża|mężem|mężowi|żon[aąeyę]|syn(?:a|em|owi|owie)?|córk[aąiię]|córce|matk[aąiię]|"
                   r"matce|ojc(?:a|em|u)|ojciec|brat(?:a|em|u)?|siostr[aąyę]|siostrze|partner" + _W + r"|"
                   r"babci[aąe]?|dziadk(?:a|iem|owi)|dziadek|wnuk" + _W + r"|wnuczk" + _W + r"|wuj" + _W + r"|"
                   r"ciotk" + _W + r"|rodzic" + _W + r"|dzieci" + _W + r"|teści" + _W + r")"],
        "GENDER": [r"transpłciow" + _W, r"transseksual" + _W, r"niebinarn" + _W, r"interpłciow" + _W,
                   r"zmian[aęy] płci", r"tożsamoś(?:ć|ci) płciow" + _W],
    },
    "sv": {
        "HEALTH": [r"HIV", r"AIDS", r"cancer", r"tumör" + _W, r"diabetes", r"depression" + _W, r"deprimerad" + _W,
                   r"schizofreni" + _W, r"epilepsi" + _W, r"tuberkulos", r"demens", r"psykiatrisk" + _W,
                   r"funktionsnedsättning" + _W, r"gravid" + _W, r"diagnos" + _W, r"hjärtinfarkt", r"stroke",
                   r"alkoholist" + _W, r"missbruk" + _W],
        "RELIGION": [r"katolik" + _W, r"katolsk" + _W, r"protestant" + _W, r"muslim" + _W, r"islamsk" + _W,
                     r"jude", r"judar" + _W, r"judisk" + _W, r"kristen", r"kristna", r"buddhist" + _W,
                     r"ateist" + _W, r"Jehovas vittne" + _W, r"ortodox" + _W],
        "POLITICS": [r"kommunist" + _W, r"fascist" + _W, r"anarkist" + _W, r"nazist" + _W,
                     r"medlem i (?:partiet|[A-ZÅÄÖ]\w*partiet|facket)", r"fackligt? (?:aktiv|medlem)" + _W,
                     r"politisk[a]? (?:åsikt|uppfattning)" + _W, r"röstade på"],
        "SEXUAL_ORIENTATION": [r"homosexu" + _W, r"bisexu" + _W, r"heterosexu" + _W, r"lesbisk" + _W, r"(?-i:gay)",
                               r"HBTQ\w*", r"HBT", r"sexuell läggning"],
        "ETHNICITY": [r"romer", r"romsk" + _W, r"zigenar" + _W, r"samer", r"samisk" + _W, r"kurd" + _W,
                      r"etnisk" + _W + r" (?:bakgrund|ursprung|tillhörighet)"],
        "FAMILY": [r"(?:min|mitt|mina|hans|hennes|deras|din|ditt|dina|sin|sitt|sina|vår|våra)\s+"
                   r"(?:fru|hustru|make|man|son|söner|dotter|döttrar|mamma|pappa|mor|far|bror|bröder|syster|"
                   r"systrar|sambo|farmor|farfar|mormor|morfar|barnbarn|farbror|morbror|faster|moster|kusin|"
                   r"föräldrar|barn)"],
        "GENDER": [r"transperson" + _W, r"transsexu" + _W, r"icke-binär" + _W, r"intersex" + _W,
                   r"könsidentitet", r"könskorrigering" + _W, r"könsbyte"],
    },
}

#: terms whose case matters (ethnonyms that are also common words or name parts in lower case)
CASE_SENSITIVE: dict[str, frozenset[str]] = {"cs": frozenset({"ETHNICITY"}), "sk": frozenset({"ETHNICITY"}),
                                              "pl": frozenset({"ETHNICITY"}), "en": frozenset({"ETHNICITY"})}


@cache
def topic_patterns(language: str) -> list[tuple[str, re.Pattern[str]]]:
    """Per topic, the pattern of its terms as whole words (case-insensitive where case does not matter)."""
    out = []
    for topic, terms in TERMS.get(language, {}).items():
        flags = 0 if topic in CASE_SENSITIVE.get(language, frozenset()) else re.IGNORECASE
        body = "|".join(f"(?:{t})" for t in terms)
        out.append((topic, re.compile(rf"(?<![\w-])(?:{body})(?![\w-])", flags)))
    return out


def _plain_gate(language: str) -> re.Pattern[str]:
    """Every offset where some topic's term starts (zero-width, all topics in one pass): the definition
    :func:`_gate` computes faster."""
    parts = []
    for topic, terms in TERMS.get(language, {}).items():
        body = "|".join(f"(?:{t})" for t in terms)
        parts.append(f"(?-i:{body})" if topic in CASE_SENSITIVE.get(language, frozenset()) else body)
    return re.compile(rf"(?<![\w-])(?=[^\W\d_])(?=(?:{'|'.join(parts)})(?![\w-]))", re.IGNORECASE)


_LETTER = re.compile(r"[^\W\d_]")


def _first_letter(term: str) -> str | None:
    """The letter every match of ``term`` starts with when the regex starts with it as a plain literal, else None.

    A plain literal: a letter not repeated by a quantifier, in a term with no alternation at its top level
    ("ab|cd" starts with "a" or "c"); anything else returns None and the term is tried at every word start.
    """
    if not term or not _LETTER.fullmatch(term[0]) or term[1:2] in ("?", "*", "+", "{"):
        return None
    return None if _has_top_level_bar(term) else term[0]


def _has_top_level_bar(term: str) -> bool:
    """Does the regex ``term`` have a ``|`` outside every group and character class?"""
    return bool(_bars(term, 0, 0)[0])


def _bars(term: str, i: int, level: int) -> tuple[list[int], int, int]:
    """The ``|`` of the regex ``term`` at group depth ``level``, read from ``i`` (at depth ``level``) until that
    group closes: ``(bars, index of its ")" or len(term), depth there)``; escapes and character classes skipped."""
    depth, bars, in_class = level, [], False
    while i < len(term):
        char = term[i]
        if char == "\\":
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            i += 2 if term[i + 1:i + 2] == "]" else 3 if term[i + 1:i + 3] == "^]" else 1  # "]" first is a literal
            continue
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth < level:
                break
        elif char == "|" and depth == level:
            bars.append(i)
        i += 1
    return bars, i, depth


def _alternatives(term: str) -> list[str]:
    """``(?:a|b)rest`` as ``[arest, brest]`` (the same strings in all); any other term as itself.

    Why: a term that starts with a group of alternatives ("my|his|her … wife|husband …") has no single first
    letter; each of its alternatives has one (:func:`_dispatched_terms`).
    """
    if not term.startswith("(?:"):
        return [term]
    bars, i, depth = _bars(term, 3, 1)
    rest = term[i + 1:]
    if depth or not bars or rest[:1] in ("?", "*", "+", "{"):
        return [term]
    edges = [2, *bars, i]
    return [term[a + 1:b] + rest for a, b in zip(edges, edges[1:], strict=False)]


def _dispatched_terms(language: str) -> str:
    """The alternation of every term of the language, grouped by first letter: ``(?-i:[xX])(?:rest|…)|…``.

    Why: the terms were tried one after another at every word start (10^5 per corpus, 80 case-insensitive
    alternatives each); a branch that starts with a plain character class is skipped by the regex engine after
    one test of the class, so at a word start only the terms of its first letter are tried.  A term that starts
    with a group of alternatives counts as one term per alternative (:func:`_alternatives`); terms that do not
    start with a plain letter (``(?-i:gay)``, a look-behind) stay in one branch tried at every word start.
    Case-insensitive first letters come with their Unicode case forms ("ſ" for s).
    """
    by_first: dict[tuple[str, bool], list[str]] = {}
    other: list[str] = []
    for topic, terms in TERMS.get(language, {}).items():
        sensitive = topic in CASE_SENSITIVE.get(language, frozenset())
        for term in (alternative for t in terms for alternative in _alternatives(t)):
            first = _first_letter(term)
            if first is None:
                other.append(f"(?-i:{term})" if sensitive else f"(?:{term})")
                continue
            key = (first if sensitive or len(first.lower()) != 1 else first.lower(), sensitive)
            by_first.setdefault(key, []).append(f"(?-i:{term[1:]})" if sensitive else f"(?:{term[1:]})")
    branches = []
    for (first, sensitive), rests in by_first.items():
        letters = f"[{re.escape(first)}]" if sensitive else case_insensitive_class(first)
        branches.append(f"(?-i:{letters})(?:{'|'.join(rests)})")
    if other:
        branches.append(rf"(?=[^\W\d_])(?:{'|'.join(other)})")
    return "|".join(branches)


@cache
def _gate(language: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The offsets of :func:`_plain_gate` as (a regex whose matches end at them after the text's first character,
    one that matches at offset 0 where they include it).

    Why: seven case-insensitive alternations scanned the whole text seven times – a sixth of the
    pipeline's CPU beside NameTag; one pass finds the few places worth trying, and each topic's own
    pattern is then matched only there, which gives the same spans as its ``finditer``.  The pass matches the
    character before a term (not a word character or hyphen: the look-behind of the plain form), so the regex
    engine skips word characters in C instead of entering the pattern at every character, and the terms are
    grouped by first letter (:func:`_dispatched_terms`).
    """
    terms = rf"(?=[^\W\d_])(?=(?:{_dispatched_terms(language)})(?![\w-]))"
    return re.compile(rf"[^\w-]{terms}", re.IGNORECASE), re.compile(terms, re.IGNORECASE)


def term_starts(text: str, language: str) -> list[int]:
    """The offsets :func:`_plain_gate` finds: where some topic's term starts."""
    after, at_start = _gate(language)
    starts = [m.end() for m in after.finditer(text)]
    if at_start.match(text):
        starts.insert(0, 0)
    return starts


def topic_matches(text: str, language: str) -> list[tuple[str, int, int]]:
    """(topic, start, end) of every term, as each topic's pattern would find them scanning the text."""
    starts = term_starts(text, language)
    found = []
    for topic, pattern in topic_patterns(language):
        after = 0  # like finditer: a topic's matches do not overlap
        for start in starts:
            if start >= after and (m := pattern.match(text, start)):
                found.append((topic, start, m.end()))
                after = m.end()
    return found


class SensitiveRecognizer(Recognizer):
    """Special-category mentions (see module docstring); type = topic, category SENSITIVE."""

    name = "sensitive"
    priority = PRIORITY_SENSITIVE

    def __init__(self, language: str) -> None:
        self.language = language

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        spans = [CharSpan(start, end, topic, Category.SENSITIVE, self.name, SCORE, self.priority)
                 for topic, start, end in topic_matches(text, self.language)]
        return sorted(spans, key=lambda s: (s.start, -s.end))


def languages() -> list[str]:
    """Languages with term lists."""
    return sorted(TERMS)


def default_recognizers(language: str) -> list[Recognizer]:
    """The special-category recognizers of ``language``: the term lists and, where it knows the language, the
    health-condition mentions (:mod:`.health`); none for languages without lists."""
    if language not in TERMS:
        return []
    return [SensitiveRecognizer(language), *health.default_recognizers(language)]
