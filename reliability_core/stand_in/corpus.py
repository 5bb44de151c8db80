"""The offline world's manifest: what the offline transport serves and the
offline search index finds. Shared by ``web.offline`` and ``providers.offline_search``."""

from __future__ import annotations

from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from reliability_core.models.base import KnownSourceClass
from reliability_core.settings import settings
from reliability_core.yaml_files import safe_load

# A page of the offline web is one of the subject's documents or a source of one of the
# policy's classes (the same names, so the corpus and the source policy cannot drift).
DocumentKind = Literal[
    "subject_own",  # the subject's own post, report, letter
    "interview",  # interview or transcript with the subject
    "news_quoting",  # news article quoting the subject
    "mention_only",  # mentions the subject, no statement by it
    KnownSourceClass,
    "other",
]


class CorpusPage(BaseModel):
    """One URL of the offline web."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    url: str  # https://host.example/path
    file: str | None = None  # body file relative to data/corpus/pages; None for redirects/errors
    content_type: str = "text/html; charset=utf-8"
    status: int = 200
    redirect_to: str | None = None  # for 301/302 entries
    title: str = ""
    site: str = ""
    published: date | None = None
    kind: DocumentKind = "other"
    subject_ids: list[str] = Field(default_factory=list)  # subjects the page is about
    language: str = "en"
    keywords: list[str] = Field(default_factory=list)
    forward_looking: bool = False
    searchable: bool = True  # False: reachable by URL but never returned by search
    oversize_bytes: int | None = None  # serve this many bytes of filler (the oversize test page)
    # Evidence class when it differs from ``kind`` (e.g. a subject_own blog post that, as evidence,
    # is the subject's ordinary statement). None: use ``kind``.
    source_class: str | None = None
    notes: str = ""


class CorpusManifest(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    pages: list[CorpusPage]
    robots: dict[str, str] = Field(default_factory=dict)  # host -> robots.txt body file (relative)


def load_manifest(corpus_dir: Path | None = None) -> CorpusManifest:
    """Read ``manifest.yaml`` from a corpus directory (default: the settings'
    ``<data_dir>/corpus``), parsed once per file version: the fetcher and the search
    index both need it, and pure-Python YAML took 1.4 s per read of the demo manifest."""
    path = ((corpus_dir or settings().corpus_dir) / "manifest.yaml").resolve()
    return _parsed_manifest(path, path.stat().st_mtime_ns)


@lru_cache(maxsize=4)
def _parsed_manifest(path: Path, mtime_ns: int) -> CorpusManifest:
    return CorpusManifest.model_validate(safe_load(path.read_text(encoding="utf-8"), str(path)))


def corpus_subjects(corpus_dir: Path | None = None) -> frozenset[str]:
    """The subjects the offline world holds pages about: the only ones the stand-in knows
    (none when there is no corpus)."""
    if not ((corpus_dir or settings().corpus_dir) / "manifest.yaml").exists():
        return frozenset()
    return frozenset(s for page in load_manifest(corpus_dir).pages for s in page.subject_ids)


def corpus_subject_names(corpus_dir: Path | None = None) -> frozenset[str]:
    """The names (casefolded keywords) by which the offline search finds the pages about a
    subject: a registry entry named so is a subject the stand-in knows, whatever its id."""
    if not ((corpus_dir or settings().corpus_dir) / "manifest.yaml").exists():
        return frozenset()
    pages = load_manifest(corpus_dir).pages
    return frozenset(k.strip().casefold() for page in pages if page.subject_ids for k in page.keywords if k.strip())


# The demo corpus is written as of this instant: its "not yet due" deadlines are
# after it. Offline runs over the corpus pin the clock here (unless
# RELIABILITY_NOW says otherwise) so demo reports are reproducible.
DEMO_CORPUS_NOW = "2026-11-30T12:00:00Z"
