"""Step 4, second half: who is speaking, what kind of claim it is, and which
statements are dropped or flagged ([M] step 4).

The "classify_statements" model step proposes; the pure functions here decide.
Each rule of the method is one function below, with the sentence it implements
in its docstring. The keyword backstops (private life, party politics, company
guidance, stated probabilities) are deliberately narrow: they only ever make
the pipeline *more* careful (drop, flag, record a bound), never less.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from reliability_core.models.base import ClaimType
from reliability_core.models.claims import DropReason, ProbabilityKind

# --- The classify_statements step's input and output --------------------------------

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
    stated_probability: float | None = Field(description="As a fraction 0..1, only if stated in the quote")
    probability_kind: ProbabilityKind | None
    vague: bool = Field(description="Too vague to check (e.g. 'we are the best')")
    counterfactual: bool = Field(description="About what would have happened ('had we ...')")
    own_records_only: bool = Field(description="Checkable only against the subject's internal records")
    reason: str = ""


class ClassifyOutput(BaseModel):
    """Output of the "classify_statements" step: one item per input statement."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    items: list[StatementClassification]


# --- Privacy -------------------------------------------------------------------------

_PRIVATE_NOUNS = (
    r"wife|husband|spouse|partner|children|child|kids|son|sons|daughter|daughters|family|mother|father|"
    r"parents|brother|sister|health|illness|diagnosis|home|house|flat|apartment|holidays?|vacations?|"
    r"divorce|marriage|wedding|girlfriend|boyfriend|grandchildren|cancer|treatment|chemotherapy|therapy|"
    r"burnout|depression|pregnancy|weekends|spare\s+time|free\s+time|cottage|summer\s+house|"
    r"doctor|GP|physician|surgeon|heart|medication|houseboat|neighbou?rs?"
)
_PRIVATE_LIFE = re.compile(
    rf"\b(?:my|his|her|their)\s+(?:[a-z']+\s+)?(?:{_PRIVATE_NOUNS})\b"
    r"|\bexpecting\s+(?:a|my|our|her|his|their)\s+(?:\w+\s+)?(?:baby|child)\b"
    r"|\bour\s+(?:kids|children|holiday\s+home|summer\s+house|cottage|home\s+in)\b"
    r"|\bour\s+family\s+(?!of\b|business\b|company\b|firm\b|owned\b|foundation\b)\w+"
    r"|\bdiagnos(?:is|ed)\b|\billness\b|\bsurgery\b|\bhospitali[sz]ed\b|\bpregnan\w*\b|\bdivorc\w*\b"
    r"|\bholidays?\b|\bvacation(?:s|ed|ing)?\b|\bon\s+sick\s+leave\b"
    r"|\bwhere\s+(?:I|we|he|she|they)\s+lives?\b"
    r"|\b(?:I|we|he|she|they)\s+(?:now\s+|still\s+)?live[sd]?\s+(?:in|on|at|near|outside)\b"
    r"(?!\s+(?:an?|the)\s+(?:\w+\s+)?(?:world|age|era|time|period|moment|economy)\b|\s+(?:\w+\s+)?times\b)"
    r"|\bheart\s+(?:attack|scare|condition|surgery)\b|\bin\s+hospital\b|\bmedical\s+leave\b"
    r"|\bmoved\s+house\b",
    re.IGNORECASE,
)


def mentions_private_life(text: str) -> bool:
    """Code-side backstop for [M] "Statements about anyone's private life, family,
    health, home or location are dropped before anything is stored".

    Matches personal forms only ("my wife", "his health", "where she lives",
    "diagnosed", "holiday") so that an organisation's "health programmes" or
    "home market" are not dropped; the classifier's flag covers the rest."""
    return bool(_PRIVATE_LIFE.search(text))


_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")
PRIVATE_REDACTION = "[sentence about private life withheld]"


def redact_private_life(text: str) -> str:
    """[M] "Statements about anyone's private life, family, health, home or location
    are dropped before anything is stored", applied to text we store but did not
    extract as statements (search-result snippets): each sentence the privacy
    backstop matches is replaced by a marker, the rest is kept as received."""
    if not mentions_private_life(text):
        return text
    sentences = _SENTENCE_END.split(text)
    return " ".join(PRIVATE_REDACTION if mentions_private_life(s) else s for s in sentences)


