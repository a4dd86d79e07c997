"""What an annotator sees of an entity: an opaque reference, never the stored key or its database id.

Why: the stored automatic key is a digest of the entity's full normalized name (see
:func:`psan.tool.entities.grouping.entity_id`); shown to an annotator it let them confirm a guessed name
written outside their window by hashing candidates.  The reference is a keyed MAC (HMAC-SHA256
with a key derived from the instance's ``SECRET_KEY``) of the entity's row id: stable while the
entity exists, equal for two spans of one entity, and useless without the instance secret.
"""
from __future__ import annotations

import hashlib
import hmac
from typing import Any

from flask import current_app

#: purpose string of the derived key (a ``SECRET_KEY`` is never used directly as a MAC key)
_PURPOSE = b"psan.entity-reference.v1"


def _reference_key() -> bytes:
    secret = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(secret, _PURPOSE, hashlib.sha256).digest()


def entity_reference(entity_id: int) -> str:
    """The opaque reference of an entity row (16 hex digits of a keyed MAC)."""
    mac = hmac.new(_reference_key(), str(int(entity_id)).encode(), hashlib.sha256).hexdigest()
    return f"entity-{mac[:16]}"


def annotator_entity(entity: dict[str, Any] | None) -> dict[str, Any] | None:
    """The annotator's view of :func:`psan.store.annotation.entities.entity_of_span` (called with the window).

    Kept: category, the mention's span, the number of mentions inside the window and the label to
    propose.  Left out: the stored key, the row id, whether it was corrected and every document-wide
    count.
    """
    if entity is None:
        return None
    return {"key": entity_reference(entity["id"]), "category": entity["category"],
            "first_token": entity["first_token"], "end_token": entity["end_token"],
            "mentions": entity["mentions"], "label": entity["label"]}
