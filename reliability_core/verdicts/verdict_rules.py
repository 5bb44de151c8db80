"""The method's rules over a judge's proposal ([M] step 8, [#15], [R] "The AI proposes;
rules in our code decide").

The judges propose a verdict, a confidence, the evidence they cite and, for numeric
criteria, the value they read. Code then decides what of it stands, each rule one function
over the claim's usable evidence: a citation must be in the input; for a dated claim only
dated evidence decides; a number counts only when a cited verified quote of the deciding
source writes it, and code maps it onto the five frozen levels; "did not happen" needs
positive evidence; what a subject says about itself; "can't be settled" (outcome already
known, reliable sources conflict) and "not yet" (official figure awaited). Every rule that
changes the verdict is recorded. ``judging`` runs them on both judges' answers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, timedelta
from typing import Literal

from pydantic import BaseModel, ConfigDict

from reliability_core.claims.numeric_reading import banded_verdict, extractions_agree
from reliability_core.constants import OFFICIAL_FIGURE_WAIT_DAYS
from reliability_core.models.base import SCORED_VERDICTS, ClaimType, Verdict
from reliability_core.models.claims import CriteriaLevels, NumericCriteria
from reliability_core.models.verdicts import EvidenceItem
from reliability_core.text.numbers import value_written_in
from reliability_core.verdicts.judge_input import JudgeInput, JudgeOutput, UnsettledReason
from reliability_core.verdicts.outcome_wording import (
    reports_cancellation,
    reports_delay_or_cancellation,
    speaks_of_event_result,
)
from reliability_core.verdicts.sources import is_reliable_class
from reliability_core.verdicts.usable_evidence import UsableEvidence, basis_of_evidence

# Reasons for "can't be settled" that only code gives (not in the judges' output schema).
RuledReason = UnsettledReason | Literal["event_cancelled"]


class RuledVerdict(BaseModel):
    """A judge's proposal after the method's code rules."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    verdict: Verdict
    cited: list[str]
    rules_applied: list[str]
    self_reported_only: bool = False
    unsettled_reason: RuledReason = ""
    # The judge's observed value when it stands (written in a cited, verified quote of the
    # deciding source), else None: only a verified value is compared with the other judge's.
    observed_value: float | None = None
    measure_note: str = ""


def cited_in_input(cited: Sequence[str], judge_input: JudgeInput) -> list[str]:
    """[R] "The Ref can only cite pages it actually opened. Any source it can't show is
    dropped": citations outside the verified input are dropped; a judge that cites nothing
    is taken to rest on all of the input."""
    known = [item.id for item in judge_input.evidence]
    kept = [cid for cid in dict.fromkeys(cited) if cid in known]
    return kept or known


def is_dated_claim(judge_input: JudgeInput) -> bool:
    """A claim with a deadline, or numeric criteria that hold "as of" a date."""
    return judge_input.deadline is not None or (
        judge_input.numeric is not None and judge_input.numeric.as_of is not None
    )


def evidence_that_can_decide(cited: Sequence[EvidenceItem], *, dated_claim: bool) -> list[EvidenceItem]:
    """[#15] rule 3: "Undated evidence can support context, not a verdict on a dated claim."
    For a claim with a date, only cited items that carry a date may decide its verdict."""
    if not dated_claim:
        return list(cited)
    return [item for item in cited if item.published_date is not None]


_STOP_WORDS = frozenset({"the", "a", "an", "of", "its", "their", "his", "her", "our", "for", "in", "on", "by", "as"})


def names_source(named_source: str, item: EvidenceItem) -> bool:
    """Does the evidence item come from the named source or report the named measure? Every
    content word of the name appears in the item's publisher, address or quote."""
    words = [w for w in re.findall(r"[a-z0-9]+", named_source.casefold()) if w not in _STOP_WORDS]
    haystack = f"{item.publisher} {item.final_url or item.url} {item.quote}".casefold()
    return bool(words) and all(word in haystack for word in words)


