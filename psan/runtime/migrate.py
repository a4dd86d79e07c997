"""Schema migrations with yoyo-migrations over the SQL files in ``db/migrations``."""
from __future__ import annotations

from yoyo import get_backend, read_migrations

from psan.runtime.paths import migrations_dir


def _backend(database_url: str):
    # yoyo picks the driver from the scheme; plain postgresql:// means psycopg2
    url = database_url.replace("postgres://", "postgresql://", 1)
    return get_backend(url, migration_table="_yoyo_migration")


def upgrade(database_url: str) -> list[str]:
    """Apply pending migrations under yoyo's lock; return the ids applied (empty when up to date)."""
    backend = _backend(database_url)
    migrations = read_migrations(str(migrations_dir()))
    with backend.lock():
        pending = backend.to_apply(migrations)
        backend.apply_migrations(pending)
    return [m.id for m in pending]


def pending(database_url: str) -> list[str]:
    """The ids of the migrations not applied yet (every one when the database is reachable but empty)."""
    backend = _backend(database_url)
    return [m.id for m in backend.to_apply(read_migrations(str(migrations_dir())))]


def status(database_url: str) -> list[tuple[str, bool]]:
    """Every known migration with whether it is applied."""
    backend = _backend(database_url)
    migrations = read_migrations(str(migrations_dir()))
    applied = {m.id for m in backend.to_rollback(migrations)}
    return [(m.id, m.id in applied) for m in migrations]
