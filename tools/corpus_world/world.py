"""The whole offline world: subjects, shared web-behaviour pages, robots files and
the trap classes the consistency test requires."""

from __future__ import annotations

from corpus_world import clearwater, northwind, okafor, refused
from corpus_world.model import Doc, SubjectWorld
from corpus_world.web import ROBOTS, WEB_BEHAVIOUR, web_docs

NOW = "2026-11-30T12:00:00Z"

SUBJECTS: tuple[SubjectWorld, ...] = (
    northwind.world(),
    clearwater.world(),
    okafor.world(),
    refused.politician(),
    refused.private_person(),
)

# Every class must appear at least once in the answer key's ``traps`` list.
TRAP_CLASSES: tuple[str, ...] = (
    "own_source_copy",
    "repeats_claim_only",
    "same_story_two_addresses",
    "rejected_social_media",
    "rejected_forum",
    "rejected_user_edited_wiki",
    "rejected_prediction_market",
    "rejected_content_farm",
    "rejected_self_interested_press_release",
    "steering_visible_en",
    "steering_visible_de",
    "steering_hidden",
    "robots_disallowed",
    "redirect",
    "redirect_into_disallowed",
    "crawl_delay_over_limit",
    "http_404",
    "http_500",
    "pdf",
    "oversize",
    "broken_charset",
)


def shared_docs() -> list[Doc]:
    return web_docs()


__all__ = ["NOW", "ROBOTS", "SUBJECTS", "TRAP_CLASSES", "WEB_BEHAVIOUR", "shared_docs"]
