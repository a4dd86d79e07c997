"""A key beyond one project: a key ring shares identities between projects; every use of the key is logged.

Real PostgreSQL (the ``clean_app`` fixture); documents inserted directly (tests/documents.py), their PERSON
spans made private by the NE_TYPE rule's confidence -1 as in tests/web/test_pseudonym_key.py.
"""
from __future__ import annotations

import html
import io
import json

from tests.documents import add_document
from tests.helpers import csrf_token, new_project, sql

TEXT_A = "Peter Novak signed the contract with Anna Berg in Brno.\n"
TEXT_B = "Years later Peter Novak wrote again; Karel Dvorak replied.\n"
PEOPLE = [("Peter Novak", "PERSON"), ("Anna Berg", "PERSON"), ("Karel Dvorak", "PERSON")]
REASON = "subject access request 2024-17"


def _project(app, name: str, text: str) -> tuple[int, int]:
    pid = new_project(app, name)
    doc = add_document(app, text, PEOPLE, project_id=pid, name=f"{name}.txt")
    sql(app, "UPDATE rule SET confidence = -1 WHERE project_id = %s AND type = 'NE_TYPE'", (pid,))
    return pid, doc


def _ring(client, pid: int, name: str):
    token = csrf_token(client, f"/projects/{pid}")
    return client.post(f"/projects/{pid}/key-ring", data={"csrf_token": token, "key_ring": name})


def _surrogate_of(client, doc: int, original: str, reason: str = REASON) -> str:
    response = client.get(f"/documents/{doc}/key.json?reason={reason}")
    assert response.status_code == 200, response.get_data(as_text=True)[-400:]
    entries = json.loads(response.get_data(as_text=True))["entries"]
    return next(e["replacement"] for e in entries if e["original_text"] == original)


def test_two_projects_on_one_key_ring_give_one_person_one_surrogate(clean_app, admin_client):
    app = clean_app
    pa, a = _project(app, "interviews-2023", TEXT_A)
    pb, b = _project(app, "interviews-2024", TEXT_B)
    assert _ring(admin_client, pa, "study X").status_code == 302
    first = _surrogate_of(admin_client, a, "Peter Novak")
    assert _ring(admin_client, pb, " study  X ").status_code == 302  # the same ring, however it is spaced
    assert sql(app, "SELECT count(*) AS n FROM key_ring")[0]["n"] == 1
    assert _surrogate_of(admin_client, b, "Peter Novak") == first
    # the other people are different people: no shared surrogate
    assert _surrogate_of(admin_client, b, "Karel Dvorak") not in (first, _surrogate_of(admin_client, a, "Anna Berg"))
    _, c = _project(app, "unrelated", TEXT_B)  # the control: a project of its own draws its own surrogate
    assert _surrogate_of(admin_client, c, "Peter Novak") != first
    page = admin_client.get(f"/projects/{pb}").get_data(as_text=True)
    assert "interviews-2023" in page and 'value="study X"' in page


def test_an_identity_the_project_already_used_stays_when_it_joins_a_ring(clean_app, admin_client):
    app = clean_app
    pa, a = _project(app, "first", TEXT_A)
    pb, b = _project(app, "second", TEXT_B)
    own = _surrogate_of(admin_client, b, "Peter Novak")  # released before the ring existed
    _ring(admin_client, pa, "ring")
    ring_name = _surrogate_of(admin_client, a, "Peter Novak")
    _ring(admin_client, pb, "ring")
    assert _surrogate_of(admin_client, b, "Peter Novak") == own
    assert _surrogate_of(admin_client, a, "Peter Novak") == ring_name
    # leaving the ring (empty name) keeps the project's key as it is
    assert _ring(admin_client, pb, "").status_code == 302
    assert sql(app, "SELECT key_ring_id FROM project WHERE id = %s", (pb,))[0]["key_ring_id"] is None
    assert _surrogate_of(admin_client, b, "Peter Novak") == own


def test_a_key_ring_name_that_is_too_long_is_a_400(clean_app, admin_client):
    pid, _ = _project(clean_app, "p", TEXT_A)
    assert _ring(admin_client, pid, "x" * 201).status_code == 400


def test_a_key_export_without_a_reason_is_refused_and_every_use_is_logged(clean_app, admin_client):
    app = clean_app
    pid, doc = _project(app, "logged", TEXT_A)
    for path in (f"/documents/project/{pid}/key.json", f"/documents/project/{pid}/key.csv",
                 f"/documents/{doc}/key.json"):
        for bad in ("", "?reason=", "?reason=%20%20", "?reason=ok"):
            response = admin_client.get(path + bad)
            assert response.status_code == 400, (path, bad)
            assert "reason" in response.get_data(as_text=True)
    assert sql(app, "SELECT count(*) AS n FROM key_access_log")[0]["n"] == 0
    key = admin_client.get(f"/documents/project/{pid}/key.json?reason={REASON}")
    assert key.status_code == 200
    assert admin_client.get(f"/documents/{doc}/key.json?reason=appeal%20review").status_code == 200
    output = admin_client.get(f"/documents/{doc}/download/pseudonymize").get_data()
    token = csrf_token(admin_client, "/documents/upload")
    form = {"csrf_token": token, "output": (io.BytesIO(output), "logged.pseudonymize.txt"),
            "key": (io.BytesIO(key.get_data()), "key.json")}
    refused = admin_client.post("/documents/depseudonymize", content_type="multipart/form-data", data=form)
    assert refused.status_code == 400
    form = {"csrf_token": token, "output": (io.BytesIO(output), "logged.pseudonymize.txt"),
            "key": (io.BytesIO(key.get_data()), "key.json"), "reason": "court order <b>4 C 12/2024</b>"}
    restored = admin_client.post("/documents/depseudonymize", content_type="multipart/form-data", data=form)
    assert restored.status_code == 200 and restored.get_data(as_text=True) == TEXT_A
    rows = sql(app, "SELECT k.action, k.reason, k.account, k.project_id, k.document_id, k.detail, a.email "
                    "FROM key_access_log k LEFT JOIN account a ON a.id = k.account_id ORDER BY k.id")
    assert [(r["action"], r["reason"], r["project_id"], r["document_id"]) for r in rows] == [
        ("export", REASON, pid, None), ("export", "appeal review", pid, doc),
        ("depseudonymize", "court order <b>4 C 12/2024</b>", pid, doc)]
    assert all(r["account"] == r["email"] for r in rows)
    assert rows[0]["detail"]["format"] == "json"
    page = admin_client.get(f"/documents/project/{pid}/key-access")
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "&lt;b&gt;4 C 12/2024&lt;/b&gt;" in text and REASON in html.unescape(text)


def test_the_key_access_log_is_admin_only(clean_app, admin_client, user_client):
    pid, _ = _project(clean_app, "private", TEXT_A)
    assert user_client.get(f"/documents/project/{pid}/key-access").status_code == 403
    assert admin_client.get("/documents/project/999999/key-access").status_code == 404
    token = csrf_token(user_client, "/auth/password")
    assert user_client.post(f"/projects/{pid}/key-ring", data={"csrf_token": token, "key_ring": "x"}
                            ).status_code == 403
