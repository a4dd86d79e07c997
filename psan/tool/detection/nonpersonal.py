"""NER candidates that are never personal data: public law, ordinals, generic institutions.

Why: on court judgments (TAB) more than half of the NER spans were false alarms, and every false
span is a judgment an annotator must make.  Most of them name nothing that could identify a
person (``ner_eval/results/tab-dev/false_spans.md``): the Convention's articles and rules
("Article 29 § 3 of the Convention", OntoNotes ``LAW``), ordinals ("first", ``ORDINAL``), the
generic bodies of any judgment ("the Court", "the Chamber", "the Government", "the Fourth Section",
"the European Commission of Human Rights"), headings in capitals ("THE FACTS") and numbers that
belong to a reference to law ("Rule 52 § 1", "Articles 8 and 14"), numbers of national instruments
("Law no. 3713", "the Housing Act 1996") and NER dates without a date in them ("monthly", "the same
day", "the following months").  A third round added what is public in every judgment of any
state: offices of prosecution and administration without a place ("the Principal Public Prosecutor",
"the Regional Governor", "the Director of Legal Affairs", "the Board", "the Tribunal"), courts and
authorities of a level named without their place ("the District Court", "the Regional Court"), the
possessive of a generic body ("the Court's"), a state's general codes with their articles ("Article 505 of
the Code of Criminal Procedure", "the Criminal Code", "the Constitution"), an instrument that NER takes for a
person ("by Law no. 5190", "the Anti-Terror Law"), the numbers of headings and of sub-paragraphs
("1. Background", "Article 52 (4)"), partitive counts ("two of which", "one of the accused") and NER
periods that hold no number ("the same day", "the 19th century"). A fourth round added the dates of
public law, which NER and the date pattern find in every judgment: the day a Convention protocol came into
force ("…, when Protocol No. 11 to the Convention came into force") and an instrument designated by its date
("Law no. 5190 of 16 June 2004"). The date of a national law coming into force and the Court's own procedural
dates stay (TAB's annotators mask them in some judgments), and so do the numbers and dates of cited judgments:
the case cited may be the applicant's own earlier application. A reference to law NER takes for a person
("Articles 3 and 8") stays a candidate: its public decisions keep the project from learning persons private
too early (the learned rule then masks every foreign term NER takes for a name).

The test is linguistic and conservative – a candidate is dropped only when *every* word of it is
generic, so anything with a proper name in it stays: "the Istanbul State Security Court",
"the Warsaw District Court", "HM Prison Manchester" and "the Söke Labour Court" are kept (they
reveal a place), and so are national courts, ministries and states even without a place name
("the Court of Cassation", "The Turkish Government": TAB masks them as quasi-identifiers, they tell
which country and which proceedings), named Acts ("the Reindeer Husbandry Act"), names, dates,
codes and amounts (but for the dates of public law above).  Dropping is safe
in the sense of the safety invariant: these words are public in every document (a court or a ministry
of a state is not a person's data, nor is the date of a law), and only
candidates are filtered – a person's decision or a rule is never touched, and a pattern's span (IDs,
dates, file numbers) only when it is one of those dates.

A fifth round added technical terms that NER takes for an organisation or a product in a technical
meeting ("XML", "HTTPS", "the GPU", "Python": :data:`TECHNICAL_TERMS`), names of no company, platform or project.

A sixth round made part of it hold in every language: a name span of NER (person, place, organisation,
other) that is only technical terms ("DDoS", "Internet", "Internetu" – the Czech model reads "DDoS" as a surname in
Polish), a name span of a person, place or organisation that is a tax or a currency ("VAT" as the Czech model's
institution), and, in the languages that write months in Roman numerals ("1 V 2004", "V–XI 2004"), a lone month
numeral read as a place or an organisation (:func:`is_never_a_name`).  A person span is dropped only for a term of
two capitals or more ("DDoS", not "Python" or "Perl", which are surnames too).  A tax or currency acronym that the
text defines after a name it abbreviates ("British National Party (BNP)",
:mod:`psan.tool.detection.acronym_definitions`)
names that in the text and is kept: Czech "BNP" is the gross national product, English "the BNP" a party.  The
technical terms stay dropped even when defined ("Natural Language Processing (NLP)" names a field, not a body).

The rest is English only (the vocabulary is English; other languages pass through unchanged).
"""
from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from functools import lru_cache

