"""What may be evidence: the rules over one opened page and one proposed quote ([M] step 7,
[V] T1, [R] "Sources it accepts").

"Every evidence quote is checked mechanically against the fetched page. Evidence from the
claim's own source document is never used, including copies of it at other addresses and
reports that only repeat the claim: a claim cannot be checked against itself." The reader
proposes a dated quote (``ReadItem``); these functions decide whether it stands and record
why when it does not (excluded items are kept with their reasons). The research step
(``evidence``) applies them page by page; the rule that one story counts once, which looks
across pages, is in ``duplicates``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from reliability_core.clock import local_date
from reliability_core.constants import EVIDENCE_QUOTE_MAX_CHARS, EVIDENCE_QUOTE_MIN_CHARS
from reliability_core.ids import stable_id
from reliability_core.models.claims import Claim
from reliability_core.models.documents import PageSnapshot
from reliability_core.models.verdicts import EvidenceItem
from reliability_core.text.quotes import value_in_quote, verify_quote
from reliability_core.verdicts.duplicates import is_copy_of, repeats_claim
from reliability_core.verdicts.outcome_wording import (
    NotOutcomeKind,
    expectation_cue,
    reports_delay_or_cancellation,
    times_named_in,
)
from reliability_core.verdicts.sources import SourceClassification
from reliability_core.web.urls import canonical_url

Side = Literal["for", "against"]
Stance = Literal["supports", "contradicts", "neutral"]
EvidenceKind = Literal["outcome", "forecast", "poll", "analyst_expectation", "repeat_of_claim", "background"]

# Kinds of statement that are never an outcome ([R] "Forecasts, polls and analyst
# expectations are never outcomes").
NEVER_OUTCOMES: frozenset[str] = frozenset({"forecast", "poll", "analyst_expectation"})


class ReadItem(BaseModel):
    """One dated quote the reader proposes; code verifies it before anything else."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    quote: str = Field(description="Copied word for word from the page text, 20 to 600 characters")
    published_date: date | None = Field(description="The date the quoted account refers to or was published")
    published_at: datetime | None = Field(
        default=None,
        description="When the page gives a time as well: the date and time with its UTC offset, else null",
    )
    observed_value: float | None = Field(
        description="The number the quote reports for the criteria's quantity"
    )
    stance: Stance
    kind: EvidenceKind


# --- one opened page ---------------------------------------------------------------


def is_own_source_url(url: str, own_urls: Sequence[str]) -> bool:
    """[M] step 7: never "the claim's own source document": the same URL after canonicalisation."""
    own = {canonical_url(u) for u in own_urls if u}
    return canonical_url(url) in own


@dataclass(frozen=True)
class OwnSource:
    """The claim's own source document as the rule reads it: every address it is known at
    (the claim's URL, and the fetched document's address and final address) and its main
    text (what the models read, without navigation and boilerplate)."""

    urls: tuple[str, ...]
    text: str


def own_source_of(claim: Claim, document: PageSnapshot | None) -> OwnSource:
    """The claim's own source, from the claim and the snapshot of the document it was
    extracted from (None when that document is not at hand: then only the claim's URL)."""
    if document is None:
        return OwnSource(urls=(claim.url,), text="")
    return OwnSource(
        urls=(claim.url, document.url, document.final_url or ""),
        text=document.main_text or document.text,
    )


def own_source_reason(own: OwnSource, *, url: str | None = None, page: PageSnapshot | None = None) -> str:
    """[M] step 7: "Evidence from the claim's own source document is never used, including
    copies of it at other addresses": why a page is the claim's own source, or "" when it is
    not. In order: the address search returned is one of the own source's (``url``); the
    fetched page (``page``) ends at one of them after redirects; its main text is a copy of
    the own source's main text (``duplicates.is_copy_of``). The research step asks before
    fetching (the address) and after (the page); the blocking asset check
    ``no_evidence_from_own_source`` asks both of every admitted item as stored."""
    if url is not None and is_own_source_url(url, own.urls):
        return "the claim's own source document (same URL)"
    if page is None:
        return ""
    if is_own_source_url(page.final_url or page.url, own.urls):
        return "redirects to the claim's own source document"
    if own.text and is_copy_of(page.main_text or page.text, own.text):
        return "copy of the claim's own source at another address"
    return ""


def page_exclusion_reason(snapshot: PageSnapshot, *, own: OwnSource, source: SourceClassification) -> str:
    """Why an opened page gives no evidence, or "" when it is read. In order: the fetcher did
    not read it (robots.txt, a crawl delay over 30 s, an error: [M] step 7 "respecting each
    site's robots.txt"); it redirects to the claim's own source or is a copy of it at another
    address (``own_source_reason``); its class is rejected ([R] "No: social media, forums, ...")."""
    if snapshot.outcome != "ok":
        return f"not read: {snapshot.outcome} {snapshot.reason}".strip()
    from_own_source = own_source_reason(own, page=snapshot)
    if from_own_source:
        return from_own_source
    if not source.accepted:
        return f"rejected source class {source.source_class}: never evidence ({source.reason})"
    return ""


# --- one proposed quote ------------------------------------------------------------


def never_an_outcome(kind: str) -> bool:
    """[R] "Forecasts, polls and analyst expectations are never outcomes"."""
    return kind in NEVER_OUTCOMES


