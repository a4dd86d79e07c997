"""Rules page: filters, pagination, confidence edits, deletes, CSV export/import, access."""
from __future__ import annotations

import io
import re

from hypothesis import given
from hypothesis import strategies as st

from psan.web.csvio import escape_cell, unescape_cell
from tests.helpers import account_id, csrf_token, default_project, make_account, new_project, sql
from tests.web.helpers import add_label, add_rule, rules_of

CONDITION_RE = re.compile(r'<td class="rule-condition">(.*?)</td>', re.S)


def conditions(response) -> list[str]:
    assert response.status_code == 200, response.status_code
    return CONDITION_RE.findall(response.get_data(as_text=True))


def upload(client, project_id: int, content: bytes | str, create_labels: bool = False):
    data = {"csrf_token": csrf_token(client, "/"), "file": (io.BytesIO(
        content.encode() if isinstance(content, str) else content), "rules.csv")}
    if create_labels:
        data["create_labels"] = "y"
    return client.post(f"/rules/{project_id}/import", data=data, content_type="multipart/form-data")


def test_filters_and_stable_pagination(admin_client, clean_app):
    pid = default_project(clean_app)
    other = make_account(clean_app, "other@example.org", "ADMIN").id
    me = account_id(clean_app, "admin@example.org")
    person = add_label(clean_app, pid, "person")
    for i in range(120):
        add_rule(clean_app, pid, f"word{i:03d}", confidence=(1, -1, 0)[i % 3], author_id=(me, other)[i % 2],
                 label_id=person if i % 4 == 0 else None)
    add_rule(clean_app, pid, "PER", "NE_TYPE", confidence=0)
    for cond in ("50%", "5_0", "500", "a\\b"):
        add_rule(clean_app, pid, cond, "PATTERN", confidence=-1)

    pages = [conditions(admin_client.get(f"/rules/?page={n}")) for n in (1, 2, 3)]
    assert [len(p) for p in pages] == [50, 50, 25]
    everything = pages[0] + pages[1] + pages[2]
    assert len(set(everything)) == 125 and everything == conditions(admin_client.get("/rules/?page=1")) + \
        pages[1] + pages[2]  # same order on every request
    assert conditions(admin_client.get("/rules/?page=99")) == pages[2]  # clamped to the last page
    assert conditions(admin_client.get("/rules/?page=-3")) == pages[0]

    assert conditions(admin_client.get("/rules/?type=NE_TYPE")) == ["PER"]
    assert conditions(admin_client.get("/rules/?q=%25")) == ["50%"]      # % is literal, not a wildcard
    assert conditions(admin_client.get("/rules/?q=_")) == ["5_0"]        # _ too
    assert conditions(admin_client.get("/rules/?q=%5C")) == ["a\\b"]
    assert conditions(admin_client.get("/rules/?q=WORD11&type=WORD_TYPE")) == [f"word11{i}" for i in range(10)]
    assert len(conditions(admin_client.get("/rules/?decision=public&type=WORD_TYPE"))) == 40
    assert len(conditions(admin_client.get("/rules/?decision=suspicious"))) == 41   # 40 words + PER
    response = admin_client.get("/rules/?decision=private")
    assert "44 rules match the filter" in response.get_data(as_text=True)
    assert conditions(admin_client.get(f"/rules/?label={person}&q=word00")) == ["word000", "word004", "word008"]
    assert len(conditions(admin_client.get("/rules/?label=none&type=WORD_TYPE"))) == 50  # 90 → first page
    assert conditions(admin_client.get(f"/rules/?author={other}&q=word00")) == [f"word00{i}" for i in (1, 3, 5, 7, 9)]


def test_bad_filters_are_client_errors(admin_client, clean_app):
    other = new_project(clean_app, "Other")
    foreign = add_label(clean_app, other, "foreign")
    for query in ("type=EVIL", "decision=maybe", "label=abc", "author=-1", "q=%00", "label=99999999999999999999999"):
        assert admin_client.get(f"/rules/?{query}").status_code == 400, query
    assert admin_client.get(f"/rules/?label={foreign}").status_code == 404      # label of another project
    assert admin_client.get(f"/rules/?project={other}&label={foreign}").status_code == 200
    for project in ("999999", "99999999999999999999999", "x"):
        assert admin_client.get(f"/rules/?project={project}").status_code == 404


