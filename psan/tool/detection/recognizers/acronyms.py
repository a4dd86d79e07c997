"""Upper-case acronyms of organisations and places in Czech, Slovak, Polish, Swedish, Slovenian text.

Why: the NER models of these languages miss short acronyms ("KE", "TK", "PAP", "DGP", "ECDC",
"BBC", "UNFPA", "KĽDR", "FAO", "ČSOB", "EGAP"), which the corpora annotate as organisations or places
and which identify an employer, a party, a newspaper.  In these languages (unlike English prose, which
capitalizes far more abbreviations of ordinary things) an isolated upper-case word of two to six letters
is nearly always a name: measured on the CNEC 2.0 *training* split, 1,348 of 1,580 such words lie in a
gold span (0.85); the rest are common abbreviations, listed in :data:`COMMON_ABBREVIATIONS`.

What counts as an acronym:

* two to six upper-case letters, optionally one or two digits ("G8", "TVN24"), optionally a lower-case
  case ending of one to three letters glued to it or after a hyphen (Czech "GATTu", Polish "PAP-u");
* not a Roman numeral ("XXVI", "III");
* not a common abbreviation of a thing, unit, currency or ID label (:data:`COMMON_ABBREVIATIONS`:
  "VAT", "DPH", "PKB", "IČO", "GPS", "USD", "CO2" …), unless the text defines it after a name it abbreviates
  ("Komerční banka (KB)": :mod:`psan.tool.detection.acronym_definitions`);
* not part of an upper-case run: when the word before or after is upper case too, the text is a
  heading or a byline in capitals ("GRUPY ROBOCZE W RAMACH KOMISJI"), where capitals prove nothing;
  nor on a line without any lower-case letter (a heading: "PANNA 24. 8. - 23. 9.", "SOBOTA A NEDEĽA");
* a word of four or more letters is dropped when it also occurs in lower case in the same paragraph
  (:mod:`psan.tool.detection.recognizers.paragraphs`), in lower or title case ("SOBOTA" beside "sobota": an
  ordinary word set in capitals).

English writes far more abbreviations of ordinary things in capitals ("NATO", "PDF", "ASR"), so there only
a word the dictionary does not know is taken, of four to fourteen letters and with no case ending
(:data:`COINED_LANGUAGES`): coined names of projects, conferences and bodies ("COFOBRIM", "TEBRAR", "CNITAAT")
that no NER model has seen.  Chosen on fold 0 of the shared ``tab-dev``/``elitr-dev``: 30 of its 33 new
spans lie in a gold span (ELITR's project names; TAB's are already found by NER).  The technical terms of
:data:`psan.tool.detection.nonpersonal.TECHNICAL_TERMS` ("HTTPS", "UTF-8") are never taken; without a dictionary, none.

Name evidence below NER (priority −5, as the institutions): a NER span on the same word stays and keeps
its type.  Category ORGANIZATION (most are; "USA", "UE", "KĽDR" are places, which the person sees).
"""
from __future__ import annotations

import re

from psan.tool.detection.acronym_definitions import is_defined_acronym
from psan.tool.detection.nonpersonal import TAXES_AND_CURRENCIES, TECHNICAL_TERMS
from psan.tool.detection.recognizers.paragraphs import LowerCaseWords
from psan.tool.detection.recognizers.prescan import finditer_at, start
from psan.tool.detection.recognizers.prescan import warm_up as prescan_warm_up
from psan.tool.text.document import Category, CharSpan, Document, Recognizer

PRIORITY_ACRONYM = -5
SCORE = 0.5
#: languages whose default pipeline looks for acronyms (English capitalizes too many abbreviations:
#: measured on elitr-dev, 318 false for 54 true)
ACRONYM_LANGUAGES = frozenset({"cs", "sk", "pl", "sv", "sl"})
#: languages whose default pipeline takes only coined acronyms: long, unknown to the dictionary (see docstring)
COINED_LANGUAGES = frozenset({"en"})
COINED_MIN_LETTERS = 4

_UPPER = "A-ZÁÄČĎÉĚÍĹĽŇÓÔÖŔŘŠŤÚŮÜÝŽĄĆĘŁŃŚŹŻÅ"
_LOWER = "a-záäčďéěíĺľňóôöŕřšťúůüýžąćęłńśźżå"
#: an acronym as written plainly: an upper-case letter after none of ``\w-./@``, capitals, digits, a case ending
ACRONYM_PLAIN = (rf"(?=[{_UPPER}])(?<![\w\-./@])([{_UPPER}]{{2,6}}\d{{0,2}})(-?[{_LOWER}]{{1,3}})?"
                 r"(?![\w\-@]|\.\w)")
#: a coined name in capitals as written plainly: longer, no digits, no case ending
COINED_PLAIN = rf"(?=[{_UPPER}])(?<![\w\-./@])([{_UPPER}]{{{COINED_MIN_LETTERS},14}})(?![\w\-@]|\.\w)"
#: the two with the first capital matched by the class and the character before it checked by a look-behind one
#: character longer (the same matches and groups): a pattern that starts with a class lets the regex engine skip to
#: the next capital in C, one that starts with a look-ahead is tried at every character
ACRONYM_RE = re.compile(rf"([{_UPPER}](?<![\w\-./@][{_UPPER}])[{_UPPER}]{{1,5}}\d{{0,2}})(-?[{_LOWER}]{{1,3}})?"
                        r"(?![\w\-@]|\.\w)")
