"""A short text's regexes that start with digits, tried at the starts of its runs of digits, find what their scans do.

Why: :mod:`psan.tool.detection.recognizers.digit_runs` exists for speed only (one scan of a short text for its runs
of digits instead of one ``\\d`` scan per regex); a run start it left out where a shape holds would drop a date, a
card number or a street (a leak).  The properties compare, on short texts rich in digits of every kind (Arabic-Indic,
astral) and the characters before them: the run starts against every position where each declared shape holds (a
character-walk of the shapes), each declared regex tried there against its own scan of the text, and each English
recognizer's spans against those of its regexes scanning the whole text.
"""
from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from psan.tool.detection.recognizers import digit_runs, prescan
from psan.tool.detection.recognizers.patterns import default_recognizers
from psan.tool.detection.recognizers.prescan import finditer_at, start
from tests.tool.test_prescan import DECLARED, PIECES, SAMPLES, match_starts, spans_of

#: the declared regexes whose shapes a short text finds by its runs of digits (card and social security numbers,
#: numeric dates, file numbers, the English street form, …)
LED = [(regex, shapes) for regex, shapes in DECLARED if digit_runs.digit_led(shapes) is not None]
SHORT = st.lists(st.sampled_from(PIECES), max_size=24).map("".join)


def shape_holds(text: str, p: int, chars: tuple[str, ...], not_before: str | None) -> bool:
    """The shape at ``p``, character by character (the reference)."""
    if p + len(chars) > len(text) or any(re.fullmatch(cls, text[p + k]) is None for k, cls in enumerate(chars)):
        return False
    return not_before is None or p == 0 or re.fullmatch(not_before, text[p - 1]) is None


def test_the_digit_led_shapes_are_there() -> None:
    assert len(LED) >= 5  # card, social security number, numeric date, file number, English street


@settings(max_examples=500, deadline=None)
@given(SHORT)
@example("٣12/34 𝟙2345-67 -1234 5678 a123 .12-34-5678 12345/06")
@example("0 Baker")
def test_run_starts_hold_every_position_of_their_shapes(text: str) -> None:
    for _, shapes in LED:
        allowed = set(digit_runs.run_starts(text, digit_runs.digit_led(shapes)))
        held = {p for p in range(len(text)) for shape in shapes if shape_holds(text, p, shape.chars, shape.not_before)}
        assert held <= allowed, (shapes, text)


@settings(max_examples=500, deadline=None)
@given(SHORT)
@example("4111 1111 1111 1111, 078-05-1120, 3.5.2004, 12345/06 and 12 Baker Street")
def test_a_regex_tried_at_the_run_starts_finds_what_its_scan_finds(text: str) -> None:
    assert len(text) < prescan._MIN_CHARS  # noqa: SLF001 - a short text: the runs, not the pre-scan
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(prescan, "_MAX_SHARE", 1.0)  # the run starts always, never the regex's scan
        for regex, shapes in LED:
            found = finditer_at(regex, text, shapes)
            assert spans_of(found) == spans_of(list(regex.finditer(text))), (regex.pattern[:60], text)
            assert set(match_starts(regex, text)) <= set(prescan.candidates(text, shapes)), text


@settings(max_examples=300, deadline=None)
@given(SAMPLES)
@example("4111 1111 1111 1111 on 3.5.2004 at 12 Baker Street, 078-05-1120, no. 12345/06")
def test_recognizers_find_the_same_spans_on_a_short_text(text: str) -> None:
    """Each English recognizer as the pipeline runs it on a short text against its regexes scanning the whole text."""
    recognizers = default_recognizers("en")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(prescan, "_MAX_SHARE", 1.0)
        with_runs = [r.analyze(text, None) for r in recognizers]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(prescan, "digit_led", lambda shapes: None)  # the short text's plain form: every regex scans it
        whole_scans = [r.analyze(text, None) for r in recognizers]
    assert with_runs == whole_scans, text


@pytest.mark.parametrize(("cls", "holds"), [
    (r"\d", True), (r"\w", True), (r"[\d-]", True), (r"[\w.,/-]", True), (r"[\d/.,-]", True), (r"[a\d]", True),
    (r"[^\d]", False), (r"[\\d]", False), (r"[a-z]", False), (r"(?i:[\d])", False), (r"\s", False), ("[]\\d]", True),
    (r"[\d", False), ("[\\d\\]", False), (r"[[\d]", False), (r"[0-9]", False),
])
def test_a_class_holds_every_digit_only_when_it_says_so(cls: str, holds: bool) -> None:
    assert digit_runs.holds_every_digit(cls) is holds


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([r"\d", r"\w", "a", "-", ".", "/", r"\\", "d", "^", "]", "[", r"\s", "0-9", " "]),
                min_size=1, max_size=5).map(lambda items: "[" + "".join(items) + "]"))
def test_a_set_said_to_hold_every_digit_holds_them(cls: str) -> None:
    try:
        compiled = re.compile(cls)
    except re.error:  # no class: a shape of it fails at its compilation, whatever is said of it
        return
    if digit_runs.holds_every_digit(cls):
        assert all(compiled.fullmatch(d) for d in "0123456789٣۴߅०১੨૩୪௫౬೭൮๙໑༢၃႔០᠑𝟙𝟡"), cls


def test_a_shape_that_does_not_start_with_digits_after_a_class_of_them_has_no_runs() -> None:
    assert digit_runs.digit_led((start(r"\d"),)) is None  # no character before ruled out: not a run start
    assert digit_runs.digit_led((start(r"[\d+]", not_before=r"\w"),)) is None
    assert digit_runs.digit_led((start(r"\d", not_before=r"[.]"),)) is None
    assert digit_runs.digit_led((start(r"\d", r"\d", "x", not_before=r"[\d-]"),))[0][0] == 2
    assert prescan.candidates("1 " * 50, (start(r"\d", not_before=r"\w"),)) is None  # crowded: the regex scans
    assert prescan.candidates("a 12 b 3" + " " * 40, (start(r"\d", r"\d", not_before=r"\w"),)) == [2]
