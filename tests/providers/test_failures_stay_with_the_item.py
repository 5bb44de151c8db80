"""Issue 14 §2: a failure stays with the item it hit.

A refusal, an output still invalid after one repair, a truncation after the
retry, or a permanent provider error for one document or one claim is recorded
on that document or claim with its reason; the others go on. Every test drives
the real provider classes (Anthropic Messages API, OpenAI Responses API) at the
HTTP level through ``httpx2.MockTransport``, with the imperfect outputs real
models write: refusal objects, prose around JSON, cut-off JSON.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import dagster as dg
import httpx2
import pytest

from reliability_core.claims.criteria import freeze_criteria
from reliability_core.claims.extraction import ExtractionResult, extract_document, page_chunks
from reliability_core.clock import FixedClock
from reliability_core.models import ClaimVerdict, GateOutcome
from reliability_core.providers.anthropic_provider import AnthropicProvider
from reliability_core.providers.assignment import StepAssignment, limits_for
from reliability_core.providers.base import OFFLINE_NAME, ModelProvider
from reliability_core.providers.errors import ProviderUnreachableError
from reliability_core.providers.gateway import DEFAULT_PROMPTS_DIR, StepGateway
from reliability_core.providers.openai_provider import OpenAIProvider
from reliability_core.providers.retry import RetryPolicy
from reliability_core.scores.report import claim_counts
from reliability_core.scores.scoring import reason_not_scored
from reliability_core.stages import judge_claims, research_claims
from reliability_core.stand_in.model import OfflineRulesProvider
from reliability_core.warehouse import Ledger
from reliability_dagster.stage import run_async
from tests.claims.claim_builders import ENTRY, VERSION, make_document, make_snapshot, reading
from tests.providers.wire import (
    anthropic_error,
    anthropic_json_reply,
    anthropic_refusal_reply,
    anthropic_truncated_reply,
    openai_error,
    openai_response_reply,
)
from tests.verdicts.factories import MV, make_claim, make_criteria, make_item

CLOCK = FixedClock(datetime(2026, 11, 30, 12, 0, tzinfo=UTC))
Route = Callable[[str, dict[str, Any]], httpx2.Response]

ANTHROPIC_STEPS = (
    "confirm_identity",
    "decide_coverage",
    "extract_statements",
    "classify_statements",
    "write_criteria",
    "plan_research",
    "read_evidence",
    "judge_a",
)


def step_of(body: dict[str, Any]) -> str:
    """The step a request is for, from the first line of its prompt ("# Step: extract_statements")."""
    system = body.get("system")
    text = system[0]["text"] if isinstance(system, list) else str(body.get("instructions", ""))
    name = text.splitlines()[0].removeprefix("# Step: ").split(" ")[0]
    if name == "judge":
        return "judge_a" if "system" in body else "judge_b"
    return name


def user_text(body: dict[str, Any]) -> str:
    turns = body.get("messages") or body.get("input")
    return str(turns[0]["content"])


class Vendors:
    """Both vendors on one mocked transport: ``route(step, body)`` answers each request."""

    def __init__(self, route: Route) -> None:
        self.route = route
        self.steps: list[str] = []

    def handler(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        step = step_of(body)
        self.steps.append(step)
        return self.route(step, body)

    def gateway(self) -> StepGateway:
        client = httpx2.AsyncClient(transport=httpx2.MockTransport(self.handler))
        claude = AnthropicProvider("sk-ant-test", http_client=client)
        gpt = OpenAIProvider("sk-test", http_client=client)
        steps = (*ANTHROPIC_STEPS, "judge_b")
        assignment = {
            step: StepAssignment(
                provider="openai" if step == "judge_b" else "anthropic",
                model="gpt-6.1-sol" if step == "judge_b" else "claude-opus-5-5",
            )
            for step in steps
        }

        async def no_wait(_: float) -> None:
            return None

        providers: dict[str, ModelProvider] = {step: gpt if step == "judge_b" else claude for step in steps}
        # The steering check and the reviewer on the offline rules: these tests script the others.
        for step in ("detect_steering", "review_verdict"):
            assignment[step] = StepAssignment(provider=OFFLINE_NAME, model=OFFLINE_NAME)
            providers[step] = OfflineRulesProvider()
        return StepGateway(
            assignment,
            providers,
            prompts_dir=DEFAULT_PROMPTS_DIR,
            retry=RetryPolicy(max_attempts=2, sleep=no_wait, rng=random.Random(1)),
        )


# --- documents --------------------------------------------------------------------------------

QUOTE = "In 2021 we installed 1.2 GW of capacity"
PAGE = f'Northwind Energy held its results call.\n"{QUOTE}," said Anna Berg, chief executive.\n'
GOOD_DOC = "https://wire.example/2022/northwind"
BAD_DOC = "https://news.example/2022/northwind-interview"


def extracted() -> dict[str, Any]:
    return {
        "statements": [
            {"quote": QUOTE, "context": "said Anna Berg", "form": "direct_quote", "speaker_hint": "Anna Berg"}
        ],
        "private_life_omitted": 0,
    }


def classified() -> dict[str, Any]:
    return {"items": [reading(0).model_dump(mode="json")]}


async def extract_two(
    route_bad: Callable[[str], httpx2.Response],
) -> tuple[ExtractionResult, ExtractionResult]:
    """Two documents at once; the one at ``BAD_DOC`` gets ``route_bad(step)``."""

    def route(step: str, body: dict[str, Any]) -> httpx2.Response:
        if BAD_DOC in user_text(body):
            return route_bad(step)
        return anthropic_json_reply(extracted() if step == "extract_statements" else classified())

    gateway = Vendors(route).gateway()
    good, bad = await asyncio.gather(
        *(
            extract_document(
                document=make_document(url),
                snapshot=make_snapshot(PAGE, url=url),
                entry=ENTRY,
                gateway=gateway,
                clock=CLOCK,
                method_version=VERSION,
            )
            for url in (GOOD_DOC, BAD_DOC)
        )
    )
    return good, bad


async def test_a_refused_extraction_is_recorded_on_that_document_and_the_other_goes_on() -> None:
    good, bad = await extract_two(lambda step: anthropic_refusal_reply(category="general_harms"))

    assert [s.quote for s in good.statements] == [QUOTE]
    assert bad.statements == [] and bad.claims == []
    assert bad.read is not None and bad.read.failure is not None
    assert bad.read.failure.reason == "refused" and bad.read.failure.category == "general_harms"
    assert bad.read.failure.label() == "statement extraction refused"
    assert bad.read.failure.request_id == "req_011CTxRefusal0000000001"
    assert any("extraction failed: statement extraction refused" in note for note in bad.notes)
    assert good.read is not None and good.read.failure is None


async def test_output_still_invalid_after_the_repair_fails_only_that_document() -> None:
    prose = "I looked at the page. Berg talks about capacity; I would rather not list quotes."
    good, bad = await extract_two(lambda step: anthropic_json_reply(prose))

    assert good.statements and not bad.statements
    assert bad.read is not None and bad.read.failure is not None
    assert bad.read.failure.reason == "invalid output"


async def test_classification_truncated_after_the_retry_fails_only_that_document() -> None:
    def bad(step: str) -> httpx2.Response:
        if step == "extract_statements":
            return anthropic_json_reply(extracted())
        return anthropic_truncated_reply('{"items": [{"index": 0, "speaker": "Nor')

    good, failed = await extract_two(bad)

    assert good.statements and not failed.statements
    assert failed.read is not None and failed.read.failure is not None
    assert failed.read.failure.reason == "truncated"
    assert failed.read.failure.label() == "statement classification truncated"


def test_a_long_page_is_read_in_overlapping_chunks_and_a_cut_is_recorded() -> None:
    sentence = "Northwind said the farm at Baltic Three delivers power. "
    text = sentence * 4000  # about 224,000 characters
    chunks, covered = page_chunks(text, 60_000, max_chunks=5, overlap=2_000)
    assert covered == len(text) and len(chunks) == 4
    assert all(len(chunk) <= 60_000 for chunk in chunks)
    # Every sentence is whole in at least one chunk: boundaries overlap.
    for before, after in itertools.pairwise(chunks):
        assert before[-1_000:] in text and after[:500] in before
    cut, read = page_chunks(text, 30_000, max_chunks=2, overlap=1_000)
    assert len(cut) == 2 and read < len(text)


async def test_a_page_longer_than_the_extraction_limit_records_its_chunks_and_cut() -> None:
    limit = limits_for("extract_statements").max_input_chars
    filler = "The weather in the North Sea was calm that week. " * (limit * 6 // 49)
    page = f'"{QUOTE}," said Anna Berg.\n{filler}'
    sent: list[int] = []

    def route(step: str, body: dict[str, Any]) -> httpx2.Response:
        if step == "extract_statements":
            sent.append(len(user_text(body)))
            return anthropic_json_reply(extracted())
        return anthropic_json_reply(classified())

    result = await extract_document(
        document=make_document(),
        snapshot=make_snapshot(page),
        entry=ENTRY,
        gateway=Vendors(route).gateway(),
        clock=CLOCK,
        method_version=VERSION,
    )

    assert result.read is not None and result.read.chunks == 5 and result.read.cut
    assert result.read.text_chars == len(page) and result.read.chars_read < len(page)
    assert len(sent) == 5 and max(sent) < limit + 5_000  # no call carries the whole page
    assert [s.quote for s in result.statements] == [QUOTE]  # the overlap's repeat kept once
    assert any("page text cut" in note for note in result.notes)


# --- claims -----------------------------------------------------------------------------------


def judge_answer(verdict: str = "true") -> dict[str, Any]:
    """A complete judge answer: every field of the current schema, as a structured-output model writes it."""
    from reliability_core.verdicts.judge_input import JudgeOutput

    answer = JudgeOutput.model_validate(
        {
            "verdict": verdict,
            "confidence": 0.9,
            "basis": "independent_source",
            "rationale": "The register confirms it.",
            "cited_evidence_ids": ["a", "b"],
        }
    )
    return answer.model_dump(mode="json")


def evidence_for(claim_id: str) -> list[Any]:
    return [
        make_item("a", claim_id=claim_id),
        make_item("b", claim_id=claim_id, source_class="established_newsroom"),
    ]


async def judge_one(route: Route, claim_id: str = "clm_1") -> ClaimVerdict:
    from reliability_core.verdicts.evidence import EvidenceResult

    claim = make_claim(id=claim_id)
    [verdict] = await judge_claims(
        claims=[claim],
        criteria=[make_criteria(claim_id=claim_id)],
        research=[
            EvidenceResult(claim_id=claim_id, items=evidence_for(claim_id), result_sets=[], snapshots=[])
        ],
        gateway=Vendors(route).gateway(),
        clock=CLOCK,
        method_version=MV,
    )
    return verdict


async def test_judge_a_refusal_makes_the_claim_unresolvable_with_reason_judge_a_refused() -> None:
    def route(step: str, body: dict[str, Any]) -> httpx2.Response:
        if step == "judge_a":
            return anthropic_refusal_reply(category="cyber", explanation="could enable cyber harm")
        return openai_response_reply(json.dumps(judge_answer()))

    verdict = await judge_one(route)

    assert verdict.verdict == "unresolvable"
    assert verdict.model_failure == "judge A refused"
    assert verdict.reason.startswith("judge A refused")
    assert verdict.judge_a is None and verdict.judge_b is None
    assert reason_not_scored(make_claim(), True, verdict) == "unresolvable: judge A refused"


async def test_judge_a_truncated_after_the_retry_is_recorded_as_truncated() -> None:
    def route(step: str, body: dict[str, Any]) -> httpx2.Response:
        if step == "judge_a":
            return anthropic_truncated_reply('{"verdict": "true", "confidence": 0.9, "basis": "indep')
        return openai_response_reply(json.dumps(judge_answer()))

    verdict = await judge_one(route)

    assert verdict.verdict == "unresolvable" and verdict.model_failure == "judge A truncated"


async def test_judge_b_permanent_provider_error_makes_the_claim_unresolvable() -> None:
    def route(step: str, body: dict[str, Any]) -> httpx2.Response:
        if step == "judge_a":
            return anthropic_json_reply(judge_answer())
        return openai_error(400, "invalid_request_error")

    verdict = await judge_one(route)

    assert verdict.verdict == "unresolvable" and verdict.model_failure == "judge B provider error"


async def test_a_criteria_failure_for_one_claim_leaves_only_that_claim_unresolvable(ledger: Ledger) -> None:
    claims = [make_claim(id="clm_ok"), make_claim(id="clm_bad", quote="We will double output by 2024.")]
    criteria_reply = {
        "levels": {
            "true": "8 GW or more installed by 31 December 2024",
            "mostly_true": "7.6 to 8 GW installed",
            "mixed": "6 to 7.6 GW installed",
            "mostly_false": "4 to 6 GW installed",
            "false": "less than 4 GW installed",
        },
        "judge_at": "2024-12-31",
        "numeric": None,
    }

    def route(step: str, body: dict[str, Any]) -> httpx2.Response:
        if step == "write_criteria":
            if "double output" in user_text(body):
                return anthropic_error(400, "invalid_request_error")
            return anthropic_json_reply(criteria_reply)
        if step == "plan_research":
            return anthropic_json_reply({"queries_for": [], "queries_against": []})
        raise AssertionError(f"unexpected step {step}")

    vendors = Vendors(route)
    gateway = vendors.gateway()
    failures: list[Any] = []
    frozen = await freeze_criteria(
        claims=claims,
        gateway=gateway,
        ledger=ledger,
        clock=CLOCK,
        method_version=MV,
        failures=failures,
    )
    assert [c.claim_id for c in frozen] == ["clm_ok"]
    assert [(f.item_id, f.reason) for f in failures] == [("clm_bad", "provider error")]

    class NoSearch:
        async def search(self, *args: Any) -> Any:
            raise AssertionError("no search without queries")

    class NoFetch:
        async def snapshot(self, url: str, method_version: str) -> Any:
            raise AssertionError("nothing to fetch")

    research = await research_claims(
        claims=claims,
        criteria=frozen,
        own_sources=[],
        entry=ENTRY,
        gateway=gateway,
        search=NoSearch(),  # type: ignore[arg-type]
        fetcher=NoFetch(),
        clock=CLOCK,
        method_version=MV,
        criteria_failures=failures,
    )
    by_claim = {r.claim_id: r for r in research}
    assert by_claim["clm_bad"].failure is not None and by_claim["clm_ok"].failure is None

    verdicts = await judge_claims(
        claims=claims, criteria=frozen, research=research, gateway=gateway, clock=CLOCK, method_version=MV
    )
    by_id = {v.claim_id: v for v in verdicts}
    assert by_id["clm_bad"].verdict == "unresolvable"
    assert by_id["clm_bad"].model_failure == "criteria writer provider error"
    assert by_id["clm_ok"].model_failure == ""  # no evidence found: unresolvable for that reason only
    assert "judge_a" not in vendors.steps  # nothing to judge without evidence


async def test_a_failed_evidence_page_is_skipped_with_its_reason_and_the_other_pages_still_count() -> None:
    from reliability_core.verdicts.evidence import gather_evidence
    from tests.verdicts.builders import (
        NORTHWIND,
        OWN_TEXT,
        OWN_URL,
        WIRE,
        FakeFetcher,
        search_returning,
        snapshot,
    )

    other = "https://dailyledger.example/nw-2025"
    wire = "https://wire.example/nw-2025"
    LEDGER = (
        "Our reporters found that Northwind did not have 8 GW of offshore wind installed by the end "
        "of 2024. Turbine deliveries to Baltic Three slipped into 2025 and the company now guides to "
        "full capacity by the summer, its chief executive told analysts on a call in January 2025."
    )

    def route(step: str, body: dict[str, Any]) -> httpx2.Response:
        if step == "plan_research":
            return anthropic_json_reply({"queries_for": ["nw capacity 2024"], "queries_against": []})
        if step == "read_evidence":
            if other in user_text(body):
                return anthropic_refusal_reply(category=None, explanation=None)
            quote = WIRE.split(". ")[0] + "."
            return anthropic_json_reply(
                {
                    "items": [
                        {
                            "quote": quote,
                            "published_date": "2025-01-15",
                            "published_at": None,
                            "observed_value": None,
                            "stance": "contradicts",
                            "kind": "outcome",
                        }
                    ]
                }
            )
        raise AssertionError(step)

    result = await gather_evidence(
        claim=make_claim(url=OWN_URL),
        criteria=make_criteria(),
        own_source=snapshot(OWN_URL, OWN_TEXT),
        gateway=Vendors(route).gateway(),
        search=search_returning({"nw capacity 2024": [wire, other]}),
        # The other page tells its own story (a copy of the wire's would not be read at all:
        # the same story counts once).
        fetcher=FakeFetcher({wire: snapshot(wire, WIRE), other: snapshot(other, LEDGER)}),
        clock=CLOCK,
        method_version=MV,
        subject=NORTHWIND,
    )

    assert result.failure is None, result
    assert [i.url for i in result.items] == [wire], (result.skipped, result.items)
    [skip] = [s for s in result.skipped if s.url == other]
    assert skip.reason.startswith("evidence reader refused")


async def test_coverage_a_model_could_not_decide_is_not_covered_with_the_reason(clock: FixedClock) -> None:
    from reliability_core.subjects.coverage import assess_coverage
    from tests.search_fakes import FakeSearch
    from tests.subjects.test_coverage import NORTHWIND, NORTHWIND_HITS

    def route(step: str, body: dict[str, Any]) -> httpx2.Response:
        if step == "confirm_identity":
            # Cut off twice: the retry with a larger budget is cut off too.
            return anthropic_truncated_reply('{"same_subject": true, "matching_urls": ["https://north')
        raise AssertionError(f"no {step} after the identity step failed")

    outcome = await assess_coverage(
        NORTHWIND, Vendors(route).gateway(), FakeSearch({}, default=NORTHWIND_HITS), clock, "v1"
    )

    assert not outcome.decision.covered
    assert outcome.failure is not None and outcome.failure.reason == "truncated"
    assert outcome.decision.reasons[0].startswith("coverage could not be decided: identity step truncated")
    assert outcome.result_sets  # the identity searches are still kept


# --- counted and shown; the one case that fails the subject ------------------------------------


def test_model_failures_are_counted_in_the_report() -> None:
    from reliability_core.claims.extraction import DocumentRead
    from reliability_core.models import SampleMembership
    from reliability_core.providers.failures import ModelFailure

    claim = make_claim()
    failed = ClaimVerdict(
        method_version=MV,
        claim_id=claim.id,
        subject_id=claim.subject_id,
        verdict="unresolvable",
        judge_a=None,
        judge_b=None,
        judges_disagree=False,
        basis="nothing",
        gate=GateOutcome(shown=True),
        reason="judge A refused",
        decided_at=CLOCK.now(),
        model_failure="judge A refused",
    )
    failure = ModelFailure(
        subject_id="northwind",
        item_kind="document",
        item_id="doc_2",
        step="extract_statements",
        reason="refused",
    )
    reads = [
        DocumentRead(
            subject_id="northwind", document_id="doc_1", url="u1", text_chars=10, chars_read=10, chunks=1
        ),
        DocumentRead(
            subject_id="northwind",
            document_id="doc_2",
            url="u2",
            text_chars=10,
            chars_read=0,
            chunks=1,
            failure=failure,
        ),
        DocumentRead(
            subject_id="northwind", document_id="doc_3", url="u3", text_chars=9, chars_read=5, chunks=5
        ),
    ]
    membership = SampleMembership(
        method_version=MV,
        claim_id=claim.id,
        subject_id=claim.subject_id,
        claim_type=claim.claim_type,
        triage=claim.triage,
        sampled=True,
        position=0,
        seed=1,
        reason="sampled",
    )
    counts = claim_counts([], [], [claim], [membership], [failed], reads)

    assert counts.model_failures == 1 and counts.unresolvable == 1
    assert counts.documents_failed == 1 and counts.documents_cut == 1


async def test_a_provider_that_cannot_be_reached_fails_the_asset_with_one_clear_line() -> None:
    async def unreachable() -> None:
        raise ProviderUnreachableError(
            "provider 'anthropic' cannot be reached: 5 connection attempts failed at step 'judge_a': refused\n"
            "Traceback noise",
            step="judge_a",
            provider="anthropic",
            attempts=5,
        )

    with pytest.raises(dg.Failure) as info:
        await asyncio.to_thread(run_async, unreachable())
    assert info.value.description == (
        "provider 'anthropic' cannot be reached: 5 connection attempts failed at step 'judge_a': refused"
    )
