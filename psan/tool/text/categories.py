"""Map native named-entity codes of different taggers/corpora to :class:`Category`.

Why: rules, display and output work with a handful of coarse categories, while
every recognizer speaks its own tag set.  Supported tag sets:

* CNEC 2.0 (NameTag Czech): two-letter lower-case types plus containers P, T, A, C.
  ``p*``/``P`` → PERSON (except ``pc``, inhabitant/nationality names, → OTHER, like
  OntoNotes NORP); ``g*`` → LOCATION; ``i*`` → ORGANIZATION; ``t*``/``T`` → DATE;
  ``a*``/``A`` (address parts: street+house number ``ah``, zip ``az``) → LOCATION,
  except ``at`` (phone/fax number) → CONTACT; ``me`` (e-mail) / ``mi`` (URL) → CONTACT,
  ``mn`` (periodicals) / ``ms`` (radio/TV stations) → ORGANIZATION.
  Numbers: ``n_`` (numbers CNEC could not classify – in real documents these are mostly
  account, registry or document numbers) → ID; the other ``n*`` (age, page/volume
  numbers, cardinals, itemizers, ordinals, sport scores) → OTHER.  ``o*`` (artifacts,
  products, currencies, laws), ``c*``/``C`` (bibliography) → OTHER.
* CoNLL / WikiNER: PER, LOC, ORG, MISC (also with ``B-``/``I-``/``E-``/``S-`` prefixes).
* OntoNotes 5 (spaCy English): PERSON, NORP, FAC, ORG, GPE, LOC, PRODUCT, EVENT,
  WORK_OF_ART, LAW, LANGUAGE, DATE, TIME, PERCENT, MONEY, QUANTITY, ORDINAL, CARDINAL.
* Evaluation-corpus labels (TAB, ELITR, Presidio) and the coarse category names themselves; TAB's ``DEM``
  and the demographic recognizer's OCCUPATION/NATIONALITY and the demonyms' DEMONYM → DEMOGRAPHIC; the
  acronym recognizer's ACRONYM → ORGANIZATION, a capitalized word's PROPER_NOUN → OTHER.
* psan's other recognizer types (SURNAME, CITY, STREET, CZ_ICO …) → the category their spans carry, so that
  what is decided about a type (learned types, category pools, a word-type rule's reach, what may never be
  public) follows the category the span was recognized with.
* Topics of the special-category recognizer (HEALTH, RELIGION, POLITICS, SEXUAL_ORIENTATION,
  ETHNICITY, FAMILY, GENDER) → SENSITIVE.
* The pre-trained classifier's types ``CLS_<CATEGORY>_<SHAPE>`` (:mod:`psan.tool.detection.classifier.span_types`)
  → their category, a tag set of their own.

Unknown codes map to OTHER.
"""
from __future__ import annotations

from psan.tool.text.document import Category

_PER, _LOC, _ORG, _DAT, _ID, _CON, _OTH = (Category.PERSON, Category.LOCATION, Category.ORGANIZATION, Category.DATE,
                                          Category.ID, Category.CONTACT, Category.OTHER)
_SEN = Category.SENSITIVE
_DEM = Category.DEMOGRAPHIC

#: exact (case-sensitive) CNEC 2.0 codes
CNEC: dict[str, Category] = {
    "P": _PER, "T": _DAT, "A": _LOC, "C": _OTH,
    "ah": _LOC, "at": _CON, "az": _LOC,
    "g_": _LOC, "gc": _LOC, "gh": _LOC, "gl": _LOC, "gq": _LOC, "gr": _LOC, "gs": _LOC, "gt": _LOC, "gu": _LOC,
    "i_": _ORG, "ia": _ORG, "ic": _ORG, "if": _ORG, "io": _ORG,
    "me": _CON, "mi": _CON, "mn": _ORG, "ms": _ORG,
    "n_": _ID, "na": _OTH, "nb": _OTH, "nc": _OTH, "ni": _OTH, "no": _OTH, "ns": _OTH,
    "o_": _OTH, "oa": _OTH, "oe": _OTH, "om": _OTH, "op": _OTH, "or": _OTH,
    "p_": _PER, "pc": _OTH, "pd": _PER, "pf": _PER, "pm": _PER, "pp": _PER, "ps": _PER,
    "td": _DAT, "tf": _DAT, "th": _DAT, "tm": _DAT, "ty": _DAT,
}

#: first letter fallback for CNEC codes not listed above (CNEC 1.0 leftovers etc.)
CNEC_PREFIX: dict[str, Category] = {
    "a": _LOC, "c": _OTH, "g": _LOC, "i": _ORG, "m": _OTH, "n": _OTH, "o": _OTH, "p": _PER, "t": _DAT,
}

