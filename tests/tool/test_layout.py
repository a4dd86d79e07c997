"""Speaker slots of transcripts ("Émile: …" at a line start) as PERSON spans."""
from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from psan.tool.detection.pipeline import Pipeline
from psan.tool.detection.recognizers.layout import (
    SCORE_ONCE,
    SCORE_REPEATED,
    SPEAKER_RE,
    SpeakerRecognizer,
    name_in_label,
    speaker_lines,
)
from psan.tool.text.document import Category

TRANSCRIPT = ("Émile: Good morning, can you hear me?\n"
              "Dorota Michnik: Yes.\n"
              "Émile: So the first point is the deadline.\n"
              "  Mr Jan van der Berg: I have sent the paper.\n"
              "Emile: OK.\n")


def found(text: str) -> list[tuple[str, float]]:
    return [(text[s.start:s.end], s.score) for s in SpeakerRecognizer().analyze(text)]


def test_speaker_names_at_line_starts_are_persons() -> None:
    spans = SpeakerRecognizer().analyze(TRANSCRIPT)
    assert [TRANSCRIPT[s.start:s.end] for s in spans] == ["Émile", "Dorota Michnik", "Émile",
                                                          "Jan van der Berg", "Emile"]
    assert all(s.category is Category.PERSON and s.type == "SPEAKER" for s in spans)
    scores = dict(found(TRANSCRIPT))
    assert scores["Émile"] == SCORE_REPEATED and scores["Emile"] == SCORE_ONCE


def test_one_label_line_is_not_a_transcript() -> None:
    assert found("Dear Sir,\nJohn: please call me.\nRegards") == []


def test_headings_form_fields_and_sentences_are_not_speakers() -> None:
    text = ("Subject: meeting\nDate: 1 May\nNote: bring the slides\nPředmět: schůze\nOdpowiedź: tak\n"
            "The reasons were as follows: none.\nWhen: Monday\nArticle 6: fair trial\n"
            "ANSWER: yes\nit was late: nobody came\n")
    assert found(text) == []


def test_pipeline_propagates_the_speaker_to_other_mentions() -> None:
    text = "Wiktor: Just a profile picture.\nDorota Michnik: Yeah.\nWiktor: No.\nI think Wiktor is frozen.\n"
    doc = Pipeline({"language": "en", "tokenizer": "regex", "ner": [], "recognizers": ["patterns"]}).process(text)
    names = [doc.span_text(e.first_token, e.end_token) for e in doc.entities if e.category is Category.PERSON]
    assert names.count("Wiktor") == 3 and "Dorota Michnik" in names


def test_evidence_is_counted_per_paragraph() -> None:
    """Sections are cut at blank lines, so one speaker line per paragraph proves nothing (CNEC: "Praha : …")."""
    assert found("RAKOUSKO : Penzinger Strasse 11\n\nPraha : telefon 123\n\nBrno : fax\n") == []
    text = "Émile: hello\nDorota: hi\n\nNote: one\n\nKevin: yes\nKevin: no\n"
    assert [n for n, _ in found(text)] == ["Émile", "Dorota", "Kevin", "Kevin"]


def test_a_time_stamp_may_precede_the_speaker() -> None:
    text = "[00:01:02] Émile: hello\n00:01:09 - Dorota Michnik: hi\n(10:32) ÉMILE: bye\n"
    assert [n for n, _ in found(text)] == ["Émile", "Dorota Michnik", "ÉMILE"]


_LINE_PIECES = ["Émile", "Mr", "van", "Jan Novák", "x", "12", ":", ": ", " ", "\t", "\n", "\r\n", "\n\n", "[00:01:02]",
                "10:32 - ", "ab:cd", "Summary", "-", "’"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_LINE_PIECES), max_size=14).map("".join), st.integers(0, 200), st.integers(0, 200))
def test_speaker_lines_are_the_regexs_matches(text: str, first: int, last: int) -> None:
    line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    start = line_starts[first % len(line_starts)]
    end = start + last % (len(text) - start + 1)
    assert [m.span() for m in speaker_lines(SPEAKER_RE, text, start, end)] == \
        [m.span() for m in SPEAKER_RE.finditer(text, start, end)], (text, start, end)


def _name_as_it_was(text: str, start: int, end: int) -> tuple[int, int] | None:
    """``SpeakerRecognizer._name`` before it read a cached answer per label, which read the text at the label's
    offsets (the oracle of the test below, its rules written as one refusal each)."""
    from psan.tool.detection.recognizers.layout import LABELS, PARTICLES, TITLES

    def name_word(word: str) -> bool:
        return word[:1].isupper() and (word[0].isalpha() or any(ch.isalpha() for ch in word))

    def shouting(word: str) -> bool:
        return word.isupper() and len(word) > 1 and not word.isalpha()

    label = text[start:end]
    if not any(ch in " \t" for ch in label):
        lower = label.lower()
        refused = lower.rstrip(".") in TITLES or lower in LABELS or not name_word(label) or shouting(label)
        return None if refused else (start, end)
    spans = [(start + m.start(), start + m.end()) for m in re.finditer(r"\S+", label)]
    while spans and text[spans[0][0]:spans[0][1]].lower().rstrip(".") in TITLES:
        spans = spans[1:]
    words = [text[a:b] for a, b in spans]
    refused = (not words or words[0].lower() in LABELS or " ".join(words).lower() in LABELS
               or not (name_word(words[0]) and name_word(words[-1]))
               or any(not name_word(w) and w.lower() not in PARTICLES for w in words)
               or (len(words) == 1 and shouting(words[0])))
    return None if refused else (spans[0][0], spans[-1][1])


LABEL_PIECES = ["Émile", "Mr", "mr.", "Dr.", "Jan", "van", "der", "Berg", "ABC", "A1", "X", "Ⅻ", "Author", "key",
                "Key Words", "de", "ok", "1", " ", "  ", "\t", "-", ".", "é", "ÉMILE", "O'Neil"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(LABEL_PIECES), max_size=8).map("".join), st.integers(0, 40), st.integers(0, 40))
@example("Dr. Jan van der Berg", 0, 20)
@example("x Mr Author Key Words ÉMILE A1 Ⅻ", 2, 33)
def test_a_labels_name_is_the_one_found_in_the_text(text: str, start: int, end: int) -> None:
    """The cached answer per label, moved to the label's place, is what the text-reading form answered."""
    start, end = min(start, len(text)), min(max(start, end), len(text))
    found = name_in_label(text[start:end])
    assert (found and (start + found[0], start + found[1])) == _name_as_it_was(text, start, end)
