from collections import Counter

import pytest
from defusedxml import DefusedXmlException
from defusedxml import ElementTree as DefusedET
from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.formats.tagged_xml import StreamReader, from_xml, read_stream, to_xml
from psan.tool.text.document import Category, Document, Entity, Sentence
from psan.tool.text.tokens import tokenize

SPECIAL = list("&<>\"'\r\n\t \x00\x1b\x7f\ufffe\uffff\ud800\udfff.!?") + ["\r\n", "]]>", "A. B", "\n\n"]
TEXT = st.lists(st.one_of(st.characters(exclude_categories=()), st.sampled_from(SPECIAL), st.text(max_size=5)),
                max_size=60).map("".join)


def make_doc(text, entities=()):
    tokens, sentences = tokenize(text)
    return Document(text, tokens, sentences, list(entities))


def entity_key(e):
    return (e.first_token, e.end_token, e.type, e.category, e.source, e.score)


@st.composite
def documents(draw):
    doc = make_doc(draw(TEXT))
    n = len(doc.tokens)
    if n:
        for _ in range(draw(st.integers(0, 8))):
            a = draw(st.integers(0, n - 1))
            b = draw(st.integers(a + 1, n))
            doc.entities.append(Entity(a, b, draw(st.sampled_from(["P", "pf", "gu", 'a"<&>\'b'])),
                                       draw(st.sampled_from(list(Category))), draw(st.sampled_from(["", "x&y"])),
                                       draw(st.sampled_from([1.0, 0.5, 0.123456789]))))
    return doc


def assert_same(a: Document, b: Document):
    assert a.text == b.text
    assert a.tokens == b.tokens
    assert a.sentences == b.sentences
    assert Counter(map(entity_key, a.entities)) == Counter(map(entity_key, b.entities))


@settings(max_examples=400, deadline=None)
@given(documents(), st.data())
def test_roundtrip_full_and_streaming(doc, data):
    xml = to_xml(doc)
    parsed = from_xml(xml)
    assert_same(doc, parsed)
    # streaming, str chunks of random sizes
    sizes = data.draw(st.lists(st.integers(1, 50), min_size=1, max_size=20))
    chunks, pos, i = [], 0, 0
    while pos < len(xml):
        chunks.append(xml[pos:pos + sizes[i % len(sizes)]])
        pos += sizes[i % len(sizes)]
        i += 1
    streamed = read_stream(chunks)
    assert_same(parsed, streamed)
    assert streamed.entities == parsed.entities  # same order too
    # bytes chunks split anywhere, even inside a UTF-8 sequence
    raw = xml.encode("utf-8")
    cut = data.draw(st.integers(0, len(raw)))
    assert_same(parsed, read_stream([raw[:cut], raw[cut:]]))


def test_example_layout():
    text = "Potkal Jana Nováka.\r\n\nA\x1bB <&> \"x\"  "
    doc = make_doc(text, [Entity(1, 3, "P", Category.PERSON, "nametag"), Entity(1, 2, "pf", Category.PERSON),
                          Entity(2, 3, "ps", Category.PERSON)])
    xml = to_xml(doc)
    assert '<ne type="P" start="1" end="3" category="PERSON" source="nametag"><ne type="pf"' in xml
    assert '<c u="001B"/>' in xml and "&#13;" in xml and "&lt;" in xml and "&amp;" in xml
    assert xml.rstrip().endswith('</sentence>  </submission>')
    root = DefusedET.fromstring(xml)
    assert [s.get("start") for s in root.iter("sentence")] == ["0", "4"]
    assert_same(doc, from_xml(xml))


def test_crossing_and_cross_sentence_entities_are_fragmented():
    doc = make_doc("a b c d. E f g.", [Entity(0, 3, "A"), Entity(1, 6, "B"), Entity(2, 3, "C")])
    xml = to_xml(doc)
    DefusedET.fromstring(xml)  # well-formed
    assert xml.count('type="B"') == 3 and xml.count('cont="1"') == 2
    assert_same(doc, from_xml(xml))


def test_events_and_nested_overlapping_recordings():
    text = "Obdolžená Metka Nováková z Brna potkala Jana Nováka v Praze. Druhá věta."
    ents = [Entity(1, 3, "P"), Entity(1, 2, "pf"), Entity(2, 3, "ps"), Entity(4, 5, "gu"),
            Entity(6, 8, "P"), Entity(9, 14, "X")]
    doc = make_doc(text, ents)
    xml = to_xml(doc)
    events, done = [], []

    def on_token(tok, tok_text):
        events.append(("token", tok.id, tok_text))
        if tok.id == 0:
            reader.record(3, done.append)  # tokens 1..3
            reader.record(1, done.append)  # token 1 (nested)
        if tok.id == 1:
            reader.record(5, done.append)  # tokens 2..6 (overlapping)
        if tok.id == 12:
            reader.record(10, done.append)  # runs past the end

    reader = StreamReader(on_token=on_token, on_entity_start=lambda e: events.append(("start", e.type)),
                          on_entity_end=lambda e: events.append(("end", e.type)),
                          on_sentence=lambda s: events.append(("sentence", s.first_token, s.end_token)))
    for i in range(0, len(xml), 7):
        reader.feed(xml[i:i + 7])
    parsed = reader.close()
    assert parsed.text == text
    assert events[:6] == [("token", 0, "Obdolžená"), ("start", "P"), ("start", "pf"), ("token", 1, "Metka"),
                          ("end", "pf"), ("start", "ps")]
    assert ("sentence", 0, 11) in events
    by_first = {(r.first_token, r.wanted): r for r in done}
    rec = by_first[(1, 3)]
    assert [t.id for t in rec.tokens] == [1, 2, 3] and rec.text == "Metka Nováková z" and rec.complete
    assert sorted(e.type for e in rec.entities) == ["P", "pf", "ps"]
    assert [e.type for e in by_first[(1, 1)].entities] == ["P", "pf"]
    rec = by_first[(2, 5)]
    assert rec.text == "Nováková z Brna potkala Jana"
    assert sorted(e.type for e in rec.entities) == ["P", "P", "gu", "ps"]
    late = by_first[(13, 10)]
    assert not late.complete and [t.id for t in late.tokens] == [13] and late.text == "."
    assert late.entities == [Entity(9, 14, "X")]


