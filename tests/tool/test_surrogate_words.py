"""A surrogate never prints a word of its original: a title with another year, an address with another number or
an organisation with a changed suffix is still the original."""
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.decisions.voting import PrivateRegion
from psan.tool.detection.recognizers.dates import MONTHS
from psan.tool.surrogates.replacer import pseudonymize_document
from psan.tool.text.document import Category
from psan.tool.text.shared_words import SHARED_WORD_LETTERS
from psan.tool.words.name_joints import ARTICLES, FUNCTION_WORDS

WORD = st.text(alphabet="abcdefghijklmnoprstuvzáéíčřšž", min_size=3, max_size=9).map(str.capitalize)
PIECE = st.one_of(WORD, st.integers(1, 2999).map(str), st.sampled_from(["(1928)", "Street", "Limited", "ulice"]))
TYPES = {Category.PERSON: "PERSON", Category.LOCATION: "GPE", Category.ORGANIZATION: "ORG",
         Category.CONTACT: "STREET", Category.OTHER: "oa", Category.DATE: "DATE", Category.ID: "NUMBER"}


#: words that name nobody: a surrogate may keep them (months of a shifted date, "Limited", "and", "the")
NAMELESS = {m.casefold() for forms in MONTHS.values() for m in forms} | FUNCTION_WORDS | ARTICLES | {"limited"}


def _words(text: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"[^\W\d_]+", text) if len(w) >= SHARED_WORD_LETTERS}


@settings(max_examples=150, deadline=None)
@given(st.lists(PIECE, min_size=1, max_size=5), st.sampled_from(sorted(TYPES, key=str)),
       st.sampled_from(["en", "cs"]), st.integers(0, 10**6))
def test_no_word_of_the_original_survives_in_its_surrogate(pieces, category, language, seed):
    original = " ".join(pieces)
    text = f"Seen: {original} today."
    start = text.index(original)
    region = PrivateRegion(start, start + len(original), category, type=TYPES[category])
    out, entries = pseudonymize_document(text, [region], language, seed=seed)
    (entry,) = [e for e in entries if e["original_start"] == start]
    assert not (_words(entry["replacement"]) & (_words(original) - NAMELESS)), (original, entry["replacement"])
