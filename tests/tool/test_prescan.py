"""The shared pre-scan finds the same matches as every recognizer's own scan of the whole text.

Why: :mod:`psan.tool.detection.recognizers.prescan` tries a recognizer's regex only where its declared start shapes
hold; a shape that missed one place where the regex matches would silently drop a span (a leak).  The
properties below check, on generated texts rich in the characters the patterns care about (Unicode digits
and case forms, astral characters, lone surrogates, no-break spaces): every position where a declared regex
matches satisfies its shapes; ``finditer_at`` equals ``finditer`` (with and without ``pos``/``endpos``);
the shape test itself equals a character-by-character reference; and each recognizer's spans are the same
with the pre-scan as with its regexes scanning the whole text.
"""
from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from psan.tool.detection.recognizers import prescan
from psan.tool.detection.recognizers.acronyms import ACRONYM_RE, ACRONYM_STARTS, COINED_RE
from psan.tool.detection.recognizers.addresses import (
    EN_LOOSE_REACH,
    STREET_STARTS,
    UK_POSTCODE_RE,
    UK_POSTCODE_STARTS,
    UkPostcodeRecognizer,
    address_recognizer,
)
from psan.tool.detection.recognizers.amounts import MONEY_OTHER_STARTS, MONEY_RE, MONEY_REACH, MONEY_STARTS
from psan.tool.detection.recognizers.contact import PHONE_CANDIDATE_RE, PHONE_STARTS, IpRecognizer, UrlRecognizer
from psan.tool.detection.recognizers.dates import (
    AGE_REACH,
    AGE_STARTS,
    NUMERIC_DATE_RE,
    NUMERIC_DATE_STARTS,
    UNIT_RE,
    UNIT_STARTS,
    WRITTEN_DAY_STARTS,
    WRITTEN_MONTH_STARTS,
    WrittenDateRecognizer,
)
from psan.tool.detection.recognizers.ids import (
    CARD_STARTS,
    SECRET_AFTER_KEYWORD,
    SECRET_STARTS,
    IbanRecognizer,
    card_recognizer,
    us_ssn_recognizer,
)
from psan.tool.detection.recognizers.institutions import SHAPES as INSTITUTION_SHAPES
from psan.tool.detection.recognizers.names import TITLES, TitledNameRecognizer, title_starts
from psan.tool.detection.recognizers.patterns import default_recognizers
from psan.tool.detection.recognizers.prescan import Scan, ShapedSearch, Start, finditer_at, finditer_in, start
from psan.tool.detection.recognizers.references import BARE_RE, BARE_STARTS, NUMBER_RE, NUMBER_STARTS
from psan.tool.detection.recognizers.references import SHAPES as REFERENCE_SHAPES
from psan.tool.detection.recognizers.titles import TITLE_RE, TITLE_STARTS

_US_SSN = us_ssn_recognizer()
#: every regex that declares start shapes, with them (the age patterns without their ``\b``, checked apart)
DECLARED: list[tuple[re.Pattern[str], tuple[Start, ...]]] = [
    (NUMERIC_DATE_RE, NUMERIC_DATE_STARTS), (UNIT_RE, UNIT_STARTS), (card_recognizer().regex, CARD_STARTS),
    (_US_SSN.regex, _US_SSN.starts), (SECRET_AFTER_KEYWORD, SECRET_STARTS), (MONEY_RE, MONEY_STARTS),
    (TITLE_RE, TITLE_STARTS), (address_recognizer("en").regex, STREET_STARTS["en"]),
    (UK_POSTCODE_RE, UK_POSTCODE_STARTS), (NUMBER_RE, NUMBER_STARTS), (BARE_RE, BARE_STARTS),
    (PHONE_CANDIDATE_RE, PHONE_STARTS), *REFERENCE_SHAPES.items(), *INSTITUTION_SHAPES.items(),
    (ACRONYM_RE, ACRONYM_STARTS), (COINED_RE, ACRONYM_STARTS),
]
#: the triggers searched for where their shapes hold (:class:`ShapedSearch`)
DECLARED.append((WrittenDateRecognizer("en").regex, WRITTEN_DAY_STARTS + WRITTEN_MONTH_STARTS))
TRIGGERS: list[ShapedSearch] = [UkPostcodeRecognizer.trigger, IbanRecognizer.trigger, IpRecognizer.trigger,
                                UrlRecognizer.trigger]
