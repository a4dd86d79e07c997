"""The morphological tagger: training recipe, loading from the models folder, the fallback without it.

A tiny model is trained on the fly from a few hand-written CoNLL-U sentences (no shared data needed);
it is only asked whether the pipeline works end to end, not how well it tags.
"""
from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from psan.tool.morph import tagger
from psan.tool.morph.__main__ import main as morph_main
from psan.tool.morph.analysis import Mention, analyse_document
from psan.tool.morph.train import model_path, training_data

udpipe = pytest.importorskip("ufal.udpipe", reason="ufal.udpipe not installed (the morph extra)")

_ROWS = [
    ("Petr", "PROPN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Sing"),
    ("mluvil", "VERB", "Gender=Masc|Number=Sing|VerbForm=Part"),
    ("s", "ADP", "Case=Ins"),
    ("Janem", "PROPN", "Animacy=Anim|Case=Ins|Gender=Masc|Number=Sing"),
    ("v", "ADP", "Case=Loc"),
    ("Praze", "PROPN", "Case=Loc|Gender=Fem|Number=Sing"),
    (".", "PUNCT", "_"),
]


def _conllu(n: int) -> str:
    out = []
    for k in range(n):
        out.append(f"# sent_id = toy-s{k}\n# text = " + " ".join(w for w, _u, _f in _ROWS) + "\n")
        for i, (w, upos, feats) in enumerate(_ROWS, 1):
            head, rel = (0, "root") if i == 1 else (1, "dep")
            out.append(f"{i}\t{w}\t{w.lower()}\t{upos}\t_\t{feats}\t{head}\t{rel}\t_\t_\n")
        out.append("\n")
    return "".join(out)


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("models")
    tb = folder / "toy.conllu"
    tb.write_text(_conllu(6), encoding="utf-8")
    from psan.tool.morph.train import train
    record = train([tb], model_path(folder, "cs"), options="models=1;use_lemma=0;provide_lemma=0;"
                   "use_xpostag=0;provide_xpostag=0;iterations=1;guesser_suffix_rules=2")
    assert record["sentences"]["toy.conllu:kept"] == 6
    return folder


def test_trained_model_is_loaded_and_used(models: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PSAN_NAMETAG_MODELS", str(models))
    assert tagger.available("cs") and tagger.available("sl") is False  # sl uses the Slovak model: not here
    got = tagger.tag("cs", tuple(w for w, _u, _f in _ROWS))
    assert got is not None and len(got) == len(_ROWS) and got[3][2].get("Case") == "Ins"
    json.loads(model_path(models, "cs").with_suffix(".json").read_text(encoding="utf-8"))  # the training record
    text = "Petr mluvil s Janem v Praze."
    feats, _ = analyse_document(text, [Mention(14, 19, "person", "a"), Mention(22, 27, "place", "b")], "cs")
    assert [f.case for f in feats] == ["Ins", "Loc"]


def test_without_model_rules_and_one_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("PSAN_NAMETAG_MODELS", str(tmp_path / "empty"))
    with caplog.at_level(logging.WARNING):
        assert tagger.tag("cs", ("Petr",)) is None
        assert tagger.tag("cs", ("Petr",)) is None
    assert sum("no morphological model" in r.message for r in caplog.records) <= 1
    feats, _ = analyse_document("Mluvil s Janem.", [Mention(9, 14, "person", "a")], "cs")
    assert feats[0].case == "Ins"


def test_exclusion_by_sentence_and_document(tmp_path: Path) -> None:
    tb = tmp_path / "tb.conllu"
    tb.write_text(_conllu(4), encoding="utf-8")
    corpus = tmp_path / "eval.jsonl"
    corpus.write_text(json.dumps({"id": "toy-s1", "text": "x", "spans": []}) + "\n", encoding="utf-8")
    data, counts = training_data([tb], [corpus])
    assert counts == {"tb.conllu:kept": 3, "tb.conllu:excluded": 1} and "toy-s1\n" not in data
    _data, counts = training_data([tb], [corpus], whole_documents=True)
    assert counts["tb.conllu:kept"] == 0  # every sentence of document "toy"


def test_train_cli_needs_a_destination(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)
    with pytest.raises(SystemExit):
        morph_main(["train", "--lang", "cs", "--treebank", "x.conllu"])
    assert "--models-dir" in capsys.readouterr().err
    assert morph_main(["train", "--lang", "cs", "--treebank", "/nonexistent.conllu", "--out", "/tmp/x.udpipe"]) == 2


def test_syntactic_case_from_relations() -> None:
    from psan.tool.morph.analysis import syntactic_case
    words = ["Bush", "kritizoval", "Irán", "a", "Irák", "v", "Bagdade", "vlády", "Billa", "Clintona", ",",
             "prezidenta", "Obamu"]
    parsed = (
        ("", "PROPN", {}, 2, "nsubj"),                                   # Bush
        ("", "VERB", {"Number": "Sing"}, 0, "root"),                     # kritizoval
        ("", "PROPN", {}, 2, "obj"),                                     # Irán
        ("", "CCONJ", {}, 5, "cc"),                                      # a
        ("", "PROPN", {}, 3, "conj"),                                    # Irák: the first conjunct's case
        ("", "ADP", {"Case": "Loc"}, 7, "case"),                         # v
        ("", "PROPN", {}, 2, "obl"),                                     # Bagdade
        ("", "NOUN", {"Case": "Gen"}, 2, "obl"),                         # vlády
        ("", "PROPN", {}, 8, "nmod"),                                    # Billa: a possessor
        ("", "PROPN", {}, 9, "flat"),                                    # Clintona: the name's head decides
        ("", "PUNCT", {}, 12, "punct"),
        ("", "NOUN", {"Case": "Acc"}, 2, "obj"),                         # prezidenta
        ("", "PROPN", {}, 12, "appos"),                                  # Obamu: its head noun's case
    )
    got = {words[i]: syntactic_case(parsed, words, i, "sk") for i in (0, 2, 4, 6, 9, 12, 1)}
    assert got == {"Bush": (("Nom",), "Sing"), "Irán": (("Acc",), ""), "Irák": (("Acc",), ""),
                   "Bagdade": (("Loc", "Acc"), ""), "Clintona": (("Gen",), ""), "Obamu": (("Acc",), ""),
                   "kritizoval": ((), "")}


def test_parser_model_trained_loaded_and_used(models: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from psan.tool.morph.train import PARSER_OPTIONS, train
    tb = models / "toy.conllu"
    parser = model_path(models, "cs", parser=True)
    record = train([tb], parser, options="none", parser=PARSER_OPTIONS.replace("iterations=8", "iterations=1"))
    assert record["parser"] and parser.name == "parse-cs.udpipe"
    monkeypatch.setenv("PSAN_NAMETAG_MODELS", str(models))
    got = tagger.parse("cs", tuple(w for w, _u, _f in _ROWS))
    assert got is not None and len(got) == len(_ROWS) and all(0 <= h <= len(_ROWS) for _l, _u, _f, h, _r in got)
    text = "Petr mluvil s Janem v Praze."
    feats, _ = analyse_document(text, [Mention(0, 4, "person", "p"), Mention(14, 19, "person", "a")], "cs")
    assert feats[1].case == "Ins" and feats[0].case
    parser.unlink()
    parser.with_suffix(".json").unlink()
