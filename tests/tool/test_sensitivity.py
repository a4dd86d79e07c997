"""What no automatic shortcut may make public (psan.tool.decisions.sensitivity)."""
from __future__ import annotations

import datetime

from psan.tool.decisions.sensitivity import birth_date_like, never_public_by_suggestion, sensitive_type
from psan.tool.text.document import Category


def test_addresses_birth_dates_and_districts_wait_for_a_person():
    assert never_public_by_suggestion(["STREET"], Category.LOCATION, ["Dlouhá", "12"])
    assert never_public_by_suggestion(["gu"], Category.LOCATION, ["Dlouhá", "12"])  # a place with a number
    assert never_public_by_suggestion(["td"], Category.DATE, ["1", ".", "1", ".", "1978"])
    assert never_public_by_suggestion([], Category.OTHER, ["1", ".", "1", ".", "1978"])  # whatever recognized it
    assert never_public_by_suggestion(["gu"], Category.LOCATION, ["Praha", "1"])
    assert never_public_by_suggestion(["PHONE"], Category.CONTACT, ["+420", "777", "123", "456"])
    assert never_public_by_suggestion(["CZ_BIRTH_NUMBER"], Category.ID, ["780101/1234"])
    # ordinary public candidates stay suggestible
    assert not never_public_by_suggestion(["gu"], Category.LOCATION, ["Praha"])
    assert not never_public_by_suggestion(["ORG"], Category.ORGANIZATION, ["Acme", "Corporation"])
    this_year = datetime.date.today().strftime("%Y")
    assert not never_public_by_suggestion([], Category.OTHER, ["1", ".", "1", ".", this_year])  # not a birth date
    # what an admin lists for the project
    assert never_public_by_suggestion(["ORG"], Category.ORGANIZATION, ["Acme"], extra={"ORGANIZATION"})
    assert never_public_by_suggestion(["if"], Category.ORGANIZATION, ["Acme"], extra={"if"})


def test_type_level_check_for_learned_types():
    assert sensitive_type("CZ_BIRTH_NUMBER") and sensitive_type("DATE") and sensitive_type("ah")
    assert sensitive_type("HEALTH")  # a special category (SENSITIVE)
    assert not sensitive_type("PERSON") and not sensitive_type("gu")
    assert sensitive_type("gu", extra={"LOCATION"})


def test_birth_date_shapes():
    assert birth_date_like(["12", "/", "05", "/", "1980"]) and birth_date_like(["1.1.1978"])
    assert birth_date_like(["3", ".", "března", "1965"]) and birth_date_like(["March", "3", "1965"])
    assert not birth_date_like(["1978"]) and not birth_date_like(["Praha"])


def test_a_span_overlapping_an_address_overlaps_it() -> None:
    from psan.tool.decisions.sensitivity import overlaps_any
    address = [(3, 9)]  # "22 Baker Street , London OQ6 8PA"
    assert overlaps_any(3, 4, address) and overlaps_any(4, 7, address) and overlaps_any(8, 12, address)
    assert not overlaps_any(0, 3, address) and not overlaps_any(9, 11, address)