DECLARED += [(trigger.regex, trigger.shapes) for trigger in TRIGGERS if not trigger.shifted]
AGE = [(re.compile(pattern[2:] if pattern.startswith("\\b") else pattern), shapes)
       for pattern, shapes in AGE_STARTS.items()]

#: pieces of text the declared patterns care about, and characters that test the classes' edges
PIECES = [
    "1", "2", "3", "12", "19", "20", "1998", "2004", "31", "0", "12345", "4111", "٣", "𝟙", "²", " ", "  ", "\n", "\t",
    "\u00a0", "\u202f", ".", ",", "/", "-", "–", ":", "=", "(", ")", "[", "]", "+", "'", "\"", "“", "”", "€", "£",
    "$", "№", "°", "A", "EUR", "GBP", "USD", "TRL", "Mr", "Smith", "Street", "Road", "SW1A", "1AA", "M1", "GIR",
    "0AA", "March", "May", "Jan", "years", "Years", "months", "weeks", "day", "days", "hours", "YEARS", "old",
    "aged", "age", "of", "no", "No", "nos", "number", "Nr", "application", "sheet", "plan", "plot", "lot", "map",
    "block", "parcel", "NJA", "RÅ", "HFD", "AD", "MD", "RH", "p.", "WLR", "password", "PASS", "pwd", "heslo",
    "hasło", "token", "api", "key", "secret", "client", "private_key", "pin", "ſecret", "İ", "ı", "\u212aey", "is",
    "entitled", "titled", "headlined", "PKK", "DHKP", "C", "x", "é", "\U00010400", "\ud800", "_", "euros", "million",
    "Turkish", "liras", "sterling", "::", "fe80", "db8", "GB82", "WEST", "1234", "5698", "DE89", "0AA", "192", "168",
    "Edirne", "İstanbul", "Istanbul", "Şırnak", "Sirnak", "Muş", "Mus", "Ankara’s", "Iğdır", "www", "WwW", ".com",
    ".CO", "uk", "http://", "ftp:", "//", "example", "@", "ınt", "org", "yrs", "yr", "year", "-year-", " of age",
    "NO", "NoS", "NOS", "n°", "nr.", "Nr.", "No:", "numbers", "Nov", "North", "bn", "m", "thousand", "złoty",
    "Zloty", "pence", "New", "(TRL)", "\u202f", "000", "12th", "1st", ":e", "Sept.", "Dec", "June", "of ", "5of",
]
texts = st.lists(st.sampled_from(PIECES), max_size=16).map("".join)


def match_starts(regex: re.Pattern[str], text: str, word_start: bool = False) -> list[int]:
    """Every position where ``regex`` matches (with ``word_start``: not after a word character)."""
    return [p for p in range(len(text) + 1) if regex.match(text, p) is not None
            and not (word_start and p > 0 and (text[p - 1].isalnum() or text[p - 1] == "_"))]


