"""Is an acronym defined in the text as the short form of a name written out before it?

Why: the lists of abbreviations that never name anyone (taxes and currencies, common abbreviations of things)
are shared by every language, and an acronym means different things in different texts: Czech "BNP" is the gross
national product, English "the BNP" the British National Party.  A text that writes "British National Party
(BNP)" says which one it means there: the acronym names what the capitalised words before the bracket name, and
no list may drop it in that text.  The long form must spell the acronym by its initials (of its content words or
of every word), start with a capital (a name, not "value added tax (VAT)"), and not itself name a tax or a
currency ("Value Added Tax (VAT)").

The same definition tells what a recognized acronym hides: :func:`mark_long_forms` masks the long form with the
acronym's category ("Erich-Weinert-Ensemble (EWE)" where "EWE" was found), since a masked "EWE" beside its
expansion in clear hides nothing.  Chosen on fold 0 of the shared ``tab-dev``: one new span, inside a gold span,
no other; fold 1: one, inside a gold span.  A long form in lower case whose initials do not spell the acronym
("regional health insurance fund (“the CRAM”)") is not found: fold 0 has no example to choose a rule on.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import lru_cache
from itertools import accumulate, islice
from operator import le

from psan.tool.text.document import Category, Document, Entity, token_bounds
from psan.tool.words.name_joints import FUNCTION_WORDS

__all__ = ["ACRONYM_CORE", "TAX_OR_CURRENCY_HEADS", "all_definitions", "definitions_by_alternation",
           "is_defined_acronym", "long_form_start", "mark_long_forms"]

#: the last word of a long form that names a tax, a duty, a national product or a currency, in the languages of
#: the shared lists: such a definition confirms the list ("Value Added Tax (VAT)", "hrubý domácí produkt (HDP)")
TAX_OR_CURRENCY_HEADS = frozenset("""
tax taxes duty duties levy product income dollar dollars euro euros pound pounds franc francs crown crowns
koruna korun zloty złoty złotych krona kronor krone kroner yen yuan renminbi rouble roubles ruble rubles forint
daň daně dane daň produkt produktu dph podatek
""".split())
_WORD = re.compile(r"[^\W\d_][\w'’]*(?:-[^\W\d_][\w'’]*)*")
_WINDOW = 160
#: the categories of an acronym whose long form is masked with it (names, and OTHER: an allowance, a programme)
_LONG_FORM_CATEGORIES = frozenset({Category.PERSON, Category.ORGANIZATION, Category.LOCATION, Category.OTHER})


def _definitions(text: str, acronym: str) -> list[int]:
    """Where a bracket holding only the acronym opens ("(BNP)", "(“the BNP”)", "(BNP: …")."""
    pattern = re.compile(r"\(\s*(?:the\s+)?[“\"‘']?(?:the\s+)?" + re.escape(acronym) + r"[”\"’']?\s*[):;,]")
    return [m.start() for m in pattern.finditer(text)]


#: the brackets of :func:`_definitions` with any acronym of capitals and dashes in them: its group is the whole run
#: of capitals and dashes after the bracket's opening (a closing quote, a blank or ``):;,`` must follow it)
_ANY_DEFINITION = re.compile(r"\(\s*(?:the\s+)?[“\"‘']?(?:the\s+)?([A-Z][A-Z\-]*)[”\"’']?\s*[):;,]")
_CAPITALS_AND_DASHES = re.compile(r"[A-Z][A-Z\-]*")


def all_definitions(text: str, acronyms: list[str]) -> dict[str, list[int]]:
    """:func:`_definitions` of every acronym, in one pass over the text (a pass per acronym cost a third of
    marking long forms on a 10^6-token document).  The same positions: a bracket holds at most one acronym (each
    must be followed by a quote, a space or ``):;,``, none is a letter or a dash) and no match holds a second
    ``(``, so no match of one acronym hides one of another.

    Acronyms of capitals and dashes (all that :func:`mark_long_forms` finds) are read off one fixed regex,
    :data:`_ANY_DEFINITION`: an acronym in a bracket must be the whole run of capitals and dashes there, since what
    follows it is none, so the bracket defines the acronym exactly when that run is one of them.  Why: the
    alternation of a text's own acronyms was compiled for every text (Python's regex compiler is pure Python, a
    millisecond for a text's dozen acronyms), and no two texts have the same.
    """
    found: dict[str, list[int]] = {a: [] for a in acronyms}
    if not acronyms:
        return found
    if not all(map(_CAPITALS_AND_DASHES.fullmatch, acronyms)):
        return definitions_by_alternation(text, acronyms)
    for m in _ANY_DEFINITION.finditer(text):
        at = found.get(m.group(1))
        if at is not None:
            at.append(m.start())
    return found


def definitions_by_alternation(text: str, acronyms: list[str]) -> dict[str, list[int]]:
    """:func:`all_definitions` by one regex of the acronyms (longest first), compiled for them: the plain form, for
    acronyms of other characters."""
    found: dict[str, list[int]] = {a: [] for a in acronyms}
    if not acronyms:
        return found
    names = "|".join(re.escape(a) for a in sorted(acronyms, key=lambda a: (-len(a), a)))
    pattern = re.compile(r"\(\s*(?:the\s+)?[“\"‘']?(?:the\s+)?(" + names + r")[”\"’']?\s*[):;,]")
    for m in pattern.finditer(text):
        found[m.group(1)].append(m.start())
    return found


def _long_form(words: list[re.Match[str]], letters: str) -> int | None:
    """Where the long form starts when the last words before the bracket spell ``letters`` by their initials (of
    the content words or of every word), starting with a capital; ``None`` when they do not."""
    if not words or words[-1].group().casefold() in TAX_OR_CURRENCY_HEADS:
        return None
    for skip_function_words in (True, False):
        picked: list[re.Match[str]] = []
        for w in reversed(words):
            if skip_function_words and w.group().casefold() in FUNCTION_WORDS:
                continue
            picked.append(w)
            if sum(len(p.group().split("-")) for p in picked) >= len(letters):
                break
        picked.reverse()
        initials = "".join(part[0] for w in picked for part in w.group().split("-")).upper()
        if initials == letters and picked[0].group()[:1].isupper():
            return picked[0].start()
    return None


def long_form_start(text: str, bracket: int, acronym: str) -> int | None:
    """Where the name that ``acronym``, in brackets opening at ``bracket``, abbreviates starts ("British National
    Party (BNP)" → the offset of "British"); ``None`` when the words before the bracket do not spell it."""
    letters = acronym.replace("-", "").upper()
    if len(letters) < 2 or not letters.isalpha():
        return None
    start = max(0, bracket - _WINDOW)
    line = text.rfind("\n", start, bracket) + 1 or start
    words = list(_WORD.finditer(text, max(start, line), bracket))
    at = _long_form(words, letters)
    return at


@lru_cache(maxsize=16)
def is_defined_acronym(text: str, acronym: str) -> bool:
    """Does ``text`` define ``acronym`` by writing it in brackets right after a name it abbreviates?"""
    return any(long_form_start(text, at, acronym) is not None for at in _definitions(text, acronym))


ACRONYM_CORE = re.compile(r"\(?\s*(?:the\s+)?[“\"‘']?(?:the\s+)?([A-Z][A-Z\-]{1,9})[”\"’']?\s*\)?")


def mark_long_forms(doc: Document) -> None:
    """Add the long form of every recognized acronym the text defines ("Erich-Weinert-Ensemble (EWE)" when an
    "EWE" was found anywhere in the text): the name written out tells what the acronym hides, so it is masked as
    the acronym is, with its category.  Only a long form no span touches is added; changes ``doc.entities``."""
    if not doc.entities:
        return
    text = doc.text
    token_starts, token_ends = token_bounds(doc.tokens)
    acronyms: dict[str, Entity] = {}
    for e in doc.entities:
        if e.category in _LONG_FORM_CATEGORIES and e.end_token - e.first_token <= 6:
            m = ACRONYM_CORE.fullmatch(text, token_starts[e.first_token], token_ends[e.end_token - 1])
            if m is not None and (m.group(1) not in acronyms or e.score > acronyms[m.group(1)].score):
                acronyms[m.group(1)] = e
    if not acronyms:
        return
    # the entities' character ranges sorted by start, with the largest end so far: one of them overlaps
    # [start, end) exactly when the largest end among those starting before ``end`` passes ``start`` (a
    # bisection, where testing every entity per definition was quadratic on a large document)
    # (the order of ranges with one start does not matter: ``reach`` is read after all of them; the entities are
    # usually in token order already, and then their starts need no sort)
    range_starts = [token_starts[e.first_token] for e in doc.entities]
    range_ends = [token_ends[e.end_token - 1] for e in doc.entities]
    if not all(map(le, range_starts, islice(range_starts, 1, None))):
        ranges = sorted(zip(range_starts, range_ends, strict=True))
        range_starts = [s for s, _ in ranges]
        range_ends = [t for _, t in ranges]
    reach = list(accumulate(range_ends, max))
    added_ranges: list[tuple[int, int]] = []
    added: list[Entity] = []
    definitions = all_definitions(text, list(acronyms))
    for acronym, e in sorted(acronyms.items()):
        for bracket in definitions[acronym]:
            start = long_form_start(text, bracket, acronym)
            end = bracket  # ``len(text[:bracket].rstrip())`` without copying the text before the bracket
            while end and text[end - 1].isspace():
                end -= 1
            token = bisect_right(token_starts, start) - 1 if start is not None else -1  # the token starting there
            if token < 0 or token_starts[token] != start:
                continue
            before = bisect_left(range_starts, end)
            if before and reach[before - 1] > start or any(s < end and start < t for s, t in added_ranges):
                continue
            first = last = token
            while last + 1 < len(token_ends) and token_ends[last + 1] <= end:
                last += 1
            if token_ends[last] == end:
                added.append(Entity(first, last + 1, e.type, e.category, e.source, e.score))
                added_ranges.append((start, end))
    if added:
        doc.entities = sorted(doc.entities + added, key=lambda x: (x.first_token, -x.end_token))
