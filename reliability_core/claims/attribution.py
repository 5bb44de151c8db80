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
from collections.abc import Sequence
from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from reliability_core.claims.comparisons import explicit_comparisons
from reliability_core.models.base import ClaimType
from reliability_core.models.claims import DropReason, ProbabilityKind
from reliability_core.text.numbers import parse_numbers, same_number_written, value_written_in
from reliability_core.text.privacy import mentions_private_life

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
    time_zone: str | None = Field(
        default=None,
        description="IANA time zone the statement's dates are in, when its context names one (else null)",
    )
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


_NAME = r"[A-Z][\w'’&.-]*(?:\s+(?:[A-Z][\w'’&.-]*|de|van|von|der|af))*"
_SPEECH_VERB = (
    r"(?:said|says|stated|states|told|tells|added|adds|explained|explains|argued|argues|noted|notes|"
    r"announced|announces|claimed|claims|wrote|writes|insisted|insists|warned|warns|promised|promises)"
)
_REPORTED_SPEECH = re.compile(
    rf"(?:\b{_NAME}|\b(?:[Hh]e|[Ss]he|[Ii]t|[Tt]hey|[Tt]he\s+(?:company|group|firm|charity|organisation|"
    rf"organization|minister|chief\s+executive|ceo|spokesperson|spokesman|spokeswoman)))"
    rf"\s+{_SPEECH_VERB}\s+(?:that\b|it\s+would\b|they\s+would\b|it\s+will\b|they\s+will\b)"
)
_NOT_A_NAME = frozenset(
    {"The", "This", "That", "These", "Those", "It", "He", "She", "They", "We", "I", "Our", "A", "An", "In",
     "On", "At", "But", "And", "As", "When", "While", "If", "So", "According", "Mr", "Ms", "Mrs", "Dr"}
)  # fmt: skip
_ATTRIBUTIONS = (
    re.compile(rf"\b{_SPEECH_VERB}\s+(?P<name>{_NAME})"),
    re.compile(rf"\baccording\s+to\s+(?P<name>{_NAME})", re.IGNORECASE),
    re.compile(rf"(?P<name>{_NAME})(?:,\s+[^,]{{1,80}},)?\s+{_SPEECH_VERB}\b"),
)


def is_reported_speech(form: str, quote: str) -> bool:
    """[#15] rule 5 "Reported speech ... caught by code as well as by the classifier": the
    extractor's reported form, or a quote that itself reports what someone said ("Northwind
    said that it would ...", "the company said it will ..."), is a reported paraphrase, not
    the subject's own words. First-person speech ("we said that we would") is not caught."""
    if form == "reported":
        return True
    return any(
        match.group(0).split()[0] not in ("I", "We") for match in _REPORTED_SPEECH.finditer(quote)
    )


def _name_tokens(name: str) -> set[str]:
    return {t.casefold() for t in re.findall(r"[\w'’&-]+", name) if len(t) > 1}


def is_subject_name(name: str, subject_names: Sequence[str]) -> bool:
    """Is ``name`` one of the subject's names or aliases (or a part or extension of one:
    "Northwind" for "Northwind Energy A/S", "Henrik Dahl" for "Henrik Dahl")?"""
    tokens = _name_tokens(name) - {"a/s", "inc", "ltd", "plc", "ag", "as"}
    if not tokens:
        return True
    for alias in subject_names:
        alias_tokens = _name_tokens(alias)
        if alias_tokens and (tokens <= alias_tokens or alias_tokens <= tokens):
            return True
    return False


def named_other_speaker(sentence: str, quote: str, subject_names: Sequence[str]) -> str | None:
    """[#15] rule 5 "a speaker named in the quote's sentence who is not the subject": the
    attribution around the quote ("..., said Anna Berg, an analyst"; "according to the
    regulator's Jens Holm") names someone who is not the subject or one of its aliases.
    Returns the name, or None when the sentence names no other speaker."""
    around = sentence.replace(quote, " ") if quote and quote in sentence else sentence
    for pattern in _ATTRIBUTIONS:
        for match in pattern.finditer(around):
            words = [w for w in match.group("name").split() if w not in _NOT_A_NAME]
            name = " ".join(words)
            if name and not is_subject_name(name, subject_names):
                return name
    return None


