"""The glued-span cut's word answers, shared by a process's documents, against each document's own.

Why: :class:`psan.tool.detection.consolidate._View` keeps what its filler test makes of a word (its kind, and
whether a capitalized word is a common word) in tables shared by every document of the language; an answer kept
from an earlier document must be the one the document would have worked out itself.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.detection import consolidate
from psan.tool.text.document import Document, TokenArray
from tests.tool.helpers import laid_out

#: words of every kind the filler test tells apart: function words, conjunctions, interjections, possessives,
#: punctuation, numbers, lower-case and capitalized words, common words and names, words in capitals
WORDS = ("The", "the", "and", "And", "of", "a", "uh", "Oh", "'s", "’s", "'", ",", ".", "-", "2019", "3rd", "court",
         "Court", "Republic", "Smith", "John", "Mr", "UN", "NATO", "och", "Och", "a", "A", "Praha", "soud", "Soud",
         "Kvinnorna", "Stockholm", "ž", "Ž", "x1", "?", "—")
word = st.one_of(st.sampled_from(WORDS), st.text(st.characters(blacklist_categories=("Z", "C")), min_size=1,
                                                 max_size=5))
document = st.lists(st.tuples(word, st.sampled_from((" ", ". ", "\n", ", "))), min_size=1, max_size=10)


def _doc(pieces: list[tuple[str, str]], language: str) -> Document:
    text, starts, ends = laid_out(pieces)
    return Document(text, TokenArray(starts, ends), [], [], language)


@settings(max_examples=200, deadline=None)
@given(st.lists(document, min_size=1, max_size=4), st.sampled_from(("en", "cs", "sv")))
def test_a_documents_filler_answers_are_its_own_with_the_shared_tables(documents: list, language: str) -> None:
    for pieces in documents:  # the earlier documents (and examples) leave their answers in the shared tables
        doc = _doc(pieces, language)
        shared = consolidate._View(doc)
        own = consolidate._View(doc)
        own.kinds, own.common = {}, {}  # the document working out every answer itself, as before
        for i in range(len(pieces)):
            for name in (True, False):
                assert shared.filler(i, name) == own.filler(i, name), (pieces[i][0], name)
        assert shared.kinds is consolidate._View(_doc(pieces, language)).kinds  # the tables are the process's


def test_the_tables_are_per_language_and_bounded(monkeypatch) -> None:  # noqa: ANN001 - pytest fixture
    en, sv = consolidate._answers("en"), consolidate._answers("sv")
    assert en[0] is not sv[0] and en[1] is not sv[1]
    monkeypatch.setattr(consolidate, "_MAX_ANSWERS", 2)
    en[0].update(dict.fromkeys(("a", "b", "c"), 0))
    assert consolidate._answers("en")[0] == {}  # a table past the bound starts again
