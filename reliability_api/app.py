"""The Reliability API (FastAPI).

Read-mostly: every read goes to the warehouse through one file handle per
partition (DuckDB over the Arrow snapshot), holding no lock, so readers never
block the pipeline's writers. The only writes are subject responses and
steward rulings, both appended to ledgers (never rewritten): responses to
``tables.RESPONSES_LEDGER``, rulings through ``reliability_core.stewardship.steward``
(``record_ruling``) to the table the scoring step reads them from."""

import asyncio
import gzip
import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import fastapi_offline
from fastapi import Depends, FastAPI, Header, Query, Request, Response, Security
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_redoc_html
from fastapi.responses import JSONResponse
from fastapi.security import HTTPBearer
from fastapi_offline import FastAPIOffline
from pydantic import TypeAdapter
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware

from reliability_api.auth import STEWARD_SCOPE, bearer_token, token_is_valid
from reliability_api.errors import ApiError, not_found
from reliability_api.headers import HeadAsGet, SecurityHeaders
from reliability_api.limits import BodySizeLimit
from reliability_api.ratelimit import TokenBucketLimiter
from reliability_api.schemas import (
    CLAIM_ID_PATTERN,
    NOT_BLANK_PATTERN,
    SUBJECT_ID_PATTERN,
    ChangelogEntry,
    ClaimDetail,
    ClaimPage,
    ClaimVerdictFilter,
    ErrorBody,
    HistoryEntry,
    Methodology,
    ReportEnvelope,
    ResponseIn,
    RulingIn,
    ScoreHistory,
    ScorePoint,
    StewardQueueView,
    SubjectPage,
    SubjectSummary,
)
from reliability_api.store import RegisteredSubjects, ReportStore, envelope_json
from reliability_core import constants
from reliability_core.clock import Clock, SystemClock
from reliability_core.ids import sha256_hex, stable_id
from reliability_core.lifetimes import report_is_stale
from reliability_core.models import OverallScore, Report, StewardRuling, SubjectResponse, TypeScore
from reliability_core.providers.base import OFFLINE_NAME
from reliability_core.scores.claim_entries import with_responses
from reliability_core.scores.render import report_chart_png, report_markdown
from reliability_core.scores.report import OFFLINE_NOTICE
from reliability_core.scores.rulings import read_rulings
from reliability_core.stewardship.rescore import rule
from reliability_core.stewardship.steward import RulingRequest, open_items, read_steward_queue
from reliability_core.subjects.registry import load_registry
from reliability_core.verdicts.steering_screen.model import published_figures
from reliability_core.version import method_version
from reliability_core.warehouse import LedgerConflictError, Warehouse, tables
from reliability_core.warehouse.store import CorruptPartitionError
from reliability_core.web.fetch import SafeFetcher

log = logging.getLogger(__name__)

NOT_YET_MEASURED = "not yet measured"
TYPE_SCORES: TypeAdapter[list[TypeScore]] = TypeAdapter(list[TypeScore])
SubjectId = Annotated[str, PathParam(pattern=SUBJECT_ID_PATTERN, description="the subject's slug id")]
ClaimId = Annotated[str, PathParam(pattern=CLAIM_ID_PATTERN, description="the claim's id")]
# The token is read from the header as sent; the schema declares it once, as the bearer
# security scheme below (so /docs has an Authorize button), not as a header parameter.
Authorization = Annotated[str | None, Header(include_in_schema=False)]
BEARER = HTTPBearer(
    auto_error=False,
    scheme_name="bearer",
    description="A subject's token (responses to its own claims) or a steward token (queue, rulings): "
    "`python -m reliability_api.cli issue-token`",
)
_AUTHENTICATED = [Security(BEARER)]
# Operation groups in /docs and /redoc, in reading order.
OPENAPI_TAGS = [
    {"name": "method", "description": "The method version, its constants, error rates and changelog"},
    {"name": "subjects", "description": "Subjects with their coverage state and newest report summary"},
    {"name": "reports", "description": "A subject's newest report (JSON, Markdown, chart) and its score history"},
    {"name": "claims", "description": "A report's claims, one at a time or a page at a time"},
    {"name": "responses", "description": "A subject's reply to a claim (subject token)"},
    {"name": "stewards", "description": "The steward queue and rulings (steward token)"},
]

_CODES_BY_STATUS = {
    400: "malformed_body",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
}
JSON_BODY = "application/json"
_DESCRIPTIONS = {
    400: "Malformed JSON or an unreadable body",
    401: "No bearer token (the same answer whether or not the subject exists)",
    403: "The token may not do this (the same answer whether or not the subject exists)",
    404: "Unknown subject, report or claim",
    409: "The ruling does not fit the claim's stored verdict",
    413: "Request body over the limit",
    415: "The body is not JSON (Content-Type other than application/json)",
    422: "A parameter or the body does not match the schema",
    429: "Too many writes with this token; see Retry-After",
    500: "An unexpected error, or a subject's stored data is unreadable (a corrupt file)",
}


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorBody, "description": _DESCRIPTIONS[code]} for code in codes}


