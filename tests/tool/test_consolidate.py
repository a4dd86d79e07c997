"""One string, one entity, one category: glued spans are cut, one string keeps one category."""
from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from psan.tool.detection.consolidate import after_sentence_end, split_glued, unify_categories
from psan.tool.detection.pipeline import Pipeline
from psan.tool.text.document import Category, Document, Entity
from psan.tool.text.tokens import tokenize

from .helpers import regex_document

P, ORG, L, OTH = Category.PERSON, Category.ORGANIZATION, Category.LOCATION, Category.OTHER


def entity(doc: Document, text: str, category: Category, type_: str = "", source: str = "ner",
           occurrence: int = 0, score: float = 0.8) -> Entity:
    """The entity over the ``occurrence``-th appearance of ``text`` (token aligned)."""
    start = -1
    for _ in range(occurrence + 1):
        start = doc.text.index(text, start + 1)
    end = start + len(text)
    first = next(t.id for t in doc.tokens if t.start == start)
    last = next(t.id for t in doc.tokens if t.end == end)
    return Entity(first, last + 1, type_ or category.value, category, source, score)


def texts(doc: Document) -> list[tuple[str, str]]:
    return [(doc.span_text(e.first_token, e.end_token), e.category.value) for e in doc.entities]


def test_a_span_never_swallows_a_speaker_slot_and_the_filler_after_it() -> None:
    text = "Keith Walker: Mhm\nAnna: Keith Walker said so.\nKeith Walker: Yes.\n"
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "Keith Walker", P, "SPEAKER", "speaker"),
                    entity(doc, "Keith Walker: Mhm", ORG),
                    entity(doc, "Keith Walker", P, occurrence=1)]
    split_glued(doc)
    assert ("Keith Walker: Mhm", "ORGANIZATION") not in texts(doc)
    assert all(":" not in t and "Mhm" not in t for t, _ in texts(doc))


def test_a_name_glued_across_a_line_break_is_cut_there() -> None:
    text = "we talked about development-\nDorota Michnik: right\nDorota Michnik: fine\n"
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "development-\nDorota Michnik", P),
                    entity(doc, "Dorota Michnik", P, "SPEAKER", "speaker", occurrence=1)]
    split_glued(doc)
    assert all("\n" not in t and "development" not in t for t, _ in texts(doc))
    assert ("Dorota Michnik", "PERSON") in texts(doc)


def test_two_names_joined_by_and_are_two_entities_when_one_stands_alone_elsewhere() -> None:
    text = "Marika Hadaś and Lukáš met. Later Lukáš left."
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "Marika Hadaś and Lukáš", ORG), entity(doc, "Lukáš", P, occurrence=1)]
    split_glued(doc)
    assert ("Marika Hadaś", "ORGANIZATION") in texts(doc) and texts(doc).count(("Lukáš", "PERSON")) == 2
    assert not any(" and " in t for t, _ in texts(doc))


def test_a_company_name_with_and_stays_whole_when_no_part_stands_alone() -> None:
    text = "He worked for Marks and Spencer for years."
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "Marks and Spencer", ORG)]
    split_glued(doc)
    assert texts(doc) == [("Marks and Spencer", "ORGANIZATION")]


def test_a_leading_filler_word_is_trimmed_to_the_known_name_but_a_first_name_is_not() -> None:
    text = "Maybe Gertraut can do it.\nI asked Gertraut. John Smith and Smith agreed."
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "Maybe Gertraut", P), entity(doc, "Gertraut", P, occurrence=1),
                    entity(doc, "John Smith", P), entity(doc, "Smith", P, occurrence=1)]
    split_glued(doc)
    found = [t for t, _ in texts(doc)]
    assert "Maybe Gertraut" not in found and found.count("Gertraut") == 2
    assert "John Smith" in found


