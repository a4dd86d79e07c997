"""Every psan-tool error is one clear line on stderr and exit status 2, never a traceback.

Each subcommand is run with missing, unreadable and malformed inputs.  Tests run as root, so
"unreadable" is a path root cannot read as a file either: a folder, or bytes that are not UTF-8.
"""
from __future__ import annotations

import json
import subprocess  # nosec B404
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from psan.tool.cli import main

TEXT = "Write to john.smith@example.com.\n"
#: regex tokenizer + patterns: no model is loaded, so the whole matrix runs in about a second
LIGHT_PIPELINE = {"language": "en", "tokenizer": "regex", "ner": [], "recognizers": ["patterns"]}


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, Path]:
    """Named paths: a good text, a folder, a binary/invalid-UTF-8 file, malformed JSON, a key, …"""
    (tmp_path / "in").mkdir()
    paths = {
        "text": tmp_path / "in" / "ok.txt",
        "missing": tmp_path / "no" / "such" / "file.txt",
        "folder": tmp_path / "a-folder",
        "binary": tmp_path / "binary.txt",
        "latin1": tmp_path / "latin1.txt",
        "broken_json": tmp_path / "broken.json",
        "list_json": tmp_path / "list.json",
        "unknown_component": tmp_path / "unknown.json",
        "pipeline": tmp_path / "pipeline.json",
        "a_file": tmp_path / "plain-file",
        "key": tmp_path / "key.json",
        "csv_key": tmp_path / "key.csv",
    }
    paths["text"].write_text(TEXT, encoding="utf-8")
    paths["folder"].mkdir()
    paths["binary"].write_bytes(b"\x00\x01PNG\x00\xff")
    paths["latin1"].write_bytes("Dvořák".encode() + b" caf\xe9\n")
    paths["broken_json"].write_text('{"entries": [', encoding="utf-8")
    paths["list_json"].write_text("[1, 2]", encoding="utf-8")
    paths["unknown_component"].write_text(json.dumps({**LIGHT_PIPELINE, "recognizers": ["nosuch"]}),
                                          encoding="utf-8")
    paths["pipeline"].write_text(json.dumps(LIGHT_PIPELINE), encoding="utf-8")
    paths["a_file"].write_text("x", encoding="utf-8")
    paths["key"].write_text(json.dumps({"entries": [{"original_start": 0, "original_end": 3,
                                                     "output_start": 0, "output_end": 3, "original_text": "Bob",
                                                     "replacement": "Tom", "document": "1"}]}), encoding="utf-8")
    paths["csv_key"].write_text("a,b\n1,2\n", encoding="utf-8")
    return paths


def _anonymize(*extra: str) -> Callable[[dict[str, Path], Path], list[str]]:
    def build(f: dict[str, Path], tmp: Path) -> list[str]:
        args = ["anonymize", str(f["text"]), "--out", str(tmp / "out"), "--pipeline", str(f["pipeline"]), "-q"]
        return args + [a.format(**{k: str(v) for k, v in f.items()}) for a in extra]
    return build


def _with(command: list[str]) -> Callable[[dict[str, Path], Path], list[str]]:
    def build(f: dict[str, Path], tmp: Path) -> list[str]:
        return [a.format(tmp=tmp, **{k: str(v) for k, v in f.items()}) for a in command]
    return build


#: the subcommand with the reason every de-pseudonymization must give
DEPSEUDONYMIZE = ("depseudonymize", "--reason", "audit check")

