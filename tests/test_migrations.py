"""Migrations on a real PostgreSQL: apply to an empty database, re-run is a no-op, schema constraints hold.

Also the throw-away database's own setting (:func:`psan.runtime.throwaway.no_wait_for_disk`), on the same
empty database.
"""
import contextlib

import psycopg2
import pytest

from psan.runtime import migrate, throwaway
from tests import services


@pytest.fixture()
def empty_database_url():
    with services.postgres_server() as server, services.fresh_database(server) as url:
        yield url


def test_upgrade_applies_then_is_noop(empty_database_url):
    applied = migrate.upgrade(empty_database_url)
    assert applied and applied[0].startswith("0001")
    assert migrate.upgrade(empty_database_url) == []
    assert all(done for _, done in migrate.status(empty_database_url))
    with psycopg2.connect(empty_database_url) as conn, conn.cursor() as cur:
        cur.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        tables = {r[0] for r in cur.fetchall()}
        cur.execute("SELECT name FROM project WHERE is_default")
        assert cur.fetchone() == ("Default",)
    conn.close()
    assert {"account", "project", "document", "token", "sentence", "named_entity", "annotation", "rule",
            "annotation_rule", "label", "decision_log", "annotation_window"} <= tables


def test_a_throwaway_database_commits_without_waiting_for_the_disk(empty_database_url):
    throwaway.no_wait_for_disk(empty_database_url)
    with contextlib.closing(psycopg2.connect(empty_database_url)) as conn, conn.cursor() as cur:
        cur.execute("SHOW synchronous_commit")  # a database setting: new connections get it
        assert cur.fetchone() == ("off",)


def test_constraints(database_url):
    conn = psycopg2.connect(database_url)
    try:
        with conn.cursor() as cur:
            for bad in [
                "INSERT INTO account (email) VALUES ('Not-Lower@x.org')",
                "INSERT INTO account (email, window_size) VALUES ('w@x.org', 0)",
                "INSERT INTO project (name, language) VALUES ('p', 'english')",
                "INSERT INTO project (name, public_threshold, private_threshold) VALUES ('q', -1, 1)",
            ]:
                with pytest.raises(psycopg2.IntegrityError):
                    cur.execute(bad)
                conn.rollback()
    finally:
        conn.close()


def test_deleting_a_document_deletes_its_data(database_url):
    conn = psycopg2.connect(database_url)
    try:
        with conn.cursor() as cur:
            cur.execute("SELECT id FROM project WHERE is_default")
            project = cur.fetchone()[0]
            cur.execute("INSERT INTO document (project_id, name, language, text) VALUES (%s, 'd', 'en', 'Jan Novak') "
                        "RETURNING id", (project,))
            doc = cur.fetchone()[0]
            cur.execute("INSERT INTO token VALUES (%s, 0, 0, 3), (%s, 1, 4, 9)", (doc, doc))
            cur.execute("INSERT INTO sentence VALUES (%s, 0, 0, 2)", (doc,))
            cur.execute("INSERT INTO annotation (document_id, first_token, end_token) VALUES (%s, 0, 2) RETURNING id",
                        (doc,))
            ann = cur.fetchone()[0]
            cur.execute("INSERT INTO rule (project_id, type, condition, annotation_id) VALUES (%s, 'WORD_TYPE', "
                        "'Jan Novak', %s) RETURNING id", (project, ann))
            cur.execute("INSERT INTO decision_log (project_id, document_id, action) VALUES (%s, %s, 'test')",
                        (project, doc))
            cur.execute("DELETE FROM document WHERE id = %s", (doc,))
            for table in ("token", "sentence", "annotation", "decision_log"):
                cur.execute(f"SELECT count(*) FROM {table} WHERE document_id = %s", (doc,))
                assert cur.fetchone()[0] == 0, table
            cur.execute("SELECT count(*) FROM rule WHERE annotation_id = %s", (ann,))
            assert cur.fetchone()[0] == 0
        conn.rollback()
    finally:
        conn.close()


