"""The Reliability API (FastAPI).

Read-mostly: every read goes to the warehouse through DuckDB without locks;
the only writes are subject responses and steward rulings, both appended to
ledgers (never rewritten)."""

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, get_args

from fastapi import FastAPI, Header, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from reliability_api.auth import STEWARD_SCOPE, bearer_token, token_is_valid
from reliability_api.errors import ApiError, not_found
from reliability_api.ratelimit import TokenBucketLimiter
from reliability_api.schemas import (
    ChangelogEntry,
    ClaimDetail,
    ErrorBody,
    Methodology,
    ReportEnvelope,
    ResponseIn,
    RulingIn,
    SubjectPage,
    SubjectSummary,
)
from reliability_api.store import ReportStore
from reliability_core import constants
from reliability_core.clock import Clock, SystemClock
from reliability_core.ids import sha256_hex, stable_id
from reliability_core.models import StewardRuling, SubjectResponse
from reliability_core.models.reports import StewardAction
from reliability_core.refresh import report_is_stale
from reliability_core.version import method_version
from reliability_core.warehouse import Warehouse, tables

NOT_YET_MEASURED = "not yet measured"
_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody},
    401: {"model": ErrorBody},
    403: {"model": ErrorBody},
    404: {"model": ErrorBody},
    413: {"model": ErrorBody},
    422: {"model": ErrorBody},
    429: {"model": ErrorBody},
}


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


def _method_constants() -> dict[str, Any]:
    return {name: getattr(constants, name) for name in dir(constants) if name.isupper()}


def parse_changelog(text: str) -> list[ChangelogEntry]:
    """Entries of docs/CHANGELOG-METHOD.md: one per ``## <version>`` heading."""
    entries: list[ChangelogEntry] = []
    for block in re.split(r"(?m)^## ", text)[1:]:
        heading, _, body = block.partition("\n")
        entries.append(ChangelogEntry(version=heading.strip(), body=body.strip()))
    return entries


