"""The pipeline's shortcuts change nothing: batches equal one text at a time, trigger gating equals running
every recognizer, NameTag's offset lists equal its tokens.

Why: the shortcuts (one NameTag run per text in a batch, recognizers skipped where their ``trigger`` finds
nothing, Token objects built once) exist for speed only (``bench/bench_nametag_ratio.py``); a missed span
would be a leak.  The corpus tests run on the shared dev corpora (skipped without ``../shared``); the
property tests check every declared trigger against its recognizer on generated texts.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from psan.tool.detection.defaults import default_config
from psan.tool.detection.pipeline import Pipeline
from psan.tool.detection.recognizers.patterns import LANGUAGES, default_recognizers
from psan.tool.text.document import CharSpan, Document, Recognizer, Sentence, Token
from psan.tool.text.tokens import clean_tokens, offsets_clean, tokenize

#: corpus → language; at most this many documents each (the biggest corpora are cut, the rest whole)
CORPORA = {"tab-dev": "en", "elitr-dev": "en", "cnec-dtest": "cs", "sk-dev": "sk", "pl-dev": "pl", "sv-dev": "sv"}
LIMIT = 40


def corpus(shared_dir: Path, name: str) -> list[str]:
    path = shared_dir / "data" / f"{name}.jsonl"
    if not path.is_file():
        pytest.skip(f"corpus {path} not found")
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line)["text"] for line in fh if line.strip()][:LIMIT]


def pipeline_for(shared_dir: Path, language: str) -> Pipeline:
    """The NameTag English pipeline for English (the one the speed target is about), else the default one."""
    models = shared_dir / "models" / "nametag"
    if language == "en":
        model = models / "english-conll-trivial.ner"
        if not model.is_file():
            pytest.skip(f"NameTag model {model} not found")
        return Pipeline({"language": "en", "tokenizer": "nametag", "ner": [{"kind": "nametag", "model": str(model)}],
                         "recognizers": ["patterns", "gazetteers", "sensitive"]})
    return Pipeline(default_config(language, str(models)))


def summary(doc: Document) -> tuple:
    return (doc.tokens, doc.sentences, doc.entities)


@pytest.mark.shared
@pytest.mark.parametrize("name", list(CORPORA))
def test_batched_equals_one_at_a_time(shared_dir: Path, name: str) -> None:
    texts = corpus(shared_dir, name)
    pipeline = pipeline_for(shared_dir, CORPORA[name])
    batched = pipeline.process_many(texts, batch_size=8)
    for text, doc in zip(texts, batched, strict=True):
        assert summary(doc) == summary(pipeline.process(text))


@pytest.mark.shared
@pytest.mark.parametrize("name", list(CORPORA))
def test_gated_equals_ungated(shared_dir: Path, name: str) -> None:
    texts = corpus(shared_dir, name)
    pipeline = pipeline_for(shared_dir, CORPORA[name])
    assert any(getattr(r, "trigger", None) is not None for r in pipeline.recognizers)
    for text in texts:
        doc = Document(text, *tokenize(text), [], CORPORA[name])
        assert pipeline.candidates(text, doc) == [c for r in pipeline.recognizers for c in r.analyze(text, doc)]


# --- triggers are necessary conditions ------------------------------------------------------------------------
#: pieces of the formats that have triggers (URLs, IPs, IBANs, UK postcodes) and of ordinary text
PIECES = ["http", "https", "ftp", "://", "www", "WWW", ".", "..", "com", "co", "uk", "CZ", "example", "user", "/",
          "~", "@", "-", "_", ":", "::", "192", "168", "1", "0", "255", "10", "fe80", "db8", "a", "F", "SW1A", "1AA",
          "M1", "1AE", "GIR", "0AA", "EC1A", "1BB", "GB82", "WEST", "1234", "5698", "7654", "32", "DE89", "3704",
          "0044", "0532", "0130", "00", "CZ65", "0800", "0000", "1920", "0014", "5399", " ", " ", "\n", ",", "(", ")",
          "Smith", "street", "tel.", "IBAN", "IP", "postcode"]


def triggered() -> list[Recognizer]:
    """Every pattern recognizer of every language that declares a trigger (each class once)."""
    seen: dict[tuple[type, str], Recognizer] = {}
    for language in (*LANGUAGES, "xx"):
        for r in default_recognizers(language):
            if getattr(r, "trigger", None) is not None:
                seen.setdefault((type(r), getattr(r, "name", "")), r)
    return list(seen.values())


def test_some_recognizers_declare_triggers() -> None:
    assert {type(r).__name__ for r in triggered()} >= {"UrlRecognizer", "IpRecognizer", "IbanRecognizer",
                                                       "UkPostcodeRecognizer"}
    assert Recognizer.trigger is None  # recognizers written before triggers existed run as before


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14))
def test_trigger_is_necessary(pieces: list[str]) -> None:
    text = "".join(pieces)
    for r in triggered():
        if r.analyze(text, None):
            assert r.trigger.search(text), (r, text)


@pytest.mark.parametrize("text", ["see https://example.com/~novak today", "www.psan.cz", "mail me at host.co.uk.",
                                  "server 192.168.1.10 and fe80::1", "IBAN GB82 WEST 1234 5698 7654 32",
                                  "London SW1A 1AA", "ftp://localhost/x"])
def test_triggered_recognizers_still_find(text: str) -> None:
    found = [r for r in triggered() if r.analyze(text, None)]
    assert found and all(r.trigger.search(text) for r in found)


class _Counting(Recognizer):
    """A recognizer written in the existing style (no trigger) next to one whose trigger never matches."""

    def __init__(self, trigger: re.Pattern[str] | None) -> None:
        self.calls = 0
        if trigger is not None:
            self.trigger = trigger

    def analyze(self, text: str, doc: Document) -> list[CharSpan]:
        self.calls += 1
        return []


def test_recognizer_without_trigger_always_runs() -> None:
    pipeline = Pipeline({"language": "en", "tokenizer": "regex", "ner": [], "recognizers": []})
    plain, gated = _Counting(None), _Counting(re.compile("never-in-these-texts"))
    pipeline.recognizers = [plain, gated]
    pipeline.process_many(["One text.", "Another one."])
    pipeline.process("A third.")
    assert (plain.calls, gated.calls) == (3, 0)


# --- offsets and clean tokens --------------------------------------------------------------------------------
def test_offsets_clean() -> None:
    text = "ab c\u00a0d e\x01f"
    assert offsets_clean(text, [0, 3, 5], [2, 4, 6])
    assert not offsets_clean(text, [0, 3], [2, 3])  # empty token
    assert not offsets_clean(text, [0], [4])  # a space inside
    assert not offsets_clean(text, [3], [6])  # a no-break space inside
    assert not offsets_clean(text, [7], [10])  # a control character inside


def test_clean_tokens_keeps_clean_tokens() -> None:
    text = "Hello  world\x00!"
    tokens = [Token(0, 0, 5), Token(1, 7, 12)]
    assert clean_tokens(text, tokens) == tokens
    assert [(t.id, t.start, t.end) for t in clean_tokens(text, [Token(5, 0, 5), Token(9, 5, 14)])] == [
        (0, 0, 5), (1, 7, 12), (2, 13, 14)]


def test_nametag_offsets_equal_tokens(nametag_model) -> None:  # noqa: ANN001 - fixture
    from psan.tool.detection.ner.nametag import NameTagRecognizer
    ner = NameTagRecognizer(nametag_model("english-conll-trivial.ner"))
    text = "Mr John Smith lives in London.\n\nHe works for Acme Ltd since 3 May 2001."
    starts, ends, sentences = ner.token_offsets(text)
    tokens, sentences2 = ner.tokenize(text)
    assert tokens == [Token(i, a, b) for i, (a, b) in enumerate(zip(starts, ends, strict=True))]
    assert sentences == sentences2 and all(isinstance(s, Sentence) for s in sentences)
    assert {text[s.start:s.end] for s in ner.analyze(text, None)} >= {"John Smith", "London"}


# --- first-character look-aheads change no match -----------------------------------------------------------
DATE_PIECES = ["12", "3", "31", "2001", "1999", ".", " ", "  ", "\n", ",", "of", "th", "st", "May", "may", "MAY", "Jan",
               "January", "březen", "Března", "ŘÍJNA", "prosince", "stycznia", "Maja", "juli", "Sept", "a", "x",
               "No.", "no", "nos.", "Nr.", "№", "N°", "number", "Numbers", "24254/05", "D-4840", "/", "-", ":"]


def _without_lookahead(regex: re.Pattern[str], prefix: str) -> re.Pattern[str]:
    assert regex.pattern.startswith(prefix)
    return re.compile(regex.pattern[len(prefix):], regex.flags)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DATE_PIECES), max_size=12), st.sampled_from(["en", "cs", "pl", "sv", "xx"]))
def test_first_character_lookaheads_are_exact(pieces: list[str], language: str) -> None:
    from psan.tool.detection.recognizers.dates import written_date_plain, written_date_regex
    from psan.tool.detection.recognizers.references import NUMBER_PLAIN, NUMBER_RE
    text = "".join(pieces)
    dated = written_date_regex(language)
    plain = re.compile(written_date_plain(language))
    assert [m.span() for m in dated.finditer(text)] == [m.span() for m in plain.finditer(text)]
    numbered = re.compile(NUMBER_PLAIN)
    assert [m.span("code") for m in NUMBER_RE.finditer(text)] == [m.span("code") for m in numbered.finditer(text)]


NUMERIC_DATE_PIECES = ["1", "12", "31", "0", "05", "2001", "1999", "2020", "199", ".", ". ", "/", "-", " ", ",", "x",
                       "a1", "3.", "2."]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(NUMERIC_DATE_PIECES + DATE_PIECES), max_size=12))
def test_class_first_date_patterns_are_exact(pieces: list[str]) -> None:
    """Numeric dates and English date phrases, written to start with their first character's class, match as the
    plain patterns do: the same spans, the same form (``lastgroup``) and the same day, month and year."""
    from psan.tool.detection.recognizers.dates import (
        EN_DATE_PHRASE_PLAIN,
        EN_DATE_PHRASE_RE,
        NUMERIC_DATE_PLAIN,
        NUMERIC_DATE_RE,
        first_group,
    )
    text = "".join(pieces)
    phrase = re.compile(EN_DATE_PHRASE_PLAIN)
    assert [(m.span(), m.lastgroup) for m in EN_DATE_PHRASE_RE.finditer(text)] == [
        (m.span(), m.lastgroup) for m in phrase.finditer(text)]
    numeric = re.compile(NUMERIC_DATE_PLAIN)
    names = ("d1", "m1", "y1", "a2", "b2", "y2", "y3", "m3", "d3")
    firsts = ("d1", "a2", "y3")
    assert [(m.span(), [first_group(m, g) if g in firsts and m.group(g) is not None else m.group(g) for g in names])
            for m in NUMERIC_DATE_RE.finditer(text)] == [(m.span(), [m.group(g) for g in names])
                                                         for m in numeric.finditer(text)]


DURATION_PIECES = ["1", "12", "123", "1234", "2.5", "3,5", ".5", " ", "\n", "-", ",", ".", "and", "x", "a", "an", "A",
                   "half", "Half", "one", "Two", "THREE", "four", "fourteen", "ſix", "ſeventy", "eight", "eleven",
                   "ten", "twenty", "nine", "ninety", "o", "years", "Year", "months", "weeks", "DAY", "hours", "'",
                   "’", "s", "é", "_"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(DURATION_PIECES), max_size=14).map("".join), st.integers(0, 30), st.integers(0, 60))
@example("half an hour, Half a day and 2.5 years", 0, 40)
@example("x ſix-months, a year and one-day, fourteen years’ and Eleven days", 3, 60)
def test_class_first_duration_pattern_is_exact(text: str, pos: int, endpos: int) -> None:
    """The duration phrase written to start with its first character's class matches as the plain pattern does,
    in the whole text and in a window of it (the recognizer searches windows around unit words)."""
    from psan.tool.detection.recognizers.dates import DURATION_PLAIN, DURATION_RE
    plain = re.compile(DURATION_PLAIN)
    assert [m.span() for m in DURATION_RE.finditer(text)] == [m.span() for m in plain.finditer(text)]
    assert [m.span() for m in DURATION_RE.finditer(text, pos, endpos)] == [
        m.span() for m in plain.finditer(text, pos, endpos)]


def test_mark_table_equals_unicodedata() -> None:
    import unicodedata

    from psan.tool.text import unicode_marks
    if unicodedata.unidata_version != unicode_marks.UNIDATA_VERSION:
        pytest.skip(f"table is for Unicode {unicode_marks.UNIDATA_VERSION}, this Python has "
                    f"{unicodedata.unidata_version} (computed instead)")
    assert unicode_marks.table_ranges() == unicode_marks.compute_ranges()
    assert unicode_marks.mark_ranges() == unicode_marks.table_ranges()


def test_one_nametag_run_per_text_in_batches(nametag_model, monkeypatch) -> None:  # noqa: ANN001 - fixtures
    """NameTag as tokenizer and NER runs once per text, batched or not (it ran twice per text in batches)."""
    import psan.tool.detection.ner.nametag as nametag
    model = nametag_model("english-conll-trivial.ner")
    pipeline = Pipeline({"language": "en", "tokenizer": "nametag", "ner": [{"kind": "nametag", "model": model}],
                         "recognizers": ["patterns"]})
    runs = []
    real = nametag.sanitize
    monkeypatch.setattr(nametag, "sanitize", lambda text: runs.append(text) or real(text))  # once per NameTag run
    texts = [f"Mr John Smith{i} lives in London.\n" * (i + 1) for i in range(5)]
    batched = pipeline.process_many(texts, batch_size=4)
    assert len(runs) == len(texts)
    assert [summary(d) for d in batched] == [summary(pipeline.process(t)) for t in texts]
    assert len(runs) == 2 * len(texts)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab \u00a0\x01\n.", max_size=20), st.lists(st.tuples(st.integers(0, 20), st.integers(0, 4)),
                                                                   max_size=6))
def test_offsets_clean_agrees_with_clean_tokens(text: str, cuts: list[tuple[int, int]]) -> None:
    spans = sorted({(min(a, len(text)), min(a + n, len(text))) for a, n in cuts})
    tokens = [Token(i, a, b) for i, (a, b) in enumerate(spans)]
    cleaned = clean_tokens(text, tokens)
    unchanged = [(t.start, t.end) for t in cleaned] == spans
    assert offsets_clean(text, [a for a, _ in spans], [b for _, b in spans]) == unchanged


@settings(max_examples=300, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 15), st.integers(1, 6)).map(lambda t: (t[0], t[0] + t[1])), max_size=10))
def test_spans_inside_longer_equals_pairwise_test(spans: set[tuple[int, int]]) -> None:
    """Name completion's sweep finds the same inner person spans as comparing every pair did."""
    from psan.tool.detection.completion import spans_inside_longer
    pairwise = {e for e in spans if any(o != e and o[0] <= e[0] and e[1] <= o[1] and o[1] - o[0] > e[1] - e[0]
                                        for o in spans)}
    assert spans_inside_longer(spans) == pairwise