def test_a_bracketed_alias_and_quotes_inside_a_name_are_kept() -> None:
    text = "the Częstochowa Regional Court (Sąd Wojewódzki w Częstochowie) decided"
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "Częstochowa Regional Court (Sąd Wojewódzki w Częstochowie)", ORG)]
    split_glued(doc)
    assert texts(doc) == [("Częstochowa Regional Court (Sąd Wojewódzki w Częstochowie)", "ORGANIZATION")]


def test_a_bracketed_name_recognized_on_its_own_is_cut_off_with_its_brackets_and_its_category() -> None:
    text = "the Magistrates’ Court in Newcastle (England) heard him. He was arrested in England."
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "Magistrates’ Court in Newcastle (England)", ORG),
                    entity(doc, "England", L, occurrence=1)]
    split_glued(doc)
    assert texts(doc) == [("Magistrates’ Court in Newcastle", "ORGANIZATION"), ("(England)", "LOCATION"),
                          ("England", "LOCATION")]


def test_the_bracketed_name_is_rendered_as_its_own_mentions_are() -> None:
    from psan.tool.cli.pseudonymize import pseudonymize_corpus
    text = "the Magistrates’ Court in Newcastle (England) heard him. He was arrested in England."
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "Magistrates’ Court in Newcastle (England)", ORG),
                    entity(doc, "England", L, occurrence=1)]
    split_glued(doc)
    spans = [{"start": doc.tokens[e.first_token].start, "end": doc.tokens[e.end_token - 1].end,
              "label": e.category.value} for e in doc.entities]
    (record,) = pseudonymize_corpus([{"id": "a", "text": text, "spans": spans}], "en", "pseudonymize", "1")
    by_original = {text[r["start"]:r["end"]]: r["surrogate"] for r in record["replacements"]}
    assert by_original["(England)"] == f"({by_original['England']})"
    assert "England" not in record["text"] and "Newcastle" not in record["text"]


def test_one_string_takes_the_category_with_the_most_evidence() -> None:
    text = "Agnolo said. Then Agnolo left. Agnolo: fine\nAgnolo: yes\n"
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "Agnolo", L, "GPE"), entity(doc, "Agnolo", P, occurrence=1),
                    entity(doc, "Agnolo", P, "SPEAKER", "speaker", occurrence=2),
                    entity(doc, "Agnolo", P, "SPEAKER", "speaker", occurrence=3)]
    unify_categories(doc)
    assert {c for _, c in texts(doc)} == {"PERSON"}
    assert doc.entities[0].type == "PERSON"  # the type of the strongest non-speaker evidence


def test_a_propagated_copy_does_not_outvote_a_found_name() -> None:
    text = "Istanbul is big. Istanbul again. Istanbul."
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "Istanbul", L, "GPE"), entity(doc, "Istanbul", ORG, "ORG", "propagation", 1),
                    entity(doc, "Istanbul", ORG, "ORG", "propagation", 2)]
    unify_categories(doc)
    assert {c for _, c in texts(doc)} == {"LOCATION"}


def test_the_pipeline_cleans_up_before_propagation_unless_turned_off() -> None:
    text = "Klothilde Döring: Goodbye\nAnna Berg: Bye\nKlothilde Döring: Yes.\nI thanked Klothilde Döring.\n"

    def glued() -> Document:
        doc = regex_document(text, "en")
        doc.entities = [entity(doc, "Klothilde Döring: Goodbye", ORG),
                        entity(doc, "Klothilde Döring", P, "SPEAKER", "speaker", occurrence=1)]
        return doc

    config = {"language": "en", "tokenizer": "regex", "recognizers": ["patterns"]}
    doc = Pipeline(config, language="en").finish_document(glued())
    assert all(":" not in t and "Goodbye" not in t for t, _ in texts(doc))
    assert texts(doc).count(("Klothilde Döring", "PERSON")) == 3  # one category, the last one propagated
    doc = Pipeline({**config, "consolidate": False}, language="en").finish_document(glued())
    assert ("Klothilde Döring: Goodbye", "ORGANIZATION") in texts(doc)


