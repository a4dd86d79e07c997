"""Learned suggestions: features, training on synthetic data, serialization, learning from decisions."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("sklearn")

from psan.tool.detection.classifier import (
    ClassifierRecognizer,
    ModelFormatError,
    TokenClassifier,
    examples_from_decisions,
)
from psan.tool.detection.classifier.data import TrainingDoc, read_jsonl, training_doc_from_gold  # noqa: E402
from psan.tool.detection.classifier.features import (
    history_features,
    name_list_index,
    shape,
    short_shape,
    static_features,
    token_views,
)
from psan.tool.detection.pipeline import Pipeline  # noqa: E402
from psan.tool.text.document import Category  # noqa: E402
from psan.tool.text.tokens import tokenize  # noqa: E402

FIRST = ["Jan", "Petr", "Marie", "Eva", "Tomáš", "Lucie", "Karel", "Jana", "Martin", "Hana", "Pavel", "Zuzana"]
LAST = ["Novák", "Svoboda", "Dvořák", "Černý", "Procházka", "Kučera", "Veselý", "Horák", "Marek", "Pokorný"]
CITIES = ["Brno", "Plzeň", "Olomouc", "Liberec", "Zlín", "Kladno", "Opava", "Jihlava"]
TEMPLATES = [
    "Obžalovaný {p} se narodil v {c} a bydlí tam dodnes .",
    "Svědek {p} uvedl , že obžalovaného nezná .",
    "Věc projednal Nejvyšší soud pod sp. zn. {n} dne {d} .",
    "Soud vyslechl poškozenou {p} , která žije v {c} .",
    "Podle Ústavního soudu je stížnost zjevně neopodstatněná .",
    "Zástupce {p} podal odvolání proti rozsudku ve věci {n} .",
    "Krajský soud v {c} rozhodl o dovolání dne {d} .",
    "Advokát obviněného {p} navrhl výslech dalších svědků .",
    # capitalised words that are public: the model must not learn "capitalised mid-sentence = private"
    "Ministerstvo spravedlnosti vydalo Metodický pokyn k Zákonu o soudech a soudcích .",
    "Rozhodnutí potvrdil Vrchní soud a poté Nejvyšší správní soud .",
    "Stížnost podle Listiny základních práv posoudil Ústavní soud v Plénu .",
    "Úřad vede Program Justice a Strategii Digitalizace od roku {y} .",
]


def _sentence(rng: random.Random, first: list[str], last: list[str], cities: list[str]) -> tuple[str, list]:
    template = rng.choice(TEMPLATES)
    values = {"p": (f"{rng.choice(first)} {rng.choice(last)}", "PERSON"), "c": (rng.choice(cities), "LOCATION"),
              "n": (f"{rng.randint(1, 30)} Tdo {rng.randint(100, 999)}/{rng.randint(2000, 2024)}", "ID"),
              "d": (f"{rng.randint(1, 28)}.{rng.randint(1, 12)}.{rng.randint(1990, 2024)}", "DATE"),
              "y": (str(rng.randint(1990, 2024)), "DATE")}
    text, spans = "", []
    for part in template.replace("{", "\0{").replace("}", "}\0").split("\0"):
        if part.startswith("{") and part.endswith("}"):
            value, cat = values[part[1:-1]]
            spans.append((len(text), len(text) + len(value), cat))
            text += value
        else:
            text += part
    return text, spans


def synthetic_corpus(n: int = 200, seed: int = 1) -> list[tuple[str, list]]:
    rng = random.Random(seed)
    return [_sentence(rng, FIRST[:8], LAST[:7], CITIES[:5]) for _ in range(n)]


@pytest.fixture(scope="module")
def corpus() -> list[tuple[str, list]]:
    return synthetic_corpus()


@pytest.fixture(scope="module")
def model(corpus: list[tuple[str, list]]) -> TokenClassifier:
    return TokenClassifier.train(corpus, "cs")


# ---------------------------------------------------------------- features


def test_shapes() -> None:
    assert shape("Novák") == "Xxxxx"
    assert shape("6.10.1941") == "d.dd.dddd"
    assert shape("NOVAK") == "XXXXX"
    assert short_shape("Novák") == "Xx"
    assert short_shape("6.10.1941") == "d.d.d"
    assert short_shape("ABCDEFG1234") == "Xd"
    assert shape("x" * 40).endswith("…") and len(shape("x" * 40)) == 17


def test_context_windows_and_flags() -> None:
    text = "a b c d Eva f g h"
    tokens, sentences = tokenize(text)
    feats = static_features(token_views(text, tokens, sentences), sentences, {"eva": frozenset({"first"})})
    eva = feats[4]
    assert {"bl=a", "bl=b", "bl=c", "bl=d"} <= set(eva)  # four before, as a bag
    assert {"br=f", "br=g"} <= set(eva) and "br=h" not in eva  # two after
    assert {"w-1=d", "w+1=f", "b-=c|d", "b+=f|g", "w=eva", "cap", "mid_cap=True"} <= set(eva)
    assert {"p1=e", "p2=ev", "s1=a", "s2=va", "list=first", "list_cap=first"} <= set(eva)
    assert "list-1=first" in feats[5] and "list+1=first" in feats[3]
    first = feats[0]
    assert "init" in first and "bl=<s>" in first and "w-1=<s>" in first
    assert "br=</s>" in feats[-1]


def test_windows_stop_at_sentence_boundaries() -> None:
    text = "Prvni veta konci. Druha veta zacina."
    tokens, sentences = tokenize(text, "cs")
    assert len(sentences) == 2
    feats = static_features(token_views(text, tokens, sentences), sentences)
    druha = feats[sentences[1].first_token]
    assert "init" in druha and "w-1=<s>" in druha and "bl=." not in druha


def test_history_features() -> None:
    assert "c-1=<s>" in history_features([])
    f = history_features(["O", "PERSON", "PERSON", "O"])
    assert {"c-1=O", "c-2=PERSON", "c-3=PERSON", "c-12=PERSON|O", "c-1in=False"} <= set(f)


def test_name_lists_with_inflected_forms() -> None:
    index = name_list_index("cs")
    assert "first" in index.get("jan", ())
    assert "city" in index.get("praha", ()) and "city" in index.get("praze", ())
    assert name_list_index("xx") == {}


# ---------------------------------------------------------------- training and prediction


def test_predicts_unseen_names_and_case_numbers(model: TokenClassifier) -> None:
    text = "Svědek Zuzana Pokorný uvedl , že obžalovaného nezná . Věc projednal Nejvyšší soud pod sp. zn. " \
           "7 Tdo 321/2019 dne 3.4.2020 ."
    spans = model.predict_spans(text)
    found = {text[s.start:s.end]: s for s in spans}
    person = next(s for s in spans if "Zuzana" in text[s.start:s.end])
    assert text[person.start:person.end] == "Zuzana Pokorný" and person.category is Category.PERSON
    assert any("321/2019" in k for k in found)
    assert all(0.5 <= s.score <= 1.0 and s.source == "model" and s.type == "MODEL" for s in spans)
    assert not any("Nejvyšší" in k or "obžalovaného" in k for k in found)
    assert model.train_seconds > 0 and model.meta["documents"] == 200


def test_threshold_trades_precision_for_recall(model: TokenClassifier) -> None:
    text = "Advokát obviněného Hana Horák navrhl výslech dalších svědků ."
    assert len(model.predict_spans(text, threshold=0.0001)) >= len(model.predict_spans(text, threshold=0.99))


def test_serialization_round_trip(model: TokenClassifier, tmp_path: Path) -> None:
    data = model.to_bytes()
    again = TokenClassifier.from_bytes(data)
    text = "Soud vyslechl poškozenou Lucie Veselý , která žije v Zlín ."
    assert again.predict_spans(text) == model.predict_spans(text)
    assert again.meta == model.meta and again.classes == model.classes
    model.save(str(tmp_path / "m.bin"))
    assert TokenClassifier.load(str(tmp_path / "m.bin")).predict_spans(text) == model.predict_spans(text)


def test_loading_rejects_foreign_or_damaged_bytes(model: TokenClassifier) -> None:
    data = model.to_bytes()
    with pytest.raises(ModelFormatError):
        TokenClassifier.from_bytes(b"\x80\x04pickle-bytes")
    with pytest.raises(ModelFormatError):
        TokenClassifier.from_bytes(data[:-10])
    damaged = bytearray(data)
    damaged[-5] ^= 0xFF
    with pytest.raises(ModelFormatError):
        TokenClassifier.from_bytes(bytes(damaged))
    signed = model.to_bytes(key=b"secret")
    assert TokenClassifier.from_bytes(signed, key=b"secret").classes == model.classes
    with pytest.raises(ModelFormatError):
        TokenClassifier.from_bytes(signed, key=b"other")
    with pytest.raises(ModelFormatError):
        TokenClassifier.from_bytes(data, key=b"secret")  # unsigned model where a signed one is required


def test_recognizer_in_pipeline(model: TokenClassifier) -> None:
    config = {"language": "cs", "tokenizer": "regex", "ner": [],
              "recognizers": [{"kind": "classifier", "model_bytes": model.to_bytes()}]}
    doc = Pipeline(config).process("Svědek Karel Marek uvedl , že obžalovaného nezná .")
    assert [(doc.span_text(e.first_token, e.end_token), e.type, e.source, e.category) for e in doc.entities] == [
        ("Karel Marek", "CLS_PERSON_CAP", "classifier", Category.PERSON)]  # not "model": the project model's source
    assert 0.5 <= doc.entities[0].score <= 1.0
    assert isinstance(Pipeline(config).recognizers[0], ClassifierRecognizer)


def test_recognizer_path_config(model: TokenClassifier, tmp_path: Path) -> None:
    path = tmp_path / "model.bin"
    model.save(str(path))
    config = {"language": "cs", "tokenizer": "regex", "ner": [],
              "recognizers": ["patterns", {"kind": "classifier", "model_path": str(path), "threshold": 0.3}]}
    assert any(isinstance(r, ClassifierRecognizer) and r.threshold == 0.3 for r in Pipeline(config).recognizers)


# ---------------------------------------------------------------- learning from decisions


def test_examples_from_decisions() -> None:
    text = "Pan Jan Novák a firma Alfa ."
    neg = examples_from_decisions(text, [(4, 13, "PERSON")], [(22, 26)])
    assert neg.include is None and neg.spans == [(4, 13, "PERSON")]
    part = examples_from_decisions(text, [(4, 13)], [(22, 26)], undecided="exclude", weight=2.0)
    assert part.include == [(4, 13), (22, 26)] and part.spans == [(4, 13, "OTHER")] and part.weight == 2.0
    with pytest.raises(ValueError):
        examples_from_decisions(text, [], [], undecided="maybe")  # type: ignore[arg-type]


def test_added_decisions_change_predictions_on_unseen_document(corpus: list[tuple[str, list]]) -> None:
    unseen = "Výsledky zpracoval tým , který vede projekt Projekt Kestrel od loňského roku ."
    kestrel = unseen.index("Projekt Kestrel")

    def flagged(model: TokenClassifier) -> bool:
        return any(s.start < kestrel + 15 and kestrel < s.end for s in model.predict_spans(unseen))

    before = TokenClassifier.train(corpus, "cs")
    assert not flagged(before), before.predict_spans(unseen)
    doc_b = ("Na poradě jsme probrali rozpočet . Projekt Kestrel bude pokračovat i v příštím roce . "
             "Za Projekt Kestrel odpovídá vedoucí oddělení . Zprávu o projektu Projekt Kestrel dostane ředitel .")
    private = [(i, i + 15, "OTHER") for i in range(len(doc_b)) if doc_b.startswith("Projekt Kestrel", i)]
    decisions = examples_from_decisions(doc_b, private, [])
    after = TokenClassifier.train([*corpus, decisions], "cs")
    assert flagged(after)
    span = next(s for s in after.predict_spans(unseen) if s.start < kestrel + 15 and kestrel < s.end)
    assert span.category is Category.OTHER


def test_excluded_tokens_are_not_training_rows() -> None:
    text = "Alfa beta gama delta ."
    only_public = TrainingDoc(text, [], include=[(0, 4)])
    with pytest.raises(ValueError):  # a single public token: no positive class at all
        TokenClassifier.train([only_public], "")


# ---------------------------------------------------------------- shared gold corpora


@pytest.mark.shared
def test_trains_on_cnec(shared_dir: Path) -> None:
    path = shared_dir / "data" / "cnec-train.jsonl"
    if not path.is_file():
        pytest.skip(f"{path} not found")
    docs = list(read_jsonl(path, 600))
    model = TokenClassifier.train([training_doc_from_gold(d) for d in docs[:500]], "cs")
    from psan.tool.detection.classifier.__main__ import evaluate
    result = evaluate(TokenClassifier.from_bytes(model.to_bytes()), docs[500:])
    assert result["span_recall"] > 0.5 and result["span_precision"] > 0.6


# ---------------------------------------------------------------- batched prediction


def _predict_tokens_unbatched(model: TokenClassifier, text: str) -> list[tuple[int, int, str, float]]:
    """The prediction as it was before batching: every token's hashed features as lists, then greedy
    decoding token by token — the oracle the vectorised, batched prediction must reproduce."""
    import numpy as np

    from psan.tool.detection.classifier.features import OUTSIDE, hash_features
    tokens, sentences = tokenize(text, model.language or None)
    lists = name_list_index(model.language) if model.meta.get("use_lists", True) and model.language else {}
    from psan.tool.detection.classifier.model import lemmatizer_for
    lemmatizer = lemmatizer_for(model.language) if model.meta.get("use_lemmas") else None
    views = token_views(text, tokens, sentences, lemmatizer)
    static = [hash_features(f) for f in static_features(views, sentences, lists)]

    def scores(ids: list[int]) -> np.ndarray:
        out = np.zeros(len(model.classes), dtype=np.float32)
        for i in ids:
            pos = np.searchsorted(model.columns, i)
            if pos < len(model.columns) and model.columns[pos] == i:
                out += model.weights[pos]
        return out

    outside = model.classes.index(OUTSIDE)
    result = []
    for sent in sentences:
        prev: list[str] = []
        for i in range(sent.first_token, sent.end_token):
            z = scores(static[i]) + model.intercept + scores(hash_features(history_features(prev[-3:])))
            z = np.exp(z - z.max())
            p = z / z.sum()
            p_private = float(1.0 - p[outside])
            if p_private >= model.threshold:
                p[outside] = -1.0
                label = model.classes[int(p.argmax())]
            else:
                label = OUTSIDE
            result.append((tokens[i].start, tokens[i].end, label, p_private))
            prev.append(label)
    return result


@pytest.mark.parametrize("batch_tokens", [7, 100, 16_384])
def test_batched_prediction_equals_unbatched(model: TokenClassifier, batch_tokens: int) -> None:
    rng = random.Random(5)
    # unseen names and cities, sentences of different lengths, a leading quote (sentence-initial skip)
    text = " ".join(_sentence(rng, FIRST, LAST, CITIES)[0] for _ in range(60)) + ' „Eva Kučera" bydlí v Zlín .'
    expected = _predict_tokens_unbatched(model, text)
    got = [b for b in model.predict_batches(text, batch_tokens=batch_tokens)]
    assert len(got) >= (2 if batch_tokens < 1000 else 1)
    preds = [(p.token.start, p.token.end, p.label, p.p_private) for p in model.predict_tokens(text)]
    assert [p[:3] for p in preds] == [e[:3] for e in expected]
    assert any(label != "O" for _, _, label, _ in expected)
    assert max(abs(p[3] - e[3]) for p, e in zip(preds, expected, strict=True)) < 1e-5
    flat = [(b.tokens[j].start, model.classes[lab]) for b in got
            for j, lab in zip(b.index.tolist(), b.label.tolist(), strict=True)]
    assert flat == [(e[0], e[2]) for e in expected]


def test_predict_spans_match_token_runs(model: TokenClassifier) -> None:
    rng = random.Random(9)
    text = "\n".join(_sentence(rng, FIRST, LAST, CITIES)[0] for _ in range(40))
    spans = model.predict_spans(text)
    preds = model.predict_tokens(text)
    runs, run = [], []
    for p in preds:
        if run and (p.label != run[-1].label or p.sentence != run[-1].sentence or p.label == "O"):
            if run[-1].label != "O":
                runs.append((run[0].token.start, run[-1].token.end, run[0].label))
            run = []
        run.append(p)
    if run and run[-1].label != "O":
        runs.append((run[0].token.start, run[-1].token.end, run[0].label))
    assert [(s.start, s.end, str(s.category)) for s in spans] == runs
    assert spans
