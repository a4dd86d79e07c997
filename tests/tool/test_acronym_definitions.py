"""An acronym defined after the name it abbreviates: the definition keeps it off the lists, the long form is masked."""
from __future__ import annotations

from psan.tool.detection.acronym_definitions import is_defined_acronym, long_form_start, mark_long_forms
from psan.tool.text.document import Category

from .helpers import regex_document
from .test_consolidate import entity, texts

ORG, OTH = Category.ORGANIZATION, Category.OTHER


def test_the_long_form_spells_the_acronym_by_initials_and_starts_with_a_capital() -> None:
    text = "the Erich-Weinert-Ensemble (EWE), the Court of Justice of the European Union (CJEU), a fund (“the CRAM”)"
    for acronym, name in (("EWE", "Erich-Weinert-Ensemble"), ("CJEU", "Court of Justice of the European Union")):
        bracket = text.index(f"({acronym}")
        assert text[long_form_start(text, bracket, acronym):bracket].strip() == name
    assert long_form_start(text, text.index("(“the CRAM"), "CRAM") is None
    assert is_defined_acronym(text, "EWE") and not is_defined_acronym(text, "CRAM")
    assert not is_defined_acronym("he paid value added tax (VAT) twice", "VAT")


def test_the_long_form_of_a_recognized_acronym_is_masked_with_its_category() -> None:
    """"EWE" found and "Erich-Weinert-Ensemble" before it not: the name written out tells what the acronym hides."""
    text = ("She danced for the Erich-Weinert-Ensemble (EWE); the EWE closed. "
            "He got Widowed Parent’s Allowance (“WPA”). "
            "The British National Party (BNP) won. The regional fund (“the CRAM”) paid.")
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "EWE", ORG, "ORG"), entity(doc, "EWE", ORG, "ORG", occurrence=1),
                    entity(doc, "WPA", OTH, "MISC"), entity(doc, "British National Party", ORG, "ORG"),
                    entity(doc, "(BNP)", ORG, "ORG"), entity(doc, "CRAM", ORG, "ACRONYM")]
    mark_long_forms(doc)
    assert texts(doc) == [("Erich-Weinert-Ensemble", "ORGANIZATION"), ("EWE", "ORGANIZATION"),
                          ("EWE", "ORGANIZATION"), ("Widowed Parent’s Allowance", "OTHER"), ("WPA", "OTHER"),
                          ("British National Party", "ORGANIZATION"), ("(BNP)", "ORGANIZATION"),
                          ("CRAM", "ORGANIZATION")]  # BNP's long form was found already; CRAM's is not spelt


def test_the_definition_counts_wherever_the_acronym_was_found_and_an_unrecognized_one_adds_nothing() -> None:
    """"EWE" found only in a later sentence still masks the long form its definition gives; "GDR", found nowhere,
    masks nothing."""
    text = "The Erich-Weinert-Ensemble (EWE) of the German Democratic Republic (GDR) played. Then EWE closed."
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "EWE", ORG, "ORG", occurrence=1)]
    mark_long_forms(doc)
    assert texts(doc) == [("Erich-Weinert-Ensemble", "ORGANIZATION"), ("EWE", "ORGANIZATION")]


def test_acronyms_sharing_a_prefix_each_find_their_own_definition() -> None:
    """All acronyms are looked for in one pass over the text: "EU" must not take "EU-OSHA"'s bracket, nor hide it."""
    text = ("The Energy Union (EU) met the Energy Union Oil Supply Holding Association (EU-OSHA). "
            "Later the EU and the EU-OSHA agreed.")
    doc = regex_document(text, "en")
    doc.entities = [entity(doc, "EU", ORG, "ORG", occurrence=2), entity(doc, "EU-OSHA", ORG, "ORG", occurrence=1)]
    mark_long_forms(doc)
    assert texts(doc) == [("Energy Union", "ORGANIZATION"),
                          ("Energy Union Oil Supply Holding Association", "ORGANIZATION"),
                          ("EU", "ORGANIZATION"), ("EU-OSHA", "ORGANIZATION")]
