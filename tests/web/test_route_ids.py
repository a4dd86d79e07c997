"""Ids beyond the id columns' range are a 404 on every route (never a 500 from PostgreSQL).
"""
from __future__ import annotations


# --- ids beyond the id columns' range are a 404 on every route ----------------------------------------------
def _id_routes(app):
    from werkzeug.routing import IntegerConverter
    for rule in app.url_map.iter_rules():
        ints = [name for name, conv in rule._converters.items() if isinstance(conv, IntegerConverter)]  # noqa: SLF001
        if ints:
            yield rule, ints


def test_ids_outside_the_column_range_are_404_on_every_route(admin_client, clean_app):
    from tests.helpers import csrf_token
    token = csrf_token(admin_client, "/auth/password")
    checked = 0
    for rule, ints in _id_routes(clean_app):
        for huge in (2**63, 10**20, 9223372036854775808 * 10):
            for name in ints:
                args = {n: (huge if n == name else 1) if n in ints else "x" for n in rule.arguments}
                path = rule.build(args, append_unknown=False)[1]
                for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                    response = admin_client.open(path, method=method, data={"csrf_token": token})
                    assert response.status_code == 404, (rule.rule, method, path, response.status_code)
                    checked += 1
        # the largest id of the column is a valid number: whatever the answer, never a 500
        args = {n: 2**63 - 1 if n in ints else "x" for n in rule.arguments}
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            response = admin_client.open(rule.build(args, append_unknown=False)[1], method=method,
                                         data={"csrf_token": token})
            assert response.status_code < 500, (rule.rule, method, response.status_code)
    assert checked > 40
    # requests that used to answer 500
    for path in ("/users/99999999999999999999", "/users/9223372036854775808"):
        assert admin_client.get(path).status_code == 404
        assert admin_client.post(path, data={"csrf_token": token}).status_code == 404
        assert admin_client.post(path + "/delete", data={"csrf_token": token}).status_code == 404
