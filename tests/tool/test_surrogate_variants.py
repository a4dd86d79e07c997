"""Variants of one entity get one identity: legal form, acronym and expansion, title and initials."""
from __future__ import annotations

from psan.tool.cli.pseudonymize import pseudonymize_corpus
from psan.tool.surrogates import derived, variants


def spans(text: str, items: list[tuple[str, str]]) -> list[dict]:
    out, pos = [], 0
    for s, label in items:
        i = text.index(s, pos)
        out.append({"start": i, "end": i + len(s), "label": label, "entity": None, "identifier": None})
        pos = i + len(s)
    return out


def surrogates(text: str, items: list[tuple[str, str]], seed: str = "0") -> list[str]:
    doc = {"id": "d", "lang": "en", "text": text, "spans": spans(text, items)}
    record = pseudonymize_corpus([doc], None, "pseudonymize", seed)[0]
    return [r["surrogate"] for r in record["replacements"]]


def test_a_legal_form_variant_keeps_the_name_surrogate_and_says_the_form_otherwise() -> None:
    text = "The contract went to Serco Limited. Later Serco said no, and Serco’s board agreed."
    for seed in ("0", "1", "2"):
        long, short, possessive = surrogates(text, [("Serco Limited", "ORG"), ("Serco", "ORG"),
                                                    ("Serco’s", "ORG")], seed)
        assert long == short + " Ltd"  # "Limited" would print a word of the original
        assert possessive == short + "’s"
        assert "Serco" not in long + short + possessive


def test_an_acronym_is_the_acronym_of_its_expansions_surrogate() -> None:
    text = "He joined the British National Party (BNP) in 1990; the BNP expelled him and the BNP's leader spoke."
    for seed in ("0", "1", "2"):
        both, short, possessive = surrogates(text, [("British National Party (BNP)", "ORG"), ("BNP", "ORG"),
                                                    ("BNP's", "ORG")], seed)
        name, _, rest = both.partition(" (")
        assert rest == short + ")"
        assert short == variants.acronym_of(name)
        assert possessive == short + "'s"
        assert short != "BNP"


def test_a_title_and_initials_variant_is_the_same_person() -> None:
    text = "Mr Z.M. Necatigil appeared. Necatigil said that Mr Necatigil had left."
    full, alone, titled = surrogates(text, [("Mr Z.M. Necatigil", "PERSON"), ("Necatigil", "PERSON"),
                                           ("Mr Necatigil", "PERSON")])
    surname = alone
    assert full.startswith("Mr ") and full.endswith(" " + surname) and titled == "Mr " + surname
    assert "Necatigil" not in full + alone + titled


def test_quoted_and_bracketed_names_keep_their_marks_around_one_surrogate() -> None:
    text = "the “Turkish Republic of Northern Cyprus” (“TRNC”) and later the TRNC"
    both, short = surrogates(text, [("“Turkish Republic of Northern Cyprus” (“TRNC”)", "ORG"), ("TRNC", "ORG")])
    assert both.startswith("“") and both.endswith(f"(“{short}”)")


def test_variant_shapes() -> None:
    assert variants.wrapping("“TRNC”") == ("“", "TRNC", "”")
    assert variants.wrapping("the University’s") == ("the ", "University", "’s")
    assert variants.wrapping("Serco") == ("", "Serco", "")
    assert variants.legal_form("Serco Limited") == ("Serco", " Limited")
    assert variants.legal_form("Limited") == ("", "")
    assert variants.is_acronym("DHKP-C") and not variants.is_acronym("Serco")
    assert variants.acronym_of("Dean, Cohen and Robinson") == "DCR"
    assert variants.acronym_of("Smith-Jones Ltd") == "SJ"
    assert variants.expands("EAT", "Employment Appeal Tribunal")
    assert variants.aliased("British National Party (BNP)") == ("British National Party", " (", "BNP", ")")
    assert variants.aliased("(BNP)") is None


