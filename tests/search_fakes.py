"""Hand-written fakes at the seams of steps 1-3: a recording search over a fixed
table of results and a gateway that runs given functions per step."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import pytest
import yaml
from pydantic import BaseModel

from reliability_core.clock import Clock
from reliability_core.ids import stable_id
from reliability_core.models import SearchResult, SearchResultSet
from reliability_core.providers.base import SearchQuery

OutputT = TypeVar("OutputT", bound=BaseModel)
RETRIEVED = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def result(
    url: str, title: str, snippet: str = "", published: date | None = None, rank: int = 1
) -> SearchResult:
    return SearchResult(url=url, title=title, snippet=snippet, published_date=published, rank=rank)


class FakeSearch:
    """Returns ``results[query]`` (or ``default``) as a stamped result set, and
    records every call."""

    def __init__(
        self, results: dict[str, list[SearchResult]], default: list[SearchResult] | None = None
    ) -> None:
        self.results = results
        self.default = default or []
        self.calls: list[tuple[str, str, str]] = []

    async def search(
        self, subject_id: str, purpose: str, query: SearchQuery, method_version: str
    ) -> SearchResultSet:
        self.calls.append((subject_id, purpose, query.query))
        found = self.results.get(query.query, self.default)[: query.max_results]
        return SearchResultSet(
            method_version=method_version,
            id=stable_id("srs", subject_id, purpose, query.query),
            subject_id=subject_id,
            purpose=purpose,
            query=query.query,
            provider="fake",
            retrieved_at=RETRIEVED,
            results=found,
        )


class FakeGateway:
    """Runs ``handlers[step](payload)`` and validates it against the output type,
    as the real gateway validates a model's JSON."""

    def __init__(self, handlers: dict[str, Callable[[Any], BaseModel]], model: str = "fake-model") -> None:
        self.handlers = handlers
        self.model = model
        self.payloads: dict[str, BaseModel] = {}

    async def run(self, step: str, payload: BaseModel, output_type: type[OutputT]) -> OutputT:
        self.payloads[step] = payload
        out = self.handlers[step](payload)
        return output_type.model_validate_json(out.model_dump_json())

    def model_for(self, step: str) -> str:
        return self.model


# --- The demo world (data/corpus), for the answer-key comparisons -----------------------

DEMO_CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"


@lru_cache(maxsize=1)
def _demo_index(index_type: Any) -> Any:
    # Building the full-text index reads every page; one per test session is enough.
    return index_type(DEMO_CORPUS)


def demo_world(clock: Clock) -> tuple[Any, Any, dict[str, Any]]:
    """(offline gateway, recording offline search, answer key), or a clean skip
    while the demo corpus or the offline providers are not there yet."""
    if not (DEMO_CORPUS / "manifest.yaml").exists() or not (DEMO_CORPUS / "answer_key.yaml").exists():
        pytest.skip("demo corpus (data/corpus) not written yet")
    recording = pytest.importorskip("reliability_core.providers.recording")
    offline_search = pytest.importorskip("reliability_core.stand_in.search")
    wiring = pytest.importorskip("reliability_core.wiring")
    gateway = wiring.build_gateway({"RELIABILITY_OFFLINE": "1"}, None)
    search = recording.RecordingSearch(_demo_index(offline_search.OfflineSearch), None, clock)
    with (DEMO_CORPUS / "answer_key.yaml").open(encoding="utf-8") as handle:
        key = yaml.safe_load(handle)
    return gateway, search, {s["subject_id"]: s for s in key["subjects"]}