_CACHE = {"Cache-Control": "public, max-age=60"}
_WRITE_ERRORS = (400, 401, 403, 404, 413, 415, 422, 429)
_ETAG_HEADER: dict[str, Any] = {
    "ETag": {
        "description": "strong validator of this representation (the gzip body has its own)",
        "schema": {"type": "string"},
    }
}
_CONDITIONAL: dict[int | str, dict[str, Any]] = {304: {"description": "Not modified: the If-None-Match tag is current", "headers": _ETAG_HEADER}}
IfNoneMatch = Annotated[str | None, Header(description="an ETag from an earlier answer")]
AcceptEncoding = Annotated[str | None, Header(description="`gzip` for a compressed body")]
# ReDoc's bundle shows the vendor's logo from its CDN under the menu; the page is served
# with the app's own icon there instead, so /redoc loads nothing from outside.
REDOC_CDN_LOGO = b"https://cdn.redoc.ly/redoc/logo-mini.svg"
OFFLINE_DOCS_STATIC = "/static-offline-docs"
REDOC_JS_PATH = f"{OFFLINE_DOCS_STATIC}/redoc.standalone.js"


@dataclass(frozen=True)
class ApiSettings:
    """How the app is built: where the warehouse is, limits, the clock."""

    warehouse_root: str
    changelog_path: Path | None = None
    max_body_bytes: int = 16 * 1024
    write_rate_per_second: float = 1.0
    write_burst: int = 5
    clock: Clock = field(default_factory=SystemClock)
    describe_models: Callable[[], dict[str, str]] | None = None
    offline: bool = True
    # For a ruling's immediate re-score (the registry's subject kinds, for the prior) and
    # for "re-run the quote check" (the fetcher that reads the pages again).
    registry_path: Path | None = None
    fetcher_factory: Callable[[Clock], SafeFetcher] | None = None


def _method_constants() -> dict[str, Any]:
    return {name: getattr(constants, name) for name in dir(constants) if name.isupper()}


def parse_changelog(text: str) -> list[ChangelogEntry]:
    """Entries of docs/CHANGELOG-METHOD.md: one per ``## <version>`` heading."""
    entries: list[ChangelogEntry] = []
    for block in re.split(r"(?m)^## ", text)[1:]:
        heading, _, body = block.partition("\n")
        entries.append(ChangelogEntry(version=heading.strip(), body=body.strip()))
    return entries


def report_etag(content_hash: str, stale: bool, *, gzipped: bool = False) -> str:
    """A strong ETag from the report's content hash; a stale report gets its own tag,
    so a cache never keeps serving the fresh-marked copy after the 90 days, and the gzip
    body its own (RFC 9110 §8.8.3: a strong tag names one representation's bytes)."""
    return f'"{content_hash[:32]}{"-stale" if stale else ""}{"-gzip" if gzipped else ""}"'


def body_etag(body: bytes, *, gzipped: bool = False) -> str:
    """A strong ETag from a body's own bytes (the Markdown, the chart), the gzip body's apart."""
    return f'"{sha256_hex(body)[:32]}{"-gzip" if gzipped else ""}"'


def is_json_media_type(content_type: str | None) -> bool:
    """Whether a request's ``Content-Type`` is JSON: none given (read as JSON),
    ``application/json`` or ``application/<something>+json``, any parameters ignored."""
    if content_type is None:
        return True
    media_type = content_type.partition(";")[0].strip().lower()
    return media_type == JSON_BODY or (media_type.startswith("application/") and media_type.endswith("+json"))


def redoc_bundle(static_dir: Path) -> bytes:
    """fastapi-offline's ReDoc bundle with its one outside image (the vendor's logo on a
    CDN) replaced by the app's own icon."""
    bundle = (static_dir / "redoc.standalone.js").read_bytes()
    return bundle.replace(REDOC_CDN_LOGO, f"{OFFLINE_DOCS_STATIC}/favicon.png".encode())


def etag_matches(etag: str, if_none_match: str | None) -> bool:
    """RFC 9110 If-None-Match (weak comparison): ``*`` or any listed tag, ``W/`` ignored."""
    if if_none_match is None:
        return False
    tags = {t.strip().removeprefix("W/") for t in if_none_match.split(",")}
    return "*" in tags or etag in tags


