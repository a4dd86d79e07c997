"""The honest simulated session: windows as the app hands them out, an annotator that sees one window."""
from __future__ import annotations

import json
import subprocess  # nosec B404 - runs the repository's own CLI
import sys

import pytest

from ner_eval.annotator import Annotator, Shown, WindowView
from ner_eval.corpus import CorpusDoc, GoldSpan
from ner_eval.session import Project, ProjectEntities, _Doc, gold_token_ranges, run_session
from tests.ner_eval.toy_corpus import T1, make_doc, toy_corpus
from tests.services import REPO


def test_a_gold_span_outside_the_window_is_refused() -> None:
    """The annotator object cannot be handed gold it could not see in its window."""
    view = WindowView(0, 3, ("a", "b", "c"), (), ((0, 1),))
    assert view.gold == ((0, 1),)
    with pytest.raises(ValueError, match="outside the window"):
        WindowView(0, 3, ("a", "b", "c"), (), ((2, 4),))
    with pytest.raises(ValueError, match="outside the window"):
        WindowView(5, 8, ("a", "b", "c"), (), ((0, 1),))


def test_the_session_hands_the_annotator_only_its_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every view the annotator gets has its gold (and spans) inside the window, and windows are small."""
    text = " ".join(f"Person{i} met someone at noon." for i in range(120))  # 720 tokens, 120 sentences
    gold = [GoldSpan(text.index(f"Person{i} "), text.index(f"Person{i} ") + len(f"Person{i}"), "PER")
            for i in range(120)]
    doc = make_doc(text, [(g.start, g.end, "PER") for g in gold[::2]])
    seen: list[WindowView] = []
    original = Annotator.next_action

    def spy(self: Annotator, view: WindowView):
        seen.append(view)
        return original(self, view)

    monkeypatch.setattr(Annotator, "next_action", spy)
    res = run_session("toy", "thesis", [CorpusDoc("d", "en", text, gold)], [doc])
    assert res.covered == res.gold == 120
    assert res.windows >= 3  # 720 tokens never fit one 300-token window
    for view in seen:
        assert view.end_token - view.first_token <= 300
        assert all(view.first_token <= a < b <= view.end_token for a, b in view.gold)


def test_thesis_session_counts_on_a_toy_corpus() -> None:
    corpus, docs = toy_corpus()
    res = run_session("toy", "thesis", corpus, docs)
    out = res.to_dict()
    assert out["final_recall"] == 1.0 and res.gold == 5 and res.docs == 2
    # d1: "Jan Novak" (shown) private by token, its 2nd occurrence is shown by the lookup rule and
    #     decided by word type (seen before, always private); Paris public by token; Eva by hand.
    # d2: Eva is shown (lookup rule of d1) and decided by word type; Bob by hand.
    assert (res.by_token, res.by_word_type, res.by_hand) == (2, 2, 2)
    assert res.decisions == 6
    assert out["hand_marked_share"] == round(2 / 5, 4)
    assert res.windows == 2 and res.review_windows == 0  # each document fits one window; all of it seen
    assert res.keystrokes > res.decisions


def test_entity_decision_decides_all_mentions() -> None:
    text = "Jan Novak came. Later Novak left. Mr Novak is tall."
    gold = [GoldSpan(0, 9, "PER"), GoldSpan(22, 27, "PER"), GoldSpan(37, 42, "PER")]
    doc = make_doc(text, [(0, 9, "PER"), (22, 27, "PER"), (37, 42, "PER")])
    corpus = [CorpusDoc("d", "en", text, gold)]
    entities = ProjectEntities([doc])  # psan.tool.entities, as the app groups them
    assert len(entities.mentions[entities.at(0, gold_token_ranges(corpus[0], doc)[0])]) == 3
    thesis = run_session("toy", "thesis", corpus, [doc])
    psan = run_session("toy", "psan", corpus, [doc], levers=["entity"])
    assert psan.by_entity == 1 and psan.decisions == 1
    assert thesis.decisions > psan.decisions


def test_unknown_lever_and_workflow_are_refused() -> None:
    corpus, docs = toy_corpus()
    with pytest.raises(ValueError, match="lever"):
        run_session("toy", "psan", corpus, docs, levers=["magic"])
    with pytest.raises(ValueError, match="workflow"):
        run_session("toy", "nope", corpus, docs)


def test_view_shows_decisions_of_the_window() -> None:
    corpus, docs = toy_corpus()
    project = Project()
    project.add_ne_types(docs[0])
    d = _Doc(docs[0], corpus[0], [T1[t.start:t.end] for t in docs[0].tokens], gold_token_ranges(corpus[0], docs[0]))
    view = project.view(d, 0, 7)
    assert view.tokens == ("Jan", "Novak", "met", "Eva", "in", "Paris", ".")
    assert Shown(0, 2, "SUSPICIOUS", 0, ("PER",)) in view.spans
    assert view.gold == ((0, 2), (3, 4))


def test_cli_prints_one_json_line(shared_data) -> None:
    corpus = shared_data / "elitr-dev.jsonl"
    if not corpus.is_file():
        pytest.skip(f"{corpus} not found")
    out = subprocess.run([sys.executable, "-m", "ner_eval", "simulate", "--corpus", str(corpus), "--workflow",
                          "thesis", "--limit", "1", "--json", "--levers", "none"], cwd=REPO, capture_output=True,
                         text=True, timeout=600, check=True)  # nosec B603
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    for key in ("decisions_per_1k_tokens", "hand_marked_share", "keystrokes_per_1k_tokens", "windows",
                "final_recall"):
        assert key in data
    assert data["final_recall"] == 1.0 and data["windows"] > 0 and data["decisions_per_1k_tokens"] > 0


def test_cli_refuses_a_missing_corpus() -> None:
    out = subprocess.run([sys.executable, "-m", "ner_eval", "simulate", "--corpus", "/nonexistent.jsonl",
                          "--workflow", "psan", "--json"], cwd=REPO, capture_output=True, text=True,
                         timeout=120)  # nosec B603
    assert out.returncode == 2 and "not found" in out.stderr and "Traceback" not in out.stderr


def test_accept_decides_a_window_with_one_key_when_every_suggestion_is_right() -> None:
    text = "Jan Novak met Eva Dvorak. Jan Novak left."
    gold = [GoldSpan(0, 9, "PER"), GoldSpan(14, 24, "PER"), GoldSpan(26, 35, "PER")]
    doc = make_doc(text, [(0, 9, "PER"), (14, 24, "PER"), (26, 35, "PER")])  # PERSON: suggested private
    corpus = [CorpusDoc("d", "en", text, gold)]
    res = run_session("toy", "psan", corpus, [doc], levers=["accept"])
    assert res.to_dict()["final_recall"] == 1.0
    assert res.by_accept == 1 and res.decisions == 1


def test_accept_fixes_wrong_suggestions_first() -> None:
    text = "Jan Novak met Eva Dvorak. Paris Hilton left."
    gold = [GoldSpan(0, 9, "PER"), GoldSpan(14, 24, "PER")]  # "Paris Hilton" is a hotel here: public
    doc = make_doc(text, [(0, 9, "PER"), (14, 24, "PER"), (26, 38, "PER")])
    res = run_session("toy", "psan", [CorpusDoc("d", "en", text, gold)], [doc], levers=["accept"])
    assert (res.by_token, res.by_accept) == (1, 1)


def test_uncertain_lever_opens_the_least_sure_span_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``uncertain`` the first window is centred on the span whose suggestion is least sure."""
    text = " ".join(f"Known{i} met someone." for i in range(100)) + " Stranger came."
    known = [(text.index(f"Known{i} "), text.index(f"Known{i} ") + len(f"Known{i}")) for i in range(100)]
    stranger = (text.index("Stranger"), text.index("Stranger") + len("Stranger"))
    doc = make_doc(text, [(a, b, "PER") for a, b in known] + [(*stranger, "PER")])
    corpus = CorpusDoc("u", "en", text, [GoldSpan(a, b, "PER") for a, b in [*known, stranger]])
    project = Project({"uncertain"})
    texts = [text[t.start:t.end] for t in doc.tokens]
    for i in range(100):  # the project decided every KnownN private twice, "Stranger" never
        project.word_stats[(f"Known{i}",)] = [2, 0]
    project.word_stats[("Stranger",)] = [1, 1]
    windows: list[tuple[int, int]] = []
    original = Project.work_window

    def spy(self: Project, d: _Doc, first: int, end: int, result) -> None:  # noqa: ANN001
        windows.append((first, end))
        original(self, d, first, end, result)

    monkeypatch.setattr(Project, "work_window", spy)
    from ner_eval.session import SessionResult
    project.run_doc(_Doc(doc, corpus, texts, gold_token_ranges(corpus, doc)), SessionResult("u", "psan", []))
    s = texts.index("Stranger")
    assert windows[0][0] <= s < windows[0][1] and windows[0][0] > 0
