"""[M] step 4 "Statements about anyone's private life, family, health, home or location are
dropped before anything is stored", for what the classifier finds private and the keyword rule
does not: through ``stages.read_documents`` (the code that governs live runs) with the real
Anthropic provider class, the extractor and classifier answers scripted at the SDK's transport."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx2

from reliability_core.clock import FixedClock
from reliability_core.models import (
    DocumentSelection,
    PageSnapshot,
    PrivateSentenceMark,
    SearchResult,
    SearchResultSet,
)
from reliability_core.providers.base import SearchQuery
from reliability_core.providers.cache import ResponseCache
from reliability_core.providers.recording import RecordingSearch
from reliability_core.stages import SampleExtraction, known_private_sentences, read_documents
from reliability_core.subjects.candidates import candidate_queries
from reliability_core.text.privacy import PRIVATE_REDACTION, mentions_private_life
from reliability_core.text.private_sentences import mask_known_private_sentences
from reliability_core.warehouse import Ledger
from reliability_core.wiring import build_gateway
from tests.claims.claim_builders import ENTRY, LISTED, VERSION, make_document, make_snapshot, reading
from tests.providers.wire import anthropic_json_reply

CLOCK = FixedClock(datetime(2026, 11, 30, 12, 0, tzinfo=UTC))
URL = "https://wire.example/2022/northwind"
# A first-person health statement in words no keyword list holds: only the classifier sees it.
PRIVATE = "Last spring I could barely climb the stairs to my office, and I learned to slow down"
CLAIM = "In 2021 we installed 1.2 GW of capacity"
PAGE = (
    "Northwind Energy held its results call.\n"
    f'"{PRIVATE}," said Anna Berg, chief executive. "{CLAIM}," she added.\n'
    "The shares rose 2% on the day.\n"
)


def answer(step: str) -> dict[str, Any]:
    if step == "extract_statements":
        return {
            "statements": [
                {"quote": q, "context": "said Anna Berg", "form": "direct_quote", "speaker_hint": "Anna Berg"}
                for q in (PRIVATE, CLAIM)
            ],
            "private_life_omitted": 0,
        }
    # The classifier flags the first statement as private life; the second is a claim.
    return {
        "items": [
            reading(0, private_life=True, is_claim=False, claim_type=None, restatement="").model_dump(mode="json"),
            reading(1).model_dump(mode="json"),
        ]
    }


def step_of(request: httpx2.Request) -> str:
    body = json.loads(request.content)
    return str(body["system"][0]["text"]).splitlines()[0].removeprefix("# Step: ").split(" ")[0]


class Page:
    """The fetcher: the page as the server read it."""

    def __init__(self, text: str) -> None:
        self.text = text

    async def snapshot(self, url: str, method_version: str) -> PageSnapshot:
        return make_snapshot(self.text, url=url)


async def read_one_page(
    page: str,
    snippet: str,
    handler: Callable[[httpx2.Request], httpx2.Response],
    ledger: Ledger,
    cache: Path,
    search: RecordingSearch | None = None,
) -> SampleExtraction:
    """Step 4 over one ranked page through the live Anthropic provider class, the vendor's
    answers from ``handler`` at the SDK's transport, the model cache in ``cache``."""
    gateway = build_gateway(
        {"ANTHROPIC_API_KEY": "sk-ant-test", "OPENAI_API_KEY": "sk-test"},
        cache,
        http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(handler)),
    )
    document = make_document(URL)
    return await read_documents(
        ranking=[DocumentSelection(subject_id="northwind", document_id=document.id, url=URL, position=1,
                                   slot="spread", year=2022, seed=1, reason="test", method_version=VERSION)],
        result_sets=[SearchResultSet(id="srs_1", subject_id="northwind", purpose="candidates", query="Northwind",
                                     provider="test", retrieved_at=LISTED, method_version=VERSION,
                                     results=[SearchResult(url=URL, title="Northwind interview", snippet=snippet,
                                                           rank=1)])],
        candidates=[document], fetcher=Page(page), ledger=ledger, ledger_table="snapshots", entry=ENTRY,
        gateway=gateway, clock=CLOCK, method_version=VERSION, search=search,
    )  # fmt: skip


async def test_a_sentence_the_classifier_flags_private_is_masked_in_the_stored_page_snippets_and_cache(
    ledger: Ledger, tmp_path: Path
) -> None:
    assert not mentions_private_life(PRIVATE)  # the keyword rule alone would store it
    steps: list[str] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        steps.append(step_of(request))
        return anthropic_json_reply(answer(steps[-1]))

    cache = tmp_path / "cache"
    extraction = await read_one_page(PAGE, f"{PRIVATE}, said", handler, ledger, cache)
    assert steps == ["extract_statements", "classify_statements"]
    (result,) = extraction.results
    assert [s.quote for s in result.statements] == [CLAIM]
    assert [d.reason for d in result.dropped] == ["private_life"]

    (stored,) = ledger.read_all("snapshots", "northwind", PageSnapshot)
    assert "climb the stairs" not in stored.text + stored.main_text
    assert PRIVATE_REDACTION in stored.text and stored.private_life_masked == 1
    # Everything else stays as received, so the kept quote still verifies against it.
    assert CLAIM in stored.text and "The shares rose 2% on the day." in stored.text
    assert result.statements[0].quote_verified

    cached = [p.read_text(encoding="utf-8") for p in cache.rglob("*.json")]
    assert len(cached) == 2 and not any("climb the stairs" in text for text in cached)
    # The stored search result holding it comes back masked, to be stored again.
    assert extraction.result_sets is not None
    assert "climb the stairs" not in extraction.result_sets[0].results[0].snippet
    # Nothing derived from the extraction that may be stored holds it either.
    assert "climb the stairs" not in extraction.model_dump_json()
    # Only its fingerprint is kept, so a copy of the page read later as evidence is masked.
    marks = ledger.read_all("private_sentences", "northwind", PrivateSentenceMark)
    assert marks and not any("climb the stairs" in m.model_dump_json() for m in marks)
    copy = stored.model_copy(update={"url": "https://copy.example/", "text": PAGE, "main_text": PAGE})
    masked = mask_known_private_sentences(copy, known_private_sentences(ledger, "northwind"))
    assert "climb the stairs" not in masked.text and CLAIM in masked.text


