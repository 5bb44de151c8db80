"""Offline rules for step 1: ``confirm_identity`` and ``decide_coverage``.

Deterministic stand-ins for the live models, used by the demo and the tests.
They read only their step's input, exactly as a model would:

``confirm_identity`` (from the search hits):
  * a hit is about the subject when its title or snippet names the subject or
    one of its aliases (whole words, case-insensitive), or when it sits on a
    host of one of the registry URLs;
  * a hit that names the subject but says it is a different entity ("not to be
    confused with", "no relation to", "unrelated to", "namesake", "a different
    ...") is listed as another subject, not as evidence;
  * the name and URLs point to one subject when at least one hit is about the
    subject and, if the registry gives URLs, at least one such hit is on a
    registry host or names one.

``decide_coverage`` (from the evidence text only):
  * serving politician or official in post: the pipeline's own rule,
    ``subjects.coverage.serving_office_in_evidence`` (an office held now next
    to the subject's name, in the subjects' languages; an ended office does not
    count). The input carries no date, so any end date written counts as passed;
  * not public: "private individual", "private person", "private citizen", "not
    a public figure", "no public role";
  * public figure or organisation: a public-role word (company, charity,
    foundation, chief executive, founder, author, economist, ...) in any item;
  * covered: public and not a serving politician; or not public with
    documented consent. Empty evidence: not public, not covered.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from reliability_core.stand_in.model import offline_step
from reliability_core.subjects.coverage import (
    CONFIRM_IDENTITY_STEP,
    DECIDE_COVERAGE_STEP,
    ConfirmIdentityInput,
    ConfirmIdentityOutput,
    DecideCoverageInput,
    DecideCoverageOutput,
    private_person_in_evidence,
    serving_office_in_evidence,
)

_OTHER_ENTITY = re.compile(
    r"not to be confused with|no relation (?:to|with)|unrelated to|namesake|a different (?:person|company|"
    r"organi[sz]ation|entity)|shares? (?:the|a) name|same name",
    re.IGNORECASE,
)

_PUBLIC = re.compile(
    r"\b(?:company|companies|corporation|group|plc|a/s|inc|ltd|listed|shareholders?|annual report|"
    r"charity|charities|nonprofit|non-profit|foundation|organi[sz]ation|institute|university|agency|"
    r"chief executive|ceo|chair(?:man|woman|person)?|founder|co-founder|director|executive|economist|"
    r"author|professor|columnist|commentator|investor|analyst|journalist|scientist|researcher|"
    r"spokes(?:person|man|woman)|public figure|well-known|renowned|evaluator|manufacturer|utility|developer)\b",
    re.IGNORECASE,
)


def _names(name: str, aliases: list[str]) -> list[re.Pattern[str]]:
    return [
        re.compile(rf"(?<!\w){re.escape(n.strip())}(?!\w)", re.IGNORECASE)
        for n in [name, *aliases]
        if n.strip()
    ]


def _host(url: str) -> str:
    return (urlsplit(url).hostname or "").lower().removeprefix("www.")


def confirm_identity(payload: ConfirmIdentityInput) -> ConfirmIdentityOutput:
    """Which hits are about the subject, by name/alias and registry host (see
    the module docstring for the rule)."""
    names = _names(payload.name, payload.aliases)
    registry_hosts = {_host(u) for u in payload.registry_urls} - {""}
    matching: list[str] = []
    others: list[str] = []
    on_registry_host = False
    for hit in payload.hits:
        text = f"{hit.title}\n{hit.snippet}"
        named = any(p.search(text) for p in names)
        own_host = _host(hit.url) in registry_hosts
        if named and not own_host and _OTHER_ENTITY.search(text):
            others.append(hit.url)
            continue
        if named or own_host:
            matching.append(hit.url)
            if own_host or any(h in text.lower() for h in registry_hosts):
                on_registry_host = True
    reasons: list[str] = [
        f"{len(matching)} of {len(payload.hits)} hits name the subject or sit on its own site"
    ]
    if others:
        reasons.append(f"{len(others)} hits are about another subject with the same name")
    same = bool(matching) and (on_registry_host or not registry_hosts)
    if matching and registry_hosts and not on_registry_host:
        reasons.append("no hit about the subject is on, or names, a registry URL's site")
    if not matching:
        reasons.append("no hit names the subject")
    return ConfirmIdentityOutput(
        same_subject=same, matching_urls=matching, other_subject_urls=others, reasons=reasons
    )


def decide_coverage(payload: DecideCoverageInput) -> DecideCoverageOutput:
    """Coverage from the evidence text only (see the module docstring for the rule)."""
    if not payload.evidence:
        return DecideCoverageOutput(
            is_public_figure_or_organisation=False,
            is_serving_politician=False,
            covered=False,
            reasons=["no identity evidence: nothing shows a public role"],
        )
    reasons: list[str] = []
    office = serving_office_in_evidence(payload.evidence, [payload.name, *payload.aliases], None)
    politician_office = office.office if office is not None else None
    if office is not None:
        reasons.append(f"evidence names the subject as {office.office!r} ({office.url})")
    # The live rule reads the evidence for a private person; the stand-in proposes from it.
    private_item = private_person_in_evidence(payload.evidence)
    private = private_item is not None
    if private_item is not None:
        reasons.append(f"evidence describes a private person ({private_item.url})")
    public_words: set[str] = set()
    for item in payload.evidence:
        text = f"{item.title}. {item.snippet}"
        public_words.update(m.group(0).lower() for m in _PUBLIC.finditer(text))
    is_politician = politician_office is not None
    is_public = (bool(public_words) or is_politician) and not private
    if is_public and public_words:
        reasons.append("public role in the evidence: " + ", ".join(sorted(public_words)[:6]))
    if not is_public and not private:
        reasons.append("the evidence shows no public role")
    if is_politician:
        covered = False
        reasons.append("a serving politician or official in post is out of scope")
    elif is_public:
        covered = True
    else:
        covered = payload.documented_consent
        reasons.append(
            "not a public figure; documented consent on record"
            if covered
            else "not a public figure; no documented consent"
        )
    return DecideCoverageOutput(
        is_public_figure_or_organisation=is_public,
        is_serving_politician=is_politician,
        covered=covered,
        reasons=reasons,
    )


# Registered without decorator syntax so the functions keep their precise
# output types for callers and tests.
offline_step(CONFIRM_IDENTITY_STEP, ConfirmIdentityInput)(confirm_identity)
offline_step(DECIDE_COVERAGE_STEP, DecideCoverageInput)(decide_coverage)
