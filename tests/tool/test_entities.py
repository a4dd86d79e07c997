"""Entity grouping: inflected forms, partial names, aliases, acronyms and deterministic ids."""
from __future__ import annotations

import re

import pytest

from psan.tool.entities.grouping import Mention, group_document, parse_mention
from psan.tool.morph.declension import inflect_pl


def _mentions(text: str, names: list[str], category: str = "PERSON") -> list[Mention]:
    """Mentions of each name in ``names``, in text order (every occurrence)."""
    found = []
    for name in dict.fromkeys(names):
        for m in re.finditer(re.escape(name) + r"(?!\w)", text):
            found.append(Mention(m.start(), m.end(), category, name))
    return sorted(found, key=lambda m: (m.start, -m.end))


def _groups(mentions: list[Mention], ids: list[str]) -> list[set[str]]:
    by: dict[str, set[str]] = {}
    for m, e in zip(mentions, ids, strict=True):
        by.setdefault(e, set()).add(m.text)
    return sorted(by.values(), key=lambda s: sorted(s))


def test_english_full_partial_and_titled_names_are_one_person() -> None:
    text = "Jonathan Harper sued. Harper said that Mr. Harper and J. Harper were one. Ms Lee disagreed."
    ms = _mentions(text, ["Jonathan Harper", "Mr. Harper", "J. Harper", "Harper", "Ms Lee"])
    ms = [m for m in ms if not any(o is not m and o.start <= m.start and m.end <= o.end for o in ms)]
    groups = _groups(ms, group_document(ms, "en"))
    assert groups == [{"Jonathan Harper", "Harper", "Mr. Harper", "J. Harper"}, {"Ms Lee"}]


def test_czech_inflected_forms_are_one_person() -> None:
    forms = ["Jan Novák", "Jana Nováka", "Janem Novákem", "panu Novákovi", "Novákovi"]
    ms = [Mention(i * 20, i * 20 + len(f), "PERSON", f) for i, f in enumerate(forms)]
    ids = group_document(ms, "cs")
    assert len(set(ids)) == 1


def test_czech_woman_and_man_of_one_family_stay_apart() -> None:
    forms = ["Jan Novák", "Jana Nováková", "Novákové", "Jana Nováka"]
    ms = [Mention(i * 20, i * 20 + len(f), "PERSON", f) for i, f in enumerate(forms)]
    ids = group_document(ms, "cs")
    assert ids[0] == ids[3]
    assert ids[1] == ids[2]
    assert ids[0] != ids[1]


def test_czech_joint_reading_picks_agreeing_case() -> None:
    form = parse_mention("Jana Nováka", "PERSON", "cs")
    assert form is not None and form.key == ("jan", "novák")
    assert parse_mention("Jana Nováková", "PERSON", "cs").key == ("jana", "nováková")  # type: ignore[union-attr]


@pytest.mark.skipif(not inflect_pl.available(), reason="Morfeusz2 not installed")
def test_polish_inflected_forms_are_one_person() -> None:
    forms = ["Jan Kowalski", "Jana Kowalskiego", "Janem Kowalskim", "Kowalskiemu"]
    ms = [Mention(i * 20, i * 20 + len(f), "PER", f) for i, f in enumerate(forms)]
    assert len(set(group_document(ms, "pl"))) == 1
    ms = [Mention(0, 12, "LOC", "w Warszawie"[2:]), Mention(20, 28, "LOC", "Warszawa")]
    assert len(set(group_document(ms, "pl"))) == 1


def test_ambiguous_surname_is_not_guessed() -> None:
    forms = ["Karl Strobel", "Anna Strobel", "Strobel", "Mr Strobel", "Anna"]
    ms = [Mention(i * 20, i * 20 + len(f), "PERSON", f) for i, f in enumerate(forms)]
    ids = group_document(ms, "en")
    assert len({ids[0], ids[1], ids[2]}) == 3  # bare "Strobel" fits both
    assert ids[3] == ids[2]                     # same surname, nothing tells them apart
    assert ids[4] == ids[1]                     # first name alone, unique


