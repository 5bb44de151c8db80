"""Tokens: one per subject for responses, one for stewards. Only SHA-256
hashes are stored (append-only ledger), so a leaked warehouse leaks no token."""

import hmac
import secrets
from datetime import datetime

from reliability_core.ids import sha256_hex
from reliability_core.models import Record
from reliability_core.warehouse import Ledger

TOKENS_TABLE = "api_tokens"
STEWARD_SCOPE = "_steward"


class TokenRecord(Record):
    scope: str  # a subject id, or "_steward"
    token_sha256: str
    issued_at: datetime
    note: str = ""


def hash_token(token: str) -> str:
    return sha256_hex(token)


def issue_token(ledger: Ledger, scope: str, issued_at: datetime, note: str = "") -> str:
    """Make a new token for ``scope`` and store its hash; the token itself is returned once."""
    token = secrets.token_urlsafe(32)
    digest = hash_token(token)
    record = TokenRecord(scope=scope, token_sha256=digest, issued_at=issued_at, note=note)
    ledger.append(TOKENS_TABLE, scope, [(f"tok_{digest[:24]}", record)])
    return token


def token_is_valid(ledger: Ledger, scope: str, token: str) -> bool:
    """Constant-time comparison against every stored hash for ``scope``."""
    digest = hash_token(token)
    valid = False
    for record in ledger.read_all(TOKENS_TABLE, scope, TokenRecord):
        valid |= hmac.compare_digest(record.token_sha256, digest)
    return valid


def bearer_token(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()
