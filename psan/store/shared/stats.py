"""Planner statistics after bulk loads.

Why: a document's tokens, sentences, entities and annotations arrive by COPY in one go (10^6 rows
for a large document).  Until the table is analyzed the planner still believes the old row counts,
and with autovacuum off or behind, per-document queries of downloads fell back to sequential scans
(50 ms per document instead of 0.5 ms).  This runs ``ANALYZE`` on a table when a load grew it
beyond the threshold autovacuum itself uses (50 rows + 10 %), so plans stay right without it.
"""
from __future__ import annotations

from collections.abc import Mapping

from psan.runtime import db

#: tables filled in bulk, the only names :func:`analyze_after_load` accepts (they are spliced into SQL)
BULK_TABLES = frozenset({"token", "sentence", "named_entity", "annotation", "annotation_rule"})
#: autovacuum's defaults: analyze after 50 rows + 10 % of the table changed
BASE_THRESHOLD = 50
SCALE_FACTOR = 0.1


def stale_tables(conn, loaded: Mapping[str, int]) -> list[str]:
    """The tables of ``loaded`` (name → rows just written) whose statistics the load made stale."""
    out = []
    for table, rows in loaded.items():
        if table not in BULK_TABLES:
            raise ValueError(f"not a bulk-loaded table: {table!r}")
        row = db.query_one("SELECT c.reltuples, coalesce(s.n_mod_since_analyze, 0) AS modified "
                           "FROM pg_class c LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid "
                           "WHERE c.oid = %s::regclass", (table,), conn)
        reltuples = float(row["reltuples"]) if row else -1.0
        # reltuples < 0: never analyzed; the counter covers loads of other transactions too
        changed = max(rows, int(row["modified"]) if row else 0)
        if reltuples < 0 or changed > BASE_THRESHOLD + SCALE_FACTOR * reltuples:
            out.append(table)
    return out


def analyze_after_load(conn, loaded: Mapping[str, int]) -> list[str]:
    """``ANALYZE`` the tables of ``loaded`` whose statistics are stale; returns the analyzed names.

    Call it in a short transaction of its own after the load committed: ANALYZE holds a lock that
    makes a second ANALYZE of the same table wait until the first transaction ends.
    """
    tables = stale_tables(conn, loaded)
    for table in tables:
        db.execute(f"ANALYZE {table}", None, conn)  # nosec - the name is one of BULK_TABLES
    return tables

