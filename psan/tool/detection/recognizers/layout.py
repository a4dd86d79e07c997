"""Speaker slots of transcripts: the name in "Émile: …" at the start of a line.

Why: in meeting minutes, interviews and chat logs the speaker's name stands alone before a colon
at the start of a line, with no sentence around it, so NER misses it most of the time (143 of 193
misses on ELITR meetings were such slots: "Émile:" alone 145 times).  The layout is the evidence:

* a line starting (after an optional time stamp, "[00:01:02]") with one to four capitalized words (name
  particles such as "van", "de" may stand between them) followed by ``:`` and a space or the line end is a
  *speaker line*;
* the paragraph (lines up to a blank line) must have at least :data:`MIN_SPEAKER_LINES` speaker lines –
  one "Summary:" line in a letter is a heading, a transcript has many – and a paragraph, not the whole
  text, so that sections cut at blank lines give the same spans;
* labels that are headings or form fields in any of psan's languages ("Subject", "Note",
  "Předmět", "Odpowiedź", "Question" …) are never speakers (:data:`LABELS`); a leading title
  ("Mr", "Dr", "Prof.") is left out of the span;
* the score grows with the evidence: a name that opens several speaker lines is surer than one
  seen once.

The span is category PERSON (type ``SPEAKER``), so propagation marks the speaker's other mentions
in the text ("Wiktor: …" also finds "Wiktor seems frozen").  A recognizer of the pattern family:
one regex, a cheap prefilter (no ``:`` → nothing to do).
"""
from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from psan.tool.detection.recognizers.base import PatternRecognizer
from psan.tool.text.document import Category, CharSpan, Document

#: speaker lines a text needs before any of them counts as a speaker slot
MIN_SPEAKER_LINES = 2
#: score of a speaker name seen once / at least twice as a speaker
SCORE_ONCE = 0.6
SCORE_REPEATED = 0.85
PRIORITY_SPEAKER = 5

_WORD = r"[^\W\d_][\w'’.\-]*"
#: a blank line: the evidence is counted per paragraph, so a text cut into sections at blank lines
#: (psan.tool.text.sections) gives the same spans as the whole text
PARAGRAPH_END = re.compile(r"\n[ \t\r]*\n")
#: an optional time stamp before the speaker ("[00:01:02] Émile:", "10:32 - Émile:")
_STAMP = r"(?:[\[(]?\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d{1,3})?[\])]?[ \t]*(?:[-–][ \t]*)?)?"
_NON_SPACE = re.compile(r"\S+")
SPEAKER_RE = re.compile(rf"^[ \t]*{_STAMP}(?P<name>{_WORD}(?:[ \t]+{_WORD}){{0,4}})[ \t]*:(?=[ \t\r]|$)",
                        re.MULTILINE)

#: lower-case words allowed between the capitalized words of a name
PARTICLES = frozenset({"van", "von", "der", "den", "de", "da", "di", "del", "della", "la", "le", "du", "bin",
                       "ibn", "al", "el", "y", "ten", "ter", "zu"})
#: titles left out of the span ("Mr Smith:" → "Smith")
TITLES = frozenset({"mr", "mrs", "ms", "miss", "dr", "prof", "sir", "madam", "mme", "mlle", "m", "pan", "paní",
                    "pani", "pán", "ing", "mgr", "doc", "herr", "frau", "fru", "judge", "justice"})
#: headings, form fields and roles: never a speaker's name (lower case; whole label or its first word)
LABELS = frozenset("""
subject from to cc bcc date sent re fwd fw attachment attachments note notes nb ps tel phone fax mobile email e-mail
address web website url name surname title question answer q a summary abstract agenda minutes action actions
conclusion conclusions result results example examples warning caution important source sources translation
reference references comment comments remark remarks update edit status todo done decision decisions item items
topic topics present absent attendees participants apologies chair chairman chairwoman moderator host speaker
speakers interviewer interviewee respondent participant audience everybody everyone all unknown other others
when where what who why how which ad description location time place venue price cost total contact contacts
author authors keywords key
held reasons procedure facts law court applicant applicants government respondent witness judgment
předmět od komu kopie datum odesláno příloha přílohy poznámka pozn tel telefon adresa otázka odpověď
shrnutí závěr výsledek příklad varování zdroj překlad komentář stav úkol úkoly přítomni omluveni
téma předsedající moderátor řečník účastníci všichni
predmet kópia dátum príloha poznámka otázka odpoveď zhrnutie záver výsledok príklad zdroj preklad
temat od do data załącznik uwaga pytanie odpowiedź podsumowanie wniosek wynik przykład źródło
tłumaczenie komentarz obecni prowadzący
ämne från till datum bilaga not fråga svar sammanfattning slutsats resultat exempel källa översättning
närvarande ordförande
""".split())