from psan.tool.detection.acronym_definitions import is_defined_acronym
from psan.tool.text.document import Category, CharSpan

__all__ = ["CODE_WORDS", "GENERIC_WORDS", "TECHNICAL_TERMS", "INSTRUMENT_BEFORE", "INSTRUMENT_WORDS", "NAME_TYPES",
           "NEVER_PERSONAL_TYPES", "NUMBER_TYPES", "PERSON_TYPES", "RELATIVE_TIME", "TAXES_AND_CURRENCIES",
           "TIME_TYPES", "FULL_DATE_END", "INSTRUMENT_ENDINGS", "INSTRUMENT_OF_BEFORE", "INTO_FORCE_AFTER",
           "INTO_FORCE_BEFORE", "before_dollar", "instrument_before", "is_never_a_name", "is_never_personal",
           "drop_never_personal", "public_date"]

#: NER entity types that never name a person's data: ordinal numbers (OntoNotes)
NEVER_PERSONAL_TYPES = frozenset({"ORDINAL"})
#: NER types whose spans are tested against the generic vocabulary; not a person type ("Court" or "Law"
#: tagged PERSON may be a surname, and a name is the most direct identifier there is: see PERSON_TYPES)
NAME_TYPES = frozenset({"ORG", "GPE", "FAC", "NORP", "LOC", "MISC", "PRODUCT", "EVENT", "WORK_OF_ART"})
NUMBER_TYPES = frozenset({"CARDINAL", "QUANTITY"})
#: NER time types, tested for relative expressions and instrument numbers (the date recognizer's own spans
#: always hold a day, a month or a year)
TIME_TYPES = frozenset({"DATE", "TIME", "PERIOD"})
#: person types: dropped only when the span is one word that names a legal instrument in an instrument's
#: context ("by Law no. 5190", "the Anti-Terror Law"); "Mr Law" or "Law said" stay
PERSON_TYPES = frozenset({"PERSON", "PER"})

#: technical terms NER takes for an organisation or a product in technical talk ("the XML", "over HTTPS", "on the
#: GPU"): file formats, protocols, hardware, programming languages and the field acronyms of language technology,
#: as written (case-sensitive: "Python" the language, not "python").  Not here on purpose: companies and
#: platforms ("Google", "GitHub": an employer is a quasi-identifier), conferences and projects (ELITR masks its
#: projects' names), and two-letter acronyms that are also countries or states ("MT", "CS")
TECHNICAL_TERMS = frozenset("""
PDF XML HTML JSON CSV TSV TXT YAML DOCX XLSX PPTX ODT RTF MP3 MP4 WAV FLAC OGG M3U8 PNG JPG JPEG GIF SVG TIFF
ZIP ASCII UTF-8 Unicode
HTTP HTTPS SSL TLS SSH FTP SFTP SMTP IMAP TCP UDP DNS VPN URL URLs URI API APIs REST RSS Wi-Fi WiFi Bluetooth
CPU CPUs GPU GPUs TPU RAM SSD HDD USB HDMI
Python JavaScript TypeScript PHP Perl SQL LaTeX BibTeX Markdown Linux Unix Ubuntu Debian Git Docker Kubernetes
NLP ASR TTS NMT LLM LLMs GPT BERT OCR PCA SVM RNN LSTM
DDoS DoS Internet Internetu Internecie Internetem Internete Internetom Internetas Internets
""".split())
#: taxes and currencies, never a person, place or organisation in any language ("VAT", "DPH", "USD"); CNEC annotates
#: currencies as entities of their own (``om``, category OTHER), and those stay
TAXES_AND_CURRENCIES = frozenset("""
VAT DPH DPFO HDP PKB BNP BDP
USD EUR CZK SKK PLN SEK NOK DKK GBP CHF JPY HUF RUB CNY
""".split())
#: languages that write a month in Roman numerals ("1 V 2004", "XI 2004")
ROMAN_MONTH_LANGUAGES = frozenset({"cs", "sk", "pl", "sl"})
_ROMAN_MONTHS = frozenset("I II III IV V VI VII VIII IX X XI XII".split())
_NAMED = frozenset({Category.PERSON, Category.LOCATION, Category.ORGANIZATION})
_NAMES_OR_OTHER = _NAMED | {Category.OTHER}
_ARTICLES = frozenset({"the", "a", "an"})

