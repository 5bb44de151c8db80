"""The comparison a claim's words make ([R] "How it reads a claim": "'More than',
'above', 'exceeds' are strict; 'at least', 'reaches', 'or more' include the number
itself").

Reading the phrases only: the criteria step applies them (``criteria.enforce_literal_operator``)
and the restatement check compares them (``restatement.restatement_unanchored``), so
both read the same phrases and neither imports the other.
"""

from __future__ import annotations

import re

from reliability_core.models.claims import CriteriaOperator

_NUMBER_AHEAD = r"(?=\s+(?:[^\s\d]+\s+){0,3}?(?:[A-Z]{3}\s*)?[$€£]?\d)"


_COMPARISONS: tuple[tuple[str, CriteriaOperator], ...] = (
    # Longer phrases first so "no more than" is not read as "more than".
    (
        r"no\s+more\s+than|not\s+more\s+than|at\s+most|no\s+higher\s+than|a\s+maximum\s+of|not\s+(?:to\s+)?exceed",
        "le",
    ),
    (r"no\s+less\s+than|not\s+less\s+than|no\s+fewer\s+than|at\s+least|a\s+minimum\s+of", "ge"),
    (r"more\s+than|greater\s+than|higher\s+than|exceed(?:s|ed|ing)?", "gt"),
    (r"less\s+than|fewer\s+than|lower\s+than", "lt"),
    (rf"reach(?:es|ed|ing)?{_NUMBER_AHEAD}", "ge"),
    (rf"(?:above|over){_NUMBER_AHEAD}", "gt"),
    (rf"(?:below|under){_NUMBER_AHEAD}", "lt"),
    (r"exactly", "eq"),
)


_TRAILING: tuple[tuple[str, CriteriaOperator], ...] = (
    (r"or\s+(?:more|higher|above|greater)", "ge"),
    (r"or\s+(?:less|fewer|lower|below)", "le"),
)


_COMPARISON_RE = re.compile(
    "|".join(f"(?P<op{i}>\\b(?:{pattern})\\b)" for i, (pattern, _) in enumerate(_COMPARISONS + _TRAILING)),
    re.IGNORECASE,
)


_OPERATORS: tuple[CriteriaOperator, ...] = tuple(op for _, op in _COMPARISONS + _TRAILING)


def explicit_comparisons(text: str) -> list[CriteriaOperator]:
    """Every comparison phrase in ``text``, in order of appearance."""
    found: list[CriteriaOperator] = []
    for match in _COMPARISON_RE.finditer(text):
        group = match.lastgroup
        if group is not None:
            found.append(_OPERATORS[int(group[2:])])
    return found


def parse_comparison(text: str) -> CriteriaOperator:
    """[R] "'More than', 'above', 'exceeds' are strict; 'at least', 'reaches',
    'or more' include the number itself. A tie on 'more than' is a no. Nothing
    is rounded." The first comparison phrase decides (``gt``, ``ge``, ``lt``,
    ``le``); a figure stated without one ("we installed 1.2 GW") is read
    literally as ``eq``."""
    found = explicit_comparisons(text)
    return found[0] if found else "eq"

