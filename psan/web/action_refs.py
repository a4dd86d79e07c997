"""The number a person is shown for one of their actions (what undo takes), instead of its database id.

Why: action ids are numbered across all projects and people, so the difference between two of one's own
actions counted what everyone else did in between, in projects one does not belong to.  The number shown is
a keyed permutation of the id (a four-round Feistel network over 52 bits, keyed by the app's ``SECRET_KEY``):
one number per action, nothing to learn from its size or from the difference of two, and small enough to stay
exact in a JavaScript number.  Undo turns it back into the id and then checks, as before, that the action is
the caller's own.
"""
from __future__ import annotations

import hashlib
import hmac

from flask import current_app

__all__ = ["BITS", "to_ref", "from_ref", "with_refs"]

#: the numbers shown are below 2**BITS (JavaScript numbers are exact up to 2**53)
BITS = 52
_HALF = BITS // 2
_MASK = (1 << _HALF) - 1
_ROUNDS = 4


def _key() -> bytes:
    secret = str(current_app.config.get("SECRET_KEY") or "")
    return hashlib.sha256(b"psan action numbers\x00" + secret.encode("utf-8", "surrogatepass")).digest()


def _round(key: bytes, number: int, half: int) -> int:
    digest = hmac.new(key, number.to_bytes(1, "big") + half.to_bytes(4, "big"), hashlib.sha256).digest()
    return int.from_bytes(digest[:4], "big") & _MASK


def to_ref(action_id: int) -> int:
    """The number shown for the action ``action_id`` (``0 < action_id < 2**52``)."""
    if not 0 < action_id < 1 << BITS:
        raise ValueError("action id out of range")
    key = _key()
    left, right = action_id >> _HALF, action_id & _MASK
    for number in range(_ROUNDS):
        left, right = right, left ^ _round(key, number, right)
    return (left << _HALF) | right


def from_ref(ref: int) -> int | None:
    """The action id a shown number stands for, or ``None`` when no action could have it."""
    if not 0 <= ref < 1 << BITS:
        return None
    key = _key()
    left, right = ref >> _HALF, ref & _MASK
    for number in reversed(range(_ROUNDS)):
        left, right = right ^ _round(key, number, left), left
    action_id = (left << _HALF) | right
    return action_id if action_id > 0 else None


def with_refs(actions: list[dict]) -> list[dict]:
    """History rows (``id``: the action id) with the numbers shown instead."""
    return [{**a, "id": to_ref(int(a["id"]))} for a in actions]
