"""Whole mentions: a found part of a court, place, amount or count grows to the whole mention."""
from __future__ import annotations

import pytest

from psan.tool.detection.extension import extend_mentions
from psan.tool.detection.pipeline import Pipeline
from psan.tool.text.document import Category, CharSpan

ORG, LOC, OTH = Category.ORGANIZATION, Category.LOCATION, Category.OTHER


def grown(text: str, *found: tuple[str, str, Category], language: str = "en") -> list[str]:
    """The candidates' texts after :func:`extend_mentions`, for candidates given as (text, type, category)."""
    spans = []
    for value, type_, category in found:
        start = text.index(value)
        spans.append(CharSpan(start, start + len(value), type_, category, "spacy", 0.8))
    out = extend_mentions(text, spans, language)
    return sorted(text[s.start:s.end] for s in out)


@pytest.mark.parametrize(("text", "found", "expected"), [
    # the original-language name in brackets after a court or an office
    ("On 3 May the Kraków District Court (Sąd Rejonowy) refused.", "the Kraków District Court",
     "the Kraków District Court (Sąd Rejonowy)"),
    ("He applied to the Linz Labour Office (Arbeitsamt) for benefits.", "the Linz Labour Office",
     "the Linz Labour Office (Arbeitsamt)"),
    # a candidate that stops inside the bracket it opened
    ("She joined the Graz Bar Association (Rechtsanwaltskammer), a public body.",
     "the Graz Bar Association (Rechtsanwaltskammer", "the Graz Bar Association (Rechtsanwaltskammer)"),
    # the rest of a court's name after "of" / "for" / "in"
    ("the Adana Civil Court of First-instance awarded him", "the Adana Civil Court",
     "the Adana Civil Court of First-instance"),
    ("the Graz Regional Court for Civil Matters held", "the Graz Regional Court",
     "the Graz Regional Court for Civil Matters"),
    ("the District Court in Nowy Targ remanded him", "the District Court", "the District Court in Nowy Targ"),
    # the possessive belongs to the name
    ("the Leeds Employment Tribunal's notes", "the Leeds Employment Tribunal", "the Leeds Employment Tribunal's"),
    # a division of a court before it
    ("the Fifth Chamber of the Izmir Assize Court dismissed", "the Izmir Assize Court",
     "Fifth Chamber of the Izmir Assize Court"),
    ("the 4th Section of the Supreme Military Court held", "the Supreme Military Court",
     "4th Section of the Supreme Military Court"),
    ("appointed by the Commissioner of the Public Debt Office", "the Public Debt Office",
     "Commissioner of the Public Debt Office"),
    ("an appeal to the Kartal court was", "Kartal", "Kartal court"),
])
def test_organisations_grow_to_the_whole_name(text: str, found: str, expected: str) -> None:
    assert grown(text, (found, "ORG", ORG)) == [expected]


@pytest.mark.parametrize(("text", "found"), [
    # a reference, a date or a defined short name in brackets is no part of the name
    ("the Ankara Labour Court (see paragraph 12 above) held", "the Ankara Labour Court"),
    ("the Ankara Labour Court (Article 6 § 1) held", "the Ankara Labour Court"),
    ("The Maltese Government (“the Government”) were represented", "The Maltese Government"),
    ("the Brno Regional Court [GC] held", "the Brno Regional Court"),
    # a month or "Article" after "of/in" ends the name
    ("the Bursa Labour Court in March 2001 held", "the Bursa Labour Court"),
    ("the Bursa Labour Court of Article 5 held", "the Bursa Labour Court"),
    # not an institution: "of" continues nothing
    ("the Green Party of Sweden", "the Green Party"),
    # a generic body stays generic (the never-personal filter drops it after)
    ("the Council's decision", "Council"),
    ("the Court (“the Court”) held", "the Court"),
])
def test_references_and_definitions_stay_out(text: str, found: str) -> None:
    assert grown(text, (found, "ORG", ORG)) == [found]


