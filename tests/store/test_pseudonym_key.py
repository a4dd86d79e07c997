"""The project's stored identities (psan.store.publish.pseudonym_key)."""
from __future__ import annotations

from psan.runtime import db
from psan.store.publish import pseudonym_key
from tests.helpers import default_project


def test_pseudonym_key_keeps_identities(clean_app):
    app = clean_app
    pid = default_project(app)
    with app.app_context(), db.transaction() as conn:
        assert pseudonym_key.save_identities(conn, pid, {"person-1": {"kind": "person", "names": {"last:a": "B"}}}) == 1
        # stored values win, new parts are added
        pseudonym_key.save_identities(conn, pid, {"person-1": {"kind": "person", "names": {"last:a": "X",
                                                                                          "first:c": "D"}}})
        assert pseudonym_key.load_identities(conn, pid) == {
            "person-1": {"kind": "person", "names": {"last:a": "B", "first:c": "D"}}}
        assert pseudonym_key.save_identities(conn, pid, {"person-1": {"kind": "person"}}) == 0
        pseudonym_key.clear(conn, pid)
        assert pseudonym_key.load_identities(conn, pid) == {}