INSTITUTION_PIECES = ["HMP", "HM", "Prison", "Remand", "Centre", "Sztum", " ", "\n", "Nottinghamshire", "County",
                      "Durham", "Council", "Edirne", "Istanbul", "İstanbul", "Şırnak", "Sirnak", "Naturvårdsverket",
                      "Försäkringskassan", "the", "The", "a", "x", "-", "'", "Özgür", "Ankara's", "DHKP", "C", "PKK",
                      "KADEK", "COVID", "19"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(INSTITUTION_PIECES), max_size=10))
def test_institution_lookaheads_are_exact(pieces: list[str]) -> None:
    from psan.tool.detection.recognizers import institutions
    text = "".join(pieces)
    regex = institutions.SWEDISH_AUTHORITY_RE
    plain = _without_lookahead(regex, regex.pattern[:regex.pattern.index("\\b")])
    assert [m.span() for m in regex.finditer(text)] == [m.span() for m in plain.finditer(text)]
    # PRISON_RE, COUNTY_RE, PROVINCE_RE and HYPHEN_ACRONYM_RE start with their first letters' class:
    # tests/tool/test_offset_arrays.py compares them with their plain forms


REFERENCE_PIECES = ["sheet", "plans", "plot", "/", "plan", " ", "11/15W.2", "E.1", "119/5", "[2001]", "(1998)", "3",
                    "WLR", "206", "NJA", "2005", "p.", "884", "Mr", "Mrs.", "Dr", "pan", "Paní", "herr", "Fru", "John",
                    "J.", "van", "Smith", ".", "\n", "x", "ab"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(REFERENCE_PIECES), max_size=10), st.sampled_from(["en", "cs", "pl", "sv", "xx"]))
