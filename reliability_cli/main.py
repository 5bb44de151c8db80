"""The reliability command: run the pipeline, look at it, and the users' verbs ([#10], [#27]):

    reliability gold validate data/gold/starter.jsonl
    reliability gold import-averitec --output /tmp/averitec-dev.jsonl
    reliability gold backtest data/gold/starter.jsonl [--png diagram.png] [--confusion-png matrix.png] [--json]
    reliability gold backtest --averitec
    reliability steward build [--warehouse DIR] [--json]
    reliability steward list [--warehouse DIR] [--subject S] [--all] [--json]
    reliability steward rule --subject S --claim C --action uphold \\
        --steward NAME --reason "why" [--new-verdict V]
    reliability subjects add --name "Ørsted A/S" --id orsted --kind company --url https://orsted.com/
    reliability subjects list
    reliability fetch-check URL [--offline]
    reliability warehouse migrate [--warehouse DIR]
    reliability demo [SUBJECT ...] [--log]
    reliability ui [--port N]          (default $UI_PORT or 3000)
    reliability daemon
    reliability api [--port N]         (default $API_PORT or 8000)
    reliability rehearse [SUBJECT ...] [--seed N] [--json FILE] [--batch] [--log]
    reliability sensor start|stop|list [NAME ...]
    reliability backfill SUBJECT ... [--job quick_report]

The orchestration verbs find the Dagster instance by themselves: ``DAGSTER_HOME`` when
set, else the checkout's ``.dagster_home`` (created and migrated when missing).

The warehouse defaults to ``RELIABILITY_WAREHOUSE`` (else ``<data_dir>/warehouse``); the
clock honours ``RELIABILITY_NOW`` (``reliability_core.settings``, read once). Exit status:
0 done, 1 a gold file has issues or the URL would not be fetched, 2 a ruling was refused, an input is missing
or malformed, or a command failed: then one ``error: ...`` line on stderr, and the Python traceback only with
``reliability --debug ...`` or ``RELIABILITY_DEBUG=1``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import get_args

from pydantic import ValidationError

from reliability_cli import orchestration
from reliability_core.clock import Clock, parse_clock_override
from reliability_core.models import ClaimVerdict, RegistryEntry
from reliability_core.models.subjects import SubjectKind
from reliability_core.providers.errors import ProviderError
from reliability_core.scores.rulings import read_rulings
from reliability_core.settings import SettingsError, default_data_dir, project_root, settings
from reliability_core.stand_in.web import offline_fetcher
from reliability_core.stewardship.queue_table import queue_text
from reliability_core.stewardship.rescore import rule
from reliability_core.stewardship.steward import (
    STEWARD_ACTION_HELP,
    STEWARD_ACTIONS,
    RulingRequest,
    open_items,
    read_steward_queue,
    rebuild_steward_queue,
)
from reliability_core.subjects.registry import RegistryError, add_entry, load_registry
from reliability_core.text.lexicon import LexiconError
from reliability_core.validation.averitec import import_averitec
from reliability_core.validation.backtest import (
    backtest_confusion_png,
    backtest_reliability_diagram,
    method_judge,
    run_backtest,
    store_backtest_result,
)
from reliability_core.validation.backtest_tables import backtest_text
from reliability_core.validation.gold import GoldFormatError, load_gold, save_gold, validate_gold_file
from reliability_core.version import method_version
from reliability_core.warehouse import Ledger, Warehouse, tables
from reliability_core.warehouse.ledger import LedgerConflictError
from reliability_core.web.fetch import SafeFetcher, live_fetcher
from reliability_core.wiring import build_gateway

# The table the pipeline's ``verdicts`` asset writes (and the steward reads).
VERDICTS_TABLE = tables.VERDICTS

# Errors that mean a bad input, a bad configuration or an unreachable provider, not a bug in
# the command: each is said in one line (issue 26 §7). Anything else keeps its traceback.
EXPECTED_ERRORS: tuple[type[Exception], ...] = (
    RegistryError,
    GoldFormatError,
    SettingsError,
    LexiconError,
    LedgerConflictError,
    ProviderError,
    ValidationError,
    OSError,
)


def _warehouse(path: str | None) -> Warehouse:
    from reliability_core.records import TABLE_MODELS

    return Warehouse(path or settings().warehouse, TABLE_MODELS)


def _print(data: object) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def _inside_project(path: Path) -> bool:
    resolved = path.resolve()
    # Writable places inside the project that are not part of it (ignored by git).
    if any(resolved.is_relative_to(default_data_dir() / d) for d in ("warehouse", "cache")):
        return False
    return resolved.is_relative_to(project_root())


def gold_validate(args: argparse.Namespace) -> int:
    validation = validate_gold_file(Path(args.path))
    _print(validation.model_dump(mode="json"))
    return 0 if validation.ok else 1


def gold_import_averitec(args: argparse.Namespace) -> int:
    source = Path(args.input) if args.input else settings().averitec
    if not source.exists():
        print(f"AVeriTeC dev set not found at {source}", file=sys.stderr)
        return 2
    output = Path(args.output)
    if _inside_project(output):
        # CC BY-NC 4.0: the project reads the data in place and does not copy it.
        print(
            f"refusing to write AVeriTeC data inside the project ({output}); choose a path outside it",
            file=sys.stderr,
        )
        return 2
    items = import_averitec(source)
    save_gold(items, output)
    _print({"items": len(items), "output": str(output), "source": str(source)})
    return 0


def gold_backtest(args: argparse.Namespace) -> int:
    if args.averitec:
        source = settings().averitec
        if not source.exists():
            print(f"AVeriTeC dev set not found at {source}", file=sys.stderr)
            return 2
        items, gold_set = import_averitec(source), "averitec-dev"
    elif args.path:
        items, gold_set = load_gold(Path(args.path)), Path(args.path).stem
    else:
        print("give a gold JSONL path or --averitec", file=sys.stderr)
        return 2
    gateway = build_gateway(os.environ, Path(args.cache_dir) if args.cache_dir else None, settings=settings())
    version = method_version(offline=gateway.is_offline())
    clock = parse_clock_override(settings().now)
    judge = method_judge(gateway=gateway, clock=clock, method_version=version, gold_items=items)
    result = asyncio.run(
        run_backtest(
            items, gateway=gateway, clock=clock, method_version=version, judge=judge, gold_set=gold_set
        )
    )
    store_backtest_result(Ledger(_warehouse(args.warehouse)), result)
    if args.png:
        Path(args.png).write_bytes(backtest_reliability_diagram(result))
    if args.confusion_png:
        Path(args.confusion_png).write_bytes(backtest_confusion_png(result))
    if args.json:
        _print(result.model_dump(mode="json", exclude={"judgements"}))
        return 0
    print(backtest_text(result))
    return 0


def steward_build(args: argparse.Namespace) -> int:
    warehouse = _warehouse(args.warehouse)
    queue = rebuild_steward_queue(
        warehouse,
        clock=parse_clock_override(settings().now),
        method_version=method_version(),
        verdicts_table=args.verdicts_table,
    )
    summary = queue.model_dump(mode="json", exclude={"items"})
    summary["queued"] = len(queue.items)
    if args.json:
        _print(summary)
        return 0
    print(
        f"Queued {len(queue.items)} claims: {queue.disputed} disputed, {queue.held} held, {queue.sampled} sampled "
        f"at random ({queue.sample_rate:.0%} of {queue.eligible_for_sample} verdicts of the last "
        f"{queue.window_days} days; seed {queue.seed}, recorded). `reliability steward list` shows them."
    )
    return 0


def steward_list(args: argparse.Namespace) -> int:
    warehouse = _warehouse(args.warehouse)
    ledger = Ledger(warehouse)
    items = read_steward_queue(warehouse, args.subject)
    queued = len(items)
    if not args.all:
        subjects = sorted({i.subject_id for i in items})
        rulings = [r for s in subjects for r in read_rulings(ledger, s)]
        items = open_items(items, rulings)
    if args.json:
        _print([i.model_dump(mode="json") for i in items])
        return 0
    if not warehouse.subjects(tables.STEWARD_QUEUE):
        # The pipeline builds each subject's queue after its verdicts; the weekly schedule
        # and `steward build` rebuild it over every subject.
        print("No steward queue stored yet: run a subject's pipeline (`make demo`) or `reliability steward build`.")
        return 0
    hidden = "" if args.all else f" ({queued - len(items)} already ruled on hidden; --all shows them)"
    print(f"Steward queue: {len(items)} open of {queued} queued{hidden}\n")
    print(queue_text(items))
    if items:
        print(
            "\nRule on one: reliability steward rule --subject S --claim C --action ACTION --steward NAME "
            '--reason "why" (`reliability steward rule --help` lists the actions)'
        )
    return 0


def _fetcher_factory(clock: Clock) -> Callable[[], SafeFetcher]:
    """The safe fetcher the pipeline would use: the live web with a search key, else the
    offline demo corpus."""
    if os.environ.get("PERPLEXITY_API_KEY"):
        return lambda: live_fetcher(clock)
    return lambda: offline_fetcher(settings().corpus_dir, clock)


def _registry_kinds() -> dict[str, str]:
    path = settings().registry_path
    return {e.id: e.kind for e in load_registry(path)} if path.exists() else {}


def steward_rule(args: argparse.Namespace) -> int:
    warehouse = _warehouse(args.warehouse)
    verdict = next(
        (
            v
            for v in warehouse.read(args.verdicts_table, args.subject, ClaimVerdict)
            if v.claim_id == args.claim
        ),
        None,
    )
    request = RulingRequest(
        subject_id=args.subject,
        claim_id=args.claim,
        action=args.action,
        steward=args.steward,
        reason=args.reason,
        new_verdict=args.new_verdict,
    )
    clock = parse_clock_override(settings().now)
    decision = asyncio.run(
        rule(
            warehouse,
            request,
            verdict,
            clock=clock,
            method_version=method_version(),
            kinds=_registry_kinds(),
            fetcher_factory=_fetcher_factory(clock),
        )
    )
    _print(
        {
            **decision.outcome.model_dump(mode="json"),
            "rescored_report_id": decision.rescored_report_id,
            "notes": decision.notes,
        }
    )
    return 0 if decision.outcome.accepted else 2


def subjects_add(args: argparse.Namespace) -> int:
    """Validate a new subject and append it to the registry the pipeline reads."""
    path = Path(args.registry) if args.registry else settings().registry_path
    raw: dict[str, object] = {
        "name": args.name,
        "kind": args.kind,
        "urls": args.url or [],
        "consent": args.consent,
        "description": args.description or "",
        "aliases": args.alias or [],
    }
    if args.id:
        raw["id"] = args.id
    if args.time_zone:
        raw["time_zone"] = args.time_zone
    try:
        entry = add_entry(raw, path)
    except RegistryError as exc:
        print(f"not added: {exc}", file=sys.stderr)
        return 2
    answer: dict[str, object] = {
        "added": entry.model_dump(mode="json"),
        "registry": str(path),
        "next": "the registry sensor (running in `reliability ui`) adds the partition within a minute; then "
        f"materialise it in the UI or run `reliability demo {entry.id}`",
    }
    unknown = _unknown_to_the_stand_in(entry)
    if unknown:
        answer["providers"] = unknown
        print(f"note: {unknown}", file=sys.stderr)
    _print(answer)
    return 0


def _unknown_to_the_stand_in(entry: RegistryEntry) -> str:
    """What to say when a run of ``entry`` would have its coverage decided by the
    offline stand-in, which knows only the demo corpus (empty when live providers decide
    or the corpus holds the subject)."""
    from reliability_core.stand_in.search import OfflineSearch
    from reliability_core.wiring import stand_in_subjects

    chosen = settings()
    gateway = build_gateway(os.environ, None, settings=chosen)
    live_search = bool(os.environ.get("PERPLEXITY_API_KEY")) and not chosen.offline
    known = stand_in_subjects(
        gateway, "live" if live_search else OfflineSearch.name, chosen.corpus_dir, rehearsal=False
    )
    if known is None or known.knows(entry):
        return ""
    return (
        "no live providers are configured, and the offline stand-in knows only the demo corpus: a run of "
        f"{entry.id!r} now makes no coverage decision (its report says it needs live providers). Set "
        "ANTHROPIC_API_KEY, OPENAI_API_KEY and PERPLEXITY_API_KEY to assess it."
    )


def subjects_list(args: argparse.Namespace) -> int:
    path = Path(args.registry) if args.registry else settings().registry_path
    _print([{"id": e.id, "name": e.name, "kind": e.kind} for e in load_registry(path)])
    return 0
def warehouse_migrate(args: argparse.Namespace) -> int:
    """Rewrite the partitions written before every table had one schema (from each
    record's ``_json``: nothing is lost), so plain DuckDB globs read every table."""
    warehouse = _warehouse(args.warehouse)
    rewritten = warehouse.migrate()
    _print({"warehouse": warehouse.root, "rewritten": len(rewritten), "partitions": rewritten})
    return 0


def fetch_check(args: argparse.Namespace) -> int:
    """Would the pipeline fetch this URL, and why not? Live: the name is resolved and
    robots.txt is read (the page itself is never requested); ``--offline``: over the
    demo corpus."""
    from reliability_core.stand_in.web import offline_fetcher
    from reliability_core.web.fetch import fetch_permission

    clock = parse_clock_override(settings().now)

    async def check() -> dict[str, object]:
        corpus = Path(args.corpus) if args.corpus else settings().corpus_dir
        fetcher = offline_fetcher(corpus, clock) if args.offline else None
        answer = await fetch_permission(args.url, fetcher, clock=clock)
        return answer.model_dump(mode="json")

    answer = asyncio.run(check())
    _print(answer)
    return 0 if answer["allowed"] else 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reliability", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--debug", action="store_true", help="show the Python traceback of an error (also RELIABILITY_DEBUG=1)"
    )
    groups = parser.add_subparsers(dest="group", required=True)

    gold = groups.add_parser("gold", help="gold sets").add_subparsers(dest="command", required=True)
    validate = gold.add_parser("validate", help="validate a gold JSONL file")
    validate.add_argument("path")
    validate.set_defaults(func=gold_validate)
    averitec = gold.add_parser(
        "import-averitec", help="convert the AVeriTeC dev set to gold JSONL (outside the project)"
    )
    averitec.add_argument(
        "--input", help="AVeriTeC dev.json (default $RELIABILITY_AVERITEC or ../shared/data/averitec/dev.json)"
    )
    averitec.add_argument("--output", required=True)
    averitec.set_defaults(func=gold_import_averitec)
    backtest = gold.add_parser(
        "backtest", help="run the configured judges over a gold set and store the result"
    )
    backtest.add_argument("path", nargs="?", help="gold JSONL file")
    backtest.add_argument("--averitec", action="store_true", help="use the AVeriTeC dev set from ../shared")
    backtest.add_argument(
        "--warehouse", help="warehouse root (default $RELIABILITY_WAREHOUSE or $RELIABILITY_DATA_DIR/warehouse)"
    )
    backtest.add_argument("--cache-dir", help="model response cache (default: none)")
    backtest.add_argument("--png", help="write the reliability diagram (calibration) here, as PNG")
    backtest.add_argument(
        "--confusion-png", help="write the confusion matrix (rows: human label; columns: method verdict) here, as PNG"
    )
    backtest.add_argument(
        "--json", action="store_true", help="print the result as JSON (without per-item judgements) instead of tables"
    )
    backtest.set_defaults(func=gold_backtest)

    steward = groups.add_parser("steward", help="steward queue and rulings").add_subparsers(
        dest="command", required=True
    )
    for name, func, text in (
        ("build", steward_build, "build and store the queue from stored claim verdicts (the draw is recorded)"),
        ("list", steward_list, "list the stored queue (open items unless --all)"),
        ("rule", steward_rule, "record a ruling; a verdict-changing one re-scores the subject at once"),
    ):
        sub = steward.add_parser(name, help=text)
        sub.add_argument(
            "--warehouse", help="warehouse root (default $RELIABILITY_WAREHOUSE or $RELIABILITY_DATA_DIR/warehouse)"
        )
        sub.add_argument("--verdicts-table", default=VERDICTS_TABLE)
        sub.set_defaults(func=func)
        if name in ("build", "list"):
            sub.add_argument("--json", action="store_true", help="print JSON instead of a readable summary or table")
        if name == "list":
            sub.add_argument("--subject", help="only this subject's queue (default: every subject)")
            sub.add_argument("--all", action="store_true", help="include items already ruled on")
        if name == "rule":
            sub.formatter_class = argparse.RawDescriptionHelpFormatter
            sub.description = "actions:\n" + "\n".join(
                f"  {action:<14} {STEWARD_ACTION_HELP[action]}" for action in STEWARD_ACTIONS
            ) + (
                "\n\nOne ruling per verdict: a claim already ruled on since its verdict was decided is refused. "
                "A ruling records the method version of the verdict it rules on."
            )
            sub.add_argument("--subject", required=True, help="the subject's id (partition)")
            sub.add_argument("--claim", required=True, help="the claim's id (`reliability steward list` shows it)")
            sub.add_argument("--action", required=True, choices=STEWARD_ACTIONS, help="see the actions above")
            sub.add_argument("--steward", required=True, help="who rules (recorded)")
            sub.add_argument("--reason", required=True, help="why (recorded, shown on the claim)")
            sub.add_argument(
                "--new-verdict",
                help="required with --action demote, refused with any other action: the lower verdict "
                "(true, mostly_true, mixed, mostly_false, false, or unresolvable); no default",
            )
    subjects = groups.add_parser("subjects", help="the subject registry (data/subjects.yaml)").add_subparsers(
        dest="command", required=True
    )
    add = subjects.add_parser("add", help="validate a new subject and add it to the registry")
    add.add_argument("--name", required=True, help="the subject's name as it is published")
    add.add_argument("--kind", required=True, choices=list(get_args(SubjectKind)))
    add.add_argument("--url", action="append", help="an https URL of the subject's own site (repeatable)")
    add.add_argument("--id", help="the partition id (default: the name, slugified)")
    add.add_argument("--alias", action="append", help="another name the subject is published under (repeatable)")
    add.add_argument("--description", help="one line on who the subject is")
    add.add_argument("--consent", action="store_true", help="documented consent (private persons only)")
    add.add_argument("--time-zone", help="IANA time zone its claims are dated in, e.g. Europe/Copenhagen")
    add.add_argument("--registry", help="registry file (default $RELIABILITY_DATA_DIR/subjects.yaml)")
    add.set_defaults(func=subjects_add)
    listing = subjects.add_parser("list", help="the registered subjects")
    listing.add_argument("--registry", help="registry file (default $RELIABILITY_DATA_DIR/subjects.yaml)")
    listing.set_defaults(func=subjects_list)

    store = groups.add_parser("warehouse", help="the warehouse's tables").add_subparsers(
        dest="command", required=True
    )
    migrate = store.add_parser(
        "migrate", help="rewrite partitions written before every table had one schema (lossless)"
    )
    migrate.add_argument(
        "--warehouse", help="warehouse root (default $RELIABILITY_WAREHOUSE or $RELIABILITY_DATA_DIR/warehouse)"
    )
    migrate.set_defaults(func=warehouse_migrate)

    orchestration.add_parsers(groups)

    fetch = groups.add_parser("fetch-check", help="would the pipeline fetch this URL, and why not?")
    fetch.add_argument("url")
    fetch.add_argument("--offline", action="store_true", help="over the offline corpus instead of the web")
    fetch.add_argument("--corpus", help="offline corpus directory (default $RELIABILITY_DATA_DIR/corpus)")
    fetch.set_defaults(func=fetch_check)
    return parser


def _debug(args: argparse.Namespace) -> bool:
    """``--debug`` or ``RELIABILITY_DEBUG=1``; a settings error is then no reason to show a traceback."""
    if args.debug:
        return True
    try:
        return settings().debug
    except SettingsError:
        return False


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args, unknown = parser.parse_known_args(arguments)
    if args.func is orchestration.rehearse:
        # Everything after the verb is the rehearsal's own (its options are its parser's).
        args.arguments = arguments[arguments.index("rehearse") + 1 :]
    elif unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        result: int = args.func(args)
    except EXPECTED_ERRORS as exc:
        if _debug(args):
            raise
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return result


if __name__ == "__main__":
    raise SystemExit(main())
