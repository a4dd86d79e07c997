"""The shape of a name variant, so a variant's surrogate is derived from its entity's name.

Why: "Serco Limited" and "Serco", "British National Party" and "BNP", "“TRNC”" and "TRNC's" are one
entity written differently.  :mod:`psan.tool.entities.grouping` links them; the replacer then renders each
variant from one surrogate: the legal form follows the name's surrogate in other words ("Serco Limited" →
"Hydromont Ltd" / "Hydromont"), an acronym is the acronym of the long form's surrogate ("Dean, Cohen and
Robinson" → "DCR"), quotes, brackets and a possessive stay around the surrogate as written.  No word of three
letters or more of the original is kept (an article, a legal form, "and" between dates): it would be printed
at the original's place, where a reader learns it.
Pure string functions; the replacer decides when to use them.
"""
from __future__ import annotations

import re

from psan.tool.words.name_joints import ARTICLES, FUNCTION_WORDS, LEGAL_FORM_RE

__all__ = ["wrapping", "unprinted_lead", "legal_form", "other_legal_form", "plain_joint_words", "plain_joints",
           "is_acronym", "initials", "acronym_of", "expands", "aliased", "name_parts",
           "date_parts"]

_OPENERS = {"“": "”", "„": "“", "«": "»", "‘": "’", '"': '"', "(": ")", "[": "]"}
_POSSESSIVE_RE = re.compile(r"(?:['’]s|(?<=s)['’])\Z")
_WORD_RE = re.compile(r"[^\W\d_][\w]*", re.UNICODE)
#: what joins dates in a range or a list ("1 May and 3 June 2001", "from 1999 until 2002", "1–3 May")
_DATE_JOIN_RE = re.compile(r"(\s*,\s*|\s+(?:and|or|until|till|to|through|a|až|do|i|oraz|och|und|bis)\s+|\s*[–—&]\s*)",
                           re.IGNORECASE)
_LEADING_WORD_RE = re.compile(r"\A[^\W\d_]+\s+", re.UNICODE)
_ALIASED_RE = re.compile(r"\A(\S.*?)(\s*\()(.*\w.*)(\))\Z", re.DOTALL)


def wrapping(text: str) -> tuple[str, str, str]:
    """(lead, core, tail): a name between quotes or brackets, after an article, before a possessive.

    ``lead + core + tail == text``; lead and tail are empty when nothing wraps the name.
    """
    lead, core, tail = "", text, ""
    m = _POSSESSIVE_RE.search(core)
    if m and m.start() > 0:
        core, tail = core[:m.start()], core[m.start():] + tail
    while len(core) > 2 and core[0] in _OPENERS and core.endswith(_OPENERS[core[0]]):
        lead, core, tail = lead + core[0], core[1:-1], core[-1] + tail
    first, _, rest = core.partition(" ")
    if rest.strip() and first.casefold() in ARTICLES:
        lead, core = lead + core[:len(first) + 1], rest
    if core != core.strip():
        stripped = core.strip()
        at = core.index(stripped) if stripped else 0
        lead, core, tail = lead + core[:at], stripped, core[at + len(stripped):] + tail
    return (lead, core, tail) if core else ("", text, "")


#: a word of this many letters or more that a surrogate must not repeat from its original (the release measure's)
_PRINTED_LETTERS = 3
_LONG_WORD_RE = re.compile(r"[^\W\d_]{" + str(_PRINTED_LETTERS) + ",}", re.UNICODE)
_LEAD_WORD_RE = re.compile(r"[^\W\d_]{" + str(_PRINTED_LETTERS) + r",}\s*", re.UNICODE)
#: a legal form said with other words (same meaning, no shared word): "Serco Limited" → "Hydromont Ltd"
_OTHER_LEGAL = {"limited": "Ltd", "ltd": "Limited", "plc": "Ltd", "llc": "Ltd", "inc": "Corp", "incorporated": "Corp",
                "corp": "Inc", "corporation": "Inc", "gmbh": "AG", "asa": "AB", "spol": ""}
#: the words that join two dates said with a sign or a shorter word: "1 May and 3 June" → "1 May & 3 June"
_OTHER_JOINT = {"and": "&", "und": "&", "och": "&", "oraz": "i", "until": "–", "till": "–", "through": "–",
                "bis": "–", "between": "from"}


def unprinted_lead(lead: str) -> str:
    """The lead of a wrapped name without its article ("the", "der"): a surrogate repeats no word of its original."""
    return _LEAD_WORD_RE.sub("", lead)


def other_legal_form(legal: str) -> str | None:
    """The same legal form in other words (" Limited" → " Ltd"); ``None`` when there is no such wording."""
    out = legal
    for word in set(_LONG_WORD_RE.findall(legal)):
        other = _OTHER_LEGAL.get(word.casefold().rstrip("."))
        if other is None:
            return None
        out = re.sub(r"\b" + re.escape(word) + r"\b\.?", other, out)
    out = re.sub(r"(?<=\S)\s{2,}", " ", re.sub(r"\A\s{2,}", " ", out))
    return out if out.strip(" ,") or not legal.strip(" ,") else ""