#: the generic bodies and headings of any judgment, and the European Court's own bodies (lower case); courts
#: and authorities of a level every state has dozens of, named without their place ("the District Court",
#: "the Regional Court", "the District Authority": the place is what would tell, and it is not there).
#: Not here on purpose: national courts and ministries ("the Supreme Military Administrative Court",
#: "the Ministry of Defence"), states and their governments ("the Republic of Turkey", "The Turkish
#: Government"): they tell which country and which proceedings, and TAB masks them as quasi-identifiers
GENERIC_WORDS = frozenset("""
the a an of for and on in to as regards
court courts chamber chambers grand section sections first second third fourth fifth government governments
commission council state states ministry federal registry registrar deputy president vice-president judge judges
facts fact procedure circumstances case relevant domestic law practice alleged violation article complaints
inter alia commanding officer european human rights convention committee ministers europe
rule rules public prosecutor prosecutors principal chief office offices
regional district governor governors director directorate directorates department departments legal affairs
international
authority authorities board boards tribunal tribunals
""".split())
#: words of a reference to the Convention and the Rules of Court ("Article 29 § 3 of the Convention",
#: "Rule 26 § 1 of the Rules of Court", "Article 5 § 2 of Protocol No. 11"); a named Act or a national
#: code ("the Reindeer Husbandry Act", "Article 187 of the Turkish Civil Code") is not one of them
CONVENTION_WORDS = GENERIC_WORDS | frozenset("""
articles rule rules protocol protocols no nos paragraph paragraphs protection fundamental freedoms
""".split())
#: the general codes of any state and references into them ("Article 505 of the Code of Criminal Procedure",
#: "the Criminal Code", "Section 24 § 1 of the Fourth Implementing Regulation", "the Constitution"); a code or
#: an Act named by its subject or by its state stays ("the Immigration Act", "the Reindeer Husbandry Act",
#: "Article 187 of the Turkish Civil Code": the surname change, the applicant's herd, which state)
CODE_WORDS = CONVENTION_WORDS | frozenset("""
code codes criminal civil penal procedure constitution constitutional basic law laws act acts implementing
regulation regulations section sections subsection chapter chapters provisional transitional
""".split())
#: the instrument nouns a code span ends with, and the one-word instruments NER takes for a person
INSTRUMENT_WORDS = frozenset({"code", "codes", "constitution", "law", "laws", "act", "acts", "regulation",
                              "regulations", "decree", "decrees", "statute", "statutes", "ordinance"})
_WORD = re.compile(r"[^\W\d_][\w'’\-]*")
#: a place right after a body ("the District Court in Nowy Targ"): the body is no generic one there
_PLACE_AFTER = re.compile(r"[ \t]+(?:in|at)[ \t]+[A-Z]")
#: a possessive ending ("the Court's", "the Government’s"): the word itself is looked up
_POSSESSIVE = re.compile(r"(?:['’]s|['’])$")

#: a number that belongs to a reference to law or to the Rules of Court ("Rule 52 § 1", "Articles 8 and 14")
LAW_REFERENCE_BEFORE = re.compile(
    r"(?:\b(?:Rules?|Articles?|[Ss]ections?|[Pp]aragraphs?|[Cc]lauses?|Protocol(?:\s+No\.)?|Chapters?|pp?\.|Nr\.)|§)"
    r"\s*(?:\d+[\w()]*(?:\s*\(\w{1,4}\))*\s*(?:,|and|or|§|to|-)\s*)*(?:\d+[\w]*\s*)?\(?$")
