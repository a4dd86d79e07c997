"""The reading queue's pure parts: runs of consecutive sentences within a window size, around other leases;
mentions counted once however many spans nest in them."""
from psan.store.review.risk_review import ReadingPlan, SentenceRef, masked_mentions, next_stretch, reading_range
from psan.tool.risk import SentenceView


def _ref(doc: int, first: int, end: int) -> SentenceRef:
    words = ["w"] * (end - first)
    return SentenceRef(doc, first, end, SentenceView(words, [False] * len(words)), False, False)


def _plan(*refs: SentenceRef) -> ReadingPlan:
    return ReadingPlan("risk", 0.005, 10, list(refs), list(refs), [1.0] * len(refs), list(refs))


def test_a_run_is_consecutive_sentences_of_one_document_within_the_size():
    plan = _plan(_ref(1, 0, 10), _ref(1, 10, 25), _ref(1, 25, 60), _ref(2, 0, 5))
    assert [(s.first_token, s.end_token) for s in next_stretch(plan, 30, {})] == [(0, 10), (10, 25)]
    assert [(s.first_token, s.end_token) for s in next_stretch(plan, 5, {})] == [(0, 10)]  # one sentence at least


def test_a_gap_or_another_document_ends_the_run():
    plan = _plan(_ref(1, 0, 10), _ref(1, 20, 30), _ref(2, 0, 5))
    assert [(s.first_token, s.end_token) for s in next_stretch(plan, 300, {})] == [(0, 10)]


def test_text_leased_to_another_account_is_skipped():
    plan = _plan(_ref(1, 0, 10), _ref(1, 10, 20))
    assert [(s.first_token, s.end_token) for s in next_stretch(plan, 300, {1: [(5, 8)]})] == [(10, 20)]
    assert next_stretch(plan, 300, {1: [(0, 20)]}) == []


def test_nested_masked_spans_are_one_mention():
    assert masked_mentions([(0, 3), (1, 2), (2, 3), (5, 6)]) == 2
    assert masked_mentions([]) == 0


def test_a_sentence_longer_than_the_window_is_read_in_parts_from_where_reading_stopped():
    long = SentenceRef(1, 0, 500, SentenceView(["w"] * 500, [False] * 500), False, False, 0)
    assert reading_range([long], 100) == (0, 100)
    resumed = SentenceRef(1, 0, 500, SentenceView(["w"] * 500, [False] * 500), False, False, 100)
    assert reading_range([resumed], 100) == (100, 200)
    assert reading_range([_ref(1, 0, 10), _ref(1, 10, 25)], 300) == (0, 25)


def test_a_sentence_where_a_span_waits_is_left_to_its_span_review():
    waiting = SentenceRef(1, 0, 10, SentenceView(["w"] * 10, [False] * 10), False, False, 0, pending=True)
    plan = _plan(waiting, _ref(1, 10, 20))
    assert [(s.first_token, s.end_token) for s in next_stretch(plan, 300, {})] == [(10, 20)]


def test_reading_skips_the_words_a_span_review_already_showed():
    """A span review showed tokens 40-60 of a 100-token sentence: reading shows 0-40, then 60-100 with the next
    sentence, and never the shown words again."""
    part = SentenceRef(1, 0, 100, SentenceView(["w"] * 100, [False] * 100), False, False, 0, unseen_end=40)
    after = SentenceRef(1, 100, 110, SentenceView(["w"] * 10, [False] * 10), False, False, 100, unseen_end=110)
    plan = ReadingPlan("risk", 0.005, 10, to_read=[part, after])
    run = next_stretch(plan, 300, {})
    assert run == [part] and reading_range(run, 300) == (0, 40)
    tail = SentenceRef(1, 0, 100, SentenceView(["w"] * 100, [False] * 100), False, False, 60, unseen_end=100)
    plan = ReadingPlan("risk", 0.005, 10, to_read=[tail, after])
    run = next_stretch(plan, 300, {})
    assert run == [tail, after] and reading_range(run, 300) == (60, 110)
