"""Builders shared by the evidence and steering tests (offline and rehearsal): the
Northwind subject and its pages, fakes at the search and fetch seams, and one call
that gathers evidence and judges a claim as the pipeline does.

One place, so the offline and the live-provider steering tests read the same pages
through the same seams and differ only in the gateway."""

from __future__ import annotations

from datetime import date

import httpx

from reliability_core.clock import FixedClock
from reliability_core.ids import sha256_hex
from reliability_core.models import (
    Claim,
    ClaimVerdict,
    PageSnapshot,
    RegistryEntry,
    ResolutionCriteria,
    SearchResult,
)
from reliability_core.providers.base import ModelGateway
from reliability_core.stand_in.web import OfflineResolver
from reliability_core.subjects.candidates import SearchLike
from reliability_core.verdicts.evidence import EvidenceResult, gather_evidence
from reliability_core.verdicts.gates import GATE_NO_STEERING
from reliability_core.verdicts.judging import judge_claim
from reliability_core.web.fetch import Fetcher, SafeFetcher
from tests.search_fakes import FakeSearch, result
from tests.verdicts.factories import FETCHED, MV, make_claim, make_criteria

NORTHWIND = RegistryEntry(
    id="northwind", name="Northwind Energy", kind="company", urls=["https://northwind.example/"]
)

# --- The claim's own page and a wire report, as fetched snapshots ----------------------

OWN_URL = "https://northwind.example/blog/2022-plans"
OWN_TEXT = (
    "Northwind Energy plans. We will have 8 GW of offshore wind installed by the end of 2024. "
    "Our teams are building three new farms in the North Sea and the Baltic, and we expect the "
    "first power from Baltic Three in the autumn of 2024, with the remaining turbines following."
)
WIRE = (
    "In January 2025 the regulator's register listed 7.4 GW of Northwind offshore capacity in operation. "
    "The company had promised 8 GW by the end of 2024 but delays at Baltic Three held it back, "
    "according to the register published on 15 January 2025."
)


def snapshot(url: str, text: str, outcome: str = "ok") -> PageSnapshot:
    """A stored snapshot of ``url`` holding ``text`` (empty unless the fetch was ``ok``)."""
    return PageSnapshot(
        method_version=MV,
        id=f"snap_{sha256_hex(url)[:8]}",
        url=url,
        final_url=None,
        status=200 if outcome == "ok" else None,
        fetched_at=FETCHED,
        sha256=sha256_hex(text) if outcome == "ok" else None,
        byte_count=len(text),
        content_type="text/html",
        outcome=outcome,  # type: ignore[arg-type]
        title=url.rsplit("/", 1)[-1],
        text=text if outcome == "ok" else "",
        main_text=text if outcome == "ok" else "",
    )


def search_returning(urls: dict[str, list[str]], every: list[str] | None = None) -> FakeSearch:
    """A recording search returning ``urls[query]`` (``every`` for any other query), each
    result dated 15 January 2025, the date of the register report."""

    def results(found: list[str]) -> list[SearchResult]:
        return [result(u, u, published=date(2025, 1, 15), rank=i) for i, u in enumerate(found)]

    return FakeSearch({query: results(found) for query, found in urls.items()}, default=results(every or []))


class FakeFetcher:
    """Serves stored snapshots by URL and records what was opened."""

    def __init__(self, pages: dict[str, PageSnapshot]) -> None:
        self.pages = pages
        self.opened: list[str] = []

    async def snapshot(self, url: str, method_version: str) -> PageSnapshot:
        self.opened.append(url)
        return self.pages[url]


# --- HTML pages served to the real SafeFetcher (steering) ------------------------------

QUOTE = (
    "By the end of 2024 Northwind Energy had 7.4 GW of offshore wind capacity installed, "
    "the national energy register shows."
)
ORDINARY = [
    "The register is updated every quarter from figures the operators file.",
    "Delays at the Baltic Three site were blamed on a shortage of installation vessels.",
    QUOTE,
    "The company had promised 8 GW by the end of 2024.",
    "Analysts expect the remaining turbines to be connected during 2025.",
    "The ministry said the national target for 2030 was unchanged.",
]
LEDGER = [
    "The Daily Ledger went through the operators' filings on Wednesday.",
    QUOTE,
    "Northwind declined to comment on the shortfall when asked by this newspaper.",
    "Its shares fell two percent in early trading in Copenhagen.",
]
WIRE_URL = "https://wire.example/northwind-capacity"
PAPER_URL = "https://dailyledger.example/northwind-delay"


def page(paragraphs: list[str], extra_html: str = "") -> str:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return f"<!doctype html><html><head><title>Northwind</title></head><body><article>{body}{extra_html}</article></body></html>"


def fetcher(pages: dict[str, str], clock: FixedClock) -> SafeFetcher:
    """The real ``SafeFetcher`` over a local transport serving ``pages`` (by URL)."""

    def serve(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/robots.txt":
            return httpx.Response(404)
        # The fetcher connects to the resolved address; the page is named by the Host header.
        host = request.headers.get("host", request.url.host).split(":")[0]
        body = pages.get(f"https://{host}{request.url.path}")
        if body is None:
            return httpx.Response(404)
        return httpx.Response(
            200, headers={"content-type": "text/html; charset=utf-8"}, content=body.encode()
        )

    return SafeFetcher(
        transport=httpx.MockTransport(serve),
        resolver=OfflineResolver({"wire.example", "dailyledger.example"}),
        clock=clock,
    )


# --- Gather and judge, as the pipeline does ---------------------------------------------


async def gather_and_judge(
    *,
    gateway: ModelGateway,
    search: SearchLike,
    fetcher: Fetcher,
    clock: FixedClock,
    claim: Claim | None = None,
    criteria: ResolutionCriteria | None = None,
    own_source: PageSnapshot | None = None,
    subject: RegistryEntry = NORTHWIND,
    method_version: str = MV,
) -> tuple[EvidenceResult, ClaimVerdict]:
    """Evidence gathered and the claim judged on it by the pipeline's own functions,
    the steering found while gathering passed on to the judging."""
    claim = claim or make_claim()
    criteria = criteria or make_criteria()
    found = await gather_evidence(
        claim=claim,
        criteria=criteria,
        own_source=own_source,
        gateway=gateway,
        search=search,
        fetcher=fetcher,
        clock=clock,
        method_version=method_version,
        subject=subject,
    )
    verdict = await judge_claim(
        claim=claim,
        criteria=criteria,
        evidence=found.items,
        gateway=gateway,
        clock=clock,
        method_version=method_version,
        steering=found.steering,
    )
    return found, verdict


def blocked_by_steering(verdict: ClaimVerdict) -> bool:
    """[#16] the verdict is held by the no-steering gate."""
    return verdict.steering_detected and not verdict.gate.shown and GATE_NO_STEERING in verdict.gate.failed
