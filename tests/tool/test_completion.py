"""Name completion: a person span that is part of a longer name grows to the whole name."""
from __future__ import annotations

from psan.tool.detection.completion import complete_names
from psan.tool.detection.pipeline import Pipeline
from psan.tool.text.document import Category, Entity
from tests.tool.helpers import regex_document


def grown(text: str, found: str, language: str, category: Category = Category.PERSON,
          others: tuple[tuple[str, Category], ...] = ()) -> list[str]:
    doc = regex_document(text, language)

    def entity(value: str, cat: Category) -> Entity:
        start = text.index(value)
        first = next(t.id for t in doc.tokens if t.start == start)
        end = next(t.id for t in doc.tokens if t.end == start + len(value)) + 1
        return Entity(first, end, "P", cat, "nametag", 0.9)

    doc.entities = [entity(found, category), *(entity(v, c) for v, c in others)]
    complete_names(doc)
    return [doc.span_text(e.first_token, e.end_token) for e in doc.entities if e.category is Category.PERSON]


def test_an_initial_before_the_surname_joins_it() -> None:
    assert grown("V roce 1960 B. Lagunin odjel.", "Lagunin", "cs") == ["B. Lagunin"]
    assert grown("Drama v režii I . Rajmonta .", "Rajmonta", "cs") == ["I . Rajmonta"]


def test_listed_first_names_join_the_surname_and_a_first_name_takes_the_next_word() -> None:
    assert grown("Včera přijel Jan Lagunin z Moskvy.", "Lagunin", "cs") == ["Jan Lagunin"]
    assert grown("Včera přijel Jan Lagunin z Moskvy.", "Jan", "cs") == ["Jan Lagunin"]
    assert grown("We met John Smith today.", "Smith", "en") == ["John Smith"]


def test_words_that_are_not_names_stay_out() -> None:
    assert grown("Senátor za Zelené Athos De Luca upozornil.", "Athos De Luca", "cs") == ["Athos De Luca"]
    assert grown("Hm.\nVáclav Toman: yes", "Václav Toman", "en") == ["Václav Toman"]
    assert grown("Then Mr. Smith left.", "Smith", "en") == ["Smith"]
    # a spoken filler after a first name is no surname ("person.Craig Oh, yeah" in a transcript)
    assert grown("some PR person.Craig Oh, yeah.", "Craig", "en") == ["Craig"]
    assert grown("Well Craig Morris said so.", "Craig", "en") == ["Craig Morris"]
    # a neighbouring place is another entity: the person does not swallow it
    assert grown("Praha Jan Novák", "Novák", "cs", others=(("Praha", Category.LOCATION),)) == ["Jan Novák"]
    assert grown("Jan Praha", "Jan", "cs", others=(("Praha", Category.LOCATION),)) == ["Jan"]


def test_pipeline_completes_before_propagating() -> None:
    # the later "Lagunin" alone is a person only because "Jan" grew to "Jan Lagunin" before propagation
    # (whose single name words seed it); without completion it stays a mere capitalized word
    text = "Včera přijel Jan Lagunin z Moskvy. Potom se Lagunin vrátil."
    config = {"language": "cs", "tokenizer": "regex", "ner": [], "recognizers": ["gazetteers"]}
    doc = Pipeline(config).process(text)
    persons = [(doc.span_text(e.first_token, e.end_token), e.source) for e in doc.entities
               if e.category is Category.PERSON]
    assert ("Jan Lagunin", "gazetteer") in persons and ("Lagunin", "propagation") in persons
    assert [p for p, _ in persons].count("Jan") == 0
    off = Pipeline({**config, "complete_names": False}).process(text)
    off_persons = [off.span_text(e.first_token, e.end_token) for e in off.entities if e.category is Category.PERSON]
    assert "Jan Lagunin" not in off_persons and "Lagunin" not in off_persons


def test_first_names_of_other_languages_join_a_found_name() -> None:
    from psan.tool.detection.recognizers.gazetteer import foreign_first_name, person_name_kind
    # a Turkish first name in an English text, an English one in a Czech text: not in the language's own list
    assert not person_name_kind("Mehmet", "en") and foreign_first_name("Mehmet", "en")
    assert grown("filed by a national, Mehmet Oruç Kalkan, on 3 May.", "Oruç Kalkan", "en") == [
        "Mehmet Oruç Kalkan"]
    # a found foreign first name does not take just any capitalized word after it (only the language's own do)
    assert grown("Mehmet Kalkan filed it.", "Mehmet", "en") == ["Mehmet"]
    assert grown("Kapitán Willy Dvořák odešel .", "Dvořák", "cs") == ["Willy Dvořák"]
    # the language's stoplist still rules ("Justice" is a first name somewhere, not in an English judgment)
    assert not foreign_first_name("Justice", "en")
    assert grown("Lord Justice Pemberley dissented.", "Pemberley", "en") == ["Pemberley"]
    # only beside a found name: a capitalized word that is no first name anywhere stays out
    assert grown("the Regional Kalkan case", "Kalkan", "en") == ["Kalkan"]
