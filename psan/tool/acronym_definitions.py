"""Is an acronym defined in the text as the short form of a name written out before it?

Why: the lists of abbreviations that never name anyone (taxes and currencies, common abbreviations of things)
are shared by every language, and an acronym means different things in different texts: Czech "BNP" is the gross
national product, English "the BNP" the British National Party.  A text that writes "British National Party
(BNP)" says which one it means there: the acronym names what the capitalised words before the bracket name, and
no list may drop it in that text.  The long form must spell the acronym by its initials (of its content words or
of every word), start with a capital (a name, not "value added tax (VAT)"), and not itself name a tax or a
currency ("Value Added Tax (VAT)").
"""
from __future__ import annotations

import re
from functools import lru_cache

from psan.tool.entities import FUNCTION_WORDS

__all__ = ["is_defined_acronym", "TAX_OR_CURRENCY_HEADS"]

#: the last word of a long form that names a tax, a duty, a national product or a currency, in the languages of
#: the shared lists: such a definition confirms the list ("Value Added Tax (VAT)", "hrubý domácí produkt (HDP)")
TAX_OR_CURRENCY_HEADS = frozenset("""
tax taxes duty duties levy product income dollar dollars euro euros pound pounds franc francs crown crowns
koruna korun zloty złoty złotych krona kronor krone kroner yen yuan renminbi rouble roubles ruble rubles forint
daň daně dane daň produkt produktu dph podatek
""".split())
_WORD = re.compile(r"[^\W\d_][\w'’]*(?:-[^\W\d_][\w'’]*)*")
_WINDOW = 160


def _definitions(text: str, acronym: str) -> list[int]:
    """Where a bracket holding only the acronym opens ("(BNP)", "(“the BNP”)", "(BNP: …")."""
    pattern = re.compile(r"\(\s*(?:the\s+)?[“\"‘']?(?:the\s+)?" + re.escape(acronym) + r"[”\"’']?\s*[):;,]")
    return [m.start() for m in pattern.finditer(text)]


def _spells(words: list[str], letters: str) -> bool:
    """Do the last words before the bracket spell ``letters`` by their initials, starting with a capital?"""
    for skip_function_words in (True, False):
        picked: list[str] = []
        for w in reversed(words):
            if skip_function_words and w.casefold() in FUNCTION_WORDS:
                continue
            picked.append(w)
            if sum(len(p.split("-")) for p in picked) >= len(letters):
                break
        picked.reverse()
        initials = "".join(part[0] for w in picked for part in w.split("-")).upper()
        if initials == letters and picked[0][:1].isupper() \
                and words[-1].casefold() not in TAX_OR_CURRENCY_HEADS:
            return True
    return False


@lru_cache(maxsize=16)
def is_defined_acronym(text: str, acronym: str) -> bool:
    """Does ``text`` define ``acronym`` by writing it in brackets right after a name it abbreviates?"""
    letters = acronym.replace("-", "").upper()
    if len(letters) < 2 or not letters.isalpha():
        return False
    for at in _definitions(text, acronym):
        before = text[max(0, at - _WINDOW):at].rsplit("\n", 1)[-1]
        words = _WORD.findall(before)
        if words and _spells(words, letters):
            return True
    return False
