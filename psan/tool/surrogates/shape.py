"""Form-keeping transformations: case pattern, letter/digit shapes, e-mail, URL, user names, codes.

Why: the Polish corpus rules ask that a surrogate keeps the capitalisation
scheme ("mBanku ← sTanku"), the number of digits ("92650 ← 81769") and the
punctuation of e-mails and URLs; SweLL asks for "0" per digit and "ABC" per
letter with the delimiters kept.  These helpers are pure functions of the
input and a ``random.Random`` so they stay deterministic per entity.
"""
from __future__ import annotations

import random
import re
from itertools import groupby

_LOWER = "abcdefghijklmnopqrstuvwxyz"
_WORD_RE = re.compile(r"\w+", re.UNICODE)


def case_pattern_word(source: str, target: str) -> str:
    """Give ``target`` the capitalisation of ``source`` (one word).

    ALL CAPS → upper, all lower → lower, Title → Title, anything else (inner
    capitals such as ``mBanku``) → char by char.
    """
    letters = [c for c in source if c.isalpha()]
    if not letters or not any(c.isalpha() for c in target):
        return target
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return target.upper()
    if all(c.islower() for c in letters):
        return target.lower()
    if letters[0].isupper() and all(c.islower() for c in letters[1:]):
        return _title(target)
    out = []
    for i, ch in enumerate(target):
        upper = i < len(source) and source[i].isupper()
        out.append(ch.upper() if upper else ch.lower())
    return "".join(out)


def _title(word: str) -> str:
    """Capitalize each hyphen part: ``nowak-kowalska`` → ``Nowak-Kowalska``; keeps ``McDonald``-like tails."""
    parts = word.split("-")
    return "-".join(p[:1].upper() + (p[1:] if any(c.isupper() for c in p[1:]) else p[1:].lower()) for p in parts)


def apply_case(source: str, target: str) -> str:
    """Case pattern of ``source`` onto ``target`` word by word (same word count), else by the whole string."""
    src_words = _WORD_RE.findall(source)
    tgt = list(_WORD_RE.finditer(target))
    if len(src_words) == len(tgt):
        out, pos = [], 0
        for sw, m in zip(src_words, tgt, strict=True):
            out.append(target[pos:m.start()])
            out.append(case_pattern_word(sw, m.group()))
            pos = m.end()
        out.append(target[pos:])
        return "".join(out)
    letters = [c for c in source if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return target.upper()
    if letters and all(c.islower() for c in letters):
        return target.lower()
    return target


def random_letter(rng: random.Random, upper: bool) -> str:
    ch = rng.choice(_LOWER)
    return ch.upper() if upper else ch


def scramble(text: str, rng: random.Random) -> str:
    """Letter → random letter of the same case, digit → random digit; everything else kept.

    A digit run keeps a non-zero first digit when the original had one (so
    "92650" never becomes "02650").
    """
    out = []
    prev_digit = False
    for ch in text:
        if ch.isdigit():
            if not prev_digit and ch != "0":
                out.append(str(rng.randint(1, 9)))
            else:
                out.append(str(rng.randint(0, 9)))
            prev_digit = True
            continue
        prev_digit = False
        if ch.isalpha():
            out.append(random_letter(rng, ch.isupper()))
        else:
            out.append(ch)
    return "".join(out)


def digits_random(text: str, rng: random.Random) -> str:
    """Only digits change (random, same count); letters and delimiters kept (phone, account numbers).

    No run of digits comes out as it was: a house number "22" drawn as "22" again, or a phone's "0199", would
    print a piece of the original (a run is drawn again until it differs; every run has another value)."""
    out = []
    for digits, chars in groupby(text, str.isdigit):
        piece = "".join(chars)
        if not digits:
            out.append(piece)
            continue
        drawn = piece
        while drawn == piece:
            drawn = "".join(str(rng.randint(1, 9) if i == 0 and ch != "0" else rng.randint(0, 9))
                            for i, ch in enumerate(piece))
        out.append(drawn)
    return "".join(out)


def zero_mask(text: str) -> str:
    """SweLL: every digit → 0, letters → A, B, C … (per letter run), delimiters kept: ``SE-123 45`` → ``AB-000 00``."""
    out = []
    k = 0
    for ch in text:
        if ch.isdigit():
            out.append("0")
            k = 0
        elif ch.isalpha():
            letter = chr(ord("A") + k % 26)
            out.append(letter if ch.isupper() else letter.lower())
            k += 1
        else:
            out.append(ch)
            k = 0
    return "".join(out)


#: top-level domains of one length in a ring: a TLD of three letters or more becomes the next one, so an address's
#: surrogate keeps its shape but prints no word of the original (one domain, one surrogate: no randomness)
_TLD_RINGS = (("com", "net", "org", "edu", "gov", "biz"), ("info", "name", "mobi"))
#: a URL scheme said otherwise (same shape of a link, another word)
_SCHEMES = {"https": "http", "http": "https", "ftp": "sftp", "sftp": "ftp"}


def other_tld(tld: str) -> str:
    """A different top-level domain of the same length (case kept); two-letter country codes stay."""
    if sum(c.isalpha() for c in tld) < 3:
        return tld
    for ring in _TLD_RINGS:
        if tld.casefold() in ring:
            return apply_case(tld, ring[(ring.index(tld.casefold()) + 1) % len(ring)])
    return apply_case(tld, "org" if tld.casefold() != "org" else "net")


def other_scheme(scheme: str) -> str:
    """``https://`` → ``http://`` and back; a scheme nobody maps keeps only its separator's shape."""
    name = scheme[:-3]
    return apply_case(name, _SCHEMES.get(name.casefold(), "http" if name.casefold() != "http" else "https")) + "://"


def email(text: str, rng: random.Random) -> str:
    """Local part and every domain label but the TLD scrambled to the same length; punctuation kept."""
    local, at, domain = text.rpartition("@")
    if not at:
        return scramble(text, rng)
    labels = domain.split(".")
    if len(labels) > 1:
        domain = ".".join([scramble(lab, rng) for lab in labels[:-1]] + [other_tld(labels[-1])])
    else:
        domain = scramble(domain, rng)
    return scramble(local, rng) + "@" + domain


def username(text: str, rng: random.Random) -> str:
    """``@user`` like an e-mail local part; the ``@`` stays."""
    return scramble(text, rng)


_URL_RE = re.compile(r"^(?P<scheme>[a-zA-Z][a-zA-Z0-9+.-]*://)?(?P<www>www\d?\.)?(?P<host>[^/?#:]*)(?P<rest>.*)$",
                     re.DOTALL)


def url(text: str, rng: random.Random) -> str:
    """Host labels letter→letter, digit→digit (case kept), path scrambled too; the scheme, ``www.`` and TLD keep
    their shape in other words (``https://www.x.org`` → ``http://web.y.com``), so no word of the original stays."""
    m = _URL_RE.match(text)
    if m is None:  # pragma: no cover - the regex matches any string
        return scramble(text, rng)
    labels = m.group("host").split(".")
    if len(labels) > 1:
        host = ".".join([scramble(lab, rng) for lab in labels[:-1]] + [other_tld(labels[-1])])
    else:
        host = scramble(labels[0], rng)
    www = apply_case(m.group("www"), "web.") if m.group("www") else ""
    scheme = other_scheme(m.group("scheme")) if m.group("scheme") else ""
    return scheme + www + host + scramble(m.group("rest"), rng)
