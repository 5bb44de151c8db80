"""[M] step 4: extraction, the mechanical quote check, drops and flags, with a
fake gateway standing in for the two model steps."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from reliability_core.claims.classification import (
    ClassifyInput,
    ClassifyOutput,
    StatementClassification,
    StatementToClassify,
)
from reliability_core.claims.extraction import (
    ExtractedStatement,
    ExtractInput,
    ExtractionResult,
    ExtractOutput,
    build_claim,
    extract_document,
    has_subject_statements,
    is_own_document,
)
from reliability_core.clock import FixedClock
from reliability_core.models import Statement
from tests.claims.claim_builders import ENTRY, VERSION, CountingGateway, make_document, make_snapshot, reading

CLOCK = FixedClock(datetime(2026, 11, 30, 12, 0, tzinfo=UTC))
PAGE = (
    "Northwind Energy held its results call on Tuesday.\n"
    '"In 2021 we installed 1.2 GW of capacity," said Anna Berg, chief executive.\n'
    '"Prices will fall next year," said Lars Holm, an analyst.\n'
    "Northwind said that it would hire 300 engineers.\n"
    '"My wife was diagnosed with cancer last spring," Berg said.\n'
    '"The Social Democrats will win the next election," Berg added.\n'
    '"We expect EBITDA above DKK 28 billion in 2025," said Berg.\n'
)
CAPACITY = "In 2021 we installed 1.2 GW of capacity"
ANALYST = "Prices will fall next year"
PARAPHRASE = "Northwind said that it would hire 300 engineers."
PRIVATE = "My wife was diagnosed with cancer last spring"
POLITICAL = "The Social Democrats will win the next election"
GUIDANCE = "We expect EBITDA above DKK 28 billion in 2025"


def _extracted(*quotes: tuple[str, str], omitted: int = 0) -> Callable[[ExtractInput], ExtractOutput]:
    def handler(payload: ExtractInput) -> ExtractOutput:
        return ExtractOutput(
            statements=[
                ExtractedStatement(quote=q, context=ctx, form="direct_quote", speaker_hint="")
                for q, ctx in quotes
            ],
            private_life_omitted=omitted,
        )

    return handler


def _classified(readings: dict[str, dict[str, Any]]) -> Callable[[ClassifyInput], ClassifyOutput]:
    def handler(payload: ClassifyInput) -> ClassifyOutput:
        return ClassifyOutput(
            items=[reading(s.index, **readings.get(s.quote, {})) for s in payload.statements],
        )

    return handler


async def _run(gateway: CountingGateway, page: str = PAGE, outcome: str = "ok") -> ExtractionResult:
    return await extract_document(
        document=make_document(),
        snapshot=make_snapshot(page, outcome=outcome),
        entry=ENTRY,
        gateway=gateway,
        clock=CLOCK,
        method_version=VERSION,
    )


def _everything_stored(result: ExtractionResult) -> str:
    return result.model_dump_json()


async def test_private_life_statement_never_reaches_any_record() -> None:
    gateway = CountingGateway(
        {
            "extract_statements": _extracted((CAPACITY, "said Anna Berg"), (PRIVATE, "Berg said")),
            "classify_statements": _classified({}),
        }
    )
    result = await _run(gateway)
    stored = _everything_stored(result)
    assert "diagnosed" not in stored and "wife" not in stored
    assert [d.reason for d in result.dropped] == ["private_life"]
    assert "diagnosed" not in result.dropped[0].note
    # The keyword backstop dropped it before the classifier was even called.
    classify_payload = next(p for step, p in gateway.calls if step == "classify_statements")
    assert "diagnosed" not in classify_payload.model_dump_json()
    assert [s.quote for s in result.statements] == [CAPACITY]


async def test_private_life_flagged_only_by_the_classifier_is_dropped_before_storage() -> None:
    quiet_private = "It was a very hard year for all of us at home"
    page = PAGE + f'"{quiet_private}," Berg said.\n'
    gateway = CountingGateway(
        {
            "extract_statements": _extracted((CAPACITY, ""), (quiet_private, "Berg said")),
            "classify_statements": _classified({quiet_private: {"private_life": True}}),
        }
    )
    result = await _run(gateway, page=page)
    assert "hard year" not in _everything_stored(result)
    assert [d.reason for d in result.dropped] == ["private_life"]


async def test_statements_the_extractor_left_out_for_privacy_are_counted_without_text() -> None:
    gateway = CountingGateway(
        {"extract_statements": _extracted((CAPACITY, ""), omitted=2), "classify_statements": _classified({})}
    )
    result = await _run(gateway)
    assert [d.reason for d in result.dropped] == ["private_life", "private_life"]
    assert len({d.id for d in result.dropped}) == 2


async def test_quote_failing_verification_is_kept_and_marked_unverified() -> None:
    altered = "In 2021 we installed 1.4 GW of capacity"
    gateway = CountingGateway(
        {
            "extract_statements": _extracted((altered, ""), (CAPACITY, "")),
            "classify_statements": _classified({}),
        }
    )
    result = await _run(gateway)
    by_quote = {s.quote: s for s in result.statements}
    assert by_quote[altered].quote_verified is False
    assert by_quote[altered].match_start is None and by_quote[altered].match_end is None
    assert by_quote[CAPACITY].quote_verified is True
    start, end = by_quote[CAPACITY].match_start, by_quote[CAPACITY].match_end
    assert start is not None and end is not None and PAGE[start:end] == CAPACITY
    claim = next(c for c in result.claims if c.quote == altered)
    assert claim.quote_verified is False


async def test_other_speakers_and_reported_paraphrases_are_dropped() -> None:
    gateway = CountingGateway(
        {
            "extract_statements": _extracted((CAPACITY, ""), (ANALYST, "said Lars Holm"), (PARAPHRASE, "")),
            "classify_statements": _classified(
                {ANALYST: {"is_subject": False, "speaker": "Lars Holm"}, PARAPHRASE: {"paraphrase": True}}
            ),
        }
    )
    result = await _run(gateway)
    assert [s.quote for s in result.statements] == [CAPACITY]
    assert sorted(d.reason for d in result.dropped) == ["other_speaker", "paraphrase"]
    assert ANALYST not in _everything_stored(result)


async def test_party_political_claim_is_kept_flagged_and_counted() -> None:
    gateway = CountingGateway(
        {
            "extract_statements": _extracted((POLITICAL, "Berg added")),
            "classify_statements": _classified(
                {POLITICAL: {"claim_type": "prediction", "deadline": date(2026, 9, 1)}}
            ),
        }
    )
    result = await _run(gateway)
    [claim] = result.claims
    assert claim.party_political is True
    assert claim.quote == POLITICAL


async def test_company_guidance_becomes_a_prediction_even_when_the_model_says_promise() -> None:
    gateway = CountingGateway(
        {
            "extract_statements": _extracted((GUIDANCE, "said Berg")),
            "classify_statements": _classified(
                {
                    GUIDANCE: {
                        "claim_type": "promise",
                        "deadline": date(2025, 12, 31),
                        "names_deliverable_or_target": True,
                    }
                }
            ),
        }
    )
    result = await _run(gateway)
    [claim] = result.claims
    assert claim.claim_type == "prediction"
    assert claim.triage == "resolvable_now"


async def test_a_document_whose_fetch_failed_has_no_subject_statements_and_calls_no_model() -> None:
    gateway = CountingGateway({})
    result = await _run(gateway, page="", outcome="refused_robots")
    assert not has_subject_statements(result)
    assert gateway.calls == []
    assert "refused_robots" in result.notes[0]


async def test_a_document_with_only_other_speakers_has_no_subject_statements() -> None:
    gateway = CountingGateway(
        {
            "extract_statements": _extracted((ANALYST, "")),
            "classify_statements": _classified({ANALYST: {"is_subject": False}}),
        }
    )
    assert not has_subject_statements(await _run(gateway))


async def test_a_statement_the_classifier_skipped_is_not_kept() -> None:
    def skip_all(payload: ClassifyInput) -> ClassifyOutput:
        return ClassifyOutput(items=[])

    gateway = CountingGateway(
        {"extract_statements": _extracted((CAPACITY, "")), "classify_statements": skip_all}
    )
    result = await _run(gateway)
    assert result.statements == []
    assert [d.reason for d in result.dropped] == ["not_a_claim"]


def _statement(quote: str) -> Statement:
    return Statement(
        id="stm_1",
        subject_id="northwind",
        document_id="doc1",
        url="https://wire.example/1",
        snapshot_sha256=None,
        quote=quote,
        quote_verified=True,
        extracted_by="fake-model",
        method_version=VERSION,
    )


def _claim_from(quote: str, classification: StatementClassification) -> Any:
    return build_claim(
        _statement(quote), classification, made_on=date(2022, 1, 1), now=date(2026, 11, 30), classified_by="m"
    )


def test_an_intention_without_target_or_date_is_not_checked() -> None:
    claim = _claim_from("We want to be greener.", reading(0, claim_type="promise"))
    assert claim.triage == "never_resolvable"
    assert "intention" in claim.triage_reason


def test_a_dated_target_worded_as_an_aim_is_a_checkable_promise() -> None:
    claim = _claim_from(
        "We aim to cut emissions 50% by 2030.",
        reading(0, claim_type="promise", names_deliverable_or_target=True, deadline=date(2030, 12, 31)),
    )
    assert claim.claim_type == "promise"
    assert claim.triage == "not_yet_due"


def test_a_probability_bound_is_recorded_as_a_bound_on_the_claim() -> None:
    claim = _claim_from(
        "It is more than 10% likely that we sell the unit by 2025.",
        reading(
            0,
            claim_type="prediction",
            deadline=date(2025, 12, 31),
            stated_probability=0.1,
            probability_kind="exact",
        ),
    )
    assert claim.probability_kind == "lower_bound"
    assert claim.stated_probability == 0.1


def test_a_statement_that_is_not_a_claim_makes_no_claim() -> None:
    assert _claim_from("Thank you all for coming.", reading(0, is_claim=False, claim_type=None)) is None


def test_pages_on_the_subjects_own_hosts_are_own_documents() -> None:
    assert is_own_document("https://northwind.example/blog/2024", ["https://northwind.example/"])
    assert not is_own_document("https://wire.example/northwind", ["https://northwind.example/"])


# --- The offline rules for the two extraction steps -----------------------------------

OWN_PAGE = (
    "Annual results 2021\n"
    "Published 2022-02-02\n"
    "In 2021 we installed 1.2 GW of new offshore wind capacity. We expect EBITDA above DKK 28 billion in 2022.\n"
    "We will install 20 GW of offshore wind by 2030. We want to be the greenest energy company in the world.\n"
)
NEWS_PAGE = (
    '"We commissioned our first offshore wind farm in 2002," said Anna Berg, Northwind\'s chief executive.\n'
    '"Northwind\'s balance sheet is stretched," said Sara Quist, an analyst at Fjord Bank.\n'
    "Berg said that the company would not need new equity before 2016.\n"
    'Anna Berg said: "I moved back to Aarhus with my husband and our two children last year."\n'
    "Interviewer: Will Sea Lynx happen?\n"
    "Anna Berg: I'd put it at 60% that we reach a final investment decision on Sea Lynx by June 2027.\n"
    "Anna Berg: It is more than 10% likely that we will have to delay Sea Lynx by 2025.\n"
)


def _offline_extract(page: str, url: str, own: bool) -> ExtractOutput:
    from reliability_core.stand_in.rules.extraction import extract_statements_offline

    out = extract_statements_offline(
        ExtractInput(
            subject_id=ENTRY.id,
            subject_name=ENTRY.name,
            aliases=ENTRY.aliases,
            subject_kind=ENTRY.kind,
            subject_urls=ENTRY.urls,
            document_id="doc1",
            url=url,
            title="",
            published_date=date(2022, 2, 2),
            own_document=own,
            page_text=page,
        )
    )
    assert isinstance(out, ExtractOutput)
    return out


def test_offline_extractor_copies_first_person_sentences_of_the_subjects_own_page() -> None:
    out = _offline_extract(OWN_PAGE, "https://northwind.example/investors/results-2021", own=True)
    assert [s.quote for s in out.statements] == [
        "In 2021 we installed 1.2 GW of new offshore wind capacity",
        "We expect EBITDA above DKK 28 billion in 2022",
        "We will install 20 GW of offshore wind by 2030",
        "We want to be the greenest energy company in the world",
    ]
    assert {s.form for s in out.statements} == {"own_text"}


def test_offline_extractor_attributes_quotes_skips_interviewers_and_omits_private_life() -> None:
    out = _offline_extract(NEWS_PAGE, "https://wire.example/2022/northwind", own=False)
    forms = {s.quote: (s.form, s.speaker_hint) for s in out.statements}
    assert forms["We commissioned our first offshore wind farm in 2002"] == ("direct_quote", "Anna Berg")
    assert forms["Northwind's balance sheet is stretched"] == ("direct_quote", "Sara Quist")
    assert forms["Berg said that the company would not need new equity before 2016"][0] == "reported"
    assert not any("Will Sea Lynx happen" in q for q in forms)
    assert not any("husband" in q for q in forms)
    assert out.private_life_omitted == 1


async def test_offline_rules_end_to_end_drop_other_speakers_and_paraphrases_and_read_probabilities() -> None:
    from reliability_core.stand_in.rules.extraction import (
        classify_statements_offline,
        extract_statements_offline,
    )

    gateway = CountingGateway(
        {
            "extract_statements": extract_statements_offline,
            "classify_statements": classify_statements_offline,
        },
        model="offline-rules",
    )
    result = await _run(gateway, page=NEWS_PAGE)
    assert sorted(d.reason for d in result.dropped) == ["other_speaker", "paraphrase", "private_life"]
    by_quote = {c.quote: c for c in result.claims}
    exact = by_quote["I'd put it at 60% that we reach a final investment decision on Sea Lynx by June 2027"]
    assert (exact.stated_probability, exact.probability_kind, exact.deadline) == (
        0.6,
        "exact",
        date(2027, 6, 30),
    )
    assert exact.triage == "not_yet_due"
    bound = by_quote["It is more than 10% likely that we will have to delay Sea Lynx by 2025"]
    assert (bound.stated_probability, bound.probability_kind) == (0.1, "lower_bound")
    assert by_quote["We commissioned our first offshore wind farm in 2002"].claim_type == "factual"
    assert all(c.quote_verified for c in result.claims)


def test_offline_classifier_types_guidance_promises_intentions_and_counterfactuals() -> None:
    from reliability_core.stand_in.rules.extraction import classify_statements_offline

    quotes = [
        "We expect EBITDA above DKK 28 billion in 2022",
        "We will install 20 GW of offshore wind by 2030",
        "We want to be the greenest energy company in the world",
        "Had we stayed in oil and gas, we would be a much smaller company today",
        "Our internal engagement survey showed that 82% of employees are proud to work here",
        "We have stopped the Sunbank project and will take an impairment of DKK 4 billion",
        "Offshore wind auction prices in Europe will rise in 2025",
        "The Social Liberal Party will win the next general election",
    ]
    payload = ClassifyInput(
        subject_id=ENTRY.id,
        subject_name=ENTRY.name,
        aliases=ENTRY.aliases,
        subject_kind=ENTRY.kind,
        document_url="https://northwind.example/x",
        document_title="",
        published_date=date(2022, 2, 2),
        own_document=True,
        statements=[
            StatementToClassify(index=i, quote=q, context="", form="own_text", speaker_hint=ENTRY.name)
            for i, q in enumerate(quotes)
        ],
    )
    out = classify_statements_offline(payload)
    assert isinstance(out, ClassifyOutput)
    items = out.items
    guidance, promise, intention, counterfactual, internal, stopped, market, election = items
    assert (
        guidance.company_guidance
        and guidance.claim_type == "prediction"
        and guidance.deadline == date(2022, 12, 31)
    )
    assert promise.claim_type == "promise" and promise.names_deliverable_or_target
    assert promise.deadline == date(2030, 12, 31)
    assert intention.claim_type == "promise" and not intention.names_deliverable_or_target
    assert counterfactual.counterfactual
    assert internal.own_records_only
    assert stopped.claim_type == "factual"
    assert market.claim_type == "prediction" and market.deadline == date(2025, 12, 31)
    assert election.party_political and election.deadline is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We will stop using coal by 2023", date(2023, 12, 31)),
        ("We will finish by the end of 2024", date(2024, 12, 31)),
        ("a decision by June 2027", date(2027, 6, 30)),
        ("running by Q3 2026", date(2026, 9, 30)),
        ("no new equity before 2016", date(2015, 12, 31)),
        ("prices stay high through 2023", date(2023, 12, 31)),
        ("open by 1 March 2026", date(2026, 3, 1)),
        ("the next general election", None),
    ],
)
def test_the_deadline_is_read_from_the_quotes_words(text: str, expected: date | None) -> None:
    from reliability_core.claims.wording import deadline_in_words

    assert deadline_in_words(text) == expected


# --- The demo corpus against its answer key -------------------------------------------

CORPUS_DIR = Path(__file__).resolve().parents[2] / "data" / "corpus"
DEMO_SUBJECT = "northwind-energy"


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("’", "'")).strip().rstrip(".").lower()


class _MistranscribingGateway:
    """The offline gateway, except that the extractor mis-copies the statements the
    answer key marks as altered (the trap a live model can fall into)."""

    def __init__(self, inner: Any, altered: dict[str, str]) -> None:
        self.inner = inner
        self.altered = altered

    async def run(self, step: str, payload: Any, output_type: type[Any]) -> Any:
        out = await self.inner.run(step, payload, output_type)
        if step == "extract_statements":
            statements = [
                s.model_copy(update={"quote": self.altered.get(_norm(s.quote), s.quote)})
                for s in out.statements
            ]
            out = out.model_copy(update={"statements": statements})
        return out

    def model_for(self, step: str) -> str:
        return str(self.inner.model_for(step))


@pytest.mark.skipif(
    not (CORPUS_DIR / "answer_key.yaml").exists(), reason="demo corpus (data/corpus) not present"
)
async def test_offline_extraction_over_the_demo_corpus_agrees_with_the_answer_key() -> None:
    import yaml

    from reliability_core.stand_in.corpus import load_manifest
    from reliability_core.stand_in.web import offline_fetcher
    from reliability_core.subjects.registry import find_entry, load_registry
    from reliability_core.wiring import build_gateway

    key = yaml.safe_load((CORPUS_DIR / "answer_key.yaml").read_text(encoding="utf-8"))
    entry = find_entry(load_registry(), DEMO_SUBJECT)
    assert entry is not None
    published = {page.url: page.published for page in load_manifest(CORPUS_DIR).pages}
    [subject] = [s for s in key["subjects"] if s["subject_id"] == DEMO_SUBJECT]
    expected = [s for s in key["statements"] if s["subject_id"] == DEMO_SUBJECT]
    altered = {_norm(s["page_form"]): s["quote"] for s in expected if s.get("page_form")}
    gateway = _MistranscribingGateway(build_gateway({"RELIABILITY_OFFLINE": "1"}, None), altered)
    fetcher = offline_fetcher(CORPUS_DIR, CLOCK)

    results: dict[str, ExtractionResult] = {}
    for url in subject["documents"]:
        snapshot = await fetcher.snapshot(url, VERSION)
        document = make_document(url, published.get(url)).model_copy(update={"subject_id": entry.id})
        results[url] = await extract_document(
            document=document,
            snapshot=snapshot,
            entry=entry,
            gateway=gateway,
            clock=CLOCK,
            method_version=VERSION,
        )

    stored = " ".join(_norm(r.model_dump_json()) for r in results.values())
    kept = {(url, _norm(s.quote)): s for url, r in results.items() for s in r.statements}
    claims = {(url, _norm(c.quote)): c for url, r in results.items() for c in r.claims}

    # Mechanical rules, asserted.
    for item in expected:
        if item["drop_reason"] == "private_life":
            assert _norm(item["quote"]) not in stored, item["id"]
        if item["drop_reason"] == "other_speaker":
            assert (item["document_url"], _norm(item["quote"])) not in kept, item["id"]
        if item.get("page_form"):
            statement = kept[(item["document_url"], _norm(item["quote"]))]
            assert statement.quote_verified is False and statement.match_start is None
    for url, result in results.items():
        wanted = Counter(s["drop_reason"] for s in expected if s["document_url"] == url and s["drop_reason"])
        got = Counter(d.reason for d in result.dropped)
        assert got["private_life"] == wanted["private_life"], url
        assert got["other_speaker"] == wanted["other_speaker"], url

    # Agreement with the answer key, as a figure (printed, not asserted).
    fields = Counter[str]()
    agreed = Counter[str]()
    misses: list[str] = []
    for item in expected:
        url = item["document_url"]
        found = (url, _norm(item["quote"]))
        fields["kept_or_dropped"] += 1
        kept_right = (found in kept) == bool(item["kept"])
        agreed["kept_or_dropped"] += kept_right
        if not kept_right:
            misses.append(f"{item['id']}:kept_or_dropped")
        claim = claims.get(found)
        if not item["kept"] or claim is None:
            continue
        checks = {
            "type": claim.claim_type == item["type"],
            "triage": claim.triage == item["triage"],
            "deadline": (claim.deadline.isoformat() if claim.deadline else None) == item["deadline"],
            "party_political": claim.party_political == item["party_political"],
            "probability": (claim.stated_probability, claim.probability_kind)
            == (item["stated_probability"], item["probability_kind"]),
            "verified": claim.quote_verified == item["expect_verified"],
        }
        for name, ok in checks.items():
            fields[name] += 1
            agreed[name] += ok
            if not ok:
                misses.append(f"{item['id']}:{name}")
    overall = sum(agreed.values()) / sum(fields.values())
    print(f"\nsteps 4-5 offline vs answer key ({DEMO_SUBJECT}): overall agreement {overall:.1%}")
    for name in fields:
        print(f"  {name}: {agreed[name]}/{fields[name]}")
    print(f"  disagreements: {', '.join(misses) or 'none'}")
    assert sum(fields.values()) > 0


# --- The live providers' interface, with mocked HTTP -------------------------------------


async def test_extraction_runs_through_the_live_anthropic_interface_with_the_real_prompts() -> None:
    from reliability_core.providers.anthropic_provider import AnthropicProvider
    from reliability_core.providers.assignment import StepAssignment
    from reliability_core.providers.gateway import DEFAULT_PROMPTS_DIR, StepGateway
    from tests.providers.wire import Scripted2, anthropic_json_reply

    extract_reply = {
        "statements": [
            {
                "quote": CAPACITY,
                "context": "said Anna Berg",
                "form": "direct_quote",
                "speaker_hint": "Anna Berg",
            },
            {
                "quote": ANALYST,
                "context": "said Lars Holm",
                "form": "direct_quote",
                "speaker_hint": "Lars Holm",
            },
        ],
        "private_life_omitted": 1,
    }
    classify_reply = {
        "items": [
            reading(0).model_dump(mode="json"),
            reading(1, is_subject=False, speaker="Lars Holm").model_dump(mode="json"),
        ]
    }
    script = Scripted2(
        anthropic_json_reply(extract_reply),
        anthropic_json_reply(classify_reply),
    )
    provider = AnthropicProvider("sk-ant-test", http_client=script.client())
    steps = ("extract_statements", "classify_statements")
    gateway = StepGateway(
        {step: StepAssignment(provider="anthropic", model="claude-haiku-5-5") for step in steps},
        {step: provider for step in steps},
        prompts_dir=DEFAULT_PROMPTS_DIR,
    )
    result = await _run(gateway)  # type: ignore[arg-type]

    assert [s.quote for s in result.statements] == [CAPACITY]
    assert result.statements[0].extracted_by == "claude-haiku-5-5"
    assert sorted(d.reason for d in result.dropped) == ["other_speaker", "private_life"]
    extract_body, classify_body = script.bodies()
    for body, step, output in (
        (extract_body, steps[0], ExtractOutput),
        (classify_body, steps[1], ClassifyOutput),
    ):
        assert body["system"][0]["text"] == (DEFAULT_PROMPTS_DIR / f"{step}.md").read_text(encoding="utf-8")
        schema = body["output_config"]["format"]["schema"]
        assert sorted(schema["properties"]) == sorted(output.model_json_schema()["properties"])
    assert "In 2021 we installed 1.2 GW" in extract_body["messages"][0]["content"]
