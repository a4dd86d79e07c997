"""The simulated annotator on a tiny hand-made corpus with psan's real rules engine."""
from __future__ import annotations

from ner_eval.corpus import CorpusDoc, GoldSpan
from ner_eval.simulate import Session, simulate, with_plus
from psan.tool.text.tokens import tokenize
from tests.ner_eval.toy_corpus import T1, T2, make_doc, toy_corpus


def test_reaches_full_recall_with_sensible_counts() -> None:
    corpus, docs = toy_corpus()
    res = simulate("toy", corpus, docs)
    assert res.recall == 1.0 and res.gold == 5 and res.docs == 2
    # d1: "Jan Novak" private by type (its -1 rule also decides the 2nd occurrence), "Paris" public
    #     by type, Eva by hand (+ lookup rule);
    # d2: the carried-over lookup rule shows Eva -> private by type; Paris is no entity there, so
    #     it is not shown; Bob by hand.
    assert res.by_type == 3
    assert res.by_hand == 2
    assert res.by_token == 0
    assert res.decisions == 5
    assert res.per_doc_decisions == [3, 2]
    assert res.hand_share == 2 / 5
    assert res.tokens == len(tokenize(T1)[0]) + len(tokenize(T2)[0])


def test_mixed_sequences_are_decided_by_token() -> None:
    text = "Rose bought a rose. Rose smiled."
    #       0    5      12 14   20   25
    corpus = [CorpusDoc("r", "en", text, [GoldSpan(0, 4, "PER"), GoldSpan(20, 24, "PER")])]
    docs = [make_doc(text, [(0, 4, "PER"), (20, 24, "PER")])]
    sess = Session(corpus, docs)
    assert sess.verdict(("Rose",)) is True  # the lower-case "rose" is another token
    text2 = "Rose bought a Rose. Rose smiled."
    corpus2 = [CorpusDoc("r", "en", text2, [GoldSpan(0, 4, "PER"), GoldSpan(20, 24, "PER")])]
    docs2 = [make_doc(text2, [(0, 4, "PER"), (14, 18, "PER"), (20, 24, "PER")])]
    res = simulate("mixed", corpus2, docs2)
    assert res.recall == 1.0
    assert res.by_type == 0 and res.by_token == 3 and res.by_hand == 0


def test_lookup_rule_makes_later_occurrences_suspicious() -> None:
    text = "Eva is here. Later Eva and Eva."
    corpus = [CorpusDoc("e", "en", text, [GoldSpan(0, 3, "PER"), GoldSpan(19, 22, "PER"), GoldSpan(27, 30, "PER")])]
    docs = [make_doc(text, [])]
    res = simulate("lookup", corpus, docs)
    # one hand mark; the lookup rule shows the other two, decided private by type in one decision
    assert res.recall == 1.0 and res.by_hand == 1 and res.by_type == 1 and res.decisions == 2


def test_plus_variant_adds_plus_entities() -> None:
    corpus, docs = toy_corpus()
    plus_doc = with_plus(docs[0])
    types = [e.type for e in plus_doc.entities]
    assert types.count("PLUS") == 1  # the second "Jan Novak"
    res = simulate("toy+plus", corpus, docs, plus=True)
    assert res.recall == 1.0


def test_precision_errors_cost_public_decisions() -> None:
    text = "The Guild met. The Guild agreed. Eva came."  # ("the Board" alone is never personal now)
    corpus = [CorpusDoc("b", "en", text, [GoldSpan(33, 36, "PER")])]
    docs = [make_doc(text, [(4, 9, "ORG"), (19, 24, "ORG"), (33, 36, "PER")])]
    res = simulate("fp", corpus, docs)
    assert res.public_decisions == 1 and res.by_type == 2 and res.recall == 1.0


def test_entity_across_sentence_boundary_is_decided_by_token() -> None:
    """A WORD_TYPE rule never matches across sentences, so a by-type decision could never settle it."""
    text = "He met Al. Bo there. Al. Bo again."
    corpus = [CorpusDoc("s", "en", text, [GoldSpan(7, 13, "PER")])]
    docs = [make_doc(text, [(7, 13, "PER")])]
    assert len(docs[0].sentences) > 1
    res = simulate("cross", corpus, docs)
    assert res.recall == 1.0 and res.by_token == 1 and res.by_type == 0 and res.rounds < 10


def test_cli_run_end_to_end_without_corpus_text(tmp_path) -> None:
    """``python -m ner_eval run`` on a tiny corpus: report, plots, summary; no corpus text in them."""
    import json

    from ner_eval.cli import main
    t1 = "Write to zelda.quux@example.org or call Zelda Quux."
    t2 = "Zelda Quux lives at 12 Wobble Lane."

    def span(text: str, part: str, label: str, entity: str, ident: str) -> dict[str, object]:
        start = text.index(part)
        return {"start": start, "end": start + len(part), "label": label, "entity": entity, "identifier": ident}

    rows = [
        {"id": "a", "lang": "en", "source": "t:t", "text": t1,
         "spans": [span(t1, "zelda.quux@example.org", "EMAIL", "e1", "DIRECT"),
                   span(t1, "Zelda Quux", "PERSON", "e2", "DIRECT")]},
        {"id": "b", "lang": "en", "source": "t:t", "text": t2,
         "spans": [span(t2, "Zelda Quux", "PERSON", "e2", "DIRECT"),
                   span(t2, "12 Wobble Lane", "LOC", "e3", "QUASI")]},
    ]
    corpus = tmp_path / "tiny.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["run", "--corpus", str(corpus), "--pipelines", "patterns,nonexistent,default", "--out", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert "nonexistent" in summary["skipped"]
    assert summary["pipelines"]["patterns"]["standard"]["global"]["exact"] >= 1
    assert summary["simulation"]["default"]["recall"] == 1.0
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "## TAB metrics" in report and "## Simulated annotation session" in report
    for name in ("recall_box.png", "precision_box.png", "match_kinds.png", "simulation.png"):
        assert (out / name).stat().st_size > 0
    for secret in ("Zelda", "Quux", "zelda", "Wobble"):
        assert secret not in report and secret not in json.dumps(summary)