def create_app(settings: ApiSettings) -> FastAPI:
    app = FastAPI(
        title="Reliability API",
        version=constants.METHOD_BASE_VERSION,
        description="How well a public figure's or organisation's checkable public claims hold up against the record. "
        "Every verdict and score is machine-generated and unreviewed.",
    )
    store = ReportStore(Warehouse(settings.warehouse_root))
    limiter = TokenBucketLimiter(settings.write_rate_per_second, settings.write_burst)

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(
            status_code=exc.status_code,
            content={"error": {"code": exc.code, "message": exc.message}},
            headers=exc.headers,
        )

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        message = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}" for e in exc.errors()
        )
        return JSONResponse(status_code=422, content={"error": {"code": "invalid_request", "message": message}})

    @app.middleware("http")
    async def _limit_body(request: Request, call_next: Callable[[Request], Any]) -> Any:
        if request.method in {"POST", "PUT", "PATCH"}:
            declared = request.headers.get("content-length")
            too_big = declared is not None and declared.isdigit() and int(declared) > settings.max_body_bytes
            if not too_big:
                body = await request.body()
                too_big = len(body) > settings.max_body_bytes
            if too_big:
                return JSONResponse(
                    status_code=413,
                    content={
                        "error": {
                            "code": "body_too_large",
                            "message": f"request body over {settings.max_body_bytes} bytes",
                        }
                    },
                )
        return await call_next(request)

    def _version() -> str:
        return method_version(offline=settings.offline)

    def _stale(served_until: datetime) -> bool:
        return report_is_stale(served_until, settings.clock.now())

    def _etag(content_hash: str, suffix: str = "") -> str:
        return f'"{content_hash[:32]}{suffix}"'

    def _not_modified(etag: str, if_none_match: str | None) -> bool:
        return if_none_match is not None and etag in {t.strip() for t in if_none_match.split(",")}

    @app.get("/v1/methodology", response_model=Methodology, responses=_ERRORS)
    def methodology() -> Methodology:
        """The exact method version, model per step, constants, error rates and changelog."""
        version = _version()
        backtests = store.latest_backtests(version)
        measured = [b for b in backtests if not b.get("offline_rules", True)]
        error_rates: dict[str, Any] | str = NOT_YET_MEASURED
        agreement: dict[str, Any] | str = NOT_YET_MEASURED
        if measured:
            latest = max(measured, key=lambda b: str(b.get("generated_at", "")))
            error_rates = {k: latest.get(k) for k in ("accuracy_all", "accuracy_shown", "wrong_shown", "settled_share")}
        if backtests:
            latest_any = max(backtests, key=lambda b: str(b.get("generated_at", "")))
            agreement = {
                "judge_agreement_percent": latest_any.get("judge_agreement"),
                "judge_kappa": latest_any.get("judge_kappa"),
                "note": "consistency between the two judges, not accuracy",
                "judges": "offline-rules" if latest_any.get("offline_rules", True) else "live",
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
            notice="Every verdict and score is machine-generated and unreviewed."
            + (" Outputs come from the deterministic offline model (offline-rules), not a live model." if settings.offline else ""),
        )

    def _summary(subject_id: str) -> SubjectSummary:
        coverage = store.coverage(subject_id)
        report = store.latest_report(subject_id)
        if coverage is None and report is None:
            raise not_found("subject")
        overall = report.overall if report else None
        return SubjectSummary(
            id=subject_id,
            name=(report.subject_name if report else coverage.name if coverage else subject_id),
            covered=(coverage.covered if coverage else report.covered if report else None),
            coverage_reasons=(coverage.reasons if coverage else report.coverage_reasons if report else []),
            report_generated_at=report.generated_at if report else None,
            stale=_stale(report.served_until) if report else None,
            overall_score=overall.score if overall else None,
            overall_interval=(
                [overall.interval_low, overall.interval_high]
                if overall and overall.interval_low is not None and overall.interval_high is not None
                else None
            ),
            overall_confidence=overall.confidence if overall else None,
        )

    @app.get("/v1/subjects", response_model=SubjectPage, responses=_ERRORS)
    def list_subjects(
        offset: int = Query(0, ge=0, le=1_000_000), limit: int = Query(50, ge=1, le=200)
    ) -> SubjectPage:
        """Subjects with their coverage state and latest report summary, paged."""
        ids = store.subject_ids()
        return SubjectPage(
            items=[_summary(s) for s in ids[offset : offset + limit]], total=len(ids), offset=offset, limit=limit
        )

    @app.get("/v1/subjects/{subject_id}", response_model=SubjectSummary, responses=_ERRORS)
    def get_subject(subject_id: str) -> SubjectSummary:
        return _summary(subject_id)

    def _envelope(subject_id: str) -> ReportEnvelope:
        report = store.latest_report(subject_id)
        if report is None:
            raise not_found("report")
        stale = _stale(report.served_until)
        return ReportEnvelope(
            stale=stale,
            refresh_requested_at=store.refresh_requested_at(subject_id) if stale else None,
            served_until=report.served_until,
            report=report,
        )

    @app.get("/v1/subjects/{subject_id}/report", response_model=ReportEnvelope, responses={**_ERRORS, 304: {}})
    def get_report(
        subject_id: str, response: Response, if_none_match: str | None = Header(default=None)
    ) -> ReportEnvelope | Response:
        """The full latest report; after 90 days served marked stale, with the date a refresh was requested."""
        envelope = _envelope(subject_id)
        etag = _etag(envelope.report.content_hash or sha256_hex(envelope.report.model_dump_json()), "-stale" if envelope.stale else "")
        if _not_modified(etag, if_none_match):
            return Response(status_code=304, headers={"ETag": etag})
        response.headers["ETag"] = etag
        response.headers["Cache-Control"] = "public, max-age=60"
        return envelope

    @app.get("/v1/subjects/{subject_id}/claims/{claim_id}", response_model=ClaimDetail, responses=_ERRORS)
    def get_claim(subject_id: str, claim_id: str) -> ClaimDetail:
        """One claim: quote and verification, criteria, evidence, both judges, basis, gate, rulings, responses."""
        envelope = _envelope(subject_id)
        claim = next((c for c in envelope.report.claims if c.get("claim_id") == claim_id or c.get("id") == claim_id), None)
        if claim is None:
            raise not_found("claim")
        return ClaimDetail(
            subject_id=subject_id,
            claim=claim,
            responses=[r for r in store.responses(subject_id) if r.claim_id == claim_id],
            steward_rulings=[r for r in store.rulings(subject_id) if r.claim_id == claim_id],
            report_id=envelope.report.id,
            stale=envelope.stale,
        )

    def _authorise(scope: str, authorization: str | None) -> str:
        token = bearer_token(authorization)
        if token is None:
            raise ApiError(401, "unauthenticated", "a bearer token is required", {"WWW-Authenticate": "Bearer"})
        # Checked before anything about the subject is looked up, so an
        # unauthenticated caller learns nothing about which subjects exist.
        if not token_is_valid(store.ledger, scope, token):
            raise ApiError(403, "forbidden", "this token may not write here")
        allowed, wait = limiter.allow(sha256_hex(token))
        if not allowed:
            raise ApiError(429, "rate_limited", "too many writes; slow down", {"Retry-After": str(int(wait) + 1)})
        return token

    @app.post(
        "/v1/subjects/{subject_id}/claims/{claim_id}/responses",
        response_model=SubjectResponse,
        status_code=201,
        responses=_ERRORS,
    )
    def post_response(
        subject_id: str, claim_id: str, body: ResponseIn, authorization: str | None = Header(default=None)
    ) -> SubjectResponse:
        """A subject's reply or correction, shown as "response received, not yet reviewed"."""
        _authorise(subject_id, authorization)
        get_claim(subject_id, claim_id)  # 404 for an unknown claim, only once authenticated
        now = settings.clock.now()
        response = SubjectResponse(
            id=stable_id("resp", subject_id, claim_id, body.body, now.isoformat()),
            subject_id=subject_id,
            claim_id=claim_id,
            body=body.body,
            received_at=now,
            method_version=_version(),
        )
        store.ledger.append(tables.RESPONSES_LEDGER, subject_id, [(response.id, response)])
        return response

    @app.get("/v1/steward/queue", responses=_ERRORS)
    def steward_queue(authorization: str | None = Header(default=None)) -> list[dict[str, Any]]:
        """The steward queue: every disputed or held claim plus a seeded random 10% of last week's verdicts."""
        _authorise(STEWARD_SCOPE, authorization)
        items: list[dict[str, Any]] = []
        for partition in store.warehouse.subjects(tables.STEWARD_QUEUE):
            items.extend(json.loads(text) for text in store.read_json(tables.STEWARD_QUEUE, partition))
        return items

    @app.post(
        "/v1/subjects/{subject_id}/claims/{claim_id}/rulings",
        response_model=StewardRuling,
        status_code=201,
        responses=_ERRORS,
    )
    def post_ruling(
        subject_id: str, claim_id: str, body: RulingIn, authorization: str | None = Header(default=None)
    ) -> StewardRuling:
        """A steward's ruling, applied to the next score computation."""
        _authorise(STEWARD_SCOPE, authorization)
        if body.action not in get_args(StewardAction):
            raise ApiError(422, "invalid_action", f"action must be one of {', '.join(get_args(StewardAction))}")
        get_claim(subject_id, claim_id)
        now = settings.clock.now()
        ruling = StewardRuling(
            id=stable_id("rul", subject_id, claim_id, body.action, body.steward, now.isoformat()),
            subject_id=subject_id,
            claim_id=claim_id,
            action=body.action,  # type: ignore[arg-type]
            steward=body.steward,
            ruled_at=now,
            reason=body.reason,
            new_verdict=body.new_verdict,
            method_version=_version(),
        )
        store.ledger.append(tables.RULINGS_LEDGER, subject_id, [(ruling.id, ruling)])
        return ruling

    return app
