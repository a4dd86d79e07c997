"""Is a generated surrogate form a real word of its language?  Hunspell's dictionaries answer.

Why: declension rules applied to a surrogate lemma they do not fit write forms no Czech, Slovak or
Polish reader has seen ("v Kdyněe", "do Kdyněa"); a surrogate must read like a real name.  Debian's
``hunspell-cs``/``hunspell-sk``/``hunspell-pl`` dictionaries list the inflected forms of common first
names, surnames and places, so a surrogate is kept only where every form it is printed in is listed.
The dictionaries are read through the system's ``libhunspell`` (ctypes, no Python binding needed);
``$PSAN_HUNSPELL_DIR`` names another folder of ``<lang>_<COUNTRY>.aff/.dic``.  Without the library
or the dictionary :func:`available` is false and the callers keep the paradigm check alone.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import re
import threading
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: the dictionary of each language (Slovenian has none here: its forms are not checked)
DICTIONARY = {"cs": "cs_CZ", "sk": "sk_SK", "pl": "pl_PL"}
_DIRS = ("/usr/share/hunspell", "/usr/share/myspell/dicts", "/usr/share/myspell")
_LOCK = threading.Lock()  # one Hunspell handle is not safe to share between threads


@cache
def _library() -> Any | None:
    name = ctypes.util.find_library("hunspell-1.7") or ctypes.util.find_library("hunspell")
    for candidate in (name, "libhunspell-1.7.so.0", "libhunspell.so"):
        if not candidate:
            continue
        try:
            lib = ctypes.CDLL(candidate)
        except OSError:
            continue
        lib.Hunspell_create.restype = ctypes.c_void_p
        lib.Hunspell_create.argtypes = (ctypes.c_char_p, ctypes.c_char_p)
        lib.Hunspell_spell.restype = ctypes.c_int
        lib.Hunspell_spell.argtypes = (ctypes.c_void_p, ctypes.c_char_p)
        lib.Hunspell_get_dic_encoding.restype = ctypes.c_char_p
        lib.Hunspell_get_dic_encoding.argtypes = (ctypes.c_void_p,)
        lib.Hunspell_stem.restype = ctypes.c_int
        lib.Hunspell_stem.argtypes = (ctypes.c_void_p, ctypes.POINTER(ctypes.POINTER(ctypes.c_char_p)),
                                      ctypes.c_char_p)
        lib.Hunspell_free_list.restype = None
        lib.Hunspell_free_list.argtypes = (ctypes.c_void_p, ctypes.POINTER(ctypes.POINTER(ctypes.c_char_p)),
                                           ctypes.c_int)
        return lib
    return None


def dictionary_files(language: str) -> tuple[Path, Path] | None:
    """The .aff and .dic of ``language`` (``None`` when not installed)."""
    name = DICTIONARY.get(language)
    if name is None:
        return None
    extra = os.environ.get("PSAN_HUNSPELL_DIR")
    for folder in ((extra,) if extra else ()) + _DIRS:
        aff, dic = Path(folder) / f"{name}.aff", Path(folder) / f"{name}.dic"
        if aff.is_file() and dic.is_file():
            return aff, dic
    return None


@cache
def _handle(language: str) -> tuple[Any, str] | None:
    lib, files = _library(), dictionary_files(language)
    if lib is None or files is None:
        log.warning("no hunspell dictionary for %s (apt-get install libhunspell-1.7-0 hunspell-%s): surrogate "
                    "forms are checked by their paradigm only", language, language)
        return None
    handle = lib.Hunspell_create(str(files[0]).encode(), str(files[1]).encode())
    encoding = (lib.Hunspell_get_dic_encoding(handle) or b"UTF-8").decode("ascii", "replace")
    return handle, {"ISO8859-2": "iso8859_2"}.get(encoding, encoding)


def available(language: str) -> bool:
    """Whether forms of ``language`` can be checked against a word list."""
    return language in DICTIONARY and _handle(language) is not None


@lru_cache(maxsize=200_000)
def is_word(form: str, language: str) -> bool:
    """Whether ``form`` (one word, as printed: "Brně", "Nováková") is a listed word of ``language``.

    ``True`` for languages without a dictionary (nothing to check against)."""
    if language not in DICTIONARY:
        return True
    got = _handle(language)
    if got is None:
        return True
    handle, encoding = got
    try:
        raw = form.encode(encoding)
    except UnicodeEncodeError:
        return False
    with _LOCK:
        return bool(_library().Hunspell_spell(handle, raw))


def all_words(forms: str, language: str) -> bool:
    """Whether every word of a (possibly multi-word, hyphenated) surrogate is a listed word."""
    words = [w for part in forms.split() for w in part.split("-") if any(ch.isalpha() for ch in w)]
    return all(is_word(w.strip(".,;:!?\"'()„“”«»"), language) for w in words)


@lru_cache(maxsize=50_000)
def stems(form: str, language: str) -> tuple[str, ...]:
    """The dictionary words (lemmas) ``form`` is an inflected form of ("policistu" → policista); () without a
    dictionary or for an unlisted form."""
    got = _handle(language) if language in DICTIONARY else None
    if got is None:
        return ()
    handle, encoding = got
    try:
        raw = form.encode(encoding)
    except UnicodeEncodeError:
        return ()
    lib = _library()
    found = ctypes.POINTER(ctypes.c_char_p)()
    with _LOCK:
        n = lib.Hunspell_stem(handle, ctypes.byref(found), raw)
        out = tuple(found[i].decode(encoding, "replace") for i in range(n))
        if n:
            lib.Hunspell_free_list(handle, ctypes.byref(found), n)
    return out


#: the affix flags of the Czech dictionary's masculine animate paradigms (P: "bratr", "předseda", "policista";
#: U: "muž", "učitel", "soudce"); the inanimate ones are others (H: "hotel", "deník"; L: "kostel")
_ANIMATE_FLAGS = {"cs": frozenset("PU")}


@cache
def _entries(language: str) -> tuple[tuple[str, str], ...]:
    """Every entry of the language's dictionary with affix flags: (word, flags); none without a dictionary."""
    files = dictionary_files(language)
    if files is None or _handle(language) is None:
        return ()
    encoding = _handle(language)[1]  # type: ignore[index]
    text = files[1].read_text(encoding=encoding, errors="replace")
    return tuple((m.group(1), m.group(2)) for m in re.finditer(r"^([^/\s]+)/(\S+)", text, re.MULTILINE))


