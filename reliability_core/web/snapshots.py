"""Page snapshots reused instead of fetched again.

Claims of one subject share evidence pages: a run used to fetch each returned URL
about 8.6 times (once per claim whose search returned it), and a second run of the
same day fetched them all again. ``ReusingFetcher`` stands in front of the safe
fetcher for one run:

- a URL is fetched at most once per run; claims asking at the same time share the
  one fetch (``reuse_within_run``);
- a snapshot already in the subject's append-only ledger is reused while it is
  inside its lifetime (``snapshot_reusable``): read completely (``outcome`` ok, a
  SHA-256), by this method version, no older than the shortest re-check interval of
  the refresh rules, and fetched no earlier than ``not_before`` (the run passes the
  newest criteria time of the claims it researches, so a reused page never predates
  the frozen criteria of a claim it is evidence for: the
  ``criteria_frozen_before_research`` check holds for reused pages too).

The fetcher's own rules (addresses, robots, crawl delay, caps) still apply to every
page actually fetched; a reused page was fetched under them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from datetime import datetime, timedelta

from reliability_core.constants import EVIDENCE_PAGE_REUSE_DAYS
from reliability_core.models import PageSnapshot
from reliability_core.text.private_sentences import mask_known_private_sentences
from reliability_core.web.fetch import Fetcher


def snapshot_reusable(
    snapshot: PageSnapshot, *, method_version: str, now: datetime, not_before: datetime | None
) -> bool:
    """[R] re-checks run "daily in the last week" at the shortest: a stored evidence page is
    reused for ``EVIDENCE_PAGE_REUSE_DAYS`` (1) after it was fetched, never longer, so a
    re-check never reads a page older than its interval. Only a page read in full by the
    same method version counts, and only one fetched at or after ``not_before``."""
    if snapshot.outcome != "ok" or snapshot.sha256 is None or snapshot.method_version != method_version:
        return False
    if not_before is not None and snapshot.fetched_at < not_before:
        return False
    return timedelta(0) <= now - snapshot.fetched_at < timedelta(days=EVIDENCE_PAGE_REUSE_DAYS)


class ReusingFetcher:
    """A ``Fetcher`` for one run: each URL fetched once, reusable stored snapshots reused."""

    def __init__(
        self,
        fetcher: Fetcher,
        stored: Iterable[PageSnapshot],
        *,
        method_version: str,
        now: datetime,
        not_before: datetime | None,
    ) -> None:
        self._fetcher = fetcher
        self._stored: dict[str, PageSnapshot] = {}
        for snapshot in stored:
            if not snapshot_reusable(snapshot, method_version=method_version, now=now, not_before=not_before):
                continue
            held = self._stored.get(snapshot.url)
            if held is None or snapshot.fetched_at > held.fetched_at:
                self._stored[snapshot.url] = snapshot  # the newest reusable one
        self._runs: dict[tuple[str, str], asyncio.Task[PageSnapshot]] = {}
        self.fetched = 0  # pages actually fetched this run
        self.reused = 0  # asks answered from a stored snapshot or this run's earlier fetch

    async def snapshot(self, url: str, method_version: str) -> PageSnapshot:
        """``url``'s snapshot: stored and inside its lifetime, fetched already this run, or fetched now."""
        stored = self._stored.get(url)
        if stored is not None and stored.method_version == method_version:
            self.reused += 1
            return stored
        return await self.reuse_within_run(url, method_version)

    async def reuse_within_run(self, url: str, method_version: str) -> PageSnapshot:
        """One fetch per URL per run; concurrent asks await the same fetch (shielded, so one
        asker being cancelled does not cancel the page for the others)."""
        key = (url, method_version)
        task = self._runs.get(key)
        if task is None:
            self.fetched += 1
            task = asyncio.ensure_future(self._fetcher.snapshot(url, method_version))
            self._runs[key] = task
        else:
            self.reused += 1
        return await asyncio.shield(task)


class MaskingFetcher:
    """A ``Fetcher`` that masks, in every snapshot it returns, the sentences step 4 found
    private for this subject (by fingerprint: ``text.private_sentences``), so a copy of a
    page read as evidence under another URL is masked before a quote is verified on it or
    anything stores it. The keyword rule's mask is applied by the fetcher below it."""

    def __init__(self, fetcher: Fetcher, fingerprints: Iterable[str]) -> None:
        self._fetcher = fetcher
        self._fingerprints = frozenset(fingerprints)

    async def snapshot(self, url: str, method_version: str) -> PageSnapshot:
        return mask_known_private_sentences(await self._fetcher.snapshot(url, method_version), self._fingerprints)
