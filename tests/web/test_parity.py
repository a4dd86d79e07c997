"""One implementation: the web app's pre-annotation and pseudonymized output equal psan-tool's on real data.

Why a test on real text: the rules of issue "one identity per entity" (glued spans cut, one category per
string, variants and derived identifiers following their entity) live in psan.tool and run in both the
worker (pre-annotation, release rendering) and the command line; a transcript excerpt of the shared ELITR
data exercises speaker slots, fillers and repeated names.  The worker is real (Celery, PostgreSQL, NER).
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from psan.tool.cli import main as psan_tool
from tests.helpers import csrf_token, default_project, sql

EXCERPT_CHARS = 3000


def _excerpt(shared_dir: Path) -> str:
    path = shared_dir / "data" / "elitr-dev.jsonl"
    if not path.is_file():
        pytest.skip(f"{path} missing")
    with open(path, encoding="utf-8") as fh:
        text = json.loads(fh.readline())["text"]
    return text[:text.rindex("\n", 0, EXCERPT_CHARS) + 1]


def _upload(app, client, text: str) -> int:
    token = csrf_token(client, "/documents/upload")
    response = client.post("/documents/upload", content_type="multipart/form-data", data={
        "csrf_token": token, "project": str(default_project(app)), "language": "en", "text": text,
        "name": "meeting.txt"})
    assert response.status_code == 302, response.get_data(as_text=True)[-400:]
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        rows = sql(app, "SELECT id, status::text AS status FROM document")
        if rows and rows[0]["status"] in ("PRE_ANNOTATED", "DONE", "FAILED"):
            break
        time.sleep(0.5)
    assert rows[0]["status"] in ("PRE_ANNOTATED", "DONE"), rows
    return rows[0]["id"]


@pytest.mark.worker
def test_web_pre_annotation_and_output_equal_the_command_lines(clean_app, admin_client, celery_worker,
                                                                 shared_dir, tmp_path, capsys):
    app = clean_app
    sql(app, "DELETE FROM entity")
    text = _excerpt(shared_dir)
    doc = _upload(app, admin_client, text)
    web = {(r["start_char"], r["end_char"], r["category"]) for r in sql(
        app, "SELECT t1.start_char, t2.end_char, n.category::text AS category FROM named_entity n "
             "JOIN token t1 ON t1.document_id = n.document_id AND t1.idx = n.first_token "
             "JOIN token t2 ON t2.document_id = n.document_id AND t2.idx = n.end_token - 1 "
             "WHERE n.document_id = %s", (doc,))}
    (tmp_path / "meeting.txt").write_text(text, encoding="utf-8", newline="")
    assert psan_tool(["spans", str(tmp_path / "meeting.txt"), "--lang", "en", "-q"]) == 0
    cli = {(r["start"], r["end"], r["category"]) for r in map(json.loads, capsys.readouterr().out.splitlines())}
    assert web and web == cli
    assert not any(":" in text[s:e] or "\n" in text[s:e] for s, e, _ in cli)  # no span swallows a speaker slot
    # every entity private: the worker's release rendering equals psan-tool anonymize with the project's seed
    pid = default_project(app)
    sql(app, "UPDATE rule SET confidence = -1 WHERE project_id = %s AND type = 'NE_TYPE'", (pid,))
    seed = sql(app, "SELECT seed FROM project WHERE id = %s", (pid,))[0]["seed"]
    web_out = admin_client.get(f"/documents/{doc}/download/pseudonymize").get_data(as_text=True)
    assert psan_tool(["anonymize", str(tmp_path / "meeting.txt"), "--lang", "en", "--mode", "pseudonymize",
                      "--out", str(tmp_path / "out"), "--seed", seed, "-q"]) == 0
    assert web_out != text and len(web_out.splitlines()) == len(text.splitlines())
    assert web_out == (tmp_path / "out" / "meeting.txt").read_text(encoding="utf-8")
