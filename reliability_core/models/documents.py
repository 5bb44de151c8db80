"""Search results, candidate documents, the document sample and page snapshots."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import Field

from reliability_core.models.base import Record, StampedRecord


class SearchResult(Record):
    """One result as a search provider returned it."""

    url: str
    title: str
    snippet: str = ""
    published_date: date | None = None
    rank: int


class SearchResultSet(StampedRecord):
    """Every result set is stored, so later stages can prove a URL was returned
    by search ([M] step 2: "A URL that search did not actually return is never used")."""

    id: str
    subject_id: str
    purpose: str  # "identity", "candidates", "evidence:<claim_id>:for", ...
    query: str
    provider: str
    retrieved_at: datetime
    results: list[SearchResult]


class CandidateDocument(StampedRecord):
    """A document in which the subject itself may speak ([M] step 2)."""

    id: str = Field(description="The candidate document's id")
    subject_id: str = Field(description="The subject's slug id (its partition)")
    url: str = Field(description="The document's address as search returned it")
    title: str = Field(description="The title search gave")
    snippet: str = Field(default="", description="The snippet search gave")
    published_date: date | None = Field(default=None, description="The publication date search gave, if any")
    year: int | None = Field(
        default=None, description="The year the document is filed under for the spread over years"
    )
    forward_looking: bool = Field(
        default=False, description="Whether the document looks ahead (plans, targets, forecasts)"
    )
    search_result_set_id: str = Field(description="The stored search result set that returned it")
    rank: int = Field(description="Its rank in that search's results")
    listed_at: datetime = Field(description="When the candidate list was made (UTC)")


class DocumentSelection(StampedRecord):
    """Sample membership of a document ([M] step 3), with why it was chosen."""

    subject_id: str = Field(description="The subject's slug id (its partition)")
    document_id: str = Field(description="The candidate document chosen")
    url: str = Field(description="The document's address")
    position: int = Field(description="Its position in the seeded sample")
    slot: Literal["spread", "forward_looking", "replacement"] = Field(
        description="Which slot of the sample it fills: spread over years, forward-looking, or a replacement"
    )
    year: int | None = Field(description="The year it stands for")
    seed: int = Field(description="The seed of the sampling rule ([M] step 3)")
    reason: str = Field(description="Why it was chosen, in words")
    has_subject_statements: bool | None = Field(
        default=None, description="Whether the subject speaks in it (None until read)"
    )
    forward_looking: bool = Field(default=False, description="Whether the document looks ahead")


FetchOutcome = Literal[
    "ok",
    "refused_url",
    "refused_address",
    "refused_robots",
    "skipped_crawl_delay",
    "too_large",
    "timeout",
    "http_error",
    "unsupported_type",
    "unverifiable_pdf",
    "unparseable",
    "network_error",
    "too_many_redirects",
]


HiddenTextKind = Literal[
    "css_hidden",  # display:none, visibility:hidden
    "hidden_attribute",  # the ``hidden`` attribute
    "aria_hidden",  # aria-hidden="true" blocks
    "same_colour",  # text coloured like its background
    "tiny_text",  # font size of about a pixel or less
    "off_screen",  # positioned or indented far out of view
    "transparent",  # opacity 0
    "html_comment",
]


class HiddenText(Record):
    """Text in a page's raw HTML that a reader of the page does not see ([#16] hidden-text
    detection "on the raw HTML at fetch time ..., recorded on the snapshot")."""

    kind: HiddenTextKind
    text: str
    sourceline: int | None = None  # line of the hiding element (or comment) in the raw HTML


class PageSnapshot(StampedRecord):
    """What the server itself read at a URL ([V] T1 "Record the evidence"):
    append-only, identified by URL and content hash."""

    id: str
    url: str
    final_url: str | None
    redirect_chain: list[str] = Field(default_factory=list)
    status: int | None
    fetched_at: datetime
    sha256: str | None
    byte_count: int
    content_type: str | None
    outcome: FetchOutcome
    reason: str = ""
    title: str = ""
    # Texts as stored: every sentence about private life masked before anything is
    # stored ([M] step 4); ``sha256`` is still of the bytes as received.
    text: str = ""  # whole visible text: quotes are verified against this
    main_text: str = ""  # readability main text: what the models read
    hidden_texts: list[HiddenText] = Field(default_factory=list)  # found in the raw HTML at fetch
    private_life_masked: int = 0  # sentences masked in ``text`` (a count, never text)


class PrivateSentenceMark(StampedRecord):
    """A sentence step 4 found private, kept as a fingerprint only (SHA-256 of its normalised
    words, never its text), so the same sentence in a copy of the page fetched later under
    another URL (a syndicated report read as evidence) is masked before it is stored."""

    id: str
    subject_id: str
    sha256: str
