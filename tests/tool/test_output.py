"""Output modes, standoff and exact restore."""
from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.decisions.rules import RuleSet
from psan.tool.decisions.voting import PrivateRegion, TokenDecision, annotate, decided_regions
from psan.tool.release.output import (
    LabelReplacer,
    TagScheme,
    pseudonymize,
    remove,
    render,
    restore,
    tag,
    tag_for,
)
from psan.tool.text.document import Category, Decision, Document
from tests.tool.helpers import regex_document


def make_doc(text: str) -> Document:
    return regex_document(text, "pl")


def regions_for(text: str, *spans: tuple[str, Category, int | None]) -> tuple[Document, list[PrivateRegion]]:
    """Mark the first occurrence of each phrase as private via person decisions."""
    doc = make_doc(text)
    decisions = []
    for phrase, cat, label in spans:
        start = text.index(phrase)
        end = start + len(phrase)
        ids = [t.id for t in doc.tokens if t.start >= start and t.end <= end]
        decisions.append(TokenDecision(ids[0], ids[-1] + 1, Decision.PRIVATE, label=label, category=cat))
    return doc, decided_regions(doc, annotate(doc, RuleSet([]), decisions))


P, L = Category.PERSON, Category.LOCATION


# --- tag ---------------------------------------------------------------------


def test_tag_with_and_without_labels() -> None:
    text = "Wczoraj Jan Kowalski pojechał do Wrocławia."
    _, regs = regions_for(text, ("Jan Kowalski", P, 3), ("Wrocławia", L, None))
    assert tag(text, regs).text == "Wczoraj [PERSON-3] pojechał do [LOCATION]."
    assert tag(text, regs, TagScheme(with_label=False)).text == "Wczoraj [PERSON] pojechał do [LOCATION]."


def test_tag_per_token_polish_names() -> None:
    text = "@kamil Widzę, że [Jan  Kowalski] był w Warszawie"
    _, regs = regions_for(text, ("Jan  Kowalski", P, 1), ("Warszawie", L, 2))
    scheme = TagScheme.for_language("pl", per_token=True, with_label=False)
    out = tag(text, regs, scheme)
    assert out.text == "@kamil Widzę, że [[OSOBA]  [OSOBA]] był w [MIEJSCE]"
    assert tag(text, regs, language="pl").text == "@kamil Widzę, że [[OSOBA-1]] był w [MIEJSCE-2]"


def test_tag_per_token_hides_untokenized_characters() -> None:
    text = "x Ab#Cd y"
    reg = PrivateRegion(2, 7, P, None, "", 1, 3, ((2, 4), (5, 7)))
    assert tag(text, [reg], TagScheme(per_token=True)).text == "x [PERSON] [PERSON] y"
    reg = PrivateRegion(2, 7, P, None, "", 1, 4, ((2, 4), (4, 5), (5, 7)))
    assert tag(text, [reg], TagScheme(per_token=True)).text == "x [PERSON][PERSON][PERSON] y"


def test_tag_names_by_type_first() -> None:
    scheme = TagScheme.for_language("pl", with_label=False)
    assert tag_for(PrivateRegion(0, 1, Category.CONTACT, type="EMAIL"), scheme) == "[MAIL]"
    assert tag_for(PrivateRegion(0, 1, Category.CONTACT, type="URL"), scheme) == "[WWW]"
    assert tag_for(PrivateRegion(0, 1, Category.CONTACT, type="PHONE"), scheme) == "[INNE]"
    assert tag_for(PrivateRegion(0, 1, Category.ID, 5), TagScheme(label_fmt="<{category}:{label}>")) == "<ID:5>"


def test_standoff_contents_json() -> None:
    text = "Pan Jan Kowalski z Wrocławia."
    _, regs = regions_for(text, ("Jan Kowalski", P, 3), ("Wrocławia", L, None))
    out = tag(text, regs, TagScheme(with_label=False))
    assert json.loads(json.dumps(out.standoff)) == out.standoff
    assert out.standoff == [
        {"original_start": 4, "original_end": 16, "output_start": 4, "output_end": 12,
         "original_text": "Jan Kowalski", "category": "PERSON", "label": 3, "type": "",
         "replacement": "[PERSON]", "removed_before": "", "removed_after": ""},
        {"original_start": 19, "original_end": 28, "output_start": 15, "output_end": 25,
         "original_text": "Wrocławia", "category": "LOCATION", "label": None, "type": "",
         "replacement": "[LOCATION]", "removed_before": "", "removed_after": ""},
    ]
    assert "Jan" not in out.text
    for e in out.standoff:
        assert out.text[e["output_start"]:e["output_end"]] == e["replacement"]
        assert text[e["original_start"]:e["original_end"]] == e["original_text"]


