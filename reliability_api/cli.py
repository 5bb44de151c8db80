"""``reliability-api-admin``: issue, list and revoke API tokens.

- ``issue-token <subject-id|--steward> [--days N] [--note ...]``: the token is printed once
  on stdout (only its SHA-256 is stored); its id and expiry go to stderr. A subject's token
  expires after ``--days`` (default ``SUBJECT_TOKEN_DAYS``); a steward's only with ``--days``.
- ``list-tokens <subject-id|--steward>``: id, issue date, expiry and state of each token.
- ``revoke-token <subject-id|--steward> (--id tok_... [--id ...] | --all)``: revoked tokens
  are refused from the next request on."""

import argparse
import re
import sys
from datetime import timedelta

from reliability_api.auth import (
    STEWARD_SCOPE,
    hash_token,
    issue_token,
    revoke_tokens,
    revoked_ids,
    stored_tokens,
    token_expires_at,
    token_id,
)
from reliability_api.schemas import SUBJECT_ID_PATTERN
from reliability_core.clock import SystemClock
from reliability_core.settings import settings
from reliability_core.warehouse import Ledger, Warehouse


def _scope_arguments(command: argparse.ArgumentParser) -> None:
    group = command.add_mutually_exclusive_group(required=True)
    group.add_argument("subject_id", nargs="?")
    group.add_argument("--steward", action="store_true")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="reliability-api-admin")
    sub = parser.add_subparsers(dest="command", required=True)
    issue = sub.add_parser("issue-token", help="issue a token for a subject's responses, or for stewards")
    _scope_arguments(issue)
    issue.add_argument("--note", default="")
    issue.add_argument("--days", type=int, help="lifetime in days (a subject's default: 30; a steward's: none)")
    listing = sub.add_parser("list-tokens", help="list a subject's (or the stewards') tokens")
    _scope_arguments(listing)
    revoke = sub.add_parser("revoke-token", help="revoke tokens: refused from the next request on")
    _scope_arguments(revoke)
    which = revoke.add_mutually_exclusive_group(required=True)
    which.add_argument("--id", action="append", dest="ids", help="a token id (tok_...), as list-tokens shows")
    which.add_argument("--all", action="store_true", help="every token of this subject (or of the stewards)")
    revoke.add_argument("--note", default="")
    args = parser.parse_args(argv)
    if not args.steward and not re.fullmatch(SUBJECT_ID_PATTERN, args.subject_id):
        parser.error(f"{args.subject_id!r} is not a subject id (lowercase slug, as in data/subjects.yaml)")
    if args.command == "issue-token" and args.days is not None and args.days < 1:
        parser.error("--days must be 1 or more")
    scope = STEWARD_SCOPE if args.steward else args.subject_id
    ledger = Ledger(Warehouse(settings().warehouse))
    now = SystemClock().now()
    if args.command == "issue-token":
        lifetime = timedelta(days=args.days) if args.days is not None else None
        token = issue_token(ledger, scope, now, note=args.note, lifetime=lifetime)
        ident = token_id(hash_token(token))
        record = next(r for r in stored_tokens(ledger, scope) if token_id(r.token_sha256) == ident)
        print(token)
        print(f"{ident} expires {token_expires_at(record) or 'never'}", file=sys.stderr)
        return 0
    if args.command == "list-tokens":
        revoked = revoked_ids(ledger, scope)
        for record in stored_tokens(ledger, scope):
            ident = token_id(record.token_sha256)
            expires = token_expires_at(record)
            state = "revoked" if ident in revoked else "expired" if expires and now >= expires else "valid"
            until = expires.isoformat() if expires else "never"
            print(f"{ident}\tissued {record.issued_at.isoformat()}\texpires {until}\t{state}\t{record.note}")
        return 0
    try:
        done = revoke_tokens(ledger, scope, now, ids=None if args.all else set(args.ids), note=args.note)
    except KeyError as exc:
        print(f"reliability-api-admin: {exc.args[0]}", file=sys.stderr)
        return 2
    print(f"revoked {len(done)} token(s) of {scope}: {', '.join(done) or 'none left to revoke'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
