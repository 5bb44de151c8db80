"""The product figure of the steering screen (issue 28 item 4): how many claims lose display
to a steering detection, and how many of those detections fall on text that is not an
attack.

A detection on any layer blocks a verdict's display ([#16]), and a claim's evidence is
about nine pages, so a screen's false positives on ordinary pages cost claims. In the demo
corpus (and the rehearsal, which serves the same corpus) the planted attacks are known: the
answer key's ``steering_*`` traps name the pages that carry them. A blocked claim whose every
finding is on one of those pages lost display to a real attack; one with a finding anywhere
else (another page, the claim itself) lost it, at least in part, to text that is not a
known attack.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from reliability_core.models.verdicts import ClaimVerdict, EvidenceItem
from reliability_core.verdicts.gates import GATE_NO_STEERING
from reliability_core.yaml_files import safe_load


class SteeringDisplayLosses(BaseModel):
    """Claims whose display a steering detection blocked, split by where it was found."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    claims: int  # verdicts counted
    blocked_by_steering: int  # display blocked by the steering gate
    on_planted_attack_only: int  # every finding on a page known to carry a planted attack
    on_other_text: int  # a finding on text that is not a known planted attack

    def line(self) -> str:
        """The run summary's line."""
        return (
            f"steering: {self.blocked_by_steering} of {self.claims} claims held by a steering detection "
            f"({self.on_planted_attack_only} on known planted attacks only, {self.on_other_text} on other text)"
        )


def finding_sources(verdict: ClaimVerdict) -> list[str]:
    """Which text each of the verdict's steering findings was in (an evidence id, "claim", a
    page address), read from the stored findings, never from the notes' wording."""
    return [finding.source for finding in verdict.steering_findings]


def planted_steering_urls(answer_key: Path) -> set[str]:
    """Pages the demo corpus's answer key lists as carrying a planted steering attempt."""
    if not answer_key.exists():
        return set()
    return set(_planted_urls(answer_key.read_text(encoding="utf-8")))


@functools.lru_cache(maxsize=4)
def _planted_urls(text: str) -> frozenset[str]:
    # The answer key is half a megabyte and read once per covered subject.
    key = safe_load(text) or {}
    return frozenset(
        str(trap["url"])
        for trap in key.get("traps", []) or []
        if str(trap.get("trap", "")).startswith("steering")
    )


def evidence_pages(evidence: Iterable[EvidenceItem]) -> dict[str, str]:
    """Evidence id -> the page it was read from (its final address after redirects)."""
    return {item.id: item.final_url or item.url for item in evidence}


def steering_display_losses(
    verdicts: Sequence[ClaimVerdict], page_of: Mapping[str, str], planted_urls: set[str]
) -> SteeringDisplayLosses:
    """[#16] "a detection on any layer blocks display": count the claims whose display the
    steering gate blocked, and of those the ones with a finding on text that is not a known
    planted attack (a finding's source is an evidence id, resolved to its page, or a page
    URL, or the claim itself)."""
    blocked = planted_only = other = 0
    for verdict in verdicts:
        if GATE_NO_STEERING not in verdict.gate.failed:
            continue
        blocked += 1
        pages = [page_of.get(source, source) for source in finding_sources(verdict)]
        if pages and all(page in planted_urls or _same_page(page, planted_urls) for page in pages):
            planted_only += 1
        else:
            other += 1
    return SteeringDisplayLosses(
        claims=len(verdicts),
        blocked_by_steering=blocked,
        on_planted_attack_only=planted_only,
        on_other_text=other,
    )


def _same_page(url: str, planted: set[str]) -> bool:
    # An evidence item may carry the page's address with a fragment or trailing slash.
    bare = url.split("#", 1)[0].rstrip("/")
    return any(bare == p.split("#", 1)[0].rstrip("/") for p in planted)
