"""SQL for accounts.  The rules about accounts (last admin, e-mail normalization, password hashing)
live in :mod:`psan.identity.accounts`; these functions only read and write rows."""
from __future__ import annotations

from typing import Any

from psan.runtime import db
from psan.runtime.sql import prepared, warm_on_open

_SELECT = "SELECT id, email, name, role, window_size, active, password_hash, session_version FROM account"
_INSERT = ("INSERT INTO account (email, name, role, password_hash, window_size) "
           "VALUES (%s, %s, %s, %s, %s) RETURNING id, email, name, role, window_size, active, password_hash, "
           "session_version")


#: every request of a logged-in account reads it (prepared when a connection opens)
_GET = warm_on_open(prepared(_SELECT + " WHERE id = %s"), (0,))


def get(conn, account_id: int) -> dict[str, Any] | None:
    return db.query_one(_GET, (account_id,), conn)


def get_by_email(conn, email: str) -> dict[str, Any] | None:
    """``email`` must be normalized (lower case, stripped) as stored."""
    return db.query_one(_SELECT + " WHERE email = %s", (email,), conn)


def list_all(conn) -> list[dict[str, Any]]:
    return db.query(_SELECT + " ORDER BY lower(name), email", None, conn)


def count(conn) -> int:
    return db.query_one("SELECT count(*) AS n FROM account", None, conn)["n"]


def insert(conn, email: str, name: str, role: str, password_hash: str | None, window_size: int) -> dict[str, Any]:
    """The new account's row; raises ``psycopg2.errors.UniqueViolation`` when the e-mail is taken."""
    return db.query_one(_INSERT, (email, name, role, password_hash, window_size), conn)


def set_password_hash(conn, account_id: int, password_hash: str) -> None:
    db.execute("UPDATE account SET password_hash = %s WHERE id = %s", (password_hash, account_id), conn)


def lock_active_admins(conn) -> list[int]:
    """Lock the active admins' rows so two concurrent demotions cannot both pass the last-admin check."""
    rows = db.query("SELECT id FROM account WHERE role = 'ADMIN' AND active ORDER BY id FOR UPDATE", None, conn)
    return [r["id"] for r in rows]


def update(conn, account_id: int, *, name: str, role: str, window_size: int, active: bool) -> None:
    """Save the admin-editable fields; deactivation ends every session for good (reactivation does not revive them)."""
    db.execute("UPDATE account SET name = %s, role = %s, window_size = %s, active = %s, "
               "session_version = session_version + CASE WHEN active AND NOT %s THEN 1 ELSE 0 END WHERE id = %s",
               (name, role, window_size, active, active, account_id), conn)


def delete(conn, account_id: int) -> None:
    db.execute("DELETE FROM account WHERE id = %s", (account_id,), conn)


def bump_session_version(conn, account_id: int) -> None:
    """Invalidate every session and remember cookie of the account."""
    db.execute("UPDATE account SET session_version = session_version + 1 WHERE id = %s", (account_id,), conn)


def record_login(conn, account_id: int) -> None:
    db.execute("UPDATE account SET last_login_at = now() WHERE id = %s", (account_id,), conn)


def annotators(conn) -> list[dict[str, Any]]:
    """Accounts with the annotator role (id, email, name), by e-mail."""
    return db.query("SELECT id, email, name FROM account WHERE role = 'USER' ORDER BY email", None, conn)


def ids_by_email(conn, emails: list[str]) -> dict[str, int]:
    """E-mail → id of the accounts among ``emails`` (normalized); unknown addresses are missing."""
    if not emails:
        return {}
    return {r["email"]: r["id"] for r in db.query("SELECT id, email FROM account WHERE email = ANY(%s)",
                                                  (emails,), conn)}


# --- accounts of an identity provider (OpenID Connect) ------------------------------------------------------
def identity(conn, issuer: str, subject: str) -> dict[str, Any] | None:
    """The link of a provider's person (issuer, subject) to an account: account_id and the claim's last role."""
    return db.query_one("SELECT account_id, claim_role FROM account_identity WHERE issuer = %s AND subject = %s",
                        (issuer, subject), conn)


def link_identity(conn, issuer: str, subject: str, account_id: int, claim_role: str | None) -> None:
    db.execute("INSERT INTO account_identity (issuer, subject, account_id, claim_role, last_login_at) "
               "VALUES (%s, %s, %s, %s, now())", (issuer, subject, account_id, claim_role), conn)


def record_identity_login(conn, issuer: str, subject: str, claim_role: str | None) -> None:
    db.execute("UPDATE account_identity SET last_login_at = now(), claim_role = %s WHERE issuer = %s AND subject = %s",
               (claim_role, issuer, subject), conn)


def set_role(conn, account_id: int, role: str) -> None:
    db.execute("UPDATE account SET role = %s WHERE id = %s", (role, account_id), conn)


def with_identity(conn) -> set[int]:
    """Ids of the accounts that sign in through an identity provider."""
    return {r["account_id"] for r in db.query("SELECT DISTINCT account_id FROM account_identity", None, conn)}


def has_identity(conn, account_id: int) -> bool:
    """Whether the account signs in through an identity provider (then it has no password of psan's)."""
    return db.query_one("SELECT EXISTS (SELECT 1 FROM account_identity WHERE account_id = %s) AS linked",
                        (account_id,), conn)["linked"]