def test_gendered_titles_and_initials_keep_people_apart() -> None:
    forms = ["Mr İ. Akın", "Ms N.Ö. Akın", "Mrs Willis", "Marlene Willis"]
    ms = [Mention(i * 20, i * 20 + len(f), "PERSON", f) for i, f in enumerate(forms)]
    ids = group_document(ms, "en")
    assert ids[0] != ids[1]
    assert ids[2] == ids[3]


def test_aliases_acronyms_and_definite_descriptions() -> None:
    forms = [("PKK (the Kurdistan Workers' Party)", "ORG"), ("PKK", "ORG"), ("Kurdistan Workers’ Party", "ORG"),
             ("Employment Appeal Tribunal", "ORG"), ("EAT", "ORG"),
             ("Częstochowskie Zakłady Metalowe “Domgos”", "ORG"), ("Domgos", "ORG"),
             ("Istanbul Technical University", "ORG"), ("the University", "ORG"),
             ("Istanbul", "LOC")]
    ms = [Mention(i * 50, i * 50 + len(f), c, f) for i, (f, c) in enumerate(forms)]
    ids = group_document(ms, "en")
    assert ids[0] == ids[1] == ids[2]
    assert ids[3] == ids[4]
    assert ids[5] == ids[6]
    assert ids[7] == ids[8]
    assert len(set(ids)) == 5


def test_categories_and_common_nouns_are_respected() -> None:
    forms = [("Jordan", "PERSON"), ("Jordan", "LOC"), ("reindeer", "MISC"), ("Reindeer", "MISC"),
             ("NOVÁK", "PERSON"), ("Novák", "PERSON")]
    ms = [Mention(i * 20, i * 20 + len(f), c, f) for i, (f, c) in enumerate(forms)]
    ids = group_document(ms, "cs")
    assert ids[0] != ids[1]
    assert ids[2] != ids[3]
    assert ids[4] == ids[5]


def test_ids_are_deterministic_and_shared_across_documents() -> None:
    a = [Mention(0, 9, "PERSON", "Jan Novák"), Mention(20, 28, "PERSON", "Novákovi")]
    b = [Mention(0, 11, "PERSON", "Jana Nováka"), Mention(30, 40, "ORG", "Škoda Auto")]
    ids_a, ids_b = group_document(a, "cs"), group_document(b, "cs")
    assert ids_a == group_document(list(a), "cs")
    assert ids_a[0] == ids_a[1] == ids_b[0]
    assert ids_b[1] != ids_b[0]
    assert ids_a[0].startswith("person-") and ids_b[1].startswith("organization-")


def test_mentions_without_words_get_an_entity_each() -> None:
    ms = [Mention(0, 3, "CODE", "123"), Mention(5, 8, "CODE", "123"), Mention(10, 12, "OTHER", "..")]
    ids = group_document(ms, "en")
    assert ids[0] == ids[1] and ids[2] != ids[0]


@pytest.mark.parametrize(("full", "short"), [("Serco Limited", "Serco"), ("Škoda a.s.", "Škoda"),
                                             ("Alfa, s.r.o.", "Alfa"), ("Beta sp. z o.o.", "Beta"),
                                             ("Acme Inc.", "Acme"), ("Siemens AG", "Siemens")])
def test_legal_form_joins_the_short_name(full: str, short: str) -> None:
    text = f"{full} signed it. Later {short} said no. {short}Other is another."
    mentions = [Mention(0, len(full), "ORGANIZATION", full),
                Mention(text.index(" said") - len(short), text.index(" said"), "ORGANIZATION", short)]
    ids = group_document(mentions, "en")
    assert ids[0] == ids[1]


def test_legal_form_alone_and_expansion() -> None:
    text = "DHKP-C (the Revolutionary People's Liberation Party-Front) was named. DHKP-C members. Limited Ltd."
    a = text[:text.index(" was")]
    mentions = [Mention(0, len(a), "ORGANIZATION", a), Mention(text.index("DHKP-C members"),
                                                              text.index(" members"), "ORGANIZATION", "DHKP-C")]
    ids = group_document(mentions, "en")
    assert ids[0] == ids[1]
    assert parse_mention("Limited", "ORGANIZATION", "en") is not None  # a name that is only a legal form stays