def plain_joint_words(text: str) -> str:
    """``text`` with each date joint of three letters or more said otherwise ("July and May 1995" → "July & May
    1995"); other words stay."""
    return _LONG_WORD_RE.sub(lambda m: _OTHER_JOINT.get(m.group().casefold(), m.group()), text)


def plain_joints(parts: list[tuple[str, bool]]) -> list[str | None]:
    """The words between the dates of :func:`date_parts` with no word of three letters or more (``None`` for a
    date): "between 1 May and 3 June" → ["from ", None, " to ", None]; "and" → "&", "until" → "–"."""
    out: list[str | None] = []
    between = False
    for piece, dated in parts:
        if dated:
            out.append(None)
            continue
        words = {w.casefold() for w in _LONG_WORD_RE.findall(piece)}
        if between and "and" in words:
            piece, between = re.sub(r"(?i)\band\b", "to", piece), False
        between = between or "between" in words
        plain = re.sub(r"\s{2,}", " ", _LONG_WORD_RE.sub(lambda m: _OTHER_JOINT.get(m.group().casefold(), ""), piece))
        out.append(plain.lstrip() if piece[:1].isalpha() else plain)  # "from 1 May" → "1 May", not " 1 May"
    return out


def legal_form(text: str) -> tuple[str, str]:
    """(name, legal form): "Serco Limited" → ("Serco", " Limited"); ("", "") without a legal form."""
    m = LEGAL_FORM_RE.search(text)
    if m is None or m.start() == 0 or not text[:m.start()].strip(" ,"):
        return "", ""
    return text[:m.start()], text[m.start():]


def is_acronym(text: str) -> bool:
    """One word of 2–8 capitals (a hyphen allowed): "BNP", "DHKP-C"."""
    w = text.replace("-", "")
    return " " not in text and 2 <= len(w) <= 8 and w.isalpha() and w.isupper()


def initials(name: str) -> tuple[str, str]:
    """(initials of the content words, initials of every word) of a name, upper case; hyphens split words."""
    words = _WORD_RE.findall(name.replace("-", " "))
    content = "".join(w[0] for w in words if w.casefold() not in FUNCTION_WORDS)
    return content.upper(), "".join(w[0] for w in words).upper()


def acronym_of(surrogate: str) -> str | None:
    """The acronym a reader would form from a surrogate name ("Dean, Cohen and Robinson" → "DCR")."""
    base, _ = legal_form(surrogate)
    content, _ = initials(base or surrogate)
    return content if len(content) >= 2 else None


def expands(acronym: str, name: str) -> bool:
    """Is ``acronym`` the initials of ``name`` (its content words or every word)?"""
    letters = acronym.replace("-", "").upper()
    return len(name.split()) > 1 and letters in initials(name)


def aliased(text: str) -> tuple[str, str, str, str] | None:
    """A name with its alias in brackets: "British National Party (BNP)" → (name, " (", alias, ")")."""
    m = _ALIASED_RE.match(text)
    if m is None or m.group(3).count("(") != m.group(3).count(")"):
        return None
    return m.group(1), m.group(2), m.group(3), m.group(4)


def name_parts(text: str) -> list[str]:
    """The names written in one mention: the name and its bracketed alias, unwrapped, without a legal form."""
    parts = []
    found = aliased(text)
    for part in (found[0], found[2]) if found else (text,):
        core = wrapping(part)[1]
        parts.append(legal_form(core)[0] or core)
    return parts


def date_parts(text: str) -> list[tuple[str, bool]] | None:
    """A date range or list cut into (piece, is a date) in order: "between 1 May and 3 June 2001" →
    [("between ", False), ("1 May", True), (" and ", False), ("3 June 2001", True)]; ``None`` for one date.

    Why: each date of a range is the date a reader meets alone elsewhere in the text, so it must get the
    same surrogate; the joiners around them are said otherwise (:func:`plain_joints`).
    """
    pieces = _DATE_JOIN_RE.split(text)
    dated = [p for p in pieces[::2] if any(c.isdigit() for c in p)]
    if len(dated) < 2 or any(not any(c.isdigit() for c in p) for p in pieces[::2]):
        return None
    out: list[tuple[str, bool]] = []
    for i, piece in enumerate(pieces):
        if i % 2:
            out.append((piece, False))
            continue
        words = ""
        while (m := _LEADING_WORD_RE.match(piece)) and m.group().islower():  # "between", "on", "from"
            words, piece = words + m.group(), piece[m.end():]
        if words:
            out.append((words, False))
        out.append((piece, True))
    return out