#: case-insensitive (upper-cased) codes of CoNLL, OntoNotes and corpora
OTHER_SETS: dict[str, Category] = {
    # CoNLL / WikiNER
    "PER": _PER, "LOC": _LOC, "ORG": _ORG, "MISC": _OTH,
    # OntoNotes
    "PERSON": _PER, "NORP": _OTH, "FAC": _LOC, "GPE": _LOC, "PRODUCT": _OTH, "EVENT": _OTH, "WORK_OF_ART": _OTH,
    "LAW": _OTH,
    "LANGUAGE": _OTH, "DATE": _DAT, "TIME": _DAT, "PERCENT": _OTH, "MONEY": _OTH, "QUANTITY": _OTH, "ORDINAL": _OTH,
    "CARDINAL": _OTH,
    # TAB, ELITR, Presidio, pattern recognizers
    "DATETIME": _DAT, "DATE_TIME": _DAT, "DEM": _DEM, "CODE": _ID, "LOCATION": _LOC, "ORGANIZATION": _ORG,
    "PROJECT": _OTH,
    "STREET_ADDRESS": _LOC, "ADDRESS": _LOC, "ZIP_CODE": _LOC, "CREDIT_CARD": _ID, "US_SSN": _ID,
    "US_DRIVER_LICENSE": _ID,
    "TITLE": _OTH, "NRP": _OTH, "DOMAIN_NAME": _CON, "EMAIL_ADDRESS": _CON, "EMAIL": _CON,
    "PHONE_NUMBER": _CON,
    "PHONE": _CON, "URL": _CON, "URL_PERSONAL": _CON, "IP_ADDRESS": _CON, "IP": _CON, "IBAN_CODE": _ID, "IBAN": _ID,
    # the coarse categories themselves
    "ID": _ID, "CONTACT": _CON, "OTHER": _OTH, "SENSITIVE": _SEN, "DEMOGRAPHIC": _DEM,
}

#: psan's own recognizers' types (upper-cased), with the category their spans carry (tests/tool/test_categories.py);
#: a tag set of their own for learning (:func:`tag_set`)
RECOGNIZER_TYPES: dict[str, Category] = {
    # psan.tool.detection.recognizers.demographic, .demonyms, .acronyms, .capitalized
    "OCCUPATION": _DEM, "NATIONALITY": _DEM, "EDUCATION": _DEM, "DEMONYM": _DEM, "ACRONYM": _ORG,
    "ORG_ACRONYM": _ORG, "PROPER_NOUN": _OTH,
    # names (gazetteers, initials, titles, feminine surnames, speaker slots), places and address parts,
    # institutions, personal and company numbers, ages and durations
    "FIRST_NAME": _PER, "SURNAME": _PER, "PERSON_NAME": _PER, "TITLED_NAME": _PER, "SPEAKER": _PER,
    "CITY": _LOC, "REGION": _LOC, "PLACE": _LOC, "COUNTY": _LOC, "PROVINCE": _LOC, "STREET": _LOC,
    "ADDRESS": _LOC, "POSTAL_CODE": _LOC, "AUTHORITY": _ORG, "PRISON": _ORG, "DURATION": _DAT, "AGE": _DAT,
    "USERNAME": _CON,
    "CASE_NUMBER": _ID, "SECRET": _ID, "CARD": _ID, "CZ_BIRTH_NUMBER": _ID, "CZ_ICO": _ID, "CZ_DIC": _ID,
    "SK_DIC": _ID, "PL_PESEL": _ID, "PL_NIP": _ID, "PL_REGON": _ID, "SE_PERSONNUMMER": _ID, "SI_EMSO": _ID,
    # topics of psan.tool.detection.recognizers.sensitive (special categories, GDPR art. 9)
    "HEALTH": _SEN, "RELIGION": _SEN, "POLITICS": _SEN, "SEXUAL_ORIENTATION": _SEN, "ETHNICITY": _SEN,
    "FAMILY": _SEN, "GENDER": _SEN,
}
OTHER_SETS.update(RECOGNIZER_TYPES)

_BIO_PREFIXES = ("B-", "I-", "E-", "S-", "L-", "U-")

#: the prefix of the pre-trained classifier's entity types, ``CLS_<CATEGORY>_<SHAPE>``
#: (:mod:`psan.tool.detection.classifier.span_types`): learned like an NER model's types, in a tag set of their own
CLASSIFIER_TYPE_PREFIX = "CLS_"


def classifier_type_category(code: str) -> Category | None:
    """The category of a pre-trained classifier's type (``CLS_PERSON_CAP`` → PERSON); ``None``: not one."""
    if not code.startswith(CLASSIFIER_TYPE_PREFIX):
        return None
    name = code[len(CLASSIFIER_TYPE_PREFIX):].rpartition("_")[0]
    try:
        return Category(name)
    except ValueError:
        return None


def tag_set(code: str) -> str:
    """Which tag set a type belongs to: ``"CNEC"``, ``"psan"`` (:data:`RECOGNIZER_TYPES`), ``"classifier"`` (the
    pre-trained classifier's, :data:`CLASSIFIER_TYPE_PREFIX`) or ``"NER"`` (the rest).

    Why: types are learned together only within one tag set (:func:`psan.tool.decisions.suggest.learning_pool`).
    spaCy's
    PERSON (judges and counsel too: 4 in 5 private in court decisions) is not the sibling of psan's "Mr X".
    """
    if code in CNEC:
        return "CNEC"
    if classifier_type_category(code) is not None:
        return "classifier"
    return "psan" if code.upper() in RECOGNIZER_TYPES else "NER"


def category_of(code: str) -> Category:
    """Coarse category of a native NE code (CNEC, CoNLL, OntoNotes, corpus labels); OTHER if unknown."""
    if not code:
        return _OTH
    if code in CNEC:
        return CNEC[code]
    if (classified := classifier_type_category(code)) is not None:
        return classified
    if code[:2] in _BIO_PREFIXES and len(code) > 2:
        return category_of(code[2:])
    upper = code.upper()
    if upper in OTHER_SETS:
        return OTHER_SETS[upper]
    if len(code) == 2 and code[0] in CNEC_PREFIX and (code[1].islower() or code[1] == "_"):
        return CNEC_PREFIX[code[0]]
    return _OTH
