"""Grouping recognized mentions into entities (psan.store.annotation.entities)."""
from __future__ import annotations

from tests.documents import entity_of, group_entities, token_index
from tests.helpers import sql


def test_grouping_links_partial_and_titled_names(clean_app, document):
    app = clean_app
    jonathan = token_index(app, document, "Jonathan")
    harpers = [token_index(app, document, "Harper", n) for n in range(3)]
    full = entity_of(app, document, jonathan, jonathan + 2)
    assert entity_of(app, document, harpers[1], harpers[1] + 1) == full          # "Harper"
    mr = token_index(app, document, "Mr")
    mr_span = sql(app, "SELECT first_token, end_token FROM entity_mention WHERE document_id = %s AND first_token = %s",
                  (document, mr))
    assert mr_span and entity_of(app, document, mr, mr_span[0]["end_token"]) == full
    anna = token_index(app, document, "Anna")
    berg = token_index(app, document, "Berg", 1)
    assert entity_of(app, document, anna, anna + 2) == entity_of(app, document, berg, berg + 1) != full
    acme = token_index(app, document, "Acme")
    assert entity_of(app, document, acme, acme + 2) not in (full,)
    # recomputing is idempotent and leaves no orphan entities
    before = sql(app, "SELECT count(*) AS n FROM entity")[0]["n"]
    group_entities(app, document)
    assert sql(app, "SELECT count(*) AS n FROM entity")[0]["n"] == before
