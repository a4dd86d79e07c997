"""Addresses (street, house number, town, postcode) as one span in every language, and UK postcodes."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.detection.recognizers import patterns
from psan.tool.detection.recognizers.addresses import ADDRESS_FORMS, address_recognizer
from psan.tool.text.document import Category


def found(text: str, language: str, type_: str) -> list[str]:
    return [text[s.start:s.end] for s in patterns.analyze(text, language) if s.type == type_]


@pytest.mark.parametrize(("language", "text", "street"), [
    ("cs", "Bydlí na adrese Na Příkopě 12, Praha 1.", "Na Příkopě 12, Praha 1"),
    ("cs", "Sídlo: Roblínská 1284/17, 252 10 Mníšek pod Brdy.", "Roblínská 1284/17, 252 10 Mníšek pod Brdy"),
    ("cs", "trvale bytem Dlouhá 5, Praha", "Dlouhá 5, Praha"),
    ("cs", "Kancelář je na náměstí Míru 15 ve druhém patře.", "náměstí Míru 15"),
    ("cs", "Sejdeme se Karlovo nám. 13, Praha 2.", "Karlovo nám. 13, Praha 2"),
    ("cs", "Doručujte na adresu U Kříže 8.", "U Kříže 8"),
    ("cs", "Provozovna Husova 240/5, Brno.", "Husova 240/5, Brno"),
    ("cs", "se sídlem Palackého 12a", "Palackého 12a"),
    ("sk", "bytom Hlavná 12, Košice", "Hlavná 12, Košice"),
    ("cs", "Jan bydlí Korunní 15, Praha 2. Telefon má jiný.", "Korunní 15, Praha 2"),
    ("cs", "Dopraváků 723, 184 00 Praha 8", "Dopraváků 723, 184 00 Praha 8"),
    ("cs", "Sportovní 656/1, 360 09 Karlovy Vary, Ústředna 353", "Sportovní 656/1, 360 09 Karlovy Vary"),
    ("cs", "Semovická 500 257 51 Bystřice u Benešova Provozovna", "Semovická 500 257 51 Bystřice u Benešova"),
    ("en", "She moved to 22 Baker Street, London OQ6 8PA last year.", "22 Baker Street, London OQ6 8PA"),
    ("en", "Write to 10 Downing Street, London SW1A 2AA.", "10 Downing Street, London SW1A 2AA"),
    ("en", "at 1600 Pennsylvania Avenue, Washington, DC 20500.", "1600 Pennsylvania Avenue, Washington, DC 20500"),
    ("en", "24 Clarke Avenue\nApt. 805\nPines Beach\n\nThanks", "24 Clarke Avenue\nApt. 805\nPines Beach"),
    ("pl", "zamieszkały ul. Marszałkowska 10/12 m. 5, 00-001 Warszawa.",
     "ul. Marszałkowska 10/12 m. 5, 00-001 Warszawa"),
    ("pl", "Biuro: ul. Jana Pawła II 5, Kraków.", "ul. Jana Pawła II 5, Kraków"),
    ("sv", "Hon bor på Drottninggatan 5, 111 51 Stockholm.", "Drottninggatan 5, 111 51 Stockholm"),
    ("sv", "Besök oss på Sveavägen 44 B, Stockholm.", "Sveavägen 44 B, Stockholm"),
    ("sl", "Naslov: Slovenska cesta 12, 1000 Ljubljana.", "Slovenska cesta 12, 1000 Ljubljana"),
    ("sl", "Sedež je na Trg republike 3, Ljubljana.", "Trg republike 3, Ljubljana"),
    ("sl", "Prešernova ulica 10, 4000 Kranj.", "Prešernova ulica 10, 4000 Kranj"),
    # a foreign street in English text: an address when a flat or a postcode follows
    ("en", "His address: Søndergade 52, Apt. 656, Aarhus.", "Søndergade 52, Apt. 656, Aarhus"),
    ("en", "Write to Laukaantie 80, 11507 Kokkola.", "Laukaantie 80, 11507 Kokkola"),
])
def test_an_address_is_one_span_street_number_town_postcode(language: str, text: str, street: str) -> None:
    assert found(text, language, "ADDRESS") == [street]
    (span,) = [s for s in patterns.analyze(text, language) if s.type == "ADDRESS"]
    assert span.category == Category.LOCATION


@pytest.mark.parametrize(("language", "text", "address"), [
    ("cs", "bytem Dlouhá 5, Jana Nováková řekla, že", "Dlouhá 5"),  # a person after the comma is no town
    ("en", "He lives at 3 John Street, Peter said.", "3 John Street"),
    ("en", "He lives at 3 John Street Mary and Bob", "3 John Street"),
])
def test_an_address_stops_before_what_is_no_town(language: str, text: str, address: str) -> None:
    assert found(text, language, "ADDRESS") == [address]


@pytest.mark.parametrize("text", [
    "podle zákona č. 89/2012 Sb., občanský zákoník",
    "Nařízení 2016/679 o ochraně osobních údajů",
    "V Praze 5 dne 3. 4. 2020",
    "Na Slovensku 3 roky pracoval.",
    "Usnesení 12 Co 45/2010 nabylo právní moci.",
    "Příloha 2 obsahuje tabulku, Kapitola 3 popis.",
    "Česká 5 let nezměnila názor.",
    "Formule 1 a Windows 10 nejsou adresy.",
    "Jana Nováková 12 let pracovala, Petr Novák 1234/56 nikoliv.",
    "Husova 5 je hezká kniha.",  # an adjective + number without any address hint
])
def test_czech_prose_is_not_a_street(text: str) -> None:
    assert found(text, "cs", "ADDRESS") == []


@pytest.mark.parametrize(("language", "text"), [
    ("en", "In 1998 the 3 Musketeers met Article 6 Road Traffic Act."),
    ("en", "He paid 20 pounds for 5 years."),
    ("en", "Windows 10 and Chapter 5 are fine; Protocol No. 1, Article 6 of the Convention."),
    ("pl", "Ustawa z dnia 5 lipca, art. 12 ust. 3"),
    ("sv", "Han var 44 år och bodde i Göteborg."),
    ("sl", "Zakon o cesta 5 let"),
])
def test_prose_is_no_address(language: str, text: str) -> None:
    assert found(text, language, "ADDRESS") == []


@pytest.mark.parametrize(("text", "codes"), [
    ("Write to 10 Downing Street, London SW1A 2AA.", ["SW1A 2AA"]),
    ("Offices: M1 1AE (Manchester), B33 8TH and CR2 6XH.", ["M1 1AE", "B33 8TH", "CR2 6XH"]),
    ("postcode EC1A1BB", ["EC1A1BB"]),
    ("The reference EC1A1BB was filed.", []),  # unspaced only after an address word
    ("Model A1 2BC and form ABC 123 are not postcodes; neither is Article 6 § 1.", []),
])
def test_uk_postcodes(text: str, codes: list[str]) -> None:
    assert found(text, "en", "POSTAL_CODE") == codes


def test_uk_postcodes_only_in_english() -> None:
    assert found("Adresa SW1A 2AA", "cs", "POSTAL_CODE") == []


def test_the_address_swallows_its_pieces_in_the_pipeline() -> None:
    from psan.tool.detection.pipeline import Pipeline
    pipeline = Pipeline({"language": "cs", "tokenizer": "regex", "ner": [], "recognizers": ["patterns", "gazetteers"]},
                        language="cs")
    doc = pipeline.process("Sídlo: Roblínská 1284/17, 252 10 Mníšek pod Brdy.")
    assert [(doc.span_text(e.first_token, e.end_token), e.type) for e in doc.entities] == [
        ("Roblínská 1284/17, 252 10 Mníšek pod Brdy", "ADDRESS")]


#: pieces of what may follow a house number: separators, capitals, digits (Unicode ones too), the flats' words
_AFTER_NUMBER = ["", " ", "  ", "\t", ",", ", ", "\n", ",\n", " \n", "Apt", "Apt.", "Flat", "Suite", "Unit", "Ste",
                 "byt", "č. b.", "č.b.", "m.", "lok.", "lgh", "lägenhet", "tr", "stanovanje", "5", "12", "12345",
                 "٣", "𝟙", "SW1A", "1AA", "CZ-", "SE-", "SI-", "DC", "London", "LONDON", "Praha", "Écija", "of", "the",
                 "§", "-", "–", ".", "(", "x", "é"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_AFTER_NUMBER), max_size=8).map("".join))
def test_where_the_lead_fails_no_flat_postcode_or_town_follows(text: str) -> None:
    for language in ADDRESS_FORMS:
        grower = address_recognizer(language).grower
        for end in range(len(text) + 1):
            if grower.lead.match(text, end) is None:
                assert not (grower.flat and grower.flat.match(text, end)), (language, text, end)
                assert grower.postcode.match(text, end) is None, (language, text, end)
                assert grower.town.match(text, end) is None, (language, text, end)
