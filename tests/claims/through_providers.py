"""Step 4 through the live provider classes: the extractor's and the classifier's answers
scripted at the Anthropic SDK's transport (``tests/providers/wire.py``), run by
``extraction.extract_document`` on a gateway ``wiring.build_gateway`` builds with an API key,
so the code under test is the code that governs live runs."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from reliability_core.claims.extraction import ExtractionResult, extract_document
from reliability_core.clock import FixedClock
from reliability_core.models import RegistryEntry
from reliability_core.wiring import build_gateway
from tests.claims.claim_builders import ENTRY, VERSION, make_document, make_snapshot, reading
from tests.providers.wire import Scripted2, anthropic_json_reply

CLOCK = FixedClock(datetime(2026, 11, 30, 12, 0, tzinfo=UTC))
# extract_statements and classify_statements run on Anthropic by default: one key is enough.
LIVE_ENV = {"ANTHROPIC_API_KEY": "sk-ant-test"}


def classifier_reading(index: int, **overrides: Any) -> dict[str, Any]:
    """One item of the classifier's JSON answer, every field written as the model must:
    ``claim_builders.reading`` (a plain factual statement by the subject) with ``overrides``."""
    return reading(index, **{"restatement": "", **overrides}).model_dump(mode="json")


async def extract_through_providers(
    page: str,
    statements: list[dict[str, Any]],
    readings: list[dict[str, Any]],
    *,
    entry: RegistryEntry = ENTRY,
    clock: FixedClock = CLOCK,
) -> tuple[ExtractionResult, Scripted2]:
    """Run step 4 on ``page`` with the extractor answering ``statements`` and the classifier
    ``readings`` (JSON as the model sends it). Returns the result and the transport."""
    script = Scripted2(
        anthropic_json_reply({"statements": statements, "private_life_omitted": 0}),
        anthropic_json_reply(json.dumps({"items": readings})),
    )
    gateway = build_gateway(LIVE_ENV, None, http_client=script.client())
    result = await extract_document(
        document=make_document(),
        snapshot=make_snapshot(page),
        entry=entry,
        gateway=gateway,
        clock=clock,
        method_version=VERSION,
    )
    return result, script


def statement(quote: str, context: str = "", form: str = "direct_quote", speaker: str = "") -> dict[str, Any]:
    """One item of the extractor's JSON answer."""
    return {"quote": quote, "context": context, "form": form, "speaker_hint": speaker}
