"""Demographic quasi-identifiers: occupations, schools and nationality phrases (category DEMOGRAPHIC).

Why: "a taxi driver by profession", "an anaesthesiologist", "primary school teacher" or "white
British" identify nobody alone, but together with a town and a year they single a person out –
the Text Anonymization Benchmark masks them as quasi-identifiers (its ``DEM`` category), and NER
finds none of them (recall 0.39 on tab-dev).  They get their own category, DEMOGRAPHIC, a low score
and the lowest priority but one (a name, date or ID on the same words always wins), and no
NE-type rule makes them private: they are suspicious until a person decides, like every new type.

* **occupations** from a list of occupation nouns (English for now, :data:`OCCUPATIONS`), with up
  to three modifiers of the occupation before them ("primary school teacher", "retired
  non-commissioned officer", "ballet dancers") and "by profession" after them;
* **procedural roles** – lawyer, judge, prosecutor, police officer … (:data:`ROLES`) – are in every
  court judgment as the other side's people, so they count only in an occupation frame: "worked
  as a lawyer", "is a lawyer", "a lawyer by profession", "his occupation: judge";
* **schools and diplomas**: a kind of school (:data:`SCHOOL_KINDS`) before "school", "academy", "college",
  with its diploma or certificate ("primary school", "vocational high school diploma"; type EDUCATION), and an
  occupation at one is one phrase ("a student at a military academy");
* **nationality phrases**: a nationality adjective with "national(s)", "citizen(s)", "origin",
  "descent", "nationality" ("a Turkish national": the span is the phrase; TAB masks the adjective
  alone in most judgments and the phrase in some, and the noun, which only says that a person is
  meant, costs nothing to mask while a phrase half in clear is a miss under either convention), and
  colour + nationality or person ("white British", "black woman").  A bare nationality adjective
  is left to NER (OntoNotes NORP).

Special categories (religion, ethnic origin, health) stay with :mod:`.sensitive`.
"""
from __future__ import annotations

import re
from itertools import compress

from psan.tool.detection.recognizers.base import first_class_first
from psan.tool.text.document import Category, CharSpan, Document, Recognizer

PRIORITY_DEMOGRAPHIC = -15
SCORE = 0.35
LANGUAGES = frozenset({"en"})

#: occupation nouns (singular; "s"/"es" plurals are matched too)
OCCUPATIONS = tuple("""
teacher driver physician doctor nurse engineer manager dancer journalist electrician accountant pharmacist watchman
student conscript professor lecturer farmer fisherman fishermen miner builder carpenter plumber mechanic cook chef
waiter waitress cleaner shopkeeper salesman saleswoman businessman businesswoman entrepreneur trader merchant
banker economist architect surgeon dentist anaesthesiologist anesthesiologist anaesthetist anesthetist
psychologist psychiatrist veterinarian vet midwife paramedic firefighter soldier sergeant captain corporal pilot
sailor seaman labourer laborer worker technician programmer photographer artist musician singer actor actress
writer poet editor editor-in-chief publisher reporter priest imam monk nun pastor vicar housewife pensioner
caretaker janitor housekeeper nanny hairdresser butcher baker tailor secretary clerk cashier broker consultant
translator interpreter librarian scientist researcher chemist biologist physicist mathematician herder shepherd
breadwinner guard watchwoman headmaster headmistress headteacher principal accountant auditor surveyor
optician pharmacologist radiologist cardiologist neurologist gynaecologist paediatrician pediatrician
physiotherapist social-worker welder bricklayer plasterer painter decorator gardener driver courier postman
""".split())
#: multi-word occupations matched as a whole
OCCUPATION_PHRASES = ("social worker", "civil servant", "medical practitioner", "general practitioner",
                      "research assistant", "security guard", "chief executive officer", "managing director",
                      "shop assistant", "police officer", "prison officer", "housing officer", "customs officer",
                      "non-commissioned officer", "army officer", "military officer")
#: roles every judgment mentions for other people: only in an occupation frame
ROLES = ("lawyer", "advocate", "attorney", "solicitor", "barrister", "judge", "prosecutor", "police officer",
         "policeman", "policewoman", "gendarme", "notary", "bailiff", "officer", "official", "civil servant",
         "prison officer", "soldier", "doctor")