# --- pseudonymize --------------------------------------------------------------


def test_pseudonymize_with_labels_and_fallback() -> None:
    text = "Jan Kowalski spotkał Annę w Krakowie. Jan Kowalski wrócił."
    doc, regs = regions_for(text, ("Jan Kowalski", P, 1), ("Annę", P, 2), ("Krakowie", L, 3))
    second = text.index("Jan Kowalski", 5)
    ids = [t.id for t in doc.tokens if second <= t.start < second + 12]
    regs = sorted(regs + [PrivateRegion(second, second + 12, P, 1, "", ids[0], ids[-1] + 1)], key=lambda r: r.start)
    out = pseudonymize(text, regs, LabelReplacer({1: "Marek Nowak", 2: "Wiolę"}))
    assert out.text == "Marek Nowak spotkał Wiolę w [LOCATION-3]. Marek Nowak wrócił."
    assert [e["replacement"] for e in out.standoff] == ["Marek Nowak", "Wiolę", "[LOCATION-3]", "Marek Nowak"]
    assert restore(out.text, out.standoff) == text
    # no replacer at all: tags
    assert pseudonymize(text, regs, language="pl").text.startswith("[OSOBA-1] spotkał [OSOBA-2]")


def test_custom_replacer_sees_original_text() -> None:
    class Upper:
        def replacement(self, region: PrivateRegion, original: str) -> str | None:
            return original.upper() if region.category is P else None

    text = "Ala i Kraków"
    _, regs = regions_for(text, ("Ala", P, None), ("Kraków", L, None))
    assert pseudonymize(text, regs, Upper()).text == "ALA i [LOCATION]"


# --- remove -------------------------------------------------------------------


@pytest.mark.parametrize(("text", "phrases", "expected"), [
    ("Ahoj Jan.", ["Jan"], "Ahoj."),
    ("Jan přišel domů", ["Jan"], "přišel domů"),
    ("Potkal Jan Novák Petra", ["Jan Novák"], "Potkal Petra"),
    ("Potkal Jana , Petra", ["Jana"], "Potkal , Petra"),
    ("Potkal Jana, Petra", ["Jana"], "Potkal, Petra"),
    ("Ahoj Jan Petr!", ["Jan", "Petr"], "Ahoj!"),
    ("Jan Petr šli", ["Jan", "Petr"], "šli"),
    ("Dopis\nJan Novák\nPraha", ["Jan Novák"], "Dopis\nPraha"),
    ("Dopis\n  Jan.", ["Jan"], "Dopis\n."),
    ("Dopis Jan\nPraha", ["Jan"], "Dopis\nPraha"),
    ("Pan (Jan) tam", ["Jan"], "Pan () tam"),
    ("Pan ( Jan ) tam", ["Jan"], "Pan () tam"),
    ("a Jan .", ["Jan"], "a ."),
    ("Jan .", ["Jan"], "."),
    ("Jan", ["Jan"], ""),
    ("Ahoj  Jan  tam", ["Jan"], "Ahoj  tam"),
])
def test_remove_tidies_whitespace(text: str, phrases: list[str], expected: str) -> None:
    _, regs = regions_for(text, *[(p, P, None) for p in phrases])
    out = remove(text, regs)
    assert out.text == expected
    assert restore(out.text, out.standoff) == text
    assert all(e["replacement"] == "" and e["output_start"] == e["output_end"] for e in out.standoff)


def test_render_dispatch() -> None:
    text = "Jan tam"
    _, regs = regions_for(text, ("Jan", P, None))
    assert render("remove", text, regs).text == "tam"
    assert render("tag", text, regs, language="pl").text == "[OSOBA] tam"
    with pytest.raises(ValueError):
        render("shuffle", text, regs)


def test_bad_regions_and_tampered_output() -> None:
    text = "abc def"
    with pytest.raises(ValueError):
        tag(text, [PrivateRegion(4, 7), PrivateRegion(0, 5)])
    with pytest.raises(ValueError):
        tag(text, [PrivateRegion(4, 9)])
    out = tag(text, [PrivateRegion(0, 3)])
    with pytest.raises(ValueError):
        restore("X" + out.text, out.standoff)


# --- properties -----------------------------------------------------------------

WORDS = st.text(alphabet="abcčřž", min_size=1, max_size=5)
PUNCT = st.sampled_from([".", ",", "!", "?", ";", ":", "(", ")", "-", "„", "“"])
SPACE = st.sampled_from([" ", "  ", "\n", " \n ", "\t", ""])


