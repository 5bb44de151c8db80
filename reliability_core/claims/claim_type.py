"""What kind of claim a statement is ([M] step 4): party-political claims are flagged,
company guidance is a prediction, and a promise is checked only when it names a deliverable
or target and a date.

The keyword backstops here are deliberately narrow: they only ever make the pipeline *more*
careful (flag a claim, read guidance as a prediction), never less.
"""

from __future__ import annotations

import re
from datetime import date

from reliability_core.models.base import ClaimType

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
