"""The rules over one opened page: never evidence from the claim's own source document,
at its own address, after a redirect, or copied at another address ([M] step 7)."""

from __future__ import annotations

from reliability_core.verdicts.evidence_rules import OwnSource, own_source_of, own_source_reason
from tests.verdicts.builders import snapshot
from tests.verdicts.factories import make_claim

OWN_TEXT = (
    "Northwind Energy said on Tuesday that its Baltic Three offshore wind farm had been delayed by a year "
    "after a supplier failed to deliver turbine foundations on time. The company now expects the farm to be "
    "completed in 2026 rather than 2025, a spokesperson said, adding that the cost impact would be reported "
    "with the annual results in February."
)
CLAIM = make_claim()
DOCUMENT = snapshot("https://northwind.example/press/baltic-three", OWN_TEXT).model_copy(
    update={"final_url": "https://northwind.example/press/baltic-three-delay"}
)


def own() -> OwnSource:
    return own_source_of(CLAIM, DOCUMENT)


def test_the_claims_own_source_is_known_at_every_address_it_was_read_at() -> None:
    assert set(own().urls) == {CLAIM.url, DOCUMENT.url, "https://northwind.example/press/baltic-three-delay"}
    assert own_source_of(CLAIM, None) == OwnSource(urls=(CLAIM.url,), text="")


def test_a_returned_address_of_the_own_source_is_never_opened() -> None:
    assert own_source_reason(own(), url=CLAIM.url + "?utm_source=feed") == "the claim's own source document (same URL)"


def test_a_page_that_redirects_to_the_own_source_is_not_evidence() -> None:
    page = snapshot("https://short.example/x", "Anything").model_copy(update={"final_url": DOCUMENT.final_url})
    assert own_source_reason(own(), page=page) == "redirects to the claim's own source document"


def test_a_copy_of_the_own_source_at_another_address_is_not_evidence() -> None:
    copy = snapshot("https://mirror.example/story", "Republished from Northwind Energy. " + OWN_TEXT)
    assert own_source_reason(own(), url=copy.url, page=copy) == "copy of the claim's own source at another address"


def test_an_independent_page_is_not_the_own_source() -> None:
    page = snapshot("https://wire.example/register", "The regulator's register listed 7.4 GW in operation.")
    assert own_source_reason(own(), url=page.url, page=page) == ""
