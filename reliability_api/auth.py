"""Tokens: one per subject for responses, one for stewards. Only SHA-256
hashes are stored (append-only ledger), so a leaked warehouse leaks no token.

A subject's token expires (``SUBJECT_TOKEN_DAYS`` after issue unless issued with
another lifetime) and any token can be revoked: a revocation is one more ledger
record (``REVOCATIONS_TABLE``), so the ledger stays append-only and the record of
who could write when is kept."""

import hmac
import secrets
from datetime import datetime, timedelta

from reliability_core.ids import sha256_hex
from reliability_core.models import Record
from reliability_core.warehouse import Ledger

TOKENS_TABLE = "api_tokens"
REVOCATIONS_TABLE = "api_token_revocations"
STEWARD_SCOPE = "_steward"
# How long a subject's response token works unless issued otherwise: long enough for a
# subject to read its report and answer, short enough that a leaked token soon dies. A
# token stored before tokens had an expiry ages from its issue date by the same rule.
SUBJECT_TOKEN_DAYS = 30


class TokenRecord(Record):
    scope: str  # a subject id, or "_steward"
    token_sha256: str
    issued_at: datetime
    note: str = ""
    # None: a steward token issued without a lifetime, or a token stored before expiry existed
    expires_at: datetime | None = None


class TokenRevocation(Record):
    scope: str
    token_id: str
    revoked_at: datetime
    note: str = ""


def hash_token(token: str) -> str:
    return sha256_hex(token)


def token_id(digest: str) -> str:
    """The id a token is stored and revoked under (a prefix of its hash: safe to show)."""
    return f"tok_{digest[:24]}"


def default_lifetime(scope: str) -> timedelta | None:
    """A subject's token lives ``SUBJECT_TOKEN_DAYS``; a steward token until revoked."""
    return None if scope == STEWARD_SCOPE else timedelta(days=SUBJECT_TOKEN_DAYS)


def issue_token(
    ledger: Ledger,
    scope: str,
    issued_at: datetime,
    note: str = "",
    lifetime: timedelta | None = None,
) -> str:
    """Make a new token for ``scope`` and store its hash; the token itself is returned once.
    It expires after ``lifetime`` (default: ``default_lifetime(scope)``)."""
    token = secrets.token_urlsafe(32)
    digest = hash_token(token)
    lives = lifetime if lifetime is not None else default_lifetime(scope)
    record = TokenRecord(
        scope=scope,
        token_sha256=digest,
        issued_at=issued_at,
        note=note,
        expires_at=issued_at + lives if lives is not None else None,
    )
    ledger.append(TOKENS_TABLE, scope, [(token_id(digest), record)])
    return token


def token_expires_at(record: TokenRecord) -> datetime | None:
    """When the token stops working: its stored expiry, or for a subject token stored
    before tokens had one, ``SUBJECT_TOKEN_DAYS`` after its issue."""
    if record.expires_at is not None:
        return record.expires_at
    lives = default_lifetime(record.scope)
    return record.issued_at + lives if lives is not None else None


def stored_tokens(ledger: Ledger, scope: str) -> list[TokenRecord]:
    return ledger.read_all(TOKENS_TABLE, scope, TokenRecord)


def revoked_ids(ledger: Ledger, scope: str) -> set[str]:
    return {r.token_id for r in ledger.read_all(REVOCATIONS_TABLE, scope, TokenRevocation)}


def token_is_valid(ledger: Ledger, scope: str, token: str, now: datetime) -> bool:
    """A stored hash for ``scope`` matches (constant-time comparison against every one),
    and that token has neither expired by ``now`` nor been revoked."""
    digest = hash_token(token)
    match: TokenRecord | None = None
    for record in stored_tokens(ledger, scope):
        if hmac.compare_digest(record.token_sha256, digest):
            match = record
    if match is None:
        return False
    expires = token_expires_at(match)
    if expires is not None and now >= expires:
        return False
    return token_id(digest) not in revoked_ids(ledger, scope)


def revoke_tokens(
    ledger: Ledger, scope: str, revoked_at: datetime, *, ids: set[str] | None = None, note: str = ""
) -> list[str]:
    """Revoke the tokens of ``scope`` with the given ids (every one when ``ids`` is None);
    the ids newly revoked. An unknown id raises ``KeyError``; one already revoked is skipped."""
    known = {token_id(r.token_sha256) for r in stored_tokens(ledger, scope)}
    unknown = (ids or set()) - known
    if unknown:
        raise KeyError(f"no token {', '.join(sorted(unknown))} for {scope!r}")
    wanted = sorted((known if ids is None else ids) - revoked_ids(ledger, scope))
    ledger.append(
        REVOCATIONS_TABLE,
        scope,
        [(i, TokenRevocation(scope=scope, token_id=i, revoked_at=revoked_at, note=note)) for i in wanted],
    )
    return wanted


def bearer_token(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()
