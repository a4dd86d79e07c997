"""Document-level propagation (psan.tool.detection.propagate) and its pipeline switch."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.detection.pipeline import Pipeline
from psan.tool.detection.propagate import SOURCE, propagate, with_propagation
from psan.tool.detection.registry import register_recognizer
from psan.tool.text.document import Category, CharSpan, Document, Entity, Recognizer
from psan.tool.text.tokens import tokenize


def make_doc(text: str, spans: list[tuple[str, str, Category]]) -> Document:
    """Regex-tokenized document with entities on the first occurrence of each ``(string, type, category)``."""
    tokens, sentences = tokenize(text, "en")
    entities = []
    for string, type_, category in spans:
        start = text.index(string)
        end = start + len(string)
        first = next(t.id for t in tokens if t.start == start)
        last = next(t.id for t in tokens if t.end == end)
        entities.append(Entity(first, last + 1, type_, category, "ner", 0.8))
    return Document(text, tokens, sentences, entities, "en")


def strings(doc: Document, entities: list[Entity]) -> list[str]:
    return [doc.span_text(e.first_token, e.end_token) for e in entities]


def test_other_occurrences_found_across_sentences() -> None:
    doc = make_doc("Jan Novák came. Later Jan Novák left.\n\nNovák said no.",
                   [("Jan Novák", "PER", Category.PERSON)])
    found = propagate(doc, name_parts=False)
    assert strings(doc, found) == ["Jan Novák"]
    assert found[0].source == SOURCE and found[0].type == "PER" and found[0].category == Category.PERSON
    assert found[0].score < 0.8


def test_whole_tokens_only() -> None:
    doc = make_doc("Jan is here. Jana and Janek and JAN too, but Jan again.", [("Jan", "PER", Category.PERSON)])
    assert [doc.char_range(e.first_token, e.end_token) for e in propagate(doc)] == [
        (doc.text.rindex("Jan"), doc.text.rindex("Jan") + 3)]


def test_no_duplicates_inside_or_crossing_existing_entities() -> None:
    text = "Jan met Jan Novák. Novák Jan and Jan."
    doc = make_doc(text, [("Jan", "PER", Category.PERSON), ("Jan Novák", "PER", Category.PERSON)])
    # "Jan" inside "Jan Novák" is not added again; the existing entities are never duplicated
    found = propagate(doc, name_parts=False)
    ranges = {doc.char_range(e.first_token, e.end_token) for e in found}
    assert ranges == {(text.index("Novák Jan") + 6, text.index("Novák Jan") + 9), (text.rindex("Jan"), len(text) - 1)}
    # an occurrence crossing an existing entity is skipped
    doc2 = make_doc("Anna Smith. Bob Anna Smith Jr", [("Anna Smith", "PER", Category.PERSON),
                                                       ("Bob Anna", "PER", Category.PERSON)])
    assert propagate(doc2, name_parts=False) == []


def test_longer_occurrence_wins_and_contains_existing() -> None:
    text = "Jan Novák came. Novák and Jan Novák."
    tokens, sentences = tokenize(text, "en")
    # "Jan Novák" found at the start; the last "Novák" alone already tagged (e.g. by a gazetteer)
    last = len(tokens) - 2
    doc = Document(text, tokens, sentences, [Entity(0, 2, "PER", Category.PERSON, "ner", 0.8),
                                             Entity(last, last + 1, "SURNAME", Category.PERSON, "gaz", 0.4)], "en")
    found = propagate(doc)
    # the lone "Novák" is the gazetteer seed found again; the second "Jan Novák" contains the
    # existing "Novák" entity and is added around it (not a second "Novák")
    assert strings(doc, found) == ["Novák", "Jan Novák"]
    assert found[1].first_token == last - 1 and found[1].type == "PER"


def test_filters_categories_common_words_and_short_strings() -> None:
    doc = make_doc("court 2020 X IBM met court in 2020 and X and IBM",
                   [("court", "ORG", Category.ORGANIZATION), ("2020", "DATE", Category.DATE),
                    ("X", "PER", Category.PERSON), ("IBM", "ORG", Category.ORGANIZATION)])
    assert strings(doc, propagate(doc)) == ["IBM"]
    assert strings(doc, propagate(doc, categories=["PERSON"], min_chars=1)) == ["X"]


def test_id_and_contact_strings_propagate_case_sensitively() -> None:
    text = "Write to jan@example.com or JAN@EXAMPLE.COM; jan@example.com again."
    tokens, sentences = tokenize(text, "en")
    first = next(t.id for t in tokens if t.start == 9)
    last = next(t.id for t in tokens if t.end == 24)
    doc = Document(text, tokens, sentences, [Entity(first, last + 1, "EMAIL", Category.CONTACT, "email", 0.9)], "en")
    assert [doc.char_range(e.first_token, e.end_token) for e in propagate(doc)] == [
        (text.rindex("jan@"), text.rindex("jan@") + 15)]


def test_with_propagation_keeps_merger_order() -> None:
    doc = make_doc("Prague is big. Anna likes Prague.", [("Prague", "GPE", Category.LOCATION),
                                                         ("Anna", "PERSON", Category.PERSON)])
    with_propagation(doc)
    assert [(e.first_token, e.source) for e in doc.entities] == [(0, "ner"), (4, "ner"), (6, SOURCE)]
    assert propagate(doc) == []  # idempotent: nothing left to add


class _FirstOnly(Recognizer):
    """Finds only the first occurrence of 'Novák' (like a NER that misses later mentions)."""

    name = "first"

    def analyze(self, text: str, doc: Document) -> list[CharSpan]:
        i = text.find("Novák")
        return [CharSpan(i, i + 5, "PER", Category.PERSON, self.name, 0.8)] if i >= 0 else []


def test_pipeline_switch() -> None:
    register_recognizer("first-only-test", lambda entry, language: _FirstOnly())
    text = "Novák came. Then Novák left."
    on = Pipeline({"language": "en", "ner": ["first-only-test"]}).process(text)
    assert [e.source for e in on.entities] == ["first", SOURCE]
    off = Pipeline({"language": "en", "ner": ["first-only-test"], "propagate": False}).process(text)
    assert [e.source for e in off.entities] == ["first"]
    opts = Pipeline({"language": "en", "ner": ["first-only-test"], "propagate": {"categories": ["LOCATION"]}})
    assert [e.source for e in opts.process_many([text])[0].entities] == ["first"]


def test_name_parts_of_a_full_name_in_every_language() -> None:
    text = "Ernest Nagy prišiel včera. Nagy povedal, že nagy nie je slovo. Galileo Galilei zomrel. Galilei hľadá."
    doc = make_doc(text, [("Ernest Nagy", "PER", Category.PERSON), ("Galileo Galilei", "PER", Category.PERSON)])
    doc.language = "sk"
    # "Nagy" is also written in lower case in this text: no seed; "Galilei" alone is the person again
    assert strings(doc, propagate(doc)) == ["Galilei"]
    doc.language = "en"
    assert strings(doc, propagate(doc)) == ["Galilei"]
    doc.language = "sk"
    assert propagate(doc, name_parts=False) == []


def test_a_technical_term_inside_a_person_reading_seeds_nothing() -> None:
    """The Czech model read "ataku DDoS Nieznani" as a person on Polish text: "DDoS" is no name part."""
    text = "Komisja ofiarą ataku DDoS Nieznani cyberprzestępcy. Atak DDoS trwał. Nieznani znowu."
    doc = make_doc(text, [("DDoS Nieznani", "P", Category.PERSON)])
    doc.language = "pl"
    assert strings(doc, propagate(doc)) == ["Nieznani"]


def test_swedish_genitive_and_base_of_a_found_name() -> None:
    text = "Rabins data visade mycket. Rabin tog upp frågan. Hans bok och han själv; Hans kom. Sveriges Radio."
    doc = make_doc(text, [("Rabins", "PER", Category.PERSON), ("Hans", "PER", Category.PERSON)])
    doc.language = "sv"
    # "Rabin" is the base of the found genitive; "Han" is no seed ("han" is written in lower case)
    assert strings(doc, propagate(doc)) == ["Rabin", "Hans"]
    doc = make_doc("Enligt Erasmie är det så. Erasmies bok kom ut.", [("Erasmie", "PER", Category.PERSON)])
    doc.language = "sv"
    assert strings(doc, propagate(doc)) == ["Erasmies"]
    doc.language = "cs"
    assert propagate(doc) == []


def test_the_name_inside_a_grown_english_mention_is_searched_too() -> None:
    from psan.tool.detection.propagate import core_words
    text = ("He sued in the Opole District Court (Sąd Rejonowy). The Opole District Court dismissed it. "
            "He was born in Nysa, Poland and moved from Nysa in 1990. The Kartal court and Kartal police met.")
    doc = make_doc(text, [("the Opole District Court (Sąd Rejonowy)", "ORG", Category.ORGANIZATION),
                          ("Nysa, Poland", "GPE", Category.LOCATION), ("Kartal court", "ORG", Category.ORGANIZATION)])
    # the occurrence grows to its whole mention as a found one does ("Kartal" + "police")
    assert strings(doc, propagate(doc)) == ["Opole District Court", "Nysa", "Kartal police"]
    assert core_words(("the", "Court")) is None and core_words(("Jan", "Novák")) is None
    assert core_words(("the", "Tribunal’s")) == ("Tribunal",)
    assert core_words(("county", "of", "Dalarna")) == ("Dalarna",)
    assert core_words(("District", "of", "Kyrenia")) == ("Kyrenia",)
    assert core_words(("Fifth", "Chamber", "of", "the", "Izmir", "Assize", "Court")) == ("Izmir", "Assize", "Court")
    assert core_words(("Parliament", "of", "the", "ABC")) == ("ABC",)
    assert core_words(("Court", "of", "Appeal")) is None
    # other languages: the seeds as found (their mentions are not grown)
    doc.language = "cs"
    assert strings(doc, propagate(doc)) == []


def test_a_propagated_occurrence_grows_to_its_whole_mention_in_english() -> None:
    text = ("He lived in Kyrenia. His house in the District of Kyrenia was taken. He joined the Dev-Sol in 1990 and "
            "left the Dev-Sol (Revolutionary Left) later. The Fifth Chamber of the Izmir Assize Court and the Izmir "
            "Assize Court met.")
    doc = make_doc(text, [("Kyrenia", "GPE", Category.LOCATION), ("Dev-Sol", "ORG", Category.ORGANIZATION),
                          ("Fifth Chamber of the Izmir Assize Court", "ORG", Category.ORGANIZATION)])
    # a found mention's part is not grown again into a second, longer span ("Izmir Assize Court" inside the
    # Chamber's found span stays unmarked, its later occurrence alone is propagated)
    assert strings(doc, propagate(doc)) == ["District of Kyrenia", "Dev-Sol (Revolutionary Left)", "Izmir Assize Court"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(st.sampled_from("abcd"), min_size=1, max_size=4).map(tuple), min_size=1, max_size=8,
                unique=True), st.lists(st.sampled_from("abcde"), max_size=30))
def test_seed_scan_equals_aho_corasick(patterns: list[tuple[str, ...]], keys: list[str]) -> None:
    """The trie walk of propagation finds every occurrence the token automaton finds, in the same order."""
    from psan.tool.decisions.rules import TokenAutomaton
    from psan.tool.detection.propagate import scan_token_patterns
    automaton = TokenAutomaton({p: [i] for i, p in enumerate(patterns)})
    expected = sorted(((first, end, ids[0]) for first, end, ids in automaton.scan(keys, [(0, len(keys))])),
                      key=lambda m: (m[0] - m[1], m[0]))
    assert scan_token_patterns(patterns, keys, len(keys)) == expected


def test_a_surname_alone_is_a_person_mention_in_english_too() -> None:
    doc = make_doc("Sarah Connor met Kyle Reese in Los Angeles.\nConnor later phoned Reese.",
                   [("Sarah Connor", "PERSON", Category.PERSON), ("Kyle Reese", "PERSON", Category.PERSON)])
    found = propagate(doc)
    assert sorted(strings(doc, found)) == ["Connor", "Reese"]
    assert {e.category for e in found} == {Category.PERSON}
