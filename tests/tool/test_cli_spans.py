"""``psan-tool --spans-in FORMAT:PATH`` / ``--spans-out FORMAT:PATH``: given spans are masked too (or alone),
psan's spans go out in another tool's format and come back in equal; bad spans files are a clean error."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from psan.tool.cli import main
from psan.tool.formats.annotations import read_file

TEXT = "Pan Jan Novák bydlí v Praze, telefon +420 777 123 456.\n"


@pytest.fixture()
def setup(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text(TEXT, encoding="utf-8")
    cfg = tmp_path / "p.json"
    cfg.write_text(json.dumps({"language": "cs", "tokenizer": "regex", "ner": [], "recognizers": ["patterns"]}),
                   encoding="utf-8")
    return tmp_path, cfg


def test_given_spans_are_masked_besides_psans_own(setup) -> None:
    tmp, cfg = setup
    (tmp / "a.ann").write_text("T1\tPER 4 13\tJan Novák\nT2\tGPE 22 27\tPraze\n", encoding="utf-8")
    out = tmp / "out"
    assert main(["anonymize", str(tmp / "in" / "a.txt"), "--pipeline", str(cfg), "--mode", "tag", "--out", str(out),
                 "--spans-in", f"brat:{tmp / 'a.ann'}", "-q"]) == 0
    result = (out / "a.txt").read_text(encoding="utf-8")
    assert "Novák" not in result and "Praze" not in result and "777" not in result


def test_replace_mode_uses_the_given_spans_alone(setup) -> None:
    tmp, cfg = setup
    (tmp / "p.json.spans").write_text(json.dumps([{"entity_type": "PERSON", "start": 4, "end": 13, "score": 0.9}]),
                                      encoding="utf-8")
    out = tmp / "out"
    assert main(["anonymize", str(tmp / "in" / "a.txt"), "--pipeline", str(cfg), "--mode", "tag", "--out", str(out),
                 "--spans-in", f"presidio:{tmp / 'p.json.spans'}", "--spans-in-mode", "replace", "-q"]) == 0
    result = (out / "a.txt").read_text(encoding="utf-8")
    assert "Novák" not in result and "777 123 456" in result


@pytest.mark.parametrize("fmt", ["brat", "webanno", "xmi", "labelstudio", "conll", "conllu", "presidio", "jsonl"])
def test_spans_out_then_in_gives_the_same_spans(setup, fmt: str, capsys: pytest.CaptureFixture) -> None:
    tmp, cfg = setup
    target = tmp / ("folder" if fmt in ("brat", "webanno", "xmi") else "spans.out")
    assert main(["spans", str(tmp / "in"), "--pipeline", str(cfg), "--spans-out", f"{fmt}:{target}", "-q"]) == 0
    first = sorted((r["start"], r["end"], r["category"]) for r in map(json.loads, capsys.readouterr().out.splitlines()))
    assert first
    assert main(["spans", str(tmp / "in"), "--pipeline", str(cfg), "--spans-in", f"{fmt}:{target}",
                 "--spans-in-mode", "replace", "-q"]) == 0
    again = sorted((r["start"], r["end"], r["category"]) for r in map(json.loads, capsys.readouterr().out.splitlines()))
    assert again == first
    if fmt == "brat":
        assert (target / "a.txt").read_text(encoding="utf-8") == TEXT
        assert read_file("brat", (target / "a.ann").read_bytes(), "a.ann")[0].spans


@pytest.mark.parametrize(("spec", "message"), [
    ("nonsense:x", "unknown annotation format 'nonsense'"),
    ("brat", "expected FORMAT:PATH"),
])
def test_bad_spec_is_a_usage_error(setup, spec: str, message: str, capsys: pytest.CaptureFixture) -> None:
    tmp, cfg = setup
    with pytest.raises(SystemExit) as exit_info:
        main(["spans", str(tmp / "in"), "--pipeline", str(cfg), "--spans-in", spec])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_malformed_spans_file_is_reported_and_the_file_not_written(setup, capsys: pytest.CaptureFixture) -> None:
    tmp, cfg = setup
    (tmp / "bad.json").write_text("[{\"entity_type\": \"PERSON\", \"start\": 4, \"end\": 400}]", encoding="utf-8")
    out = tmp / "out"
    assert main(["anonymize", str(tmp / "in"), "--pipeline", str(cfg), "--out", str(out),
                 "--spans-in", f"presidio:{tmp / 'bad.json'}", "-q"]) == 2
    assert "outside the text" in capsys.readouterr().err
    assert not (out / "a.txt").exists()


def test_help_shows_the_label_table(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit):
        main(["spans", "--help"])
    out = capsys.readouterr().out
    assert "PER, PERS, PERSON -> PERSON" in out and "any other label -> OTHER" in out


def test_spans_out_inside_the_anonymized_output_is_refused(setup, capsys: pytest.CaptureFixture) -> None:
    tmp, cfg = setup
    out = tmp / "out"
    assert main(["anonymize", str(tmp / "in"), "--pipeline", str(cfg), "--out", str(out),
                 "--spans-out", f"brat:{out / 'spans'}", "-q"]) == 2
    assert "must not be inside the output folder" in capsys.readouterr().err
    assert not out.exists() or not any(out.rglob("*.ann"))
