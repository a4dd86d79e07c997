"""The parts of :func:`psan.tool.detection.propagate.propagate`, each on its own."""
from __future__ import annotations

from psan.tool.detection import propagate
from psan.tool.detection.propagate import SOURCE
from psan.tool.text.document import Category, Document, Entity, token_bounds, token_texts
from psan.tool.text.tokens import tokenize

PER, ORG, LOC = Category.PERSON, Category.ORGANIZATION, Category.LOCATION


def make_doc(text: str, spans: list[tuple[str, Category, float]], language: str = "en") -> Document:
    """A document with entities on the first occurrence of each ``(string, category, score)``."""
    tokens, sentences = tokenize(text, language)
    entities = []
    for string, category, score in spans:
        start = text.index(string)
        first = next(t.id for t in tokens if t.start == start)
        last = next(t.id for t in tokens if t.end == start + len(string))
        entities.append(Entity(first, last + 1, "X", category, "ner", score))
    return Document(text, tokens, sentences, entities, language)


def seeds_of(doc: Document, wanted: set[Category] = frozenset(Category), min_chars: int = 2) -> dict:
    return propagate._found_seeds(doc, token_texts(doc.text, doc.tokens), set(wanted), SOURCE, min_chars)


def test_found_seeds_keep_the_best_scored_occurrence_of_a_string() -> None:
    doc = make_doc("Jan Novák came. Later Jan Novák left.", [("Jan Novák", PER, 0.5)])
    doc.entities.append(Entity(5, 7, "Y", PER, "ner", 0.9))  # the second "Jan Novák"
    seeds = seeds_of(doc)
    assert list(seeds) == [("Jan", "Novák")] and seeds[("Jan", "Novák")].score == 0.9


def test_found_seeds_skip_other_categories_short_strings_and_common_words() -> None:
    doc = make_doc("Jan and X and the Court met.", [("Jan", PER, 0.8), ("X", PER, 0.8), ("the", ORG, 0.8)])
    assert list(seeds_of(doc)) == [("Jan",)]
    assert seeds_of(doc, {ORG}) == {}
    assert seeds_of(doc, {PER}, min_chars=4) == {}


def test_found_seeds_add_the_core_of_a_grown_english_mention_after_the_found_strings() -> None:
    text = "He was born in Nysa, Poland and stayed in Nysa."
    doc = make_doc(text, [("Nysa, Poland", LOC, 0.8)])
    seeds = seeds_of(doc)
    assert list(seeds) == [("Nysa", ",", "Poland"), ("Nysa",)]
    assert seeds[("Nysa",)] is doc.entities[0]
    doc.language = "cs"  # other languages: no cores
    assert list(seeds_of(doc)) == [("Nysa", ",", "Poland")]


def flat(matches: list) -> list[tuple[int, int, int, float]]:
    """(first, end, pattern index, score factor) of _pattern_matches' occurrence lists, in order."""
    return [(first, end, idx, factor) for found, factor in matches for first, end, idx in found]


def test_pattern_matches_exact_first_then_by_lemma_with_the_lower_factor() -> None:
    text = "Narodil sa v Košiciach. Košice sú mesto."
    texts = token_texts(text, tokenize(text, "sk")[0])
    matches = flat(propagate._pattern_matches([("Košice",)], texts, "sk", True, 0.9))
    assert [(texts[first], factor) for first, _, _, factor in matches] == [
        ("Košice", 1.0), ("Košiciach", 0.9), ("Košice", 0.9)]  # the lemma pass finds the exact one again
    exact = flat(propagate._pattern_matches([("Košice",)], texts, "sk", False, 0.9))
    assert [(texts[first], factor) for first, _, _, factor in exact] == [("Košice", 1.0)]


def test_pattern_matches_without_a_lemmatizer_are_exact() -> None:
    texts = ["Anna", "met", "Anna", "Smith"]
    assert flat(propagate._pattern_matches([("Anna", "Smith"), ("Anna",)], texts, "en", True, 0.9)) == [
        (2, 4, 0, 1.0), (0, 1, 1, 1.0), (2, 3, 1, 1.0)]


def test_new_entities_skip_found_inside_and_crossing_matches_and_score_them() -> None:
    text = "Jan met Jan Novák. Novák Jan and Jan."
    doc = make_doc(text, [("Jan", PER, 0.8), ("Jan Novák", PER, 0.8)])
    starts, ends = token_bounds(doc.tokens)
    texts = token_texts(text, doc.tokens)
    patterns = [("Jan", "Novák"), ("Jan",)]
    seeds = [doc.entities[1], doc.entities[0]]
    matches = propagate._pattern_matches(patterns, texts, "cs", False, 0.9)
    added = propagate._new_entities(doc, matches, seeds, starts, ends, SOURCE, 0.5)
    assert [(doc.span_text(e.first_token, e.end_token), e.first_token, e.score, e.source) for e in added] == [
        ("Jan", texts.index("Jan", 6), 0.4, SOURCE), ("Jan", len(texts) - 2, 0.4, SOURCE)]
    # a match added once covers its tokens: the same match again adds nothing
    assert len(propagate._new_entities(doc, matches + matches[-1:], seeds, starts, ends, SOURCE, 0.5)) == 2


def test_new_entities_grow_an_english_occurrence_to_its_whole_mention() -> None:
    text = "He lived in Kyrenia. His house in the District of Kyrenia was taken."
    doc = make_doc(text, [("Kyrenia", LOC, 0.8)])
    doc.entities[0] = Entity(doc.entities[0].first_token, doc.entities[0].end_token, "GPE", LOC, "ner", 0.8)
    starts, ends = token_bounds(doc.tokens)
    texts = token_texts(text, doc.tokens)
    matches = propagate._pattern_matches([("Kyrenia",)], texts, "en", True, 0.9)
    added = propagate._new_entities(doc, matches, [doc.entities[0]], starts, ends, SOURCE, 0.9)
    assert [doc.span_text(e.first_token, e.end_token) for e in added] == ["District of Kyrenia"]
    doc.language = "cs"
    added = propagate._new_entities(doc, matches, [doc.entities[0]], starts, ends, SOURCE, 0.9)
    assert [doc.span_text(e.first_token, e.end_token) for e in added] == ["Kyrenia"]