def accepts_gzip(accept_encoding: str | None) -> bool:
    """RFC 9110 Accept-Encoding: ``gzip`` (or ``*``) listed without ``q=0``."""
    if not accept_encoding:
        return False
    for item in accept_encoding.split(","):
        coding, _, params = item.strip().partition(";")
        if coding.strip().lower() in ("gzip", "*"):
            q = params.strip().lower().removeprefix("q=")
            try:
                if not params.strip() or float(q) > 0:
                    return True
            except ValueError:
                return False
    return False


def _error_response(
    status_code: int, code: str, message: str, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(
        status_code=status_code, content={"error": {"code": code, "message": message}}, headers=headers
    )


# What a pattern means, in words: pydantic's own message quotes the regular expression.
_PATTERN_MEANINGS = {
    NOT_BLANK_PATTERN: "must not be blank (it holds only white space)",
    SUBJECT_ID_PATTERN: "must be a subject id: lower-case letters, digits and hyphens, e.g. 'northwind-energy'",
    CLAIM_ID_PATTERN: "must be a claim id as the report lists it, e.g. 'clm_0123abcd'",
}


def _error_text(error: Mapping[str, Any]) -> str:
    """One validation error in words: where, and what is wrong."""
    where = ".".join(str(p) for p in error.get("loc", ()))
    message = str(error.get("msg", ""))
    if error.get("type") == "string_pattern_mismatch":
        pattern = str((error.get("ctx") or {}).get("pattern", ""))
        message = _PATTERN_MEANINGS.get(pattern, "is not in the expected format")
    return f"{where}: {message}"


def _validation_message(exc: RequestValidationError) -> tuple[str, str]:
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return "malformed_json", "the body is not valid JSON"
    return "invalid_request", "; ".join(_error_text(e) for e in errors)


def create_app(settings: ApiSettings) -> FastAPI:
    # Swagger UI and ReDoc from the assets the fastapi-offline package installs: /docs
    # works without internet (FastAPI's default loads them from a CDN). Swagger UI's
    # validator badge would load an image from validator.swagger.io: turned off.
    registered = RegisteredSubjects(settings.registry_path)

    def served_subject(request: Request) -> None:
        """Every ``/v1/subjects/{subject_id}...`` answer: a subject removed from the
        registry is no longer served (404), whatever the warehouse still holds."""
        subject_id = request.path_params.get("subject_id")
        if isinstance(subject_id, str) and not registered.holds(subject_id):
            raise not_found("subject")

    app = FastAPIOffline(
        dependencies=[Depends(served_subject)],
        title="Reliability API",
        version=constants.METHOD_BASE_VERSION,
        description="How well a public figure's or organisation's checkable public claims hold up against the record. "
        "Every verdict and score is machine-generated and unreviewed.",
        redoc_url=None,
        openapi_tags=OPENAPI_TAGS,
        swagger_ui_parameters={"validatorUrl": None},
    )
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    # Every answer over 1 KB gzip-compressed for a client that accepts it; the report's
    # prepared gzip bytes carry Content-Encoding already and pass through untouched.
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    # Outside the gzip middleware, so a HEAD answer carries the headers the GET would.
    app.add_middleware(HeadAsGet)
    # Outermost: every answer carries the security headers, an unexpected error included.
    app.add_middleware(SecurityHeaders, docs_paths=frozenset({"/docs", "/redoc", "/docs/oauth2-redirect"}))
    store = ReportStore(Warehouse(settings.warehouse_root))
    charts: dict[str, tuple[bytes, str]] = {}  # PNG and its ETag by report content hash (rendering takes ~0.1 s)
    _AUTH_SCOPES: dict[str, Callable[[Mapping[str, Any]], str]] = {}
    limiter = TokenBucketLimiter(settings.write_rate_per_second, settings.write_burst)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        if isinstance(exc, ApiError):
            return _error_response(exc.status_code, exc.code, exc.message, exc.headers)
        code = _CODES_BY_STATUS.get(exc.status_code, "http_error")
        return _error_response(exc.status_code, code, str(exc.detail), exc.headers)

    @app.exception_handler(CorruptPartitionError)
    async def _corrupt_partition(_: Request, exc: CorruptPartitionError) -> JSONResponse:
        # The operator's log names the file; the caller learns which data, not where it lives.
        log.error("%s", exc)
        return _error_response(
            500,
            "stored_data_corrupt",
            f"the stored {exc.table!r} data of subject {exc.subject_id!r} is unreadable (a corrupt file); "
            "the next run that writes it replaces it",
        )

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI validates the body before the endpoint runs; the documented order is
        # 401 (no token), 403 (wrong token), then 400/422 for the body.
        refusal = _auth_refusal(request)
        if refusal is not None:
            return _error_response(refusal.status_code, refusal.code, refusal.message, refusal.headers)
        # A body sent as anything but JSON is not read as JSON at all: say so (415), rather
        # than describe the schema it was never compared with.
        content_type = request.headers.get("content-type")
        if not is_json_media_type(content_type):
            return _error_response(
                415,
                "unsupported_media_type",
                f"the body must be JSON (Content-Type: {JSON_BODY}), not {content_type!r}",
                {"Accept-Post": JSON_BODY},
            )
        code, message = _validation_message(exc)
        return _error_response(400 if code == "malformed_json" else 422, code, message)

    redoc_js = redoc_bundle(Path(fastapi_offline.__file__).parent / "static")

    @app.get("/redoc", include_in_schema=False)
    def redoc_page() -> Response:
        return get_redoc_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title} - ReDoc",
            redoc_js_url=REDOC_JS_PATH,
            redoc_favicon_url=f"{OFFLINE_DOCS_STATIC}/favicon.png",
            with_google_fonts=False,
        )

    @app.get(REDOC_JS_PATH, include_in_schema=False)
    def redoc_script() -> Response:
        return Response(redoc_js, media_type="text/javascript", headers={"Cache-Control": "public, max-age=86400"})

    # Ahead of fastapi-offline's static mount, which would answer the same path with the
    # bundle as installed.
    app.router.routes.insert(0, app.router.routes.pop())

    def _encoded(
        plain: Callable[[], bytes],
        media_type: str,
        etag_of: Callable[[bool], str],
        *,
        if_none_match: str | None,
        accept_encoding: str | None,
        gzipped: Callable[[], bytes] | None = None,
    ) -> Response:
        """One representation of a resource: gzip when the client accepts it, else plain,
        each with its own ETag (``etag_of(gzipped)``); 304 when If-None-Match names it."""
        use_gzip = accepts_gzip(accept_encoding)
        etag = etag_of(use_gzip)
        headers = {"ETag": etag, "Vary": "Accept-Encoding", **_CACHE}
        if etag_matches(etag, if_none_match):
            return Response(status_code=304, headers=headers)
        if use_gzip:
            headers["Content-Encoding"] = "gzip"
            body = gzipped() if gzipped is not None else gzip.compress(plain(), mtime=0)
        else:
            body = plain()
        return Response(content=body, media_type=media_type, headers=headers)

    def _auth_refusal(request: Request) -> ApiError | None:
        """The 401 or 403 an authenticated operation would give this request, if any."""
        route = request.scope.get("route")
        scope_of = _AUTH_SCOPES.get(getattr(route, "name", ""))
        if scope_of is None:
            return None
        scope = scope_of(request.path_params)
        try:
            # A malformed subject id is never looked up (no odd bytes reach a file path):
            # only the missing token is answered before the 422.
            checkable = scope == STEWARD_SCOPE or re.fullmatch(SUBJECT_ID_PATTERN, scope) is not None
            _authorise(scope if checkable else None, request.headers.get("authorization"), write=False)
        except ApiError as refusal:
            return refusal
        return None

    def _version() -> str:
        return method_version(offline=settings.offline)

    def _stale(served_until: datetime) -> bool:
        return report_is_stale(served_until, settings.clock.now())

    @app.get("/v1/methodology", response_model=Methodology, tags=["method"])
    def methodology() -> Methodology:
        """The exact method version, model per step, constants, error rates and changelog."""
        version = _version()
        backtests = store.latest_backtests(version)
        # Error rates only from live judges; offline-rules figures are a consistency check.
        measured = [b for b in backtests if not b.offline]
        error_rates: dict[str, Any] | str = NOT_YET_MEASURED
        agreement: dict[str, Any] | str = NOT_YET_MEASURED
        if measured:
            latest = max(measured, key=lambda b: b.run_at)
            error_rates = {
                "gold_set": latest.gold_set,
                "items": latest.metrics.items,
                "accuracy_all": latest.metrics.accuracy_all,
                "accuracy_on_shown": latest.metrics.accuracy_on_shown,
                "wrong_verdicts_shown": latest.metrics.wrong_verdicts_shown,
                "settled_without_help": latest.metrics.settled_without_help,
                "calibration_error": latest.metrics.calibration_error,
                "kappa_with_humans": latest.metrics.judge_a_vs_humans_kappa,
                "gates": {g.gate: g.passed for g in latest.gates},
                "run_at": latest.run_at.isoformat(),
            }
        if backtests:
            latest_any = max(backtests, key=lambda b: b.run_at)
            agreement = {
                # In percent (0-100) in the backtest's metrics too: one unit everywhere.
                "judge_agreement_percent": (
                    round(latest_any.metrics.judge_agreement_percent, 1)
                    if latest_any.metrics.judge_agreement_percent is not None
                    else None
                ),
                "judge_agreement_kappa": latest_any.metrics.judge_agreement_kappa,
                "note": "consistency between the two judges, not accuracy",
                "judges": "offline-rules" if latest_any.offline else "live",
                "gold_set": latest_any.gold_set,
            }
        changelog: list[ChangelogEntry] = []
        if settings.changelog_path and settings.changelog_path.exists():
            changelog = parse_changelog(settings.changelog_path.read_text(encoding="utf-8"))
        models = settings.describe_models() if settings.describe_models else {}
        return Methodology(
            method_version=version,
            models=models,
            offline_rules=settings.offline,
            constants=_method_constants(),
            error_rates=error_rates,
            judge_agreement=agreement,
            changelog=changelog,
            steering_screen=published_figures(),
            notice="Every verdict and score is machine-generated and unreviewed."
            + (
                " Outputs come from the deterministic offline model (offline-rules), not a live model."
                if settings.offline
                else ""
            ),
        )

    def _summaries(subject_ids: list[str], unreadable: set[str] | None = None) -> list[SubjectSummary]:
        """Coverage state and newest report summary of each subject known to the warehouse.
        With ``unreadable``, a subject with a corrupt stored file is left out (and added
        there) instead of failing the whole page."""
        coverages = store.coverages(subject_ids, unreadable=unreadable)
        heads = store.latest_report_heads(subject_ids, unreadable=unreadable)
        summaries = []
        for subject_id in subject_ids:
            coverage, head = coverages.get(subject_id), heads.get(subject_id)
            if (coverage is None and head is None) or subject_id in (unreadable or ()):
                continue
            overall = head.overall if head else None
            summaries.append(
                SubjectSummary(
                    id=subject_id,
                    name=(head.subject_name if head else coverage.name if coverage else subject_id),
                    covered=(coverage.covered if coverage else head.covered if head else None),
                    coverage_reasons=(
                        coverage.reasons if coverage else head.coverage_reasons if head else []
                    ),
                    report_generated_at=head.generated_at if head else None,
                    stale=_stale(head.served_until) if head else None,
                    overall_score=overall.score if overall else None,
                    overall_interval=(
                        [overall.interval_low, overall.interval_high]
                        if overall and overall.interval_low is not None and overall.interval_high is not None
                        else None
                    ),
                    overall_confidence=overall.confidence if overall else None,
                    model_notice=(
                        head.offline_notice
                        if head
                        else OFFLINE_NOTICE
                        if coverage and coverage.decided_by == OFFLINE_NAME
                        else ""
                    ),
                    needs_live_providers=bool(
                        (coverage and coverage.needs_live_providers) or (head and head.needs_live_providers)
                    ),
                )
            )
        return summaries

    @app.get("/v1/subjects", response_model=SubjectPage, responses=_errors(422, 500), tags=["subjects"])
    def list_subjects(
        offset: int = Query(0, ge=0, le=1_000_000), limit: int = Query(50, ge=1, le=200)
    ) -> SubjectPage:
        """Subjects with their coverage state and latest report summary, paged."""
        ids = [s for s in store.subject_ids() if registered.holds(s)]
        return SubjectPage(
            items=_summaries(ids[offset : offset + limit], unreadable=set()),
            total=len(ids),
            offset=offset,
            limit=limit,
        )

    @app.get(
        "/v1/subjects/{subject_id}", response_model=SubjectSummary, responses=_errors(404, 422, 500), tags=["subjects"]
    )
    def get_subject(subject_id: SubjectId) -> SubjectSummary:
        """One subject's coverage state and latest report summary."""
        found = _summaries([subject_id])
        if not found:
            raise not_found("subject")
        return found[0]

    def _newest_report(subject_id: str) -> Report:
        report = store.latest_report(subject_id)
        if report is None:
            raise not_found("report")
        return report

    def _envelope(subject_id: str) -> ReportEnvelope:
        report = _newest_report(subject_id)
        stale = _stale(report.served_until)
        return ReportEnvelope(
            stale=stale,
            refresh_requested_at=store.refresh_requested_at(subject_id) if stale else None,
            served_until=report.served_until,
            report=report,
        )

    @app.get(
        "/v1/subjects/{subject_id}/report",
        response_model=ReportEnvelope,
        responses={200: {"headers": _ETAG_HEADER}, **_CONDITIONAL, **_errors(404, 422)},
        tags=["reports"],
    )
    def get_report(
        subject_id: SubjectId, if_none_match: IfNoneMatch = None, accept_encoding: AcceptEncoding = None
    ) -> ReportEnvelope | Response:
        """The full latest report; after 90 days served marked stale, with the date a refresh was requested.

        Served from bytes prepared once per stored version of the subject's reports
        (``ReportStore.latest_report_prepared``): the stored report JSON in its envelope, plain
        and gzip, so a read neither opens the Parquet file nor parses anything while the
        version is unchanged, and a read racing a refresh gets one whole version. The gzip
        answer carries ``Content-Encoding``, which a gzip middleware passes through as is.
        Responses the subject sent since the report was built are added to their claims
        (that body is made per read, like a stale one, and its ETag names them)."""
        prepared = store.latest_report_prepared(subject_id)
        if prepared is None:
            raise not_found("report")
        stale = _stale(prepared.served_until)
        content_hash = prepared.content_hash or sha256_hex(prepared.json_text)
        report_json = prepared.json_text
        later = _responses_not_in(report_json, store.responses(subject_id))
        if later:
            report = Report.model_validate_json(report_json)
            report_json = report.model_copy(
                update={"claims": [with_responses(c, later) for c in report.claims]}
            ).model_dump_json()
            content_hash = sha256_hex(content_hash + "".join(sorted(r.id for r in later)))
        fresh = not stale and not later

        def plain() -> bytes:
            if fresh:
                return prepared.fresh_body
            # The refresh request can change at any time: this envelope is made per read.
            return envelope_json(
                report_json,
                stale=stale,
                refresh_requested_at=store.refresh_requested_at(subject_id) if stale else None,
                served_until=prepared.served_until,
            )

        return _encoded(
            plain,
            "application/json",
            lambda gzipped: report_etag(content_hash, stale, gzipped=gzipped),
            if_none_match=if_none_match,
            accept_encoding=accept_encoding,
            gzipped=(lambda: prepared.fresh_body_gzip) if fresh else None,
        )

    def _responses_not_in(report_json: str, responses: list[SubjectResponse]) -> list[SubjectResponse]:
        """The stored responses the report's own text does not list (sent since it was built)."""
        return [r for r in responses if f'"{r.id}"' not in report_json]

    @app.get("/v1/subjects/{subject_id}/claims", response_model=ClaimPage, responses=_errors(404, 422), tags=["claims"])
    def list_claims(
        subject_id: SubjectId,
        offset: int = Query(0, ge=0, le=1_000_000),
        limit: int = Query(25, ge=1, le=100),
        verdict: Annotated[
            ClaimVerdictFilter | None, Query(description="only claims with this verdict ('held': a gate held it)")
        ] = None,
        shown: Annotated[bool | None, Query(description="only claims shown (true) or not shown (false: held, or not judged)")] = None,
    ) -> ClaimPage:
        """The newest report's claims, a page at a time, optionally by verdict or display state."""
        report = _newest_report(subject_id)

        def _shown(claim: dict[str, object]) -> bool:
            gate = claim.get("gate")
            return isinstance(gate, dict) and bool(gate.get("shown"))

        claims = [
            c
            for c in report.claims
            if (verdict is None or c.get("verdict") == verdict) and (shown is None or _shown(c) == shown)
        ]
        responses = store.responses(subject_id)
        return ClaimPage(
            subject_id=subject_id,
            report_id=report.id,
            items=[with_responses(c, responses) for c in claims[offset : offset + limit]],
            total=len(claims),
            offset=offset,
            limit=limit,
        )

    @app.get(
        "/v1/subjects/{subject_id}/report.md",
        response_class=Response,
        responses={
            200: {"content": {"text/markdown": {}}, "description": "The report as Markdown", "headers": _ETAG_HEADER},
            **_CONDITIONAL,
            **_errors(404, 422),
        },
        tags=["reports"],
    )
    def get_report_markdown(
        subject_id: SubjectId, if_none_match: IfNoneMatch = None, accept_encoding: AcceptEncoding = None
    ) -> Response:
        """The newest report rendered as Markdown (scores, intervals, counts and every claim's trail,
        with the responses the subject sent since the report was built)."""
        report = _newest_report(subject_id)
        responses = store.responses(subject_id)
        shown = report.model_copy(update={"claims": [with_responses(c, responses) for c in report.claims]})
        text = report_markdown(shown).encode("utf-8")
        return _encoded(
            lambda: text,
            "text/markdown; charset=utf-8",
            lambda gzipped: body_etag(text, gzipped=gzipped),
            if_none_match=if_none_match,
            accept_encoding=accept_encoding,
        )

    @app.get(
        "/v1/subjects/{subject_id}/report/chart.png",
        response_class=Response,
        responses={
            200: {
                "content": {"image/png": {}},
                "description": "Scores with 80% intervals and counts",
                "headers": _ETAG_HEADER,
            },
            **_CONDITIONAL,
            **_errors(404, 422),
        },
        tags=["reports"],
    )
    def get_report_chart(subject_id: SubjectId, if_none_match: IfNoneMatch = None) -> Response:
        """The newest report's chart: each type's and the overall score with its 80% interval and count."""
        report = _newest_report(subject_id)
        if report.content_hash not in charts:
            if len(charts) > 256:
                charts.clear()
            png = report_chart_png(report)
            charts[report.content_hash] = (png, body_etag(png))
        png, etag = charts[report.content_hash]
        # PNG is compressed already: one representation, never gzip (the middleware leaves images alone).
        headers = {"ETag": etag, **_CACHE}
        if etag_matches(etag, if_none_match):
            return Response(status_code=304, headers=headers)
        return Response(png, media_type="image/png", headers=headers)

    @app.get(
        "/v1/subjects/{subject_id}/history", response_model=ScoreHistory, responses=_errors(404, 422), tags=["reports"]
    )
    def get_history(subject_id: SubjectId) -> ScoreHistory:
        """The subject's scores across every published report (refreshes and re-scores), oldest first."""
        rows = store.report_history(subject_id)
        if not rows:
            raise not_found("report")
        items = []
        for sequence, report_id, generated_at, content_hash, version, overall, type_scores in rows:
            points = [
                ScorePoint(score=t.claim_type, value=t.score, interval_low=t.interval_low, interval_high=t.interval_high, n=t.n)
                for t in TYPE_SCORES.validate_json(str(type_scores or "[]"))
            ]
            if overall is not None:
                o = OverallScore.model_validate_json(str(overall))
                points.append(ScorePoint(score="overall", value=o.score, interval_low=o.interval_low, interval_high=o.interval_high, n=o.n))
            items.append(
                HistoryEntry(
                    sequence=int(str(sequence or 0)),
                    report_id=str(report_id),
                    generated_at=datetime.fromisoformat(str(generated_at)),
                    content_hash=str(content_hash or ""),
                    method_version=str(version),
                    scores=points,
                )
            )
        return ScoreHistory(subject_id=subject_id, items=items)

    @app.get(
        "/v1/subjects/{subject_id}/claims/{claim_id}",
        response_model=ClaimDetail,
        responses=_errors(404, 422),
        tags=["claims"],
    )
    def get_claim(subject_id: SubjectId, claim_id: ClaimId) -> ClaimDetail:
        """One claim as the latest report lists it (quote and verification, criteria with written-at time,
        evidence with source class, fetch time and SHA-256, both judges, basis, gate outcome), with every
        response and steward ruling on it from the ledgers, including those made since the report."""
        envelope = _envelope(subject_id)
        claim = next((c for c in envelope.report.claims if c.get("claim_id") == claim_id), None)
        if claim is None:
            raise not_found("claim")
        responses = [r for r in store.responses(subject_id) if r.claim_id == claim_id]
        return ClaimDetail(
            subject_id=subject_id,
            claim=with_responses(claim, responses),
            responses=responses,
            steward_rulings=[r for r in read_rulings(store.ledger, subject_id) if r.claim_id == claim_id],
            report_id=envelope.report.id,
            stale=envelope.stale,
        )

    def _authorise(scope: str | None, authorization: str | None, *, write: bool) -> str:
        """The bearer token, once it is present (else 401), valid for ``scope`` (else 403;
        a ``None`` scope is not checked) and, for a write, within the rate limit (else 429)."""
        token = bearer_token(authorization)
        if token is None:
            raise ApiError(
                401, "unauthenticated", "a bearer token is required", {"WWW-Authenticate": "Bearer"}
            )
        if scope is None:
            return token
        # Checked before anything about the subject is looked up, so a caller
        # without the right token learns nothing about which subjects exist.
        if not token_is_valid(store.ledger, scope, token, settings.clock.now()):
            raise ApiError(403, "forbidden", "this token may not do this")
        if write:
            allowed, wait = limiter.allow(sha256_hex(token))
            if not allowed:
                raise ApiError(
                    429, "rate_limited", "too many writes; slow down", {"Retry-After": str(int(wait) + 1)}
                )
        return token

    def _claim_in_report(subject_id: str, claim_id: str) -> bool:
        report = store.latest_report(subject_id)
        return report is not None and any(c.get("claim_id") == claim_id for c in report.claims)

    @app.post(
        "/v1/subjects/{subject_id}/claims/{claim_id}/responses",
        response_model=SubjectResponse,
        status_code=201,
        responses={200: {"model": SubjectResponse, "description": "The same response was already stored: that one"}, **_errors(*_WRITE_ERRORS)},
        tags=["responses"],
        dependencies=_AUTHENTICATED,
    )
    def post_response(
        subject_id: SubjectId,
        claim_id: ClaimId,
        body: ResponseIn,
        answer: Response,
        authorization: Authorization = None,
    ) -> SubjectResponse:
        """A subject's reply or correction (its own token only), stored append-only and shown on the claim
        as "response received, not yet reviewed". Idempotent: the same body again on the same claim (a
        retried or replayed request) answers 200 with the response already stored and stores nothing."""
        _authorise(subject_id, authorization, write=True)
        if not _claim_in_report(subject_id, claim_id):  # 404 only once authenticated for this subject
            raise not_found("claim")
        stored = _stored_response(subject_id, claim_id, body.body)
        if stored is not None:
            answer.status_code = 200
            return stored
        now = settings.clock.now()
        response = SubjectResponse(
            # From the content alone, so two identical requests racing each other make one id:
            # the ledger's exclusive create lets one win and the other finds it below.
            id=stable_id("resp", subject_id, claim_id, body.body),
            subject_id=subject_id,
            claim_id=claim_id,
            body=body.body,
            received_at=now,
            method_version=_version(),
        )
        try:
            store.ledger.append(tables.RESPONSES_LEDGER, subject_id, [(response.id, response)])
        except LedgerConflictError:
            answer.status_code = 200
            return store.ledger.get(tables.RESPONSES_LEDGER, subject_id, response.id, SubjectResponse) or response
        return response

    def _stored_response(subject_id: str, claim_id: str, text: str) -> SubjectResponse | None:
        """The response already stored with this body on this claim (ids made before responses
        were idempotent held the time, so the body is compared, not the id)."""
        return next((r for r in store.responses(subject_id) if r.claim_id == claim_id and r.body == text), None)

    @app.get(
        "/v1/steward/queue",
        response_model=StewardQueueView,
        responses=_errors(401, 403, 422),
        tags=["stewards"],
        dependencies=_AUTHENTICATED,
    )
    def steward_queue(
        authorization: Authorization = None,
        open_only: Annotated[bool, Query(description="hide items ruled on since they were queued")] = True,
    ) -> StewardQueueView:
        """The steward queue: every disputed or held claim plus a random 10% of last week's verdicts (a fresh seed each build, recorded)."""
        _authorise(STEWARD_SCOPE, authorization, write=False)
        items = read_steward_queue(store.warehouse)
        if open_only:
            subjects = sorted({i.subject_id for i in items})
            items = open_items(items, [r for s in subjects for r in read_rulings(store.ledger, s)])
        return StewardQueueView(items=items, total=len(items), open_only=open_only)

    @app.post(
        "/v1/subjects/{subject_id}/claims/{claim_id}/rulings",
        response_model=StewardRuling,
        status_code=201,
        responses=_errors(*_WRITE_ERRORS, 409),
        tags=["stewards"],
        dependencies=_AUTHENTICATED,
    )
    def post_ruling(
        subject_id: SubjectId, claim_id: ClaimId, body: RulingIn, authorization: Authorization = None
    ) -> StewardRuling:
        """A steward's ruling, validated against the claim's stored verdict and appended to the rulings
        ledger. A demotion, retraction or resolution re-scores the subject's stored verdicts at once, so
        the report served next carries it; "re-run the quote check" fetches the pages again first."""
        _authorise(STEWARD_SCOPE, authorization, write=True)
        verdict = store.verdict(subject_id, claim_id)
        if verdict is None and not _claim_in_report(subject_id, claim_id):
            raise not_found("claim")
        factory = settings.fetcher_factory
        try:
            decision = asyncio.run(
                rule(
                    store.warehouse,
                    RulingRequest(subject_id=subject_id, claim_id=claim_id, **body.model_dump()),
                    verdict,
                    clock=settings.clock,
                    method_version=_version(),
                    kinds=_kinds(),
                    fetcher_factory=(lambda: factory(settings.clock)) if factory else None,
                )
            )
        except LedgerConflictError as exc:
            # The ruling id is derived from (subject, claim, action, steward, time): a
            # different ruling under the same id is refused, never overwritten.
            raise ApiError(
                409, "ruling_conflict", "a different ruling with this id is already recorded"
            ) from exc
        outcome = decision.outcome
        if outcome.ruling is None:
            raise ApiError(409, "ruling_refused", "; ".join(outcome.problems))
        return outcome.ruling

    def _kinds() -> dict[str, str]:
        path = settings.registry_path
        return {e.id: e.kind for e in load_registry(path)} if path and path.exists() else {}

    # The operations behind a token, by endpoint name: the scope each one checks.
    _AUTH_SCOPES.update(
        {
            post_response.__name__: lambda params: str(params.get("subject_id", "")),
            steward_queue.__name__: lambda _: STEWARD_SCOPE,
            post_ruling.__name__: lambda _: STEWARD_SCOPE,
        }
    )
    return app
