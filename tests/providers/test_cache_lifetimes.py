"""Every cached answer has a lifetime tied to the method (issue 17, part 1), driven
with the injectable clock: candidate searches live 90 days, research never outlives
its report and a refresh searches afresh, a model answer lives as long as its exact
input, model and method version; and no cache ever holds private-life text."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pydantic import BaseModel

from reliability_core.clock import FixedClock
from reliability_core.models import RegistryEntry, SearchResult
from reliability_core.providers import gateway as gateway_module
from reliability_core.providers.assignment import StepAssignment
from reliability_core.providers.base import ModelRequest, ModelResponse, SearchQuery, Usage
from reliability_core.providers.cache import ResponseCache, search_result_reusable
from reliability_core.providers.gateway import StepGateway
from reliability_core.providers.recording import RecordingSearch
from reliability_core.subjects.candidates import list_candidates
from reliability_core.text.privacy import PRIVATE_REDACTION
from reliability_dagster.resources import ProvidersResource
from tests.conftest import PROJECT_ROOT

CORPUS = PROJECT_ROOT / "data" / "corpus"

DAY0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ENTRY = RegistryEntry(
    id="northwind", name="Northwind Energy", kind="company", urls=["https://northwind.example/"]
)
PRIVATE = "Freja Lund said she moved back to Aarhus with my husband and our two children."


class CountingSearch:
    """A live-like search provider: every call is counted, every answer is new."""

    name = "fake-live-search"

    def __init__(self, snippet: str = "Northwind Energy added 1.2 GW in 2021.") -> None:
        self.calls: list[str] = []
        self.snippet = snippet

    async def search(self, query: SearchQuery) -> list[SearchResult]:
        self.calls.append(query.query)
        n = len(self.calls)
        return [
            SearchResult(
                url=f"https://news{n}.example/a/{i}",
                title=f"Northwind Energy {i}",
                snippet=self.snippet,
                rank=i,
            )
            for i in range(1, 4)
        ]


def recording(tmp_path: Path, clock: FixedClock, provider: CountingSearch | None = None) -> RecordingSearch:
    return RecordingSearch(provider or CountingSearch(), ResponseCache(tmp_path / "search"), clock)


QUERY = SearchQuery(query="Northwind Energy interview")


@pytest.mark.parametrize(("day", "reused"), [(0, True), (89, True), (90, False), (91, False), (120, False)])
async def test_candidate_search_is_reused_inside_90_days_only(tmp_path: Path, day: int, reused: bool) -> None:
    clock = FixedClock(DAY0)
    search = recording(tmp_path, clock)
    first = await search.search("northwind", "candidates:interviews", QUERY, "v1")
    clock.advance(timedelta(days=day))
    again = await search.search("northwind", "candidates:interviews", QUERY, "v1")
    assert (search.calls == 1) is reused
    assert (again.retrieved_at == first.retrieved_at) is reused
    if not reused:
        assert again.retrieved_at == DAY0 + timedelta(days=day)
        assert again.results != first.results


async def test_candidate_listing_day_89_reuses_and_day_91_searches_again(tmp_path: Path) -> None:
    clock = FixedClock(DAY0)
    provider = CountingSearch()
    search = recording(tmp_path, clock, provider)
    listing = await list_candidates(ENTRY, search, clock, "v1", previous=None)
    searched = len(provider.calls)
    assert searched > 0

    clock.advance(timedelta(days=89))
    reused = await list_candidates(ENTRY, search, clock, "v1", previous=listing)
    assert reused.reused and reused.listed_at == DAY0 and len(provider.calls) == searched

    clock.advance(timedelta(days=2))  # day 91
    fresh = await list_candidates(ENTRY, search, clock, "v1", previous=listing)
    assert not fresh.reused and fresh.listed_at == DAY0 + timedelta(days=91)
    assert len(provider.calls) == 2 * searched, "every candidate query went to search again"
    assert all(rs.retrieved_at == fresh.listed_at for rs in fresh.result_sets)


async def test_a_refresh_after_90_days_makes_new_evidence_searches(tmp_path: Path) -> None:
    clock = FixedClock(DAY0)
    provider = CountingSearch()
    search = recording(tmp_path, clock, provider)
    purpose = "evidence:clm_1:for"
    report_time = await search.search("northwind", purpose, QUERY, "v1")
    # Inside the report's life the same research is the same research.
    clock.advance(timedelta(days=30))
    assert (await search.search("northwind", purpose, QUERY, "v1")).retrieved_at == report_time.retrieved_at
    assert len(provider.calls) == 1

    clock.advance(timedelta(days=61))  # day 91: the report is stale, a refresh runs
    refresh = search.for_refresh()
    refreshed = await refresh.search("northwind", purpose, QUERY, "v1")
    assert len(provider.calls) == 2
    assert refreshed.retrieved_at == DAY0 + timedelta(days=91)
    assert refreshed.results != report_time.results
    # A retried step inside the same refresh repeats none of its searches.
    await refresh.search("northwind", purpose, QUERY, "v1")
    assert len(provider.calls) == 2


async def test_a_refresh_searches_evidence_afresh_even_inside_90_days(tmp_path: Path) -> None:
    clock = FixedClock(DAY0)
    provider = CountingSearch()
    search = recording(tmp_path, clock, provider)
    await search.search("northwind", "evidence:clm_1:against", QUERY, "v1")
    clock.advance(timedelta(days=10))
    await search.for_refresh().search("northwind", "evidence:clm_1:against", QUERY, "v1")
    assert len(provider.calls) == 2
    # ... but the candidate pool stays the same for the 90 days.
    own = SearchQuery(query="Northwind Energy site:northwind.example")
    await search.search("northwind", "candidates:own", own, "v1")
    clock.advance(timedelta(days=10))
    await search.for_refresh().search("northwind", "candidates:own", own, "v1")
    assert len(provider.calls) == 3


def test_research_never_outlives_its_report_and_a_future_entry_is_not_trusted() -> None:
    assert search_result_reusable("identity", DAY0, DAY0 + timedelta(days=89))
    assert not search_result_reusable("identity", DAY0, DAY0 + timedelta(days=90))
    assert not search_result_reusable("evidence:c:for", DAY0 + timedelta(days=1), DAY0)


def test_a_refreshing_search_comes_from_the_providers_resource(tmp_path: Path) -> None:
    clock = FixedClock(DAY0 + timedelta(days=95))
    providers = ProvidersResource(corpus_dir=str(CORPUS), cache_dir=str(tmp_path / "cache"))
    assert providers.search(clock).fresh_since is None
    assert providers.search(clock, refresh=True).fresh_since == clock.now()


async def test_the_search_cache_never_holds_private_life_text(tmp_path: Path) -> None:
    clock = FixedClock(DAY0)
    provider = CountingSearch(snippet=f"Northwind Energy added 1.2 GW in 2021. {PRIVATE} Revenue rose 4%.")
    search = recording(tmp_path, clock, provider)
    fresh = await search.search("northwind", "candidates:news", QUERY, "v1")
    cached = await search.search("northwind", "candidates:news", QUERY, "v1")
    assert len(provider.calls) == 1
    for result_set in (fresh, cached):
        assert all("Aarhus" not in r.snippet and PRIVATE_REDACTION in r.snippet for r in result_set.results)
        assert all("Revenue rose 4%." in r.snippet for r in result_set.results)
    stored = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "search").rglob("*.json"))
    assert stored and "Aarhus" not in stored and "husband" not in stored


# --- model answers ----------------------------------------------------------------------


class Extract(BaseModel):
    page_text: str


class Extracted(BaseModel):
    quotes: list[str]


class EchoModel:
    """A live-like model that quotes the page back, private sentence and all."""

    name = "openai"
    family = "gpt"

    def __init__(self) -> None:
        self.calls = 0

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.calls += 1
        text = json.loads(request.input_json)["page_text"]
        return ModelResponse(
            output_json=json.dumps({"quotes": [s.strip() + "." for s in text.split(".") if s.strip()]}),
            usage=Usage(provider=self.name, model=request.model, step=request.step, input_tokens=10),
        )


def model_gateway(tmp_path: Path, model: EchoModel, model_id: str = "gpt-6.1-sol") -> StepGateway:
    prompts = tmp_path / "prompts"
    prompts.mkdir(exist_ok=True)
    (prompts / "extract_statements.md").write_text("Copy statements word for word.\n", encoding="utf-8")
    return StepGateway(
        {"extract_statements": StepAssignment(provider="openai", model=model_id)},
        {"extract_statements": model},
        cache=ResponseCache(tmp_path / "models"),
        prompts_dir=prompts,
    )


async def test_a_model_answer_is_reused_only_for_the_same_input_model_and_method_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = EchoModel()
    page = Extract(page_text="We will build 3 GW by 2030. Revenue rose 4%")
    await model_gateway(tmp_path, model).run("extract_statements", page, Extracted)
    await model_gateway(tmp_path, model).run("extract_statements", page, Extracted)
    assert model.calls == 1, "identical input, model and method version: reused"

    await model_gateway(tmp_path, model).run(
        "extract_statements", Extract(page_text="We will build 4 GW."), Extracted
    )
    assert model.calls == 2, "another input is another answer"

    await model_gateway(tmp_path, model, "gpt-6.2").run("extract_statements", page, Extracted)
    assert model.calls == 3, "never across a change of model"

    monkeypatch.setattr(gateway_module, "method_version", lambda offline=False: "0.1.0+changed")
    await model_gateway(tmp_path, model).run("extract_statements", page, Extracted)
    assert model.calls == 4, "never across a change of method version"


async def test_the_model_answer_cache_never_holds_private_life_text(tmp_path: Path) -> None:
    model = EchoModel()
    page = Extract(page_text=f"We will build 3 GW by 2030. {PRIVATE} Revenue rose 4%")
    fresh = await model_gateway(tmp_path, model).run("extract_statements", page, Extracted)
    assert any("Aarhus" in q for q in fresh.quotes)  # the model said it; the code drops it later
    stored = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "models").rglob("*.json"))
    assert stored and "Aarhus" not in stored and "husband" not in stored
    cached = await model_gateway(tmp_path, model).run("extract_statements", page, Extracted)
    assert model.calls == 1
    assert "We will build 3 GW by 2030." in cached.quotes
    assert PRIVATE_REDACTION in " ".join(cached.quotes) and "Aarhus" not in " ".join(cached.quotes)
