"""The app's replacer and policy, now pure psan.tool.surrogates code (no database needed)."""
from __future__ import annotations

import pytest

from psan.tool.decisions.voting import PrivateRegion
from psan.tool.release.output import pseudonymize
from psan.tool.surrogates import SurrogateReplacer, make_policy
from psan.tool.surrogates.combined import CombinedReplacer
from psan.tool.surrogates.policy import surrogate_policy
from psan.tool.text.document import Category

TEXT = "John Smith called Mary Brown from Boston."


def _region(text: str, label: int | None = None, category: Category = Category.PERSON) -> PrivateRegion:
    start = TEXT.index(text)
    return PrivateRegion(start, start + len(text), category, label, str(category))


def test_surrogate_policy_from_the_pipeline_json():
    assert surrogate_policy(None) == make_policy(None)
    assert surrogate_policy({"tokenizer": "regex"}) == make_policy(None)
    assert surrogate_policy({"surrogates": {"preset": "swell"}}) == make_policy(None, "swell")
    assert surrogate_policy({"surrogates": {"person": "tag"}})["person"] == "tag"
    with pytest.raises(ValueError, match="must be a JSON object"):
        surrogate_policy({"surrogates": ["person"]})
    with pytest.raises(ValueError, match="preset must be a string"):
        surrogate_policy({"surrogates": {"preset": 3}})
    with pytest.raises(ValueError, match="unknown surrogate policy key"):
        surrogate_policy({"surrogates": {"nosuch": 1}})


def test_label_replacement_wins_and_sources_are_recorded():
    regions = [_region("John Smith", label=1), _region("Mary Brown"), _region("Boston", category=Category.LOCATION)]
    replacer = CombinedReplacer({1: "the client"}, SurrogateReplacer(None, "en", 5))
    replacer.observe(TEXT, regions)
    replacer.start_document()
    out = pseudonymize(TEXT, regions, replacer, language="en")
    assert out.text.startswith("the client called ")
    assert "Mary Brown" not in out.text and "Boston" not in out.text
    where = {r.start: (r.start, r.end) for r in regions}
    assert replacer.sources[where[0]] == "label" and replacer.entities[where[0]] == "label:1"
    mary = where[TEXT.index("Mary Brown")]
    assert replacer.sources[mary] == "surrogate" and replacer.entities[mary]
    replacer.start_document()
    assert replacer.sources == {} and replacer.entities == {} and replacer.surrogates.entities == {}


def test_no_surrogate_equals_an_admin_replacement():
    """An admin's replacement text is observed like an original: no other entity is given it."""
    replacer = CombinedReplacer({1: "Mary Brown"}, SurrogateReplacer(None, "en", 5))
    assert "mary brown" in {w.casefold() for w in replacer.surrogates._forbidden}


def _dates(text: str, dates: list[str]) -> list[PrivateRegion]:
    return [PrivateRegion(text.index(d), text.index(d) + len(d), Category.DATE, None, "DATE") for d in dates]


@pytest.mark.parametrize("seed", range(12))
def test_the_project_pass_forbids_each_documents_own_years_in_its_surrogates(seed):
    """The app observes every document first and replaces them afterwards: each document's private years must
    still be forbidden in that document's other surrogates (not the last observed document's)."""
    first = "Born in 1990, she moved on 3 March 1991, on 4 June 1991, on 5 May 1992 and on 6 July 1989."
    second = "Nothing happened in 2020."
    first_regions = _dates(first, ["1990", "3 March 1991", "4 June 1991", "5 May 1992", "6 July 1989"])
    second_regions = _dates(second, ["2020"])
    replacer = CombinedReplacer({}, SurrogateReplacer(None, "en", seed))
    replacer.observe(first, first_regions)
    replacer.observe(second, second_regions)
    replacer.start_document(first, first_regions)
    out = pseudonymize(first, first_regions, replacer, language="en")
    printed = [e["replacement"] for e in out.standoff[1:]]
    assert not any("1990" in p for p in printed), printed
