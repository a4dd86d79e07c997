"""Document-level gold (BSNLP): later mentions of a tagged form are repeats, not false alarms (invented texts)."""
from __future__ import annotations

import json
from pathlib import Path

from ner_eval.corpus import CorpusDoc, GoldSpan
from ner_eval.semantics import article_of, compatible, document_level, repeat_counts


def _doc(doc_id: str, text: str, gold: list[tuple[str, str]], source: str = "bsnlp-pl:val") -> CorpusDoc:
    spans = []
    for form, label in gold:
        start = text.index(form)
        spans.append(GoldSpan(start, start + len(form), label))
    return CorpusDoc(doc_id, "pl", text, spans, source)


def _at(text: str, form: str, category: str | None, nth: int = 0) -> tuple[int, int, str | None]:
    start = -1
    for _ in range(nth + 1):
        start = text.index(form, start + 1)
    return start, start + len(form), category


def test_article_of_strips_the_chunk_number() -> None:
    assert article_of("bsnlp-pl-val-07-02") == "bsnlp-pl-val-07"
    assert article_of("bsnlp-pl-val-07") == "bsnlp-pl-val-07"  # an article of one chunk keeps its number
    assert article_of("plain") == "plain"


def test_only_bsnlp_sources_are_document_level() -> None:
    assert document_level([_doc("bsnlp-pl-val-01-01", "Ala", [])])
    assert not document_level([_doc("uner-sk-dev-x-01", "Ala", [], source="uner-sk:dev")])
    assert not document_level([])


def test_compatible_labels() -> None:
    assert compatible("PERSON", "PER") and compatible("ORGANIZATION", "ORG") and compatible("LOCATION", "LOC")
    assert compatible("OTHER", "MISC") and compatible("DEMOGRAPHIC", "MISC")
    assert not compatible("LOCATION", "ORG") and not compatible("DATE", "MISC") and not compatible(None, "PER")


def test_a_later_mention_in_another_chunk_is_a_repeat() -> None:
    first = _doc("bsnlp-pl-val-01-01", "Jan Wiśniak odwiedził Gdynię .", [("Jan Wiśniak", "PER"), ("Gdynię", "LOC")])
    second = _doc("bsnlp-pl-val-01-02", "Potem Jan Wiśniak wrócił , a Gdynię opuścił wtorek .", [])
    other = _doc("bsnlp-pl-val-02-01", "Jan Wiśniak nie jest tu oznaczony .", [])
    system = [
        [_at(first.text, "Jan Wiśniak", "PERSON"), _at(first.text, "Gdynię", "LOCATION")],
        [_at(second.text, "Jan Wiśniak", "PERSON"), _at(second.text, "Gdynię", "ORGANIZATION"),
         _at(second.text, "wtorek", "DATE")],
        [_at(other.text, "Jan Wiśniak", "PERSON")],  # another article: a false alarm
    ]
    counts = repeat_counts([first, second, other], system)
    assert (counts.system, counts.hit, counts.repeats, counts.repeats_any_label) == (6, 2, 1, 2)
    assert counts.precision == 3 / 6
    assert counts.precision_any_label == 4 / 6


def test_a_different_form_or_a_part_is_no_repeat() -> None:
    doc = _doc("bsnlp-pl-val-03-01", "Rada Miejska obradowała . Radzie Miejskiej i Rada podziękowano .",
               [("Rada Miejska", "ORG")])
    system = [[_at(doc.text, "Radzie Miejskiej", "ORGANIZATION"), _at(doc.text, "Rada", "ORGANIZATION", 1)]]
    counts = repeat_counts([doc], system)
    assert (counts.hit, counts.repeats, counts.repeats_any_label) == (0, 0, 0)


def test_one_range_with_two_categories_counts_once() -> None:
    doc = _doc("bsnlp-pl-val-04-01", "Marta Zyl . Marta Zyl .", [("Marta Zyl", "PER")])
    later = _at(doc.text, "Marta Zyl", None, 1)[:2]
    counts = repeat_counts([doc], [[(*later, "LOCATION"), (*later, "PERSON")]])
    assert (counts.system, counts.repeats, counts.repeats_any_label) == (1, 1, 1)


def test_evaluate_reports_corpus_semantics_only_for_document_level_gold(tmp_path: Path) -> None:
    from ner_eval.evaluate import evaluate_corpus
    path = tmp_path / "toy-pl.jsonl"
    text = "Jan Wiśniak mieszka w Gdyni . Jan Wiśniak pracuje ."
    rows = [{"id": "bsnlp-pl-val-01-01", "lang": "pl", "source": "bsnlp-pl:val", "text": text,
             "spans": [{"start": 0, "end": 11, "label": "PER", "entity": None, "identifier": None}]}]
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    summary = evaluate_corpus(path, ["gazetteers"], run_simulation=False, log=lambda *_: None)
    assert summary["document_level_gold"] is True
    sem = summary["pipelines"]["gazetteers"]["corpus_semantics"]
    assert sem["system"] == summary["pipelines"]["gazetteers"]["standard"]["global"]["system"]
    assert sem["hit"] == summary["pipelines"]["gazetteers"]["standard"]["global"]["system_hit"]