def test_reference_and_title_lookaheads_are_exact(pieces: list[str], language: str) -> None:
    from psan.tool.detection.recognizers.names import TitledNameRecognizer, titled_name_plain
    text = "".join(pieces)
    recognizer = TitledNameRecognizer(language)
    # LAND_RE and CITATION_RE start with their first character's class: tests/tool/test_offset_arrays.py
    plain = re.compile(titled_name_plain(recognizer.language))
    assert [(m.span("title"), m.span("name")) for m in recognizer.regex.finditer(text)] == [
        (m.span("title"), m.span("name")) for m in plain.finditer(text)]


MONEY_PIECES = ["5", "12", "5,000", "1.5", "300", " ", "\n", "EUR", "GBP", "TRL", "ECU", "E", "€", "£", "$", "(", ")",
                "euros", "Euro", "1234", "12.345.678", "5 000", "-", "x", ".", ",",
                "EUROCENTS", "cents", "pounds", "of", "sterling", "Kuna", "ſterling", "\u212auna", "Finnish", "marks",
                "Deutsche", "mark", "złotych", "Zlotys", "New", "Turkish", "liras", "m", "million", "bn", "x", "-", "."]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(MONEY_PIECES), max_size=10))
def test_money_first_letters_are_exact(pieces: list[str]) -> None:
    """The money regex with the currency words' first letters first matches what the plain alternation does."""
    from psan.tool.detection.recognizers.amounts import MONEY_PLAIN, MONEY_RE
    text = "".join(pieces)
    assert [m.span() for m in MONEY_RE.finditer(text)] == [m.span() for m in re.compile(MONEY_PLAIN).finditer(text)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789 -3xyYMmdayshourwekntDHWEOAS", max_size=40))
def test_class_first_digit_and_unit_patterns_are_exact(text: str) -> None:
    """Card numbers, duration units and age numbers written to start with a character class match as before."""
    from psan.tool.detection.recognizers.dates import AGE_PATTERNS, UNIT_RE
    from psan.tool.detection.recognizers.ids import card_recognizer
    card = re.compile(r"\d(?<![\d-]\d)\d{3}[ -]?(?:\d{4}[ -]?){2}\d{1,7}(?![\d-])"
                      r"|3(?<![\d-]3)\d{3}[ -]?\d{6}[ -]?\d{5}(?![\d-])")
    assert [m.span() for m in card_recognizer().regex.finditer(text)] == [m.span() for m in card.finditer(text)]
    unit = re.compile(r"(?=[YyMmWwDdHh])(?i:years?|months?|weeks?|days?|hours?)(?!\w)")
    assert [m.span() for m in UNIT_RE.finditer(text)] == [m.span() for m in unit.finditer(text)]
    for pattern, _ in AGE_PATTERNS["en"]:
        assert r"(?P<n>\d\d{0,2})" in pattern
        age, plain = re.compile(pattern), re.compile(pattern.replace(r"(?P<n>\d\d{0,2})", r"(?P<n>\d{1,3})"))
        assert [m.span("n") for m in age.finditer(text)] == [m.span("n") for m in plain.finditer(text)]


def test_token_keeps_its_dataclass_behaviour() -> None:
    """Token's faster ``__init__`` builds the same frozen, comparable, hashable, picklable token."""
    import dataclasses
    import pickle
    token = Token(1, 2, 3)
    assert token == Token(id=1, start=2, end=3) and hash(token) == hash(Token(1, 2, 3)) and token != Token(1, 2, 4)
    assert (token.id, token.start, token.end) == (1, 2, 3) and repr(token) == "Token(id=1, start=2, end=3)"
    assert pickle.loads(pickle.dumps(token)) == token  # noqa: S301 - our own bytes
    assert dataclasses.replace(token, id=7) == Token(7, 2, 3) and dataclasses.astuple(token) == (1, 2, 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        token.id = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        Token(1, 2)  # type: ignore[call-arg]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(INSTITUTION_PIECES + ["HMYOI", "Gaol", "Detention", "Penitentiary", "shire",
                                                      "Lanca"]), max_size=10))
