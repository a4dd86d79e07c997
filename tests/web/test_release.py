"""Safe release: output that fails closed, the undecided-span policy, masked counts.

Real upload → real Celery worker → recognition and pre-annotation → downloads.  No decision is
made by anybody: the default download must still hide every IBAN, birth number, e-mail and name.
"""
from __future__ import annotations

import io
import json
import re
import zipfile

import pytest

from tests.documents import wait_for_documents
from tests.helpers import csrf_token, new_project, sql

pytestmark = pytest.mark.worker

CS_TEXT = ("Pan Jan Novák, rodné číslo 736028/5163, bydlí v Brně. Platbu pošlete na účet "
           "CZ65 0800 0000 1920 0014 5399. Pište na jan.novak@example.com.\n"
           "Schůzka s Petrou Svobodovou proběhne zítra.\n")
EN_TEXT = ("John Smith sent the invoice to mary.brown@example.org yesterday. Pay to IBAN "
           "GB82 WEST 1234 5698 7654 32 please, Mary Brown said.\n")
#: pieces of personal data that must not survive a default download
#: an IBAN surrogate keeps the country and has valid check digits of its own, which can equal the original's
#: (1 in 97), so the account is matched with its first group
SECRETS = ("736028", "5163", "CZ65 0800", "0014 5399", "jan.novak", "example.com", "Novák", "Svobodov",
           "John Smith", "Smith", "mary.brown", "example.org", "GB82 WEST", "7654", "Mary Brown")


def _leaked(secret: str, text: str) -> bool:
    """Is ``secret`` in ``text``?  A group of digits only as a whole number: a random surrogate ("765419/4603", a
    birth number) may hold the digits of another document's account inside one of its own numbers."""
    if secret.isdigit():
        return re.search(rf"(?<!\d){secret}(?!\d)", text) is not None
    return secret in text
NAMES = ("Novák", "Smith")
MODES = ("remove", "tag", "pseudonymize")


def _upload(client, project_id: int, text: str, name: str, language: str) -> None:
    token = csrf_token(client, "/documents/upload")
    response = client.post("/documents/upload", data={"csrf_token": token, "project": str(project_id),
                                                      "language": language, "text": text, "name": name},
                           content_type="multipart/form-data")
    assert response.status_code == 302, response.get_data(as_text=True)


def _zip(client, pid: int, kind: str) -> dict[str, str]:
    response = client.get(f"/documents/project/{pid}/download/{kind}")
    assert response.status_code == 200
    zf = zipfile.ZipFile(io.BytesIO(response.get_data()))
    return {name: zf.read(name).decode("utf-8") for name in zf.namelist()}


def _set_policy(client, pid: int, policy: str):
    token = csrf_token(client, f"/documents/?project={pid}")
    confirmed = {"confirmed": "yes"} if policy == "keep" else {}  # keep asks for a confirmation first
    return client.post(f"/documents/project/{pid}/undecided", data={"csrf_token": token, "policy": policy,
                                                                   **confirmed})


@pytest.fixture()
def released(admin_client, clean_app, celery_worker):
    app = clean_app
    pid = new_project(app, "Release")
    sql(app, "UPDATE project SET language = 'cs' WHERE id = %s", (pid,))
    _upload(admin_client, pid, CS_TEXT, "cs.txt", "cs")
    _upload(admin_client, pid, EN_TEXT, "en.txt", "en")
    rows = wait_for_documents(app)
    assert [r["status"] for r in rows] == ["PRE_ANNOTATED", "PRE_ANNOTATED"], rows
    assert not sql(app, "SELECT 1 FROM annotation WHERE token_decision IS NOT NULL")  # nobody decided anything
    return {"pid": pid, "cs": rows[0]["id"], "en": rows[1]["id"]}