@settings(max_examples=400, deadline=None)
@given(texts)
@example("a 5-year-old, 12 yrs-old and 42 \n years of age")
@example("NOS 12, NoS: 5, No(3), no. 4, nos.5, n° 6, Nr. 7, number 8, № 9")
@example("12th of March 2001, 3March, 4 . June, 1:e Dec, 2 of\tMay, 5. Sept., 31st\nOctober, Jan 3, 2004, May 1998")
@example("5of May, 7October, 8August 2001")
@example("5,000 euros, 3 m, 12\u00a0000 Turkish liras, 7.5 bn TRL, 2 ſhillings, 4 \u212aroner, 10 thousand, 5 tenge")
@example("the ČSSD, ŽIVOT and NATO2 (ABCs), ABC-x, a.BC, @AB, X.AB, -AB, ÅSA\nUNESCOORGANIZ")
def test_declared_shapes_hold_wherever_the_regex_matches(text: str) -> None:
    scan = Scan(text)
    for regex, shapes in DECLARED:
        allowed = set(scan.starts(shapes).tolist())
        missed = [p for p in match_starts(regex, text) if p not in allowed]
        assert not missed, (regex.pattern[:60], text, missed)
    for regex, shapes in AGE:
        allowed = set(scan.starts(shapes).tolist())
        assert set(match_starts(regex, text, word_start=True)) <= allowed, (regex.pattern, text)
    shapes, stop, to = MONEY_REACH
    allowed = set(scan.starts(MONEY_OTHER_STARTS).tolist()) | set(scan.reaching(shapes, stop, to).tolist())
    assert set(match_starts(MONEY_RE, text)) <= allowed, text
    for pattern, (shapes, stop, to) in AGE_REACH.items():
        allowed = set(scan.reaching(shapes, stop, to).tolist())
        assert set(match_starts(re.compile(pattern[2:]), text, word_start=True)) <= allowed, (pattern, text)


def spans_of(matches: list[re.Match[str]]) -> list[tuple[tuple[int, int], ...]]:
    return [tuple(m.span(g) for g in range(m.re.groups + 1)) for m in matches]


@settings(max_examples=400, deadline=None)
@given(texts, st.integers(0, 40), st.integers(0, 60))
def test_finditer_at_equals_finditer(text: str, pos: int, endpos: int) -> None:
    prescan._MAX_SHARE, prescan._MIN_CHARS = 1.0, 0  # noqa: SLF001 - the candidates always, never the regex's scan
    try:
        for regex, shapes in DECLARED:
            assert spans_of(finditer_at(regex, text, shapes)) == spans_of(list(regex.finditer(text))), \
                (regex.pattern[:60], text)
            assert spans_of(finditer_at(regex, text, shapes, pos, endpos)) == \
                spans_of(list(regex.finditer(text, pos, endpos))), (regex.pattern[:60], text, pos, endpos)
    finally:
        prescan._MAX_SHARE, prescan._MIN_CHARS = 1 / 32, 20_000  # noqa: SLF001


@settings(max_examples=300, deadline=None)
@given(texts)
@example("go to www.x")  # the dot after "www", which only the shifted shape finds
@example("WwW.")
def test_shaped_triggers_find_what_their_regexes_find(text: str) -> None:
    prescan._MAX_SHARE, prescan._MIN_CHARS = 1.0, 0  # noqa: SLF001 - the candidates always, never the regex's scan
    try:
        for trigger in TRIGGERS:
            found, expected = trigger.search(text), trigger.regex.search(text)
            assert (found and found.span()) == (expected and expected.span()), (trigger, text)
    finally:
        prescan._MAX_SHARE, prescan._MIN_CHARS = 1 / 32, 20_000  # noqa: SLF001


@settings(max_examples=300, deadline=None)
@given(texts)
@example("a.b 10.0.0.1 fe80::1 x://y www.Com")
@example("a:fe80:b, 1.22.333.4 and http://x")
def test_triggers_search_a_short_text_branch_by_branch(text: str) -> None:
    """A trigger with ``branches`` finds in a short text (no pre-scan) the match its regex's own search finds: the
    branches match where the regex does, position by position."""
    branched = [trigger for trigger in TRIGGERS if trigger.branches]
    assert branched
    for trigger in branched:
        for p in range(len(text) + 1):
            assert (trigger.regex.match(text, p) is not None) == any(
                branch.match(text, p) is not None for branch in trigger.branches), (trigger, text, p)
        found, expected = trigger.search(text), trigger.regex.search(text)
        assert (found and (found.span(), found.groups())) == (expected and (expected.span(), expected.groups()))


CLASSES = [r"\d", r"\w", "[A-Z]", "(?i:s)", "(?i:k)", "(?i:i)", r"[\w.,/-]", "[./-]", r"\s", "[^\\W\\d_]"]
ALPHABET = st.sampled_from(list("aZ1٣𝟙 \n.,/-_sSſkK\u212aiIİı\u00a0é\U00010400\ud800"))


