"""Which psan category a foreign label means: one visible table, shown on the import page and in ``psan-tool --help``.

Why a table of its own (beside :mod:`psan.tool.text.categories`, which it agrees with): an admin importing a
gold standard from INCEpTION or Label Studio must see *before* importing what ``GPE`` or ``NORP`` becomes.
Labels are looked up case-insensitively after dropping a BIO prefix (``B-PER`` → ``PER``).  A label not
in the table is looked up in psan's own tag sets (CNEC 2.0 codes such as ``ps``/``gu``, psan's recognizer
types such as ``CZ_ICO``: :func:`psan.tool.text.categories.category_of`); anything else maps to
:data:`DEFAULT_CATEGORY`, which stays a private-by-default span like every category.
"""
from __future__ import annotations

from psan.tool.text.categories import category_of
from psan.tool.text.document import Category

#: what a label no table knows becomes
DEFAULT_CATEGORY = Category.OTHER

#: (psan category, foreign labels, where they come from): the table shown to people, in this order
TABLE: tuple[tuple[Category, tuple[str, ...], str], ...] = (
    (Category.PERSON, ("PER", "PERS", "PERSON"), "CoNLL, WikiNER, OntoNotes/spaCy, Presidio, TAB"),
    (Category.LOCATION, ("LOC", "GPE", "FAC", "LOCATION", "ADDRESS", "STREET_ADDRESS", "ZIP_CODE"),
     "CoNLL, OntoNotes/spaCy, Presidio"),
    (Category.ORGANIZATION, ("ORG", "ORGANIZATION", "ORGANISATION"), "CoNLL, OntoNotes/spaCy, Presidio"),
    (Category.DATE, ("DATE", "TIME", "DATETIME", "DATE_TIME"), "OntoNotes/spaCy, Presidio, TAB"),
    (Category.ID, ("ID", "CODE", "CREDIT_CARD", "IBAN_CODE", "US_SSN", "US_DRIVER_LICENSE"), "Presidio, TAB"),
    (Category.CONTACT, ("CONTACT", "EMAIL", "EMAIL_ADDRESS", "PHONE", "PHONE_NUMBER", "URL", "IP_ADDRESS",
                        "DOMAIN_NAME"), "Presidio"),
    (Category.DEMOGRAPHIC, ("DEM", "DEMOGRAPHIC"), "TAB"),
    (Category.SENSITIVE, ("SENSITIVE",), "psan"),
    (Category.OTHER, ("MISC", "OTHER", "NORP", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE", "MONEY",
                      "QUANTITY", "PERCENT", "CARDINAL", "ORDINAL", "NRP", "TITLE"),
     "CoNLL, OntoNotes/spaCy, Presidio"),
)

#: upper-cased label → category
LABELS: dict[str, Category] = {label: category for category, labels, _ in TABLE for label in labels}
# the category names themselves (what psan's exports write) always map back to themselves
LABELS.update({str(c): c for c in Category})

_BIO = ("B-", "I-", "E-", "S-", "L-", "U-")


def bare_label(label: str) -> str:
    """The label without a BIO/BILOU prefix and surrounding blanks."""
    label = label.strip()
    return label[2:] if len(label) > 2 and label[:2].upper() in _BIO else label


def category_for(label: str) -> Category:
    """The psan category of a foreign label (see the module docstring); :data:`DEFAULT_CATEGORY` if unknown."""
    bare = bare_label(label)
    if not bare:
        return DEFAULT_CATEGORY
    found = LABELS.get(bare.upper())
    return found if found is not None else category_of(bare)


def table_rows() -> list[tuple[str, str, str]]:
    """(category, labels, source) rows for a page or the CLI help; the default last."""
    return [(str(category), ", ".join(labels), source) for category, labels, source in TABLE]


def table_text() -> str:
    """The table as plain text (``psan-tool --help``)."""
    lines = [f"  {', '.join(labels)} -> {category}" for category, labels, _ in TABLE]
    lines.append(f"  CNEC 2.0 codes (ps, gu, ic ...) and psan's own types -> as psan's recognizers map them; "
                 f"any other label -> {DEFAULT_CATEGORY}")
    return "\n".join(lines)
