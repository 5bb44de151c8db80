"""``python -m reliability_api.cli issue-token <subject-id|--steward>``: issue an
API token. The token is printed once; only its SHA-256 is stored."""

import argparse
import re

from reliability_api.auth import STEWARD_SCOPE, issue_token
from reliability_api.schemas import SUBJECT_ID_PATTERN
from reliability_core.clock import SystemClock
from reliability_core.settings import settings
from reliability_core.warehouse import Ledger, Warehouse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="reliability-api")
    sub = parser.add_subparsers(dest="command", required=True)
    issue = sub.add_parser("issue-token", help="issue a token for a subject's responses, or for stewards")
    group = issue.add_mutually_exclusive_group(required=True)
    group.add_argument("subject_id", nargs="?")
    group.add_argument("--steward", action="store_true")
    issue.add_argument("--note", default="")
    args = parser.parse_args(argv)
    warehouse = Warehouse(settings().warehouse)
    if not args.steward and not re.match(SUBJECT_ID_PATTERN, args.subject_id):
        parser.error(f"{args.subject_id!r} is not a subject id (lowercase slug, as in data/subjects.yaml)")
    scope = STEWARD_SCOPE if args.steward else args.subject_id
    token = issue_token(Ledger(warehouse), scope, SystemClock().now(), note=args.note)
    print(token)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