#: an instrument's number or designation after a one-word instrument ("Law no. 3713", "Law No. 5190")
_INSTRUMENT_NUMBER_AFTER = re.compile(r"\s+(?:[Nn]os?\.|[Nn]umbers?|[Nn]r\.)\s*\d")
#: "the Law", "the Anti-Terror Law", "the 1997 Lustration Law": an article and capitalized words or a year
_INSTRUMENT_ARTICLE_BEFORE = re.compile(r"\b[Tt]he\s+(?:(?:[A-Z][\w\-]*|\d{4})\s+){0,3}$")
#: a heading's or list item's number: alone at the start of a line, then "." or ")" ("1. Background")
_ITEM_NUMBER_BEFORE = re.compile(r"(?:^|\n)[ \t(]*$")
_ITEM_NUMBER_AFTER = re.compile(r"[.)]\s")
#: a partitive count: "two of which", "one of the accused", "eight of the ten properties"
_PARTITIVE_AFTER = re.compile(r"\s+of\s+(?:the|these|those|which|whom|them|its|his|her|their|\d)\b")
_SMALL_NUMBER = re.compile(r"(?i:one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})")
#: a century ("the 20th century", "the late 19th century"): too wide to tell anyone apart
_CENTURY = re.compile(r"(?i:(?:the\s+)?(?:early|late|mid-?)?\s*\d{1,2}(?:st|nd|rd|th)\s+centur(?:y|ies))")


#: a number of a public instrument: "Law no. 3713", "Decree-Law no. 430", "the Housing Act 1996" (NER takes the
#: number for a year or a count; the instrument and its number are public law)
INSTRUMENT_BEFORE = re.compile(
    r"\b(?:Laws?|Acts?|Decrees?|Decree-Laws?|Ordinances?|Regulations?|Statutes?|Codes?|Circulars?|Directives?)"
    r"(?:\s+(?:[Nn]os?\.|[Nn]umbers?))?\s*$")
#: what a text INSTRUMENT_BEFORE matches ends in, blanks aside: its words' literal endings
INSTRUMENT_ENDINGS = ("Law", "Laws", "Act", "Acts", "Decree", "Decrees", "Ordinance", "Ordinances", "Regulation",
                      "Regulations", "Statute", "Statutes", "Code", "Codes", "Circular", "Circulars", "Directive",
                      "Directives", "No.", "no.", "Nos.", "nos.", "Number", "number", "Numbers", "numbers")


def before_dollar(text: str) -> str:
    """``text`` as a regex's ``$`` sees its end: without one last line break (``$`` also matches before it).  The
    string tests that stand before such regexes test this."""
    return text[:-1] if text.endswith("\n") else text


def instrument_before(text: str, start: int) -> bool:
    """Does an instrument's name ("Law", "Act No.") end the 30 characters before ``start`` (INSTRUMENT_BEFORE)?

    Why the string test first (the same answer): the regex tried every position of the window for each number and
    date of a document, and most windows end in no instrument word.
    """
    return (text[max(0, start - 30):start].rstrip().endswith(INSTRUMENT_ENDINGS)
            and INSTRUMENT_BEFORE.search(text, max(0, start - 30), start) is not None)


#: NER "dates" without any date in them: frequencies and days relative to another date ("monthly", "the same
#: day", "the following months", "last week", "the end of this week"), a weekday or a month alone ("on Monday",
#: "next Friday", "in September", "mid July": one day of seven, one month of twelve, with no year; TAB's
#: annotators mask neither, the meetings of ELITR say them in every agenda) and a unit of time without a number
#: ("minutes"); seasons and numbers stay (a winter pasture, "ten years" in prison, "June 1998")
_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
_MONTH = r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
_UNIT = r"(?:day|week|weekend|month|year|decade|hour|minute|second)s?"
_RELATIVE_TO = r"(?:same|following|next|previous|preceding|whole|entire|last|past|coming|current|recent)"
RELATIVE_TIME = re.compile(
    r"(?i:(?:(?:early|late|mid-?)\s*)?(?:(?:the\s+)?" + _RELATIVE_TO + r"\s+(?:few\s+|couple\s+of\s+)?|that\s+|"
    r"this\s+|each\s+|every\s+|on\s+|the\s+)?(?:" + _UNIT + r"|" + _WEEKDAY + r"|morning|evening|night|afternoon)"
    r"(?:\s+(?:morning|evening|night|afternoon))?|monthly|daily|weekly|yearly|annual|annually|every\s+day|today|"
    r"yesterday|tomorrow|mid-year|later|recently|(?:the\s+)?day\s+(?:after\s+tomorrow|before\s+yesterday)|"
    r"(?:the\s+)?(?:end|beginning|start|middle)\s+of\s+(?:the\s+|this\s+|next\s+|last\s+|that\s+)?"
    r"(?:" + _UNIT + r"|" + _MONTH + r")|(?:(?:early|mid-?|late)\s*)?" + _MONTH + r")")


