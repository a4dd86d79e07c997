"""Date and age surrogates (SweLL rules, format kept).

Why: a birth or event date identifies; its rough period is useful for
research.  Day → 1–28, month → random (digits keep their zero padding, month
words keep their language, case form and capitalisation), year → ±``delta``
(never the same year), ages → ±``delta`` (never the same, at least 1).
Delimiters and all other characters stay as they are.
"""
from __future__ import annotations

import datetime
import random
import re

from psan.tool.detection.recognizers.dates import MONTHS
from psan.tool.surrogates.shape import apply_case

#: case paradigms of month names (nominative, genitive, locative, instrumental …), same index = same form
PARADIGMS: dict[str, list[tuple[str, ...]]] = {
    "cs": [("leden", "ledna", "lednu", "lednem"), ("únor", "února", "únoru", "únorem"),
           ("březen", "března", "březnu", "březnem"), ("duben", "dubna", "dubnu", "dubnem"),
           ("květen", "května", "květnu", "květnem"), ("červen", "června", "červnu", "červnem"),
           ("červenec", "července", "červenci", "červencem"), ("srpen", "srpna", "srpnu", "srpnem"),
           ("září", "září", "září", "zářím"), ("říjen", "října", "říjnu", "říjnem"),
           ("listopad", "listopadu", "listopadu", "listopadem"), ("prosinec", "prosince", "prosinci", "prosincem")],
    "pl": [("styczeń", "stycznia", "styczniu"), ("luty", "lutego", "lutym"), ("marzec", "marca", "marcu"),
           ("kwiecień", "kwietnia", "kwietniu"), ("maj", "maja", "maju"), ("czerwiec", "czerwca", "czerwcu"),
           ("lipiec", "lipca", "lipcu"), ("sierpień", "sierpnia", "sierpniu"), ("wrzesień", "września", "wrześniu"),
           ("październik", "października", "październiku"), ("listopad", "listopada", "listopadzie"),
           ("grudzień", "grudnia", "grudniu")],
    "sk": [("január", "januára", "januári"), ("február", "februára", "februári"), ("marec", "marca", "marci"),
           ("apríl", "apríla", "apríli"), ("máj", "mája", "máji"), ("jún", "júna", "júni"), ("júl", "júla", "júli"),
           ("august", "augusta", "auguste"), ("september", "septembra", "septembri"),
           ("október", "októbra", "októbri"), ("november", "novembra", "novembri"),
           ("december", "decembra", "decembri")],
    "sl": [("januar", "januarja", "januarju"), ("februar", "februarja", "februarju"), ("marec", "marca", "marcu"),
           ("april", "aprila", "aprilu"), ("maj", "maja", "maju"), ("junij", "junija", "juniju"),
           ("julij", "julija", "juliju"), ("avgust", "avgusta", "avgustu"),
           ("september", "septembra", "septembru"), ("oktober", "oktobra", "oktobru"),
           ("november", "novembra", "novembru"), ("december", "decembra", "decembru")],
    "en": [(m,) for m in MONTHS["en"][:12]] + [(m,) for m in ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul",
                                                             "Aug", "Sep", "Oct", "Nov", "Dec")],
    "sv": [(m,) for m in MONTHS["sv"][:12]] + [(m,) for m in ("jan", "feb", "mar", "apr", "maj", "jun", "jul",
                                                             "aug", "sep", "okt", "nov", "dec")],
}

_TOKEN_RE = re.compile(r"\d+|[^\W\d_]+", re.UNICODE)


def _month_lookup() -> dict[str, tuple[str, int, int]]:
    """lower-case month form → (language, paradigm row, form index)."""
    table: dict[str, tuple[str, int, int]] = {}
    for lang, rows in PARADIGMS.items():
        for r, row in enumerate(rows):
            for i, form in enumerate(row):
                table.setdefault(f"{lang}:{form.lower()}", (lang, r, i))
    return table


_MONTH = _month_lookup()


def _month_word(word: str, language: str, rng: random.Random) -> str | None:
    for lang in (language, "en"):
        hit = _MONTH.get(f"{lang}:{word.lower()}")
        if hit is None:
            continue
        lang, row, idx = hit
        rows = PARADIGMS[lang]
        same_kind = [r for r in range(len(rows)) if r != row and len(rows[r]) == len(rows[row])
                     and (len(rows[r]) > 1 or (r < 12) == (row < 12))]
        new = rows[rng.choice(same_kind)][idx]
        return apply_case(word, new)
    return None


def _is_month(word: str, language: str) -> bool:
    return f"{language}:{word.lower()}" in _MONTH or f"en:{word.lower()}" in _MONTH


def _year(value: int, width: int, rng: random.Random, delta: int) -> str:
    shift = rng.choice([d for d in range(-delta, delta + 1) if d != 0]) if delta > 0 else 0
    new = value + shift
    if width == 2:
        return f"{new % 100:02d}"
    return str(max(new, 0)).zfill(width)


_TIME_RE = re.compile(r"(?<!\d)([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?(?!\d)")


def _pad(value: int, original: str) -> str:
    return f"{value:02d}" if len(original) == 2 else str(value)