@settings(max_examples=300, deadline=None)
@given(st.lists(ALPHABET, max_size=30).map("".join), st.lists(st.sampled_from(CLASSES), min_size=1, max_size=4),
       st.one_of(st.none(), st.sampled_from(CLASSES)))
def test_shape_positions_equal_a_reference(text: str, chars: list[str], not_before: str | None) -> None:
    shape = start(*chars, not_before=not_before)

    def holds(p: int) -> bool:
        if p + len(chars) > len(text):
            return False
        if any(re.fullmatch(cls, text[p + k]) is None for k, cls in enumerate(chars)):
            return False
        return not (not_before and p > 0 and re.fullmatch(not_before, text[p - 1]))

    assert Scan(text).starts((shape,)).tolist() == [p for p in range(len(text)) if holds(p)]


def test_an_empty_match_falls_back_to_the_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prescan, "_MAX_SHARE", 1.0)
    regex = re.compile(r"a*")
    text = "baab" * 6000
    assert spans_of(finditer_at(regex, text, (start("[ab]"),))) == spans_of(list(regex.finditer(text)))


def test_short_texts_and_crowded_shapes_use_the_regexs_own_scan() -> None:
    assert prescan.candidates("1" * 100, (start(r"\d"),)) is None
    assert prescan.candidates("1" * 30_000, (start(r"\d"),)) is None  # every character a candidate
    assert prescan.candidates("1 a" * 10_000, (start(r"\d", " ", "a"),)) is None
    assert prescan.candidates("1 a" + "x" * 30_000, (start(r"\d", " ", "a"),)) == [0]


def test_a_class_of_more_than_one_character_is_refused() -> None:
    with pytest.raises(ValueError):
        Scan("ab").starts((start("ab"),))
    with pytest.raises(ValueError):
        Scan("ab").starts((start("a?"),))  # a class that can match nothing is no class either


def test_warm_up_looks_up_every_declared_class_once() -> None:
    start("(?i:q)", not_before="[%]")  # declared, never scanned
    start("ab")  # a mistaken shape: warming up passes over it, the text that needs it still refuses it
    prescan.warm_up()
    looked_up = prescan._table.cache_info().currsize  # noqa: SLF001 - the cache warming up fills
    prescan.warm_up()
    assert prescan._table.cache_info().currsize == looked_up  # noqa: SLF001
    hits = prescan._table.cache_info().hits  # noqa: SLF001
    assert Scan("q" * 40).starts((start("(?i:q)", not_before="[%]"),)).tolist() == list(range(40))
    assert prescan._table.cache_info().hits > hits  # noqa: SLF001 - served from the warmed cache
    with pytest.raises(ValueError):
        Scan("ab").starts((start("ab"),))


SAMPLES = st.lists(st.sampled_from(PIECES + ["On", " 3 May 2001", " tel. +420 777 123 456", "password: hunter22",
                                             "application no. 12345/06", "EUR 5,000", "4111 1111 1111 1111",
                                             "078-05-1120", "123-45-6789", "London SW1A 1AA", "12 Baker Street",
                                             "aged 42", "42-year-old", "18 months' imprisonment", "sentenced to",
                                             "ſecret: hunter22", "AKIAIOSFODNN7EXAMPLE", "sk-abcdefghijklmnopqrstuv",
                                             "xoxb-1234567890-abc", "passport: 12345678", " life imprisonment",
                                             "the Death sentence", "twelve hearings", "seventy-one sessions"]),
                   max_size=14).map("".join)


