"""Case, application, file and registration numbers: "application no. 12345/06", "case no. 2-345/01".

Why: a court file number or an application number identifies a case – and through it the
parties – as directly as a name; registration, passport, plot or account numbers identify a
person or their property.  They have no checksum, so the recognizer relies on the words around
them:

* **a reference noun + "no." / "number"** (``application no.``, ``case No``, ``file number``,
  ``passport no.``, ``plot no.`` …) accepts any code with a digit (``24254/05``, ``D-4840``,
  ``2-345/01``, ``AB123456``);
* **"no." alone** accepts only structured codes – digits on both sides of ``/`` or ``-``, or
  letters-dash-digits ("no. 2004/123", "Nos. B-17") – and never after the name of a legal
  instrument (``Protocol No. 1``, ``Law no. 2577``, ``Article``, ``Rule`` …): public law is not
  personal data;
* **lists** continue the code shape: "nos. 32964/96, 33362/96 and 33369/96" gives three spans;
* a **bare** slash code of the application-number shape (``12345/06``) needs a reference noun
  within 40 characters before it.

* **land registry codes** after "sheet", "plan", "block", "plot", "parcel", "map" even without
  "no." – "sheet/plan 11/15W.2", "plan 11/14 E.1", "block D" is not a code (a code has a digit);
* **law-report citations** of other courts' cases – "[2001] 3 WLR 206", "NJA 2005 p. 884" – name
  the case and through it its parties (TAB masks them as codes).

Only the code is the span (not "no.").  Pure-digit codes shorter than four digits get category
OTHER, the rest ID: IDs are propagated through the document, and "937" or "12" would then mark
every page number.
"""
from __future__ import annotations

import re

from psan.tool.detection.recognizers.base import (
    PRIORITY_WEAK_ID,
    PatternRecognizer,
    compile_context,
    has_context,
)
from psan.tool.detection.recognizers.prescan import Start, finditer_at, literal_starts, start
from psan.tool.text.document import Category, CharSpan, Document

#: nouns that make the following "no./number + code" an identifier of a case, a person or property
REFERENCE_NOUNS = ("application", "applications", "case", "cases", "file", "files", "complaint", "complaints",
                   "registration", "reference", "ref", "docket", "record", "register", "account", "policy",
                   "passport", "licence", "license", "permit", "certificate", "card", "identity", "ID", "plot",
                   "plots", "parcel", "parcels", "cadastral", "invoice", "contract", "claim", "ticket", "customer",
                   "client", "member", "membership", "employee", "personnel", "vehicle", "plate", "serial",
                   "decision", "decisions", "judgment", "judgments", "ruling", "appeal", "appeals", "petition",
                   "proceedings", "indictment", "warrant", "prisoner", "inmate", "entry", "land", "title", "deed",
                   "flat", "apartment", "cell", "report", "order", "letter", "request", "submission", "notice")
#: legal instruments: their numbers are public, "Protocol No. 1" or "Law no. 2577" is not personal data
INSTRUMENTS = ("protocol", "law", "act", "decree", "regulation", "regulations", "directive", "convention",
               "article", "articles", "rule", "rules", "section", "paragraph", "resolution", "recommendation",
               "code", "ordinance", "statute", "amendment", "annex", "schedule", "chapter", "part", "item",
               "point", "page", "pages", "volume", "vol", "issue", "edition", "gazette", "bulletin", "official",
               "reports", "series", "treaty", "bill")