class SnippetSearch:
    """A live search provider whose every answer carries the page's snippet."""

    name = "perplexity"

    def __init__(self, snippet: str) -> None:
        self.snippet = snippet

    async def search(self, query: SearchQuery) -> list[SearchResult]:
        return [SearchResult(url=URL, title="Northwind interview", snippet=self.snippet, rank=1)]


async def test_a_sentence_the_classifier_flags_private_is_masked_in_the_cached_search_answers(
    ledger: Ledger, tmp_path: Path
) -> None:
    # The candidate searches ran (and were cached) before step 4 found the statement private.
    search = RecordingSearch(SnippetSearch(f"{PRIVATE}, said Anna Berg."), ResponseCache(tmp_path / "search"), CLOCK)
    for purpose, query in candidate_queries(ENTRY):
        await search.search("northwind", purpose, query, VERSION)
    cached = list((tmp_path / "search").rglob("*.json"))
    assert cached and all("climb the stairs" in p.read_text(encoding="utf-8") for p in cached)

    def handler(request: httpx2.Request) -> httpx2.Response:
        return anthropic_json_reply(answer(step_of(request)))

    await read_one_page(PAGE, f"{PRIVATE}, said", handler, ledger, tmp_path / "models", search)
    assert not any("climb the stairs" in p.read_text(encoding="utf-8") for p in cached)
    # Reused inside its lifetime, the cached answer now gives the masked snippet.
    again = await search.search("northwind", *candidate_queries(ENTRY)[0], VERSION)
    assert PRIVATE_REDACTION in again.results[0].snippet


# --- the keyword rule: ordinary forms of illness, treatment, family and homes -----------------

ORDINARY_FORMS = [
    "I was treated for lymphoma last year and it changed how I lead",  # treatment, a named illness
    "She had a stroke in 2019 and came back after six months",
    "My mum ran a bakery in Esbjerg for thirty years",  # a parent by a familiar word
    "Dad taught me to sail before I could read",
    "We spent August at our place in Provence",  # a holiday home without the word "home"
    "We spent the summer at the summer house",
    "Min far var fisker i Thyborøn",  # Danish
    "Vi holdt ferie i sommerhuset hele juli",
    "Meine Mama hat mir das Rechnen beigebracht",  # German
    "Ich wurde wegen Krebs behandelt",
    "J'ai été opérée du genou en mars",  # French
    "Mi madre era maestra en Sevilla",  # Spanish
]
ORGANISATIONS = [
    "Our children's hospital foundation raised EUR 2 million in 2022",
    "Denmark remains our home market",
    "Our health programme reached 2 million people in 2022",
    "Our cancer drug cut mortality by 20% in the trial",
    "We cut sick leave by 10% in 2022",
    "I 2021 blev 300 patienter behandlet for kræft på vores hospitaler",
    "Notre famille de produits s'agrandit en 2024",
    "Cabin crew numbers rose to 1,200",
]


async def test_ordinary_forms_of_illness_family_and_homes_the_classifier_misses_are_never_stored(
    ledger: Ledger, tmp_path: Path
) -> None:
    # The classifier reads every statement as the subject's ordinary factual claim.
    quotes = ORDINARY_FORMS + ORGANISATIONS
    page = "Northwind Energy's annual interview.\n" + "\n".join(f'"{q}," said Anna Berg.' for q in quotes) + "\n"

    def handler(request: httpx2.Request) -> httpx2.Response:
        if step_of(request) == "extract_statements":
            return anthropic_json_reply(
                {
                    "statements": [
                        {"quote": q, "context": "said Anna Berg", "form": "direct_quote", "speaker_hint": "Anna Berg"}
                        for q in quotes
                    ],
                    "private_life_omitted": 0,
                }
            )
        body = json.loads(request.content)
        indices = [int(i) for i in re.findall(r'\\?"index\\?":\s*(\d+)', json.dumps(body["messages"]))]
        return anthropic_json_reply({"items": [reading(i).model_dump(mode="json") for i in indices]})

    cache = tmp_path / "cache"
    extraction = await read_one_page(page, "", handler, ledger, cache)
    (result,) = extraction.results
    assert sorted(s.quote for s in result.statements) == sorted(ORGANISATIONS)
    (stored,) = ledger.read_all("snapshots", "northwind", PageSnapshot)
    cached = "".join(p.read_text(encoding="utf-8") for p in cache.rglob("*.json"))
    for quote in ORDINARY_FORMS:
        assert quote not in stored.text and quote not in cached, quote
    for quote in ORGANISATIONS:
        assert quote in stored.text, quote
