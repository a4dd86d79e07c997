"""The parts of the entity linking (:func:`psan.tool.entities.grouping._link`), each on its own."""
from __future__ import annotations

from psan.tool.entities import grouping
from psan.tool.entities.grouping import Form, parse_mention


def forms_of(names: list[tuple[str, str]], language: str = "en") -> list[Form | None]:
    return [parse_mention(text, category, language) for text, category in names]


def roots(uf: grouping._Union, n: int) -> list[int]:
    return [uf.find(i) for i in range(n)]


def test_same_keys_join_equal_forms_and_aliases_of_one_category() -> None:
    forms = forms_of([("Serco Limited", "ORG"), ("Serco", "ORG"), ("Serco", "PERSON"), ("Serco Limited", "ORG")])
    uf = grouping._Union(len(forms))
    grouping._link_same_keys(forms, uf)
    assert roots(uf, 4) == [0, 0, 2, 0]


def test_same_keys_skip_missing_forms() -> None:
    forms = [None, *forms_of([("Jan Novák", "PERSON"), ("Jan Novák", "PERSON")])]
    uf = grouping._Union(3)
    grouping._link_same_keys(forms, uf)
    assert roots(uf, 3) == [0, 1, 1]


def test_distinct_full_names_keep_the_first_mention_of_each_name_per_cluster() -> None:
    forms = forms_of([("Jonathan Harper", "PERSON"), ("Harper", "PERSON"), ("Jonathan Harper", "PERSON"),
                      ("Ann Lee", "PERSON"), ("the court", "ORG")])
    uf = grouping._Union(len(forms))
    assert grouping._distinct_full_names(forms, uf) == [0, 2, 3]  # not yet one cluster: both "Jonathan Harper" count
    grouping._link_same_keys(forms, uf)
    assert grouping._distinct_full_names(forms, uf) == [0, 3]  # one word and common words are no full names


def test_full_name_tables_index_surnames_first_names_heads_and_initials() -> None:
    forms = forms_of([("Jonathan Harper", "PERSON"), ("European Court of Human Rights", "ORG")])
    by_surname, by_first, by_head, by_acronym = grouping._full_name_tables(forms, [0, 1])
    person, org = forms[0].category, forms[1].category
    assert by_surname[(person, "harper")] == [0] and by_first[(person, "jonathan")] == [0]
    assert by_head[(person, "harper")] == [0] and by_head[(org, "rights")] == [1]
    assert by_acronym[(org, "ECHR")] == [1] and by_acronym[(org, "ECOHR")] == [1]
    assert by_first[(org, "european")] == [1]
    tables = grouping._full_name_tables(forms, [0])
    assert all((org, "european") not in table for table in tables)  # only the listed names


def test_cluster_genders_by_root() -> None:
    forms = forms_of([("Mr Harper", "PERSON"), ("Harper", "PERSON"), ("Ms Lee", "PERSON")])
    uf = grouping._Union(3)
    uf.union(0, 1)
    assert grouping._cluster_genders(forms, uf) == {0: {"m"}, 2: {"f"}}


def test_lookup_key_by_kind_of_short_mention() -> None:
    person, acronym, head, plain = forms_of([("Harper", "PERSON"), ("ECHR", "ORG"), ("the Tribunal", "ORG"),
                                             ("Court of Appeal", "ORG")])
    assert grouping._lookup_key(person)[0] == "p"
    assert grouping._lookup_key(acronym) == ("a", acronym.category, "ECHR")
    assert grouping._lookup_key(head) == ("h", head.category, head.key[0])
    assert grouping._lookup_key(plain) is None


def _tables(forms: list[Form | None], uf: grouping._Union) -> tuple[grouping._Index, dict, dict]:
    full_names = grouping._distinct_full_names(forms, uf)
    by_surname, by_first, by_head, by_acronym = grouping._full_name_tables(forms, full_names)
    return grouping._Index(by_surname, by_first, grouping._cluster_genders(forms, uf)), by_head, by_acronym


def test_short_mentions_link_to_the_one_full_name_they_fit() -> None:
    forms = forms_of([("Jonathan Harper", "PERSON"), ("Harper", "PERSON"), ("European Court of Human Rights", "ORG"),
                      ("ECHR", "ORG"), ("Harper", "PERSON")])
    uf = grouping._Union(len(forms))
    grouping._link_same_keys(forms, uf)
    index, by_head, by_acronym = _tables(forms, uf)
    assert grouping._short_mention_links(forms, uf, index, by_head, by_acronym) == [(1, 0), (3, 2), (4, 0)]


def test_a_short_mention_fitting_two_entities_links_to_none() -> None:
    forms = forms_of([("Jonathan Harper", "PERSON"), ("Mary Harper", "PERSON"), ("Harper", "PERSON")])
    uf = grouping._Union(len(forms))
    grouping._link_same_keys(forms, uf)
    index, by_head, by_acronym = _tables(forms, uf)
    assert grouping._short_mention_links(forms, uf, index, by_head, by_acronym) == []


def test_link_joins_equal_forms_then_short_mentions() -> None:
    forms = forms_of([("Jonathan Harper", "PERSON"), ("Harper", "PERSON"), ("Ann Lee", "PERSON"), ("Lee", "PERSON"),
                      ("ECHR", "ORG"), ("European Court of Human Rights", "ORG")])
    assert roots(grouping._link(forms), 6) == [0, 0, 2, 2, 4, 4]
