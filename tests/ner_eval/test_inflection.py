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


def _doc(doc_id: str, text: str, name: str, label: str, features: dict[str, str]) -> dict:
    start = text.index(name)
    return {"id": doc_id, "lang": "cs", "text": text,
            "spans": [{"start": start, "end": start + len(name), "label": label, "features": features}]}


#: one sentence of each fold (fold_of("x4-s1") == "a", fold_of("x1-s1") == "b")
FOLD_DOCS = [_doc("x4-s1", "Jedu do Brna.", "Brna", "LOCATION", {"Case": "Gen", "Number": "Sing"}),
             _doc("x1-s1", "Bydlím v Praze.", "Praze", "LOCATION", {"Case": "Loc", "Number": "Sing"})]


def test_the_fit_keeps_the_default_where_the_fold_cannot_tell(monkeypatch) -> None:
    """Without models every weight reads the fold alike: the fit keeps the defaults and reports both folds."""
    from ner_eval.inflection import fold_of
    from ner_eval.inflection_fit import evaluate, fit
    from psan.tool.morph import analysis
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)
    assert [fold_of(d["id"]) for d in FOLD_DOCS] == ["a", "b"]
    table = {k: dict(v) for k, v in analysis.MODEL_WEIGHTS.items()}
    weights, trace = fit(FOLD_DOCS, "cs", "a", keys=("tagger_number", "learned_case"), grid=(0.0, 1.0), passes=1)
    assert weights == analysis.model_weights("cs")
    assert [t["weight"] for t in trace[:-1]] == ["tagger_number", "learned_case"]
    assert trace[0]["scores"] == {"0.0": 2.0, "0.4": 2.0, "1.0": 2.0}  # the default (0.4) is always tried
    assert trace[-1]["objective"] == 2.0  # Case and Number of the one fold-a name
    figures = evaluate(FOLD_DOCS, "cs", weights)
    assert figures["fold_a"]["case"] == 1.0 and figures["fold_b"]["case"] == 1.0
    assert figures["fold_all"]["spans"] == 2
    _weights, trace = fit(FOLD_DOCS, "cs", "all", keys=("tagger_case",), grid=(0.0,), passes=1)
    assert trace[-1]["objective"] == 4.0  # another corpus: every document fitted on
    assert analysis.MODEL_WEIGHTS == table  # each trial's weights are put back


def test_the_fit_command_prints_the_weights_and_both_folds(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("PSAN_NAMETAG_MODELS", str(tmp_path))  # restored after the test (the command sets it)
    corpus = tmp_path / "c.jsonl"
    corpus.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in FOLD_DOCS), encoding="utf-8")
    assert main(["inflection-fit", "--corpus", str(corpus), "--fold", "b", "--passes", "1",
                 "--morph-models", str(tmp_path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fitted_on"] == "fold_b" and out["language"] == "cs"
    assert out["after"]["fold_a"]["case"] == 1.0 and out["before"]["fold_b"]["case"] == 1.0
    assert set(out["weights"]) >= {"tagger_case", "syntax", "learned_gender"}
    assert main(["inflection-fit", "--corpus", str(tmp_path / "missing.jsonl"), "--fold", "a"]) == 2
