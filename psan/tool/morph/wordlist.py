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
