"""Which new passwords psan refuses, beyond the minimum length.

Why: a length rule alone accepts ``aaaaaaaaaa``, ``1234567890``, ``password123`` or the account's
own e-mail address, the first guesses of anyone trying to get in.  psan refuses passwords from a
bundled list of common passwords (``psan/data/common-passwords.txt``, generated from Django's list),
trivial patterns (one repeated short unit, a run of consecutive characters), the account's e-mail
address (or its part before ``@``) and the current password.
"""
from __future__ import annotations

from functools import cache
from importlib import resources

from flask_babel import gettext

#: a password made of this few different characters is a pattern, not a secret
MIN_DISTINCT_CHARS = 4


@cache
def common_passwords() -> frozenset[str]:
    """The bundled list, lower-cased (comment lines start with ``#``)."""
    text = resources.files("psan").joinpath("data/common-passwords.txt").read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


def _is_run(text: str) -> bool:
    """``abcdefghij``, ``9876543210``: every character is the previous one ± 1."""
    steps = {ord(b) - ord(a) for a, b in zip(text, text[1:], strict=False)}
    return len(steps) == 1 and steps <= {1, -1}


def _is_repetition(text: str) -> bool:
    """``abcabcabca``: a short unit repeated."""
    return any(text == (text[:n] * (len(text) // n + 1))[:len(text)] for n in range(1, 4))


def problem(password: str, email: str | None = None, current: str | None = None) -> str | None:
    """Why ``password`` is refused (a message for the user), or ``None`` when it is acceptable."""
    lowered = password.lower()
    if current is not None and password == current:
        return gettext("Choose a password different from the current one.")
    if email:
        address = email.strip().lower()
        local = address.partition("@")[0]
        if address in lowered or (len(local) >= 4 and lowered.strip() in (local, address)):
            return gettext("Do not use your e-mail address as a password.")
    if len(set(lowered)) < MIN_DISTINCT_CHARS or _is_run(lowered) or _is_repetition(lowered):
        return gettext("This password is a simple pattern; choose a harder one.")
    stripped = lowered.strip()
    if stripped in common_passwords() or stripped.rstrip("0123456789!.?") in common_passwords():
        return gettext("This password is one of the most common passwords; choose another one.")
    return None