def drop_reason_for(
    classification: StatementClassification,
    quote: str,
    context: str = "",
    *,
    form: str = "",
    sentence: str = "",
    subject_names: Sequence[str] = (),
) -> DropReason | None:
    """Why a classified statement is dropped, or None when it is kept. Privacy is
    checked first so a private statement is never recorded under another reason. The
    classifier's flags drop other speakers and paraphrases, and so does code: the
    extractor's reported form and reported wording (``is_reported_speech``), and another
    speaker named in the quote's sentence (``named_other_speaker``)."""
    if is_about_private_life(classification.private_life, quote, context):
        return "private_life"
    if is_other_speaker(classification):
        return "other_speaker"
    if subject_names and named_other_speaker(f"{sentence} {context}", quote, subject_names):
        return "other_speaker"
    if is_reported_paraphrase(classification) or is_reported_speech(form, quote):
        return "paraphrase"
    return None


# --- The restatement ([#15] rule 4) ------------------------------------------------------

_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_CAPITALISED = re.compile(r"\b[A-Z][\w'’&-]*")
_CONTENT_WORD = re.compile(r"[a-z][a-z'’-]{3,}")
_COMMON_WORDS = frozenset(
    ["that", "this", "with", "will", "would", "have", "been", "from", "they", "their", "there", "were", "what", "when", "which", "while", "about", "into", "over", "under", "more", "less", "than", "also", "said", "says", "some", "such", "only", "other", "very", "much", "many", "most", "make", "made", "does", "done", "each", "every", "could", "should", "shall", "might", "must", "been", "being", "both", "before", "after", "until", "since", "during", "within", "without", "through", "between", "again", "further", "once", "here", "then", "them", "these", "those", "year", "years", "claim", "claims", "stated", "states", "state", "according", "company", "companies", "organisation"]
)


def sentence_around(text: str, start: int | None, end: int | None) -> str:
    """The sentence(s) of ``text`` that hold the span [start, end): from the end of the
    previous sentence to the end of the last one the span touches."""
    if start is None or end is None or not text:
        return ""
    left = max(text.rfind(mark, 0, start) for mark in (". ", "! ", "? ", "\n"))
    rights = [i for i in (text.find(mark, end) for mark in (". ", "! ", "? ", "\n")) if i >= 0]
    right = min(rights) + 1 if rights else len(text)
    return text[left + 1 if left >= 0 else 0 : right].strip()


def restatement_unanchored(
    restatement: str, quote: str, sentence: str = "", subject_names: Sequence[str] = ()
) -> list[str]:
    """[#15] rule 4 "The restatement is anchored to the quote. Every number, date, named entity
    and comparison in the restatement appears in the verified quote or its sentence": what in
    the restatement does not. Numbers compare by value in any common written form ("1.2
    billion" is "1,200 million"; "3,000" is not "300"); dates by their numbers and month names;
    named entities are capitalised words other than the subject's names and the first word;
    comparisons are the reading rules' phrases ("more than", "at least"). A restatement whose
    content words are mostly absent from the quote is about another topic. Empty: anchored."""


    anchor = f"{quote} {sentence}"
    anchor_folded = anchor.casefold()
    names_folded = " ".join(subject_names).casefold()
    # The restatement names the subject by design ("no pronouns"): its names are not new entities.
    for name in sorted((n for n in subject_names if n.strip()), key=len, reverse=True):
        restatement = re.sub(rf"{re.escape(name)}(?:['’]s)?", " ", restatement, flags=re.IGNORECASE)
    missing: list[str] = []
    anchor_numbers = parse_numbers(anchor)
    for number in parse_numbers(restatement):
        if not same_number_written(number, anchor_numbers):
            missing.append(f"number {restatement[number.start : number.end]!r}")
    for match in re.finditer(rf"\b(?:{_MONTHS})\b", restatement, re.IGNORECASE):
        if match.group(0).casefold() not in anchor_folded:
            missing.append(f"date {match.group(0)!r}")
    restatement = " ".join(restatement.split())
    for match in _CAPITALISED.finditer(restatement):
        word = match.group(0)
        folded = word.casefold()
        # The first word is capitalised as a sentence opening; months are dates (checked above).
        if match.start() == 0 or re.fullmatch(_MONTHS, folded) or word in _NOT_A_NAME:
            continue
        if folded in anchor_folded or folded in names_folded:
            continue
        missing.append(f"named entity {word!r}")
    anchor_operators = set(explicit_comparisons(remove_stated_probability(anchor)))
    for operator in dict.fromkeys(explicit_comparisons(remove_stated_probability(restatement))):
        if operator not in anchor_operators:
            missing.append(f"comparison {operator!r}")
    content = [
        w
        for w in _CONTENT_WORD.findall(restatement.casefold())
        if w not in _COMMON_WORDS and w not in names_folded
    ]
    if content:
        stems = {w[:5] for w in _CONTENT_WORD.findall(anchor_folded)}
        found = sum(1 for w in content if w[:5] in stems)
        if found * 2 < len(content):
            missing.append(f"topic: {len(content) - found} of {len(content)} content words not in the quote")
    return missing


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


