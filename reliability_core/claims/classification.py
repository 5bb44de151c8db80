"""The "classify_statements" step's input and output ([M] step 4: "A second step decides
who is speaking, the claim type, a self-contained restatement, and any deadline or stated
probability").

Only the models the step exchanges: the classifier proposes, and the rules that decide what
stands live beside what they decide (``speaker``, ``claim_type``, ``restatement``,
``stated_probability``). Here, apart from the rules, because the extractor, the stand-in's
classifier and the tests all build these records without needing any rule.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from reliability_core.models.base import ClaimType
from reliability_core.models.claims import ProbabilityKind

# How the passage appears on the page: inside quotation marks, the subject's own
# body text, an answer in an interview transcript, or a reported paraphrase.
StatementForm = Literal["direct_quote", "own_text", "transcript_answer", "reported"]


class StatementToClassify(BaseModel):
    """One extracted statement as the classifier sees it (never a private-life one:
    those are dropped before the classifier is called)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    index: int
    quote: str
    context: str = Field(description="The paragraph or attribution around the quote, as on the page")
    form: StatementForm
    speaker_hint: str = Field(description="Who the extractor thinks is speaking; empty if unknown")


class ClassifyInput(BaseModel):
    """Input of the "classify_statements" step."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    subject_id: str
    subject_name: str
    aliases: list[str]
    subject_kind: str
    document_url: str
    document_title: str
    published_date: date | None
    own_document: bool = Field(description="True when the page is on one of the subject's own sites")
    statements: list[StatementToClassify]


class StatementClassification(BaseModel):
    """The classifier's reading of one statement. Code applies the method's rules to it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    index: int
    speaker: str
    is_subject: bool = Field(description="The subject (or someone named as it in the registry) is speaking")
    paraphrase: bool = Field(description="A reported paraphrase, not the subject's own words")
    private_life: bool = Field(description="About anyone's private life, family, health, home or location")
    party_political: bool = Field(
        description="Who wins an election, what a party will do, whether a policy should pass"
    )
    is_claim: bool = Field(description="Asserts something about the world that could in principle be checked")
    claim_type: ClaimType | None
    company_guidance: bool = Field(description="Company guidance such as 'we expect EBITDA above X'")
    names_deliverable_or_target: bool = Field(
        description="For a promise: names a deliverable or a measurable target (not only an intention)"
    )
    restatement: str = Field(description="Self-contained restatement naming the subject, no pronouns")
    deadline: date | None = Field(description="Last day by which a promise/prediction should come true")
    time_zone: str | None = Field(
        default=None,
        description="IANA time zone the statement's dates are in, when its context names one (else null)",
    )
    stated_probability: float | None = Field(description="As a fraction 0..1, only if stated in the quote")
    probability_kind: ProbabilityKind | None
    vague: bool = Field(description="Too vague to check (e.g. 'we are the best')")
    counterfactual: bool = Field(description="About what would have happened ('had we ...')")
    own_records_only: bool = Field(description="Checkable only against the subject's internal records")
    harm_to_person: bool = Field(
        default=False, description="About someone dying or getting hurt (will die, was killed, was injured)"
    )
    reason: str = ""


class ClassifyOutput(BaseModel):
    """Output of the "classify_statements" step: one item per input statement."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    items: list[StatementClassification]
