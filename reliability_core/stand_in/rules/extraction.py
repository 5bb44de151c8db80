"""Offline rules for "extract_statements" and "classify_statements".

Deterministic stand-ins for the two model steps of [M] step 4, written for the
demo corpus's writing conventions (docs/architecture/steps-4-6.md lists their
limits): the subject's words are in double quotes with an attribution in the
same paragraph, transcripts are ``NAME: answer`` lines, the subject's own pages
speak in the first person, and reported paraphrase reads ``NAME said that ...``.
Attribution is by pattern against the registry name and aliases; claim type,
deadline and probability are read by regular expressions. The method's rules
themselves (drops, flags, guidance as prediction, triage) are applied by the
pipeline code in ``reliability_core.claims.extraction``, not here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from reliability_core.claims.claim_type import is_company_guidance, mentions_party_politics
from reliability_core.claims.classification import (
    ClassifyInput,
    ClassifyOutput,
    StatementClassification,
    StatementToClassify,
)
from reliability_core.claims.extraction import ExtractedStatement, ExtractInput, ExtractOutput
from reliability_core.claims.stated_probability import parse_stated_probability
from reliability_core.claims.wording import (
    deadline_in_words,
    harm_to_person_wording,
    intention_without_target_wording,
    is_counterfactual_wording,
    own_records_wording,
    vague_wording,
)
from reliability_core.models.base import ClaimType
from reliability_core.stand_in.model import offline_step
from reliability_core.text.privacy import PRIVATE_REDACTION, mentions_private_life
from reliability_core.text.sentences import split_sentences

# --- Names ----------------------------------------------------------------------------

_NAME = r"[A-Z][\w'’.-]+(?:\s+[A-Z][\w'’.-]+){0,3}"
_PRONOUN = r"(?:he|she|they|it)"
_SPEECH_VERB = r"(?:said|says|added|adds|told\s+[\w\s]{1,40}?|wrote|writes|explained|warned|argued|insisted)"
_LEGAL_SUFFIXES = {
    "a/s",
    "as",
    "ab",
    "asa",
    "ag",
    "plc",
    "inc",
    "inc.",
    "ltd",
    "ltd.",
    "llc",
    "se",
    "sa",
    "nv",
    "gmbh",
}
_TRANSCRIPT_NON_SPEAKERS = {
    "interviewer",
    "interview",
    "q",
    "question",
    "moderator",
    "host",
    "published",
    "editor",
}


@dataclass(frozen=True)
class SubjectNames:
    """The subject's registry name, aliases and the short forms news copy uses
    (a person's surname, a company name without its legal suffix)."""

    full: tuple[str, ...]
    short: tuple[str, ...]

    @classmethod
    def of(cls, name: str, aliases: list[str]) -> SubjectNames:
        full: list[str] = []
        short: list[str] = []
        for raw in [name, *aliases]:
            words = raw.split()
            while words and words[-1].lower() in _LEGAL_SUFFIXES:
                words = words[:-1]
            if not words:
                continue
            full.append(" ".join(words).lower())
            if len(words) >= 2 and len(words[-1]) > 2:
                short.append(words[-1].lower())  # "Freja Lund" -> "Lund"
        return cls(full=tuple(dict.fromkeys(full)), short=tuple(dict.fromkeys(short)))

    def match(self, speaker: str) -> bool:
        """Whether an attributed name is the subject ("Henrik Dahl", "Lund", "Northwind")."""
        candidate = re.sub(r"['’]s$", "", speaker.strip()).lower()
        if not candidate:
            return False
        if candidate in self.full or candidate in self.short:
            return True
        return any(re.search(rf"\b{re.escape(name)}\b", candidate) for name in self.full)


# --- Sentences ---------------------------------------------------------------------------

_FIRST_PERSON = re.compile(r"\b(?:we|our|ours|us|my|me)\b|\bI\b|\bI['’](?:d|m|ve|ll)\b", re.IGNORECASE)
_QUOTED = re.compile(r"[\"“]([^\"“”]{3,}?)[\"”]")
_TRANSCRIPT = re.compile(rf"^({_NAME}):\s+(.+)$")
_REPORTED = re.compile(
    rf"^({_NAME})\s+(?:said|says|told\s+\S+|added|announced|claimed|argued|stated)\s+(?:that\s+)?\S"
)
_ATTR_AFTER_VERB_FIRST = re.compile(rf"^[\s,]*{_SPEECH_VERB}\s+({_NAME}|{_PRONOUN})\b")
_ATTR_AFTER_NAME_FIRST = re.compile(rf"^[\s,]*({_NAME}|{_PRONOUN})\s+{_SPEECH_VERB}")
_ATTR_BEFORE = re.compile(rf"({_NAME}|{_PRONOUN})\s+{_SPEECH_VERB}\s*:?\s*$")
_MIN_WORDS = 4


def statement_sentences(text: str) -> list[str]:
    """Sentences of a paragraph long enough to be a statement, each as written (the
    pipeline's one splitter; a final full stop and edge commas removed)."""
    sentences = []
    for part in split_sentences(text):
        part = part.strip().strip(",").strip()
        if part.endswith(".") and not part.endswith(".."):
            part = part[:-1].rstrip()
        if len(part.split()) >= _MIN_WORDS:
            sentences.append(part)
    return sentences


def _attribution(line: str, start: int, end: int) -> tuple[str, str]:
    """(speaker, attribution text) for the quote at ``line[start:end]``."""
    after = line[end:]
    for pattern in (_ATTR_AFTER_VERB_FIRST, _ATTR_AFTER_NAME_FIRST):
        match = pattern.match(after)
        if match:
            return match.group(1), after[: match.end()].strip(" ,")
    before = line[:start]
    match = _ATTR_BEFORE.search(before)
    if match:
        return match.group(1), match.group(0).strip()
    return "", ""


def _is_pronoun(name: str) -> bool:
    return re.fullmatch(_PRONOUN, name, re.IGNORECASE) is not None


@offline_step("extract_statements", ExtractInput)
def extract_statements_offline(payload: ExtractInput) -> ExtractOutput:
    """Copy candidate statements exactly: quoted passages with their attribution,
    transcript answers, first-person sentences of the subject's own pages, and
    reported paraphrases of the subject (which the pipeline then drops). Any
    sentence about private life is left out and only counted."""
    names = SubjectNames.of(payload.subject_name, payload.aliases)
    statements: list[ExtractedStatement] = []
    omitted = 0
    last_speaker = ""

    def add(sentence: str, context: str, form: str, speaker: str) -> None:
        nonlocal omitted
        if PRIVATE_REDACTION in sentence:
            return  # masked when the page was read, and counted there
        if mentions_private_life(sentence):
            omitted += 1
            return
        statements.append(
            ExtractedStatement(quote=sentence, context=context, form=form, speaker_hint=speaker)  # type: ignore[arg-type]
        )

    for raw_line in payload.page_text.split("\n"):
        line = raw_line.strip()
        if not line:
            continue
        transcript = _TRANSCRIPT.match(line)
        if transcript and not _QUOTED.search(line):
            label, answer = transcript.group(1), transcript.group(2)
            if label.lower() in _TRANSCRIPT_NON_SPEAKERS or not answer[:1].isupper():
                continue
            for sentence in statement_sentences(answer):
                add(sentence, f"{label}:", "transcript_answer", label)
            last_speaker = label
            continue
        quotes = list(_QUOTED.finditer(line))
        if quotes:
            attributed = [_attribution(line, q.start(), q.end()) for q in quotes]
            line_speaker = next((s for s, _ in attributed if s and not _is_pronoun(s)), "")
            for quote, (speaker, context) in zip(quotes, attributed, strict=True):
                if _is_pronoun(speaker) or not speaker:
                    speaker = line_speaker or last_speaker
                if not speaker and payload.own_document:
                    speaker = payload.subject_name
                for sentence in statement_sentences(quote.group(1)):
                    add(sentence, context, "direct_quote", speaker)
                if speaker:
                    last_speaker = speaker
            continue
        reported = _REPORTED.match(line)
        if reported and names.match(reported.group(1)):
            for sentence in statement_sentences(line):
                add(sentence, "", "reported", reported.group(1))
            continue
        if payload.own_document:
            # Body paragraphs of the subject's own page are its words; a line without
            # closing punctuation (a heading, a dateline) counts only in the first person.
            body = line.endswith((".", "!", "?"))
            for sentence in statement_sentences(line):
                if body or _FIRST_PERSON.search(sentence):
                    add(sentence, "", "own_text", payload.subject_name)
    return ExtractOutput(statements=statements, private_life_omitted=omitted)


# --- Classification ---------------------------------------------------------------------

_PREDICTION = re.compile(
    r"\b(?:expects?|expected\s+to|anticipates?|forecasts?|predicts?|likely|likelihood|chance|probability|odds)\b"
    r"|\bput\s+it\s+at\b",
    re.IGNORECASE,
)
_PROMISE = re.compile(
    r"\b(?:we|I)\s+(?:will|shall|are\s+going\s+to|am\s+going\s+to|commit(?:ted)?\s+to|pledge\s+to|promise\s+to|"
    r"plan\s+to|intend\s+to|aim\s+to|want\s+to|hope\s+to|aspire\s+to|strive\s+to)\b"
    r"|\bour\s+(?:target|goal|aim|ambition|plan|commitment|pledge)\s+is\b",
    re.IGNORECASE,
)
_FUTURE = re.compile(r"\b(?:will|shall|should|is\s+going\s+to|are\s+going\s+to)\b", re.IGNORECASE)
_FIRST_PERSON_OPENING = re.compile(r"^\s*(?:we|I|our)\b", re.IGNORECASE)
_FIGURE = re.compile(
    r"\d|\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|"
    r"hundred|thousand|million|billion|first|second|third|half|double|twice)\b",
    re.IGNORECASE,
)
_DELIVERABLE = re.compile(
    r"\b(?:install|build|complete|stop|end|open|launch|deliver|commission|cut|reduce|sell|close|have|hire|publish|"
    r"phase\s+out|tender|reach|finish|start|raise|pay|double|halve|exit)\b",
    re.IGNORECASE,
)
_FIRST_PERSON_SUBJECT = {
    r"\bwe\b": "{org}",
    r"\bus\b": "{org}",
    r"\bour\b": "{org}'s",
    r"\bours\b": "{org}'s",
    r"\bI['’]d\b": "{person} would",
    r"\bI\b": "{person}",
    r"\bmy\b": "{person}'s",
    r"\bme\b": "{person}",
}


def _claim_type(quote: str) -> ClaimType:
    if is_counterfactual_wording(quote):
        return "factual"
    if _PREDICTION.search(quote) or parse_stated_probability(quote) is not None or is_company_guidance(quote):
        return "prediction"
    if _PROMISE.search(quote):
        return "promise"
    # "X will ..." about the world is a prediction; "We have stopped ... and will take"
    # reports the subject's own act, so a first-person opening stays factual.
    if _FUTURE.search(quote) and not _FIRST_PERSON_OPENING.match(quote):
        return "prediction"
    return "factual"


def restate(quote: str, subject_name: str, speaker: str, published: date | None) -> str:
    """A self-contained restatement: first-person words replaced by who they refer
    to ("we" -> the subject, "I" -> the speaker). Nothing else is added: the date it was
    said is the claim's ``made_on``, not part of the restatement, which code anchors to
    the quote ([#15] rule 4: every number and date of the restatement is in the quote)."""
    person = speaker or subject_name
    text = quote
    for pattern, replacement in _FIRST_PERSON_SUBJECT.items():
        text = re.sub(pattern, replacement.format(org=subject_name, person=person), text, flags=re.IGNORECASE)
    del published  # kept in the signature: the caller's record of when it was said
    return text[:1].upper() + text[1:]


def classify_one(
    statement: StatementToClassify, payload: ClassifyInput, names: SubjectNames
) -> StatementClassification:
    """The offline reading of one statement (see the module docstring for its limits)."""
    quote = statement.quote
    speaker = statement.speaker_hint
    is_subject = statement.form == "own_text" or names.match(speaker)
    if not speaker and payload.own_document:
        is_subject, speaker = True, payload.subject_name
    is_question = quote.rstrip().endswith("?")
    # The pipeline's readings of the words (``claims.wording``), proposed as a model would.
    counterfactual = is_counterfactual_wording(quote)
    claim_type = _claim_type(quote)
    has_figure = bool(_FIGURE.search(quote))
    deadline = (
        deadline_in_words(quote) if claim_type in ("promise", "prediction") and not counterfactual else None
    )
    probability = parse_stated_probability(quote) if claim_type == "prediction" else None
    own_records = own_records_wording(quote)
    no_target = intention_without_target_wording(quote)
    names_target = not no_target if no_target is not None else (has_figure or bool(_DELIVERABLE.search(quote)))
    vague_read = vague_wording(quote)
    vague = (
        claim_type == "factual"
        and not counterfactual
        and not own_records
        and (vague_read is True or (vague_read is None and not has_figure))
    )
    return StatementClassification(
        index=statement.index,
        speaker=speaker or "unknown",
        is_subject=is_subject,
        paraphrase=statement.form == "reported",
        private_life=mentions_private_life(quote),
        party_political=mentions_party_politics(quote),
        is_claim=not is_question,
        claim_type=None if is_question else claim_type,
        company_guidance=is_company_guidance(quote),
        names_deliverable_or_target=claim_type == "promise" and names_target,
        restatement=restate(quote, payload.subject_name, speaker, payload.published_date),
        deadline=deadline,
        stated_probability=probability[0] if probability else None,
        probability_kind=probability[1] if probability else None,
        vague=vague,
        counterfactual=counterfactual,
        own_records_only=own_records,
        harm_to_person=harm_to_person_wording(quote),
        reason="offline rules: attribution by name pattern, type and dates by regular expression",
    )


@offline_step("classify_statements", ClassifyInput)
def classify_statements_offline(payload: ClassifyInput) -> ClassifyOutput:
    """Read every statement: speaker by name pattern, paraphrase by form, type by
    cue words, deadline and probability by regular expression."""
    names = SubjectNames.of(payload.subject_name, payload.aliases)
    return ClassifyOutput(items=[classify_one(statement, payload, names) for statement in payload.statements])