@settings(max_examples=300, deadline=None)
@given(SAMPLES)
@example("ſecret: hunter22")  # a keyword only Unicode case folding finds, in a text without a hint: no span
@example("key AKIAIOSFODNN7EXAMPLE")
def test_recognizers_find_the_same_spans_as_their_own_scans(text: str) -> None:
    """Each English recognizer with the pre-scan (as the pipeline runs it) against its regexes scanning the whole
    text (the pre-scan turned off)."""
    recognizers = default_recognizers("en")
    prescan._MAX_SHARE, prescan._MIN_CHARS = 1.0, 0  # noqa: SLF001
    try:
        with_prescan = [r.analyze(text, None) for r in recognizers]
    finally:
        prescan._MAX_SHARE, prescan._MIN_CHARS = 1 / 32, 20_000  # noqa: SLF001
    real = prescan.candidates
    prescan.candidates = lambda text, shapes: None  # type: ignore[assignment]
    try:
        import psan.tool.detection.recognizers.dates as dates
        dates.candidates = prescan.candidates  # type: ignore[attr-defined]
        whole_scans = [r.analyze(text, None) for r in recognizers]
    finally:
        prescan.candidates = real  # type: ignore[assignment]
        dates.candidates = real  # type: ignore[attr-defined]
    assert with_prescan == whole_scans, text


#: pieces of capitalized words before numbers (the English loose street form) and what ends such a run
LOOSE_PIECES = ["Søndergade", "Article", "Jean-Paul", "J.", "St.", "Apt.", "52", "6", "1284/17", "12a", "٣", "𝟙",
                "of", "x", "ñ", "Ñ", "é", "É", "İ", "ß", "Mc", " ", "  ", "\t", "\n", "\u00a0", ".", ",", "-", "/", "'",
                "%", "km", "years", "\U00010400"]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(LOOSE_PIECES), max_size=12).map("".join))
@example("Jean-Paul 52")
@example("x St. J. Søndergade\t1284/17")
@example("Ñ 𝟙 km")
def test_the_loose_street_form_matches_only_where_its_reach_holds(text: str) -> None:
    loose = address_recognizer("en").loose
    shapes, stop, to = EN_LOOSE_REACH
    allowed = set(Scan(text).reaching(shapes, stop, to).tolist())
    assert set(match_starts(loose, text)) <= allowed, text
    prescan._MIN_CHARS = 0  # noqa: SLF001 - the positions always, never the regex's scan
    try:
        at = prescan.reaching(text, shapes, stop, to)
        assert spans_of(finditer_in(loose, text, at)) == spans_of(list(loose.finditer(text))), text
    finally:
        prescan._MIN_CHARS = 20_000  # noqa: SLF001


@settings(max_examples=300, deadline=None)
@given(st.lists(ALPHABET, max_size=30).map("".join), st.sampled_from(CLASSES), st.sampled_from(CLASSES),
       st.sampled_from(CLASSES))
def test_reaching_positions_equal_a_reference(text: str, first: str, stop: str, to: str) -> None:
    def holds(p: int) -> bool:
        if re.fullmatch(first, text[p]) is None:
            return False
        after = next((q for q in range(p + 1, len(text)) if re.fullmatch(stop, text[q])), None)
        return after is not None and re.fullmatch(to, text[after]) is not None

    assert Scan(text).reaching((start(first),), stop, to).tolist() == [p for p in range(len(text)) if holds(p)]


SMALL_CLASSES = ["a", "s", "(?i:s)", "(?i:k)", "(?i:i)", "[aZ]", "[./-]", " ", "ı", r"\d"]


@settings(max_examples=400, deadline=None)
@given(st.lists(ALPHABET, max_size=30).map("".join), st.integers(1, 4),
       st.lists(st.lists(st.sampled_from(SMALL_CLASSES), min_size=4, max_size=4), min_size=2, max_size=6),
       st.one_of(st.none(), st.sampled_from(CLASSES)))
def test_spelled_out_shapes_find_what_each_shape_finds(text: str, length: int, classes: list[list[str]],
                                                       not_before: str | None) -> None:
    shapes = tuple(start(*chars[:length], not_before=not_before) for chars in classes)
    scan = Scan(text)
    each = sorted({p for shape in shapes for p in scan.positions(shape).tolist()})
    assert Scan(text).starts(shapes).tolist() == each


