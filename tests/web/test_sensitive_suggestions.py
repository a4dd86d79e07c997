"""Never public by suggestion: addresses, dates of birth, districts, admin-marked types.

Through the real annotation API on PostgreSQL: the window's suggestions, accepting the window (``a``)
and learned entity types never make these spans public; a person's explicit decision still can.
"""
from __future__ import annotations

from tests.documents import add_document, annotation, plain_sentences, token_index
from tests.helpers import default_project, sql
from tests.web.helpers import annotator_client, api_decide, api_post, api_window

TEXT = ("Pan Novák bydlí v ulici Dlouhá 12 v obvodu Praha 1 a narodil se 1. 1. 1978. "
        "Praha je hlavní město. Brno je také město. Olomouc leží na Moravě. Plzeň má pivovar. ")


def _suggestions(data) -> dict[tuple[int, int], str | None]:
    return {(a["first_token"], a["end_token"]): a.get("suggestion") for a in data["annotations"]
            if a["decision"] == "SUSPICIOUS"}


def test_address_birth_date_and_district_are_never_suggested_public(clean_app):
    app = clean_app
    doc = add_document(app, TEXT + plain_sentences(0, 2), [
        ("Dlouhá 12", "gu"), ("Praha 1", "gu"), ("1. 1. 1978", "td"), ("Praha", "gu"), ("Brno", "gu"),
        ("Olomouc", "gu"), ("Plzeň", "gu"), ("Moravě", "gu")], language="cs")
    annotator = annotator_client(app, "annotator@example.org", window_size=300)
    status, data = api_window(annotator)
    assert status == 200, data
    street, district = token_index(app, doc, "Dlouhá"), token_index(app, doc, "Praha")
    born = token_index(app, doc, "1978") - 4
    plain = token_index(app, doc, "Praha", 1)
    # the project decided places public three times: the type's evidence says PUBLIC
    for word in ("Brno", "Olomouc", "Plzeň"):
        i = token_index(app, doc, word)
        assert api_decide(annotator, doc, i, i + 1, "PUBLIC")[0] == 200
    data = api_window(annotator)[1]
    got = _suggestions(data)
    assert got[(plain, plain + 1)] == "PUBLIC"  # an ordinary place still is suggested public
    for span in ((street, street + 2), (district, district + 2), (born, born + 5)):
        assert got[span] is None, (span, got)  # no suggestion: a person decides
    status, data = api_post(annotator, "accept", {"document_id": doc})
    assert status == 200, data
    for span in ((street, street + 2), (district, district + 2), (born, born + 5)):
        assert annotation(app, doc, *span)["token_decision"] is None, span  # a left them for the person
    assert annotation(app, doc, plain, plain + 1)["token_decision"] == "PUBLIC"
    # only an explicit decision makes one public
    assert api_decide(annotator, doc, district, district + 2, "PUBLIC")[0] == 200
    assert annotation(app, doc, district, district + 2)["token_decision"] == "PUBLIC"


def test_admin_marked_category_and_learned_types(clean_app):
    app = clean_app
    project = default_project(app)
    sql(app, "UPDATE project SET sensitive_types = '{ORGANIZATION}' WHERE id = %s", (project,))
    names = [f"Firma{i}" for i in range(21)]
    dates = [f"Datum{i}" for i in range(21)]
    text = " ".join(f"{n} came on {d}." for n, d in zip(names, dates, strict=True))
    doc = add_document(app, text, [(n, "if") for n in names] + [(d, "td") for d in dates])
    annotator = annotator_client(app, "annotator@example.org", window_size=1000)
    assert api_window(annotator)[0] == 200
    for word in names[:20] + dates[:20]:
        i = token_index(app, doc, word)
        assert api_decide(annotator, doc, i, i + 1, "PUBLIC")[0] == 200
    # twenty public decisions and none private: a plain type would now decide alone; these never do
    levels = {r["condition"]: r["confidence"] for r in sql(app, "SELECT condition, confidence FROM rule "
                                                                "WHERE type = 'NE_TYPE'")}
    assert levels == {"if": 0.0, "td": 0.0}
    data = api_window(annotator)[1]
    last_name, last_date = token_index(app, doc, names[20]), token_index(app, doc, dates[20])
    got = _suggestions(data)
    assert got[(last_name, last_name + 1)] is None  # the admin's category: never suggested public
    # a date that cannot be a birth date may be suggested public (a person sees it); the type is never learned
    assert got[(last_date, last_date + 1)] == "PUBLIC"


def test_the_admins_list_is_cleaned():
    from psan.store.admin.projects import parse_sensitive_types
    assert parse_sensitive_types(" organization; gu, ,GU, person,gu ") == ["ORGANIZATION", "gu", "GU", "PERSON"]
    assert parse_sensitive_types(None) == [] and len(parse_sensitive_types(",".join(map(str, range(500))))) == 100


def test_no_piece_of_an_address_is_suggested_public(clean_app):
    """The pieces NER finds inside an address (a number, a street and town, a postcode) get no public suggestion
    even where the project decided such types public: publishing them would publish the address."""
    app = clean_app
    text = "She moved to 22 Baker Street, London OQ6 8PA last year. Paris and Rome and Oslo are far. "
    doc = add_document(app, text + plain_sentences(0, 2), [
        ("22 Baker Street, London OQ6 8PA", "ADDRESS"), ("22", "CARDINAL"), ("Baker Street, London", "GPE"),
        ("Paris", "GPE"), ("Rome", "GPE"), ("Oslo", "GPE")])
    annotator = annotator_client(app, "annotator@example.org", window_size=300)
    assert api_window(annotator)[0] == 200
    for word in ("Paris", "Rome", "Oslo"):
        i = token_index(app, doc, word)
        assert api_decide(annotator, doc, i, i + 1, "PUBLIC")[0] == 200
    got = _suggestions(api_window(annotator)[1])
    tokens = sql(app, "SELECT idx, start_char FROM token WHERE document_id = %s ORDER BY idx", (doc,))
    last = max(t["idx"] for t in tokens if t["start_char"] < text.index(" last year"))
    number, street, town = (token_index(app, doc, w) for w in ("22", "Baker", "London"))
    address = (number, last + 1)
    assert address in got and got[address] is None
    for span in ((number, number + 1), (street, town + 1)):
        assert span in got and got[span] is None, (span, got)  # a place elsewhere, an address piece here
    assert api_post(annotator, "accept", {"document_id": doc})[0] == 409  # nothing here has a suggestion to accept
    for span in (address, (number, number + 1), (street, town + 1)):
        assert annotation(app, doc, *span)["token_decision"] is None, span
