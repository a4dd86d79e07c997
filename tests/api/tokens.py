"""Making API tokens for tests (through psan.identity.api_tokens, as the token page does)."""
from __future__ import annotations

from collections.abc import Iterable

from psan.runtime import db
from psan.store.admin import accounts as store_accounts
from tests.helpers import account_id


def make_token(app, email: str, scope: str, projects: Iterable[int] | None = None) -> str:
    """A token of the account ``email`` (every project when ``projects`` is None); its secret."""
    from psan.identity import api_tokens
    with app.app_context(), db.transaction() as conn:
        account = store_accounts.get(conn, account_id(app, email))
        _, secret = api_tokens.create(account, f"{scope} token", api_tokens.Scope(scope), projects is None,
                                      list(projects or ()), None, conn=conn)
    return secret


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}