def test_quotes_and_legal_forms_belong_to_the_name() -> None:
    text = "a school known as the “Institute of Marine Studies”, later"
    assert grown(text, ("the “Institute of Marine Studies", "ORG", ORG)) == ["the “Institute of Marine Studies”"]
    text = "now part of the “Black Sea Technical College”."
    assert grown(text, ("Black Sea Technical College", "ORG", ORG)) == ["“Black Sea Technical College”"]
    text = "shares held by Carl Zeiss GmbH and by Nokia Oy."
    assert grown(text, ("Carl Zeiss", "PERSON", Category.PERSON), ("Nokia", "ORG", ORG)) == [
        "Carl Zeiss GmbH", "Nokia Oy"]
    assert grown("He met Carl Zeiss at home.", ("Carl Zeiss", "PERSON", Category.PERSON)) == ["Carl Zeiss"]


def test_two_organisations_joined_by_of_become_one() -> None:
    text = "a lecturer at the Faculty of Law of the Ege Aegean University since 1990"
    assert grown(text, ("the Faculty of Law", "ORG", ORG), ("the Ege Aegean University", "ORG", ORG)) == [
        "the Faculty of Law of the Ege Aegean University"]


def test_a_coordination_inside_one_name_joins_but_two_named_bodies_stay_apart() -> None:
    text = "an action with the Linz Labour and Social Court against"
    assert grown(text, ("the Linz Labour", "ORG", ORG), ("Social Court", "ORG", ORG)) == [
        "the Linz Labour and Social Court"]
    text = "both the Ministry of Justice and The Ombudsman Office replied"
    assert grown(text, ("the Ministry of Justice", "ORG", ORG), ("The Ombudsman Office", "ORG", ORG)) == [
        "The Ombudsman Office", "the Ministry of Justice"]


def test_town_and_country_become_one_place_but_a_list_stays_apart() -> None:
    text = "She was born in Tarnów, Poland, in 1950."
    assert grown(text, ("Tarnów", "GPE", LOC), ("Poland", "GPE", LOC)) == ["Tarnów, Poland"]
    text = "They lived in Tarnów, Kraków and Lublin."
    assert grown(text, ("Tarnów", "GPE", LOC), ("Kraków", "GPE", LOC), ("Lublin", "GPE", LOC)) == [
        "Kraków", "Lublin", "Tarnów"]
    text = "He was detained in Ghent (Belgium) until May."
    assert grown(text, ("Ghent", "GPE", LOC)) == ["Ghent (Belgium)"]


def test_a_town_the_ner_mistyped_joins_its_country_and_a_street_its_town() -> None:
    # a small model types a village it does not know as a nationality or a product
    text = "He lives in Zbrosławice, Poland, with his wife."
    town, country = text.index("Zbrosławice"), text.index("Poland")
    out = extend_mentions(text, [CharSpan(town, town + 11, "NORP", OTH, "spacy", 0.8),
                                 CharSpan(country, country + 6, "GPE", LOC, "spacy", 0.8)], "en")
    assert [(text[s.start:s.end], s.type, s.category) for s in out] == [("Zbrosławice, Poland", "GPE", LOC)]
    assert grown("a house in Larnaca, Makarios Avenue, was", ("Larnaca", "GPE", LOC),
                 ("Makarios Avenue", "PERSON", Category.PERSON)) == ["Larnaca, Makarios Avenue"]
    # a nationality before a place, and a person after a town, stay apart
    assert grown("a Danish national, Copenhagen born", ("Danish", "NORP", OTH), ("Copenhagen", "GPE", LOC)) == [
        "Copenhagen", "Danish national"]
    assert grown("the Finnish, Norway and Sweden", ("Finnish", "NORP", OTH), ("Norway", "GPE", LOC)) == [
        "Finnish", "Norway"]
    assert grown("born in Larnaca, Andreas Pavlou", ("Larnaca", "GPE", LOC),
                 ("Andreas Pavlou", "PERSON", Category.PERSON)) == ["Andreas Pavlou", "Larnaca"]


