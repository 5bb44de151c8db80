"""Who is speaking, and which statements are dropped for it ([M] step 4: "Statements by
other people are dropped, as are reported paraphrases"; [#15] rule 5: reported speech and
other named speakers are caught by code as well as by the classifier).

The classifier proposes; the functions here decide. ``drop_reason_for`` is the one place a
classified statement is dropped, so the privacy drop (``is_about_private_life``) lives here
too: it is checked first, so a private statement is never recorded under another reason.
The page-level privacy mask is lower down, in ``text.privacy``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reliability_core.claims.classification import StatementClassification
from reliability_core.models.claims import DropReason
from reliability_core.text.privacy import mentions_private_life
from reliability_core.text.sentences import split_sentences

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
# Capitalised words that open a sentence or title a person: never a speaker's name (and
# never a new named entity in a restatement).
NOT_A_NAME = frozenset(
    {"The", "This", "That", "These", "Those", "It", "He", "She", "They", "We", "I", "Our", "A", "An", "In",
     "On", "At", "But", "And", "As", "When", "While", "If", "So", "According", "Mr", "Ms", "Mrs", "Dr"}
)  # fmt: skip
# "told"/"tells" name the listener when the verb comes first ("Freja Lund told The Wire"), so
# an inverted attribution ("said Anna Berg") never takes them.
_INVERTED_SPEECH_VERB = _SPEECH_VERB.replace("told|tells|", "")
_ATTRIBUTIONS = (
    re.compile(rf"\b{_INVERTED_SPEECH_VERB}\s+(?P<name>{_NAME})"),
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
            words = [w for w in match.group("name").split() if w not in NOT_A_NAME]
            name = " ".join(words)
            if name and not is_subject_name(name, subject_names):
                return name
    return None


def attributed_to_another_speaker(
    sentence: str, context: str, quote: str, subject_names: Sequence[str]
) -> str | None:
    """Issue 24 "Attribution is decided on the quote's own sentence and its attribution,
    never across a sentence break": ``named_other_speaker`` reads the quote's sentence on
    its own, then each sentence of the extractor's attribution on its own. Joining them
    made "..., chief economist at Fjord Bank." followed by "said Amara Okafor" read as
    "Fjord Bank said". Returns the other speaker's name, or None."""
    texts = [sentence, *split_sentences(context)] if sentence else split_sentences(context)
    for text in texts:
        name = named_other_speaker(text, quote, subject_names)
        if name is not None:
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
    speaker named in the quote's sentence or its attribution (``attributed_to_another_speaker``)."""
    if is_about_private_life(classification.private_life, quote, context):
        return "private_life"
    if is_other_speaker(classification):
        return "other_speaker"
    if subject_names and attributed_to_another_speaker(sentence, context, quote, subject_names):
        return "other_speaker"
    if is_reported_paraphrase(classification) or is_reported_speech(form, quote):
        return "paraphrase"
    return None