#: a code: optional letters (+dash), then a digit, then word characters joined by / - . (never a trailing dot)
_CODE = r"(?:[A-Z]{1,5}[-‑]?)?\d\w*(?:[./\-‑]\w+)*"
_NO = r"(?:[Nn]os?\.|No\b|N[Oo]S?\b|[Nn]umbers?\b|№|[Nn]°|[Nn]r\.)"
#: ``_NO`` with its first character as a class (each alternative picks its own by a look-behind): a pattern
#: that starts with a class lets the regex engine skip other characters in C (see ``first_class_first``); after
#: "N" or "n" (6 % of all characters) the next character is tested first, so "and" or "in" fails at once
_NO_FIRST = r"[Nn№](?:(?<=[Nn])(?=[oOu°r])(?:os?\.|(?<=N)o\b|(?<=N)[Oo]S?\b|umbers?\b|°|r\.)|(?<=№))"
NUMBER_RE = re.compile(rf"(?P<no>{_NO_FIRST})\s*:?\s*(?P<code>{_CODE})(?![\w‑-])")
#: ``NUMBER_RE`` as written with ``_NO`` (the same matches; the tests compare them)
NUMBER_PLAIN = rf"(?P<no>{_NO})\s*:?\s*(?P<code>{_CODE})(?![\w‑-])"
_NEXT_RE = re.compile(rf"\s*(?:,|;|&|\band\b|\bor\b)\s*(?:(?:[Nn]os?\.|No\b)\s*)?(?P<code>{_CODE})(?![\w‑-])")
BARE_RE = re.compile(r"\d(?<![\w./-]\d)\d{2,5}/\d{2}(?:\d{2})?(?![\w/‑-]|[.,]\d)")
#: a land-registry noun right before a code: "sheet/plan 11/15W.2", "plan 11/14 E.1", "plots 119/5"
LAND_RE = re.compile(r"[blmps](?<!\w[\s\S])(?:(?<=s)heets?|(?<=p)lans?|(?<=b)locks?|(?<=p)lots?|(?<=p)arcels?"
                     r"|(?<=m)aps?|(?<=l)ots?)"
                     r"(?:/(?:sheet|plan|map|block)s?)?"
                     r"\s+(?P<code>\d+/\d+[A-Z]?(?:[./]\d+)*(?:[ .]?[A-Z]{1,2}\.?\d+(?:\.\d+)*)?)(?![\w/])")
#: the stems every ``LAND_RE`` match starts with
_LAND_WORDS = ("sheet", "plan", "block", "plot", "parcel", "map", "lot")
#: law reports: "[2001] 3 WLR 206", "(1998) 2 AC 123", "NJA 2005 p. 884", "ECR I-1234"
CITATION_RE = re.compile(r"[\[(ADHMNR](?:(?<=[\[(])(?:19|20)\d\d[\])]\s+(?:\d{1,3}\s+)?[A-Z][A-Za-z]{1,5}"
                         r"(?:\s+\([A-Za-z]+\))?\s+\d{1,5}"
                         r"|(?=[JÅFDH])(?<!\w[\s\S])(?:(?<=N)JA|(?<=R)Å|(?<=H)FD|(?<=A)D|(?<=M)D|(?<=R)H)\s+(?:19|20)\d\d\s+"
                         r"(?:p\.|s\.|ref\.|not\.?)\s*\d{1,5})(?!\w)")
#: the shapes each regex's matches start with (:mod:`psan.tool.detection.recognizers.prescan`): "no."/"nos.",
#: "No"/"NO"/"NOS" before a non-word character, "number", "Nr.", "N°" or "№" ("Nov", "not", "North" are none of
#: them); a bare code's three digits (after none of ``\w./-``) and a fourth or its slash; a land-registry word's first
#: three letters; a citation's bracketed year or its report's letters and the space after them
NUMBER_STARTS = (start("[Nn]", "o", r"[.s]"), start("N", "[Oo]", r"[\WS]"), start("[Nn]", "u", "m"),
                 start("[Nn]", "r", r"\."), start("[Nn]", "°"), start("№"))
