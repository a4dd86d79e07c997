"""Token offsets from the token texts (psan.tool.text.form_offsets) against the plain forms they replace: a walk
over the text's characters, and NameTag's own token ranges (the run that reads every token's range)."""
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import psan.tool.detection.ner.nametag as nametag
from psan.tool.detection.ner import NameTagRecognizer
from psan.tool.text.form_offsets import BLANK_TOP, offsets_of_texts
from psan.tool.text.tokens import offsets_clean

#: blanks of every kind str.isspace knows (and characters it does not: zero-width space, BOM, soft hyphen),
#: letters, digits, marks, punctuation, astral characters and a lone surrogate
ALPHABET = st.sampled_from(list(" \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u1680\u2000\u2028\u2029\u202f\u3000"
                                "\u200b\ufeff\xad\u0301abcXYZ019.,'’-()\u0394\u5b57\U0001d7d9\U0001f600\ud800"))


def walk_offsets(text: str, texts: list[str]) -> tuple[list[int], list[int]] | None:
    """The plain form: each token is found at the next non-blank character, or there is no answer."""
    starts, ends, pos = [], [], 0
    for t in texts:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if not t or any(c.isspace() for c in t) or not text.startswith(t, pos):
            return None
        starts.append(pos)
        pos += len(t)
        ends.append(pos)
    return (starts, ends) if not text[pos:].strip() else None


@st.composite
def text_and_texts(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A text and its non-blank runs cut at random places (the tokens of the text, in order), sometimes spoiled:
    a token dropped, cut short, given a blank or a character of its own."""
    text = draw(st.text(ALPHABET, max_size=60))
    texts: list[str] = []
    for run in text.split():
        cuts = sorted(draw(st.sets(st.integers(1, max(1, len(run) - 1)), max_size=3)))
        edges = [0, *(c for c in cuts if c < len(run)), len(run)]
        texts.extend(run[a:b] for a, b in zip(edges, edges[1:], strict=False))
    spoil = draw(st.sampled_from(["none", "none", "drop", "short", "blank", "extra", "empty"]))
    if texts and spoil != "none":
        i = draw(st.integers(0, len(texts) - 1))
        if spoil == "drop":
            del texts[i]
        elif spoil == "short":
            texts[i] = texts[i][:-1]
        elif spoil == "blank":
            texts[i] = texts[i] + " "
        elif spoil == "extra":
            texts[i] = texts[i] + draw(ALPHABET)
        else:
            texts.insert(i, "")
    return text, texts


@given(text_and_texts())
@example(("a b", ["a b"]))  # a blank inside a token: the joined texts differ from the non-blank characters
@example(("ab c", ["a", "b", "c"]))
@example(("a b", ["ab"]))  # the characters of one token stand apart
@example(("a\x85b", ["a", "\x85", "b"]))  # NameTag's token of a character str.isspace calls blank
@example(("  ", []))
@example(("x", [""]))
def test_offsets_of_texts_are_the_walks(case: tuple[str, list[str]]) -> None:
    text, texts = case
    assert offsets_of_texts(text, texts) == walk_offsets(text, texts)


def test_every_blank_is_in_the_table() -> None:
    """The table covers str.isspace: no code point above BLANK_TOP is blank (those are clipped to 'not blank')."""
    assert chr(BLANK_TOP).isspace()
    assert not any(chr(c).isspace() for c in range(BLANK_TOP + 1, 0x110000))


@pytest.fixture(scope="module")
def english(nametag_model) -> NameTagRecognizer:  # noqa: ANN001 - the conftest's locator
    return NameTagRecognizer(nametag_model("english-conll-trivial.ner"))


def _run(rec: NameTagRecognizer, text: str, by_forms: bool, monkeypatch: pytest.MonkeyPatch) -> tuple:
    monkeypatch.setattr(nametag, "FORMS_MIN_CHARS", 0 if by_forms else 10 ** 9)
    fresh = "".join(list(text))  # another object: the last run's cache is not asked
    starts, ends, sentences = rec.token_offsets(fresh)
    texts = rec.known_token_texts(fresh)
    return starts, ends, sentences, rec.analyze(fresh, None), texts


NAMETAG_ALPHABET = st.sampled_from(["John", "Smith", "Paris", "went", "to", "the", "Court", "of", "Appeal", "U.S.",
                                    "Mr.", "3", "May", "2001", ",", ".", "'s", "(", ")", "-", "“", "”", "Ödön",
                                    "Δ", "字", "\U0001f600", "\u0301", "\xad", "\u200b", "\x85", "\u2028", "\x00",
                                    "\ud800", " ", "  ", "\n", "\n\n", "\t", "\xa0", "\u3000", "\r\n"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(NAMETAG_ALPHABET, max_size=80).map("".join))
@example("John Smith\u0301went to a Paris. Mr. Smith met the Court of Appeal in Paris on 3 May 2001.")
@example("John Smith\x85went to\u2028Paris.")  # NameTag's tokens of blanks: its ranges are read again
def test_nametag_by_forms_is_nametag_by_ranges(english: NameTagRecognizer, monkeypatch: pytest.MonkeyPatch,
                                                text: str) -> None:
    """Read by its token texts, NameTag's run gives the offsets, sentences and entities its ranges give, and the
    texts it hands over are the tokens' texts in the document."""
    starts, ends, sentences, entities, texts = _run(english, text, True, monkeypatch)
    assert (starts, ends, sentences, entities) == _run(english, text, False, monkeypatch)[:4]
    if texts is not None:  # the document's token texts, clean (the pipeline does not check them again)
        assert texts == [text[a:b] for a, b in zip(starts, ends, strict=True)]
        assert offsets_clean(text, starts, ends)
    elif "\x85" not in text and "\u2028" not in text:
        pytest.fail("the texts were not taken although nothing but str.isspace blanks stands between the tokens")
