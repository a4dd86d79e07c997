"""psan-tool command line: every subcommand and output mode, bad inputs, where personal data goes."""
from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from psan.tool.cli import main
from psan.tool.release.output import restore

REPO = Path(__file__).resolve().parents[2]

CS_TEXT = ("Jan Novák bydlí v Praze, e-mail jan.novak@seznam.cz, telefon +420 603 123 456.\n"
           "Jeho rodné číslo je 736028/5163.\r\n")
EN_TEXT = "John Smith lives in London. Write to john.smith@example.com or call +44 20 7946 0958.\n"
CS_PRIVATE = ("jan.novak@seznam.cz", "+420 603 123 456", "736028/5163")
EN_PRIVATE = ("john.smith@example.com", "+44 20 7946 0958")


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    """in/cz.txt, in/sub/en.txt, in/empty.txt, in/notes.md (ignored: not .txt)."""
    root = tmp_path / "in"
    (root / "sub").mkdir(parents=True)
    (root / "cz.txt").write_bytes(CS_TEXT.encode())
    (root / "sub" / "en.txt").write_bytes(EN_TEXT.encode())
    (root / "empty.txt").write_bytes(b"")
    (root / "notes.md").write_text("not an input", encoding="utf-8")
    return root


def read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


def spans_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in read(path).splitlines()]


@pytest.mark.parametrize("mode", ["remove", "tag", "pseudonymize"])
def test_anonymize_modes_mirror_tree_and_hide_private_data(tree: Path, tmp_path: Path, mode: str) -> None:
    out = tmp_path / "out"
    spans = tmp_path / "spans.jsonl"
    code = main(["anonymize", str(tree), "--lang", "cs", "--mode", mode, "--out", str(out), "--quiet",
                 "--standoff", "--reason", "test run", "--spans-jsonl", str(spans), "--seed", "7"])
    assert code == 0
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == \
        ["cz.txt", "empty.txt", "sub/en.txt"]
    assert read(out / "empty.txt") == ""
    records = spans_of(spans)
    found = {r["text"] for r in records}
    assert set(CS_PRIVATE) <= found
    for r in records:  # offsets point into the original file
        original = CS_TEXT if r["file"] == "cz.txt" else EN_TEXT
        assert original[r["start"]:r["end"]] == r["text"]
        assert set(r) == {"file", "start", "end", "text", "type", "category", "source", "score"}
    cz = read(out / "cz.txt")
    for secret in (*CS_PRIVATE, "Novák"):
        assert secret not in cz
    assert "\r\n" in cz  # bytes outside regions are kept (no newline translation)
    for secret in EN_PRIVATE:
        assert secret not in read(out / "sub" / "en.txt")
    # standoff: next to, not inside, the output folder; restores the original exactly
    standoff_dir = tmp_path / "out.standoff"
    assert not list(out.rglob("*.json"))
    record = json.loads(read(standoff_dir / "cz.txt.json"))
    assert record["mode"] == mode
    assert restore(cz, record["standoff"]) == CS_TEXT
    en_record = json.loads(read(standoff_dir / "sub" / "en.txt.json"))
    assert restore(read(out / "sub" / "en.txt"), en_record["standoff"]) == EN_TEXT