@pytest.mark.parametrize(("text", "found", "expected"), [
    ("land in the county of Dalarna was sold", "Dalarna", "county of Dalarna"),
    ("the Mayor of Bodrum refused", "Bodrum", "Mayor of Bodrum"),
    ("a village in northern Iraq", "Iraq", "northern Iraq"),
    ("in the Ore Valley village of Ax", "the Ore Valley", "the Ore Valley village"),
    ("at the Graz municipal cemetery on Sunday", "Graz", "Graz municipal cemetery"),
    ("a complaint to the Konak prosecutor’s office", "Konak", "Konak prosecutor"),
    ("a Leeds-based company", "Leeds", "Leeds-based"),
])
def test_places_grow_over_their_place_nouns(text: str, found: str, expected: str) -> None:
    assert grown(text, (found, "GPE", LOC)) == [expected]


def test_a_direction_joins_a_place_the_ner_mistyped() -> None:
    assert grown("refugees from southern Lebanon arrived", ("Lebanon", "PRODUCT", OTH)) == ["southern Lebanon"]


@pytest.mark.parametrize(("text", "found", "type_", "category", "expected"), [
    # the look-back words are found after tabs, several blanks and a line end right before the candidate
    ("sold in the county of\t Dalarna", "Dalarna", "GPE", LOC, "county of\t Dalarna"),
    ("a village in northern \nIraq", "Iraq", "GPE", LOC, "northern \nIraq"),
    ("a village in north  Iraq", "Iraq", "GPE", LOC, "north  Iraq"),
    ("the Ninth Chamber of\tthe \nIzmir Assize Court", "Izmir Assize Court", "ORG", ORG,
     "Ninth Chamber of\tthe \nIzmir Assize Court"),
    # no "of" (or "the" after "of") right before: nothing to take
    ("the Chamber, the Izmir Assize Court", "Izmir Assize Court", "ORG", ORG, "Izmir Assize Court"),
    ("the Chamber of other Izmir Assize Court", "Izmir Assize Court", "ORG", ORG, "Izmir Assize Court"),
])
def test_words_before_a_candidate_across_blanks(text: str, found: str, type_: str, category: Category,
                                                 expected: str) -> None:
    assert grown(text, (found, type_, category)) == [expected]


def test_nationality_with_a_state_body_or_a_second_part() -> None:
    assert grown("an order of the Greek General Staff banned", ("Greek", "NORP", OTH)) == ["Greek General Staff"]
    assert grown("a corporal in the British army", ("British", "NORP", OTH)) == ["British army"]
    assert grown("the Greek-Cypriot side", ("Greek", "NORP", OTH)) == ["Greek-Cypriot"]


def test_nationality_with_the_noun_of_a_persons_nationality_is_one_span_with_the_demographic_phrase() -> None:
    text = "lodged by a Danish national, Mr Ole Berg"
    assert grown(text, ("Danish", "NORP", OTH)) == ["Danish national"]
    assert grown("two Chilean citizens", ("Chilean", "NORP", OTH)) == ["Chilean citizens"]
    doc = Pipeline({"language": "en", "tokenizer": "regex", "ner": [], "recognizers": ["demographic"]}).process(text)
    assert [doc.span_text(e.first_token, e.end_token) for e in doc.entities] == ["Danish national"]


@pytest.mark.parametrize(("text", "found", "expected"), [
    ("the police seized 64 parcels of heroin", "64", "64 parcels of heroin"),
    ("together with nine other persons, he", "nine", "nine other persons"),
    ("hid 3,500 ecstasy pills in the car", "3,500", "3,500 ecstasy pills"),
    ("forty-two hearings were held", "forty-two", "forty-two hearings"),
    # durations, small counts and verbs are left alone
    ("for seven years he worked", "seven", "seven"),
    ("a flat with two bedrooms", "two", "two"),
    ("of which 50 was paid", "50", "50"),
    ("in 1998 the applicants left", "1998", "1998"),
])
def test_counts_take_the_counted_noun(text: str, found: str, expected: str) -> None:
    assert grown(text, (found, "CARDINAL", OTH)) == [expected]