#: a date written in full ("16 June 2004") that ends where a span ends: one day, as an instrument is designated
FULL_DATE_END = re.compile(r"(?<!\d)\d{1,2}(?:st|nd|rd|th)?\s+(?i:" + _MONTH + r")\s+\d{4}$")
#: an instrument designated by its date ("Law no. 5190 of 16 June 2004", "the Law of 17 June 2004"): the date
#: is the instrument's name in the official gazette, public law.  Not a decree: one may appoint or dismiss a
#: person ("By a Decree of 5 May 1999 the President dismissed the applicant")
INSTRUMENT_OF_BEFORE = re.compile(
    r"\b(?:Laws?|Acts?|Decree-Laws?|Ordinances?|Regulations?|Statutes?|Directives?)"
    r"(?:\s+(?:[Nn]os?\.|[Nn]umbers?)\s*\d[\w/.\-]*)?\s+of\s+$")
#: the European Convention system's own instruments coming into force ("…, when Protocol No. 11 to the
#: Convention came into force", "Protocol No. 14 entered into force on"): one date for every applicant
_CONVENTION_INSTRUMENT = r"(?:the\s+)?(?:Protocol\s+No\.\s*\d+(?:\s+to\s+the\s+Convention)?|(?:the\s+)?Convention)"
INTO_FORCE_AFTER = re.compile(r",?\s+when\s+" + _CONVENTION_INSTRUMENT + r"\s+(?:came|entered)\s+into\s+force\b")
INTO_FORCE_BEFORE = re.compile(_CONVENTION_INSTRUMENT + r"\s+(?:came|entered)\s+into\s+force\s+on\s+$")


def _words(text: str) -> list[str]:
    """The lower-case words of ``text`` (digits and signs aside), a possessive as its word ("Court's")."""
    words = _WORD.findall(text.lower())
    if "'" in text or "’" in text:
        words = [_POSSESSIVE.sub("", w) for w in words]
    return words


def _general_code(words: list[str]) -> bool:
    """A state's general code or a reference into it, named by no subject: "Article 505 of the Criminal Code"."""
    return bool(words) and any(w in INSTRUMENT_WORDS for w in words) and all(w in CODE_WORDS for w in words)


def _instrument_not_person(text: str, span: CharSpan) -> bool:
    """A one-word "person" that is an instrument in an instrument's context ("by Law no. 5190", "the Law")."""
    value = text[span.start:span.end]
    if value.lower() not in INSTRUMENT_WORDS or not value[:1].isupper():
        return False
    return bool(_INSTRUMENT_NUMBER_AFTER.match(text, span.end)
                or _INSTRUMENT_ARTICLE_BEFORE.search(text, max(0, span.start - 60), span.start))


def _number_never_personal(text: str, span: CharSpan) -> bool:
    """A number of a reference, an instrument, a heading, or a partitive count."""
    start, end = span.start, span.end
    if (LAW_REFERENCE_BEFORE.search(text, max(0, start - 40), start)
            or instrument_before(text, start)):
        return True
    value = text[start:end]
    if value.isdigit() and _ITEM_NUMBER_BEFORE.search(text, max(0, start - 10), start) \
            and _ITEM_NUMBER_AFTER.match(text, end):
        return True
    return bool(_SMALL_NUMBER.fullmatch(value) and _PARTITIVE_AFTER.match(text, end))


@lru_cache(maxsize=1 << 14)
def _all_generic(value: str, law: bool) -> bool:
    """Are all words of ``value`` generic (the Convention's words for a ``LAW`` span), or a general code?

    Why cached: the test depends on the span's text alone, and the same names recur throughout a document
    (each candidate is also tested twice: when mentions are grown and when candidates are merged).
    """
    words = _words(value)
    generic = CONVENTION_WORDS if law else GENERIC_WORDS
    return bool(words) and (all(w in generic for w in words) or _general_code(words))


def _technical(value: str) -> bool:
    """A technical term, alone or after an article ("the PDF", "HTTPS"): see :data:`TECHNICAL_TERMS`."""
    words = value.split()
    return bool(words) and words[-1] in TECHNICAL_TERMS and all(
        w in TECHNICAL_TERMS or w.lower() in _ARTICLES for w in words)