def test_institution_needs_are_necessary(pieces: list[str]) -> None:
    from psan.tool.detection.recognizers.institutions import NEEDS
    text = "".join(pieces)
    for regex, words in NEEDS.items():
        if regex.search(text):
            assert any(word in text for word in words), (regex.pattern, text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["42", "7", " ", "-", "\n", "year", "years", "yr", "yrs", "old", "Old", "of", "age",
                                 "x", "told"]), max_size=10))
def test_age_hints_are_necessary(pieces: list[str]) -> None:
    from psan.tool.detection.recognizers.dates import AGE_HINTS
    text = "".join(pieces)
    for pattern, hints in AGE_HINTS.items():
        if re.search(pattern, text):
            assert any(hint in text for hint in hints), (pattern, text)


SECRET_PIECES = ["password", "PASSWORD", "Pass", "passwd", "pwd", "pass", "passport", "heslo", "hasło", "HASŁO",
                 "lösenord", "token", "access", "access_token", "client", "client_secret", "secret", "Secret", "key",
                 "api", "api-key", "private_key", "pin", "opinion", "PIN", "kód", "code", " ", "  ", "_", "-", ":", "=",
                 "=>", " is ", " je ", "\n", "abc123", "hunter22", "x", "ſecret", "İ", "ı", "\u212aey", "'", "\"", ",",
                 "."]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(SECRET_PIECES), max_size=14))
def test_secret_keyword_matches_equal_finditer(pieces: list[str]) -> None:
    """The secret recognizer tries its regex only where a keyword's first letters stand and finds what
    ``finditer`` finds in a text with a hint (as before: a text without one is not searched)."""
    from psan.tool.detection.recognizers.ids import KEYWORD_HINTS, SECRET_AFTER_KEYWORD, SecretRecognizer
    text = "".join(pieces)
    lowered = text.lower()
    found = SecretRecognizer().matches(text) if any(h in lowered for h in KEYWORD_HINTS) else []
    before = SECRET_AFTER_KEYWORD.finditer(text) if any(h in lowered for h in KEYWORD_HINTS) else []
    assert [(m.span(), m.span("value")) for m in found] == [(m.span(), m.span("value")) for m in before]