BARE_STARTS = (start(r"\d", r"\d", r"\d", r"[\d/]", not_before=r"[\w./-]"),)
SHAPES: dict[re.Pattern[str], tuple[Start, ...]] = {
    LAND_RE: literal_starts(_LAND_WORDS, 3, not_before=r"\w"),
    CITATION_RE: (start(r"[\[(]", "[12]", "[09]", r"\d", r"\d"),
                  *(start(*report, r"\s", not_before=r"\w") for report in ("NJA", "RÅ", "HFD", "AD", "MD", "RH"))),
}
#: the land-registry and citation regexes with their shapes, looked up once (a compiled regex hashes its whole program)
_LAND_AND_CITATIONS = ((LAND_RE, SHAPES[LAND_RE]), (CITATION_RE, SHAPES[CITATION_RE]))
_STRUCTURED = re.compile(r"\d[/\-‑.]\w*\d|^[A-Z]{1,5}[-‑]\d")
_WORD_BEFORE = re.compile(r"([A-Za-z]+)\.?[\s(]*$")


def _word_before(text: str, pos: int) -> str:
    """The word right before ``pos`` (lower-cased; "" if none), skipping spaces, a dot and an opening bracket."""
    m = _WORD_BEFORE.search(text, max(0, pos - 30), pos)
    return m.group(1).lower() if m else ""


class CaseNumberRecognizer(PatternRecognizer):
    """File, application and registration numbers introduced by "no." or "number" (see module docstring)."""

    def __init__(self) -> None:
        super().__init__("case_number", "CASE_NUMBER", Category.ID, NUMBER_RE, score=0.7, context_score=0.9,
                         priority=PRIORITY_WEAK_ID, starts=NUMBER_STARTS)
        self.nouns = frozenset(w.lower() for w in REFERENCE_NOUNS)
        self.instruments = frozenset(INSTRUMENTS)
        self.context = compile_context(REFERENCE_NOUNS)

    def prefilter(self, text: str) -> bool:
        return "o" in text or "№" in text

    def _span(self, start: int, end: int, code: str, score: float) -> CharSpan:
        category = Category.OTHER if code.isdigit() and len(code) < 4 else Category.ID
        return CharSpan(start, end, self.type, category, self.name, score, self.priority)

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        spans: list[CharSpan] = []
        taken_until = 0
        for match in self.matches(text):
            code = match.group("code")
            before = _word_before(text, match.start())
            if before in self.nouns:
                score = self.context_score
            elif before in self.instruments or not _STRUCTURED.search(code):
                continue
            else:
                score = self.score
            structured = bool(_STRUCTURED.search(code))
            spans.append(self._span(match.start("code"), match.end("code"), code, score))
            pos = match.end()
            while (nxt := _NEXT_RE.match(text, pos)) is not None:
                more = nxt.group("code")
                if bool(_STRUCTURED.search(more)) != structured or ("/" in more) != ("/" in code):
                    break
                spans.append(self._span(nxt.start("code"), nxt.end("code"), more, score))
                pos = nxt.end()
            taken_until = pos
        for regex, shapes in _LAND_AND_CITATIONS:
            if regex is LAND_RE and not any(word in text for word in _LAND_WORDS):
                continue  # every land-registry match starts with one of these words (a cheap substring test)
            for match in finditer_at(regex, text, shapes):
                start, end = match.span("code") if "code" in regex.groupindex else match.span()
                if sum(ch.isdigit() for ch in text[start:end]) < 3:
                    continue  # "plan 2/3 of the cost" is a fraction
                spans.append(self._span(start, end, text[start:end], self.context_score))
        for match in finditer_at(BARE_RE, text, BARE_STARTS):
            if match.start() < taken_until and any(s.start == match.start() for s in spans):
                continue
            if has_context(text, match.start(), match.end(), self.context, after=0):
                spans.append(self._span(match.start(), match.end(), match.group(), self.score))
        return _unique(spans)


def _unique(spans: list[CharSpan]) -> list[CharSpan]:
    """One span per range (a listed code may also match the bare pattern)."""
    seen: set[tuple[int, int]] = set()
    out = []
    for span in spans:
        if (span.start, span.end) not in seen:
            seen.add((span.start, span.end))
            out.append(span)
    return out