@st.composite
def text_and_regions(draw, spacing=SPACE):
    pieces = draw(st.lists(st.one_of(WORDS, PUNCT), min_size=1, max_size=25))
    text = ""
    for i, p in enumerate(pieces):
        text += (draw(spacing) if i else draw(st.sampled_from(["", " ", "\n"]))) + p
    text += draw(st.sampled_from(["", " ", "\n"]))
    doc = make_doc(text)
    n = len(doc.tokens)
    # choose non-overlapping token ranges
    cuts = sorted(set(draw(st.lists(st.integers(0, n), max_size=8))))
    regions = []
    for a, b in zip(cuts[::2], cuts[1::2], strict=False):
        if a < b:
            regions.append(PrivateRegion(
                doc.tokens[a].start, doc.tokens[b - 1].end, draw(st.sampled_from(list(Category))),
                draw(st.one_of(st.none(), st.integers(0, 9))), "", a, b,
                tuple((t.start, t.end) for t in doc.tokens[a:b])))
    return text, regions


def _outside(text: str, regions: list[PrivateRegion]) -> list[str]:
    pos, gaps = 0, []
    for r in regions:
        gaps.append(text[pos:r.start])
        pos = r.end
    gaps.append(text[pos:])
    return gaps


@settings(max_examples=300, deadline=None)
@given(text_and_regions(), st.booleans(), st.booleans(), st.sampled_from(["en", "pl", "cs"]))
def test_tag_outside_byte_identical_and_restore(data, per_token: bool, with_label: bool, lang: str) -> None:
    text, regions = data
    out = tag(text, regions, TagScheme.for_language(lang, per_token=per_token, with_label=with_label))
    assert restore(out.text, out.standoff) == text
    assert _outside(out.text, [PrivateRegion(e["output_start"], e["output_end"]) for e in out.standoff
                               if e["output_end"] > e["output_start"]]) == _outside(text, regions)


@settings(max_examples=300, deadline=None)
@given(text_and_regions(), st.dictionaries(st.integers(0, 9), st.text(max_size=6)))
def test_pseudonymize_outside_byte_identical_and_restore(data, table: dict[int, str]) -> None:
    text, regions = data
    out = pseudonymize(text, regions, LabelReplacer(table))
    assert restore(out.text, out.standoff) == text
    # rebuild from the output's gaps: identical to the original outside text
    pos, gaps = 0, []
    for e in out.standoff:
        gaps.append(out.text[pos:e["output_start"]])
        pos = e["output_end"]
    gaps.append(out.text[pos:])
    assert gaps == _outside(text, regions)


@settings(max_examples=300, deadline=None)
@given(text_and_regions())
def test_remove_restore_and_only_whitespace_changes(data) -> None:
    text, regions = data
    out = remove(text, regions)
    assert restore(out.text, out.standoff) == text

    def squash(s: str) -> str:
        return re.sub(r"\s+", "", s)

    assert squash(out.text) == squash("".join(_outside(text, regions)))


@settings(max_examples=300, deadline=None)
@given(text_and_regions(spacing=st.just(" ")))
def test_remove_leaves_no_double_or_leading_space(data) -> None:
    # single spaces between every piece; punctuation may carry spaces before it in the
    # original ("a ."), so only check what removal itself could introduce
    text, regions = data
    out = remove(text, regions).text
    if "  " not in text:
        assert "  " not in out
    if regions and regions[0].start <= 1 and not text.startswith(" "):
        assert not out.startswith(" ")


@given(st.lists(st.sampled_from(["other", "Other", "person", "PERSON", "private", "x", "date", "seven", "Praha",
                                 "organisation", "1999", "-", "persons"]), min_size=1, max_size=6),
       st.sampled_from(list(Category)), st.sampled_from(["", "CARDINAL", "PERSON", "DATE", "P", "gu"]),
       st.sampled_from([None, 1, 7]))
def test_a_tag_never_prints_a_word_of_its_original(words, category, type_, label):
    """A tag whose name is a word of the text it replaces ("seven other persons" → "[OTHER-3]") prints the
    original's word: it falls back to a neutral name, as the leak check counts words of three letters or more."""
    original = " ".join(words)
    text = f"Before {original} after."
    region = PrivateRegion(7, 7 + len(original), category, label, type_)
    for out in (tag(text, [region]).text, pseudonymize(text, [region]).text):
        replaced = out[len("Before "):-len(" after.")]
        assert replaced.startswith("[") and replaced.endswith("]")
        assert not _words_of(original) & _words_of(replaced)


def _words_of(text: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"[^\W\d_]{3,}", text)}