def speaker_lines(regex: re.Pattern[str], text: str, start: int, end: int) -> list[re.Match[str]]:
    """``list(regex.finditer(text, start, end))`` for :data:`SPEAKER_RE` and a paragraph that starts at a line start:
    the regex matched at the start of each line that holds a colon.

    Why: a pattern that starts with ``^`` is tried at every character of the text; its matches start at a line
    start, lie in one line and hold a colon, so one match per line at most, and only lines with a colon can have one.
    """
    found = []
    colon = text.find(":", start, end)
    while colon >= 0:
        match = regex.match(text, max(start, text.rfind("\n", start, colon) + 1), end)
        if match is not None:
            found.append(match)
        line_end = text.find("\n", colon, end)
        if line_end < 0:
            break
        colon = text.find(":", line_end, end)
    return found


def _is_name_word(word: str) -> bool:
    # a capital is nearly always a letter itself; the walk over the word is for the rest ("Ⅻ")
    return word[:1].isupper() and (word[0].isalpha() or any(ch.isalpha() for ch in word))


@lru_cache(maxsize=1 << 12)
def name_in_label(label: str) -> tuple[int, int] | None:
    """The name's character range in a speaker label (offsets in ``label``), or None when the label is not a name.

    Why cached: a transcript names the same few speakers line after line ("Émile:" 145 times), and the answer
    depends on the label alone.
    """
    if " " not in label and "\t" not in label:  # one word (most labels): the tests below, without the lists
        lower = label.lower()
        if lower.rstrip(".") in TITLES or lower in LABELS or not _is_name_word(label):
            return None
        if label.isupper() and len(label) > 1 and not label.isalpha():
            return None
        return 0, len(label)
    words = [(m.start(), m.end()) for m in _NON_SPACE.finditer(label)]
    while words and label[words[0][0]:words[0][1]].lower().rstrip(".") in TITLES:
        words.pop(0)
    if not words:
        return None
    texts = [label[a:b] for a, b in words]
    if texts[0].lower() in LABELS or " ".join(texts).lower() in LABELS:
        return None
    if not (_is_name_word(texts[0]) and _is_name_word(texts[-1])):
        return None
    if any(not _is_name_word(w) and w.lower() not in PARTICLES for w in texts):
        return None
    if len(texts) == 1 and texts[0].isupper() and len(texts[0]) > 1 and not texts[0].isalpha():
        return None
    return words[0][0], words[-1][1]


class SpeakerRecognizer(PatternRecognizer):
    """Names in the speaker slot of transcript lines (see module docstring)."""

    def __init__(self) -> None:
        super().__init__("speaker", "SPEAKER", Category.PERSON, SPEAKER_RE, score=SCORE_ONCE,
                         priority=PRIORITY_SPEAKER, group="name")

    def prefilter(self, text: str) -> bool:
        return ":" in text

    def _name(self, text: str, start: int, end: int) -> tuple[int, int] | None:
        """The name's character range in a candidate label, or None when the label is not a name."""
        found = name_in_label(text[start:end])
        return None if found is None else (start + found[0], start + found[1])

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        if not self.prefilter(text):
            return []
        spans: list[CharSpan] = []
        start = 0
        for para in [*PARAGRAPH_END.finditer(text), None]:
            end = para.start() if para is not None else len(text)
            spans += self._paragraph(text, start, end)
            start = para.end() if para is not None else end
        return spans

    def _paragraph(self, text: str, start: int, end: int) -> list[CharSpan]:
        """The speaker slots of one paragraph (lines up to a blank line)."""
        found: list[tuple[int, int]] = []
        for match in speaker_lines(self.regex, text, start, end):
            name = self._name(text, *match.span("name"))
            if name is not None:
                found.append(name)
        if len(found) < MIN_SPEAKER_LINES:
            return []
        seen = Counter(text[a:b] for a, b in found)
        return [CharSpan(a, b, self.type, self.category, self.name,
                         SCORE_REPEATED if seen[text[a:b]] > 1 else SCORE_ONCE, self.priority) for a, b in found]