def _roles(text: str, language: str) -> tuple[list[re.Match[str]], dict[int, str]]:
    """The tokens of a date and the role of each number: Y (year), M (month), D (day); others are N."""
    tokens = list(_TOKEN_RE.finditer(text))
    numbers = [m for m in tokens if m.group().isdigit()]
    has_month_word = any(_is_month(m.group(), language) for m in tokens if not m.group().isdigit())
    # role of each number: Y (year), M (month), D (day), N (other)
    roles: dict[int, str] = {}
    small = [m for m in numbers if len(m.group()) <= 2]
    for m in numbers:
        if len(m.group()) == 4:
            roles[m.start()] = "Y"
    if not has_month_word and len(numbers) == 3:
        first, second, third = numbers
        if len(first.group()) == 4:
            roles.update({second.start(): "M", third.start(): "D"})
        else:
            roles.update({first.start(): "D", second.start(): "M"})
            if len(third.group()) <= 2:
                roles[third.start()] = "Y"
    elif not has_month_word and len(numbers) == 2 and len(numbers[1].group()) == 4:
        roles[numbers[0].start()] = "M"
    elif has_month_word:
        for m in small:
            if int(m.group()) <= 31:
                roles.setdefault(m.start(), "D")
    for t in _TIME_RE.finditer(text):  # a time stays a valid time: "10:05" → "18:42", never "46:07"
        roles[t.start(1)] = "h"
        roles[t.start(2)] = "i"
        if t.group(3):
            roles[t.start(3)] = "i"
    return tokens, roles


def date(text: str, language: str, rng: random.Random, delta: int = 3) -> str:
    """Date surrogate keeping the format; see the module docstring."""
    tokens, roles = _roles(text, language)
    slash = "/" in text
    out: list[str] = []
    pos = 0
    for m in tokens:
        out.append(text[pos:m.start()])
        tok = m.group()
        role = roles.get(m.start(), "N") if tok.isdigit() else "W"
        if role == "Y":
            out.append(_year(int(tok), len(tok), rng, delta))
        elif role == "M":
            out.append(_pad(rng.randint(1, 12), tok))
        elif role == "D":
            out.append(_pad(rng.randint(1, 12 if slash else 28), tok))
        elif role == "h":
            out.append(_pad(rng.randint(0, 23), tok))
        elif role == "i":
            out.append(f"{rng.randint(0, 59):02d}")
        elif role == "N":
            out.append("".join(str(rng.randint(0, 9)) for _ in tok))
        else:
            out.append(_month_word(tok, language, rng) or tok)
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def _month_of(word: str, language: str) -> tuple[str, int, int] | None:
    """(language, paradigm row, form index) of a month word in the document language or English."""
    for lang in (language, "en"):
        hit = _MONTH.get(f"{lang}:{word.lower()}")
        if hit is not None:
            return hit
    return None


def parse(text: str, language: str, this_year: int | None = None) -> tuple[int, int, int] | None:
    """``(year, month, day)`` of a complete date ("12. března 1985", "1985-03-12"), else ``None``.

    A two-digit year is read as the latest year ending so that is not after ``this_year`` (today's).
    """
    this_year = this_year or datetime.date.today().year
    tokens, roles = _roles(text, language)
    year = month = day = None
    for m in tokens:
        tok = m.group()
        role = roles.get(m.start(), "N") if tok.isdigit() else "W"
        if role == "W":
            hit = _month_of(tok, language)
            if hit is not None:
                if month is not None:
                    return None
                lang, row, _ = hit
                month = row % 12 + 1 if len(PARADIGMS[lang]) > 12 else row + 1
            continue
        value = int(tok)
        if role == "Y" and year is None:
            year = value if len(tok) == 4 else (this_year // 100 * 100 + value if this_year % 100 >= value
                                                else this_year // 100 * 100 - 100 + value)
        elif role == "M" and month is None:
            month = value
        elif role == "D" and day is None:
            day = value
        elif role != "N":
            return None
    if year is None or month is None or day is None or not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return (year, month, day)


def render(text: str, language: str, target: tuple[int, int, int], rng: random.Random) -> str:
    """``text`` rewritten to say ``target`` in the same format (year width, padding, month word and case)."""
    tokens, roles = _roles(text, language)
    year, month, day = target
    out: list[str] = []
    pos = 0
    for m in tokens:
        out.append(text[pos:m.start()])
        tok = m.group()
        role = roles.get(m.start(), "N") if tok.isdigit() else "W"
        if role == "Y":
            out.append(f"{year % 100:02d}" if len(tok) == 2 else str(year).zfill(len(tok)))
        elif role == "M":
            out.append(_pad(month, tok))
        elif role == "D":
            out.append(_pad(day, tok))
        elif role == "h":
            out.append(_pad(rng.randint(0, 23), tok))
        elif role == "i":
            out.append(f"{rng.randint(0, 59):02d}")
        elif role == "N":
            out.append("".join(str(rng.randint(0, 9)) for _ in tok))
        else:
            hit = _month_of(tok, language)
            if hit is None:
                out.append(tok)
            else:
                lang, row, idx = hit
                new_row = (12 if row >= 12 else 0) + month - 1
                out.append(apply_case(tok, PARADIGMS[lang][new_row][idx]))
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def age(text: str, rng: random.Random, delta: int = 3) -> str:
    """Every number in ``text`` ±``delta`` (not 0, result ≥ 1); words kept ("18 let" → "16 let")."""
    def shift(m: re.Match[str]) -> str:
        value = int(m.group())
        choices = [value + d for d in range(-delta, delta + 1) if d != 0 and value + d >= 1]
        return str(rng.choice(choices)) if choices else m.group()
    return re.sub(r"\d+", shift, text)
