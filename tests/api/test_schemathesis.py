"""Schemathesis against the real app: generated requests to every operation, with an admin token and with an
annotate-scoped token, never get a 500 nor an answer that breaks the OpenAPI document."""
from __future__ import annotations

from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from tests.api.tokens import make_token
from tests.documents import add_document
from tests.helpers import account_id, make_account, new_project, sql


@pytest.fixture()
def api_world(clean_app):
    """An admin and an annotator with a token each, a project with a pre-annotated document."""
    make_account(clean_app, "admin@example.org", "ADMIN")
    make_account(clean_app, "annotator@example.org", "USER")
    project = new_project(clean_app, "Fuzzed")
    sql(clean_app, "INSERT INTO project_member (project_id, account_id) VALUES (%s, %s)",
        (project, account_id(clean_app, "annotator@example.org")))
    add_document(clean_app, "John Smith met Mary Brown in London.", [("John Smith", "PERSON")], project_id=project)
    return {"admin": make_token(clean_app, "admin@example.org", "admin"),
            "annotate": make_token(clean_app, "annotator@example.org", "annotate")}


CHECKS = [not_a_server_error, response_schema_conformance]


def _fuzz(app, token: str, examples: int = 10) -> Counter[int]:
    """Generated requests to every operation (Hypothesis through Schemathesis' strategies); the statuses answered.

    Not Schemathesis' pytest plugin: its lazy fixture loader does not run under pytest 9.
    """
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app, headers={"Authorization": f"Bearer {token}"})
    statuses: Counter[int] = Counter()
    for result in schema.get_all_operations():
        operation = result.ok()

        @given(case=operation.as_strategy())
        @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), database=None,
                  derandomize=True)
        def run(case) -> None:
            response = case.call_and_validate(headers={"Authorization": f"Bearer {token}"}, checks=CHECKS)
            statuses[response.status_code] += 1

        run()
    return statuses


@pytest.mark.parametrize("who", ["admin", "annotate"])
def test_generated_requests_get_no_500_and_answers_that_fit_the_document(clean_app, api_world, who):
    statuses = _fuzz(clean_app, api_world[who])
    assert sum(statuses.values()) >= 100 and 500 not in statuses, statuses
    assert statuses[200] > 0 and statuses[403] > 0, statuses  # allowed calls answered, others refused