@cache
def _animate_lemmas(language: str) -> frozenset[str]:
    """The common nouns (lower-case entries) the dictionary declines as masculine animates."""
    flags = _ANIMATE_FLAGS.get(language)
    if flags is None:
        return frozenset()
    return frozenset(word for word, found in _entries(language)
                     if word.islower() and word[0].isalpha() and not flags.isdisjoint(found))


#: the affix flags of the Czech dictionary's paradigms of names: masculine animate (P: "Havel", "Procházka",
#: "Honza") and feminine (Z: "Eva", "Diana", "Praha"); an entry may have both ("Magda", "Jirka")
_NAME_FLAGS = {"cs": {"Masc": frozenset("P"), "Fem": frozenset("Z")}}


@cache
def _name_entries(language: str) -> dict[str, str]:
    """Capitalized entries of the dictionary (names) → their affix flags."""
    if language not in _NAME_FLAGS:
        return {}
    return {word: flags for word, flags in _entries(language) if word[0].isupper()}


#: the adjective paradigm of the Czech dictionary (possessives: "Magdin", "Jirkův")
_ADJECTIVE_FLAG = {"cs": "Y"}
#: the consonant before a woman's possessive -in (Hanka → Hančin, Petra → Petřin)
_SOFTENED = (("ch", "š"), ("k", "č"), ("h", "ž"), ("g", "ž"), ("r", "ř"))


def _possessive(word: str, language: str) -> bool:
    return _ADJECTIVE_FLAG.get(language, "-") in _name_entries(language).get(word, "")