def test_pretrained_classifier_spans_written_before_get_their_own_source(empty_database_url):
    """0044: in a project with no model of its own every 'model' span is the pre-trained classifier's and becomes
    'classifier' (the project's first retrain then keeps it); where a project model exists they stay 'model'."""
    from yoyo import get_backend, read_migrations

    from psan.runtime.paths import migrations_dir
    migrate.upgrade(empty_database_url)
    backend = get_backend(empty_database_url, migration_table="_yoyo_migration")
    migrations = read_migrations(str(migrations_dir()))
    with backend.lock():
        backend.rollback_migrations(migrations.filter(lambda m: m.id.startswith("0044")))
    with contextlib.closing(psycopg2.connect(empty_database_url)) as conn, conn, conn.cursor() as cur:
        documents = []
        for name, with_model in (("no model", False), ("own model", True)):
            cur.execute("INSERT INTO project (name) VALUES (%s) RETURNING id", (name,))
            project_id = cur.fetchone()[0]
            if with_model:
                cur.execute("INSERT INTO project_model (project_id, model, meta) VALUES (%s, '\\x00', '{}') "
                            "RETURNING id", (project_id,))
            cur.execute("INSERT INTO document (project_id, name, language, status, text, token_count) "
                        "VALUES (%s, 'd.txt', 'cs', 'RECOGNIZED', 'Jan Novák', 2) RETURNING id", (project_id,))
            documents.append(cur.fetchone()[0])
            cur.execute("INSERT INTO named_entity (document_id, first_token, end_token, type, category, source, score) "
                        "VALUES (%s, 0, 2, 'MODEL', 'PERSON', 'model', 0.9), (%s, 0, 2, 'PERSON', 'PERSON', "
                        "'nametag', 1.0)", (documents[-1], documents[-1]))
    assert migrate.upgrade(empty_database_url)[0].startswith("0044")
    with contextlib.closing(psycopg2.connect(empty_database_url)) as conn, conn.cursor() as cur:
        cur.execute("SELECT document_id, source FROM named_entity WHERE type = 'MODEL' ORDER BY document_id")
        assert cur.fetchall() == [(documents[0], "classifier"), (documents[1], "model")]


def test_classifier_spans_stored_as_model_get_their_type_and_keep_it_on_rollback(empty_database_url):
    """0045 (a Python migration, run by yoyo like the SQL ones): the pre-trained classifier's MODEL spans take the
    type it writes now, from the stored text, tokens and sentences; the project model's stay MODEL.  Its rollback
    keeps them (the code before 0045 writes these types itself)."""
    from yoyo import get_backend, read_migrations

    from psan.runtime.paths import migrations_dir
    migrate.upgrade(empty_database_url)
    backend = get_backend(empty_database_url, migration_table="_yoyo_migration")
    only_0045 = read_migrations(str(migrations_dir())).filter(lambda m: m.id.startswith("0045"))
    with backend.lock():
        backend.rollback_migrations(only_0045)
    # "Čapek viděl Nováka. 12 lidí." as the app stores it: tokens, sentences, spans by token range
    with contextlib.closing(psycopg2.connect(empty_database_url)) as conn, conn, conn.cursor() as cur:
        cur.execute("SELECT id FROM project WHERE is_default")
        cur.execute("INSERT INTO document (project_id, name, language, status, text, token_count, recognized_at) "
                    "VALUES (%s, 'd.txt', 'cs', 'PRE_ANNOTATED', 'Čapek viděl Nováka. 12 lidí.', 7, now()) "
                    "RETURNING id", (cur.fetchone()[0],))
        doc = cur.fetchone()[0]
        cur.execute("INSERT INTO token VALUES (%(d)s, 0, 0, 5), (%(d)s, 1, 6, 11), (%(d)s, 2, 12, 18), "
                    "(%(d)s, 3, 18, 19), (%(d)s, 4, 20, 22), (%(d)s, 5, 23, 27), (%(d)s, 6, 27, 28)", {"d": doc})
        cur.execute("INSERT INTO sentence VALUES (%(d)s, 0, 0, 4), (%(d)s, 1, 4, 7)", {"d": doc})
        cur.execute("INSERT INTO named_entity (document_id, first_token, end_token, type, category, source, score) "
                    "VALUES (%(d)s, 0, 1, 'MODEL', 'PERSON', 'classifier', 0.9), "
                    "(%(d)s, 2, 3, 'MODEL', 'PERSON', 'classifier', 0.8), (%(d)s, 4, 5, 'MODEL', 'OTHER', "
                    "'classifier', 0.7), (%(d)s, 2, 3, 'MODEL', 'PERSON', 'model', 0.6)", {"d": doc})
    assert migrate.upgrade(empty_database_url)[0].startswith("0045")
    with backend.lock():
        backend.rollback_migrations(only_0045)
    with contextlib.closing(psycopg2.connect(empty_database_url)) as conn, conn.cursor() as cur:
        cur.execute("SELECT first_token, type, source FROM named_entity ORDER BY first_token, source")
        assert cur.fetchall() == [(0, "CLS_PERSON_INITIAL", "classifier"), (2, "CLS_PERSON_CAP", "classifier"),
                                  (2, "MODEL", "model"), (4, "CLS_OTHER_NUM", "classifier")]
        cur.execute("SELECT condition FROM rule WHERE type = 'NE_TYPE' ORDER BY condition")
        assert [r[0] for r in cur.fetchall()] == ["CLS_OTHER_NUM", "CLS_PERSON_CAP", "CLS_PERSON_INITIAL"]