@settings(max_examples=150, deadline=None)
@given(documents(), st.data())
def test_recordings_match_document(doc, data):
    n = len(doc.tokens)
    xml = to_xml(doc)
    requests = {data.draw(st.integers(-1, n - 1)): data.draw(st.integers(0, 6)) for _ in range(3)}
    results = []

    def ask(at):
        if at in requests:
            want = requests[at]
            reader.record(want, lambda r, at=at, want=want: results.append((at, want, r)))

    reader = StreamReader(on_token=lambda tok, _: ask(tok.id))
    ask(-1)
    reader.feed(xml)
    reader.close()
    assert len(results) == len(requests)
    for at, want, rec in results:
        first = at + 1
        last = min(first + want, n)
        assert [t.id for t in rec.tokens] == list(range(first, last))
        assert rec.complete == (first + want <= n)
        if rec.tokens:
            assert rec.text == doc.text[doc.tokens[first].start:doc.tokens[last - 1].end]
            expected = [e for e in doc.entities if e.first_token < last and e.end_token > first]
            assert Counter(map(entity_key, rec.entities)) == Counter(map(entity_key, expected))


def test_empty_and_tokenless_documents():
    for text in ["", "   \n\x00 "]:
        doc = make_doc(text)
        assert_same(doc, from_xml(to_xml(doc)))
        assert_same(doc, read_stream([to_xml(doc)]))


def test_sentences_not_covering_tokens_are_fixed():
    doc = make_doc("a b c d")
    doc.sentences = [Sentence(1, 2)]
    parsed = from_xml(to_xml(doc))
    assert parsed.sentences == [Sentence(0, 1), Sentence(1, 2), Sentence(2, 4)]
    assert parsed.text == doc.text


def test_rejects_entity_bombs():
    bomb = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><submission>&a;</submission>'
    with pytest.raises(DefusedXmlException):
        from_xml(bomb)
    with pytest.raises(DefusedXmlException):
        read_stream([bomb])


def _to_xml_quadratic(doc: Document) -> str:
    """The writer as it was before it became linear (rescans every earlier entity per sentence):
    the oracle that proves the linear writer's output is byte-identical."""
    from psan.tool.formats.tagged_xml import escape_text, ne_open, normalized_sentences
    text, tokens = doc.text, doc.tokens
    n = len(tokens)
    entities = sorted((e for e in doc.entities if 0 <= e.first_token < e.end_token <= n),
                      key=lambda e: (e.first_token, -e.end_token))
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<submission>']
    pos, started, ei = 0, set(), 0
    for sent in normalized_sentences(doc):
        a, b = sent.first_token, sent.end_token
        out.append(escape_text(text[pos:tokens[a].start]))
        pos = tokens[a].start
        out.append(f'<sentence start="{a}" end="{b}">')
        while ei < len(entities) and entities[ei].first_token < b:
            ei += 1
        active = [k for k in range(ei) if entities[k].end_token > a and entities[k].first_token < b]
        by_start = {}
        for k in active:
            by_start.setdefault(max(entities[k].first_token, a), []).append(k)
        stack = []
        for t in range(a, b):
            reopen = []
            low = next((i for i, k in enumerate(stack) if min(entities[k].end_token, b) == t), None)
            if low is not None:
                while len(stack) > low:
                    k = stack.pop()
                    out.append("</ne>")
                    if min(entities[k].end_token, b) > t:
                        reopen.append(k)
            if t > a:
                out.append(escape_text(text[pos:tokens[t].start]))
                pos = tokens[t].start
            opening = reopen + by_start.get(t, [])
            opening.sort(key=lambda k: (-min(entities[k].end_token, b), k))
            for k in opening:
                out.append(ne_open(entities[k], cont=k in started))
                started.add(k)
                stack.append(k)
            tok = tokens[t]
            out.append(f'<token id="{tok.id}">{escape_text(text[tok.start:tok.end])}</token>')
            pos = tok.end
        out.append("</ne>" * len(stack))
        out.append("</sentence>")
    out.append(escape_text(text[pos:]))
    out.append("</submission>\n")
    return "".join(out)


@settings(max_examples=300, deadline=None)
@given(documents())
def test_linear_writer_output_unchanged(doc):
    assert to_xml(doc) == _to_xml_quadratic(doc)


def test_linear_writer_unchanged_on_long_multi_sentence_document():
    words = ("Jan Novák bydlí v Praze . Petr Svoboda volal Marii Dvořákové . " * 300).strip()
    doc = make_doc(words)
    n = len(doc.tokens)
    # short entities, entities crossing sentence ends, one spanning almost everything, nested ones
    doc.entities = ([Entity(i, i + 2, "P", Category.PERSON) for i in range(0, n - 2, 7)]
                    + [Entity(i, min(i + 9, n), "gu", Category.LOCATION) for i in range(3, n - 9, 23)]
                    + [Entity(1, n - 1, "x", Category.OTHER), Entity(2, 3, "pf", Category.PERSON)])
    assert len(doc.sentences) > 100
    assert to_xml(doc) == _to_xml_quadratic(doc)