COINED_RE = re.compile(rf"([{_UPPER}](?<![\w\-./@][{_UPPER}])[{_UPPER}]{{{COINED_MIN_LETTERS - 1},13}})"
                       r"(?![\w\-@]|\.\w)")
#: the shape every match of both starts with (:mod:`psan.tool.detection.recognizers.prescan`): two capitals after
#: none of ``\w-./@``
ACRONYM_STARTS = (start(f"[{_UPPER}]", f"[{_UPPER}]", not_before=r"[\w\-./@]"),)
ROMAN_RE = re.compile(r"[IVXLCDM]+")
#: an upper-case word of two letters or more (the neighbours that make a capitals run)
_CAPS_WORD_RE = re.compile(rf"[{_UPPER}][{_UPPER}\d]+")

#: abbreviations of things, units, currencies, ID labels and titles, never a name (all languages at once:
#: the lists overlap, and a Czech text quotes Slovak and Polish ones); the taxes and currencies are the ones no
#: NER reading may name either (psan.tool.detection.nonpersonal)
COMMON_ABBREVIATIONS = TAXES_AND_CURRENCIES | frozenset("""
ZTP ZŠ SŠ MŠ VŠ SOŠ SOU OA
IČ IČO DIČ ID PIN PUK IBAN SWIFT BIC NIP REGON PESEL KRS EČV SPZ RČ OP
GPS GSM GM GMO SMS MMS DNA RNA HIV AIDS EKG EEG CT MRI MR RTG IQ UV HD TV PC CD DVD USB WWW PDF HTML
LED LCD CPU RAM ROM CNC SIM WIFI OK SOS PS PR IT ICT CV FAQ CEO CFO CTO SUV UFO DIY
ECU
CO NO SO CO2 NO2 SO2 H2O CH4 O2 O3 PM10 PM2
KM KW MW GW KWH MWH MB GB KB TB MHZ GHZ DB DPI RPM
AB HB VD SFS TEL FAX
JUDR MUDR MGR ING PHDR RNDR PHD MBA BC DR
""".split())


class AcronymRecognizer(Recognizer):
    """Isolated upper-case acronyms (see module docstring); ORGANIZATION, type ``ACRONYM``."""

    #: at least two upper-case letters in a row somewhere in the text
    trigger = re.compile(rf"[{_UPPER}][{_UPPER}]")

    def __init__(self, language: str, coined_only: bool = False) -> None:
        self.name = "acronym"
        self.priority = PRIORITY_ACRONYM
        self.language = language
        #: only words the dictionary does not know (English: see module docstring)
        self.coined_only = coined_only

    def __repr__(self) -> str:
        return f"<AcronymRecognizer {self.language}>"

    def warm_up(self) -> None:
        """The language's dictionary, when only coined words count (it tells them from known words); the pre-scan's
        classes."""
        prescan_warm_up()
        if self.coined_only:
            from psan.tool.words import lexicon
            lexicon.warm_up(self.language)

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        spans: list[CharSpan] = []
        lowered = LowerCaseWords(text)
        for match in finditer_at(COINED_RE if self.coined_only else ACRONYM_RE, text, ACRONYM_STARTS):
            word = match.group(1)
            if self.coined_only and (word in TECHNICAL_TERMS or _known(word, self.language)):
                continue
            letters = word.rstrip("0123456789")
            if ROMAN_RE.fullmatch(word) or (word in COMMON_ABBREVIATIONS or letters in COMMON_ABBREVIATIONS) \
                    and not is_defined_acronym(text, letters):
                continue
            if len(letters) < 2 or _in_caps_run(text, match.start(), match.end()) or _heading(text, match.start(),
                                                                                                   match.end()):
                continue
            if len(letters) >= 4 and lowered.not_in_capitals(word, match.start()):
                continue
            spans.append(CharSpan(match.start(), match.end(), "ACRONYM", Category.ORGANIZATION, self.name, SCORE,
                                  self.priority))
        return spans


def _neighbour_words(text: str, start: int, end: int) -> tuple[str, str]:
    """The words right before ``start`` and right after ``end`` on the same line (punctuation between skipped)."""
    left = text[max(0, start - 40):start].rsplit("\n", 1)[-1]
    right = text[end:end + 40].split("\n", 1)[0]
    before = re.findall(r"\w+", left)
    after = re.findall(r"\w+", right)
    return (before[-1] if before else "", after[0] if after else "")


def _in_caps_run(text: str, start: int, end: int) -> bool:
    """True when the word before or after (same line) is upper case too: a heading or byline in capitals."""
    return any(w and _CAPS_WORD_RE.fullmatch(w) and not ROMAN_RE.fullmatch(w)
               for w in _neighbour_words(text, start, end))


def _heading(text: str, start: int, end: int) -> bool:
    """True when the word's line has no lower-case letter: a heading ("PANNA 24. 8. - 23. 9.", "SOBOTA A NEDEĽA")."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line = text[line_start:line_end if line_end >= 0 else len(text)]
    return not any(ch.islower() for ch in line)


def _known(word: str, language: str) -> bool:
    """A dictionary word, or no dictionary to tell (then nothing is taken for coined)."""
    from psan.tool.words import lexicon
    return lexicon.is_known(word, (language,)) is not False


def default_recognizers(language: str) -> list[Recognizer]:
    """The acronym recognizer for the languages of :data:`ACRONYM_LANGUAGES`, its coined-only form for those of
    :data:`COINED_LANGUAGES`, none for others."""
    if language in ACRONYM_LANGUAGES:
        return [AcronymRecognizer(language)]
    return [AcronymRecognizer(language, coined_only=True)] if language in COINED_LANGUAGES else []
