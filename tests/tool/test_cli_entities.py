"""``psan-tool entities``: the stable CLI contract (JSONL in, one entity-linked line per document out)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from psan.tool.cli import main


def _corpus(tmp_path: Path, docs: list[dict]) -> str:
    path = tmp_path / "corpus.jsonl"
    path.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs), encoding="utf-8")
    return str(path)


def _spans(text: str, names: list[tuple[str, str]]) -> list[dict]:
    spans, pos = [], 0
    for name, label in names:
        start = text.index(name, pos)
        spans.append({"start": start, "end": start + len(name), "label": label, "entity": None, "identifier": None})
        pos = start + len(name)
    return spans


def test_entities_prints_one_line_per_document(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    en = "Jonathan Harper met Acme Corp. Later Mr. Harper left Acme Corp and Harper wrote."
    cs = "Jan Novák přišel. Viděli jsme Jana Nováka s paní Svobodovou a mluvili s panem Novákem."
    docs = [{"id": "en-1", "lang": "en", "text": en,
             "spans": _spans(en, [("Jonathan Harper", "PERSON"), ("Acme Corp", "ORG"), ("Mr. Harper", "PERSON"),
                                  ("Acme Corp", "ORG"), ("Harper", "PERSON")])},
            {"id": "cs-1", "lang": "cs", "text": cs,
             "spans": _spans(cs, [("Jan Novák", "P"), ("Jana Nováka", "P"), ("Svobodovou", "ps"),
                                  ("Novákem", "ps")])},
            {"id": "empty", "lang": "en", "text": "nothing", "spans": []}]
    assert main(["entities", _corpus(tmp_path, docs)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["id"] for r in lines] == ["en-1", "cs-1", "empty"]
    en_ids = [m["entity"] for m in lines[0]["mentions"]]
    assert [(m["start"], m["end"]) for m in lines[0]["mentions"]] == [(s["start"], s["end"]) for s in docs[0]["spans"]]
    assert en_ids[0] == en_ids[2] == en_ids[4] and en_ids[1] == en_ids[3] and en_ids[0] != en_ids[1]
    cs_ids = [m["entity"] for m in lines[1]["mentions"]]
    assert cs_ids[0] == cs_ids[1] == cs_ids[3] != cs_ids[2]
    assert lines[2]["mentions"] == []


def test_lang_override_changes_lemmatization(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    text = "Jan Novák a Jana Nováka"
    doc = {"id": 7, "lang": "en", "text": text, "spans": _spans(text, [("Jan Novák", "PER"), ("Jana Nováka", "PER")])}
    path = _corpus(tmp_path, [doc])
    assert main(["entities", path]) == 0
    ids = [m["entity"] for m in json.loads(capsys.readouterr().out)["mentions"]]
    assert ids[0] != ids[1]  # English: no Czech lemmas
    assert main(["entities", path, "--lang", "cs"]) == 0
    ids = [m["entity"] for m in json.loads(capsys.readouterr().out)["mentions"]]
    assert ids[0] == ids[1]


@pytest.mark.parametrize(("content", "message"), [
    (b"\xff\xfe", "not valid UTF-8"),
    (b"{not json}\n", "corpus.jsonl:1: not valid JSON"),
    (b'{"id": "a", "text": "abc", "spans": [{"start": 2, "end": 9, "label": "X"}]}\n', "invalid offsets"),
    (b'{"id": "a", "text": "abc"}\n', 'needs a string "text" and a list "spans"'),
    (b"\n\n", "no documents"),
])
def test_bad_corpus_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture, content: bytes,
                                           message: str) -> None:
    path = tmp_path / "corpus.jsonl"
    path.write_bytes(content)
    assert main(["entities", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1
    assert message in captured.err


def test_missing_corpus(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["entities", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
