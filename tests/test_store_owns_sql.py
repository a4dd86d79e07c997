"""psan.store owns the SQL: the page packages, accounts and tokens only call store functions.

Why a test: SQL spread over views had to be gathered into one home per concept once; this keeps
new statements from creeping back into the web layer, and into the end-to-end measurement (ner_eval),
which reads the app's tables through the store too.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from psan.store.admin.rule_admin import RuleSelection, like_pattern, where_clause
from psan.web.ids import MAX_ID, valid_id

PSAN = Path(__file__).resolve().parent.parent / "psan"
NER_EVAL = PSAN.parent / "ner_eval"
WEB_MODULES = ["identity", "commands", "runtime/db.py", "runtime/settings.py", "runtime/migrate.py", "labels", "rules",
               "api", "client", "documents", "projects", "main", "users", "auth", "web", "annotate", "workspace"]
SQL_CALL = re.compile(r"db\.(query|query_one|execute)\(|\.cursor\(|\.execute\(|execute_values")
SQL_TEXT = re.compile(r"[\"'](SELECT|INSERT|UPDATE|DELETE|SAVEPOINT|CREATE) ")


def _files():
    for name in WEB_MODULES:
        path = PSAN / name
        yield from (sorted(path.rglob("*.py")) if path.is_dir() else [path])
    yield from sorted(NER_EVAL.rglob("*.py"))


@pytest.mark.parametrize("path", list(_files()), ids=lambda p: str(p.relative_to(PSAN.parent)))
def test_no_sql_outside_the_store(path):
    text = path.read_text(encoding="utf-8")
    assert not SQL_CALL.search(text), f"{path.name} runs SQL itself: move the statement into psan/store"
    assert not SQL_TEXT.search(text), f"{path.name} holds SQL text: move it into psan/store"


def test_rule_selection_where_is_parameterized():
    where, params = where_clause(7, RuleSelection(type="WORD_TYPE", q="50%_a\\", decision="private", label="none",
                                            author="3"))
    assert where == ("r.project_id = %s AND r.annotation_id IS NULL AND r.type = %s AND r.condition ILIKE %s "
                     "ESCAPE '\\' AND r.confidence < 0 AND r.label_id IS NULL AND r.author_id = %s")
    assert params == [7, "WORD_TYPE", "%50\\%\\_a\\\\%", 3]
    assert where_clause(7, RuleSelection(label="12")) == ("r.project_id = %s AND r.annotation_id IS NULL "
                                                    "AND r.label_id = %s", [7, 12])
    assert like_pattern("plain") == "%plain%"


@pytest.mark.parametrize(("value", "expected"), [("5", 5), (" 42 ", 42), (0, None), ("-1", None), ("x", None),
                                                 (None, None), (str(MAX_ID), MAX_ID), (str(MAX_ID + 1), None)])
def test_valid_id(value, expected):
    assert valid_id(value) == expected
