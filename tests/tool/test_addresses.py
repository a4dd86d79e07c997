"""Czech/Slovak streets with house numbers and UK postcodes (issue 14.11): found whole, prose left alone."""
from __future__ import annotations

import pytest

from psan.tool.document import Category
from psan.tool.recognizers import patterns


def found(text: str, language: str, type_: str) -> list[str]:
    return [text[s.start:s.end] for s in patterns.analyze(text, language) if s.type == type_]


@pytest.mark.parametrize(("language", "text", "street"), [
    ("cs", "Bydlí na adrese Na Příkopě 12, Praha 1.", "Na Příkopě 12"),
    ("cs", "Sídlo: Roblínská 1284/17, 252 10 Mníšek pod Brdy.", "Roblínská 1284/17"),
    ("cs", "trvale bytem Dlouhá 5, Praha", "Dlouhá 5"),
    ("cs", "Kancelář je na náměstí Míru 15 ve druhém patře.", "náměstí Míru 15"),
    ("cs", "Sejdeme se Karlovo nám. 13, Praha 2.", "Karlovo nám. 13"),
    ("cs", "Doručujte na adresu U Kříže 8.", "U Kříže 8"),
    ("cs", "Provozovna Husova 240/5, Brno.", "Husova 240/5"),
    ("cs", "se sídlem Palackého 12a", "Palackého 12a"),
    ("sk", "bytom Hlavná 12, Košice", "Hlavná 12"),
])
def test_streets_with_house_numbers(language: str, text: str, street: str) -> None:
    assert found(text, language, "STREET") == [street]
    (span,) = [s for s in patterns.analyze(text, language) if s.type == "STREET"]
    assert span.category == Category.LOCATION


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
    assert found(text, "cs", "STREET") == []


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


def test_street_beats_the_bare_street_name_in_the_pipeline() -> None:
    from psan.tool.pipeline import Pipeline
    pipeline = Pipeline({"language": "cs", "tokenizer": "regex", "ner": [], "recognizers": ["patterns", "gazetteers"]},
                        language="cs")
    doc = pipeline.process("Sídlo: Roblínská 1284/17, 252 10 Mníšek pod Brdy.")
    streets = [doc.span_text(e.first_token, e.end_token) for e in doc.entities if e.type == "STREET"]
    assert streets == ["Roblínská 1284/17"]
