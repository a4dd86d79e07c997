"""A document's sentences as the reading plan sees them, from per-sentence sums, are what a walk over every
sentence's tokens gives (the plan is rebuilt on every reading window, so it must be cheap and exact); a read
sentence is seen as the person found it, without its hand marks."""
from hypothesis import given, settings
from hypothesis import strategies as st

from psan.store.review.risk_review import document_sentences, ranges_mask, starts_mask, unseen_stretches
from psan.tool.text.document import Document, Sentence, Token

#: covered, seen, hand, pending, masked starts; covered and masked starts without the hand marks; covered only by
#: spans rules made public, with and without the hand marks
MASKS = 9


def _walk(doc: Document, covered, seen, hand, pending, masked_starts, covered_found, found_starts, public,
          public_found):
    """The plan's sentences as the first version built them: every token of every sentence, one by one (a read
    sentence through the masks without its hand marks)."""
    n, out = len(doc.tokens), []
    for s in doc.sentences:
        first, end = s.first_token, min(s.end_token, n)
        if first >= end:
            continue
        stretches = unseen_stretches(seen, first, end)
        unseen, unseen_end = stretches[0] if stretches else (end, end)
        words_covered, starts, by_rules = ((covered, masked_starts, public) if stretches
                                           else (covered_found, found_starts, public_found))
        out.append((first, end, [doc.text[t.start:t.end] for t in doc.tokens[first:end]],
                    [bool(c) for c in words_covered[first:end]], [bool(c) for c in by_rules[first:end]],
                    sum(starts[first:end]), not stretches,
                    any(hand[first:end]), unseen, any(pending[first:end]), unseen_end, stretches))
    return out


def _document(data) -> Document:
    n = data.draw(st.integers(0, 40))
    text = " ".join(f"w{i}" for i in range(n))
    tokens, at = [], 0
    for i in range(n):
        tokens.append(Token(i, at, at + len(f"w{i}")))
        at += len(f"w{i}") + 1
    cuts = sorted(set(data.draw(st.lists(st.integers(0, n + 3), max_size=8))) | {0})
    sentences = [Sentence(a, b) for a, b in zip(cuts, [*cuts[1:], n], strict=True)]  # some empty or past the end
    return Document(text, tokens, sentences)


def _seen_as_the_walk(got, doc: Document, masks) -> None:
    assert [(s.first_token, s.end_token, list(s.view.words), [bool(c) for c in s.view.covered],
             [bool(c) for c in s.view.public], s.view.private_spans, s.read, s.hit, s.first_unseen, s.pending,
             s.unseen_end, s.unseen)
            for s in got] == _walk(doc, *masks)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_sums_per_sentence_give_what_the_walk_gives(data):
    doc = _document(data)
    n = len(doc.tokens)
    masks = [bytearray(data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))) for _ in range(MASKS)]
    for stamp in (None, object()):
        got = document_sentences(7, stamp, doc, *masks)
        _seen_as_the_walk(got, doc, masks)
        assert all(s.document_id == 7 for s in got)
        keys = [s.key for s in got]
        assert (keys == [()] * len(got)) if stamp is None else len(set(keys)) == len(keys)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_the_next_plan_of_a_document_reuses_only_the_sentences_nothing_changed_in(data):
    """Planned again with some tokens' masks changed (a decision, a window shown), a document's sentences are what
    the walk gives, and those without a changed token are the same records as before."""
    doc, stamp = _document(data), object()
    n = len(doc.tokens)
    before = [bytearray(data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))) for _ in range(MASKS)]
    first = document_sentences(8, stamp, doc, *before)
    after = [bytearray(m) for m in before]
    for which, token in data.draw(st.lists(st.tuples(st.integers(0, MASKS - 1), st.integers(0, max(n - 1, 0))),
                                           max_size=4 if n else 0)):
        after[which][token] ^= 1
    second = document_sentences(8, stamp, doc, *after)
    _seen_as_the_walk(second, doc, after)
    changed = {t for t in range(n) if any(b[t] != a[t] for b, a in zip(before, after, strict=True))}
    for old, new in zip(first, second, strict=True):
        assert (old is new) == (not any(old.first_token <= t < old.end_token for t in changed))
    third = document_sentences(8, object(), doc, *after)  # a new recognition: every record made again
    _seen_as_the_walk(third, doc, after)
    assert not any(a is b for a, b in zip(second, third, strict=True))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 30), st.lists(st.tuples(st.integers(-3, 35), st.integers(-3, 35)), max_size=12))
def test_a_mask_of_ranges_marks_what_marking_each_range_marks(n, ranges):
    want = bytearray(n)
    for first, end in ranges:
        for t in range(max(first, 0), min(end, n)):
            want[t] = 1
    assert ranges_mask(n, [f for f, _ in ranges], [e for _, e in ranges]) == want


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 30), st.lists(st.integers(-3, 35), max_size=12))
def test_a_mask_of_starts_marks_each_start_in_the_document(n, firsts):
    import numpy as np
    assert starts_mask(n, np.array(firsts, dtype=np.int64)) == bytearray(int(t in firsts) for t in range(n))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 20), st.one_of(st.none(), st.integers(0, 5))), max_size=8),
       st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20), st.one_of(st.none(), st.integers(0, 5))),
                max_size=8))
def test_a_decision_counts_as_taken_in_a_window_when_one_open_then_showed_it(spans, windows):
    """A span decided at ``t`` was decided in a window when some window showed its first token and opened no
    later than ``t`` (a span never decided, or a window with no time, counts nothing)."""
    import numpy as np

    from psan.store.review.risk_review import decided_while_shown
    firsts = np.array([f for f, _ in spans], dtype=np.int64)
    decided_at = np.array([np.nan if t is None else float(t) for _, t in spans], dtype=np.float64)
    shown = [(f, e, None if t is None else float(t)) for f, e, t in windows]
    want = [t is not None and any(a <= f < b and o is not None and o <= t for a, b, o in windows) for f, t in spans]
    assert decided_while_shown(firsts, decided_at, shown).tolist() == want


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), max_size=30))
def test_a_mask_without_another_keeps_only_what_the_other_does_not_mark(pairs):
    from psan.store.review.risk_review import without
    mask, other = bytearray(a for a, _ in pairs), bytearray(b for _, b in pairs)
    assert without(mask, other) == bytearray(int(a and not b) for a, b in pairs)