def test_a_possessive_form_takes_the_category_of_the_name() -> None:
    text = "Borys Klimko said. Borys Klimko came. I liked Borys Klimko's idea."
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "Borys Klimko", P), entity(doc, "Borys Klimko", P, occurrence=1),
                    entity(doc, "Borys Klimko's", ORG)]
    unify_categories(doc)
    assert {c for _, c in texts(doc)} == {"PERSON"}


def test_a_piece_cut_out_of_a_glued_span_takes_the_category_it_has_alone() -> None:
    text = "Jonathan Harper met Mary Brown. Later Harper wrote.\nHarper and Brown met again."
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "Jonathan Harper", P), entity(doc, "Mary Brown", P),
                    entity(doc, "Harper", P, occurrence=1), entity(doc, "Harper and Brown", ORG)]
    split_glued(doc)
    unify_categories(doc)
    assert ("Harper", "PERSON") in texts(doc) and ("Harper", "ORGANIZATION") not in texts(doc)
    assert ("Brown", "ORGANIZATION") in texts(doc)  # "Brown" alone was never found: the span's category stays


def test_a_description_or_a_date_keeps_its_small_words() -> None:
    text = "She was a primary school teacher. The primary school closed between 15 March 1985 and 10 May 1989."
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "primary school teacher", Category.DEMOGRAPHIC),
                    entity(doc, "primary school", Category.DEMOGRAPHIC, occurrence=1),
                    entity(doc, "15 March 1985 and 10 May 1989", Category.DATE),
                    entity(doc, "10 May 1989", Category.DATE)]
    split_glued(doc)
    found = [t for t, _ in texts(doc)]
    assert "primary school teacher" in found and "15 March 1985 and 10 May 1989" in found


def test_a_word_of_a_found_full_name_is_a_person_whatever_another_recognizer_called_it() -> None:
    """spaCy calls a lone "Reese" NORP (category OTHER, suggested public); "Kyle Reese" makes it a person."""
    text = "Sarah Connor met Kyle Reese in Los Angeles.\nConnor later phoned Reese."
    tokens, sentences = tokenize(text, "en")
    at = {t.start: t.id for t in tokens}
    kyle, lone = at[text.index("Kyle")], at[text.rindex("Reese")]
    entities = [Entity(kyle, kyle + 2, "PERSON", Category.PERSON, "spacy", 0.8),
                Entity(lone, lone + 1, "NORP", Category.OTHER, "spacy", 0.8)]
    doc = Document(text, tokens, sentences, entities, "en")
    unify_categories(doc)
    lone = doc.entities[1]
    assert doc.span_text(lone.first_token, lone.end_token) == "Reese"
    assert (lone.category, lone.type) == (Category.PERSON, "PERSON")


def test_a_name_and_its_legal_form_variant_get_one_category() -> None:
    """"Serco" called OTHER beside "Serco Limited", an organisation: the legal form says "a company" for both."""
    text = "The prison is run by Serco Limited. Serco denied it, and Serco appealed."
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "Serco Limited", ORG, "ORG"), entity(doc, "Serco", OTH, "MISC", occurrence=1),
                    entity(doc, "Serco", OTH, "MISC", occurrence=2)]
    unify_categories(doc)
    assert texts(doc) == [("Serco Limited", "ORGANIZATION"), ("Serco", "ORGANIZATION"), ("Serco", "ORGANIZATION")]
    assert {e.type for e in doc.entities} == {"ORG"}


def test_a_legal_form_outweighs_other_but_not_a_stronger_person_reading() -> None:
    text = "Hydromont Ltd wrote. Mr Ford said. Ford left. Ford came. Ford Ltd sued. Kim Se spoke; Kim Se left."
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "Hydromont Ltd", OTH, "MISC"),
                    entity(doc, "Ford", P, occurrence=0), entity(doc, "Ford", P, occurrence=1),
                    entity(doc, "Ford", P, occurrence=2), entity(doc, "Ford Ltd", ORG, "ORG"),
                    entity(doc, "Kim Se", P), entity(doc, "Kim Se", P, occurrence=1)]
    unify_categories(doc)
    assert ("Hydromont Ltd", "ORGANIZATION") in texts(doc)  # the legal form alone beats OTHER
    assert texts(doc).count(("Ford", "PERSON")) == 3 and ("Ford Ltd", "ORGANIZATION") in texts(doc)
    assert texts(doc).count(("Kim Se", "PERSON")) == 2  # "Se" in title case is no legal form


