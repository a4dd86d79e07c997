"""Default pipelines of sk/sl/pl/sv, lemma-aware propagation and the no-model fallback notice."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from psan.tool.cli import main
from psan.tool.detection.defaults import default_config, fallback_notice, find_nametag_model
from psan.tool.detection.pipeline import Pipeline
from psan.tool.detection.propagate import propagate
from psan.tool.morph.lemma import get_lemmatizer
from psan.tool.morph.morfeusz import morfeusz_available
from psan.tool.text.document import Category, Entity
from psan.tool.text.tokens import tokenize


def _models(tmp_path: Path, *names: str) -> Path:
    for name in names:
        (tmp_path / name).write_text("x")
    return tmp_path


def test_slovenian_code_does_not_pick_the_slovak_model(tmp_path: Path) -> None:
    folder = _models(tmp_path, "slovak-uner-trivial.ner", "czech-cnec2-trivial.ner")
    assert find_nametag_model("sl", str(folder)) is None
    assert find_nametag_model("sk", str(folder)).endswith("slovak-uner-trivial.ner")
    (folder / "sl-test.ner").write_text("x")
    assert find_nametag_model("sl", str(folder)).endswith("sl-test.ner")


def test_default_config_native_plus_cross_lingual(tmp_path: Path) -> None:
    folder = _models(tmp_path, "slovak-uner-trivial.ner", "czech-cnec2-trivial.ner", "swedish-uner-trivial.ner")
    sk = default_config("sk", str(folder))
    assert [(e["source"], e.get("cross_lingual", False)) for e in sk["ner"]] == [
        ("nametag-sk", False), ("nametag-cs", True)]
    assert sk["ner"][1]["categories"] == ["PERSON", "LOCATION", "ORGANIZATION"]
    assert [e["source"] for e in default_config("sl", str(folder))["ner"]] == ["nametag-cs", "nametag-sk"]
    assert [e["source"] for e in default_config("sv", str(folder))["ner"]] == ["nametag-sv", "nametag-cs"]
    assert [e["source"] for e in default_config("pl", str(folder))["ner"]] == ["nametag-cs"]
    assert fallback_notice(sk) is None
    json.dumps(sk)


def test_default_config_loads_a_pretrained_classifier(tmp_path: Path) -> None:
    folder = _models(tmp_path, "classifier-sk.bin")
    cfg = default_config("sk", str(folder))
    assert {"kind": "classifier", "model_path": str(folder / "classifier-sk.bin")} in cfg["recognizers"]
    assert "classifier" not in json.dumps(default_config("pl", str(folder)))


def test_default_config_loads_a_czech_classifier_too(tmp_path: Path) -> None:
    """The starting model trained on cnec-train (recipe in ner_eval/results/README.md) serves Czech."""
    folder = _models(tmp_path, "classifier-cs.bin")
    cfg = default_config("cs", str(folder))
    assert {"kind": "classifier", "model_path": str(folder / "classifier-cs.bin")} in cfg["recognizers"]


def test_fallback_notice_without_models(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)
    notice = fallback_notice(default_config("sk"))
    assert notice and "'sk'" in notice and "PSAN_NAMETAG_MODELS" in notice


def test_cli_says_when_it_falls_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture) -> None:
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)
    (tmp_path / "a.txt").write_text("Ján Novák býva v Košiciach.", encoding="utf-8")
    assert main(["spans", str(tmp_path / "a.txt"), "--lang", "sk", "-q"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "warning: no NER model for language 'sk'" in err


def test_suffix_lemmas_cover_plural_place_names() -> None:
    sk, cs = get_lemmatizer("sk"), get_lemmatizer("cs")
    assert sk("Košiciach") == sk("Košice") == sk("Košiciam")
    assert cs("Budějovicích") == cs("Budějovice")


@pytest.mark.skipif(not morfeusz_available(), reason="morfeusz2 is not installed")
def test_polish_lemmas_from_morfeusz() -> None:
    pl = get_lemmatizer("pl")
    assert pl("Warszawie") == pl("Warszawą") == "Warszawa"
    assert pl("Kowalskiego") == "Kowalski"
    assert pl("Timmermansa") == "Timmermans"  # unknown to the dictionary: suffix rules


def _doc_with(text: str, language: str, seed: str, category: Category = Category.LOCATION):
    from psan.tool.text.document import Document
    tokens, sentences = tokenize(text, language)
    first = next(t.id for t in tokens if text[t.start:t.end] == seed)
    return Document(text, tokens, sentences, [Entity(first, first + 1, "gu", category, "nametag")], language)


def test_propagation_sees_lemmas() -> None:
    doc = _doc_with("Narodil sa v Košiciach. Košice sú mesto. Na košiciach nezáleží.", "sk", "Košice")
    found = [(doc.text[doc.tokens[e.first_token].start:doc.tokens[e.end_token - 1].end], e.score)
             for e in propagate(doc)]
    assert found == [("Košiciach", pytest.approx(0.81))]  # lemma match: score × 0.9 × 0.9; lower case never
    assert propagate(doc, lemmas=False) == []


def test_propagation_without_lemmatizer_is_exact() -> None:
    # Swedish has no lemmatizer: only the genitive "-s" (psan.tool.detection.propagate) joins the exact matches
    doc = _doc_with("Anna lives in Stockholm. Stockholmarna och Stockholms hamn.", "sv", "Stockholm")
    assert [doc.span_text(e.first_token, e.end_token) for e in propagate(doc)] == ["Stockholms"]


def test_cross_lingual_filter_drops_function_words(nametag_model) -> None:
    czech = nametag_model("czech-cnec2-trivial.ner")
    text = "Du är här. Vi bor i Stockholm och Anna Lindh arbetar i Uppsala. Det är du."
    entry = {"kind": "nametag", "model": czech, "categories": ["PERSON", "LOCATION", "ORGANIZATION"],
             "cross_lingual": True}
    doc = Pipeline({"language": "sv", "tokenizer": "regex", "ner": [entry], "recognizers": [],
                    "propagate": False}).process(text)
    words = {doc.span_text(e.first_token, e.end_token) for e in doc.entities}
    assert not words & {"Du", "Vi", "Det"}
    assert all(e.category in {Category.PERSON, Category.LOCATION, Category.ORGANIZATION} for e in doc.entities)


def test_cli_uses_the_new_default_with_models(tmp_path: Path, nametag_model, capsys: pytest.CaptureFixture) -> None:
    folder = str(Path(nametag_model("slovak-uner-trivial.ner")).parent)
    (tmp_path / "a.txt").write_text("Minulý týždeň prišiel Ján Novák do Bratislavy.", encoding="utf-8")
    for lang in ("sk", "pl", "sv"):
        assert main(["spans", str(tmp_path / "a.txt"), "--lang", lang, "--models-dir", folder, "-q"]) == 0
        out = capsys.readouterr()
        assert "warning" not in out.err
        sources = {json.loads(line)["source"] for line in out.out.splitlines()}
        assert "nametag-cs" in sources or f"nametag-{lang}" in sources


# ---------------------------------------------------------------- classifier: lemmas and pre-trained models
def _slovak_corpus(n: int = 120) -> list[tuple[str, list]]:
    """Synthetic Slovak sentences: names in nominative and in oblique cases (lemma features must link them)."""
    import random
    rng = random.Random(3)
    people = [("Ján", "Novák"), ("Peter", "Hudák"), ("Martin", "Kováč"), ("Jozef", "Horváth")]
    cities = [("Košice", "Košiciach"), ("Trnava", "Trnave"), ("Nitra", "Nitre")]
    out = []
    for _ in range(n):
        (first, last), (city, loc) = rng.choice(people), rng.choice(cities)
        if rng.random() < 0.5:
            text = f"Svedok {first} {last} býva v meste {city} ."
            spans = [(7, 7 + len(first) + 1 + len(last), "PERSON")]
            start = text.index(city)
            spans.append((start, start + len(city), "LOCATION"))
        else:
            text = f"Rozhodol o tom súd v {loc} a Ministerstvo spravedlnosti ."
            start = text.index(loc)
            spans = [(start, start + len(loc), "LOCATION")]
        out.append((text, spans))
    return out


def test_classifier_lemma_features_are_recorded_and_used() -> None:
    from psan.tool.detection.classifier import TokenClassifier
    from psan.tool.detection.classifier.features import static_features, token_views
    text = "Býva v Košiciach ."
    tokens, sentences = tokenize(text, "sk")
    views = token_views(text, tokens, sentences, get_lemmatizer("sk"))
    assert "lem=košic" in static_features(views, sentences)[2]
    model = TokenClassifier.train(_slovak_corpus(), "sk")
    assert model.meta["use_lemmas"] is True
    again = TokenClassifier.from_bytes(model.to_bytes())
    assert again.meta["use_lemmas"] is True
    assert TokenClassifier.train(_slovak_corpus(), "sv").meta["use_lemmas"] is False
    assert TokenClassifier.train(_slovak_corpus(), "sk", use_lemmas=False).meta["use_lemmas"] is False


def test_pretrained_classifier_from_models_folder_runs_in_default_pipeline(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from psan.tool.detection.classifier import TokenClassifier
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)
    TokenClassifier.train(_slovak_corpus(), "sk").save(str(tmp_path / "classifier-sk.bin"))
    config = default_config("sk", str(tmp_path))
    assert fallback_notice(config) is not None  # a classifier alone is no NER: the notice stays
    doc = Pipeline(config).process("Svedok Martin Hudák býva v meste Nitra .")
    assert "classifier" in {e.source for e in doc.entities}  # its own source: the project model's refresh keeps it