CASES = {
    # anonymize: inputs, output folders, side files, pipeline options, usage
    "anonymize-missing-input": _with(["anonymize", "{missing}", "--out", "{tmp}/out", "-q"]),
    "anonymize-folder-without-txt": _with(["anonymize", "{folder}", "--out", "{tmp}/out", "-q"]),
    "anonymize-binary-input": _with(["anonymize", "{binary}", "--out", "{tmp}/out", "-q"]),
    "anonymize-invalid-utf8-input": _with(["anonymize", "{latin1}", "--out", "{tmp}/out", "-q"]),
    "anonymize-out-is-a-file": _with(["anonymize", "{text}", "--out", "{a_file}", "--pipeline", "{pipeline}"]),
    "anonymize-out-below-a-file": _with(["anonymize", "{text}", "--out", "{a_file}/sub", "--pipeline",
                                         "{pipeline}"]),
    "anonymize-spans-in-missing-folder": _anonymize("--spans-jsonl", "{missing}"),
    "anonymize-spans-is-a-folder": _anonymize("--spans-jsonl", "{folder}"),
    "anonymize-standoff-dir-is-a-file": _anonymize("--standoff-dir", "{a_file}", "--reason", "test run"),
    "anonymize-pipeline-missing": _with(["anonymize", "{text}", "--out", "{tmp}/out", "--pipeline", "{missing}"]),
    "anonymize-pipeline-folder": _with(["anonymize", "{text}", "--out", "{tmp}/out", "--pipeline", "{folder}"]),
    "anonymize-pipeline-binary": _with(["anonymize", "{text}", "--out", "{tmp}/out", "--pipeline", "{binary}"]),
    "anonymize-pipeline-malformed": _with(["anonymize", "{text}", "--out", "{tmp}/out", "--pipeline",
                                           "{broken_json}"]),
    "anonymize-pipeline-not-object": _with(["anonymize", "{text}", "--out", "{tmp}/out", "--pipeline",
                                            "{list_json}"]),
    "anonymize-pipeline-unknown-component": _with(["anonymize", "{text}", "--out", "{tmp}/out", "--pipeline",
                                                   "{unknown_component}"]),
    "anonymize-nametag-model-missing": _with(["anonymize", "{text}", "--out", "{tmp}/out", "--nametag-model",
                                              "{missing}"]),
    "anonymize-nametag-model-folder": _with(["anonymize", "{text}", "--out", "{tmp}/out", "--nametag-model",
                                             "{folder}"]),
    "anonymize-nametag-model-malformed": _with(["anonymize", "{text}", "--out", "{tmp}/out", "--nametag-model",
                                                "{binary}"]),
    "anonymize-models-dir-missing": _with(["anonymize", "{text}", "--out", "{tmp}/out", "--models-dir",
                                           "{missing}"]),
    "anonymize-batch-size-zero": _anonymize("--batch-size", "0"),
    "anonymize-batch-size-not-a-number": _anonymize("--batch-size", "many"),
    "anonymize-unknown-mode": _anonymize("--mode", "blur"),
    "anonymize-no-out": _with(["anonymize", "{text}"]),
    # recognize
    "recognize-missing-input": _with(["recognize", "{missing}", "--xml-out", "{tmp}/xml", "-q"]),
    "recognize-binary-input": _with(["recognize", "{binary}", "--xml-out", "{tmp}/xml", "-q"]),
    "recognize-xml-out-is-a-file": _with(["recognize", "{text}", "--xml-out", "{a_file}", "--pipeline",
                                          "{pipeline}"]),
    "recognize-pipeline-malformed": _with(["recognize", "{text}", "--xml-out", "{tmp}/xml", "--pipeline",
                                           "{broken_json}"]),
    "recognize-no-xml-out": _with(["recognize", "{text}"]),
    # spans
    "spans-missing-input": _with(["spans", "{missing}", "-q"]),
    "spans-folder-without-txt": _with(["spans", "{folder}", "-q"]),
    "spans-invalid-utf8-input": _with(["spans", "{latin1}", "-q"]),
    "spans-pipeline-malformed": _with(["spans", "{text}", "--pipeline", "{broken_json}"]),
    "spans-no-input": _with(["spans"]),
    # depseudonymize
    "depseudonymize-missing-output": _with([*DEPSEUDONYMIZE, "{missing}", "--key", "{key}"]),
    "depseudonymize-output-folder": _with([*DEPSEUDONYMIZE, "{folder}", "--key", "{key}"]),
    "depseudonymize-output-invalid-utf8": _with([*DEPSEUDONYMIZE, "{latin1}", "--key", "{key}"]),
    "depseudonymize-missing-key": _with([*DEPSEUDONYMIZE, "{text}", "--key", "{missing}"]),
    "depseudonymize-key-folder": _with([*DEPSEUDONYMIZE, "{text}", "--key", "{folder}"]),
    "depseudonymize-key-binary": _with([*DEPSEUDONYMIZE, "{text}", "--key", "{binary}"]),
    "depseudonymize-key-malformed": _with([*DEPSEUDONYMIZE, "{text}", "--key", "{broken_json}"]),
    "depseudonymize-key-not-object": _with([*DEPSEUDONYMIZE, "{text}", "--key", "{list_json}"]),
    "depseudonymize-csv-key-malformed": _with([*DEPSEUDONYMIZE, "{text}", "--key", "{csv_key}"]),
    "depseudonymize-key-does-not-fit": _with([*DEPSEUDONYMIZE, "{text}", "--key", "{key}"]),
    "depseudonymize-unknown-document": _with([*DEPSEUDONYMIZE, "{text}", "--key", "{key}", "--document", "9"]),
    "depseudonymize-no-key": _with([*DEPSEUDONYMIZE, "{text}"]),
    "depseudonymize-no-reason": _with(["depseudonymize", "{text}", "--key", "{key}"]),
    "depseudonymize-blank-reason": _with(["depseudonymize", "{text}", "--key", "{key}", "--reason", "  "]),
    # the command itself
    "no-subcommand": _with([]),
    "unknown-subcommand": _with(["blur", "{text}"]),
}