#: modifiers that belong to the occupation ("primary school teacher")
MODIFIERS = ("retired", "former", "assistant", "senior", "junior", "chief", "head", "private", "primary",
             "secondary", "high", "school", "university", "ballet", "taxi", "lorry", "truck", "bus", "research",
             "medical", "artillery", "security", "military", "police", "factory", "construction", "self-employed",
             "freelance", "professional", "qualified", "trainee", "student", "music", "dance", "english", "maths",
             "history", "hospital", "bank", "insurance", "sales", "marketing", "project", "site", "shift", "night",
             "civil", "mechanical", "electrical", "software", "agricultural", "farm", "forestry", "deputy")
#: the occupation frame for :data:`ROLES`
_FRAME_BEFORE = re.compile(r"(?:\b(?:worked|works|working|work|employed|served|serving|trained|qualified|practis\w+|"
                           r"practic\w+|is|was|were|are|be|been|became|become|becoming|as|occupation|profession|"
                           r"job)\b[\s:,]*(?:an?|the)?\s*)$", re.IGNORECASE)
_BY_PROFESSION = re.compile(r"\s+by\s+(?:profession|occupation|trade)\b")

#: nationality adjectives (a short list of the most frequent; NER's NORP finds the rest alone)
NATIONALITIES = tuple("""
British English Scottish Welsh Irish American Canadian Australian Turkish Kurdish Polish German Austrian Swiss French
Italian Spanish Portuguese Dutch Belgian Swedish Norwegian Danish Finnish Icelandic Czech Slovak Hungarian
Romanian Bulgarian Greek Cypriot Greek-Cypriot Turkish-Cypriot Russian Ukrainian Belarusian Lithuanian Latvian
Estonian Moldovan Georgian Armenian Azerbaijani Serbian Croatian Slovenian Bosnian Montenegrin Macedonian
Albanian Maltese Luxembourgish Chinese Japanese Korean Vietnamese Indian Pakistani Bangladeshi Afghan Iranian
Iraqi Syrian Lebanese Jordanian Israeli Palestinian Egyptian Libyan Tunisian Algerian Moroccan Nigerian
Ghanaian Kenyan Somali Ethiopian Eritrean Sudanese Congolese Cameroonian Senegalese Ivorian Angolan
South-African Brazilian Argentinian Chilean Colombian Peruvian Mexican Cuban Jamaican Chechen Sami
""".split())
_NATIONALITY_SET = frozenset(NATIONALITIES)
_PERSON_NOUNS = frozenset({"woman", "women", "man", "men", "girl", "boy", "person"})
#: "Turkish national", "Kurdish origin": the word before the trigger must be a listed nationality
#: the nouns that make a nationality adjective a person's nationality ("a Turkish national", "of Kurdish origin")
NATIONALITY_NOUNS = r"(?:nationals?|citizens?|origin|descent|nationality|ethnicity|passport)"
#: (class-first: ``\b([A-Z][\w-]+)…``, the word boundary checked by a look-behind after the capital, so the
#: regex engine skips to the next capital in C instead of trying the pattern at every character)
_AFTER_NATIONALITY = re.compile(rf"([A-Z](?<!\w[\s\S])[\w-]+)\s+{NATIONALITY_NOUNS}\b")
#: "white British", "black woman": the word after the colour must be a nationality or a person noun
#: (``\b(?:white|black|mixed-race|Asian)\s+([\w-]+)\b`` class-first, see :func:`.base.first_class_first`)
_COLOUR_BEFORE = re.compile(first_class_first("wbmA", r"\w", {"w": "hite", "b": "lack", "m": "ixed-race", "A": "sian"},
                                              r"\s+([\w-]+)\b", ignore_case=False))


