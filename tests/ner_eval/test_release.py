"""``python -m ner_eval release`` end to end on a tiny corpus: real PostgreSQL, Redis, worker tasks, HTTP API.

The run makes its own throw-away database and Redis prefix (PSAN_TEST_DATABASE_URL / PSAN_TEST_REDIS_URL,
as the suite's), so it does not touch the session's app.
"""
from __future__ import annotations

import json
import subprocess  # nosec B404 - the test runs this repository's own CLI
import sys
from pathlib import Path

import pytest

from ner_eval.release.attribution import ORDER
from ner_eval.release.measure import masked_mask, printed_inside, reprinting_kinds
from ner_eval.release.person import Person, Shown, View
from ner_eval.release.run import (
    SECONDS_PER_HAND_SPAN,
    SECONDS_PER_JUDGMENT,
    SECONDS_PER_LABEL,
    SECONDS_PER_TOKEN_READ,
    miss_kinds,
    overridden_private,
)

#: (text, names to mark as gold); a name the NER may miss ("Quarrington") must be marked by hand
DOCS = [
    ("Mr John Smith lives in Prague with his wife Mary Smith. John Smith works for the Ministry of Justice.",
     ["John Smith", "Prague", "Mary Smith"]),
    ("The applicant, Peter Quarrington, was born in 1961 and lives in Brno. Quarrington complained to the court.",
     ["Peter Quarrington", "Brno", "Quarrington", "1961"]),
    ("The Government of the Czech Republic was represented by its Agent, Mr Vít Schorm.", ["Vít Schorm"]),
]