def found_one_after_another(text: str, words: tuple[str, ...]) -> list[tuple[str, int]]:
    """Each word's occurrences by ``str.find`` from the last one's end, in the text's order (then the words')."""
    each = []
    for k, word in enumerate(words):
        pos = text.find(word)
        while pos >= 0:
            each.append((pos, k, word))
            pos = text.find(word, pos + len(word))
    return [(word, pos) for pos, _k, word in sorted(each)]


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="abAB ", max_size=30), st.sampled_from([("aa", "aaa", "ab"), ("abab", "ab", "ba"), ("aA",)]))
def test_occurrences_are_those_str_find_finds(text: str, words: tuple[str, ...]) -> None:
    prescan._MAX_SHARE, prescan._MIN_CHARS = 1.0, 0  # noqa: SLF001 - the pre-scan's positions always
    try:
        assert prescan.occurrences(text, words, 2) == found_one_after_another(text, words), text
    finally:
        prescan._MAX_SHARE, prescan._MIN_CHARS = 1 / 32, 20_000  # noqa: SLF001
    assert prescan.occurrences(text, words, 2) == found_one_after_another(text, words), text


TITLE_PIECES = [*{t for titles in TITLES.values() for t in titles}, "Mister", "Mrx", "Dra", "Smith", "Nováková",
                "Jan", "O'Neil", "van", "de", "J.", "Z.M.", "President", " ", "  ", "\t", "\n", ".", ",", "x", "é", "_",
                "1"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TITLE_PIECES), max_size=12).map("".join), st.sampled_from(sorted(TITLES)))
@example("Mr. Smith, Ms\tO'Neil, xMr Jan, .Dr Jan, Mrs  Z.M. Smith, Messrs Jan", "en")
@example("JUDr. Nováková, pan Jan, paní Nováková, Bc Jan", "cs")
def test_titled_names_start_where_their_shapes_hold(text: str, language: str) -> None:
    """Every match of a language's titled-name regex starts where one of :func:`title_starts` holds, and the
    recognizer finds the same spans with the pre-scan as with the regex's own search."""
    recognizer = TitledNameRecognizer(language)
    allowed = set(Scan(text).starts(title_starts(language)).tolist())
    assert set(match_starts(recognizer.regex, text)) <= allowed, (language, text)
    prescan._MAX_SHARE, prescan._MIN_CHARS = 1.0, 0  # noqa: SLF001 - the candidates always
    try:
        with_prescan = recognizer.analyze(text)
    finally:
        prescan._MAX_SHARE, prescan._MIN_CHARS = 1 / 32, 20_000  # noqa: SLF001
    assert with_prescan == recognizer.analyze(text), (language, text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=40), max_size=30), st.sampled_from(("int64", "intp", "int32")))
def test_sorted_distinct_is_numpys_unique(values: list[int], dtype: str) -> None:
    import numpy as np

    from psan.tool.detection.recognizers.prescan import sorted_distinct
    array = np.array(values, dtype=dtype)
    got, want = sorted_distinct(array), np.unique(array)
    assert got.dtype == want.dtype and got.tolist() == want.tolist()


_SET_ITEMS = (r"\d", r"\s", r"\w", r"\W", r"\D", "a-z", "A-Z", "0-9", ".", ",", r"\-", "-", "'", "’", " ", r"\t", "é",
              "ſ", "^", r"\]", r"\\", "ß", "К", r"\u0300", "\U0001d7ce")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_SET_ITEMS), min_size=1, max_size=5).map("".join),
       st.sampled_from(("[^{}]", "[^]{}]", "[^{}]|[b]", "[^{}][b]", "[^{}]b]", "[{}]", "(?i:[^{}])")))
@example(r"\d\s", "[^{}]")
@example("a", "[^{}]|[b]")
def test_a_negated_sets_table_is_its_own_matches(body: str, form: str) -> None:
    """``_table`` of a negated set (the complement of its set's table) is the table of the class's own matches, and
    a class that is no single negated set ("[^a]|[b]", two sets) is looked up by its matches as before."""
    cls = form.format(body)
    try:
        want = prescan.matched_table(cls)
    except (re.error, ValueError):
        with pytest.raises((re.error, ValueError)):
            prescan._table.__wrapped__(cls)
        return
    assert (prescan._table.__wrapped__(cls) == want).all()