def is_about_private_life(flagged_by_model: bool, quote: str, context: str = "") -> bool:
    """[M] step 4: "Statements about anyone's private life, family, health, home or
    location are dropped before anything is stored." Dropped when the model says
    so OR the keyword backstop matches the quote (the context is checked too, so a
    quote like "it was hard for all of us" after "my wife's illness" is caught)."""
    return flagged_by_model or mentions_private_life(quote) or mentions_private_life(context)


# --- Speaker and paraphrase ---------------------------------------------------------


def is_other_speaker(classification: StatementClassification) -> bool:
    """[M] step 4: "Statements by other people ... are dropped"."""
    return not classification.is_subject


def is_reported_paraphrase(classification: StatementClassification) -> bool:
    """[M] step 4: "... as are reported paraphrases"."""
    return classification.paraphrase


def drop_reason_for(
    classification: StatementClassification, quote: str, context: str = ""
) -> DropReason | None:
    """Why a classified statement is dropped, or None when it is kept. Privacy is
    checked first so a private statement is never recorded under another reason."""
    if is_about_private_life(classification.private_life, quote, context):
        return "private_life"
    if is_other_speaker(classification):
        return "other_speaker"
    if is_reported_paraphrase(classification):
        return "paraphrase"
    return None


# --- Party politics --------------------------------------------------------------------

_PARTY_POLITICAL = re.compile(
    r"\belections?\b|\bre-?elect\w*\b|\bvote\s+(?:for|against)\b|\bballot\b|\breferendum\b"
    r"|\b(?:labour|conservatives?|democrats?|republicans?|tories|greens|liberals|social\s+democrats)\s+"
    r"(?:will|would|should|won|wins|win|are\s+going\s+to)\b"
    r"|\bparty\s+(?:will|would|is\s+going\s+to|wins|won)\b"
    r"|\b(?:bill|act|law|policy|reform)\s+(?:should|must|ought\s+to)\s+(?:pass|be\s+passed|be\s+adopted|be\s+rejected)\b"
    r"|\b(?:parliament|congress|the\s+senate)\s+should\s+(?:pass|adopt|reject)\b",
    re.IGNORECASE,
)


def mentions_party_politics(text: str) -> bool:
    """Keyword backstop for party-political claims: elections, parties' actions,
    whether a bill or policy should pass."""
    return bool(_PARTY_POLITICAL.search(text))


def is_party_political(flagged_by_model: bool, quote: str) -> bool:
    """[M] "party-political claims (who wins an election, what a party will do,
    whether a policy should pass) are counted but never scored": flagged when the
    model says so or the backstop matches. Flagged claims are kept and counted."""
    return flagged_by_model or mentions_party_politics(quote)


# --- Claim type ---------------------------------------------------------------------------

_GUIDANCE = re.compile(
    r"\b(?:we|I)\s+(?:now\s+|still\s+|continue\s+to\s+)?(?:expect|anticipate|forecast|project|guide)\b[^.]*?"
    r"\b(?:EBITDA|EBIT|revenue|revenues|sales|profit|profits|earnings|margin|margins|income|cash\s+flow|"
    r"dividend|capex|capital\s+expenditure|turnover|EPS|growth)\b"
    r"|\b(?:guidance|outlook)\s+(?:for|of|is)\b",
    re.IGNORECASE,
)


def is_company_guidance(text: str) -> bool:
    """Recognises company guidance wording ("we expect EBITDA above DKK 28 billion")."""
    return bool(_GUIDANCE.search(text))


def resolve_claim_type(proposed: ClaimType, company_guidance: bool) -> ClaimType:
    """[M] "Company guidance ("we expect EBITDA above X") is classified as a
    prediction" (issue 6, step 4)."""
    return "prediction" if company_guidance else proposed


def is_checkable_promise(names_deliverable_or_target: bool, deadline: date | None) -> bool:
    """[M] "a promise names a deliverable or a measurable target with a date
    ("cut emissions 50% by 2030"), even when worded as an aim; plans and
    intentions without either are not checked"."""
    return names_deliverable_or_target and deadline is not None