def test_an_address_spelling_a_persons_name_follows_that_persons_pseudonym() -> None:
    text = ("Jane Miller wrote from jane.miller@uni-graz.org and as jmiller@uni-graz.org; "
            "Miller's colleague Tom Hardy used office@uni-graz.org.")
    name, email, short, other, office = surrogates(text, [("Jane Miller", "PERSON"), ("jane.miller@uni-graz.org",
                                                   "EMAIL"), ("jmiller@uni-graz.org", "EMAIL"),
                                                   ("Tom Hardy", "PERSON"), ("office@uni-graz.org", "EMAIL")])
    first, last = name.split()
    folded = derived.fold
    assert email.split("@")[0] == f"{folded(first)}.{folded(last)}"
    assert short.split("@")[0] == f"{folded(first)[0]}{folded(last)}"
    assert email.split("@")[1] == short.split("@")[1] == office.split("@")[1] != "uni-graz.org"
    assert "miller" not in (email + short).casefold()
    assert other != name


def test_an_address_of_nobody_named_is_shaped_as_before_with_another_tld() -> None:
    text = "Write to info@example.net, says Jane Miller."
    (email, _) = surrogates(text, [("info@example.net", "EMAIL"), ("Jane Miller", "PERSON")])
    assert len(email) == len("info@example.net") and not email.endswith(".net") and "example" not in email


def test_each_date_of_a_range_is_the_date_it_is_alone() -> None:
    text = "He was held from 3 May 2001 until 22 October 2002. On 22 October 2002 he was freed; 3 May 2001 mattered."
    both, alone, first = surrogates(text, [("3 May 2001 until 22 October 2002", "DATE"), ("22 October 2002", "DATE"),
                                           ("3 May 2001", "DATE")])
    assert both == f"{first} – {alone}"  # "from", "until": words of the original, said with a sign
    assert "2002" not in alone or alone != "22 October 2002"
    assert variants.date_parts("between January 1993 and July 1999") == [
        ("between ", False), ("January 1993", True), (" and ", False), ("July 1999", True)]
    assert variants.date_parts("26 October 1993") is None


def test_a_personal_url_and_handle_follow_the_owner_too() -> None:
    text = "Jane Miller posts at https://uni-graz.org/~jmiller/cv and as @jane_miller."
    name, url, handle = surrogates(text, [("Jane Miller", "PERSON"), ("https://uni-graz.org/~jmiller/cv", "URL"),
                                          ("@jane_miller", "USERNAME")])
    first, last = (derived.fold(w) for w in name.split())
    assert url.startswith("http://") and url.endswith(f"/~{first[0]}{last}/" + url.rsplit("/", 1)[-1])
    assert "uni-graz" not in url and "miller" not in url
    assert handle == f"@{first}_{last}"



def _streamed(texts_and_dates: list[tuple[str, list[str]]]) -> list[list[str]]:
    """Surrogates of the given date strings, documents replaced one after the other as ``psan-tool anonymize``
    does (each observed just before it is replaced, so later documents add originals to avoid)."""
    from psan.tool.cli import make_replacer
    from psan.tool.decisions.voting import PrivateRegion
    from psan.tool.release.output import pseudonymize
    from psan.tool.text.categories import Category

    replacer = make_replacer("en", "0")
    out = []
    for text, dates in texts_and_dates:
        regions, pos = [], 0
        for d in dates:
            i = text.index(d, pos)
            regions.append(PrivateRegion(i, i + len(d), Category.DATE, type="DATE"))
            pos = i + len(d)
        replacer.observe(text, regions)
        out.append([s["replacement"] for s in pseudonymize(text, regions, replacer).standoff])
    return out


def test_a_range_keeps_its_dates_surrogates_whatever_words_and_other_originals_surround_it() -> None:
    """The words of the range ("between", "and") are said otherwise ("from", "to"); a later document's private
    years may appear inside the pieces' surrogates, which were accepted when each date was drawn alone."""
    years = [str(y) for y in range(1990, 2010)]
    later = "It paid between 3 July 1995 and 5 April 1997. " + " ".join(f"In {y} nothing happened." for y in years)
    (came, left), (both, *_) = _streamed([("He came on 3 July 1995. He left on 5 April 1997.",
                                           ["3 July 1995", "5 April 1997"]),
                                          (later, ["between 3 July 1995 and 5 April 1997", *years])])
    assert both == f"from {came} to {left}"