def deciding_measure(numeric: NumericCriteria, cited: Sequence[EvidenceItem]) -> tuple[list[EvidenceItem], str]:
    """[#15] rule 10, [R] "The named source governs. If the contract names a source or a measure
    ..., that's what counts. If it names none, the Ref uses the standard official measure and
    says so." The cited items whose figures may decide the numeric outcome, and what the
    verdict says about the measure: with a named source, only items from that publisher or
    measure; with none, the official record when one is cited, else the reliable publishers
    reporting it."""
    if numeric.named_source and numeric.named_source.strip():
        named = [item for item in cited if names_source(numeric.named_source, item)]
        return named, f"the named source governs: {numeric.named_source.strip()}"
    official = [item for item in cited if item.source_class == "official_record"]
    if official:
        return official, "no source named: the standard official measure is used (the official record)"
    reliable = [item for item in cited if is_reliable_class(item.source_class)]
    return reliable, "no source named: the standard official measure is used (as reliable publishers report it)"


def quotes_bearing_value(
    observed: float | None, deciding: Sequence[EvidenceItem], *, unit: str
) -> list[EvidenceItem]:
    """[#15] rule 1 "A number a verdict rests on is in a verified quote": the deciding items
    whose verified quote writes the judge's observed value in a common form (72.4, 72.4%,
    0.724, thousands separators, "1.2 billion", scale words: ``text.numbers``). Empty when the
    judge gave no value or the value is written in none of them: then the value does not count."""
    if observed is None:
        return []
    return [item for item in deciding if item.quote_verified and value_written_in(observed, item.quote, unit=unit)]


def numeric_reproduced(verified_a: float | None, verified_b: float | None) -> bool:
    """[V] T2 "B independently extracts 53.0. Match within |Δ| ≤ 0.05 or ≤ 0.1% relative" →
    verified; [#15] rule 1 "when judge B gives no number while A does, the value is not
    verified". Judge A's verified value is reproduced only by a verified value of judge B that
    agrees within the tolerance; with no value from A there is nothing to reproduce."""
    if verified_a is None:
        return True
    if verified_b is None:
        return False
    return extractions_agree(verified_a, verified_b)


def numeric_disputed(observed_a: float | None, observed_b: float | None) -> bool:
    """[V] T2 "Disagree → disputed": judge A's verified value is not reproduced by judge B
    (``numeric_reproduced``)."""
    return not numeric_reproduced(observed_a, observed_b)


def numeric_verdict(numeric: NumericCriteria, observed: float | None) -> Verdict:
    """[#7] "each judge extracts the observed value blind; code evaluates the criteria
    literally", onto the five frozen levels ([#15] rule 2, ``numeric_reading.banded_verdict``).
    No verified value leaves the claim unresolvable."""
    if observed is None:
        return "unresolvable"
    return banded_verdict(numeric, observed)


def has_positive_evidence(
    cited: Sequence[EvidenceItem],
    *,
    judge_at: date,
    deadline: date | None,
    value_quotes: Sequence[EvidenceItem] | None = None,
) -> bool:
    """[M] step 8 / [#15] rule 3: "Not finding a record of something is not taken as proof that
    it did not happen: a 'did not happen' verdict needs positive evidence, such as a report of
    a delay or cancellation, or a dated account of the situation after the deadline"; [R] "A
    no before the deadline needs the deciding event to be over" and "Something that happens at
    11:30 pm on the deadline day counts". So, with a deadline: a dated report that the deciding
    event is over (delayed, cancelled, missed, ended without it: ``reports_delay_or_cancellation``),
    or an account dated after the deadline day has ended in the claim's time zone (the items'
    dates are calendar days there: ``evidence_rules.evidence_date``). An account from the
    deadline day itself ("not yet opened", "still planned for tonight") is not proof that it
    did not happen: the day is not over. "A figure dated before the deadline is progress, not
    an outcome" (so for numeric criteria every level short of "true" needs a figure dated
    after the deadline day as well).

    ``cited`` are the items that may decide (dated ones, for a dated claim); ``value_quotes``,
    for numeric criteria, the items whose quote writes the verified observed figure. A claim
    without a deadline (a factual one) needs a contradicting item or a verified figure."""
    if deadline is None:
        if value_quotes is not None:
            return bool(value_quotes)
        return any(item.stance == "contradicts" for item in cited)
    event_over = any(
        item.stance == "contradicts"
        and item.published_date is not None
        and reports_delay_or_cancellation(item.quote)
        for item in cited
    )
    if event_over:
        return True
    accounts = value_quotes if value_quotes is not None else [i for i in cited if i.stance == "contradicts"]
    return any(
        item.published_date is not None and item.published_date > deadline and item.published_date >= judge_at
        for item in accounts
    )