def test_confidence_edit_is_logged_and_reannotates(admin_client, clean_app, reannotations):
    pid = default_project(clean_app)
    rule = add_rule(clean_app, pid, "Novák", confidence=1)
    token = csrf_token(admin_client, "/rules/")
    response = admin_client.post(f"/rules/{pid}/{rule}/confidence",
                                 data={"confidence": "-2.5", "csrf_token": token, "q": "Nov", "page": "1"})
    assert response.status_code == 302 and "q=Nov" in response.headers["Location"]
    assert sql(clean_app, "SELECT confidence FROM rule WHERE id = %s", (rule,)) == [{"confidence": -2.5}]
    log = sql(clean_app, "SELECT action, rule_id, decision::text AS decision, detail, account_id FROM decision_log")
    assert log == [{"action": "rule_confidence", "rule_id": rule, "decision": "PRIVATE", "account_id":
                    account_id(clean_app, "admin@example.org"),
                    "detail": {"old": 1.0, "new": -2.5, "type": "WORD_TYPE", "condition": "Novák"}}]
    assert reannotations == [pid]

    # the JavaScript variant: CSRF token in a header, JSON answer
    response = admin_client.post(f"/rules/{pid}/{rule}/confidence", data={"confidence": "0"},
                                 headers={"X-CSRFToken": token, "Accept": "application/json"})
    assert response.status_code == 200
    assert response.get_json() == {"id": rule, "confidence": 0.0, "decision": "SUSPICIOUS",
                                   "decision_name": "undecided"}


def test_bad_confidence_values_change_nothing(admin_client, clean_app, reannotations):
    pid = default_project(clean_app)
    rule = add_rule(clean_app, pid, "Novák", confidence=1)
    token = csrf_token(admin_client, "/rules/")
    for value in ("nan", "inf", "-inf", "abc", "", "1e9", "1001"):
        response = admin_client.post(f"/rules/{pid}/{rule}/confidence", data={"confidence": value, "csrf_token": token})
        assert response.status_code == 302, value
        response = admin_client.post(f"/rules/{pid}/{rule}/confidence", data={"confidence": value},
                                     headers={"X-CSRFToken": token, "Accept": "application/json"})
        assert response.status_code == 400 and "error" in response.get_json(), value
    assert admin_client.post(f"/rules/{pid}/{rule}/confidence", data={"confidence": "1"}).status_code == 400  # no CSRF
    assert sql(clean_app, "SELECT confidence FROM rule") == [{"confidence": 1.0}]
    assert sql(clean_app, "SELECT count(*) AS n FROM decision_log") == [{"n": 0}] and reannotations == []


def test_forged_ids_are_404(admin_client, clean_app, reannotations):
    pid = default_project(clean_app)
    other = new_project(clean_app, "Other")
    foreign = add_rule(clean_app, other, "Foreign", confidence=1)
    token = csrf_token(admin_client, "/rules/")
    for path in (f"/rules/{pid}/{foreign}/confidence", f"/rules/{pid}/{foreign}/delete",
                 f"/rules/{pid}/99999999999999999999/delete", f"/rules/99999999999999999999/{foreign}/delete",
                 f"/rules/424242/{foreign}/confidence"):
        assert admin_client.post(path, data={"confidence": "0", "csrf_token": token}).status_code == 404, path
    assert rules_of(clean_app, other) == {("WORD_TYPE", "Foreign", True, 1.0, None, None)}


def test_annotator_cannot_use_the_rules_page(user_client, clean_app):
    pid = default_project(clean_app)
    rule = add_rule(clean_app, pid, "Novák", confidence=1)
    token = csrf_token(user_client, "/")
    assert user_client.get("/rules/").status_code == 403
    assert user_client.post(f"/rules/{pid}/{rule}/confidence", data={"confidence": "-1", "csrf_token": token}
                            ).status_code == 403
    assert user_client.get(f"/rules/{pid}/export.csv").status_code == 403
    assert sql(clean_app, "SELECT confidence FROM rule") == [{"confidence": 1.0}]


def test_delete_one_and_delete_filtered(admin_client, clean_app, reannotations):
    pid = default_project(clean_app)
    keep = add_rule(clean_app, pid, "keep", confidence=1)
    single = add_rule(clean_app, pid, "single", confidence=1)
    for i in range(3):
        add_rule(clean_app, pid, f"drop{i}", confidence=-1)
    token = csrf_token(admin_client, "/rules/")
    assert admin_client.post(f"/rules/{pid}/{single}/delete", data={"csrf_token": token}).status_code == 302
    page = admin_client.get(f"/rules/{pid}/delete-filtered?decision=private").get_data(as_text=True)
    assert "Delete 3 rules" in page
    assert admin_client.post(f"/rules/{pid}/delete-filtered", data={"decision": "private"}).status_code == 400
    assert admin_client.post(f"/rules/{pid}/delete-filtered",
                             data={"decision": "private", "csrf_token": token}).status_code == 302
    assert [r["id"] for r in sql(clean_app, "SELECT id FROM rule")] == [keep]
    actions = sql(clean_app, "SELECT action, rule_id, detail->>'count' AS n FROM decision_log ORDER BY id")
    assert actions == [{"action": "rule_delete", "rule_id": single, "n": None},
                       {"action": "rule_delete", "rule_id": None, "n": "3"}]
    assert reannotations == [pid, pid]


