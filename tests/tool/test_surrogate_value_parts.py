"""The parts of ``SurrogateReplacer._value``: one surrogate per non-name kind, each part on its own."""
from __future__ import annotations

import re

from psan.tool.surrogates import SurrogateReplacer, routing
from psan.tool.surrogates.checksum import VALIDATORS


def rep(language: str = "cs", **policy: object) -> SurrogateReplacer:
    return SurrogateReplacer(policy, language, seed=5)


def part_run(r: SurrogateReplacer, kind: str, original: str, entity: str = "e1"):  # noqa: ANN201
    return r._runner(kind, entity, original)


def test_runner_draws_reproducibly_and_keeps_one_surrogate_per_entity() -> None:
    first = part_run(rep(), routing.NUMBER, "12345")(lambda rng: str(rng.randint(10000, 99999)))
    again = part_run(rep(), routing.NUMBER, "12345")(lambda rng: str(rng.randint(10000, 99999)))
    assert first == again and first is not None and first != "12345"
    r = rep()
    taken = part_run(r, routing.NUMBER, "1", "a")(lambda rng: "777")
    assert taken == "777"
    assert part_run(r, routing.NUMBER, "2", "b")(lambda rng: "777") is None  # another entity owns it
    assert part_run(r, routing.NUMBER, "2", "b")(lambda rng: "777", unique=False) == "777"


def test_id_value_follows_the_national_id_mode() -> None:
    original = "7801233540"
    assert rep(national_id="tag")._id_value("CZ_BIRTH_NUMBER", original, lambda *a, **k: "never") is None
    r = rep(national_id="zeros")
    assert r._id_value("CZ_BIRTH_NUMBER", original, part_run(r, "CZ_BIRTH_NUMBER", original)) == "0000000000"
    r = rep(national_id="checksum")
    got = r._id_value("CZ_BIRTH_NUMBER", original, part_run(r, "CZ_BIRTH_NUMBER", original))
    assert got is not None and got != original and VALIDATORS["CZ_BIRTH_NUMBER"](got)
    r = rep(national_id="random")
    got = r._id_value("CZ_BIRTH_NUMBER", original, part_run(r, "CZ_BIRTH_NUMBER", original))
    assert got is not None and re.fullmatch(r"\d{10}", got) and got != original


def test_contact_value_shapes_fixes_or_tags() -> None:
    mail = "jan.novak@seznam.cz"
    r = rep(email="fixed")
    assert r._contact_value(routing.EMAIL, "e", mail, part_run(r, routing.EMAIL, mail)) == "email@dot.com"
    r = rep(email="tag")
    assert r._contact_value(routing.EMAIL, "e", mail, part_run(r, routing.EMAIL, mail)) is None
    r = rep()
    got = r._contact_value(routing.EMAIL, "e", mail, part_run(r, routing.EMAIL, mail))
    assert got is not None and re.fullmatch(r"[a-z]{3}\.[a-z]{5}@[a-z]{6}\.cz", got) and "novak" not in got
    r = rep(url="fixed", username="fixed")
    assert r._contact_value(routing.URL, "e", "www.x.org", part_run(r, routing.URL, "www.x.org")) == "url.com"
    assert r._contact_value(routing.USERNAME, "e", "@jsmith", part_run(r, routing.USERNAME, "@jsmith")) == "@user"


def test_number_value_by_kind_and_mode() -> None:
    r = rep(phone="zeros")
    assert r._number_value(routing.PHONE, "+420 602 123 456",
                           part_run(r, routing.PHONE, "+420 602 123 456")) == "+000 000 000 000"
    r = rep()
    assert r._number_value(routing.NUMBER, "--", part_run(r, routing.NUMBER, "--")) is None  # nothing to replace
    got = r._number_value(routing.POSTAL, "110 00", part_run(r, routing.POSTAL, "110 00"))
    assert got is not None and re.fullmatch(r"\d{3} \d{2}", got) and got != "110 00"
    phone = r._number_value(routing.PHONE, "602 123 456", part_run(r, routing.PHONE, "602 123 456"))
    assert phone is not None and phone != "602 123 456" and re.search(r"\d", phone)
    assert rep(number="tag")._number_value(routing.NUMBER, "42", lambda *a, **k: "never") is None


def test_date_value_shifts_in_format_or_tags() -> None:
    r = rep()
    got = r._date_value("12. 3. 2001", part_run(r, routing.DATE, "12. 3. 2001"))
    assert got is not None and re.fullmatch(r"\d{1,2}\. \d{1,2}\. \d{4}", got) and got != "12. 3. 2001"
    assert abs(int(got[-4:]) - 2001) <= 3
    assert rep(date="tag")._date_value("12. 3. 2001", lambda *a, **k: "never") is None
    assert rep()._date_value("—", lambda *a, **k: "never") is None


def test_age_value_shifts_within_the_delta() -> None:
    r = rep()
    got = r._age_value("42", part_run(r, routing.AGE, "42"))
    assert got is not None and got != "42" and abs(int(got) - 42) <= 3
    assert rep()._age_value("stará", lambda *a, **k: "never") is None
    assert rep(age="tag")._age_value("42", lambda *a, **k: "never") is None


def test_country_value_keeps_tags_or_draws_in_the_original_case() -> None:
    assert rep(country="keep")._country_value("Francie", lambda *a, **k: "never") == "Francie"
    assert rep(country="tag")._country_value("Francie", lambda *a, **k: "never") is None
    r = rep()
    got = r._country_value("FRANCIE", part_run(r, routing.COUNTRY, "FRANCIE"))
    assert got is not None and got.isupper() and got != "FRANCIE"


def test_value_dispatches_by_kind() -> None:
    r = rep()
    ip = r._value(routing.IP, "e", "192.168.1.10", "IP")
    assert ip is not None and re.fullmatch(r"\d+\.\d+\.\d+\.\d+", ip) and ip != "192.168.1.10"
    assert r._value("unknown-kind", "e", "x", "X") is None
    assert rep(country="keep")._value(routing.COUNTRY, "e", "Francie", "LOC") == "Francie"
    assert rep(national_id="zeros")._value("CZ_BIRTH_NUMBER", "e", "7801233540", "ID") == "0000000000"
