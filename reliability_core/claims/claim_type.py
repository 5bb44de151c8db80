"""What kind of claim a statement is ([M] step 4): party-political claims are flagged,
company guidance is a prediction, and a promise is checked only when it names a deliverable
or target and a date.

The keyword backstops here are deliberately narrow: they only ever make the pipeline *more*
careful (flag a claim, read guidance as a prediction), never less. They read the subject's
language: each is a rule over concepts whose words, per language, live in
``text/lexicon/party_politics`` and ``text/lexicon/guidance`` (issue 25).
"""

from __future__ import annotations

from datetime import date

from reliability_core.models.base import ClaimType
from reliability_core.text.lexicon import AreaLexicon, area_lexicon
from reliability_core.text.sentences import split_sentences

# --- The two backstops' reading: sentences and concept hits --------------------------------

def _sentences(text: str) -> list[str]:
    """The concepts of one rule must meet in one sentence, so a quote's second sentence
    cannot complete its first: the pipeline's one splitter (``text.sentences``)."""
    return split_sentences(text)


def _spans(lexicon: AreaLexicon, sentence: str, concept: str) -> list[tuple[int, int]]:
    return [(h.start, h.end) for h in lexicon.find(sentence, concept)]


def _outside(spans: list[tuple[int, int]], masks: list[tuple[int, int]]) -> bool:
    """Is there a hit that no mask touches (the word in its sense, not part of a look-alike
    such as "third party" or "beat the guidance range")?"""
    return any(not any(s0 < m1 and m0 < s1 for m0, m1 in masks) for s0, s1 in spans)


# --- Party politics --------------------------------------------------------------------

# Concepts (lexicon/party_politics): election (elections, votes, referendums, polls, coalition
# talks), party (the party word and parties by kind whose words have other senses), party_kind
# (names of party families that have no other sense), not_party (the party word's other senses:
# a contract's party, a third party, a batch, a celebration), party_action (winning, seats,
# majorities, governing, entering parliament), legislature, legislation, should (a normative
# modal), adopt (pass, adopt, reject, repeal), governance (a company's board, general meeting,
# shareholders, works council, unions).


def _corporate_vote(lexicon: AreaLexicon, sentence: str) -> bool:
    """A company's own votes and elections: a board, a general meeting, shareholders, a works
    council or a union named and no party or legislature. "The AGM re-elected the board" and
    "shareholders voted for the proposal" are corporate governance, not party politics."""
    return (
        lexicon.has(sentence, "governance")
        and not _names_a_party(lexicon, sentence)
        and not lexicon.has(sentence, "party_kind")
        and not lexicon.has(sentence, "legislature")
    )


def _names_a_party(lexicon: AreaLexicon, sentence: str) -> bool:
    """A party word in its political sense: not inside "third party", "party to the agreement",
    "партия товара" (a batch), "strana 5" (a page)."""
    return _outside(_spans(lexicon, sentence, "party"), _spans(lexicon, sentence, "not_party"))


def _names_an_election(lexicon: AreaLexicon, sentence: str) -> bool:
    """An election, vote, referendum, poll or coalition talks, outside a company's own meetings."""
    return lexicon.has(sentence, "election") and not _corporate_vote(lexicon, sentence)


def _says_what_a_party_does(lexicon: AreaLexicon, sentence: str) -> bool:
    """A party (its word in the political sense, or a party family such as "the social
    democrats") bound to what parties do: winning, a majority, seats, governing, entering
    parliament. A party named in a biography ("MP for the Liberal Party since 2011") is not a
    claim about what it will do."""
    party = _names_a_party(lexicon, sentence) or lexicon.has(sentence, "party_kind")
    return party and lexicon.has(sentence, "party_action")


def _says_a_bill_should_pass(lexicon: AreaLexicon, sentence: str) -> bool:
    """Whether a bill, law or reform (or a legislature's vote) should pass or be rejected: the
    law or the legislature, a normative modal and an adoption verb in one sentence ("the bill
    should pass", "das Gesetz muss verabschiedet werden", "el Congreso debe aprobar")."""
    return (
        (lexicon.has(sentence, "legislation") or lexicon.has(sentence, "legislature"))
        and lexicon.has(sentence, "should")
        and lexicon.has(sentence, "adopt")
        and not _corporate_vote(lexicon, sentence)
    )


def mentions_party_politics(text: str) -> bool:
    """Keyword backstop for party-political claims in every language of
    ``text.lexicon.WEB_LANGUAGES``: elections, parties' actions, whether a bill or policy
    should pass. A company's general meeting, board elections and shareholder votes are
    corporate governance and do not count."""
    lexicon = area_lexicon("party_politics")
    return any(
        _names_an_election(lexicon, s)
        or _says_what_a_party_does(lexicon, s)
        or _says_a_bill_should_pass(lexicon, s)
        for s in _sentences(text)
    )


def is_party_political(flagged_by_model: bool, quote: str) -> bool:
    """[M] "party-political claims (who wins an election, what a party will do,
    whether a policy should pass) are counted but never scored": flagged when the
    model says so or the backstop matches. Flagged claims are kept and counted."""
    return flagged_by_model or mentions_party_politics(quote)


# --- Company guidance ------------------------------------------------------------------------

# Concepts (lexicon/guidance): company_expects (the company's own expectation: "we expect",
# "wir erwarten", "ожидаем", "bekliyoruz", "the group expects"), expects (an expectation verb
# without a person: "expects", "is expected to", "预计", "見込む", "예상"), guidance_term (the
# company's guidance by name: "full-year guidance", "業績予想", "业绩指引", "가이던스"),
# forecast_noun (outlook, forecast, target), metric (revenue, EBITDA, margin, dividend...),
# outside_forecaster (analysts, consensus, the market's expectation, economists) and
# versus_expectations ("than expected", "超出预期": a result set against an old expectation,
# which reports the past).


def _company_guidance_in(lexicon: AreaLexicon, sentence: str) -> bool:
    """One sentence's reading: the company's own expectation bound to a financial metric, or
    its guidance by name, or an expectation without a person bound to a metric when no
    outside forecaster holds it. An analyst's or the market's expectation is not guidance."""
    past = _spans(lexicon, sentence, "versus_expectations")

    def said(concept: str) -> bool:
        return _outside(_spans(lexicon, sentence, concept), past)

    metric = lexicon.has(sentence, "metric")
    own = said("company_expects")
    if own and metric:
        return True
    if lexicon.has(sentence, "outside_forecaster") and not own:
        return False
    return said("guidance_term") or (metric and (said("expects") or said("forecast_noun")))


def is_company_guidance(text: str) -> bool:
    """Recognises company guidance wording ("we expect EBITDA above DKK 28 billion", "für 2025
    erwarten wir einen Umsatz von", "当社は売上高を見込む") in every language of
    ``text.lexicon.WEB_LANGUAGES``."""
    lexicon = area_lexicon("guidance")
    return any(_company_guidance_in(lexicon, s) for s in _sentences(text))


def resolve_claim_type(proposed: ClaimType, company_guidance: bool) -> ClaimType:
    """[M] "Company guidance ("we expect EBITDA above X") is classified as a
    prediction" (issue 6, step 4)."""
    return "prediction" if company_guidance else proposed


def is_checkable_promise(names_deliverable_or_target: bool, deadline: date | None) -> bool:
    """[M] "a promise names a deliverable or a measurable target with a date
    ("cut emissions 50% by 2030"), even when worded as an aim; plans and
    intentions without either are not checked"."""
    return names_deliverable_or_target and deadline is not None