def _corpus(tmp_path: Path) -> Path:
    lines = []
    for n, (text, names) in enumerate(DOCS):
        spans, pos = [], {}
        for name in names:
            start = text.index(name, pos.get(name, 0))
            pos[name] = start + len(name)
            spans.append({"start": start, "end": start + len(name), "label": "DIRECT", "entity": name,
                          "identifier": "DIRECT"})
        lines.append(json.dumps({"id": f"toy-{n}", "lang": "en", "text": text, "spans": spans}))
    path = tmp_path / "toy.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _release(corpus: Path, redis_url: str, *args: str) -> dict:
    """``python -m ner_eval release … --json`` in a process of its own, as users run it.

    Why a process: a throw-away instance is a second Flask app, and the web extensions (the rate limiter) are
    module-level; built in this process it would re-bind them away from the test session's app."""
    cmd = [sys.executable, "-m", "ner_eval", "release", "--corpus", str(corpus), "--redis-url", redis_url,
           "--json", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=Path(__file__).resolve().parents[2],  # nosec B603
                          timeout=900, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _run(tmp_path: Path, redis_url: str, workflow: str, annotator: str = "perfect") -> dict:
    return _release(_corpus(tmp_path), redis_url, "--workflow", workflow, "--annotator", annotator, "--seed", "1")


def _consistent(out: dict) -> None:
    work = out["work"]
    parts = work["by_token"] + work["by_word_type"] + work["by_ne_type"] + work["by_entity"] + work["by_hand"] \
        + work["accepted_spans"]
    assert out["judgments"] == parts
    seconds = (SECONDS_PER_TOKEN_READ * work["tokens_read"] + SECONDS_PER_JUDGMENT * (parts - work["by_hand"])
               + SECONDS_PER_HAND_SPAN * work["by_hand"] + SECONDS_PER_LABEL * work["labels"])
    assert out["seconds_per_1k_tokens"] == pytest.approx(1000 * seconds / out["tokens"], abs=0.01)
    assert out["gold_mentions"] == sum(len(names) for _, names in DOCS)
    assert out["released_documents"] == len(DOCS) and out["key_mismatches"] == 0
    assert out["windows"] == work["windows"] >= len(DOCS) and work["tokens_read"] >= out["tokens"]
    assert 0 < out["masked_precision"] <= 1
    assert out["qa"]["report"]["sampled"] == out["qa"]["sampled"]
    # where the reading went, and the least reading the same judgments could have been certified with
    assert sum(work["read_by_kind"].values()) == work["tokens_read"]
    assert sum(work["hand_by_kind"].values()) == work["by_hand"]
    assert sum(work["judgments_by_kind"].values()) == \
        out["judgments"] - work["offers_confirmed"] - work["offers_dismissed"]  # offers are answered outside windows
    floor = out["reading_floor"]
    assert floor["hit_sentences"] <= floor["sentences"] and floor["qa_sample"] <= floor["qa_population"]
    assert floor["seconds_per_1k_tokens"] <= out["seconds_per_1k_tokens"]  # a toy project reads everything
    why = out["masked_outside_by_mechanism"]  # every masked character outside gold charged to one mechanism
    assert set(why["chars"]) <= {*ORDER, "none"}
    assert sum(why["chars"].values()) == sum(row[5] for row in why["detail"]) + why["chars"].get("none", 0)


@pytest.mark.parametrize("workflow", ["psan", "thesis"])
def test_perfect_annotator_leaks_nothing(tmp_path, redis_url, workflow):
    out = _run(tmp_path, redis_url, workflow)
    _consistent(out)
    assert out["leaked_mentions"] == 0, out["leaked_examples"]
    assert out["overridden_private"] == []
    assert out["flipped_verdicts"] == out["overlooked_spans"] == 0
    assert out["work"]["by_hand"] >= 1  # "1961" is no entity of any NER here
    assert out["candidate_misses"] == 0 and out["qa"]["misses"] == 0


def test_order_seed_repeats_the_document_order(tmp_path, redis_url):
    """Two runs with one ``order_seed`` get the documents in one order (through the app's document choice)."""
    runs = [_release(_corpus(tmp_path), redis_url, "--workflow", "thesis", "--order-seed", "3") for _ in range(2)]
    assert runs[0]["document_order"] == runs[1]["document_order"]
    # documents the app handed out (one whose spans rules settled first is read in the review pass only)
    assert len(runs[0]["document_order"]) >= 2
    assert set(runs[0]["document_order"]) <= {f"toy-{n}" for n in range(len(DOCS))}
    assert runs[0]["order_seed"] == 3 and runs[0]["leaked_mentions"] == 0


def test_noisy_annotator_is_counted(tmp_path, redis_url):
    out = _run(tmp_path, redis_url, "psan", "noisy")
    _consistent(out)
    assert out["leaked_mentions"] <= out["flipped_verdicts"] + out["overlooked_spans"]
    assert out["overridden_private"] == []  # the person's own verdicts, flipped or not, stand


def test_measure_counts_a_replacement_that_prints_the_original_as_released():
    original = "Ann met Bob."
    entries = [{"original_start": 0, "original_end": 3, "output_start": 0, "output_end": 5, "replacement": "Alice",
                "original_text": "Ann"},
               {"original_start": 8, "original_end": 11, "output_start": 10, "output_end": 13, "replacement": "Bob",
                "original_text": "Bob"}]
    mask, fits = masked_mask(original, "Alice met Bob.", entries)
    assert fits and mask[0:3] == b"\x01\x01\x01" and not any(mask[3:])
    _, fits = masked_mask(original, "Alice met Bob!", entries)  # output differs outside the key: unverifiable
    assert not fits


def test_measure_counts_a_replacement_that_reprints_a_word_of_the_mention_as_leaked():
    title = "Na západní frontě klid (1928)"
    entry = {"original_start": 0, "original_end": len(title), "replacement": "Na západní frontě klid (1926)"}
    assert printed_inside(title, [entry], 0, len(title))
    assert not printed_inside(title, [{**entry, "replacement": "Tichý dům (1926)"}], 0, len(title))
    assert not printed_inside("1928", [{**entry, "replacement": "1926"}], 0, 4)  # no word: the digits changed


def test_a_leaked_example_names_the_kind_of_entry_that_reprinted_it_never_its_text():
    entries = [{"original_start": 0, "original_end": 10, "replacement": "Tichý dům", "type": "TITLE"},
               {"original_start": 12, "original_end": 20, "replacement": "[OTHER-3]", "category": "OTHER"},
               {"original_start": 30, "original_end": 40, "replacement": "Brno", "type": "GPE"}]
    assert reprinting_kinds(entries, 5, 15) == ["TITLE", "tag:OTHER"]


@pytest.mark.parametrize("annotator", ["perfect", "noisy"])
def test_review_by_risk_reports_its_bound_and_a_perfect_annotator_stays_within_it(tmp_path, redis_url, annotator):
    out = _release(_corpus(tmp_path), redis_url, "--workflow", "psan", "--review", "risk", "--annotator", annotator,
                   "--seed", "1")
    _consistent(out)
    assert out["review"] == "risk" and out["release_bound"] is not None
    if annotator == "perfect":
        assert out["leaked_mentions"] <= out["release_bound"] * out["gold_mentions"]
    else:
        assert out["leaked_mentions"] <= out["flipped_verdicts"] + out["overlooked_spans"]


def _kinds_on_one_type(person: Person, windows: int = 4) -> list[str]:
    """The kinds of the person's decisions on ``windows`` windows of one public ORG span each."""
    kinds = []
    for n in range(windows):
        span = Shown(n, n + 1, "SUSPICIOUS", ("ORG",))
        view = View(1, n, n + 1, (f"Word{n}",), (span,), ())
        person.enter(view)
        kinds.append(person.next_action(view).kind)
    return kinds


def test_eager_thesis_person_decides_a_type_after_three_identical_verdicts():
    assert _kinds_on_one_type(Person("thesis", policy="eager")) == ["token", "token", "ne_type", "ne_type"]


def test_eager_psan_person_decides_a_type_after_three_identical_verdicts_and_cautious_keeps_to_the_app():
    """The same policy on both sides: an eager psan person decides a type as the eager thesis person does."""
    assert _kinds_on_one_type(Person("psan", policy="eager"))[2:] == ["ne_type", "ne_type"]
    assert "ne_type" not in _kinds_on_one_type(Person("psan"))


def test_view_refuses_gold_outside_its_window():
    answer = {"window": {"document_id": 1, "first_token": 10, "end_token": 12},
              "tokens": [{"text": "Jan"}, {"text": "Novák"}], "annotations": []}
    view = View.from_api(answer, [(0, 2), (11, 14)])
    assert view.gold == ((11, 12),)  # clipped to the window, the rest dropped
    with pytest.raises(ValueError, match="outside the window"):
        View(1, 10, 12, ("Jan", "Novák"), (), ((9, 11),))


def test_thesis_person_decides_by_ne_type_at_the_learn_types_threshold():
    from psan.tool.decisions.suggest import LEARN_PUBLIC_AFTER
    person = Person("thesis")
    kinds = []
    for n in range(LEARN_PUBLIC_AFTER + 1):
        span = Shown(n, n + 1, "SUSPICIOUS", ("ORG",))
        view = View(1, n, n + 1, (f"Word{n}",), (span,), ())
        person.enter(view)
        kinds.append(person.next_action(view).kind)
    assert kinds[:LEARN_PUBLIC_AFTER - 1] == ["token"] * (LEARN_PUBLIC_AFTER - 1)
    assert kinds[LEARN_PUBLIC_AFTER - 1] == "ne_type"


def test_psan_person_decides_a_long_run_of_one_type_by_ne_type_instead_of_accepting_each():
    """Twelve private times in one window (a timetable): ``a`` would cost twelve judgments; deciding them one
    by one until the type is clear, then by NE type, costs ten (as the thesis person pays)."""
    from psan.tool.decisions.suggest import LEARN_TYPE_AFTER
    n = 12
    tokens = tuple(f"{7 + i}:15" for i in range(n))
    gold = tuple((i, i + 1) for i in range(n))
    person = Person("psan", entity_mentions=lambda document, first, end: (1, "DATE"))
    decided: set[int] = set()
    kinds = []
    for _ in range(n):
        spans = tuple(Shown(i, i + 1, "PRIVATE" if i in decided else "SUSPICIOUS", ("th",), True) for i in range(n))
        view = View(1, 0, n, tokens, spans, gold)
        if not kinds:
            person.enter(view)
        action = person.next_action(view)
        kinds.append(action.kind)
        if action.kind == "ne_type":
            break
        decided.add(action.first)
    assert kinds == ["token"] * (LEARN_TYPE_AFTER - 1) + ["ne_type"]
    # with only as many spans as the type decision would need, accepting is no dearer
    person = Person("psan", entity_mentions=lambda document, first, end: (1, "DATE"))
    short = tuple(Shown(i, i + 1, "SUSPICIOUS", ("th",), True) for i in range(LEARN_TYPE_AFTER))
    view = View(1, 0, LEARN_TYPE_AFTER, tokens[:LEARN_TYPE_AFTER], short, gold[:LEARN_TYPE_AFTER])
    person.enter(view)
    assert person.next_action(view).kind == "accept"


def test_person_decides_private_words_by_word_type_only_after_two_documents():
    """"a lawyer" private in one court decision says nothing about the next one: the word-type rule (every
    document) waits until the words were private in two documents; public words need one."""
    person = Person("thesis")
    kinds = []
    for document in (1, 2, 3):
        span = Shown(0, 2, "SUSPICIOUS", ("OCCUPATION",))
        view = View(document, 0, 2, ("a", "lawyer"), (span,), ((0, 2),))
        person.enter(view)
        kinds.append(person.next_action(view).kind)
    assert kinds == ["token", "token", "word_type"]
    for document in (1, 2):
        span = Shown(0, 1, "SUSPICIOUS", ("ORG",))
        view = View(document, 0, 1, ("Court",), (span,), ())
        person.enter(view)
        kinds.append(person.next_action(view).kind)
    assert kinds[3:] == ["token", "word_type"]
    # a name is private wherever it stands: one document is enough
    for document in (1, 2):
        span = Shown(0, 2, "SUSPICIOUS", ("PERSON",))
        view = View(document, 0, 2, ("Jan", "Novák"), (span,), ((0, 2),), names=((0, 2),))
        person.enter(view)
        kinds.append(person.next_action(view).kind)
    assert kinds[5:] == ["token", "word_type"]


def test_simulate_refuses_the_removed_levers(tmp_path, capsys):
    from ner_eval.cli import main
    assert main(["simulate", "--corpus", str(_corpus(tmp_path)), "--workflow", "psan", "--levers", "accept"]) == 2
    assert "removed in-memory session" in capsys.readouterr().err


def test_psan_person_decides_unrecognized_words_with_x_and_an_entity_only_when_the_window_repeats_it():
    """``x`` decides the entity in the whole document: the psan person takes it for private words the app groups
    into no entity (a name it marked, its lookup matches), and for a recognized entity only when the app offers
    more of its mentions in the window."""
    offers = {0: (1, "PERSON"), 2: (0, None), 4: (1, "LOCATION")}
    person = Person("psan", entity_mentions=lambda document, first, end: offers[first])
    tokens = ("Jan", "met", "KALOR", "in", "Brno", "and", "Brno")
    spans = (Shown(0, 1, "SUSPICIOUS", ("PERSON",), True), Shown(2, 3, "SUSPICIOUS", (), True),
             Shown(4, 5, "SUSPICIOUS", ("GPE",), True))
    gold = ((0, 1), (2, 3), (4, 5))

    def decided(done: tuple[int, ...]) -> View:
        return View(1, 0, 7, tokens, tuple(Shown(s.first, s.end, "PRIVATE" if s.first in done else s.decision,
                                                 s.ne_types, s.suggestion) for s in spans), gold)

    person.enter(decided(()))
    first = person.next_action(decided(()))
    assert (first.kind, first.first) == ("entity", 2)
    assert person.next_action(decided((2,))).kind == "accept"  # Jan and Brno: one mention each in the window
    offers[4] = (2, "LOCATION")
    person = Person("psan", entity_mentions=lambda document, first, end: offers[first])
    person.enter(decided((2,)))
    second = person.next_action(decided((2,)))
    assert (second.kind, second.first) == ("entity", 4)


def test_psan_person_marks_unrecognized_words_with_x_and_recognized_ones_by_token():
    """A hand-marked name nothing recognized (a project name) is marked with ``x``, so its other occurrences in the
    document are decided with it; a name inside a recognized span is marked by token (its entity is not it)."""
    person = Person("psan")
    tokens = ("KALOR", "at", "Harbour", "Mills")
    spans = (Shown(2, 4, "PUBLIC", ("ORG",)),)
    view = View(1, 0, 4, tokens, spans, ((0, 1), (2, 3)))
    person.enter(view)
    first = person.next_action(view)
    assert (first.kind, first.first, first.scope) == ("hand", 0, "entity")
    view = View(1, 0, 4, tokens, (Shown(0, 1, "PRIVATE"), *spans), ((0, 1), (2, 3)))
    second = person.next_action(view)
    assert (second.kind, second.first, second.scope) == ("hand", 2, None)
    assert Person("thesis").next_action(View(1, 0, 4, tokens, (), ((0, 1),))).scope is None


def test_psan_person_decides_an_entity_it_decided_private_before_in_the_document_with_x():
    """An organisation shown once per window is accepted as suggested; when the same words show again in the same
    document, after the person decided them private, the person takes ``x`` (its other mentions with it); in
    another document it starts again."""
    person = Person("psan", entity_mentions=lambda document, first, end: (1, "ORGANIZATION"))
    tokens = ("at", "Gentileschi", "Group")
    shown = (Shown(1, 3, "SUSPICIOUS", ("ORG",), True),)
    kinds = []
    for document in (1, 1, 2):
        view = View(document, 0, 3, tokens, shown, ((1, 3),))
        person.enter(view)
        kinds.append(person.next_action(view).kind)
    assert kinds == ["accept", "entity", "accept"]


@pytest.mark.parametrize("category,is_mention,kind", [
    ("ORGANIZATION", True, "entity"),  # a court cited twice: one X, its other mentions here with it
    ("PERSON", True, "accept"),  # a name's public X would reach every document: accepted as suggested
    ("ORGANIZATION", False, "accept"),  # the span is inside a mention, not the entity X would decide
])
def test_psan_person_decides_a_public_entity_shown_again_with_x(category: str, is_mention: bool, kind: str):
    tokens = ("Court", "of", "Cassation", "and", "Court", "of", "Cassation")
    spans = (Shown(0, 3, "SUSPICIOUS", ("ORG",), False), Shown(4, 7, "SUSPICIOUS", ("ORG",), False))
    person = Person("psan", entity_mentions=lambda document, first, end: (2, category),
                    entity_is_mention=lambda document, first, end: is_mention, type_memory={"ORG": [1, 5]})
    view = View(1, 0, 7, tokens, spans, ())
    person.enter(view)
    action = person.next_action(view)
    assert (action.kind, action.private) == (kind, False)


def test_psan_person_keeps_x_public_for_a_type_it_found_mostly_public():
    """A public ``X`` counts a public decision per mention: on a type the person found private as often as public
    it would keep the app from learning the type, so the person accepts the suggestions instead."""
    tokens = ("Court", "of", "Cassation", "and", "Court", "of", "Cassation")
    spans = (Shown(0, 3, "SUSPICIOUS", ("ORG",), False), Shown(4, 7, "SUSPICIOUS", ("ORG",), False))
    for memory, kind in (({}, "accept"), ({"ORG": [4, 5]}, "accept"), ({"ORG": [2, 5]}, "entity")):
        person = Person("psan", entity_mentions=lambda document, first, end: (2, "ORGANIZATION"),
                        entity_is_mention=lambda document, first, end: True, type_memory=dict(memory))
        view = View(1, 0, 7, tokens, spans, ())
        person.enter(view)
        assert person.next_action(view).kind == kind


def test_with_no_qa_rounds_allowed_a_release_by_risk_still_goes_out_whole_and_leak_free(tmp_path, redis_url):
    """``--qa-rounds 0``: a project the bound blocks reads what nobody read instead of sampling (a toy project reads
    everything anyway); either way the release goes out whole, nothing leaked, nothing left unread."""
    out = _release(_corpus(tmp_path), redis_url, "--workflow", "psan", "--review", "risk", "--qa-rounds", "0")
    _consistent(out)
    assert out["leaked_mentions"] == 0 and out["released_documents"] == len(DOCS) and out["release_bound"] == 0
    assert all("read_unseen" in s for s in out["review_samples"])


def test_a_qa_window_tells_a_wrong_public_span_from_text_no_span_covered():
    """What a QA reviewer finds unmasked: a gold mention under a public span (a rule or a person made it public),
    under an undecided one, or where no span is; a mention a private span covers is no miss."""
    view = View(1, 0, 8, tuple("abcdefgh"), (Shown(0, 1, "PUBLIC"), Shown(2, 3, "PRIVATE"), Shown(4, 5, "SUSPICIOUS")),
                ((0, 1), (2, 3), (4, 5), (6, 7)))
    assert miss_kinds(view) == {"public": 1, "suspicious": 1, "uncovered": 1}


def test_a_private_verdict_the_app_holds_public_is_reported_unless_the_person_changed_it():
    trace = [[1, 7, "accept", "ORG", 1, 3, 5], [1, 7, "hand", "-", 1, 3, 8], [2, 7, "token", "ORG", 1, 9, 10],
             [3, 7, "token", "ORG", 0, 9, 10], [3, 8, "entity", "ORG", 1, 0, 2]]
    decisions = {(7, 3, 5): "PUBLIC", (7, 3, 8): "PRIVATE", (7, 9, 10): "PUBLIC", (8, 0, 2): None}
    out = overridden_private(trace, decisions, {7: "doc-a"})
    assert out == [{"document": "doc-a", "first_token": 3, "end_token": 5, "kind": "accept"}]
