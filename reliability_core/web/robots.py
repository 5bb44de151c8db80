"""robots.txt rules ([M] step 7: "It reads the pages itself, respecting each site's
robots.txt; a site that asks for more than 30 seconds between requests is skipped
rather than fetched early").

Parsing is protego's (RFC 9309: wildcards, ``$``, longest match, agent groups,
fractional crawl delays), after one correction made here: lines protego does not
know are removed before it parses (``known_records_only``), because protego lets an
unknown line end a group, and RFC 9309 §2.2.4 says other records "MUST NOT interfere
with the parsing of explicitly defined records". Status rules, the crawl-delay limit,
the per-host cache and the per-host politeness wait are here too. Only the first
500 KiB of a robots.txt is parsed (RFC 9309 §2.5), off the event loop.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal, Protocol

from protego import Protego

from reliability_core.constants import (
    ROBOTS_CACHE_SECONDS,
    ROBOTS_MAX_CRAWL_DELAY_SECONDS,
    ROBOTS_MAX_PARSE_BYTES,
    USER_AGENT,
)

RobotsMode = Literal["parse", "allow_all", "disallow_all"]


def product_token(user_agent: str) -> str:
    """RFC 9309 §2.2.1: crawlers match groups by "the product token" of their user
    agent: the part of the ``User-Agent`` header before the first ``/`` (and space)."""
    token = user_agent.strip().split("/", 1)[0].split(" ", 1)[0]
    return token or user_agent.strip()


# The product token of the header the fetcher sends by default.
ROBOTS_PRODUCT_TOKEN = product_token(USER_AGENT)

# The records protego reads, with the spellings it accepts (protego 0.7
# ``_protego.py``): RFC 9309's user-agent, allow and disallow, and the other
# records of common use (sitemap, host, crawl-delay, request-rate, visit-time).
_KNOWN_RECORDS = frozenset(
    {
        "user-agent", "useragent", "user agent",
        "allow",
        "disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw",
        "sitemap", "sitemaps", "site-map",
        "crawl-delay", "crawl delay",
        "request-rate", "request rate",
        "visit-time", "visit time",
        "host",
    }
)  # fmt: skip
_RECORD = re.compile(r"^\s*([^:#]*?)\s*:")


def known_records_only(robots_txt: str) -> str:
    """RFC 9309 §2.2.4: "Crawlers MAY interpret other records that are not part of
    the robots.txt protocol ... Parsing other records MUST NOT interfere with the
    parsing of explicitly defined records in Section 2." Google's reference parser
    agrees: an unknown line is skipped, it neither starts nor ends a group.

    protego ends the current group at an unknown ``field: value`` line (a later
    ``User-agent`` then starts a new group, so the rules after it no longer apply
    to the agents before it). Such lines are blanked here (line numbers kept)
    before protego parses; comments, blank lines, lines without a colon (protego
    salvages "Disallow /x") and every known record pass through untouched."""
    kept: list[str] = []
    for line in robots_txt.splitlines():
        match = _RECORD.match(line.split("#", 1)[0])
        field = " ".join(match.group(1).lower().split()) if match else None
        kept.append(line if field is None or field in _KNOWN_RECORDS else "")
    return "\n".join(kept)


def parsed_part(body: bytes) -> bytes:
    """The part of a robots.txt that is parsed: RFC 9309 §2.5, "crawlers SHOULD impose a
    parsing limit to protect their systems ... The parsing limit MUST be at least 500
    kibibytes". The first ``ROBOTS_MAX_PARSE_BYTES`` are kept, less the line the limit
    cuts through: a cut ``Disallow: /private-archive/`` would read ``Disallow: /pri`` and
    refuse far more than the site asked, a cut ``Allow`` would allow more."""
    if len(body) <= ROBOTS_MAX_PARSE_BYTES:
        return body
    head = body[:ROBOTS_MAX_PARSE_BYTES]
    return head[: max(head.rfind(b"\n"), head.rfind(b"\r")) + 1]


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
    # The robots.txt fetch itself was refused for its address (a private or special
    # address on the way): that is an address refusal of the page, not a robots one.
    address_refused: bool = False

    @classmethod
    def from_response(
        cls,
        host: str,
        status: int | None,
        body: bytes,
        fetched_at: datetime,
        reason: str = "",
        *,
        address_refused: bool = False,
    ) -> RobotsRules:
        """The rules a robots.txt response gives. Parsing even 500 KiB of wildcard rules
        takes seconds in protego, so a caller on an event loop runs this in a thread
        (``SafeFetcher.robots_for`` does)."""
        mode = robots_mode_for_status(status)
        # RFC 9309 §2.3: robots.txt "MUST be UTF-8 encoded".
        parser = (
            Protego.parse(known_records_only(parsed_part(body).decode("utf-8", errors="replace")))
            if mode == "parse"
            else None
        )
        return cls(
            host=host,
            mode=mode,
            fetched_at=fetched_at,
            status=status,
            reason=reason,
            parser=parser,
            address_refused=address_refused,
        )

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

    def why_refused(self, agent: str = ROBOTS_PRODUCT_TOKEN) -> str:
        if self.mode == "disallow_all":
            status = "unreachable" if self.status is None else f"HTTP {self.status}"
            return f"robots.txt for {self.host} is {status}: disallowed for now (RFC 9309)" + (
                f"; {self.reason}" if self.reason else ""
            )
        return f"robots.txt for {self.host} disallows this path for {agent}"


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
