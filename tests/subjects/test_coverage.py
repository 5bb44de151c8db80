"""Step 1: identity confirmation and the coverage decision."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import BaseModel

from reliability_core.clock import FixedClock
from reliability_core.models import IdentityEvidence, RegistryEntry, SearchResultSet
from reliability_core.models.subjects import SubjectKind
from reliability_core.providers.anthropic_provider import AnthropicProvider
from reliability_core.providers.assignment import StepAssignment
from reliability_core.providers.gateway import DEFAULT_PROMPTS_DIR, StepGateway
from reliability_core.providers.openai_provider import OpenAIProvider
from reliability_core.stand_in.rules.coverage import confirm_identity, decide_coverage
from reliability_core.subjects.coverage import (
    ConfirmIdentityInput,
    ConfirmIdentityOutput,
    DecideCoverageInput,
    DecideCoverageOutput,
    IdentityHit,
    assess_coverage,
    coverage_allowed,
    identity_evidence_is_thin,
    identity_hits,
    identity_queries,
    stored_identity_evidence,
)
from reliability_core.subjects.registry import load_registry
from tests.providers.wire import Scripted2, anthropic_json_reply, openai_response_reply
from tests.search_fakes import RETRIEVED, FakeGateway, FakeSearch, demo_world, result

NORTHWIND = RegistryEntry(
    id="northwind",
    name="Northwind Energy",
    kind="company",
    urls=["https://northwind.example/"],
    aliases=["Northwind"],
    description="Offshore wind developer",
)
NORTHWIND_HITS = [
    result(
        "https://northwind.example/about",
        "About Northwind Energy",
        "Northwind Energy is an offshore wind company.",
    ),
    result(
        "https://wire.example/nw",
        "Northwind Energy raises target",
        "The listed company said it will build more.",
        rank=2,
    ),
    result(
        "https://bakery.example/", "Northwind Bakery", "Not to be confused with Northwind Energy.", rank=3
    ),
]


def offline_gateway() -> FakeGateway:
    return FakeGateway(
        {"confirm_identity": confirm_identity, "decide_coverage": decide_coverage}, "offline-rules"
    )


def rules(**overrides: Any) -> dict[str, Any]:
    base: dict[str, Any] = dict(
        identity_confirmed=True,
        evidence_thin=False,
        is_public_figure_or_organisation=True,
        is_serving_politician=False,
        model_says_cover=True,
        registry_kind="company",
        documented_consent=False,
    )
    base.update(overrides)
    return base


def evidence(*urls_and_snippets: tuple[str, str]) -> list[IdentityEvidence]:
    return [IdentityEvidence(url=u, title="Jane Roe", snippet=s) for u, s in urls_and_snippets]


# --- code-side rules ---------------------------------------------------------------------------


def test_public_organisation_with_confirmed_identity_is_covered() -> None:
    ruling = coverage_allowed(**rules())
    assert ruling.covered
    assert ruling.reasons


def test_serving_politician_is_refused_even_when_the_model_says_cover() -> None:
    ruling = coverage_allowed(**rules(is_serving_politician=True, model_says_cover=True))
    assert not ruling.covered
    assert any("serving politician" in r for r in ruling.reasons)


def test_registry_politician_is_refused_even_when_the_evidence_shows_no_office() -> None:
    kind: SubjectKind = "politician"
    ruling = coverage_allowed(**rules(registry_kind=kind, is_serving_politician=False))
    assert not ruling.covered
    assert any("registry" in r for r in ruling.reasons)


def test_thin_evidence_means_no_coverage() -> None:
    ruling = coverage_allowed(**rules(evidence_thin=True))
    assert not ruling.covered
    assert any("thin evidence" in r for r in ruling.reasons)


def test_unconfirmed_identity_means_no_coverage() -> None:
    assert not coverage_allowed(**rules(identity_confirmed=False)).covered


def test_non_public_person_is_covered_only_with_documented_consent() -> None:
    private: SubjectKind = "private_person"
    assert not coverage_allowed(**rules(registry_kind=private, documented_consent=False)).covered
    with_consent = coverage_allowed(**rules(registry_kind=private, documented_consent=True))
    assert with_consent.covered
    assert "consent" in with_consent.reasons[0]
    assert not coverage_allowed(**rules(is_public_figure_or_organisation=False)).covered


def test_the_decision_step_may_refuse_but_never_cover_what_the_rules_refuse() -> None:
    assert not coverage_allowed(**rules(model_says_cover=False)).covered


def test_identity_evidence_from_one_site_is_thin() -> None:
    one_site = evidence(("https://jane.example/a", "x"), ("https://www.jane.example/b", "y"))
    assert identity_evidence_is_thin(one_site)
    assert not identity_evidence_is_thin([*one_site, *evidence(("https://wire.example/j", "z"))])
    assert identity_evidence_is_thin([])


def test_identity_evidence_keeps_only_urls_search_returned() -> None:
    search_hits = [result("https://wire.example/a", "Jane Roe")]
    result_set = SearchResultSet(
        method_version="v",
        id="srs_1",
        subject_id="jane-roe",
        purpose="identity",
        query="Jane Roe",
        provider="fake",
        retrieved_at=RETRIEVED,
        results=search_hits,
    )
    kept = stored_identity_evidence(
        identity_hits([result_set]), ["https://wire.example/a", "https://invented.example/x"], [result_set]
    )
    assert [e.url for e in kept] == ["https://wire.example/a"]


def test_identity_queries_cover_the_name_and_aliases() -> None:
    assert [q.query for q in identity_queries(NORTHWIND)] == ["Northwind Energy", "Northwind"]


# --- offline handlers ----------------------------------------------------------------------------


def test_offline_identity_excludes_a_namesake_and_confirms_by_the_registry_site() -> None:
    hits = NORTHWIND_HITS
    out = confirm_identity(
        ConfirmIdentityInput(
            subject_id="northwind",
            name=NORTHWIND.name,
            aliases=NORTHWIND.aliases,
            registry_urls=NORTHWIND.urls,
            hits=[IdentityHit(url=h.url, title=h.title, snippet=h.snippet) for h in hits],
        )
    )
    assert out.same_subject
    assert out.matching_urls == ["https://northwind.example/about", "https://wire.example/nw"]
    assert out.other_subject_urls == ["https://bakery.example/"]


def test_offline_identity_is_not_confirmed_when_no_hit_names_the_subject() -> None:
    out = confirm_identity(
        ConfirmIdentityInput(
            subject_id="x",
            name="Jane Roe",
            hits=[IdentityHit(url="https://a.example/", title="Someone else")],
        )
    )
    assert not out.same_subject
    assert out.matching_urls == []


def decide(items: list[IdentityEvidence], consent: bool = False) -> DecideCoverageOutput:
    return decide_coverage(
        DecideCoverageInput(
            subject_id="jane-roe", name="Jane Roe", evidence=items, documented_consent=consent
        )
    )


def test_offline_decision_flags_a_serving_minister() -> None:
    out = decide(evidence(("https://wire.example/a", "Jane Roe, the energy minister, said on Monday")))
    assert out.is_serving_politician
    assert not out.covered


def test_offline_decision_does_not_flag_a_former_minister() -> None:
    out = decide(
        evidence(("https://wire.example/a", "Jane Roe, a former minister, is now chief executive of Acme"))
    )
    assert not out.is_serving_politician
    assert out.is_public_figure_or_organisation
    assert out.covered


def test_offline_decision_needs_consent_for_a_private_person() -> None:
    items = evidence(
        ("https://blog.example/a", "Jane Roe is a private individual who writes about gardening")
    )
    assert not decide(items).covered
    consented = decide(items, consent=True)
    assert not consented.is_public_figure_or_organisation
    assert consented.covered


def test_offline_decision_without_evidence_does_not_cover() -> None:
    out = decide([])
    assert not out.covered
    assert not out.is_public_figure_or_organisation


# --- the whole step --------------------------------------------------------------------------------


async def test_assess_coverage_covers_a_confirmed_public_company_and_stores_the_evidence(
    clock: FixedClock,
) -> None:
    search = FakeSearch({}, default=NORTHWIND_HITS)
    gateway = offline_gateway()
    outcome = await assess_coverage(NORTHWIND, gateway, search, clock, "v1")
    decision = outcome.decision
    assert decision.covered, decision.reasons
    assert decision.identity_confirmed
    assert [e.url for e in decision.evidence] == [
        "https://northwind.example/about",
        "https://wire.example/nw",
    ]
    assert decision.decided_by == "offline-rules"
    assert decision.decided_at == clock.now()
    assert len(outcome.result_sets) == 2
    assert {purpose for _, purpose, _ in search.calls} == {"identity"}


async def test_decision_step_sees_only_the_identity_evidence(clock: FixedClock) -> None:
    gateway = offline_gateway()
    await assess_coverage(NORTHWIND, gateway, FakeSearch({}, default=NORTHWIND_HITS), clock, "v1")
    payload = gateway.payloads["decide_coverage"]
    assert isinstance(payload, DecideCoverageInput)
    assert set(DecideCoverageInput.model_fields) == {
        "subject_id",
        "name",
        "aliases",
        "evidence",
        "documented_consent",
    }
    assert "bakery.example" not in payload.model_dump_json()


async def test_assess_coverage_refuses_a_politician_the_model_would_cover(clock: FixedClock) -> None:
    minister = RegistryEntry(id="jane-roe", name="Jane Roe", kind="politician")
    hits = [
        result("https://wire.example/a", "Jane Roe", "Jane Roe, the author, spoke."),
        result("https://news.example/b", "Jane Roe", "Jane Roe, the author, spoke.", rank=2),
    ]
    gateway = FakeGateway(
        {
            "confirm_identity": lambda p: ConfirmIdentityOutput(
                same_subject=True, matching_urls=[h.url for h in hits]
            ),
            "decide_coverage": lambda p: DecideCoverageOutput(
                is_public_figure_or_organisation=True, is_serving_politician=False, covered=True
            ),
        }
    )
    outcome = await assess_coverage(minister, gateway, FakeSearch({}, default=hits), clock, "v1")
    assert not outcome.decision.covered
    assert outcome.decision.is_serving_politician


async def test_assess_coverage_refuses_thin_evidence(clock: FixedClock) -> None:
    hits = [result("https://northwind.example/about", "About Northwind Energy", "An offshore wind company.")]
    outcome = await assess_coverage(NORTHWIND, offline_gateway(), FakeSearch({}, default=hits), clock, "v1")
    assert not outcome.decision.covered
    assert any("thin evidence" in r for r in outcome.decision.reasons)


async def test_assess_coverage_covers_a_consenting_private_person(clock: FixedClock) -> None:
    person = RegistryEntry(id="sam-poe", name="Sam Poe", kind="private_person", consent=True)
    hits = [
        result(
            "https://sampoe.example/", "Sam Poe", "Sam Poe is a private individual writing about forecasts."
        ),
        result(
            "https://club.example/p", "Sam Poe talk", "Sam Poe, a private citizen, spoke at the club.", rank=2
        ),
    ]
    outcome = await assess_coverage(person, offline_gateway(), FakeSearch({}, default=hits), clock, "v1")
    assert outcome.decision.covered, outcome.decision.reasons
    assert outcome.decision.has_consent
    no_consent = person.model_copy(update={"consent": False})
    refused = await assess_coverage(no_consent, offline_gateway(), FakeSearch({}, default=hits), clock, "v1")
    assert not refused.decision.covered


# --- the demo corpus -------------------------------------------------------------------------------


async def test_coverage_over_the_demo_registry_agrees_with_the_answer_key(clock: FixedClock) -> None:
    gateway, search, key = demo_world(clock)
    entries = load_registry()
    agree = 0
    for entry in entries:
        outcome = await assess_coverage(entry, gateway, search, clock, "test")
        expected = key[entry.id]["expected_coverage"] == "covered"
        agree += outcome.decision.covered == expected
        assert outcome.decision.decided_by == "offline-rules"
        assert outcome.decision.reasons
    assert agree == len(entries), f"coverage agreement {agree}/{len(entries)}"


# --- the live providers' interfaces (mocked HTTP) ---------------------------------------------------


async def test_coverage_runs_on_live_provider_interfaces_with_the_real_prompts(clock: FixedClock) -> None:
    script = Scripted2(
        anthropic_json_reply(
            {
                "same_subject": True,
                "matching_urls": ["https://northwind.example/about", "https://wire.example/nw"],
                "other_subject_urls": ["https://bakery.example/"],
                "reasons": ["two hits name Northwind Energy; one is a bakery namesake"],
            }
        ),
        openai_response_reply(
            json.dumps(
                {
                    "is_public_figure_or_organisation": True,
                    "is_serving_politician": False,
                    "covered": True,
                    "reasons": ["a listed offshore wind company"],
                }
            )
        ),
    )
    gateway = StepGateway(
        {
            "confirm_identity": StepAssignment(provider="anthropic", model="claude-haiku-test"),
            "decide_coverage": StepAssignment(provider="openai", model="gpt-test"),
        },
        {
            "confirm_identity": AnthropicProvider("sk-ant-test", http_client=script.client()),
            "decide_coverage": OpenAIProvider("sk-test", http_client=script.client()),
        },
        prompts_dir=DEFAULT_PROMPTS_DIR,
    )
    outcome = await assess_coverage(NORTHWIND, gateway, FakeSearch({}, default=NORTHWIND_HITS), clock, "v1")
    assert outcome.decision.covered
    assert outcome.decision.decided_by == "gpt-test"
    identity_body, decision_body = script.bodies()
    assert identity_body["system"][0]["text"] == (DEFAULT_PROMPTS_DIR / "confirm_identity.md").read_text(
        encoding="utf-8"
    )
    assert decision_body["instructions"] == (DEFAULT_PROMPTS_DIR / "decide_coverage.md").read_text(
        encoding="utf-8"
    )
    assert "bakery.example" not in json.dumps(decision_body["input"])


@pytest.mark.parametrize(
    ("template", "output_type", "quotes"),
    [
        ("confirm_identity", ConfirmIdentityOutput, ["point to one subject", "never used"]),
        (
            "decide_coverage",
            DecideCoverageOutput,
            ["Serving politicians and officials in post", "documented", "When the evidence is thin"],
        ),
    ],
)
def test_prompt_templates_quote_the_rules_and_name_every_output_field(
    template: str, output_type: type[BaseModel], quotes: list[str]
) -> None:
    text = (DEFAULT_PROMPTS_DIR / f"{template}.md").read_text(encoding="utf-8")
    for quote in quotes:
        assert quote in text
    for field in output_type.model_fields:
        assert f"`{field}`" in text
