"""A treebank's names as an inflection corpus (ner_eval.ud_names): runs of proper nouns, NameType labels, gold
features of the last word, the text rebuilt from the tokens."""
from __future__ import annotations

import json

from ner_eval.ud_names import main

CONLLU = """# sent_id = dev-x-s1
# text = Řekla to Janě Novákové v Praze.
1\tŘekla\tříci\tVERB\t_\tGender=Fem|Number=Sing\t0\troot\t_\t_
2\tto\tten\tDET\t_\t_\t1\tobj\t_\t_
3\tJaně\tJana\tPROPN\t_\tCase=Dat|Gender=Fem|NameType=Giv|Number=Sing\t1\tiobj\t_\t_
4\tNovákové\tNováková\tPROPN\t_\tCase=Dat|Gender=Fem|NameType=Sur|Number=Sing\t3\tflat\t_\t_
5\tv\tv\tADP\t_\t_\t6\tcase\t_\t_
6\tPraze\tPraha\tPROPN\t_\tCase=Loc|Gender=Fem|NameType=Geo|Number=Sing\t1\tobl\t_\tSpaceAfter=No
7\t.\t.\tPUNCT\t_\t_\t1\tpunct\t_\t_

# sent_id = dev-x-s2
# text = Nic.
1\tNic\tnic\tPRON\t_\t_\t0\troot\t_\tSpaceAfter=No
2\t.\t.\tPUNCT\t_\t_\t1\tpunct\t_\t_

"""


def test_a_treebanks_names_become_corpus_lines(tmp_path) -> None:
    tb, out = tmp_path / "cs_x-ud-dev.conllu", tmp_path / "names.jsonl"
    tb.write_text(CONLLU, encoding="utf-8")
    assert main([str(tb), "--out", str(out)]) == 0
    (line,) = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert line["id"] == "dev-x-s1" and line["text"] == "Řekla to Janě Novákové v Praze."
    got = [(line["text"][s["start"]:s["end"]], s["label"], s["features"]) for s in line["spans"]]
    assert got == [("Janě Novákové", "PERSON", {"Case": "Dat", "Gender": "Fem", "Number": "Sing"}),
                   ("Praze", "LOCATION", {"Case": "Loc", "Gender": "Fem", "Number": "Sing"})]
