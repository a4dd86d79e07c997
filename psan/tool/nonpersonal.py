"""NER candidates that are never personal data: public law, ordinals, generic institutions.

Why: on court judgments (TAB) more than half of the NER spans were false alarms, and every false
span is a judgment an annotator must make.  Most of them name nothing that could identify a
person (``ner_eval/results/tab-dev/false_spans.md``): the Convention's articles and rules
("Article 29 § 3 of the Convention", OntoNotes ``LAW``), ordinals ("first", ``ORDINAL``), the
generic bodies of any judgment ("the Court", "the Chamber", "the Government", "the Fourth Section",
"the European Commission of Human Rights"), headings in capitals ("THE FACTS") and numbers that
belong to a reference to law ("Rule 52 § 1", "Articles 8 and 14"), numbers of national instruments
("Law no. 3713", "the Housing Act 1996") and NER dates without a date in them ("monthly", "the same
day", "the following months").

The test is linguistic and conservative – a candidate is dropped only when *every* word of it is
generic, so anything with a proper name in it stays: "the Istanbul State Security Court",
"the Warsaw District Court", "HM Prison Manchester" and "the Söke Labour Court" are kept (they
reveal a place), and so are national courts, ministries and states even without a place name
("the Court of Cassation", "The Turkish Government": TAB masks them as quasi-identifiers, they tell
which country and which proceedings), named Acts ("the Reindeer Husbandry Act"), names, dates,
codes and amounts.  Dropping is safe in the sense of the
safety invariant: these words are public in every document (a court or a ministry of a state is
not a person's data), and only NER candidates are filtered – a person's decision, a rule or a
pattern (IDs, dates, file numbers) is never touched.

English only for now (the vocabulary is English; other languages pass through unchanged).
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from psan.tool.document import CharSpan

__all__ = ["GENERIC_WORDS", "INSTRUMENT_BEFORE", "NAME_TYPES", "NEVER_PERSONAL_TYPES", "NUMBER_TYPES",
           "RELATIVE_TIME", "TIME_TYPES", "is_never_personal", "drop_never_personal"]

#: NER entity types that never name a person's data: ordinal numbers (OntoNotes)
NEVER_PERSONAL_TYPES = frozenset({"ORDINAL"})
#: NER types whose spans are tested against the generic vocabulary; never a person type ("Court" or
#: "Law" tagged PERSON may be a surname, and a name is the most direct identifier there is)
NAME_TYPES = frozenset({"ORG", "GPE", "FAC", "NORP", "LOC", "MISC", "PRODUCT", "EVENT", "WORK_OF_ART"})
NUMBER_TYPES = frozenset({"CARDINAL", "QUANTITY"})
#: NER time types, tested for relative expressions and instrument numbers (the date recognizer's own spans
#: always hold a day, a month or a year)
TIME_TYPES = frozenset({"DATE", "TIME"})

#: the generic bodies and headings of any judgment, and the European Court's own bodies (lower case).
#: Not here on purpose: national courts and ministries ("the Supreme Military Administrative Court",
#: "the Ministry of Defence"), states and their governments ("the Republic of Turkey", "The Turkish
#: Government"): they tell which country and which proceedings, and TAB masks them as quasi-identifiers
GENERIC_WORDS = frozenset("""
the a an of for and on in to as regards
court courts chamber chambers grand section sections first second third fourth fifth government governments
commission council state states ministry federal registry registrar deputy president vice-president judge judges
facts fact procedure circumstances case relevant domestic law practice alleged violation article complaints
inter alia commanding officer european human rights convention committee ministers europe
""".split())
#: words of a reference to the Convention and the Rules of Court ("Article 29 § 3 of the Convention",
#: "Rule 26 § 1 of the Rules of Court", "Article 5 § 2 of Protocol No. 11"); a named Act or a national
#: code ("the Reindeer Husbandry Act", "Article 187 of the Turkish Civil Code") is not one of them
CONVENTION_WORDS = GENERIC_WORDS | frozenset("""
articles rule rules protocol protocols no nos paragraph paragraphs protection fundamental freedoms
""".split())
_WORD = re.compile(r"[^\W\d_][\w'’\-]*")

#: a number that belongs to a reference to law or to the Rules of Court ("Rule 52 § 1", "Articles 8 and 14")
LAW_REFERENCE_BEFORE = re.compile(
    r"(?:\b(?:Rules?|Articles?|[Ss]ections?|[Pp]aragraphs?|[Cc]lauses?|Protocol(?:\s+No\.)?|Chapters?|pp?\.|Nr\.)|§)"
    r"\s*(?:\d+[\w()]*\s*(?:,|and|or|§|to|-)\s*)*$")


#: a number of a public instrument: "Law no. 3713", "Decree-Law no. 430", "the Housing Act 1996" (NER takes the
#: number for a year or a count; the instrument and its number are public law)
INSTRUMENT_BEFORE = re.compile(
    r"\b(?:Laws?|Acts?|Decrees?|Decree-Laws?|Ordinances?|Regulations?|Statutes?|Codes?|Circulars?|Directives?)"
    r"(?:\s+(?:[Nn]os?\.|[Nn]umbers?))?\s*$")
#: NER "dates" without any date in them: frequencies and days relative to another date ("monthly", "the same
#: day", "the following months"); seasons and numbers stay (a winter pasture, "ten years" in prison)
RELATIVE_TIME = re.compile(
    r"(?i:(?:(?:the\s+)?(?:same|following|next|previous|preceding|whole|entire)\s+|that\s+|this\s+|each\s+|every\s+|"
    r"the\s+)?(?:day|days|week|weeks|month|months|year|years|morning|evening|night|afternoon)|monthly|daily|"
    r"weekly|yearly|annual|annually|every\s+day|today|yesterday|tomorrow|mid-year|later|recently)")


def _generic(text: str, vocabulary: frozenset[str] = GENERIC_WORDS) -> bool:
    """Every word of ``text`` (digits and signs aside) is in ``vocabulary``, and there is a word."""
    words = _WORD.findall(text)
    return bool(words) and all(w.lower() in vocabulary for w in words)


def is_never_personal(text: str, span: CharSpan, language: str) -> bool:
    """Is this NER candidate public in any document (see module docstring)?"""
    if language != "en":
        return False
    if span.type in NEVER_PERSONAL_TYPES:
        return True
    value = text[span.start:span.end]
    if span.type == "LAW":
        return _generic(value, CONVENTION_WORDS)
    if span.type in NAME_TYPES:
        return _generic(value)
    if span.type in NUMBER_TYPES:
        return bool(LAW_REFERENCE_BEFORE.search(text, max(0, span.start - 40), span.start)
                    or INSTRUMENT_BEFORE.search(text, max(0, span.start - 30), span.start))
    if span.type in TIME_TYPES:
        if RELATIVE_TIME.fullmatch(value):
            return True
        return value.isdigit() and bool(INSTRUMENT_BEFORE.search(text, max(0, span.start - 30), span.start))
    return False


def drop_never_personal(text: str, candidates: Iterable[CharSpan], language: str) -> list[CharSpan]:
    """``candidates`` without the never-personal ones."""
    return [c for c in candidates if not is_never_personal(text, c, language)]