def deadline_day_open(deadline: date | None, today: date) -> date | None:
    """[R] "Not yet: the deadline hasn't passed and the outcome is still open": while the
    deadline day (in the claim's time zone: ``today`` is the run's date there) is not over, a
    claim without positive evidence that it did not happen is not yet due. Returns the day
    it is checked again (the day after the deadline), else None."""
    if deadline is None or today > deadline:
        return None
    return deadline + timedelta(days=1)


def dated_after_claim(
    deciding: Sequence[EvidenceItem], *, claim_type: ClaimType, made_on: date | None
) -> list[EvidenceItem]:
    """[M] step 7 "reports that only repeat the claim" are never evidence, and so evidence that
    decides a promise or prediction is dated after the claim was made: an account from the day
    the claim was made reports the claim, not its outcome. The deciding items of a promise or
    prediction dated after ``made_on`` (undated items, which decide only a claim without a
    date, are kept); every item for a factual claim or when the claim's date is not known.
    Items dated before it are left to ``outcome_known_when_claimed``."""
    if claim_type not in ("promise", "prediction") or made_on is None:
        return list(deciding)
    return [item for item in deciding if item.published_date is None or item.published_date > made_on]


def cancellation_reports(items: Sequence[EvidenceItem]) -> list[EvidenceItem]:
    """The dated items whose verified quote reports a cancellation, in the subjects' languages
    (``outcome_wording.reports_cancellation``): "cancelled", "aflyst", "abgesagt", "annulé" ..."""
    return [item for item in items if item.published_date is not None and reports_cancellation(item.quote)]


def criteria_say_what_happens_if_cancelled(levels: CriteriaLevels) -> bool:
    """The frozen levels speak of a cancellation ("false: the project is cancelled or ..."):
    the contract says what happens then, and the levels decide as for any other outcome."""
    return any(reports_cancellation(text) for text in levels.model_dump().values())


def claim_about_event_outcome(levels: CriteriaLevels, numeric: NumericCriteria | None) -> bool:
    """From the frozen criteria: the claim is about an outcome of an event (a figure reached at
    it: numeric criteria; who wins it or is elected: the "true" level speaks of a result,
    ``outcome_wording.speaks_of_event_result``), not that the event happens."""
    return numeric is not None or speaks_of_event_result(levels.true)


def cancelled_event_verdict(
    *, levels: CriteriaLevels, numeric: NumericCriteria | None, deciding: Sequence[EvidenceItem],
    observed: float | None,
) -> str:
    """[M] step 8 and [R] "Can't be settled: ... the event was cancelled and the contract doesn't
    say what happens": for this project, a claim that something will happen by a date is
    settled "did not happen" by a dated report of its cancellation (``has_positive_evidence``
    takes it as the deciding event being over); a claim about an outcome of the event
    (``claim_about_event_outcome``), whose event a cited dated report says was cancelled
    (``cancellation_reports``), when the frozen criteria do not say what happens then
    (``criteria_say_what_happens_if_cancelled``) and no verified figure was read, can't be
    settled. Decided from the frozen criteria, never from the judge's wording. Returns the
    note recorded for "can't be settled", or "" when the rule does not apply."""
    reports = cancellation_reports(deciding)
    if not reports or criteria_say_what_happens_if_cancelled(levels) or observed is not None:
        return ""
    if not claim_about_event_outcome(levels, numeric):
        return ""
    return (
        f"the event was cancelled ({', '.join(item.id for item in reports)}) and the frozen criteria do not "
        "say what happens then: a claim about its outcome can't be settled"
    )


def is_self_reported_only(claim_type: ClaimType, verdict: Verdict, cited: Sequence[EvidenceItem]) -> bool:
    """[M] step 8, what a subject says about itself: "For a factual claim about the subject's own
    figures, events or appointments ... the subject's official records count as evidence ... For a
    promise, the subject saying it delivered is not enough; the deliverable itself, or an
    independent source, has to show it. When the only support is the subject's ordinary statements
    ..., the claim is 'unresolvable' and marked 'self-reported only'."""
    if verdict not in SCORED_VERDICTS or not cited:
        return False
    if basis_of_evidence(cited) == "ordinary_statements_only":
        return True
    if claim_type == "promise" and verdict in ("true", "mostly_true"):
        independent_support = [
            item
            for item in cited
            if not item.subject_own and is_reliable_class(item.source_class) and item.stance != "contradicts"
        ]
        return not independent_support
    return False


