"""The project's pseudonym key in PostgreSQL: one surrogate identity per entity key.

Why stored: an identity drawn once must stay the identity of its entity.  Rendering a single
document, adding documents to a project or downloading again later must not give a person a
new name, and the admin's key export must hold what the output really used.  Identities come
from :attr:`psan.tool.surrogates.SurrogateReplacer.identities` (JSON-serializable dicts) and go
back through its ``identities=`` argument; a stored identity is never overwritten, so concurrent
renders agree on the first one written.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import psycopg2.extras

from psan.runtime import db

__all__ = ["load_identities", "save_identities", "clear", "key_ring_of"]

#: stored keys of label identities: project-local, never shared through a key ring
_LABEL_PREFIX = "label-id:"


def key_ring_of(conn, project_id: int) -> int | None:
    """The key ring the project shares its identities through (``None``: the project's own key only)."""
    row = db.query_one("SELECT key_ring_id FROM project WHERE id = %s", (project_id,), conn)
    return row["key_ring_id"] if row else None


def _ring_identities(conn, ring: int, keys: Iterable[str] | None, names: Iterable[str]) -> dict[str, dict[str, Any]]:
    if keys is None:
        rows = db.query("SELECT entity_key, identity FROM key_ring_identity WHERE key_ring_id = %s "
                        "ORDER BY entity_key", (ring,), conn)
    else:
        names = sorted(set(names))
        rows = db.query(
            "SELECT entity_key, identity FROM key_ring_identity WHERE key_ring_id = %s AND (entity_key = ANY(%s) "
            "OR lower(identity->'template'->>'surname') = ANY(%s) "
            "OR lower(identity->'template'->'given'->>0) = ANY(%s)) ORDER BY entity_key",
            (ring, sorted(set(keys)), names, names), conn)
    return {r["entity_key"]: dict(r["identity"]) for r in rows if not r["entity_key"].startswith(_LABEL_PREFIX)}


def load_identities(conn, project_id: int, keys: Iterable[str] | None = None,
                    names: Iterable[str] = ()) -> dict[str, dict[str, Any]]:
    """entity key → identity of the project's entities (only ``keys`` and the persons named ``names``).

    ``names`` (case-folded lemmas) select persons whose stored full name has such a surname or
    first name, so a partial name ("Mr. Harper") can find its person without loading the whole key.
    """
    if keys is None:
        rows = db.query("SELECT entity_key, identity FROM pseudonym_key WHERE project_id = %s ORDER BY entity_key",
                        (project_id,), conn)
    else:
        rows = db.query(
            "SELECT entity_key, identity FROM pseudonym_key WHERE project_id = %s AND (entity_key = ANY(%s) "
            "OR lower(identity->'template'->>'surname') = ANY(%s) "
            "OR lower(identity->'template'->'given'->>0) = ANY(%s)) ORDER BY entity_key",
            (project_id, sorted(set(keys)), sorted(set(names)), sorted(set(names))), conn)
    own = {r["entity_key"]: dict(r["identity"]) for r in rows}
    ring = key_ring_of(conn, project_id)
    if ring is not None:  # the ring fills in; an identity the project already used stays its own
        keys = None if keys is None else list(keys)
        for key, ident in _ring_identities(conn, ring, keys, names).items():
            own.setdefault(key, ident)
    return own


def _merged(stored: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """``new`` added to ``stored``; stored values win at every level (names/values maps grow)."""
    out = dict(stored)
    for key, value in new.items():
        if key not in out:
            out[key] = value
        elif isinstance(out[key], Mapping) and isinstance(value, Mapping):
            out[key] = _merged(out[key], value)
    return out


def _changed_rows(owner: int, stored: Mapping[str, Mapping[str, Any]],
                  identities: Mapping[str, Mapping[str, Any]]) -> list[tuple[int, str, str]]:
    """(owner, key, identity JSON) of each identity that is new or adds parts to the stored one (stored values
    win); keys of 1 to 200 characters only."""
    rows = []
    for key, ident in sorted(identities.items()):
        if not 0 < len(key) <= 200:
            continue
        merged = _merged(stored.get(key, {}), ident)
        if merged != stored.get(key):
            rows.append((owner, key, json.dumps(merged, ensure_ascii=False, sort_keys=True)))
    return rows


def save_identities(conn, project_id: int, identities: Mapping[str, Mapping[str, Any]]) -> int:
    """Store new identities and new parts of stored ones (stored values win); returns rows written."""
    rows = _changed_rows(project_id, load_identities(conn, project_id), identities)
    ring = key_ring_of(conn, project_id)
    if ring is not None:
        _save_ring(conn, ring, {k: v for k, v in identities.items() if not k.startswith(_LABEL_PREFIX)})
    if not rows:
        return 0
    with conn.cursor() as cur:
        psycopg2.extras.execute_values(
            cur, "INSERT INTO pseudonym_key (project_id, entity_key, identity) VALUES %s "
                 "ON CONFLICT (project_id, entity_key) DO UPDATE SET identity = EXCLUDED.identity",
            rows, template="(%s, %s, %s::jsonb)", page_size=500)
    return len(rows)


def _save_ring(conn, ring: int, identities: Mapping[str, Mapping[str, Any]]) -> None:
    """New identities and new parts of the ring's ones (the ring's stored values win, as in a project)."""
    rows = _changed_rows(ring, _ring_identities(conn, ring, None, ()), identities)
    if rows:
        with conn.cursor() as cur:
            psycopg2.extras.execute_values(
                cur, "INSERT INTO key_ring_identity (key_ring_id, entity_key, identity) VALUES %s "
                     "ON CONFLICT (key_ring_id, entity_key) DO UPDATE SET identity = EXCLUDED.identity",
                rows, template="(%s, %s, %s::jsonb)", page_size=500)


def clear(conn, project_id: int) -> None:
    """Forget the project's identities (the next render draws new surrogates for every entity)."""
    db.execute("DELETE FROM pseudonym_key WHERE project_id = %s", (project_id,), conn)


# --- the output's replacer ----------------------------------------------------------------------------
# Region labels are project-local numbers (psan.store.publish.output.ProjectOutputContext.label_numbers) that
# shift when a label is deleted; the table keys labels by id so an identity never moves to another label.

def _to_stored(key: str, numbers_to_ids: Mapping[int, int]) -> str | None:
    if key.startswith("label:"):
        number = key[len("label:"):]
        label_id = numbers_to_ids.get(int(number)) if number.isascii() and number.isdigit() else None
        return None if label_id is None else f"label-id:{label_id}"
    return key


def _from_stored(key: str, ids_to_numbers: Mapping[int, int]) -> str | None:
    if key.startswith("label-id:"):
        raw = key[len("label-id:"):]
        number = ids_to_numbers.get(int(raw)) if raw.isascii() and raw.isdigit() else None
        return None if number is None else f"label:{number}"
    return key


def replacer_for(conn, ctx: Any, keys: Iterable[str] | None = None, names: Iterable[str] = ()) -> Any:
    """A :class:`SurrogateReplacer` for the project of ``ctx`` that starts from the stored identities.

    ``keys``/``names`` restrict what is loaded (see :func:`load_identities`; keys as the replacer
    names them, ``label:<number>``).
    """
    from psan.tool.surrogates import SurrogateReplacer
    if keys is not None:
        numbers_to_ids = {n: label_id for label_id, n in ctx.label_numbers.items()}
        keys = [k for k in (_to_stored(k, numbers_to_ids) for k in keys) if k is not None]
    stored = load_identities(conn, ctx.project_id, keys, names) if ctx.project_id else {}
    identities = {}
    for key, ident in stored.items():
        local = _from_stored(key, ctx.label_numbers)
        if local is not None:
            identities[local] = ident
    return SurrogateReplacer(ctx.policy, ctx.language, ctx.seed, identities=identities)


def remember(conn, ctx: Any, replacer: Any) -> int:
    """Store the identities a render drew (see :func:`save_identities`)."""
    if not ctx.project_id:
        return 0
    numbers_to_ids = {n: label_id for label_id, n in ctx.label_numbers.items()}
    out = {}
    for key, ident in replacer.identities.items():
        stored = _to_stored(key, numbers_to_ids)
        if stored is not None:
            out[stored] = ident
    return save_identities(conn, ctx.project_id, out)