_HYPHENS_RE = "[-\u2011\u2010]"
#: the kinds of school that say something of a person's education ("primary school", "vocational high school
#: diploma", "military academy"): one of them must stand right before the school noun, which is singular (the
#: plural, "vocational schools", speaks of a kind of school in general, not of someone's)
SCHOOL_KINDS = ("primary", "secondary", "high", "vocational", "grammar", "military", "technical", "police", "naval",
                "religious", "boarding", "theological", "nursing", "agricultural", "elementary", "middle",
                "imam-hatip", "medical", "art", "music", "drama", "sports")
#: words that may come before the kind ("ordinary high school", "private primary school")
_SCHOOL_EXTRA = ("general", "ordinary", "private", "state", "public", "special", "junior", "senior", "girls'",
                 "boys'", "evening", "open")
_KIND = "|".join(SCHOOL_KINDS)
EDUCATION_RE = re.compile(rf"\b(?:(?:{'|'.join(_SCHOOL_EXTRA)}|{_KIND})(?:[ \t]|{_HYPHENS_RE})+){{0,2}}(?:{_KIND})"
                          rf"(?:[ \t]|{_HYPHENS_RE})+(?:school|academy|college)(?![\w'’-])"
                          r"(?:[ \t]+(?:diplomas?|certificates?|leaving[ \t]+certificates?))?\b", re.IGNORECASE)
#: the school nouns as written (``str.find``; ``str.lower`` would shift offsets: "İ" lowers to two characters)
_SCHOOL_NOUNS = ("school", "academy", "college", "School", "Academy", "College")
#: an occupation at a school is one phrase: "a student at a military academy"
_AT_SCHOOL = re.compile(r"[ \t]+at[ \t]+(?:an?|the)[ \t]+")


def education_phrases(text: str) -> list[tuple[int, int]]:
    """Character ranges of school kinds and their diplomas ("primary school", "vocational school diplomas"):
    education is one of TAB's demographic attributes, and a kind of school narrows down who a pupil or teacher is."""
    # anchored on the school nouns (``str.find``), the phrase regex run on a short window around each: the
    # regex alone tries its thirty kinds at every word of the text (ten times slower)
    found: set[tuple[int, int]] = set()
    for noun in _SCHOOL_NOUNS:
        pos = text.find(noun)
        while pos >= 0:
            window = EDUCATION_RE.finditer(text, max(0, pos - 60), min(len(text), pos + len(noun) + 40))
            found.update(m.span() for m in window if m.start() <= pos < m.end())
            pos = text.find(noun, pos + len(noun))
    return sorted(found)


def nationality_phrases(text: str) -> list[tuple[int, int]]:
    """Character ranges of nationality phrases in text order: "Turkish national" of "a Turkish national", "white
    British"."""
    found = [m.span() for m in _AFTER_NATIONALITY.finditer(text) if m.group(1) in _NATIONALITY_SET]
    found += [m.span() for m in _COLOUR_BEFORE.finditer(text)
              if m.group(1) in _NATIONALITY_SET or m.group(1).lower() in _PERSON_NOUNS]
    return sorted(found)


def _alternation(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+").replace(r"\-", "[-\u2011\u2010]")
                    for w in sorted(set(words), key=len, reverse=True))


#: a candidate word: the occupation nouns are looked up in a set (one alternation of 200 nouns made the
#: regex engine try every noun at every word: slower than all pattern recognizers together)
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z-]{1,}")
_NOUNS = frozenset(w.lower() for w in OCCUPATIONS + ROLES if " " not in w)
#: multi-word occupations by their last word: "servant" → (("civil", "servant"),)
_PHRASES_BY_HEAD: dict[str, tuple[tuple[str, ...], ...]] = {}
for _phrase in OCCUPATION_PHRASES + ROLES:
    if " " in _phrase:
        _words = tuple(_phrase.split())
        _PHRASES_BY_HEAD[_words[-1]] = (*_PHRASES_BY_HEAD.get(_words[-1], ()), _words)


def _head(word: str) -> str | None:
    """The occupation noun a word is (singular or plural), or None."""
    lower = word.lower()
    for form in (lower, lower[:-1] if lower.endswith("s") else "", lower[:-2] if lower.endswith("es") else ""):
        if form and (form in _NOUNS or form in _PHRASES_BY_HEAD):
            return form
    return None