def test_export_is_an_injection_safe_attachment(admin_client, clean_app):
    pid = default_project(clean_app)
    add_rule(clean_app, pid, "=HYPERLINK(\"http://evil\")", "PATTERN", confidence=-1)
    add_rule(clean_app, pid, "@SUM(A1)", "PATTERN", confidence=0)
    add_rule(clean_app, pid, "<script>alert(1)</script>", "PATTERN", confidence=1)
    response = admin_client.get(f"/rules/{pid}/export.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"].startswith("attachment;")
    text = response.get_data(as_text=True)
    assert text.startswith("\ufefftype,condition,decision,label,author,confidence,case_sensitive\r\n")
    assert "PATTERN,\"'=HYPERLINK(\"\"http://evil\"\")\",PRIVATE,,,-1,true" in text
    assert "PATTERN,'@SUM(A1),SUSPICIOUS,,,0,true" in text


def test_condition_is_escaped_in_html(admin_client, clean_app):
    pid = default_project(clean_app)
    add_rule(clean_app, pid, "<script>alert(1)</script>", "PATTERN", confidence=1)
    page = admin_client.get("/rules/").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_csv_round_trip_into_another_project(admin_client, clean_app, reannotations):
    pid = default_project(clean_app)
    make_account(clean_app, "author@example.org", "USER")
    person = add_label(clean_app, pid, "person")
    add_rule(clean_app, pid, "Jan Novák", confidence=-1, label_id=person,
             author_id=account_id(clean_app, "author@example.org"))
    me = account_id(clean_app, "admin@example.org")
    add_rule(clean_app, pid, "jan", "LEMMA", confidence=0.25, case_sensitive=False, author_id=me)
    add_rule(clean_app, pid, "-5 \"quoted\", 'x", "PATTERN", confidence=-1000, author_id=me)
    add_rule(clean_app, pid, "'=tricky", "PATTERN", confidence=3, author_id=me)
    add_rule(clean_app, pid, "PER", "NE_TYPE", confidence=0)  # author deleted: the importer becomes the author
    exported = admin_client.get(f"/rules/{pid}/export.csv").data
    target = new_project(clean_app, "Target")
    response = upload(admin_client, target, exported)
    assert response.status_code == 200 and "unknown label" in response.get_data(as_text=True)
    assert rules_of(clean_app, target) == set()
    response = upload(admin_client, target, exported, create_labels=True)
    assert response.status_code == 302
    page = admin_client.get(response.headers["Location"]).get_data(as_text=True)
    assert "5 created, 0 updated, 0 unchanged" in page and "1 labels created" in page
    sql(clean_app, "UPDATE rule SET author_id = %s WHERE author_id IS NULL", (me,))
    assert rules_of(clean_app, target) == rules_of(clean_app, pid)
    # the author column keeps existing accounts; the same file again changes nothing
    response = upload(admin_client, target, exported)
    assert "0 created, 0 updated, 5 unchanged" in admin_client.get(response.headers["Location"]).get_data(as_text=True)
    assert reannotations == [target, target]


def test_import_counts_upserts_and_authors(admin_client, clean_app, reannotations):
    pid = default_project(clean_app)
    add_rule(clean_app, pid, "Praha", confidence=1)
    add_rule(clean_app, pid, "Brno", confidence=1)
    csv_text = ("type,condition,decision,label,author\n"
                "WORD_TYPE,Praha,PRIVATE,,\n"              # updated
                "WORD_TYPE,Brno,PUBLIC,,\n"                # unchanged
                "word_type,\"  Jan   Novák, \",public,,ghost@example.org\n"  # created; spaces normalized
                "\n"
                "NE_TYPE,PER,suspicious,,admin@example.org\n")  # created
    response = upload(admin_client, pid, csv_text)
    assert response.status_code == 302
    page = admin_client.get(response.headers["Location"]).get_data(as_text=True)
    assert "2 created, 1 updated, 1 unchanged" in page and "1 rules named an unknown author" in page
    me = "admin@example.org"
    assert rules_of(clean_app, pid) == {("WORD_TYPE", "Praha", True, -1.0, None, me),
                                        ("WORD_TYPE", "Brno", True, 1.0, None, None),
                                        ("WORD_TYPE", "Jan Novák ,", True, 1.0, None, me),
                                        ("NE_TYPE", "PER", True, 0.0, None, me)}
    assert sql(clean_app, "SELECT action, detail->>'created' AS created FROM decision_log") == \
        [{"action": "rule_import", "created": "2"}]


