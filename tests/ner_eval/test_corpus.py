"""Reading the shared corpora: which spans are gold."""
from __future__ import annotations

import json

from ner_eval.corpus import read_jsonl


def _write(path, docs) -> None:
    path.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs), encoding="utf-8")


def test_a_corpus_that_marks_each_name_once_per_article_is_completed(tmp_path) -> None:
    """BSNLP's gold lists an article's names once; every other whole-word occurrence is the same name."""
    first = "Komisja Europejska obradowała . Komisja Europejska zdecydowała ."
    second = "Wtedy Komisja Europejska i Komisja Europejskaś ."
    other = "Komisja Europejska w innym artykule ."
    _write(tmp_path / "c.jsonl", [
        {"id": "bsnlp-pl-val-01-01", "lang": "pl", "source": "bsnlp-pl:val", "text": first,
         "spans": [{"start": 0, "end": 18, "label": "ORG"}]},
        {"id": "bsnlp-pl-val-01-02", "lang": "pl", "source": "bsnlp-pl:val", "text": second, "spans": []},
        {"id": "bsnlp-pl-val-02", "lang": "pl", "source": "bsnlp-pl:val", "text": other, "spans": []},
        {"id": "uner-sk-1", "lang": "sk", "source": "uner", "text": first, "spans": [
            {"start": 0, "end": 18, "label": "ORG"}]}])
    a, b, c, d = read_jsonl(tmp_path / "c.jsonl")
    assert [(s.start, s.end, s.label) for s in a.spans] == [(0, 18, "ORG"), (32, 50, "ORG")]
    assert [(s.start, s.end) for s in b.spans] == [(6, 24)]  # another chunk of the article; not inside a word
    assert c.spans == []  # another article names it on its own, or not at all
    assert len(d.spans) == 1  # a corpus that marks every occurrence is read as it is