_ODDS_NUMBER = r"(\d+|one|two|three|four|five|six|seven|eight|nine|ten|hundred|a\s+hundred|thousand)"
_PROB_ODDS = re.compile(
    rf"\b(?:a\s+|an\s+)?{_ODDS_NUMBER}[\s-]+(?:in|out[\s-]+of)[\s-]+{_ODDS_NUMBER}\s+"
    rf"(?:\w+\s+)?{_PROB_WORD}",
    re.IGNORECASE,
)
_ODDS_WORDS: dict[str, int] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "hundred": 100, "a hundred": 100, "thousand": 1000,
}  # fmt: skip


def _odds_value(word: str) -> int:
    folded = re.sub(r"\s+", " ", word.casefold())
    return int(folded) if folded.isdigit() else _ODDS_WORDS[folded]


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
    odds = _PROB_ODDS.search(text)
    if odds:
        part, whole = _odds_value(odds.group(1)), _odds_value(odds.group(2))
        if whole > 0 and part <= whole:
            return part / whole, "exact"
    return None


def remove_stated_probability(text: str) -> str:
    """The text with any stated-probability phrase blanked out, so that "more than
    10% likely" is not read as a numeric comparison of the claim itself."""
    for pattern in (_PROB_BOUND_LOWER, _PROB_BOUND_UPPER, _PROB_EXACT, _PROB_EXACT_OF, _PROB_ODDS):
        text = pattern.sub(" ", text)
    return text


def record_stated_probability(
    model_value: float | None, model_kind: ProbabilityKind | None, quote: str
) -> tuple[float | None, ProbabilityKind | None]:
    """[#15] rule 6 "A stated probability is one the words state ("70% likely", "a one-in-three
    chance"); "likely" or "expected" is no probability; bounds stay bounds." The literal words
    decide: when the quote states a probability, its value and kind (exact or bound) are taken
    from the words; otherwise the model's value is kept only if it is a valid fraction whose
    figure the quote writes out ("70 out of 100"; a bound the model reports stays a bound). A
    probability inferred from hedged words ("likely" read as 70%) is not stated and is not
    recorded, so it never enters the Brier score. No probability means (None, None)."""
    parsed = parse_stated_probability(quote)
    if parsed is not None:
        return parsed
    if model_value is None:
        return None, None
    value = model_value / 100.0 if 1.0 < model_value <= 100.0 else model_value
    if not 0.0 <= value <= 1.0:
        return None, None
    # A probability the words do not hold is the model's inference ("likely" read
    # as 70%), not a stated one: only a figure that appears in the quote stands, as a
    # percentage ("70 out of 100", "70%") or a fraction ("0.7"), read by the one reader
    # of written numbers.
    if not value_written_in(value * 100.0, quote, unit="%"):
        return None, None
    return value, model_kind or "exact"