def test_tag_mode_output_contains_no_detected_string(tree: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    spans = tmp_path / "spans.jsonl"
    assert main(["anonymize", str(tree / "cz.txt"), str(tree / "sub"), "--lang", "cs", "--out", str(out),
                 "--mode", "tag", "-q", "--spans-jsonl", str(spans)]) == 0
    outputs = {"cz.txt": read(out / "cz.txt"), "en.txt": read(out / "en.txt")}
    records = spans_of(spans)
    assert records
    for r in records:
        assert r["text"] not in outputs[r["file"]], r
    assert "[EMAIL]" in outputs["cz.txt"] and "[ID]" in outputs["cz.txt"]


def test_per_token_tags(tree: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["anonymize", str(tree / "cz.txt"), "--out", str(out), "--mode", "tag", "--per-token-tags", "-q"]) == 0
    assert read(out / "cz.txt").startswith("[OSOBA] [OSOBA] bydlí")


def test_standoff_dir_inside_output_is_refused(tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "out"
    code = main(["anonymize", str(tree), "--out", str(out), "--standoff-dir", str(out / "so"), "--reason", "test run",
                 "-q"])
    assert code == 2
    assert "must not be inside the output folder" in capsys.readouterr().err
    assert not out.exists()


def test_custom_standoff_dir(tree: Path, tmp_path: Path) -> None:
    out, so = tmp_path / "out", tmp_path / "private" / "so"
    assert main(["anonymize", str(tree / "cz.txt"), "--out", str(out), "--standoff-dir", str(so), "--reason",
                 "test run", "-q"]) == 0
    assert (so / "cz.txt.json").is_file()
    assert not (tmp_path / "out.standoff").exists()


def test_bad_inputs_are_reported_and_others_processed(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    root = tmp_path / "in"
    root.mkdir()
    (root / "good.txt").write_text(CS_TEXT, encoding="utf-8")
    (root / "binary.txt").write_bytes(b"\x00\x01\x02PNG\x00")
    (root / "latin1.txt").write_bytes("Dvořák café".encode("latin-1", errors="replace") + b"\xe9\xff")
    (root / "empty.txt").write_bytes(b"")
    empty_dir = tmp_path / "nothing"
    empty_dir.mkdir()
    missing = tmp_path / "missing.txt"
    out = tmp_path / "out"
    code = main(["anonymize", str(root), str(empty_dir), str(missing), "--out", str(out), "-q"])
    err = capsys.readouterr().err
    assert code == 2
    assert "Traceback" not in err
    assert f"{root / 'binary.txt'}: binary file" in err
    assert f"{root / 'latin1.txt'}: not valid UTF-8" in err
    assert f"{missing}: no such file or folder" in err
    assert f"{empty_dir}: folder contains no .txt file" in err
    assert sorted(p.name for p in out.iterdir()) == ["empty.txt", "good.txt"]
    assert "736028/5163" not in read(out / "good.txt")
    assert read(out / "empty.txt") == ""


def test_bad_pipeline_config(tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    cfg = tmp_path / "p.json"
    cfg.write_text(json.dumps({"ner": [{"kind": "nosuch"}]}), encoding="utf-8")
    assert main(["spans", str(tree), "--pipeline", str(cfg), "-q"]) == 2
    err = capsys.readouterr().err
    assert "unknown recognizer kind 'nosuch'" in err and "Traceback" not in err
    cfg.write_text("{broken", encoding="utf-8")
    assert main(["spans", str(tree), "--pipeline", str(cfg), "-q"]) == 2
    assert "cannot read pipeline config" in capsys.readouterr().err


def test_pipeline_config_file(tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    cfg = tmp_path / "p.json"
    cfg.write_text(json.dumps({"language": "cs", "tokenizer": "regex", "ner": [], "recognizers": ["patterns"]}),
                   encoding="utf-8")
    assert main(["spans", str(tree / "cz.txt"), "--pipeline", str(cfg), "-q"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {r["text"] for r in records} == set(CS_PRIVATE)  # no gazetteers: the names are not found


def test_spans_english_default_spacy(tree: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["spans", str(tree / "sub" / "en.txt"), "--lang", "en", "-q"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    by_text = {r["text"]: r for r in records}
    assert by_text["John Smith"]["source"] == "spacy" and by_text["John Smith"]["category"] == "PERSON"
    assert by_text["john.smith@example.com"]["type"] == "EMAIL"
    assert by_text["+44 20 7946 0958"]["type"] == "PHONE"


def test_recognize_writes_tagged_xml(tree: Path, tmp_path: Path) -> None:
    from psan.tool.formats.tagged_xml import from_xml
    xml_dir = tmp_path / "xml"
    assert main(["recognize", str(tree), "--lang", "cs", "--xml-out", str(xml_dir), "-q"]) == 0
    assert sorted(p.relative_to(xml_dir).as_posix() for p in xml_dir.rglob("*.xml")) == \
        ["cz.xml", "empty.xml", "sub/en.xml"]
    doc = from_xml(read(xml_dir / "cz.xml"))
    assert doc.text == CS_TEXT
    assert {doc.span_text(e.first_token, e.end_token) for e in doc.entities} >= set(CS_PRIVATE)


def test_nametag_czech_model(tree: Path, tmp_path: Path, nametag_model: Callable[[str], str]) -> None:
    model = nametag_model("czech-cnec2-trivial.ner")
    out = tmp_path / "out"
    spans = tmp_path / "spans.jsonl"
    assert main(["anonymize", str(tree / "cz.txt"), "--nametag-model", model, "--out", str(out), "-q",
                 "--spans-jsonl", str(spans)]) == 0
    assert "nametag" in {r["source"] for r in spans_of(spans)}
    text = read(out / "cz.txt")
    assert "Novák" not in text and "Praze" not in text and "736028/5163" not in text


def test_nametag_models_dir_default_config(tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture,
                                           nametag_model: Callable[[str], str]) -> None:
    models_dir = str(Path(nametag_model("czech-cnec2-trivial.ner")).parent)
    assert main(["spans", str(tree / "cz.txt"), "--lang", "cs", "--models-dir", models_dir, "-q"]) == 0
    assert '"source": "nametag"' in capsys.readouterr().out


def test_missing_nametag_model(tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["spans", str(tree), "--nametag-model", str(tmp_path / "no.ner"), "-q"]) == 2
    err = capsys.readouterr().err
    assert "no.ner" in err and "Traceback" not in err


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["anonymize", "x.txt", "--mode", "blur", "--out", "o"])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        main([])
    assert exc.value.code == 2


def test_subprocess_python_m(tree: Path, tmp_path: Path) -> None:
    """``python -m psan.tool`` as a real process: exit status, stderr message, no traceback, files written."""
    (tree / "broken.txt").write_bytes(b"ok \xc3\x28 bad")
    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, "-m", "psan.tool", "anonymize", str(tree), "--lang", "cs", "--mode", "tag", "--out", str(out),
         "--standoff", "--reason", "test run"],
        cwd=REPO, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 2, proc.stderr
    assert "broken.txt: not valid UTF-8" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert "\r" not in proc.stderr  # no progress bar when stderr is not a terminal
    assert (out / "cz.txt").is_file() and (out / "sub" / "en.txt").is_file()
    assert not (out / "broken.txt").exists()
    assert (tmp_path / "out.standoff" / "cz.txt.json").is_file()


def test_entity_regions_merge_nested_entities() -> None:
    from psan.tool.decisions.regions import entity_regions
    from psan.tool.text.document import Category, Document, Entity, Token
    text = "Jan Novák a Praha"
    tokens = [Token(0, 0, 3), Token(1, 4, 9), Token(2, 10, 11), Token(3, 12, 17)]
    doc = Document(text, tokens, [], [Entity(0, 2, "P", Category.PERSON), Entity(0, 1, "pf", Category.PERSON),
                                      Entity(1, 2, "ps", Category.PERSON), Entity(3, 4, "gu", Category.LOCATION)])
    regions = entity_regions(doc)
    assert [(r.start, r.end, r.category, r.type, r.label) for r in regions] == \
        [(0, 9, Category.PERSON, "P", None), (12, 17, Category.LOCATION, "gu", None)]
    assert [r.start for r in entity_regions(doc, [Category.LOCATION])] == [12]


def test_a_key_is_written_only_with_a_reason_and_every_write_is_logged(tree: Path, tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture) -> None:
    out, so = tmp_path / "out", tmp_path / "so"
    for reason in ([], ["--reason", " "], ["--reason", "ok"]):
        assert main(["anonymize", str(tree), "--lang", "cs", "--out", str(out), "--standoff-dir", str(so), "-q",
                     *reason]) == 2
        assert "give --reason" in capsys.readouterr().err
    assert not list(out.rglob("*.txt")) and not (so / "key-access.jsonl").exists()
    log = tmp_path / "audit" / "keys.jsonl"
    assert main(["anonymize", str(tree), "--lang", "cs", "--mode", "pseudonymize", "--out", str(out),
                 "--standoff-dir", str(so), "--reason", "release to study X", "--access-log", str(log), "-q"]) == 0
    (entry,) = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert entry["action"] == "export" and entry["reason"] == "release to study X" and entry["who"]
    assert entry["files"] == 3 and entry["when"]
    # the restore it makes possible is logged too, beside the key unless told otherwise
    key = so / "cz.txt.json"
    assert main(["depseudonymize", str(out / "cz.txt"), "--key", str(key)]) == 2
    assert main(["depseudonymize", str(out / "cz.txt"), "--key", str(key), "--reason", "appeal"]) == 0
    assert capsys.readouterr().out == CS_TEXT
    (restored,) = [json.loads(line) for line in Path(f"{key}.access.jsonl").read_text(encoding="utf-8").splitlines()]
    assert restored["action"] == "depseudonymize" and restored["reason"] == "appeal"