def name_genders(lemma: str, language: str) -> frozenset[str]:
    """The genders ("Masc", "Fem") the dictionary declines a capitalized lemma in as a name ("Diana" → Fem,
    "Honza" → Masc; an unlisted name → none).  An -a name it declines both ways is the gender whose possessive
    adjective it lists ("Magdin", no "Magdův": a woman's; "Jirkův", no "Jirčin": a man's), else both.

    Why: the name lists are short, and an unlisted name in -a is a woman's first name or a man's surname or
    hypocoristic alike; the dictionary's own paradigm of the word tells them apart where it lists it."""
    flags = _name_entries(language).get(lemma, "")
    found = frozenset(g for g, f in _NAME_FLAGS.get(language, {}).items() if flags and set(flags) & f)
    if len(found) < 2 or not lemma.endswith("a"):
        return found
    stem = lemma[:-1]
    soft = next((stem[: -len(c)] + s for c, s in _SOFTENED if stem.endswith(c)), stem)
    womans, mans = _possessive(soft + "in", language), _possessive(stem + "ův", language)
    return frozenset({"Fem"}) if womans and not mans else frozenset({"Masc"}) if mans and not womans else found


def plural_places(language: str) -> frozenset[str]:
    """Names the dictionary declines as feminine plurals ("Čechy", "Alpy", "Benátky": the Z paradigm's -y
    lemmas): plural places, whose forms ("do Čech", "v Alpách") no singular reading explains."""
    fem = _NAME_FLAGS.get(language, {}).get("Fem", frozenset())
    return frozenset(w for w, f in _name_entries(language).items()
                     if w.endswith("y") and not w.endswith(("ay", "ey", "oy", "uy")) and set(f) & fem)


def animate_noun(form: str, language: str) -> bool:
    """Whether a lower-case word is a form of a masculine animate common noun ("policistu", "učiteli": a person
    or an animal), by the dictionary's paradigms; ``False`` where the language's dictionary does not say."""
    if not form.islower() or language not in _ANIMATE_FLAGS:
        return False
    lemmas = _animate_lemmas(language)
    return bool(lemmas) and any(stem in lemmas for stem in stems(form, language))


def animate_lemma(lemma: str, language: str) -> bool:
    """Whether a lower-case lemma is a masculine animate common noun of the dictionary ("policista")."""
    return lemma in _animate_lemmas(language)


#: endings of the infinitives a dictionary gives as the stem of a verb form (cs "pravit", "říct"; sk "povedať")
_INFINITIVE_ENDS = {"cs": ("t", "ci"), "sk": ("ť", "cť")}
#: the affix flag the Czech dictionary gives every verb (its negated forms, "nečetl"), no noun ("svět", "byt")
_VERB_FLAG = {"cs": "N"}


@cache
def _verb_lemmas(language: str) -> frozenset[str]:
    """The infinitives of the dictionary: lower-case entries ending so, with the verbs' flag."""
    flag = _VERB_FLAG.get(language)
    if flag is None:
        return frozenset()
    ends = _INFINITIVE_ENDS[language]
    return frozenset(word for word, flags in _entries(language)
                     if word.islower() and word.isalpha() and word.endswith(ends) and flag in flags)


def verb_form(form: str, language: str) -> bool:
    """Whether a lower-case word is a form of a verb by the dictionary ("četl" → číst, "chytila" → chytit; not
    "světa", "bytu"); ``False`` where the language's dictionary does not say."""
    if not form.islower() or language not in _VERB_FLAG:
        return False
    lemmas = _verb_lemmas(language)
    return bool(lemmas) and any(stem in lemmas for stem in stems(form, language))


def feminine_participle(form: str, language: str) -> bool:
    """Whether a lower-case word ending in -la is a woman's past participle ("pravila", "řekla", "seděla"): the
    dictionary takes it for a form of a verb (its infinitive, or the man's "řekl", "šel" beside it), not of a
    noun ("škola", "síla"); ``False`` where the language's dictionary does not say."""
    if not form.islower() or not form.endswith("la") or len(form) < 3 or language not in _INFINITIVE_ENDS:
        return False
    found = stems(form, language)
    if any(stem != form and stem.endswith(_INFINITIVE_ENDS[language]) for stem in found):
        return True
    # an irregular verb listed by its man's participle ("řekl", "šel"); a noun's genitive ("anděla", "kardinála")
    # has no neuter "-lo" beside it
    return any(stem in (form[:-1], form[:-2] + "el") for stem in found) and is_word(form[:-1] + "o", language)
