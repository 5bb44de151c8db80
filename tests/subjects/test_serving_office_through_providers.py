"""Issue 24 item 2: a serving official is never covered because the decision step said "not a
politician". The identity and decision steps' answers are scripted at the Anthropic SDK's
transport of the live provider class; ``coverage.assess_coverage`` runs them, and code reads
the identity evidence for an office held now (``coverage.serving_office_in_evidence``)."""

from __future__ import annotations

import json

import pytest

from reliability_core.clock import FixedClock
from reliability_core.models import IdentityEvidence, RegistryEntry
from reliability_core.subjects.coverage import assess_coverage, serving_office_in_evidence
from reliability_core.wiring import build_gateway
from tests.providers.wire import Scripted2, anthropic_json_reply
from tests.search_fakes import FakeSearch, result

ROE = RegistryEntry(id="jane-roe", name="Jane Roe", kind="public_figure", urls=["https://janeroe.example/"])


def _hits(first: str, second: str) -> list:  # type: ignore[type-arg]
    return [
        result("https://janeroe.example/about", "Jane Roe", first),
        result("https://news.example/roe", "Jane Roe", second, rank=2),
    ]


async def _assess(first: str, second: str, clock: FixedClock) -> tuple[bool, list[str]]:
    hits = _hits(first, second)
    script = Scripted2(
        anthropic_json_reply({"same_subject": True, "matching_urls": [h.url for h in hits],
                              "other_subject_urls": [], "reasons": ["both hits are about Jane Roe"]}),
        # The decision step's mistake: "not a politician", covered.
        anthropic_json_reply(json.dumps({"is_public_figure_or_organisation": True, "is_serving_politician": False,
                                         "covered": True, "reasons": ["a well-known economist"]})),
    )  # fmt: skip
    gateway = build_gateway({"ANTHROPIC_API_KEY": "sk-ant-test"}, None, http_client=script.client())
    outcome = await assess_coverage(ROE, gateway, FakeSearch({}, default=hits), clock, "v1")
    assert not script.replies, "both model steps ran through the provider class"
    return outcome.decision.covered, outcome.decision.reasons


SERVING = [
    ("Jane Roe, Denmark's minister for business, spoke at the summit.", "en"),
    ("Erhvervsminister Jane Roe præsenterede planen i går.", "da"),
    ("Stortingsrepresentant Jane Roe stilte spørsmål til regjeringen.", "no"),
    ("Riksdagsledamoten Jane Roe kritiserade förslaget.", "sv"),
    ("Jane Roe, Präsidentin der Deutschen Bundesbank, warnte vor Inflation.", "de"),
    ("La maire Jane Roe a inauguré le pont.", "fr"),
    ("La jueza Jane Roe dictó sentencia el lunes.", "es"),
    ("L'ambasciatrice Jane Roe ha incontrato il ministro.", "it"),
    ("Burgemeester Jane Roe opende het nieuwe station.", "nl"),
    ("A comissária europeia Jane Roe apresentou a proposta.", "pt"),
    ("Posłanka Jane Roe zabrała głos w Sejmie.", "pl"),
    ("Jane Roe has chaired the Financial Conduct Authority since 2024.", "en regulator"),
]


@pytest.mark.parametrize(("snippet", "language"), SERVING, ids=[lang for _, lang in SERVING])
async def test_an_office_held_now_in_the_evidence_refuses_coverage_whatever_the_model_said(
    snippet: str, language: str, clock: FixedClock
) -> None:
    covered, reasons = await _assess(snippet, "Jane Roe is a well-known economist and author.", clock)
    assert not covered, reasons
    assert any("office held now" in r and "decision step said not a serving politician" in r for r in reasons)


ENDED = [
    "Former finance minister Jane Roe is now a professor and author.",
    "Tidligere erhvervsminister Jane Roe er i dag forfatter og økonom.",
    "Die ehemalige Bundesministerin Jane Roe schreibt heute Bücher.",
    "L'ancienne ministre Jane Roe est économiste et auteure.",
    "La exministra Jane Roe es economista y autora.",
    "Jane Roe was governor of the Bank of England until 2019 and is now an author.",
    "Jane Roe, Member of Parliament 2010-2015, is an economist and author.",
    "Jane Roe is a brand ambassador for a sportswear company and an author.",
]


@pytest.mark.parametrize("snippet", ENDED)
async def test_an_office_that_ended_does_not_refuse_coverage(snippet: str, clock: FixedClock) -> None:
    covered, reasons = await _assess(snippet, "Jane Roe is a well-known economist and author.", clock)
    assert covered, reasons


def test_an_end_date_still_ahead_is_a_term_running() -> None:
    evidence = [IdentityEvidence(url="https://a.example/", title="Jane Roe",
                                 snippet="Jane Roe, ambassador to Norway until 2029, spoke.")]  # fmt: skip
    from datetime import date

    office = serving_office_in_evidence(evidence, ["Jane Roe"], date(2026, 11, 30))
    assert office is not None and office.concept == "ambassador"
    assert serving_office_in_evidence(evidence, ["Jane Roe"], date(2030, 1, 1)) is None


def test_an_office_of_someone_else_in_the_sentence_is_not_the_subjects() -> None:
    evidence = [IdentityEvidence(url="https://a.example/", title="Jane Roe",
                                 snippet="Jane Roe, an economist and author, criticised the plan that the finance "
                                         "minister presented to parliament on Tuesday.")]  # fmt: skip
    from datetime import date

    assert serving_office_in_evidence(evidence, ["Jane Roe"], date(2026, 11, 30)) is None


PRIVATE = [
    "Jane Roe is a private individual who lives in Aarhus.",
    "Jane Roe er en privatperson uden offentlig rolle.",
    "Jane Roe ist eine Privatperson.",
    "Jane Roe est une simple citoyenne.",
    "Jane Roe es un particular sin cargo público.",
    "Джейн Роу — частное лицо.",
    "ジェーン・ローは一般人です。",
]


@pytest.mark.parametrize("snippet", PRIVATE)
async def test_evidence_calling_the_subject_a_private_person_needs_consent_whatever_the_model_said(
    snippet: str, clock: FixedClock
) -> None:
    covered, reasons = await _assess(snippet, "Jane Roe wrote a letter to the editor.", clock)
    assert not covered, reasons
    assert any("describes a private person" in r and "decision step said a public figure" in r for r in reasons)


@pytest.mark.parametrize(
    "snippet",
    [
        "In particular, Jane Roe's research on pensions is widely cited.",
        "En particular, la economista Jane Roe dirige el instituto.",
        "Jane Roe advises private individuals on their pensions as chief economist.",
    ],
)
async def test_ordinary_words_near_private_do_not_refuse(snippet: str, clock: FixedClock) -> None:
    covered, reasons = await _assess(snippet, "Jane Roe is a well-known economist and author.", clock)
    assert covered, reasons