def test_untouched_project_downloads_fail_closed(admin_client, clean_app, released):
    pid = released["pid"]
    # IDs and contacts are private at pre-annotation; names stay undecided (suspicious)
    private_types = {r["condition"] for r in sql(clean_app, "SELECT condition FROM rule WHERE project_id = %s AND "
                                                            "type = 'NE_TYPE' AND confidence <= -1", (pid,))}
    assert {"IBAN", "CZ_BIRTH_NUMBER", "EMAIL"} <= private_types
    for mode in MODES:
        for doc in (released["cs"], released["en"]):
            response = admin_client.get(f"/documents/{doc}/download/{mode}")
            assert response.status_code == 200
            text = response.get_data(as_text=True)
            for secret in SECRETS:
                assert not _leaked(secret, text), (mode, secret, text)
            assert response.headers["X-Psan-Undecided-Policy"] == "mask"
            assert int(response.headers["X-Psan-Undecided-Spans"]) >= 1
        members = _zip(admin_client, pid, mode)
        assert {"cs.txt", "en.txt"} <= {m.replace(f".{mode}", "") for m in members}
        for name, text in members.items():
            for secret in SECRETS:
                assert not _leaked(secret, text), (mode, name, secret)
        masked = json.loads(members["MASKED.json"])
        assert masked["policy"] == "mask" and masked["total"] >= 2
        per_doc = {d["name"]: d for d in masked["documents"]}
        assert per_doc["cs.txt"]["by_category"].get("PERSON", 0) >= 2  # Jan Novák, Petrou Svobodovou
        assert per_doc["en.txt"]["by_category"].get("PERSON", 0) >= 2  # John Smith, Mary Brown
    tagged = admin_client.get(f"/documents/{released['en']}/download/tag").get_data(as_text=True)
    assert re.search(r"\[PERSON[^\]]*\]", tagged) and "[ID" in tagged  # masked with their category
    tagged_cs = admin_client.get(f"/documents/{released['cs']}/download/tag").get_data(as_text=True)
    assert "[OSOBA]" in tagged_cs and "[ID]" in tagged_cs  # Czech tags for the Czech document
    page = admin_client.get(f"/documents/?project={pid}").get_data(as_text=True)
    assert 'data-policy="mask"' in page and "undecided spans masked" in page and "person: " in page


def test_keep_policy_restores_the_old_output_and_says_so(admin_client, clean_app, released):
    pid = released["pid"]
    assert _set_policy(admin_client, pid, "keep").status_code == 302
    page = admin_client.get(f"/documents/?project={pid}").get_data(as_text=True)
    assert 'data-policy="keep"' in page and "KEPT AS PUBLIC" in page and "undecided spans kept" in page
    for mode in MODES:
        text = admin_client.get(f"/documents/{released['en']}/download/{mode}").get_data(as_text=True)
        assert "John Smith" in text and "Mary Brown" in text, (mode, text)  # undecided names written as public
        for secret in ("GB82 WEST", "mary.brown"):  # decided private at pre-annotation: still hidden
            assert secret not in text, (mode, secret)
        members = _zip(admin_client, pid, mode)
        masked = json.loads(members["MASKED.json"])
        assert masked["policy"] == "keep" and "KEPT AS PUBLIC" in masked["meaning"]
        assert "KEPT AS PUBLIC" in members["RELEASE_REPORT.html"]
    # and back: masked again
    assert _set_policy(admin_client, pid, "mask").status_code == 302
    text = admin_client.get(f"/documents/{released['en']}/download/tag").get_data(as_text=True)
    assert "Smith" not in text


def test_undecided_policy_is_validated_and_admin_only(admin_client, user_client, clean_app):
    pid = new_project(clean_app, "Policy")
    assert _set_policy(admin_client, pid, "maybe").status_code == 400
    assert _set_policy(admin_client, 987654, "keep").status_code == 404
    assert sql(clean_app, "SELECT undecided_output FROM project WHERE id = %s", (pid,))[0]["undecided_output"] == "mask"
    response = user_client.post(f"/documents/project/{pid}/undecided", data={"policy": "keep"})
    assert response.status_code in (302, 400, 403)
    assert sql(clean_app, "SELECT undecided_output FROM project WHERE id = %s", (pid,))[0]["undecided_output"] == "mask"
