"""Print a table of invented examples per category and language (original → surrogate), plus leak counts.

Run: ``python -m psan.tool.surrogates.examples [--leaks]`` (``--leaks`` also
pseudonymizes tab-dev and elitr-dev from the shared data and counts leaks).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from psan.tool.decisions.voting import PrivateRegion
from psan.tool.surrogates.replacer import SurrogateReplacer
from psan.tool.text.document import Category

C = Category
#: (language, category, native type, invented original)
EXAMPLES: list[tuple[str, Category, str, str]] = [
    ("cs", C.PERSON, "P", "Janem Novákem"), ("cs", C.PERSON, "P", "Janě Novákové"), ("cs", C.PERSON, "ps", "NOVÁK"),
    ("cs", C.LOCATION, "gu", "Praze"), ("cs", C.LOCATION, "STREET", "Husova 12"),
    ("cs", C.LOCATION, "POSTAL_CODE", "110 00"), ("cs", C.ORGANIZATION, "ORG", "Pekárna Novák s.r.o."),
    ("cs", C.CONTACT, "EMAIL", "jan.novak@seznam.cz"), ("cs", C.CONTACT, "PHONE", "+420 602 123 456"),
    ("cs", C.ID, "CZ_BIRTH_NUMBER", "736028/5163"), ("cs", C.DATE, "DATE", "5. března 2001"),
    ("cs", C.DATE, "AGE", "42 let"),
    ("pl", C.PERSON, "PER", "Annę Kowalską"), ("pl", C.PERSON, "PER", "Jana Nowaka"),
    ("pl", C.LOCATION, "LOC", "Wrocławiu"), ("pl", C.ORGANIZATION, "ORG", "mBanku"),
    ("pl", C.CONTACT, "EMAIL", "a.nowak@onet.pl"), ("pl", C.CONTACT, "URL", "www.nowak2.pl/blog"),
    ("pl", C.CONTACT, "USERNAME", "@anka_88"), ("pl", C.LOCATION, "POSTAL_CODE", "50-001"),
    ("pl", C.ID, "PL_PESEL", "44051401359"), ("pl", C.DATE, "DATE", "12 maja 2003"),
    ("en", C.PERSON, "PERSON", "Mr A. Smith"), ("en", C.PERSON, "PERSON", "Mary O'Neil"),
    ("en", C.LOCATION, "GPE", "Springfield"), ("en", C.ORGANIZATION, "ORG", "NATO"),
    ("en", C.ORGANIZATION, "ORG", "Acme Widgets Ltd"), ("en", C.ID, "CARD", "4111 1111 1111 1111"),
    ("en", C.ID, "IBAN", "GB82 WEST 1234 5698 7654 32"), ("en", C.ID, "US_SSN", "078-05-1120"),
    ("en", C.DATE, "DATE", "31 May 1991"), ("en", C.OTHER, "MISC", "Catholic"),
    ("sv", C.PERSON, "PER", "Annas"), ("sv", C.PERSON, "PER", "Lars Svensson"), ("sv", C.LOCATION, "LOC", "Göteborg"),
    ("sv", C.ID, "SE_PERSONNUMMER", "811218-9876"), ("sv", C.LOCATION, "POSTAL_CODE", "412 58"),
    ("sv", C.DATE, "DATE", "2013-05-17"), ("sv", C.DATE, "AGE", "18"),
]


def table(seed: int = 7, preset_swell_for_sv: bool = True) -> list[tuple[str, str, str, str, str]]:
    """Rows (language, category, type, original, surrogate)."""
    rows = []
    replacers: dict[str, SurrogateReplacer] = {}
    for i, (lang, cat, type_, original) in enumerate(EXAMPLES):
        rep = replacers.setdefault(lang, SurrogateReplacer(None, lang, seed))
        region = PrivateRegion(0, len(original), cat, 100 + i, type_)
        sur = rep.replacement(region, original)
        rows.append((lang, cat.value, type_, original, sur if sur is not None else f"[{cat.value}] (tag)"))
    if preset_swell_for_sv:
        from psan.tool.surrogates.policy import make_policy
        swell = SurrogateReplacer(make_policy(preset="swell"), "sv", seed)
        for i, (original, cat, type_) in enumerate([("anna@hotmail.com", C.CONTACT, "EMAIL"),
                                                    ("070-123 45 67", C.CONTACT, "PHONE"),
                                                    ("412 58", C.LOCATION, "POSTAL_CODE")]):
            sur = swell.replacement(PrivateRegion(0, len(original), cat, 500 + i, type_), original)
            rows.append(("sv (SweLL preset)", cat.value, type_, original, sur or "(tag)"))
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--leaks", action="store_true")
    parser.add_argument("--shared", type=Path, required="--leaks" in (argv if argv is not None else sys.argv),
                        help="the shared folder (its data/ holds tab-dev.jsonl and elitr-dev.jsonl); with --leaks")
    args = parser.parse_args(argv)
    print("| lang | category | type | original | surrogate |")
    print("|---|---|---|---|---|")
    for row in table():
        print("| " + " | ".join(row) + " |")
    if args.leaks:
        from psan.tool.surrogates.leakcheck import check_file
        shared = args.shared
        for name in ("tab-dev.jsonl", "elitr-dev.jsonl"):
            r = check_file(shared / "data" / name)
            print(f"{name}: documents {r.documents}, regions {r.regions}, surrogates {r.surrogates}, "
                  f"tags {r.tags}, leaked originals {r.leaks}, reversal errors {r.reversal_errors}")


if __name__ == "__main__":
    main()