def test_import_reports_every_bad_line_and_imports_nothing(admin_client, clean_app, reannotations):
    pid = default_project(clean_app)
    add_label(clean_app, pid, "person")
    csv_text = ("type,condition,decision,label,author,confidence\n"
                "WORD_TYPE,ok,PUBLIC,person,,\n"              # 2 fine
                "SPELL,x,PUBLIC,,,\n"                         # 3 unknown type
                "WORD_TYPE,,PUBLIC,,,\n"                      # 4 empty condition
                f"PATTERN,{'x' * 1001},PUBLIC,,,\n"           # 5 too long
                "WORD_TYPE,y,MAYBE,,,\n"                      # 6 bad decision
                "WORD_TYPE,z,PUBLIC,nobody,,\n"               # 7 unknown label
                "WORD_TYPE,ok,PRIVATE,,,\n"                   # 8 duplicate of 2
                "WORD_TYPE,w,PUBLIC,,,-1\n"                   # 9 contradiction
                "WORD_TYPE,v,,,,nan\n"                        # 10 bad confidence
                "WORD_TYPE,u,PUBLIC\n"                        # 11 column count
                "WORD_TYPE,t,,,,\n")                          # 12 no decision
    response = upload(admin_client, pid, csv_text)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    errors = re.findall(r"<li>line (\d+): ", page)
    assert errors == [str(n) for n in range(3, 13)]
    assert "Nothing was imported" in page and "unknown type" in page and "duplicate of line 2" in page
    assert rules_of(clean_app, pid) == set() and reannotations == []


def test_malformed_files_never_crash(admin_client, clean_app):
    pid = default_project(clean_app)
    cases = {
        b"": "the file is empty",
        b"name,category,replacement\nx,y,z\n": "wrong header",
        b"type,condition,decision,label,author,colour\n": "wrong header",
        b"type,condition,decision,label,author\nWORD_TYPE,caf\xe9,PUBLIC,,\nWORD_TYPE,b\xff,PUBLIC,,\n":
            "line 2: not valid UTF-8",
        b"type,condition,decision,label,author\nWORD_TYPE,a\x00b,PUBLIC,,\n": "line 2: contains a NUL",
        b"type,condition,decision,label,author\nWORD_TYPE,\"unterminated,PUBLIC,,\n": "malformed CSV",
        b"type,condition,decision,label,author\n": "no rules",
        b"type,condition,decision,label,author\nWORD_TYPE,a\x07b,PUBLIC,,\n": "control characters",
        b"\x89PNG\r\n\x1a\n\x00\x00": "",
    }
    for content, message in cases.items():
        response = upload(admin_client, pid, content)
        assert response.status_code == 200, content
        assert message in response.get_data(as_text=True), content
    # no file at all, and a forged project
    assert admin_client.post(f"/rules/{pid}/import", data={"csrf_token": csrf_token(admin_client, "/")}
                             ).status_code == 200
    assert upload(admin_client, 987654, b"type,condition,decision,label,author\n").status_code == 404
    assert sql(clean_app, "SELECT count(*) AS n FROM rule") == [{"n": 0}]


def test_utf8_bom_and_crlf_are_accepted(admin_client, clean_app, reannotations):
    pid = default_project(clean_app)
    content = "\ufeffType,Condition,Decision,Label,Author\r\nLEMMA,Dvořák,PRIVATE,,\r\n".encode()
    assert upload(admin_client, pid, content).status_code == 302
    assert rules_of(clean_app, pid) == {("LEMMA", "Dvořák", True, -1.0, None, "admin@example.org")}


@given(st.text(max_size=12))
def test_cell_escaping_round_trips(value):
    escaped = escape_cell(value)
    assert unescape_cell(escaped) == value
    if escaped and escaped[0] in "=+-@\t\r":
        assert re.fullmatch(r"[+-]?(\d+(\.\d*)?|\.\d+)", escaped)  # only plain numbers stay unprefixed