#: the lower-cased words :func:`_head` finds a noun in: a noun, its "s" and "es" forms
_HEAD_FORMS = frozenset(f + ending for f in _NOUNS | _PHRASES_BY_HEAD.keys() for ending in ("", "s", "es"))
_ASCII_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def head_words(text: str) -> list[re.Match[str]]:
    """The matches of ``_WORD_RE.finditer(text)`` that :func:`_head` finds a noun in, in text order.

    Why: a Python step per word (10^5 per judgment) was a tenth of psan's own CPU in the English pipeline,
    and one word in 300 is an occupation.  The distinct words are listed in C (``findall``, a set) and
    filtered by their lower-cased forms (:data:`_HEAD_FORMS`); only the few left are looked up in the text
    (``str.find``), each place kept where ``finditer`` would match that word: the match there is the whole
    word, and no earlier match runs into it (no ASCII letter before it, hyphens skipped).
    """
    words = list(set(_WORD_RE.findall(text)))
    found = []
    for word in compress(words, map(_HEAD_FORMS.__contains__, map(str.lower, words))):
        pos = text.find(word)
        while pos >= 0:
            before = pos
            while before and text[before - 1] == "-":
                before -= 1
            if not before or text[before - 1] not in _ASCII_LETTERS:
                match = _WORD_RE.match(text, pos)
                if match is not None and match.end() == pos + len(word):
                    found.append(match)
            pos = text.find(word, pos + 1)
    found.sort(key=lambda m: m.start())
    return found


#: the hyphens of typeset judgments: ASCII, the non-breaking U+2011 ("non‑commissioned") and U+2010
_HYPHENS = "[-\u2011\u2010]"


def _noun_start(text: str, start: int, head: str) -> int:
    """Start of the occupation noun ending with the word at ``start``: a known phrase before it, or the word."""
    for words in _PHRASES_BY_HEAD.get(head, ()):
        pattern = r"\s+".join(re.escape(w).replace(r"\-", _HYPHENS) for w in words[:-1]) + r"\s+$"
        m = re.search(pattern, text[max(0, start - 40):start], re.IGNORECASE)
        if m is not None:
            return start - (min(start, 40) - m.start())
    return start if head in _NOUNS else -1


_MODIFIER_BEFORE = re.compile(rf"(?:{_alternation(MODIFIERS)})(?:\s|{_HYPHENS})+$", re.IGNORECASE)


def _with_modifiers(text: str, start: int) -> int:
    """Start of the occupation with up to three modifiers before ``start`` ("primary school teacher")."""
    for _ in range(3):
        m = _MODIFIER_BEFORE.search(text, max(0, start - 30), start)
        if m is None or (m.start() and (text[m.start() - 1].isalnum() or text[m.start() - 1] == "-")):
            break
        start = m.start()
    return start


_ROLES = frozenset(ROLES)
#: occupation nouns that are also adjectives: "the principal of the school", but "the principal reason"
ADJECTIVAL = frozenset({"principal"})
_NAME_AFTER = re.compile(r"\s+[A-Z][\w'’-]*")
_NOUN_AFTER = re.compile(r"\s+(?!of\b|at\b|in\b|and\b|or\b|to\b|for\b|was\b|is\b|had\b|has\b)[a-z]")


def _title_before_name(text: str, match: re.Match[str]) -> bool:
    """A capitalized occupation right before a capitalized word is a title of a name ("Professor Strobel"):
    the name is the identifier, and the name recognizers find it."""
    return match.group()[:1].isupper() and bool(_NAME_AFTER.match(text, match.end()))


def _adjective(text: str, match: re.Match[str]) -> bool:
    """An adjectival occupation noun before another word: "the principal organisers", "the Principal Public
    Prosecutor" (but "the principal of the school" stays)."""
    return match.group().lower() in ADJECTIVAL and bool(
        _NOUN_AFTER.match(text, match.end()) or _NAME_AFTER.match(text, match.end()))
_PHRASES = frozenset(OCCUPATION_PHRASES) - _ROLES