def never_an_outcome_reading(quote: str, *, quote_date: date | None) -> tuple[NotOutcomeKind, str] | None:
    """[R] "Forecasts, polls and analyst expectations are never outcomes", decided from the
    verified quote's own words and date, whatever the reader labelled it: the kind of
    statement the quote is and what shows it, or None when its words and date read as an
    outcome. In order: analysts or their consensus, a poll (``outcome_wording.expectation_cue``);
    expectation, forecast or estimate wording, or the future tense, unless the quote reports a
    delay, miss or cancellation (a decision already taken: "has been postponed and will now
    open in 2027" is an outcome); and a quote dated before every time it names ("8.1 GW at
    the end of 2024", dated in October 2024): dated before the event it describes, it is not
    an outcome of it. The stand-in's reader calls this too."""
    cue = expectation_cue(quote)
    reports_outcome = reports_delay_or_cancellation(quote)
    if cue is not None and (cue[0] != "forecast" or not reports_outcome):
        return cue[0], f'its words "{cue[1]}"'
    if quote_date is not None and not reports_outcome:
        named = times_named_in(quote)
        if named and all(when > quote_date for when in named):
            return "forecast", f"dated {quote_date.isoformat()}, before the time it speaks of ({min(named).isoformat()})"
    return None


def decided_kind(proposed: ReadItem, *, quote_date: date | None) -> tuple[EvidenceKind, str]:
    """The kind of statement a proposed quote is, as code reads it, and a note recording the
    reader's label when the two differ (empty when they agree). Code's reading
    (``never_an_outcome_reading``) overrides an "outcome" or "background" label; a reader that
    calls a quote a forecast, poll or expectation where code finds no such words keeps its
    stricter label, since a model may refuse evidence but never admit what the rule refuses."""
    reading = never_an_outcome_reading(proposed.quote, quote_date=quote_date)
    if reading is None:
        if never_an_outcome(proposed.kind):
            return proposed.kind, (
                f"the reader labelled it {proposed.kind}; code finds no forecast, poll or expectation "
                "in its words or dates, and the stricter label stands"
            )
        return proposed.kind, ""
    kind, shown_by = reading
    if kind == proposed.kind:
        return kind, ""
    return kind, f"the reader labelled it {proposed.kind}; code reads {kind.replace('_', ' ')} from {shown_by}"


def item_exclusion_reason(
    item: ReadItem,
    *,
    verified: bool,
    claim: Claim,
    kind: EvidenceKind | None = None,
    speaker_names: Sequence[str] = (),
) -> str:
    """Why a read quote cannot be evidence, or "" when it can. In order: unverified quote
    ([V] T1), a report that only repeats the claim or attributes it to its speaker ([M] step
    7, ``duplicates.repeats_claim``), a forecast, poll or analyst expectation ([R]) of the
    ``kind`` code decided (``decided_kind``; the reader's label when none is given)."""
    kind = kind or item.kind
    if not verified:
        return "quote not found word for word on the fetched page: never given to a judge"
    names = [claim.speaker, *speaker_names]
    if kind == "repeat_of_claim" or repeats_claim(item.quote, [claim.quote, claim.restatement], speaker_names=names):
        return "only repeats the claim: a claim cannot be checked against itself"
    if never_an_outcome(kind):
        return f"{kind.replace('_', ' ')}: forecasts, polls and analyst expectations are never outcomes"
    return ""


def evidence_date(proposed: ReadItem, search_date: date | None, time_zone: str) -> date | None:
    """[#15] rule 11 "deadlines are compared in [the claim's time zone], and something at 11:30
    pm on the deadline day counts": an account with a time is dated by its calendar day in the
    claim's time zone (11:30 pm in New York on 31 December is 31 December there, though it is
    already 1 January in UTC); otherwise the date the reader gave, else the search result's."""
    if proposed.published_at is not None:
        return local_date(proposed.published_at, time_zone)
    return proposed.published_date or search_date


def evidence_item(
    *,
    claim: Claim,
    snapshot: PageSnapshot,
    url: str,
    side: Side,
    search_date: date | None,
    source: SourceClassification,
    proposed: ReadItem,
    method_version: str,
    subject_names: Sequence[str] = (),
) -> EvidenceItem:
    """One proposed quote as a stored item: [V] T1 "Find the quote verbatim" against the fetched
    page text and "Find the value inside the quote"; excluded with its reason when it cannot be
    evidence; the fetch record (status, time, SHA-256) kept with it."""
    check = verify_quote(
        proposed.quote, snapshot.text, min_chars=EVIDENCE_QUOTE_MIN_CHARS, max_chars=EVIDENCE_QUOTE_MAX_CHARS
    )
    observed = proposed.observed_value
    if observed is not None and not (check.verified and value_in_quote(observed, proposed.quote)):
        observed = None
    published = evidence_date(proposed, search_date, claim.time_zone)
    kind, kind_note = decided_kind(proposed, quote_date=published)
    reason = item_exclusion_reason(
        proposed, verified=check.verified, claim=claim, kind=kind, speaker_names=subject_names
    )
    return EvidenceItem(
        published_at=proposed.published_at,
        method_version=method_version,
        id=stable_id("evd", claim.id, snapshot.sha256, proposed.quote),
        claim_id=claim.id,
        subject_id=claim.subject_id,
        url=url,
        final_url=snapshot.final_url,
        snapshot_id=snapshot.id,
        snapshot_sha256=snapshot.sha256,
        http_status=snapshot.status,
        fetched_at=snapshot.fetched_at,
        quote=proposed.quote,
        quote_verified=check.verified,
        source_class=source.source_class,
        publisher=source.publisher,
        independent=not source.subject_own,
        published_date=published,
        side=side,
        stance=proposed.stance,
        observed_value=observed,
        excluded=bool(reason),
        exclusion_reason=reason,
        primary_or_major=source.primary_or_major,
        subject_own=source.subject_own,
        source_reason=source.reason,
        evidence_kind=kind,
        reader_kind=proposed.kind if kind_note else None,
        kind_note=kind_note,
    )
