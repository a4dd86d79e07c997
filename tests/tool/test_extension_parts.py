"""The parts of :func:`psan.tool.detection.extension._grow`, each on its own: every part moves only its own edge."""
from __future__ import annotations

from psan.tool.detection import extension
from psan.tool.text.document import Category, CharSpan

ORG, LOC, OTH = Category.ORGANIZATION, Category.LOCATION, Category.OTHER


def span(text: str, value: str, type_: str, category: Category) -> CharSpan:
    start = text.index(value)
    return CharSpan(start, start + len(value), type_, category, "spacy", 0.8)


def test_name_end_takes_the_rest_of_a_court_and_its_possessive() -> None:
    text = "the Adana Civil Court of First-instance's decision"
    s = span(text, "the Adana Civil Court", "ORG", ORG)
    end = extension._grow_name_end(text, s, s.start, s.end)
    assert text[s.start:end] == "the Adana Civil Court of First-instance's"


def test_name_end_takes_a_place_noun_only_for_a_place() -> None:
    text = "at the Graz municipal cemetery on Sunday"
    place = span(text, "Graz", "GPE", LOC)
    assert text[place.start:extension._grow_name_end(text, place, place.start, place.end)] == "Graz municipal cemetery"
    org = span(text, "Graz", "ORG", ORG)
    assert extension._grow_name_end(text, org, org.start, org.end) == org.end


def test_name_start_takes_a_division_or_a_direction_word() -> None:
    text = "the Fifth Chamber of the Izmir Assize Court dismissed"
    s = span(text, "the Izmir Assize Court", "ORG", ORG)
    assert text[extension._grow_name_start(text, s, s.start, max(0, s.start - 60)):s.end] == (
        "Fifth Chamber of the Izmir Assize Court")
    text = "a village in northern \nIraq"
    s = span(text, "Iraq", "GPE", LOC)
    assert text[extension._grow_name_start(text, s, s.start, max(0, s.start - 60)):s.end] == "northern \nIraq"
    text = "the Chamber, the Izmir Assize Court"
    s = span(text, "Izmir Assize Court", "ORG", ORG)
    assert extension._grow_name_start(text, s, s.start, 0) == s.start


def test_name_start_looks_only_inside_the_window() -> None:
    text = "a village in northern Iraq"
    s = span(text, "Iraq", "GPE", LOC)
    assert extension._grow_name_start(text, s, s.start, s.start - 3) == s.start


def test_name_takes_its_quotes_then_grows_both_edges() -> None:
    text = "the Chamber of the “Eastern Court” held"
    s = span(text, "Eastern Court", "ORG", ORG)
    start, end = extension._grow_name(text, s, s.start, s.end, max(0, s.start - 60))
    assert text[start:end] == "Chamber of the “Eastern Court”"


def test_norp_end_takes_a_second_part_and_a_state_body_or_a_person_noun() -> None:
    text = "the Greek-Cypriot side"
    s = span(text, "Greek", "NORP", OTH)
    assert text[s.start:extension._grow_norp_end(text, s.end)] == "Greek-Cypriot"
    text = "an order of the Greek General Staff banned"
    s = span(text, "Greek", "NORP", OTH)
    assert text[s.start:extension._grow_norp_end(text, s.end)] == "Greek General Staff"
    text = "two Chilean citizens"
    s = span(text, "Chilean", "NORP", OTH)
    assert text[s.start:extension._grow_norp_end(text, s.end)] == "Chilean citizens"
    assert extension._grow_norp_end("the Chilean wine", 11) == 11


def test_money_takes_the_conversion_and_approximately() -> None:
    text = "approximately PLN 300.50 [approx. EUR 75] was imposed"
    s = span(text, "PLN 300.50", "MONEY", OTH)
    start, end = extension._grow_money(text, s.start, s.end, 0)
    assert text[start:end] == "approximately PLN 300.50 [approx. EUR 75]"
    text = "paid EUR 40 (see paragraph 3)"
    s = span(text, "EUR 40", "MONEY", OTH)
    assert extension._grow_money(text, s.start, s.end, 0) == (s.start, s.end)


def test_number_takes_the_counted_noun_but_no_time_unit() -> None:
    text = "the police seized 64 parcels of heroin"
    s = span(text, "64", "CARDINAL", OTH)
    start, end = extension._grow_number(text, s, s.start, s.end, 0)
    assert text[start:end] == "64 parcels of heroin"
    text = "for seven years he worked"
    s = span(text, "seven", "CARDINAL", OTH)
    assert extension._grow_number(text, s, s.start, s.end, 0) == (s.start, s.end)


def test_number_takes_no_before_it_and_the_of_block_after() -> None:
    text = "the owner of plot no. 412 of block F in"
    s = span(text, "412", "CASE_NUMBER", Category.ID)
    start, end = extension._grow_number(text, s, s.start, s.end, 0)
    assert text[start:end] == "plot no. 412 of block F"
    text = "application (no. 12345/06) against"
    s = span(text, "12345/06", "CASE_NUMBER", Category.ID)
    assert extension._grow_number(text, s, s.start, s.end, 0) == (s.start, s.end)


def test_grow_adds_the_legal_form_and_runs_the_parts_by_type() -> None:
    text = "shares of Robert Bosch GmbH were sold"
    s = span(text, "Robert Bosch", "ORG", ORG)
    assert text[slice(*extension._grow(text, s))] == "Robert Bosch GmbH"
    text = "refugees from southern Lebanon arrived"
    s = span(text, "Lebanon", "PRODUCT", OTH)
    assert text[slice(*extension._grow(text, s))] == "southern Lebanon"
