"""The learned case reader of names: trained from CoNLL-U into plain JSON weights, read without scikit-learn."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from psan.tool.morph import namecase
from psan.tool.morph.__main__ import main as morph_main

pytest.importorskip("sklearn", reason="scikit-learn not installed")

_ROWS = [("Mluvil", "VERB", "Gender=Masc|Number=Sing|VerbForm=Part"), ("s", "ADP", "Case=Ins"),
         ("Janem", "PROPN", "Case=Ins|Gender=Masc|Number=Sing"), ("v", "ADP", "Case=Loc"),
         ("Praze", "PROPN", "Case=Loc|Gender=Fem|Number=Sing"), ("a", "CCONJ", "_"),
         ("Jana", "PROPN", "Case=Nom|Gender=Fem|Number=Sing"), ("přišla", "VERB", "Gender=Fem|VerbForm=Part"),
         (".", "PUNCT", "_")]


def _treebank(path: Path, n: int = 30) -> Path:
    out = []
    for k in range(n):
        out.append(f"# sent_id = toy-s{k}\n# text = " + " ".join(w for w, _u, _f in _ROWS) + "\n")
        out += [f"{i}\t{w}\t{w.lower()}\t{u}\t_\t{f}\t0\tdep\t_\t_\n" for i, (w, u, f) in enumerate(_ROWS, 1)]
        out.append("\n")
    path.write_text("".join(out), encoding="utf-8")
    return path


def test_trained_reader_predicts_the_case_of_a_name_from_its_ending_and_preposition(tmp_path: Path) -> None:
    tb = _treebank(tmp_path / "toy.conllu")
    assert morph_main(["train-cases", "--lang", "sk", "--treebank", str(tb), "--models-dir", str(tmp_path)]) == 0
    stored = json.loads(namecase.model_path(tmp_path, "sk").read_text(encoding="utf-8"))
    assert stored["record"]["samples"] == 90 and set(stored["model"]) == {"Case", "Number", "Gender"}
    model = namecase.model_for("sk", str(tmp_path))
    assert model is not None and namecase.model_for("sl", str(tmp_path)) is None
    got = namecase.predict(model, ["Hovoril", "s", "Janem", "v", "Praze"], 2)
    assert max(got["Case"], key=got["Case"].get) == "Ins"
    assert abs(sum(got["Case"].values()) - 1.0) < 1e-6


def test_without_a_models_folder_there_is_no_reader(tmp_path: Path) -> None:
    assert namecase.model_for("sk", None) is None and namecase.model_for("sk", str(tmp_path)) is None


def test_names_weighed_up_teach_the_reader_their_own_case(tmp_path: Path) -> None:
    """A form that is mostly a common noun's dative and sometimes a name's locative: weighing names up moves what
    the shared features (the ending) say towards the name's case."""
    rows = []
    for k in range(13):
        upos, case = ("NOUN", "Dat") if k < 10 else ("PROPN", "Loc")
        rows.append(f"# sent_id = toy-s{k}\n# text = byl v Kosovu\n1\tbyl\tbýt\tAUX\t_\t_\t0\troot\t_\t_\n"
                    f"2\tv\tv\tADP\t_\t_\t3\tcase\t_\t_\n3\tKosovu\tkosovo\t{upos}\t_\tCase={case}|Number=Sing\t1\tobl\t_\t_\n\n")
    tb = tmp_path / "toy.conllu"
    tb.write_text("".join(rows), encoding="utf-8")
    lean = {}
    for weight in (1.0, 20.0):
        out = tmp_path / f"cases-{weight}.json"
        record = namecase.train([tb], out, name_weight=weight)
        assert record["name_weight"] == weight
        case = json.loads(out.read_text(encoding="utf-8"))["model"]["Case"]
        row = dict(zip(case["classes"], case["weights"]["s3=ovu"], strict=True))
        lean[weight] = row["Loc"] - row["Dat"]
    assert lean[20.0] > lean[1.0]