def test_numbers_take_no_and_a_land_noun_but_application_numbers_keep_it_outside() -> None:
    assert grown("the owner of plot no. 412 of block F in", ("412", "CASE_NUMBER", Category.ID)) == [
        "plot no. 412 of block F"]
    assert grown("in house no. 17 since", ("17", "CARDINAL", OTH)) == ["house no. 17"]
    assert grown("registered as no. 553 at", ("553", "CARDINAL", OTH)) == ["no. 553"]
    assert grown("application (no. 12345/06) against", ("12345/06", "CASE_NUMBER", Category.ID)) == ["12345/06"]
    assert grown("application (no. 12345/06) against", ("12345/06", "CARDINAL", OTH)) == ["12345/06"]
    # the map sheet that locates a plot
    assert grown("she owns plot no. 77, sheet/plan 12/40 in Kyrenia", ("77", "CASE_NUMBER", OTH)) == [
        "plot no. 77, sheet/plan 12/40"]


def test_amounts_take_the_converted_sum_and_approximately() -> None:
    text = "a fine of PLN 300.50 [approx. EUR 75] was imposed"
    assert grown(text, ("PLN 300.50", "MONEY", OTH)) == ["PLN 300.50 [approx. EUR 75]"]
    text = "awarded 9,100 Turkish liras (TRY ‑ approximately 4,000 euros (EUR)) in damages"
    assert grown(text, ("9,100 Turkish liras", "MONEY", OTH)) == [
        "9,100 Turkish liras (TRY ‑ approximately 4,000 euros (EUR))"]
    assert grown("he claimed approximately EUR 2,000 for", ("EUR 2,000", "MONEY", OTH)) == [
        "approximately EUR 2,000"]
    assert grown("paid EUR 40 (see paragraph 3)", ("EUR 40", "MONEY", OTH)) == ["EUR 40"]


def test_persons_and_other_languages_pass_unchanged() -> None:
    text = "Mr Jan Nowak (“the applicant”) lives in Ghent (Belgium)."
    assert grown(text, ("Jan Nowak", "PERSON", Category.PERSON)) == ["Jan Nowak"]
    assert grown(text, ("Ghent", "GPE", LOC), language="cs") == ["Ghent"]


def test_the_default_pipeline_masks_whole_mentions() -> None:
    from psan.tool.detection.defaults import default_config
    from psan.tool.detection.ner.spacy_ner import DEFAULT_MODELS, is_installed
    if not is_installed(DEFAULT_MODELS["en"]):
        pytest.skip("the English spaCy model is not installed")
    pipeline = Pipeline(default_config("en"), "en")
    for text, mention in [
        # spaCy's spans leave the article out, as TAB's gold does (1,547 of its 1,570 ORG mentions)
        ("On 4 June 2003 the applicant appealed to the Gdańsk Regional Court (Sąd Okręgowy), which dismissed it.",
         "Gdańsk Regional Court (Sąd Okręgowy)"),
        ("The applicant was born in 1961 and lives in Tarnów, Poland.", "Tarnów, Poland"),
        ("The hearings took place between 3 April 2001 and 5 June 2002 in Lodz.",
         "between 3 April 2001 and 5 June 2002"),
    ]:
        doc = pipeline.process(text)
        assert mention in [doc.span_text(e.first_token, e.end_token) for e in doc.entities], text
    # switched off by configuration
    config = {**default_config("en"), "extend_mentions": False}
    doc = Pipeline(config, "en").process("He appealed to the Gdańsk Regional Court (Sąd Okręgowy) in vain.")
    assert "Gdańsk Regional Court (Sąd Okręgowy)" not in [doc.span_text(e.first_token, e.end_token)
                                                          for e in doc.entities]
