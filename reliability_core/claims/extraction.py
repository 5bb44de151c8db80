"""Step 4: extract the subject's statements and check every quote ([M] step 4).

"One step copies the subject's statements exactly. A mechanical check then
requires each quote to appear word for word in the stored page text, after
normalising spacing and quotation marks. A quote that fails is kept but marked
unverified, never shown as verified. A second step decides who is speaking, the
claim type, a self-contained restatement, and any deadline or stated
probability. Statements by other people are dropped, as are reported
paraphrases." Statements about private life are dropped before anything is
stored: the extractor is told to leave them out, the keyword backstop drops
what it still copies before the classifier sees it, and the classifier's flag
drops the rest; a ``DroppedStatement`` for them carries no text.

``extract_document`` is the only function here that calls models; every
decision it applies is a pure function in ``speaker``, ``claim_type``, ``restatement``,
``stated_probability``, ``triage`` or below.
A page longer than the extraction step's input limit is read in overlapping
chunks (``page_chunks``), up to ``constants.EXTRACTION_MAX_CHUNKS``; what lies beyond is
cut, and the cut is recorded on the document's ``DocumentRead``, never silent.
A model failure on the document (refusal, invalid output, truncation, provider
error) is recorded there too; the document then has no statements and is
replaced by the next by the same rule, and the subject goes on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import date, datetime
from typing import TypedDict
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field

from reliability_core.claims.claim_type import (
    is_checkable_promise,
    is_company_guidance,
    is_party_political,
    resolve_claim_type,
)
from reliability_core.claims.classification import (
    ClassifyInput,
    ClassifyOutput,
    StatementClassification,
    StatementForm,
    StatementToClassify,
)
from reliability_core.claims.restatement import restatement_unanchored
from reliability_core.claims.speaker import drop_reason_for, is_about_private_life
from reliability_core.claims.stated_probability import record_stated_probability
from reliability_core.claims.triage import decide_time_zone, decide_triage_flags, triage_claim
from reliability_core.clock import Clock, local_date
from reliability_core.constants import EXTRACTION_CHUNK_OVERLAP_CHARS, EXTRACTION_MAX_CHUNKS
from reliability_core.ids import stable_id
from reliability_core.models.base import Record
from reliability_core.models.claims import Claim, DroppedStatement, DropReason, Statement
from reliability_core.models.documents import CandidateDocument, PageSnapshot
from reliability_core.models.subjects import RegistryEntry
from reliability_core.providers.assignment import limits_for
from reliability_core.providers.base import ModelGateway
from reliability_core.providers.errors import ItemFailure
from reliability_core.providers.failures import ModelFailure, record_failure
from reliability_core.text.quotes import verify_quote
from reliability_core.text.sentences import sentence_around

STEP_EXTRACT = "extract_statements"
STEP_CLASSIFY = "classify_statements"


class _PageOfSubject(TypedDict):
    """The fields ``ExtractInput`` and ``ClassifyInput`` share, under the same names."""

    subject_id: str
    subject_name: str
    aliases: list[str]
    subject_kind: str
    published_date: date | None
    own_document: bool


class ExtractInput(BaseModel):
    """Input of the "extract_statements" step: the page as the model reads it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    subject_id: str
    subject_name: str
    aliases: list[str]
    subject_kind: str
    subject_urls: list[str]
    document_id: str
    url: str
    title: str
    published_date: date | None
    own_document: bool = Field(description="True when the page is on one of the subject's own sites")
    page_text: str


class ExtractedStatement(BaseModel):
    """One passage copied exactly from the page."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    quote: str = Field(
        description="Copied character for character from the page text, without quotation marks"
    )
    context: str = Field(description="The attribution around it (e.g. 'said Anna Berg, chief executive')")
    form: StatementForm
    speaker_hint: str = Field(description="Who appears to be speaking; empty if unclear")


class ExtractOutput(BaseModel):
    """Output of the "extract_statements" step."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    statements: list[ExtractedStatement]
    private_life_omitted: int = Field(
        default=0, description="How many statements about private life were left out (count only, never text)"
    )


class DocumentRead(Record):
    """How step 4 read one checked document: how much of its text, in how many
    chunks, and the model failure that stopped it, if any."""

    subject_id: str
    document_id: str
    url: str
    text_chars: int
    chars_read: int
    chunks: int
    failure: ModelFailure | None = None

    @property
    def cut(self) -> bool:
        """Part of the page text was never read (longer than the chunks allow)."""
        return self.chars_read < self.text_chars


