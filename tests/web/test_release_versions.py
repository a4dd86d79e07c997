"""Versioned releases on the real database: a re-release after one correction changes only that document.

Documents are inserted directly (tests/documents.py); PERSON and LOCATION spans are private through the
NE_TYPE rules' confidence -1, as in tests/web/test_pseudonym_key.py.
"""
from __future__ import annotations

import json

from tests.documents import add_document, token_index
from tests.helpers import csrf_token, new_project, sql

TEXTS = {"a.txt": "Peter Novak met Anna Berg in Brno on Monday.\n",
         "b.txt": "Anna Berg wrote to Peter Novak from Prague.\n",
         "c.txt": "Karel Dvorak and Peter Novak stayed in Brno.\n"}
ENTITIES = [("Peter Novak", "PERSON"), ("Anna Berg", "PERSON"), ("Karel Dvorak", "PERSON"),
            ("Brno", "LOCATION"), ("Prague", "LOCATION")]


def _setup(app) -> tuple[int, dict[str, int]]:
    pid = new_project(app, "versions")
    docs = {name: add_document(app, text, ENTITIES, project_id=pid, name=name) for name, text in TEXTS.items()}
    sql(app, "UPDATE rule SET confidence = -1 WHERE project_id = %s AND type = 'NE_TYPE'", (pid,))
    return pid, docs


def _release(client, pid: int, note: str = "") -> int:
    token = csrf_token(client, f"/documents/project/{pid}/releases")
    response = client.post(f"/documents/project/{pid}/releases", data={"csrf_token": token, "note": note})
    assert response.status_code == 302, response.get_data(as_text=True)[-300:]
    return int(response.headers["Location"].rstrip("/").rsplit("/", 1)[-1])


def _changes(client, pid: int, number: int) -> dict:
    response = client.get(f"/documents/project/{pid}/releases/{number}/changes.json")
    assert response.status_code == 200
    return json.loads(response.get_data(as_text=True))


def _outputs(client, docs: dict[str, int]) -> dict[str, str]:
    return {n: client.get(f"/documents/{d}/download/pseudonymize").get_data(as_text=True) for n, d in docs.items()}


def test_a_second_release_after_one_correction_changes_only_that_document(clean_app, admin_client):
    app = clean_app
    pid, docs = _setup(app)
    before = _outputs(admin_client, docs)
    assert _release(admin_client, pid, "first delivery") == 1
    first = _changes(admin_client, pid, 1)
    assert [d["name"] for d in first["added"]] == ["a.txt", "b.txt", "c.txt"] and first["previous"] is None
    # the correction: "Brno" in a.txt is public after all
    brno = token_index(app, docs["a.txt"], "Brno")
    assert sql(app, "UPDATE annotation SET token_decision = 'PUBLIC' WHERE document_id = %s AND first_token = %s "
                    "RETURNING 1", (docs["a.txt"], brno))
    assert _release(admin_client, pid) == 2
    after = _outputs(admin_client, docs)
    assert after["b.txt"] == before["b.txt"] and after["c.txt"] == before["c.txt"]  # byte-identical surrogates
    assert "Brno" in after["a.txt"] and "Brno" not in before["a.txt"]
    second = _changes(admin_client, pid, 2)
    assert [d["name"] for d in second["changed"]] == ["a.txt"]
    assert second["unchanged"] == 2 and not second["added"] and not second["removed"]
    start = TEXTS["a.txt"].index("Brno")
    assert second["changed"][0]["spans_removed"] == [[start, start + 4, "LOCATION"]]
    assert second["changed"][0]["spans_added"] == []
    dumped = json.dumps(second)
    assert not any(word in dumped for word in ("Novak", "Berg", "Brno", "Prague", "Dvorak"))  # never an original
    page = admin_client.get(f"/documents/project/{pid}/releases").get_data(as_text=True)
    assert "first delivery" in page


def test_a_withdrawn_document_needs_a_reason_and_leaves_later_releases(clean_app, admin_client):
    app = clean_app
    pid, docs = _setup(app)
    _release(admin_client, pid)
    token = csrf_token(admin_client, f"/documents/project/{pid}/releases/1")
    url = f"/documents/project/{pid}/withdraw/{docs['c.txt']}"
    assert admin_client.post(url, data={"csrf_token": token, "reason": " "}).status_code == 400
    assert admin_client.post(url, data={"csrf_token": token, "reason": "consent withdrawn"}).status_code == 302
    assert _release(admin_client, pid) == 2
    second = _changes(admin_client, pid, 2)
    assert second["withdrawn"] == [{"document": docs["c.txt"], "name": "c.txt", "reason": "consent withdrawn"}]
    assert second["unchanged"] == 2 and not second["changed"]
    rows = sql(app, "SELECT w.after_release, w.account, a.role::text AS role FROM release_withdrawal w "
                    "JOIN account a ON a.email = w.account WHERE w.project_id = %s", (pid,))
    assert [(r["after_release"], r["role"]) for r in rows] == [(1, "ADMIN")]
    page = admin_client.get(f"/documents/project/{pid}/releases/2").get_data(as_text=True)
    assert "consent withdrawn" in page


def test_release_pages_check_ids_and_access(clean_app, admin_client, user_client):
    pid, docs = _setup(clean_app)
    assert admin_client.get(f"/documents/project/{pid}/releases/1/changes.json").status_code == 404
    assert admin_client.get("/documents/project/999999/releases").status_code == 404
    assert user_client.get(f"/documents/project/{pid}/releases").status_code == 403
    token = csrf_token(admin_client, f"/documents/project/{pid}/releases")
    never = admin_client.post(f"/documents/project/{pid}/withdraw/{docs['a.txt']}",
                              data={"csrf_token": token, "reason": "a good reason"})
    assert never.status_code == 404  # never released
    assert admin_client.post(f"/documents/project/{pid}/releases", data={"note": "x"}).status_code == 400  # CSRF
    too_long = admin_client.post(f"/documents/project/{pid}/releases", data={"csrf_token": token, "note": "x" * 1001})
    assert too_long.status_code == 400