class DemographicRecognizer(Recognizer):
    """Occupations and nationality phrases as DEMOGRAPHIC spans (see module docstring)."""

    def __init__(self) -> None:
        self.name = "demographic"
        self.priority = PRIORITY_DEMOGRAPHIC

    def __repr__(self) -> str:
        return "<DemographicRecognizer en>"

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        spans = []
        for match in head_words(text):
            head = _head(match.group())
            if head is None:
                continue
            noun_start = _noun_start(text, match.start(), head)
            if noun_start < 0:
                continue
            start, end = _with_modifiers(text, noun_start), match.end()
            value = text[start:end]
            head = re.sub(r"\s+", " ", value.lower()).replace("\u2011", "-").replace("\u2010", "-")
            singular = re.sub(r"e?s$", "", head) if head not in _ROLES else head
            is_role = any(singular.endswith(r) or head.endswith(r) for r in _ROLES) and not any(
                head.endswith(p) or singular.endswith(p) for p in _PHRASES)
            by_profession = _BY_PROFESSION.match(text, end)
            framed = bool(by_profession or _FRAME_BEFORE.search(text, max(0, start - 40), start))
            if is_role and not framed:
                continue
            if not framed and (_title_before_name(text, match) or _adjective(text, match)):
                continue
            if by_profession:
                end = by_profession.end()
            elif (at := _AT_SCHOOL.match(text, end)) and (school := EDUCATION_RE.match(text, at.end())):
                end = school.end()
            spans.append(CharSpan(start, end, "OCCUPATION", Category.DEMOGRAPHIC, self.name, SCORE, self.priority))
        occupations = [(s.start, s.end) for s in spans]
        for start, end in education_phrases(text):
            if any(a <= start and end <= b for a, b in occupations):
                continue  # "primary school" of "primary school teacher": the occupation is the mention
            spans.append(CharSpan(start, end, "EDUCATION", Category.DEMOGRAPHIC, self.name, SCORE, self.priority))
        for start, end in nationality_phrases(text):
            spans.append(CharSpan(start, end, "NATIONALITY", Category.DEMOGRAPHIC, self.name, SCORE, self.priority))
        return spans


_ARTICLES = frozenset({"a", "an", "the"})
_MODIFIER_WORDS = frozenset(MODIFIERS)
_NATIONALITY_NOUN_RE = re.compile(NATIONALITY_NOUNS)


def is_demographic_phrase(text: str, language: str | None) -> bool:
    """Is ``text`` as a whole an occupation, a role or a nationality ("a lawyer", "retired primary school teacher",
    "a Turkish national"), whatever its context?

    Why: a span a person marks by hand has no entity type, so the app cannot tell a name (personal data in every
    document) from a quasi-identifier whose meaning depends on its document ("a lawyer" is the applicant's
    occupation in one court decision and the representative's in the next); the lists of this recognizer can
    (:func:`psan.store.annotation.decisions.lookup_document_only`).  Languages without lists: never.
    """
    if language not in LANGUAGES:
        return False
    words = text.replace("\u2011", "-").replace("\u2010", "-").split()
    if words and words[0].lower() in _ARTICLES:
        words = words[1:]
    if not words or not all(_WORD_RE.fullmatch(w) for w in words):
        return False
    if words[0] in _NATIONALITY_SET:
        return len(words) == 1 or (len(words) == 2 and bool(_NATIONALITY_NOUN_RE.fullmatch(words[1].lower())))
    if any(not w.islower() for w in words):  # "Baker", "Cook": a capitalized occupation may be a surname
        return False
    lower = words
    head = _head(lower[-1])
    if head is None:
        return False
    rest = lower[:-1]
    for phrase in _PHRASES_BY_HEAD.get(head, ()):  # "civil servant": its first words are no modifiers
        if len(phrase) > 1 and tuple(rest[len(rest) - len(phrase) + 1:]) == phrase[:-1]:
            rest = rest[:len(rest) - len(phrase) + 1]
            break
    return all(w in _MODIFIER_WORDS for w in rest)


def default_recognizers(language: str) -> list[Recognizer]:
    """The demographic recognizer for the languages with lists (English), else none."""
    return [DemographicRecognizer()] if language in LANGUAGES else []