def run(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse usage errors
        return exc.code if isinstance(exc.code, int) else 1


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_error_is_one_line_and_exit_2(case: str, files: dict[str, Path], tmp_path: Path,
                                            capfd: pytest.CaptureFixture) -> None:
    argv = CASES[case](files, tmp_path)
    status = run(argv)
    err = capfd.readouterr().err
    assert status == 2, (argv, err)
    # a pipeline notice ("no NER model for language …") may precede the error; the error itself is one line
    lines = [line for line in err.strip().splitlines() if not line.startswith("psan-tool: warning:")]
    assert len(lines) == 1, err
    assert lines[0].startswith("psan-tool") and "error" in lines[0]
    assert "Traceback" not in err


def test_spans_jsonl_in_missing_folder_as_a_process(tmp_path: Path, files: dict[str, Path]) -> None:
    """The issue's example, as a real process: one line, exit 2, and the output folder is not half-written."""
    repo = Path(__file__).resolve().parents[2]
    result = subprocess.run(  # noqa: S603  # nosec B603
        [sys.executable, "-m", "psan.tool.cli", "anonymize", str(files["text"]), "--out", str(tmp_path / "out"),
         "--pipeline", str(files["pipeline"]), "--spans-jsonl", "no/such/dir/x.jsonl", "-q"],
        cwd=tmp_path, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(repo)}, capture_output=True, text=True,
        timeout=120)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "psan-tool: error: no/such/dir/x.jsonl: cannot write --spans-jsonl: No such file or directory"]
    assert not list((tmp_path / "out").rglob("*.txt"))


def test_depseudonymize_document_without_replacements_restores_to_itself(tmp_path: Path, files: dict[str, Path],
                                                                          capsys: pytest.CaptureFixture) -> None:
    """A standoff of a document in which nothing was replaced (``{"standoff": []}``) is a valid key."""
    out = tmp_path / "out"
    nothing = tmp_path / "in" / "plain.txt"
    nothing.write_bytes(b"Nothing personal here.\r\n")
    assert main(["anonymize", str(nothing), "--out", str(out), "--pipeline", str(files["pipeline"]),
                 "--mode", "pseudonymize", "--standoff", "--reason", "test run", "-q"]) == 0
    standoff = tmp_path / "out.standoff" / "plain.txt.json"
    assert json.loads(standoff.read_text(encoding="utf-8"))["standoff"] == []
    capsys.readouterr()
    assert main([*DEPSEUDONYMIZE, str(out / "plain.txt"), "--key", str(standoff)]) == 0
    assert capsys.readouterr().out == "Nothing personal here.\r\n"
    bare = tmp_path / "bare.json"
    bare.write_text('{"standoff": []}', encoding="utf-8")
    assert main([*DEPSEUDONYMIZE, str(out / "plain.txt"), "--key", str(bare)]) == 0
    assert capsys.readouterr().out == "Nothing personal here.\r\n"