class ExtractionResult(BaseModel):
    """What step 4 produced for one document: only records that may be stored."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    subject_id: str
    document_id: str
    statements: list[Statement]
    claims: list[Claim]
    dropped: list[DroppedStatement]
    notes: list[str] = Field(default_factory=list)
    read: DocumentRead | None = None
    # Never stored (excluded from every dump): the quotes dropped as private, so that the
    # sentences holding them are masked in the page snapshot before it is written
    # (``stages.read_documents``) and in the cached model answers.
    private_quotes: list[str] = Field(default_factory=list, exclude=True, repr=False)


def page_chunks(
    text: str, limit: int, *, max_chunks: int = EXTRACTION_MAX_CHUNKS, overlap: int = EXTRACTION_CHUNK_OVERLAP_CHARS
) -> tuple[list[str], int]:
    """``text`` in chunks of at most ``limit`` characters that end at a line or word
    break where one is near, each overlapping the previous by about ``overlap``;
    at most ``max_chunks``. Returns the chunks and how many characters they cover
    from the start (less than ``len(text)`` when the page was cut)."""
    if len(text) <= limit:
        return [text], len(text)
    chunks: list[str] = []
    start = 0
    end = 0
    while start < len(text) and len(chunks) < max_chunks:
        end = min(len(text), start + limit)
        if end < len(text):
            # Break at a newline, else a space, in the last tenth of the chunk.
            window = text.rfind("\n", start + limit * 9 // 10, end)
            if window == -1:
                window = text.rfind(" ", start + limit * 9 // 10, end)
            if window != -1:
                end = window + 1
        chunks.append(text[start:end])
        if end >= len(text):
            break
        next_start = max(start + 1, end - overlap)
        space = text.find(" ", next_start, end)
        start = space + 1 if space != -1 else next_start
    return chunks, end


async def _extract_chunks(
    gateway: ModelGateway, base: ExtractInput, chunks: list[str]
) -> ExtractOutput | ItemFailure:
    """One extraction call per chunk (at once), merged: statements in page order
    without the repeats the overlaps produce; the first failure if any call failed."""
    outputs = await asyncio.gather(
        *(
            gateway.run(STEP_EXTRACT, base.model_copy(update={"page_text": chunk}), ExtractOutput)
            for chunk in chunks
        ),
        return_exceptions=True,
    )
    merged: list[ExtractedStatement] = []
    seen: set[str] = set()
    omitted = 0
    for output in outputs:
        if isinstance(output, ItemFailure):
            return output
        if isinstance(output, BaseException):
            raise output
        omitted += max(0, output.private_life_omitted)
        for item in output.statements:
            key = item.quote.strip()
            if key not in seen:
                seen.add(key)
                merged.append(item)
    return ExtractOutput(statements=merged, private_life_omitted=omitted)


def is_own_document(url: str, subject_urls: list[str]) -> bool:
    """A page on one of the subject's own hosts is the subject's own document
    (its body text is the subject speaking, [M] step 2 "its own writing")."""
    host = (urlsplit(url).hostname or "").lower()
    own_hosts = {(urlsplit(u).hostname or "").lower() for u in subject_urls}
    own_hosts.discard("")
    return host in own_hosts


def has_subject_statements(result: ExtractionResult) -> bool:
    """[M] step 3: "A document counts only if it contains statements by the
    subject": true when extraction kept at least one of the subject's statements
    (verified or not; dropped statements do not count)."""
    return bool(result.statements)


def _dropped(
    document: CandidateDocument, index: int, reason: DropReason, note: str, method_version: str
) -> DroppedStatement:
    # The id is built from the position, never from the text, so not even a hash of
    # a private statement is kept.
    return DroppedStatement(
        id=stable_id("drp", document.subject_id, document.id, index, reason),
        subject_id=document.subject_id,
        document_id=document.id,
        reason=reason,
        note=note,
        method_version=method_version,
    )


_DROP_NOTES: dict[DropReason, str] = {
    "private_life": "about private life, family, health, home or location: dropped before storage",
    "other_speaker": "spoken by someone other than the subject (classifier, or a speaker named in the sentence)",
    "paraphrase": "a reported paraphrase, not the subject's own words (classifier, reported form or wording)",
    "not_a_claim": "the classifier returned no reading for this statement",
}


def build_claim(
    statement: Statement,
    classification: StatementClassification,
    *,
    made_on: date | None,
    now: date | datetime,
    classified_by: str,
    sentence: str = "",
    subject_names: Sequence[str] = (),
    registry_time_zone: str | None = None,
) -> Claim | None:
    """Apply the method's rules to the classifier's reading of a kept statement:
    guidance is a prediction, party politics is flagged, probabilities follow the
    words, promises need a deliverable or target with a date, the claim's time zone
    is decided and the run's date read in it, the restatement is checked against the
    quote and its sentence, the triage flags and deadline are read from the quote beside
    the classifier's (``triage.decide_triage_flags``: the code's reading stands, recorded
    in ``Claim.classifier_overruled``), then triage. None when the statement asserts nothing
    checkable at all (not a claim)."""
    if not classification.is_claim or classification.claim_type is None:
        return None
    quote = statement.quote
    time_zone, time_zone_source = decide_time_zone(classification.time_zone, registry_time_zone)
    if isinstance(now, datetime):
        now = local_date(now, time_zone)
    restatement = classification.restatement.strip() or quote
    unanchored = restatement_unanchored(restatement, quote, sentence, subject_names)
    claim_type = resolve_claim_type(
        classification.claim_type, classification.company_guidance or is_company_guidance(quote)
    )
    probability, probability_kind = (
        record_stated_probability(classification.stated_probability, classification.probability_kind, quote)
        if claim_type == "prediction"
        else (None, None)
    )
    flags = decide_triage_flags(classification, quote, claim_type)
    triage, triage_reason = triage_claim(
        claim_type=claim_type,
        deadline=flags.deadline,
        vague=flags.vague,
        counterfactual=flags.counterfactual,
        own_records_only=flags.own_records_only,
        checkable_promise=is_checkable_promise(flags.names_deliverable_or_target, flags.deadline),
        now=now,
        harm_to_person=flags.harm_to_person,
    )
    return Claim(
        id=stable_id("clm", statement.id),
        statement_id=statement.id,
        subject_id=statement.subject_id,
        document_id=statement.document_id,
        url=statement.url,
        quote=quote,
        quote_verified=statement.quote_verified,
        speaker=classification.speaker,
        claim_type=claim_type,
        restatement=restatement,
        made_on=made_on,
        deadline=flags.deadline,
        stated_probability=probability,
        probability_kind=probability_kind,
        party_political=is_party_political(classification.party_political, quote),
        triage=triage,
        triage_reason=triage_reason,
        classified_by=classified_by,
        method_version=statement.method_version,
        time_zone=time_zone,
        time_zone_source=time_zone_source,
        harm_to_person=flags.harm_to_person,
        classifier_overruled=flags.overruled,
        restatement_verified=not unanchored,
        restatement_note=(
            "restatement unverified: not in the quote or its sentence: " + "; ".join(unanchored) if unanchored else ""
        ),
    )


async def extract_document(
    *,
    document: CandidateDocument,
    snapshot: PageSnapshot,
    entry: RegistryEntry,
    gateway: ModelGateway,
    clock: Clock,
    method_version: str,
) -> ExtractionResult:
    """[M] step 4 for one selected document: extract, drop private life, classify,
    drop other speakers and paraphrases, check every kept quote against the
    snapshot's whole visible text, type and triage the claims."""
    notes: list[str] = []
    private_quotes: list[str] = []  # masked in the stored page and caches, never stored themselves
    page_text = snapshot.main_text or snapshot.text
    limit = limits_for(STEP_EXTRACT).max_input_chars
    chunks, chars_read = page_chunks(page_text, limit)
    read = DocumentRead(
        subject_id=document.subject_id,
        document_id=document.id,
        url=document.url,
        text_chars=len(page_text),
        chars_read=chars_read if page_text else 0,
        chunks=len(chunks) if page_text else 0,
    )

    def nothing_extracted(why: str, read: DocumentRead) -> ExtractionResult:
        return ExtractionResult(
            subject_id=document.subject_id,
            document_id=document.id,
            statements=[],
            claims=[],
            dropped=[],
            notes=[*notes, why],
            read=read,
            private_quotes=private_quotes,
        )

    def failed(exc: ItemFailure) -> ExtractionResult:
        failure = record_failure(exc, subject_id=document.subject_id, item_kind="document", item_id=document.id)
        return nothing_extracted(
            f"extraction failed: {failure.label()}: {failure.detail}", read.model_copy(update={"failure": failure})
        )

    if snapshot.outcome != "ok" or not page_text:
        return nothing_extracted(
            f"no page text to extract from (fetch outcome {snapshot.outcome}: {snapshot.reason})", read
        )
    if len(chunks) > 1:
        notes.append(f"page text of {len(page_text)} characters read in {len(chunks)} chunks of at most {limit}")
    if read.cut:
        notes.append(f"page text cut: read the first {chars_read} of {len(page_text)} characters")
    # What both model steps are told of the subject and the page, built once so the
    # extractor and the classifier cannot be told different things.
    page = _PageOfSubject(
        subject_id=entry.id,
        subject_name=entry.name,
        aliases=entry.aliases,
        subject_kind=entry.kind,
        published_date=document.published_date,
        own_document=is_own_document(snapshot.final_url or snapshot.url, entry.urls),
    )
    title = snapshot.title or document.title
    extracted = await _extract_chunks(
        gateway,
        ExtractInput(
            **page,
            subject_urls=entry.urls,
            document_id=document.id,
            url=document.url,
            title=title,
            page_text="",
        ),
        chunks,
    )
    if isinstance(extracted, ItemFailure):
        return failed(extracted)

    dropped: list[DroppedStatement] = []
    # Sentences about private life were masked when the page was read (so no store
    # ever holds them); each one counts as a private-life drop of this document.
    omitted = max(0, extracted.private_life_omitted) + snapshot.private_life_masked
    for n in range(omitted):
        dropped.append(
            _dropped(document, -1 - n, "private_life", _DROP_NOTES["private_life"], method_version)
        )

    # Privacy backstop first: a statement the keyword rule catches never reaches the classifier.
    to_classify: list[tuple[int, ExtractedStatement]] = []
    for index, item in enumerate(extracted.statements):
        if not item.quote.strip():
            continue
        if is_about_private_life(False, item.quote, item.context):
            dropped.append(
                _dropped(document, index, "private_life", _DROP_NOTES["private_life"], method_version)
            )
            private_quotes.append(item.quote.strip())
            continue
        to_classify.append((index, item))

    readings: dict[int, StatementClassification] = {}
    if to_classify:
        try:
            classified = await gateway.run(
                STEP_CLASSIFY,
                ClassifyInput(
                    **page,
                    document_url=document.url,
                    document_title=title,
                    statements=[
                        StatementToClassify(
                            index=index,
                            quote=item.quote.strip(),
                            context=item.context,
                            form=item.form,
                            speaker_hint=item.speaker_hint,
                        )
                        for index, item in to_classify
                    ],
                ),
                ClassifyOutput,
            )
        except ItemFailure as exc:
            return failed(exc)
        readings = {reading.index: reading for reading in classified.items}

    statements: list[Statement] = []
    claims: list[Claim] = []
    seen: set[str] = set()
    extracted_by = gateway.model_for(STEP_EXTRACT)
    classified_by = gateway.model_for(STEP_CLASSIFY)
    now = clock.now()
    subject_names = [entry.name, *entry.aliases]
    for index, item in to_classify:
        quote = item.quote.strip()
        reading = readings.get(index)
        if reading is None:
            dropped.append(
                _dropped(document, index, "not_a_claim", _DROP_NOTES["not_a_claim"], method_version)
            )
            continue
        check = verify_quote(quote, snapshot.text)
        sentence = sentence_around(snapshot.text, check.start, check.end) if check.verified else ""
        reason = drop_reason_for(
            reading, quote, item.context, form=item.form, sentence=sentence, subject_names=subject_names
        )
        if reason is not None:
            dropped.append(_dropped(document, index, reason, _DROP_NOTES[reason], method_version))
            if reason == "private_life":
                private_quotes.append(quote)
            continue
        statement_id = stable_id("stm", document.subject_id, document.id, quote)
        if statement_id in seen:
            continue
        seen.add(statement_id)
        statement = Statement(
            id=statement_id,
            subject_id=document.subject_id,
            document_id=document.id,
            url=document.url,
            snapshot_sha256=snapshot.sha256,
            quote=quote,
            quote_verified=check.verified,
            match_start=check.start if check.verified else None,
            match_end=check.end if check.verified else None,
            context=item.context,
            extracted_by=extracted_by,
            method_version=method_version,
        )
        if not check.verified:
            notes.append(f"quote {statement_id} unverified: {check.reason}")
        statements.append(statement)
        claim = build_claim(
            statement,
            reading,
            made_on=document.published_date,
            now=now,
            classified_by=classified_by,
            sentence=sentence,
            subject_names=subject_names,
            registry_time_zone=entry.time_zone,
        )
        if claim is not None:
            claims.append(claim)
    return ExtractionResult(
        subject_id=document.subject_id,
        document_id=document.id,
        statements=statements,
        claims=claims,
        dropped=dropped,
        notes=notes,
        read=read,
        private_quotes=private_quotes,
    )
