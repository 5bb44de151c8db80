"""Step 1 of the method: confirm who the subject is, then decide coverage.

"Confirm who the subject is. A search-based step checks that the name and URLs
point to one subject. A separate decision step, using only that evidence,
decides whether the subject may be covered: public figure, not a serving
politician. When the evidence is thin, the rule is not to cover."

"Public figures and organisations only, from their public professional output.
A person who is not a public figure is covered only with their documented
consent. Serving politicians and officials in post are out of scope."

Two model steps run through the gateway:

* ``confirm_identity`` reads the identity search hits and says which of them are
  about this subject (and whether name and URLs point to one subject);
* ``decide_coverage`` sees ONLY the evidence the first step kept (plus the
  subject's name and the registry's documented-consent flag) and answers the
  coverage questions.

Code then applies the hard rules (``coverage_allowed``): a model cannot cover a
serving politician, a subject on thin evidence, or a private person without
consent. Every reason is stored on the ``CoverageDecision``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from urllib.parse import urlsplit

from pydantic import Field

from reliability_core.clock import Clock, today
from reliability_core.constants import (
    COVERAGE_IDENTITY_MAX_RESULTS,
    COVERAGE_MIN_IDENTITY_SOURCES,
    OFFICE_NAME_GAP_WORDS,
)
from reliability_core.models import CoverageDecision, IdentityEvidence, Record, RegistryEntry, SearchResultSet
from reliability_core.models.subjects import SubjectKind
from reliability_core.providers.base import ModelGateway, SearchQuery
from reliability_core.providers.errors import ItemFailure
from reliability_core.providers.failures import ModelFailure, record_failure
from reliability_core.subjects.candidates import (
    SearchLike,
    check_url_returned_by_search,
    search_each,
    search_failure_notes,
    urls_returned_by_search,
)
from reliability_core.subjects.offices import NOT_AN_OFFICE, office_has_ended, office_mentions
from reliability_core.text.lexicon import area_lexicon
from reliability_core.text.sentences import split_sentences
from reliability_core.web.urls import canonical_url

IDENTITY_PURPOSE = "identity"
CONFIRM_IDENTITY_STEP = "confirm_identity"
DECIDE_COVERAGE_STEP = "decide_coverage"
_MAX_ALIAS_QUERIES = 2
# ``decided_by`` of a decision nobody made (``needs_live_providers_decision``).
NO_DECISION = "none (needs live providers)"


# --- Step input and output models ----------------------------------------------------


class IdentityHit(Record):
    """One identity search result as the ``confirm_identity`` step sees it."""

    url: str
    title: str
    snippet: str = ""
    published_date: str | None = None


class ConfirmIdentityInput(Record):
    """Input of ``confirm_identity``: the registry's claim about who the subject
    is, and what search returned for its name."""

    subject_id: str
    name: str
    aliases: list[str] = Field(default_factory=list)
    registry_urls: list[str] = Field(default_factory=list)
    description: str = ""
    hits: list[IdentityHit]


class ConfirmIdentityOutput(Record):
    """Output of ``confirm_identity``."""

    same_subject: bool = Field(description="True when the name and the registry URLs point to one subject")
    matching_urls: list[str] = Field(
        default_factory=list,
        description="URLs of hits that are about this subject (copied exactly from the hits)",
    )
    other_subject_urls: list[str] = Field(
        default_factory=list,
        description="URLs of hits about a different subject with the same or a similar name",
    )
    reasons: list[str] = Field(default_factory=list)


class DecideCoverageInput(Record):
    """Input of ``decide_coverage``: only the stored identity evidence, the name
    it is about, and whether the registry holds documented consent."""

    subject_id: str
    name: str
    aliases: list[str] = Field(default_factory=list)
    evidence: list[IdentityEvidence]
    documented_consent: bool


class DecideCoverageOutput(Record):
    """Output of ``decide_coverage``."""

    is_public_figure_or_organisation: bool
    is_serving_politician: bool = Field(description="A serving politician or an official in post")
    covered: bool
    reasons: list[str] = Field(default_factory=list)


class ServingOffice(Record):
    """An office held now, read by code from the identity evidence."""

    url: str = Field(description="The identity evidence item that names the office")
    office: str = Field(description="The office as written")
    concept: str = Field(description="Which kind of office (minister, member of parliament, judge, ...)")


class CoverageRuling(Record):
    """What the code-side rules allow, with every reason."""

    covered: bool
    reasons: list[str]


class CoverageResult(Record):
    """The stored outcome of step 1: the decision and every identity result set."""

    decision: CoverageDecision
    result_sets: list[SearchResultSet]
    identity: ConfirmIdentityOutput | None
    model_decision: DecideCoverageOutput | None
    # A model failure of the identity or decision step: coverage could not be decided,
    # so the subject is not covered, with the failure as the reason.
    failure: ModelFailure | None = None
    # Identity queries that still failed after their retries: the decision rests on the
    # others' hits, and its reasons say which failed.
    search_failures: list[ModelFailure] = Field(default_factory=list)


# --- Rules ---------------------------------------------------------------------------------


class StandInWorld(Record):
    """What the offline stand-in's world holds: the subject ids its pages are about, and the
    names those pages are found by (casefolded keywords). The stand-in can say something
    about a subject only if its world holds it."""

    subject_ids: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()

    def knows(self, entry: RegistryEntry) -> bool:
        """Whether the world holds ``entry``: pages about its id, or pages found by its name
        or an alias (a registry entry under another id for the same subject is the same
        subject to the offline search, which finds pages by name)."""
        if entry.id in self.subject_ids:
            return True
        return any(n.strip().casefold() in self.names for n in (entry.name, *entry.aliases) if n.strip())


def stand_in_cannot_decide(entry: RegistryEntry, stand_in: StandInWorld | None) -> bool:
    """ "The offline stand-in knows only the demo corpus": when a stand-in takes part in the
    coverage decision (the offline rules for a coverage step, the offline search, or the
    rehearsal's scripted model behind its local servers), a subject its world does not hold
    gets no coverage decision at all (``needs_live_providers_decision``), never a refusal
    that reads as a verdict on a real subject.

    ``stand_in``: the stand-in's world, when a stand-in takes part; None when live
    providers decide."""
    return stand_in is not None and not stand_in.knows(entry)


def needs_live_providers_decision(entry: RegistryEntry, clock: Clock, method_version: str) -> CoverageDecision:
    """The stored outcome of ``stand_in_cannot_decide``: not covered (nothing runs on a
    subject without a decision), with the reason saying no decision was made and what
    would make one."""
    return CoverageDecision(
        method_version=method_version,
        subject_id=entry.id,
        name=entry.name,
        identity_confirmed=False,
        is_public_figure_or_organisation=False,
        is_serving_politician=False,
        has_consent=entry.consent,
        covered=False,
        needs_live_providers=True,
        reasons=[
            f"needs live providers: the offline stand-in knows only the demo corpus, and {entry.id!r} is not "
            "in it, so no coverage decision was made about this subject (this is not a verdict on it); set "
            "ANTHROPIC_API_KEY, OPENAI_API_KEY and PERPLEXITY_API_KEY and run it again"
        ],
        evidence=[],
        decided_by=NO_DECISION,
        decided_at=clock.now(),
    )


def identity_queries(entry: RegistryEntry) -> list[SearchQuery]:
    """ "A search-based step checks that the name and URLs point to one subject."

    One query for the name and one for each of the first two aliases."""
    names = [entry.name, *[a for a in entry.aliases if a.strip() and a != entry.name][:_MAX_ALIAS_QUERIES]]
    return [SearchQuery(query=n, max_results=COVERAGE_IDENTITY_MAX_RESULTS) for n in names]


def identity_hits(result_sets: Sequence[SearchResultSet]) -> list[IdentityHit]:
    """Every identity search result, deduplicated by canonical URL, in query then
    rank order."""
    seen: set[str] = set()
    hits: list[IdentityHit] = []
    for result_set in result_sets:
        for result in sorted(result_set.results, key=lambda r: r.rank):
            key = canonical_url(result.url)
            if key in seen:
                continue
            seen.add(key)
            hits.append(
                IdentityHit(
                    url=result.url,
                    title=result.title,
                    snippet=result.snippet,
                    published_date=result.published_date.isoformat() if result.published_date else None,
                )
            )
    return hits


def stored_identity_evidence(
    hits: Sequence[IdentityHit], matching_urls: Sequence[str], result_sets: Sequence[SearchResultSet]
) -> list[IdentityEvidence]:
    """ "A URL that search did not actually return is never used."

    The identity evidence is the hits the identity step said are about the
    subject, and only those search actually returned: a URL the model names that
    is not among the hits is ignored, so a model cannot invent evidence."""
    returned = urls_returned_by_search(result_sets)
    wanted = {canonical_url(u) for u in matching_urls}
    return [
        IdentityEvidence(url=h.url, title=h.title, snippet=h.snippet, published_date=h.published_date)
        for h in hits
        if canonical_url(h.url) in wanted and check_url_returned_by_search(h.url, returned).returned_by_search
    ]


def identity_sources(evidence: Sequence[IdentityEvidence]) -> set[str]:
    """The distinct sites (host names, without ``www.``) the evidence comes from."""
    hosts: set[str] = set()
    for item in evidence:
        host = (urlsplit(item.url).hostname or "").lower()
        hosts.add(host.removeprefix("www."))
    hosts.discard("")
    return hosts


def identity_evidence_is_thin(evidence: Sequence[IdentityEvidence]) -> bool:
    """ "When the evidence is thin, the rule is not to cover."

    Thin means the identity evidence comes from fewer than
    ``COVERAGE_MIN_IDENTITY_SOURCES`` distinct sites: one site alone (for example
    only the subject's own) cannot show that a name and URLs point to one
    subject."""
    return len(identity_sources(evidence)) < COVERAGE_MIN_IDENTITY_SOURCES


def _name_spans(text: str, names: Sequence[str]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for name in names:
        if name.strip():
            spans.extend(
                (m.start(), m.end())
                for m in re.finditer(rf"(?<!\w){re.escape(name.strip())}(?!\w)", text, re.IGNORECASE)
            )
    return spans


def _words_between(text: str, a: tuple[int, int], b: tuple[int, int]) -> int:
    left, right = (a, b) if a[0] <= b[0] else (b, a)
    return len(re.findall(r"\w+", text[left[1] : right[0]]))


def serving_office_in_evidence(
    evidence: Sequence[IdentityEvidence], names: Sequence[str], today: date | None
) -> ServingOffice | None:
    """[M] "Serving politicians and officials in post are out of scope."

    Code reads the identity evidence (each kept hit's title and snippet, sentence by sentence)
    for an office the subject holds now: a minister, a member of parliament, a mayor, a
    governor of a central bank, a judge, a commissioner, the head of a regulator, an
    ambassador or their equivalent, in any of the subjects' languages (``subjects.offices``).
    The office counts when it stands next to one of the subject's names (at most
    ``OFFICE_NAME_GAP_WORDS`` words apart, in one sentence). An office that ended does not
    count: a "former"/"ex-"/"tidligere"/"ehemaliger"/"ancien" title, or an end date before
    ``today`` ("until 2019", "2015-2019"). A brand's "ambassador" or a prize's "judge" is no
    office. The subject's own name is taken out before offices are read, so a surname such
    as "Richter" or "Mayor" is not an office. Returns the first office found, or None."""
    for item in evidence:
        for sentence in split_sentences(f"{item.title}.\n{item.snippet}"):
            spans = _name_spans(sentence, names)
            if not spans:
                continue
            masked = list(sentence)
            for start, end in spans:
                masked[start:end] = "_" * (end - start)
            text = "".join(masked)
            for mention in office_mentions(text):
                if NOT_AN_OFFICE.search(text[: mention.start]) or office_has_ended(text, mention, today):
                    continue
                place = (mention.start, mention.end)
                if min(_words_between(text, place, span) for span in spans) <= OFFICE_NAME_GAP_WORDS:
                    return ServingOffice(url=item.url, office=mention.words, concept=mention.concept)
    return None


def private_person_in_evidence(evidence: Sequence[IdentityEvidence]) -> IdentityEvidence | None:
    """[M] "A person who is not a public figure is covered only with their documented
    consent": the first identity evidence item whose own words describe the subject as a
    private person ("a private individual", "not a public figure", "Privatperson", "частное
    лицо", "一般人": lexicon area ``coverage``), or None. Code reads it whatever the decision
    step said, so a model's "public figure" never covers a subject the evidence calls
    private without consent."""
    lexicon = area_lexicon("coverage")
    for item in evidence:
        if lexicon.has(f"{item.title}. {item.snippet}", "private_person"):
            return item
    return None


def coverage_allowed(
    *,
    identity_confirmed: bool,
    evidence_thin: bool,
    is_public_figure_or_organisation: bool,
    is_serving_politician: bool,
    model_says_cover: bool,
    registry_kind: SubjectKind,
    documented_consent: bool,
    office_in_evidence: ServingOffice | None = None,
    private_in_evidence: IdentityEvidence | None = None,
) -> CoverageRuling:
    """ "Public figures and organisations only ... A person who is not a public
    figure is covered only with their documented consent. Serving politicians
    and officials in post are out of scope." and "When the evidence is thin,
    the rule is not to cover."

    The hard rules, applied in code over the decision step's findings, so that
    no model answer can cover a subject the method excludes:

    1. the name and URLs must be confirmed to point to one subject;
    2. thin evidence means no coverage;
    3. a serving politician or official in post is never covered, whether the
       decision step, the registry (kind ``politician``) or the code's reading of the
       evidence (``serving_office_in_evidence``) says so: the code's reading stands
       when the decision step said "not a politician", and the disagreement is recorded;
    4. a subject that is not shown to be a public figure or organisation, that the
       registry lists as a private person, or that the identity evidence describes as a
       private person (``private_person_in_evidence``, whatever the decision step said),
       needs documented consent;
    5. the decision step may refuse on its own (its reasons are kept); it can
       never cover what rules 1 to 4 refuse.
    """
    refusals: list[str] = []
    if not identity_confirmed:
        refusals.append("identity not confirmed: the name and URLs were not shown to point to one subject")
    if evidence_thin:
        refusals.append(
            f"thin evidence: identity evidence from fewer than {COVERAGE_MIN_IDENTITY_SOURCES} independent sites"
        )
    if office_in_evidence is not None:
        disagreement = "" if is_serving_politician else "; the decision step said not a serving politician"
        refusals.append(
            f"serving politician or official in post: the identity evidence names an office held now "
            f"({office_in_evidence.concept}: {office_in_evidence.office!r}, {office_in_evidence.url}){disagreement}: "
            "out of scope"
        )
    elif is_serving_politician or registry_kind == "politician":
        source = "the evidence" if is_serving_politician else "the registry"
        refusals.append(f"serving politician or official in post ({source} says so): out of scope")
    needs_consent = (
        registry_kind == "private_person" or not is_public_figure_or_organisation or private_in_evidence is not None
    )
    if needs_consent and not documented_consent:
        if private_in_evidence is not None and is_public_figure_or_organisation:
            refusals.append(
                f"the identity evidence describes a private person ({private_in_evidence.url}); the decision step "
                "said a public figure: no documented consent"
            )
        else:
            refusals.append("not shown to be a public figure or organisation, and no documented consent")
    if refusals:
        return CoverageRuling(covered=False, reasons=refusals)
    if not model_says_cover:
        return CoverageRuling(
            covered=False, reasons=["the decision step refused coverage (its reasons are kept)"]
        )
    if needs_consent:
        return CoverageRuling(covered=True, reasons=["not a public figure, covered with documented consent"])
    return CoverageRuling(
        covered=True, reasons=["public figure or organisation, not a serving politician, identity confirmed"]
    )


async def assess_coverage(
    entry: RegistryEntry,
    gateway: ModelGateway,
    search: SearchLike,
    clock: Clock,
    method_version: str,
    stand_in_subjects: StandInWorld | None = None,
) -> CoverageResult:
    """ "Confirm who the subject is ... A separate decision step, using only that
    evidence, decides whether the subject may be covered."

    A subject the stand-in cannot know (``stand_in_cannot_decide``; ``stand_in_subjects``
    as there) gets ``needs_live_providers_decision``: no search, no model step.

    Runs the identity searches (every result set kept; a query that still fails after
    its retries is recorded and the decision rests on the others), the ``confirm_identity``
    step over the hits, then the ``decide_coverage`` step over the kept evidence
    only, and finally ``coverage_allowed``. The decision stores the reasons of
    the code rules first, then the identity step's and the decision step's."""
    if stand_in_cannot_decide(entry, stand_in_subjects):
        return CoverageResult(
            decision=needs_live_providers_decision(entry, clock, method_version),
            result_sets=[],
            identity=None,
            model_decision=None,
        )
    # A failed identity query stays with its query; the decision rests on the others.
    searched = await search_each(
        search, entry.id, [(IDENTITY_PURPOSE, query) for query in identity_queries(entry)], method_version
    )
    result_sets = searched.result_sets
    search_notes = [f"identity search failed: {note}" for note in search_failure_notes(searched.failures)]
    hits = identity_hits(result_sets)

    def undecided(exc: ItemFailure) -> CoverageResult:
        """Not covered: a model failure left coverage undecided (never covered by default)."""
        failure = record_failure(exc, subject_id=entry.id, item_kind="subject", item_id=entry.id)
        decision = CoverageDecision(
            method_version=method_version,
            subject_id=entry.id,
            name=entry.name,
            identity_confirmed=False,
            is_public_figure_or_organisation=False,
            is_serving_politician=entry.kind == "politician",
            has_consent=entry.consent,
            covered=False,
            reasons=[f"coverage could not be decided: {failure.label()} ({failure.detail})", *search_notes],
            evidence=[],
            decided_by=gateway.model_for(exc.step),
            decided_at=clock.now(),
        )
        return CoverageResult(
            decision=decision,
            result_sets=result_sets,
            identity=None,
            model_decision=None,
            failure=failure,
            search_failures=searched.failures,
        )

    try:
        identity = await gateway.run(
            CONFIRM_IDENTITY_STEP,
            ConfirmIdentityInput(
                subject_id=entry.id,
                name=entry.name,
                aliases=entry.aliases,
                registry_urls=entry.urls,
                description=entry.description,
                hits=hits,
            ),
            ConfirmIdentityOutput,
        )
    except ItemFailure as exc:
        return undecided(exc)
    evidence = stored_identity_evidence(hits, identity.matching_urls, result_sets)
    identity_confirmed = identity.same_subject and bool(evidence)
    try:
        decided = await gateway.run(
            DECIDE_COVERAGE_STEP,
            DecideCoverageInput(
                subject_id=entry.id,
                name=entry.name,
                aliases=entry.aliases,
                evidence=evidence,
                documented_consent=entry.consent,
            ),
            DecideCoverageOutput,
        )
    except ItemFailure as exc:
        return undecided(exc)
    thin = identity_evidence_is_thin(evidence)
    office = serving_office_in_evidence(evidence, [entry.name, *entry.aliases], today(clock))
    ruling = coverage_allowed(
        identity_confirmed=identity_confirmed,
        evidence_thin=thin,
        is_public_figure_or_organisation=decided.is_public_figure_or_organisation,
        is_serving_politician=decided.is_serving_politician,
        model_says_cover=decided.covered,
        registry_kind=entry.kind,
        documented_consent=entry.consent,
        office_in_evidence=office,
        private_in_evidence=private_person_in_evidence(evidence),
    )
    reasons = [
        *ruling.reasons,
        *(f"identity step: {r}" for r in identity.reasons),
        *(f"decision step: {r}" for r in decided.reasons),
        *search_notes,
    ]
    decision = CoverageDecision(
        method_version=method_version,
        subject_id=entry.id,
        name=entry.name,
        identity_confirmed=identity_confirmed,
        is_public_figure_or_organisation=decided.is_public_figure_or_organisation,
        is_serving_politician=decided.is_serving_politician or entry.kind == "politician" or office is not None,
        has_consent=entry.consent,
        covered=ruling.covered,
        reasons=reasons,
        evidence=evidence,
        decided_by=gateway.model_for(DECIDE_COVERAGE_STEP),
        decided_at=clock.now(),
    )
    return CoverageResult(
        decision=decision,
        result_sets=result_sets,
        identity=identity,
        model_decision=decided,
        search_failures=searched.failures,
    )
