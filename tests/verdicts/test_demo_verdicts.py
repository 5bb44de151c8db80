"""End to end on the demo corpus with the offline providers: evidence and verdicts for one
subject's answer-key claims. Asserts the mechanical rules only; agreement of the offline
judges with the answer key is printed as a figure, not asserted."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any, TypeVar

import pytest
import yaml
from pydantic import BaseModel

from reliability_core.claims.criteria import CriteriaOutput, build_criteria, criteria_input_for
from reliability_core.clock import FixedClock
from reliability_core.models import Claim, RegistryEntry
from reliability_core.providers.base import ModelGateway
from reliability_core.stand_in.web import offline_fetcher
from reliability_core.subjects.candidates import urls_returned_by_search
from reliability_core.verdicts.sources import classify_source, subject_domains
from reliability_core.web.urls import canonical_url
from reliability_core.wiring import build_gateway, build_search
from tests.verdicts.builders import gather_and_judge

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "data" / "corpus"
SUBJECT = "northwind-energy"
MV = "0.1.0+offline-rules"
OutT = TypeVar("OutT", bound=BaseModel)


class CountingGateway:
    """The offline gateway, counting judge calls."""

    def __init__(self, inner: ModelGateway) -> None:
        self.inner = inner
        self.judge_calls = 0

    async def run(self, step: str, payload: BaseModel, output_type: type[OutT]) -> OutT:
        if step in ("judge_a", "judge_b"):
            self.judge_calls += 1
        return await self.inner.run(step, payload, output_type)

    def model_for(self, step: str) -> str:
        return self.inner.model_for(step)


def restatement(quote: str, name: str, speaker: str) -> str:
    """A self-contained restatement from the answer key (first person replaced by the speaker)."""
    text = re.sub(r"\b([Ww]e|us)\b", name, quote)
    text = re.sub(r"\b[Oo]ur\b", f"{name}'s", text)
    return re.sub(r"\bI\b", speaker or name, text)


def claim_from_key(row: dict[str, Any], subject: RegistryEntry) -> Claim:
    name = subject.name.removesuffix(" A/S")
    return Claim(
        method_version=MV,
        id=row["id"],
        statement_id=row["id"],
        subject_id=subject.id,
        document_id=row["document_url"],
        url=row["document_url"],
        quote=row["quote"],
        quote_verified=True,
        speaker=subject.id,
        claim_type=row["type"],
        restatement=restatement(row["quote"], name, row.get("attributed_name") or ""),
        made_on=date.fromisoformat(str(row["made_on"])),
        deadline=date.fromisoformat(str(row["deadline"])) if row.get("deadline") else None,
        triage="resolvable_now",
        triage_reason="answer key",
        classified_by="answer-key",
    )


@pytest.mark.slow
async def test_demo_subject_verdicts_follow_the_mechanical_rules(clock: FixedClock) -> None:
    env = {"RELIABILITY_OFFLINE": "1"}
    gateway = CountingGateway(build_gateway(env, None))
    search = build_search(env, CORPUS, clock=clock)
    fetcher = offline_fetcher(CORPUS, clock)
    key = yaml.safe_load((CORPUS / "answer_key.yaml").read_text(encoding="utf-8"))
    registry = {
        r["id"]: RegistryEntry(**r) for r in yaml.safe_load((ROOT / "data" / "subjects.yaml").read_text())
    }
    subject = registry[SUBJECT]
    rows = [r for r in key["statements"] if r["subject_id"] == SUBJECT and r.get("verdict") and r.get("type")]
    assert rows, "the answer key has no verdicts for the demo subject"
    agree = shown = disagree = 0
    for row in rows:
        claim = claim_from_key(row, subject)
        proposed = await gateway.run(
            "write_criteria", criteria_input_for(claim, subject.name), CriteriaOutput
        )
        criteria = build_criteria(
            claim, proposed, written_at=clock.now(), written_by="offline-rules", method_version=MV
        )
        own = await fetcher.snapshot(claim.url, MV)
        before = gateway.judge_calls  # gathering evidence calls no judge
        evidence, verdict = await gather_and_judge(
            gateway=gateway,
            search=search,
            fetcher=fetcher,
            clock=clock,
            claim=claim,
            criteria=criteria,
            own_source=own,
            subject=subject,
            method_version=MV,
        )
        returned = urls_returned_by_search(evidence.result_sets)
        admitted = [i for i in evidence.items if not i.excluded]
        not_evidence = {canonical_url(n["url"]) for n in row.get("not_evidence") or []}
        # Only pages search returned were opened, and the claim's own source never.
        assert all(canonical_url(s.url) in returned for s in evidence.snapshots)
        assert canonical_url(claim.url) not in {canonical_url(s.url) for s in evidence.snapshots}
        for item in admitted:
            assert item.quote_verified
            assert canonical_url(item.url) not in not_evidence, (row["id"], item.url)
            assert classify_source(
                item.url, subject_names=[subject.name, *subject.aliases], own_domains=subject_domains(subject)
            ).accepted
        # No verified evidence: no judge. Otherwise exactly two judges with one input.
        expected_calls = 0 if verdict.judge_a is None else 2
        assert gateway.judge_calls - before == expected_calls
        if not admitted:
            assert verdict.verdict == "unresolvable" and verdict.basis == "nothing"
        assert set(verdict.evidence_ids) <= {i.id for i in admitted}
        assert verdict.gate.shown == (not verdict.gate.failed)
        if verdict.steering_detected:
            assert not verdict.gate.shown  # a detected attempt blocks display
        agree += verdict.verdict == row["verdict"]
        shown += verdict.gate.shown and verdict.verdict != "unresolvable"
        disagree += verdict.judges_disagree
    print(
        f"\n[demo verdicts] {SUBJECT}: offline agreement with the answer key {agree}/{len(rows)}"
        f" ({agree / len(rows):.0%}); scored verdicts shown {shown}; judges disagree {disagree}"
    )