@lru_cache(maxsize=1 << 14)
def _relative_or_century(value: str) -> bool:
    """A period without a date in it ("the same day", "the 19th century"); cached like :func:`_all_generic`."""
    return bool(RELATIVE_TIME.fullmatch(value) or _CENTURY.fullmatch(value))


def is_never_a_name(value: str, category: Category, language: str) -> bool:
    """Is a candidate of this text and category a wrong reading in any language (see module docstring)?"""
    if category not in _NAMES_OR_OTHER:
        return False
    if value in TECHNICAL_TERMS:
        return category != Category.PERSON or sum(ch.isupper() for ch in value) >= 2
    if category not in _NAMED:
        return False
    return value in TAXES_AND_CURRENCIES or (language in ROMAN_MONTH_LANGUAGES and value in _ROMAN_MONTHS
                                             and category != Category.PERSON)


#: the answers of :func:`is_never_personal` for the last text asked about, per thread
_ANSWERS = threading.local()


def is_never_personal(text: str, span: CharSpan, language: str) -> bool:
    """Is this NER candidate public in any document (see module docstring)?

    Why the answers are kept for the last text: the pipeline asks about each span twice, when it grows the
    mentions and when it merges them, and most spans come out of growing as they went in.
    """
    kept = getattr(_ANSWERS, "kept", None)
    if kept is None or kept[0] is not text or kept[1] != language:
        kept = _ANSWERS.kept = (text, language, {})
    key = (span.start, span.end, span.type, span.category)
    answer = kept[2].get(key)
    if answer is None:
        answer = kept[2][key] = _never_personal(text, span, language)
    return answer


def _never_personal(text: str, span: CharSpan, language: str) -> bool:
    value = text[span.start:span.end]
    if is_never_a_name(value, span.category, language) and not (value in TAXES_AND_CURRENCIES
                                                                and is_defined_acronym(text, value)):
        return True
    if language != "en":
        return False
    if span.type in NEVER_PERSONAL_TYPES:
        return True
    if span.type in NAME_TYPES and _technical(value):
        return True
    if span.type == "LAW" or span.type in NAME_TYPES:
        if not _all_generic(value, span.type == "LAW"):
            return False
        # "the District Court in Wodzisław": the place follows, and the mention grows over it
        return span.type == "LAW" or not _PLACE_AFTER.match(text, span.end)
    if span.type in PERSON_TYPES:
        return _instrument_not_person(text, span)
    if span.type in NUMBER_TYPES:
        return _number_never_personal(text, span)
    if span.type in TIME_TYPES:
        if _relative_or_century(value):
            return True
        if value.isdigit() and instrument_before(text, span.start):
            return True
        return public_date(text, span)
    return False


def public_date(text: str, span: CharSpan) -> bool:
    """A date of public law: an instrument designated by its date, a Convention instrument coming into force.

    The test is on the whole date the span ends ("1 November 1998" of a span "November 1998": NER and the date
    pattern may find the month and year alone).  Why the string tests before the regexes (the same answers): the
    regexes end in four digits, "of" and "on" + blanks, and searched every position of 40 or 80 characters before
    each of the 10^4 dates of a large document, which mostly end otherwise.
    """
    start, end = span.start, span.end
    year = text[max(0, end - 5):end]
    if not before_dollar(year)[-4:].isdecimal():
        return False
    date = FULL_DATE_END.search(text, max(0, start - 8), end)
    if date is None or date.start() > start:
        return False
    start = date.start()
    before = text[max(0, start - 80):start]  # its last 40 characters are INSTRUMENT_OF_BEFORE's window
    stripped = before.rstrip() if before[-1:].isspace() else ""  # both regexes end in blanks
    return bool((stripped.endswith("of") and INSTRUMENT_OF_BEFORE.search(text, max(0, start - 40), start))
                or INTO_FORCE_AFTER.match(text, end)
                or (stripped.endswith("on") and INTO_FORCE_BEFORE.search(text, max(0, start - 80), start)))


def drop_never_personal(text: str, candidates: Iterable[CharSpan], language: str) -> list[CharSpan]:
    """``candidates`` without the never-personal ones."""
    return [c for c in candidates if not is_never_personal(text, c, language)]