def outcome_known_when_claimed(
    claim_type: ClaimType, made_on: date | None, cited: Sequence[EvidenceItem]
) -> bool:
    """[R] "Can't be settled ... if the outcome was already known, or had already happened, when
    the claim was locked: predicting yesterday's news doesn't count." A forward-looking claim
    whose deciding evidence is dated before the claim was made cannot be settled."""
    if claim_type == "factual" or made_on is None:
        return False
    return any(
        item.stance != "neutral" and item.published_date is not None and item.published_date < made_on
        for item in cited
    )


def reliable_sources_conflict(usable: UsableEvidence, *, verdict: Verdict, judge_at: date) -> bool:
    """[R] "Can't be settled: ... reliable sources conflict". Two reliable publishers conflict
    when they report figures that differ beyond the extraction tolerance, or (for any verdict but
    "mixed", which is backed by both sides) when one supports and another contradicts the claim.
    Only accounts of the outcome are compared: items dated on or after the judge-at date (or
    undated); an earlier progress report ("delayed") does not conflict with a later account of
    the outcome. When no item is that late, all are compared."""
    reliable = [item for item in usable.items if is_reliable_class(item.source_class)]
    late = [item for item in reliable if item.published_date is None or item.published_date >= judge_at]
    reliable = late or reliable
    valued = [item for item in reliable if item.observed_value is not None]
    for i, first in enumerate(valued):
        for second in valued[i + 1 :]:
            if first.publisher != second.publisher and not extractions_agree(
                first.observed_value or 0.0, second.observed_value or 0.0
            ):
                return True
    if verdict == "mixed":
        return False
    supporting = {item.publisher for item in reliable if item.stance == "supports"}
    contradicting = {item.publisher for item in reliable if item.stance == "contradicts"}
    return bool(supporting and contradicting and (supporting | contradicting) != (supporting & contradicting))


# Reasons for "unresolvable" that mean the deciding figure was not found (not a judge's error,
# a conflict or a self-report): while the official figure may still be published, "not yet".
_AWAITING_FIGURE_REASONS: frozenset[str] = frozenset(
    {"", "no_observed_value", "too_little_evidence", "no_positive_evidence", "undated_evidence"}
)


def official_figure_awaited(
    *, numeric: NumericCriteria | None, judge_at: date, usable: UsableEvidence, today: date, reason: str = ""
) -> date | None:
    """[#15] rule 12, [R] "Not yet: the deadline hasn't passed and the outcome is still open, or
    the official figure hasn't been published." A numeric claim judged at a date that has
    passed, with no usable account dated on or after it that reports a figure, while the
    official figure may still appear (``OFFICIAL_FIGURE_WAIT_DAYS`` after the judge date), is
    not yet due: returns the date by which the figure is expected (the re-check follows the
    cadence towards it), else None."""
    if numeric is None or reason not in _AWAITING_FIGURE_REASONS:
        return None
    expected_by = judge_at + timedelta(days=OFFICIAL_FIGURE_WAIT_DAYS)
    if today > expected_by:
        return None
    published = any(
        item.observed_value is not None and item.published_date is not None and item.published_date >= judge_at
        for item in usable.items
    )
    return None if published else expected_by


