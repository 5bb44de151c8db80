"""robots.txt rules ([M] step 7: "It reads the pages itself, respecting each site's
robots.txt; a site that asks for more than 30 seconds between requests is skipped
rather than fetched early").

Parsing is protego's (RFC 9309: wildcards, ``$``, longest match, agent groups,
fractional crawl delays). Status rules, the crawl-delay limit, the per-host cache and
the per-host politeness wait are here.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal, Protocol

from protego import Protego

from reliability_core.constants import ROBOTS_CACHE_SECONDS, ROBOTS_MAX_CRAWL_DELAY_SECONDS, USER_AGENT

RobotsMode = Literal["parse", "allow_all", "disallow_all"]

# The product token robots groups are matched against (RFC 9309 §2.2.1).
ROBOTS_PRODUCT_TOKEN = USER_AGENT.split("/", 1)[0]


def robots_mode_for_status(status: int | None) -> RobotsMode:
    """What a robots.txt response means (RFC 9309 §2.3.1, [#3] "4xx means allowed; 5xx
    or unreachable means disallowed for now"). ``None`` is unreachable: network error,
    timeout, refused address, or a redirect chain that never ended in a response."""
    if status is None:
        return "disallow_all"
    if 200 <= status < 300:
        return "parse"
    if 400 <= status < 500:
        return "allow_all"
    return "disallow_all"


def crawl_delay_too_long(delay: float | None) -> bool:
    """[M] step 7: "a site that asks for more than 30 seconds between requests is
    skipped rather than fetched early"."""
    return delay is not None and delay > ROBOTS_MAX_CRAWL_DELAY_SECONDS


@dataclass(frozen=True)
class RobotsRules:
    """One host's robots.txt as read at ``fetched_at``."""

    host: str
    mode: RobotsMode
    fetched_at: datetime
    status: int | None
    reason: str = ""
    parser: Protego | None = None

    @classmethod
    def from_response(
        cls, host: str, status: int | None, body: bytes, fetched_at: datetime, reason: str = ""
    ) -> RobotsRules:
        mode = robots_mode_for_status(status)
        parser = Protego.parse(body.decode("utf-8", errors="replace")) if mode == "parse" else None
        return cls(host=host, mode=mode, fetched_at=fetched_at, status=status, reason=reason, parser=parser)

    def expires_at(self) -> datetime:
        """RFC 9309 §2.4: a cached robots.txt is not used for more than 24 hours."""
        return self.fetched_at + timedelta(seconds=ROBOTS_CACHE_SECONDS)

    def allows(self, url: str, agent: str = ROBOTS_PRODUCT_TOKEN) -> bool:
        """May ``agent`` fetch ``url`` under these rules?"""
        if self.mode == "allow_all":
            return True
        if self.mode == "disallow_all" or self.parser is None:
            return False
        return bool(self.parser.can_fetch(url, agent))

    def crawl_delay(self, agent: str = ROBOTS_PRODUCT_TOKEN) -> float | None:
        """Seconds the site asks between requests (Crawl-delay, or Request-rate as a delay)."""
        if self.parser is None:
            return None
        delay = self.parser.crawl_delay(agent)
        if delay is not None:
            return float(delay)
        rate = self.parser.request_rate(agent)
        if rate is not None and rate.requests:
            return float(rate.seconds) / float(rate.requests)
        return None

    def why_refused(self) -> str:
        if self.mode == "disallow_all":
            status = "unreachable" if self.status is None else f"HTTP {self.status}"
            return f"robots.txt for {self.host} is {status}: disallowed for now (RFC 9309)" + (
                f"; {self.reason}" if self.reason else ""
            )
        return f"robots.txt for {self.host} disallows this path for {ROBOTS_PRODUCT_TOKEN}"


class RobotsCache:
    """robots.txt per host, each kept until it expires ([#3] "Cache robots per host with an expiry")."""

    def __init__(self) -> None:
        self._rules: dict[str, RobotsRules] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def lock_for(self, host: str) -> asyncio.Lock:
        """One robots.txt fetch per host at a time, so concurrent page fetches share it."""
        return self._locks.setdefault(host, asyncio.Lock())

    def get(self, host: str, now: datetime) -> RobotsRules | None:
        rules = self._rules.get(host)
        if rules is None or now >= rules.expires_at():
            return None
        return rules

    def put(self, rules: RobotsRules) -> None:
        self._rules[rules.host] = rules


class Timer(Protocol):
    """Monotonic time and sleeping, injectable so tests and the offline demo never wait."""

    def monotonic(self) -> float: ...

    def sleep(self, seconds: float) -> Awaitable[None]: ...


class RealTimer:
    def monotonic(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> Awaitable[None]:
        return asyncio.sleep(seconds)


@dataclass
class VirtualTimer:
    """Time that advances only when slept: the waits are computed and recorded, never spent."""

    now: float = 0.0
    sleeps: list[float] = field(default_factory=list)

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += max(seconds, 0.0)
        await asyncio.sleep(0)


class HostThrottle:
    """Honours a host's crawl delay across every concurrent fetch ([#3] "Otherwise the
    delay is honoured per host across all concurrent fetches"): one lock and one
    next-allowed time per host."""

    def __init__(self, timer: Timer) -> None:
        self._timer = timer
        self._locks: dict[str, asyncio.Lock] = {}
        self._next_allowed: dict[str, float] = {}

    async def wait_turn(self, host: str, delay: float) -> float:
        """Wait until ``host`` may be asked again, then book the next slot. Returns the wait."""
        lock = self._locks.setdefault(host, asyncio.Lock())
        async with lock:
            now = self._timer.monotonic()
            waited = max(0.0, self._next_allowed.get(host, now) - now)
            if waited > 0:
                await self._timer.sleep(waited)
            self._next_allowed[host] = self._timer.monotonic() + max(delay, 0.0)
            return waited
