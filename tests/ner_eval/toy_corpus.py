"""A two-document hand-made corpus shared by the simulation tests (old oracle and honest session)."""
from __future__ import annotations

from ner_eval.corpus import CorpusDoc, GoldSpan
from psan.tool.detection.merge import resolve
from psan.tool.text.document import Category, CharSpan, Document
from psan.tool.text.tokens import tokenize


def make_doc(text: str, ents: list[tuple[int, int, str]]) -> Document:
    """An English document whose "NER" found exactly ``ents`` (start, end, type)."""
    tokens, sentences = tokenize(text, "en")
    doc = Document(text, tokens, sentences, [], "en")
    doc.entities = resolve(doc, [CharSpan(s, e, t, Category.PERSON, "test") for s, e, t in ents])
    return doc


T1 = "Jan Novak met Eva in Paris. Jan Novak left."
#     0   4     10  14  18 21    27  31   36
T2 = "Paris is big. Eva came. Bob came too."
#     0     6  9   14  18   24  28


def toy_corpus() -> tuple[list[CorpusDoc], list[Document]]:
    corpus = [
        CorpusDoc("d1", "en", T1, [GoldSpan(0, 9, "PER"), GoldSpan(14, 17, "PER"), GoldSpan(28, 37, "PER")]),
        CorpusDoc("d2", "en", T2, [GoldSpan(14, 17, "PER"), GoldSpan(24, 27, "PER")]),
    ]
    # the "NER" finds Jan Novak once, Paris (public) and nothing in d2
    docs = [make_doc(T1, [(0, 9, "PER"), (21, 26, "LOC")]), make_doc(T2, [])]
    return corpus, docs