def test_the_legal_form_variant_and_its_base_share_one_surrogate() -> None:
    from psan.tool.cli.pseudonymize import pseudonymize_corpus
    text = "The prison is run by Serco Limited. Serco denied it."
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "Serco Limited", ORG, "ORG"), entity(doc, "Serco", OTH, "MISC", occurrence=1)]
    unify_categories(doc)
    spans = [{"start": doc.tokens[e.first_token].start, "end": doc.tokens[e.end_token - 1].end, "label": e.type,
              "entity": None, "identifier": None} for e in doc.entities]
    record = pseudonymize_corpus([{"id": "d", "lang": "en", "text": text, "spans": spans}], None, "pseudonymize",
                                 "0")[0]
    long, short = (r["surrogate"] for r in record["replacements"])
    assert long == short + " Ltd" and "Serco" not in long  # the legal form in other words: no word reprinted


def test_two_names_with_only_a_slash_between_them_are_one_span() -> None:
    """"Frankfurt/Oder Labour Court": a slash left in clear between two surrogates splits one name."""
    text = "the Frankfurt/Oder Labour Court ruled. Halle/Saale/Neustadt is far. Smith/Jones wrote. Berlin / Oder."
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "Frankfurt", L, "GPE"), entity(doc, "Oder Labour Court", ORG, "ORG"),
                    entity(doc, "Halle", L), entity(doc, "Saale", L), entity(doc, "Neustadt", L),
                    entity(doc, "Smith", P), entity(doc, "Jones", P),
                    entity(doc, "Berlin", L), entity(doc, "Oder", L, occurrence=1)]
    split_glued(doc)
    assert texts(doc) == [("Frankfurt/Oder Labour Court", "ORGANIZATION"), ("Halle/Saale/Neustadt", "LOCATION"),
                          ("Smith", "PERSON"), ("Jones", "PERSON"), ("Berlin", "LOCATION"), ("Oder", "LOCATION")]
    assert doc.entities[0].type == "ORG"


def test_a_slashed_name_stays_whole_where_one_side_stands_alone_but_a_list_of_persons_is_cut() -> None:
    """"Frankfurt" found alone in one mention would leave the slash in clear in every other; "Smith/Jones" names
    two people when "Smith" stands alone."""
    text = "the Frankfurt/Oder Labour Court ruled. Frankfurt is a town. Smith/Jones wrote. Smith left."
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "Frankfurt/Oder Labour Court", ORG, "ORG"),
                    entity(doc, "Frankfurt", L, "GPE", occurrence=1), entity(doc, "Smith/Jones", P),
                    entity(doc, "Smith", P, occurrence=1)]
    split_glued(doc)
    assert ("Frankfurt/Oder Labour Court", "ORGANIZATION") in texts(doc)
    assert ("Smith/Jones", "PERSON") not in texts(doc) and texts(doc).count(("Smith", "PERSON")) == 2


#: the regex the sentence-end test replaced (searched over the 40 characters before a word)
_SENTENCE_END_REGEX = re.compile(r"(?:^|[.!?:;>\n]|^\s*-)\s*$")


@given(st.text(alphabet=st.sampled_from(list("aZ.!?:;>-,\n\r\t \u00a0\u2003\u2028\x0b\x1c")) | st.characters(),
               max_size=40))
def test_the_sentence_end_test_answers_as_the_regex_did(before: str) -> None:
    assert after_sentence_end(before) == bool(_SENTENCE_END_REGEX.search(before))