# --- Stated probabilities -------------------------------------------------------------

_NUM = r"(\d{1,3}(?:\.\d+)?)\s*(?:%|per\s*cent|percent)"
_PROB_WORD = r"(?:likely|likelihood|chance|probability|probable|odds)"
_LOWER = r"(?:more\s+than|over|above|greater\s+than|at\s+least|no\s+less\s+than|better\s+than)"
_UPPER = r"(?:less\s+than|under|below|at\s+most|no\s+more\s+than|fewer\s+than)"
_PROB_BOUND_LOWER = re.compile(
    rf"\b{_LOWER}\s+(?:a\s+)?{_NUM}\s+(?:\w+\s+){{0,2}}?{_PROB_WORD}", re.IGNORECASE
)
_PROB_BOUND_UPPER = re.compile(
    rf"\b{_UPPER}\s+(?:a\s+)?{_NUM}\s+(?:\w+\s+){{0,2}}?{_PROB_WORD}", re.IGNORECASE
)
_PROB_EXACT = re.compile(rf"(?<![\w.]){_NUM}\s+(?:\w+\s+){{0,2}}?{_PROB_WORD}", re.IGNORECASE)
_PROB_EXACT_OF = re.compile(
    rf"\b(?:{_PROB_WORD}\s+(?:of|is|at)|put\s+(?:it|the\s+odds|the\s+chances?)\s+at)\s+(?:about\s+)?{_NUM}",
    re.IGNORECASE,
)


def parse_stated_probability(text: str) -> tuple[float, ProbabilityKind] | None:
    """A probability stated in the words ("70% likely", "a 70% chance": exact;
    "more than 10% likely", "at least 30% chance": lower bound; "less than 20%
    chance": upper bound), as a fraction. [M] step 4: "a bound such as "more than
    10%" is recorded as a bound"; [M] Brier: "Bounds ... are left out"."""
    for pattern, kind in (
        (_PROB_BOUND_LOWER, "lower_bound"),
        (_PROB_BOUND_UPPER, "upper_bound"),
        (_PROB_EXACT, "exact"),
        (_PROB_EXACT_OF, "exact"),
    ):
        match = pattern.search(text)
        if match:
            value = float(match.group(1)) / 100.0
            if 0.0 <= value <= 1.0:
                kind_literal: ProbabilityKind = kind  # type: ignore[assignment]
                return value, kind_literal
    return None


def remove_stated_probability(text: str) -> str:
    """The text with any stated-probability phrase blanked out, so that "more than
    10% likely" is not read as a numeric comparison of the claim itself."""
    for pattern in (_PROB_BOUND_LOWER, _PROB_BOUND_UPPER, _PROB_EXACT, _PROB_EXACT_OF):
        text = pattern.sub(" ", text)
    return text


def record_stated_probability(
    model_value: float | None, model_kind: ProbabilityKind | None, quote: str
) -> tuple[float | None, ProbabilityKind | None]:
    """The probability recorded on a claim. The literal words decide: when the quote
    states a probability, its value and kind (exact or bound) are taken from the
    words; otherwise the model's value is kept only if it is a valid fraction whose
    figure the quote writes out (a bound the model reports stays a bound); a
    probability inferred from hedged words is not stated and is not recorded.
    No probability means (None, None)."""
    parsed = parse_stated_probability(quote)
    if parsed is not None:
        return parsed
    if model_value is None:
        return None, None
    value = model_value / 100.0 if 1.0 < model_value <= 100.0 else model_value
    if not 0.0 <= value <= 1.0:
        return None, None
    # A probability the words do not hold is the model's inference ("likely" read
    # as 70%), not a stated one: only a figure that appears in the quote stands.
    if not _quote_holds_figure(value, quote):
        return None, None
    return value, model_kind or "exact"


def _quote_holds_figure(value: float, quote: str) -> bool:
    """Whether ``quote`` writes ``value`` as a number (as a percentage or a fraction)."""
    for match in re.finditer(r"\d+(?:[.,]\d+)?", quote):
        number = float(match.group(0).replace(",", "."))
        if abs(number - value * 100.0) < 1e-6 or abs(number - value) < 1e-9:
            return True
    return False
