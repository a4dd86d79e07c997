"""One person written several ways, in English and Czech, and how the
pseudonymized output of each mention must look: built from the project's stored identity
(``pseudonym_key``) and, for Czech, the grammatical case of each mention (a table, checked against
the original with :mod:`psan.tool.morph.declension.inflect_cs` and rendered with its paradigm).

Also several people partly named again in one document, for the entity grouping tests."""
from __future__ import annotations

import re
from typing import Any

from psan.tool.morph.context import preposition_cases, vocalize
from psan.tool.morph.declension import inflect_cs
from tests.documents import add_document, group_entities
from tests.helpers import sql

EN = ("Jonathan Harper joined the accounting department of a mid-sized logistics company in March. "
      "Colleagues describe Harper as careful, patient and quiet. After the annual audit the board "
      "thanked Mr. Harper for his thorough report on the unpaid invoices.\n")
CS = ("Jan Novák pracuje jako účetní v malé stavební firmě na okraji města. Bez Jana Nováka by firma "
      "loňský audit nezvládla. Se Janem Novákem jsme dlouho probírali rozpočet na příští rok. "
      "Nakonec jsme panu Novákovi poslali poděkování za odvedenou práci.\n")
#: every mention of the person: (text, occurrence of the text, grammatical case; None in English)
EN_MENTIONS = (("Jonathan Harper", 0, None), ("Harper", 1, None), ("Harper", 2, None))
CS_MENTIONS = (("Jan Novák", 0, "nominative"), ("Jana Nováka", 0, "genitive"),
               ("Janem Novákem", 0, "instrumental"), ("Novákovi", 0, "dative"))
CASE_NUMBER = {"nominative": "1", "genitive": "2", "dative": "3", "instrumental": "7"}
_UD_CASE = {"nominative": "Nom", "genitive": "Gen", "dative": "Dat", "instrumental": "Ins"}


def mention_spans(text: str, table) -> dict[tuple[int, int], str | None]:
    """Character span → case of each mention of the table."""
    out = {}
    for phrase, occurrence, case in table:
        start = [m.start() for m in re.finditer(rf"\b{re.escape(phrase)}\b", text)][occurrence]
        out[(start, start + len(phrase))] = case
    return out


def token_span(app, document: int, start: int, end: int) -> tuple[int, int]:
    rows = sql(app, "SELECT idx FROM token WHERE document_id = %s AND start_char >= %s AND end_char <= %s "
                    "ORDER BY idx", (document, start, end))
    return rows[0]["idx"], rows[-1]["idx"] + 1


def stored_person(app, project_id: int, first_name: str, surname: str) -> dict[str, Any]:
    """The one stored identity that maps the original first name and surname."""
    rows = [r["identity"] for r in sql(app, "SELECT identity FROM pseudonym_key WHERE project_id = %s",
                                       (project_id,))
            if f"last:{surname.casefold()}" in (r["identity"].get("names") or {})]
    assert len(rows) == 1, rows
    assert f"first:{first_name.casefold()}" in rows[0]["names"], rows[0]
    return rows[0]


def _replace(text: str, replacements: dict[tuple[int, int], str]) -> str:
    out, pos = [], 0
    for (start, end), value in sorted(replacements.items()):
        out += [text[pos:start], value]
        pos = end
    return "".join(out + [text[pos:]])


def expected_english(app, project_id: int) -> str:
    """EN with every mention rendered from Jonathan Harper's identity (the title stays)."""
    ident = stored_person(app, project_id, "Jonathan", "Harper")
    given, surname = ident["names"]["first:jonathan"], ident["names"]["last:harper"]
    return _replace(EN, {span: f"{given} {surname}" if EN[span[0]:span[1]] == "Jonathan Harper" else surname
                         for span in mention_spans(EN, EN_MENTIONS)})


def expected_czech(app, project_id: int) -> tuple[str, list[str]]:
    """CS with every mention rendered from Jan Novák's (male) identity in the mention's case; and the forms."""
    ident = stored_person(app, project_id, "Jan", "Novák")
    given, surname = ident["names"]["first:jan"], ident["names"]["last:novák"]
    assert ident["gender"] == "m" and not surname.endswith("ová"), ident
    replacements = {}
    for (start, end), case in mention_spans(CS, CS_MENTIONS).items():
        words = CS[start:end].split()
        lemmas, surrogates = ["Jan", "Novák"][-len(words):], [given, surname][-len(words):]
        forms = []
        for word, lemma, sur in zip(words, lemmas, surrogates, strict=True):
            slot = inflect_cs.slot_of(word, lemma, "m")
            assert slot is not None and slot[0] == CASE_NUMBER[case], (word, case, slot)  # the table is right
            forms.append(inflect_cs.decline(sur, "m")[slot])
        replacements[(start, end)] = " ".join(forms)
    forms_of = [replacements[s] for s in sorted(replacements)]
    for (start, end), value in list(replacements.items()):  # "Se Janem" → "S Renéem": the preposition follows
        before = re.search(r"(?<!\w)(\w{1,2}) $", CS[:start])
        if before is not None:
            case = _UD_CASE[mention_spans(CS, CS_MENTIONS)[(start, end)]]
            word = before.group(1)
            new = vocalize(word, value, "cs")
            if new != word and case in preposition_cases(word, "cs"):
                del replacements[(start, end)]
                replacements[(before.start(1), end)] = f"{new} {value}"
    return _replace(CS, replacements), forms_of


#: several people, partly named again ("Harper", "Mr. Harper", "Berg"), and an organisation
GROUPING_TEXT = ("Jonathan Harper sued the company. Later Harper said that Mr. Harper had not signed. "
                 "Anna Berg of Acme Corporation agreed with Berg on it.")
GROUPING_ENTITIES = [("Jonathan Harper", "PERSON"), ("Mr. Harper", "PERSON"), ("Harper", "PERSON"),
                     ("Anna Berg", "PERSON"), ("Berg", "PERSON"), ("Acme Corporation", "ORG")]


def add_grouped_document(app) -> int:
    """GROUPING_TEXT pre-annotated and grouped into entities, in a project without entities or identities.

    Why the deletes: entities and identities belong to the project, which survives the per-test reset.
    """
    sql(app, "DELETE FROM entity")
    sql(app, "DELETE FROM pseudonym_key")
    doc = add_document(app, GROUPING_TEXT, GROUPING_ENTITIES)
    assert group_entities(app, doc) > 0
    return doc


#: two documents naming the same people (pseudonym key and CSV export tests); the names' words
SMITH_TEXT_A = "John Smith met Mary Brown in town.\r\nŽluťoučký kůň: call John Smith today, Peter Novak.\n"
SMITH_TEXT_B = "Yesterday John Smith wrote to Peter Novak and Mary Brown.  Tabs\there.\n"
SMITH_WORDS = ("John", "Smith", "Mary", "Brown", "Peter", "Novak")
