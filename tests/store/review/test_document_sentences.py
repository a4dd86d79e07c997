"""A document's sentences as the reading plan sees them, from per-sentence sums, are what a walk over every
sentence's tokens gives (the plan is rebuilt on every reading window, so it must be cheap and exact)."""
from hypothesis import given, settings
from hypothesis import strategies as st

from psan.store.review.risk_review import document_sentences, ranges_mask, unseen_stretches
from psan.tool.text.document import Document, Sentence, Token


def _walk(doc: Document, covered, seen, hand, pending, masked_starts):
    """The plan's sentences as the first version built them: every token of every sentence, one by one."""
    n, out = len(doc.tokens), []
    for s in doc.sentences:
        first, end = s.first_token, min(s.end_token, n)
        if first >= end:
            continue
        stretches = unseen_stretches(seen, first, end)
        unseen, unseen_end = stretches[0] if stretches else (end, end)
        out.append((first, end, [doc.text[t.start:t.end] for t in doc.tokens[first:end]],
                    [bool(c) for c in covered[first:end]], sum(masked_starts[first:end]), not stretches,
                    any(hand[first:end]), unseen, any(pending[first:end]), unseen_end, stretches))
    return out


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_sums_per_sentence_give_what_the_walk_gives(data):
    n = data.draw(st.integers(0, 40))
    text = " ".join(f"w{i}" for i in range(n))
    tokens, at = [], 0
    for i in range(n):
        tokens.append(Token(i, at, at + len(f"w{i}")))
        at += len(f"w{i}") + 1
    cuts = sorted(set(data.draw(st.lists(st.integers(0, n + 3), max_size=8))) | {0})
    sentences = [Sentence(a, b) for a, b in zip(cuts, [*cuts[1:], n], strict=True)]  # some empty or past the end
    doc = Document(text, tokens, sentences)
    masks = [bytearray(data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))) for _ in range(5)]
    for stamp in (None, "2026-11-29"):
        got = document_sentences(7, stamp, doc, *masks)
        want = _walk(doc, *masks)
        assert [(s.first_token, s.end_token, list(s.view.words), [bool(c) for c in s.view.covered],
                 s.view.private_spans, s.read, s.hit, s.first_unseen, s.pending, s.unseen_end, s.unseen)
                for s in got] == want
        assert all(s.document_id == 7 for s in got)
        keys = [s.key for s in got]
        assert (keys == [()] * len(got)) if stamp is None else len(set(keys)) == len(keys)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 30), st.lists(st.tuples(st.integers(-3, 35), st.integers(-3, 35)), max_size=12))
def test_a_mask_of_ranges_marks_what_marking_each_range_marks(n, ranges):
    want = bytearray(n)
    for first, end in ranges:
        for t in range(max(first, 0), min(end, n)):
            want[t] = 1
    assert ranges_mask(n, [f for f, _ in ranges], [e for _, e in ranges]) == want
