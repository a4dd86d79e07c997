"""Key rings: identity registries shared by projects (the identities live in psan.store.publish.pseudonym_key).

Why by name: a data steward links the projects of one study (interviews of 2023 and of 2024, the court
files of one case) by typing the same ring name; the same real person then keeps one pseudonym in all of them.
"""
from __future__ import annotations

from typing import Any

from psan.runtime import db

__all__ = ["MAX_NAME", "link_project", "ring_of", "rings"]

MAX_NAME = 200


def link_project(conn, project_id: int, name: str | None) -> int | None:
    """Put the project on the ring called ``name`` (created when new); an empty name unlinks it.

    Returns the ring id (``None`` when unlinked).  ValueError for a name that is too long.
    """
    clean = " ".join((name or "").split())
    if len(clean) > MAX_NAME:
        raise ValueError(f"a key ring name has at most {MAX_NAME} characters")
    ring = None
    if clean:
        row = db.query_one("INSERT INTO key_ring (name) VALUES (%s) ON CONFLICT (name) DO UPDATE SET name = "
                           "EXCLUDED.name RETURNING id", (clean,), conn)
        ring = int(row["id"]) if row else None
    db.execute("UPDATE project SET key_ring_id = %s WHERE id = %s", (ring, project_id), conn)
    return ring


def ring_of(conn, project_id: int) -> dict[str, Any] | None:
    """The project's ring (id, name, the other projects on it) or ``None``."""
    row = db.query_one("SELECT r.id, r.name FROM project p JOIN key_ring r ON r.id = p.key_ring_id WHERE p.id = %s",
                       (project_id,), conn)
    if row is None:
        return None
    others = db.query("SELECT id, name FROM project WHERE key_ring_id = %s AND id <> %s ORDER BY name",
                      (row["id"], project_id), conn)
    return {"id": row["id"], "name": row["name"], "projects": others}


def rings(conn) -> list[dict[str, Any]]:
    """Every ring with its number of projects (for the name suggestions of the form)."""
    return db.query("SELECT r.id, r.name, count(p.id) AS projects FROM key_ring r LEFT JOIN project p "
                    "ON p.key_ring_id = r.id GROUP BY r.id, r.name ORDER BY r.name", (), conn)
