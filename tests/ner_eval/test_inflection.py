"""``python -m ner_eval inflection``: runs ``psan-tool pseudonymize`` and scores its features."""
from __future__ import annotations

import json
from pathlib import Path

from ner_eval.cli import main
from ner_eval.inflection import score

DOCS = [
    {"id": "a", "lang": "cs", "text": "Mluvil jsem s Petrem v Praze.",
     "spans": [{"start": 14, "end": 20, "label": "PERSON", "features": {"Case": "Ins", "Gender": "Masc",
                                                                         "Number": "Sing"}},
               {"start": 23, "end": 28, "label": "LOCATION", "features": {"Case": "Loc", "Gender": "Fem",
                                                                           "Number": "Sing"}}]},
    {"id": "b", "lang": "cs", "text": "Přišla Jana Nováková.",
     "spans": [{"start": 7, "end": 20, "label": "PERSON", "features": {"Case": "Nom", "Gender": "Fem",
                                                                        "Number": "Sing"}}]},
]


def test_score_counts_missing_features_as_wrong() -> None:
    records = [{"id": "a", "replacements": [
        {"start": 14, "end": 20, "surrogate": "Karlem",
         "features": {"Case": "Ins", "Gender": "Masc", "Number": "Sing"}},
        {"start": 23, "end": 28, "surrogate": "Praze", "features": {"Case": None, "Gender": None, "Number": None}}]}]
    got = score(DOCS, records)
    assert got["case"] == round(1 / 3, 4) and got["gender_persons"] == 0.5
    assert got["unanalysed"] == 2 and got["equal_to_original"] == 1


def test_command_runs_the_cli(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)
    corpus = tmp_path / "c.jsonl"
    corpus.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in DOCS), encoding="utf-8")
    assert main(["inflection", "--corpus", str(corpus), "--json", "--morph-models", str(tmp_path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["spans"] == 3 and out["case"] == 1.0 and out["gender_persons"] == 1.0
    assert out["equal_to_original"] == 0
    assert main(["inflection", "--corpus", str(tmp_path / "missing.jsonl")]) == 2


def test_halves_and_spans_list_what_was_scored(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)
    corpus = tmp_path / "c.jsonl"
    corpus.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in DOCS), encoding="utf-8")
    assert main(["inflection", "--corpus", str(corpus), "--json", "--halves", "--spans",
                 "--morph-models", str(tmp_path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["even_lines"]["spans"] == 2 and out["odd_lines"]["spans"] == 1
    assert [s["original"] for s in out["span_results"]] == ["Petrem", "Praze", "Jana Nováková"]
    assert out["span_results"][0]["gold"]["Case"] == "Ins" and out["span_results"][0]["got"]["Case"] == "Ins"
    assert out["span_results"][2]["line"] == 1 and out["span_results"][2]["surrogate"] != "Jana Nováková"


def test_folds_keep_a_document_together() -> None:
    from ner_eval.inflection import document_of, fold_of
    assert document_of("a10w-s45") == "a10w" and document_of("sme:1357:.ad.") == "sme:1357"
    assert document_of("dev-s217") == "dev-s217"  # PDB: the split is no document
    assert fold_of("a10w-s1") == fold_of("a10w-s45") and fold_of("sme:1357:.d.") == fold_of("sme:1357:.z.")
    assert {fold_of(f"dev-s{i}") for i in range(20)} == {"a", "b"}


def test_every_run_reports_both_folds(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)
    corpus = tmp_path / "c.jsonl"
    corpus.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in DOCS), encoding="utf-8")
    assert main(["inflection", "--corpus", str(corpus), "--json", "--morph-models", str(tmp_path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fold_a"]["spans"] + out["fold_b"]["spans"] == 3 and "span_results" not in out