def apply_method_rules(
    output: JudgeOutput,
    *,
    judge_input: JudgeInput,
    usable: UsableEvidence,
) -> RuledVerdict:
    """The method's rules over one judge's proposal, in order: a judge's own "can't be settled"
    stands; for a dated claim only dated evidence decides; numeric criteria take the judge's
    value only when a cited verified quote of the deciding source writes it, and map it onto
    the five frozen levels; "did not happen" needs positive evidence; self-records; outcome
    already known; reliable sources conflict. Each rule that changes the verdict is recorded.
    "Prefer 'unresolvable' to a guess"."""
    cited_ids = cited_in_input(output.cited_evidence_ids, judge_input)
    cited = usable.by_ids(cited_ids)
    verdict: Verdict = output.verdict
    rules: list[str] = []
    reason: RuledReason = output.unsettled_reason
    observed: float | None = None
    measure_note = ""
    value_quotes: list[EvidenceItem] | None = None

    def settle(new: Verdict, why: RuledReason, note: str) -> None:
        nonlocal verdict, reason
        # Recorded when the verdict changes, and when code gives its own reason for
        # "can't be settled" in place of another (a cancelled event, not a missing figure).
        if new != verdict or (new == "unresolvable" and why != reason and why == "event_cancelled"):
            rules.append(note)
        verdict, reason = new, why

    if output.unsettled_reason and verdict != "unresolvable":
        settle(
            "unresolvable",
            output.unsettled_reason,
            f"judge gave a 'can't be settled' reason: {output.unsettled_reason}",
        )
    deciding = evidence_that_can_decide(cited, dated_claim=is_dated_claim(judge_input))
    if verdict != "unresolvable" and not deciding:
        settle("unresolvable", "undated_evidence", "undated evidence supports context, not a verdict on a dated claim")
    if not outcome_known_when_claimed(judge_input.claim_type, judge_input.made_on, deciding):
        after_claim = dated_after_claim(deciding, claim_type=judge_input.claim_type, made_on=judge_input.made_on)
        if verdict != "unresolvable" and deciding and not after_claim:
            settle(
                "unresolvable",
                "too_little_evidence",
                "evidence from the day the claim was made reports the claim, not its outcome: "
                "a promise or prediction is decided by evidence dated after it",
            )
        deciding = after_claim
    numeric = judge_input.numeric
    if numeric is not None:
        # The reading is checked whatever the verdict: a judge that abstains may still have
        # read the figure, and only a verified figure can reproduce the other judge's.
        measured, measure_note = deciding_measure(numeric, deciding)
        value_quotes = quotes_bearing_value(output.observed_value, measured, unit=numeric.unit)
        observed = output.observed_value if value_quotes else None
    if verdict != "unresolvable" and numeric is not None:
        if output.observed_value is None:
            settle("unresolvable", "no_observed_value", "no observed value for the numeric criteria")
        elif observed is None:
            why: RuledReason = "named_source_not_cited" if numeric.named_source and not measured else (
                "observed_value_not_in_cited_quote"
            )
            settle(
                "unresolvable",
                why,
                f"observed value {output.observed_value:g} is not written in a cited verified quote "
                f"({measure_note}): the numeric reading is discarded",
            )
        else:
            banded = numeric_verdict(numeric, observed)
            settle(
                banded,
                "two_fair_readings" if banded == "unresolvable" else "",
                f"observed {observed:g} {numeric.unit} on the frozen levels "
                f"({numeric.operator} {numeric.threshold:g}): {banded}",
            )
    cancelled = cancelled_event_verdict(
        levels=judge_input.levels, numeric=numeric, deciding=deciding, observed=observed
    )
    if cancelled:
        settle("unresolvable", "event_cancelled", cancelled)
    # A numeric level below "true" says the claim did not (fully) happen; otherwise "false" does.
    short_of_claim = ("mostly_true", "mixed", "mostly_false", "false") if observed is not None else ("false", "mostly_false")
    if verdict in short_of_claim and not has_positive_evidence(
        deciding, judge_at=judge_input.judge_at, deadline=judge_input.deadline, value_quotes=value_quotes
    ):
        settle(
            "unresolvable",
            "no_positive_evidence",
            "'did not happen' without positive evidence (a figure dated before the deadline is progress)",
        )
    self_reported = is_self_reported_only(judge_input.claim_type, verdict, deciding)
    if self_reported:
        settle("unresolvable", "self_reported_only", "self-reported only")
    if verdict != "unresolvable" and outcome_known_when_claimed(
        judge_input.claim_type, judge_input.made_on, deciding
    ):
        settle("unresolvable", "outcome_known_when_claimed", "outcome already known when the claim was made")
    if verdict != "unresolvable" and reliable_sources_conflict(
        usable, verdict=verdict, judge_at=judge_input.judge_at
    ):
        settle("unresolvable", "sources_conflict", "reliable sources conflict")
    return RuledVerdict(
        verdict=verdict,
        cited=cited_ids,
        rules_applied=rules,
        self_reported_only=self_reported,
        unsettled_reason=reason if verdict == "unresolvable" else "",
        observed_value=observed,
        measure_note=measure_note,
    )


def judges_disagree(verdict_a: Verdict, verdict_b: Verdict) -> bool:
    """[M] step 8: "When judge B reaches a different verdict, the claim is flagged 'judges
    disagree' and both verdicts are shown; no third judge is called.\""""
    return verdict_a != verdict_b
