"""Every annotation format round-trips the shared corpora: spans out, in again, equal (where and which category).

Formats of one tag per token cannot nest: for them the expected spans are the outermost ones, and the
writer says how many it left out.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from psan.tool.formats.annotations import (
    AnnotatedText,
    attach,
    format_names,
    get_format,
    make_span,
    read_file,
    write_file,
)
from psan.tool.formats.annotations.base import outermost

#: corpora (file, documents taken): whole small ones, the first documents of the long-text ones
CORPORA = [("tab-dev.jsonl", 40), ("elitr-dev.jsonl", 3), ("cnec-dtest.jsonl", 900), ("presidio-synth.jsonl", 1500),
           ("sv-dev.jsonl", 28), ("sk-dev.jsonl", 71), ("pl-dev.jsonl", 38)]


#: formats whose files name their documents (the others keep the order)
NAMED = {"brat", "webanno", "xmi", "labelstudio", "conllu", "presidio", "jsonl"}


def load(shared_dir: Path, name: str, limit: int) -> list[AnnotatedText]:
    path = shared_dir / "data" / name
    if not path.is_file():
        pytest.skip(f"shared corpus {path} not found (see /work/shared/data/README.md)")
    docs = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            record = json.loads(line)
            docs.append(AnnotatedText(record["id"], record["text"],
                                      [make_span(s["start"], s["end"], s["label"]) for s in record["spans"]]))
            if len(docs) == limit:
                break
    return docs


@pytest.mark.parametrize("fmt", ["brat", "webanno", "xmi", "labelstudio", "conll", "conllu", "presidio", "jsonl"])
@pytest.mark.parametrize(("corpus", "limit"), CORPORA)
def test_format_round_trips_shared_corpus(shared_dir: Path, fmt: str, corpus: str, limit: int) -> None:
    docs = load(shared_dir, corpus, limit)
    written = write_file(fmt, docs)
    back = read_file(fmt, written.data, "corpus" + written.suffix)
    # a JSONL line is a span: a document without spans has none
    assert len(back) == (sum(1 for d in docs if d.spans) if fmt == "jsonl" else len(docs))
    by_name = {d.name: d for d in back}
    nests = get_format(fmt).nests
    dropped = 0
    for i, doc in enumerate(docs):
        got = by_name.get(doc.name) if fmt in NAMED else back[i]
        if got is None and fmt == "jsonl" and not doc.spans:
            continue
        assert got is not None, doc.name
        on_text = attach(got, doc.text, doc.name)
        expected, left = (doc.spans, 0) if nests else outermost(doc.spans)
        dropped += left
        assert sorted(s.key for s in on_text.spans) == sorted(s.key for s in expected), (fmt, doc.name)
    assert written.dropped == dropped


def test_format_names_cover_the_table() -> None:
    assert format_names() == ["brat", "webanno", "xmi", "labelstudio", "conll", "conllu", "presidio", "jsonl"]
