"""The safe fetcher ([V] T1 "Fetch the cited URL — safely: HTTPS only. Private,
loopback and metadata addresses refused; every redirect re-checked; 10 s timeout;
3 MB cap. GitHub blobs are read raw; arXiv abstracts also try the HTML version.")

Every fetch, successful or refused, ends in a record ([V] T1 "Record the evidence:
HTTP status, fetch time and a SHA-256 of the content"). The transport is the seam:
the live transport and the offline corpus transport receive the same requests.

How DNS rebinding is defeated: each hop's host is resolved once, every answer must
be public, and the request is sent to the checked address itself (the URL carries
the IP; ``Host`` and the TLS ``sni_hostname`` carry the name, so certificates are
still verified against the name). No second lookup happens between check and connect.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Protocol
from urllib.parse import urljoin

import httpx

from reliability_core.clock import Clock, SystemClock
from reliability_core.constants import FETCH_MAX_BYTES, FETCH_MAX_REDIRECTS, FETCH_TIMEOUT_SECONDS, USER_AGENT
from reliability_core.ids import stable_id
from reliability_core.models.base import Record
from reliability_core.models.documents import FetchOutcome, HiddenText, PageSnapshot
from reliability_core.text.privacy import mask_page_snapshot
from reliability_core.web.addresses import IPAddress, address_refusal_reason, parse_address
from reliability_core.web.content_coding import ACCEPTED_CODINGS, BoundedBodyDecoder, CodingRefusal
from reliability_core.web.page_text import PageTexts, declared_type_is_refused, extract_page_texts
from reliability_core.web.robots import (
    HostThrottle,
    RealTimer,
    RobotsCache,
    RobotsRules,
    Timer,
    crawl_delay_too_long,
    product_token,
)
from reliability_core.web.urls import UrlCheck, arxiv_html_url, check_fetch_url, github_raw_url, robots_url

_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_ACCEPT = "text/html,application/xhtml+xml,text/plain;q=0.9,application/pdf;q=0.8,*/*;q=0.1"


class Fetcher(Protocol):
    """What the pipeline fetches pages through: ``SafeFetcher`` (robots, crawl delay
    and address checks happen inside), or a test's fake."""

    async def snapshot(self, url: str, method_version: str) -> PageSnapshot: ...


class Resolver(Protocol):
    """Name to addresses. Injectable so tests can make names resolve anywhere."""

    async def resolve(self, host: str, port: int) -> list[str]: ...


class SystemResolver:
    """The operating system's resolver (``getaddrinfo``), run in a thread."""

    async def resolve(self, host: str, port: int) -> list[str]:
        infos = await asyncio.to_thread(socket.getaddrinfo, host, port, 0, socket.SOCK_STREAM)
        seen: list[str] = []
        for _family, _type, _proto, _canon, sockaddr in infos:
            address = str(sockaddr[0])
            if address not in seen:
                seen.append(address)
        return seen


@dataclass
class FetchResult:
    """One fetch as it happened; the body is kept in memory for the page-text step."""

    url: str
    final_url: str | None
    fetched_at: datetime
    outcome: FetchOutcome
    reason: str = ""
    redirect_chain: list[str] = field(default_factory=list)
    status: int | None = None
    content_type: str | None = None
    body: bytes = b""
    connected_to: list[str] = field(default_factory=list)  # the checked address of every hop
    bytes_read: int = 0
    body_complete: bool = False  # the whole body was read (no refusal, cap or timeout on the way)


class FetchPermission(Record):
    """The answer to "would you fetch this URL, and why not?": ``outcome`` is what a
    fetch would end in for a refusal (``ok`` when it would go ahead)."""

    url: str
    allowed: bool
    outcome: FetchOutcome
    reason: str


class _Refusal(Exception):
    """Internal control flow: ends a fetch with an expected outcome."""

    def __init__(self, outcome: FetchOutcome, reason: str) -> None:
        super().__init__(reason)
        self.outcome = outcome
        self.reason = reason


def first_address_refusal(addresses: list[str]) -> str | None:
    """[#3] "resolve once, refuse if any resolved address is not public"."""
    if not addresses:
        return "the name resolved to no address"
    for text in addresses:
        address = parse_address(text)
        if address is None:
            return f"resolver returned an unusable address {text!r}"
        reason = address_refusal_reason(address)
        if reason is not None:
            return f"resolves to a non-public address: {reason}"
    return None


def _url_for_address(address: IPAddress, port: int, target: str) -> str:
    host = f"[{address}]" if address.version == 6 else str(address)
    return f"https://{host}{'' if port == 443 else f':{port}'}{target}"


def store_body(directory: Path, sha256: str, body: bytes) -> Path:
    """Keep the bytes that were read, content-addressed (``<dir>/<sha[:2]>/<sha>``), so a
    PDF that cannot be verified yet is still stored ([#3] "PDF is stored and marked
    unverifiable") and anyone can re-check exactly what was read."""
    path = directory / sha256[:2] / sha256
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".part")
        temporary.write_bytes(body)
        temporary.replace(path)
    return path


def _raw_body(response: httpx.Response) -> AsyncIterator[bytes]:
    """The body as sent, content codings still applied (httpx would undo them without a
    bound). A transport that built its response from bytes (the offline corpus, tests)
    has already read it, and its ``httpx.ByteStream`` holds the bytes as sent."""
    if response.is_stream_consumed and isinstance(response.stream, httpx.ByteStream):
        return aiter(response.stream)
    return response.aiter_raw()


def live_transport() -> httpx.AsyncBaseTransport:
    """The network transport: certificate checks on, no proxies from the environment,
    no connection reuse (a pooled connection is keyed by address, and must never carry
    a request for a different name than the one it was opened for)."""
    return httpx.AsyncHTTPTransport(
        verify=True,
        trust_env=False,
        retries=0,
        limits=httpx.Limits(max_connections=20, max_keepalive_connections=0),
    )


class SafeFetcher:
    """Fetches public HTTPS pages under the method's rules, and turns them into snapshots."""

    def __init__(
        self,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        resolver: Resolver | None = None,
        clock: Clock,
        timer: Timer | None = None,
        timeout_seconds: float = FETCH_TIMEOUT_SECONDS,
        max_bytes: int = FETCH_MAX_BYTES,
        max_redirects: int = FETCH_MAX_REDIRECTS,
        user_agent: str = USER_AGENT,
        respect_robots: bool = True,
        body_store: Path | None = None,
    ) -> None:
        self._transport = transport if transport is not None else live_transport()
        self._resolver = resolver if resolver is not None else SystemResolver()
        self._clock = clock
        self._timer = timer if timer is not None else RealTimer()
        self._timeout = timeout_seconds
        self._max_bytes = max_bytes
        self._max_redirects = max_redirects
        self._user_agent = user_agent
        # Groups are matched by the product token of the header actually sent.
        self.robots_agent = product_token(user_agent)
        self._respect_robots = respect_robots
        self._body_store = body_store
        self._robots = RobotsCache()
        self._throttle = HostThrottle(self._timer)
        # Page texts by body hash: evidence pages recur across a subject's claims,
        # and readability is the costliest part of a snapshot.
        self._texts: dict[tuple[str, str | None], PageTexts] = {}
        self._gate: Callable[[], AbstractAsyncContextManager[None]] = contextlib.nullcontext

    async def aclose(self) -> None:
        await self._transport.aclose()

    def wrap_transport(self, wrap: Callable[[httpx.AsyncBaseTransport], httpx.AsyncBaseTransport]) -> None:
        """Layer ``wrap`` over the transport every request goes through (tests count requests this way)."""
        self._transport = wrap(self._transport)

    def gate_requests(self, gate: Callable[[], AbstractAsyncContextManager[None]]) -> None:
        """Every request on the wire (a page, a robots.txt, each redirect hop) holds ``gate()``
        from sending to closing the response. The orchestration bounds web requests across runs
        this way; waiting for the gate is not the server's slowness, so it is outside the timeout."""
        self._gate = gate

    # --- robots -------------------------------------------------------------------

    async def robots_for(self, host: str, port: int = 443) -> RobotsRules:
        """The host's robots.txt rules, fetched through this same safe fetcher and cached."""
        async with self._robots.lock_for(host):
            cached = self._robots.get(host, self._clock.now())
            if cached is not None:
                return cached
            result = await self.fetch(robots_url(host, port), check_robots=False)
            status = result.status if result.outcome in {"ok", "http_error"} else None
            # Parsing up to 500 KiB of rules takes seconds: not on the event loop.
            rules = await asyncio.to_thread(
                functools.partial(
                    RobotsRules.from_response,
                    host,
                    status,
                    result.body,
                    result.fetched_at,
                    reason=result.reason if status is None else "",
                    address_refused=result.outcome == "refused_address",
                )
            )
            self._robots.put(rules)
            return rules

    async def _robots_decision(self, check: UrlCheck) -> float:
        """Refuse a hop as the host's robots.txt says ([M] step 7), or return the crawl
        delay it asks for."""
        rules = await self.robots_for(check.host, check.port)
        if rules.address_refused:
            # The address rule refused the robots.txt fetch (e.g. it redirected to, or
            # now resolves to, a private address): the page is refused for its address.
            raise _Refusal("refused_address", f"while reading robots.txt for {check.host}: {rules.reason}")
        if not rules.allows(f"https://{check.host}{check.target}", self.robots_agent):
            raise _Refusal("refused_robots", rules.why_refused(self.robots_agent))
        delay = rules.crawl_delay(self.robots_agent)
        if crawl_delay_too_long(delay):
            raise _Refusal(
                "skipped_crawl_delay",
                f"robots.txt for {check.host} asks {delay:g} s between requests, over the 30 s limit",
            )
        return delay or 0.0

    async def _robots_gate(self, check: UrlCheck) -> None:
        """Refuse or delay a hop as the host's robots.txt says ([M] step 7)."""
        delay = await self._robots_decision(check)
        await self._throttle.wait_turn(check.host, delay)

    async def permission(self, url: str) -> FetchPermission:
        """Would this fetcher fetch ``url``, and why not? Every rule that can be decided
        before the page is requested, in the order a fetch applies them: the URL rules,
        the address rule (one resolution, every answer public), robots.txt for the
        fetcher's own user agent (read through this fetcher) and the crawl-delay limit.
        The page itself is not requested; its redirects, size and type are checked
        hop by hop only when it is fetched."""
        target = github_raw_url(url) or url
        check = check_fetch_url(target)
        if not check.ok:
            return FetchPermission(url=url, allowed=False, outcome="refused_url", reason=check.reason)
        try:
            async with asyncio.timeout(self._timeout):
                address = await self._resolve_checked(check)
            if self._respect_robots:
                delay = await self._robots_decision(check)
            else:
                delay = 0.0
        except _Refusal as refusal:
            return FetchPermission(url=url, allowed=False, outcome=refusal.outcome, reason=refusal.reason)
        except TimeoutError:
            return FetchPermission(
                url=url, allowed=False, outcome="timeout", reason=f"no answer within {self._timeout:g} s"
            )
        wait = f"; robots.txt asks {delay:g} s between requests" if delay else ""
        return FetchPermission(
            url=url,
            allowed=True,
            outcome="ok",
            reason=f"{check.host} resolves to public {address}; robots.txt allows it for {self.robots_agent}{wait}",
        )

    # --- fetching -------------------------------------------------------------------

    async def _resolve_checked(self, check: UrlCheck) -> IPAddress:
        try:
            addresses = await self._resolver.resolve(check.host, check.port)
        except (OSError, UnicodeError) as error:
            raise _Refusal("network_error", f"could not resolve {check.host}: {error}") from error
        reason = first_address_refusal(addresses)
        if reason is not None:
            raise _Refusal("refused_address", f"{check.host} {reason}")
        address = parse_address(addresses[0])
        assert address is not None  # checked by first_address_refusal
        return address

    async def _exchange(self, check: UrlCheck, address: IPAddress, result: FetchResult) -> httpx.Response:
        """One request to the checked address; the body is streamed into ``result`` up to the cap."""
        host_header = check.host if check.port == 443 else f"{check.host}:{check.port}"
        request = httpx.Request(
            "GET",
            _url_for_address(address, check.port, check.target),
            headers={
                "Host": host_header,
                "User-Agent": self._user_agent,
                "Accept": _ACCEPT,
                "Accept-Encoding": ACCEPTED_CODINGS,
            },
            extensions={
                "sni_hostname": check.host,
                "timeout": {
                    "connect": self._timeout,
                    "read": self._timeout,
                    "write": self._timeout,
                    "pool": self._timeout,
                },
            },
        )
        response = await self._transport.handle_async_request(request)
        response.request = request
        try:
            result.status = response.status_code
            result.content_type = response.headers.get("content-type")
            if response.status_code in _REDIRECT_STATUSES and "location" in response.headers:
                return response
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > self._max_bytes:
                raise _Refusal(
                    "too_large", f"declared size {declared} bytes exceeds the {self._max_bytes} byte cap"
                )
            if declared_type_is_refused(result.content_type):
                return response  # refused by type later; not worth downloading
            result.body = await self._read_body(response, result)
            result.body_complete = True
            return response
        finally:
            await response.aclose()

    async def _read_body(self, response: httpx.Response, result: FetchResult) -> bytes:
        """The body with its content codings undone, refused as soon as it passes the cap:
        inflation itself is bounded (``BoundedBodyDecoder``), so a compression bomb costs
        at most the cap in memory, however large the chunk it arrives in."""
        chunks: list[bytes] = []
        result.bytes_read = 0
        try:
            decoder = BoundedBodyDecoder(response.headers.get("content-encoding"), self._max_bytes)
            try:
                async for raw in _raw_body(response):
                    chunks += decoder.feed(raw)
                chunks += decoder.finish()
            finally:
                result.bytes_read = decoder.body_bytes
        except CodingRefusal as refusal:
            raise _Refusal(refusal.outcome, refusal.reason) from refusal
        return b"".join(chunks)

    async def fetch(self, url: str, *, check_robots: bool | None = None) -> FetchResult:
        """Fetch ``url`` under every rule: URL and address checks on every hop, robots.txt,
        at most ``FETCH_MAX_REDIRECTS`` redirects, the overall timeout and the byte cap.
        Never raises for an expected failure: the outcome says what happened."""
        use_robots = self._respect_robots if check_robots is None else check_robots
        result = FetchResult(url=url, final_url=None, fetched_at=self._clock.now(), outcome="ok")
        current = github_raw_url(url) or url
        remaining = self._timeout
        loop = asyncio.get_running_loop()
        try:
            for hop in range(self._max_redirects + 1):
                result.final_url = current
                check = check_fetch_url(current)
                if not check.ok:
                    raise _Refusal(
                        "refused_url", check.reason if hop == 0 else f"redirect to {current}: {check.reason}"
                    )
                # The robots wait is politeness, not the server's slowness: it is outside the timeout.
                started = loop.time()
                try:
                    async with asyncio.timeout(remaining):
                        address = await self._resolve_checked(check)
                    remaining -= loop.time() - started
                    if use_robots:
                        await self._robots_gate(check)
                    async with self._gate():
                        started = loop.time()
                        async with asyncio.timeout(remaining):
                            result.connected_to.append(str(address))
                            response = await self._exchange(check, address, result)
                        remaining -= loop.time() - started
                except TimeoutError as error:
                    raise _Refusal("timeout", f"no complete answer within {self._timeout:g} s") from error
                location = response.headers.get("location")
                if response.status_code in _REDIRECT_STATUSES and location:
                    result.redirect_chain.append(current)
                    current = urljoin(current, location)
                    continue
                result.final_url = current
                if not 200 <= response.status_code < 300:
                    result.outcome = "http_error"
                    result.reason = f"HTTP {response.status_code}"
                return result
            raise _Refusal("too_many_redirects", f"more than {self._max_redirects} redirects")
        except _Refusal as refusal:
            result.outcome = refusal.outcome
            result.reason = refusal.reason
            result.body, result.body_complete = b"", False
            return result
        except httpx.TimeoutException as error:
            result.outcome, result.reason = "timeout", f"timed out: {type(error).__name__}"
        except httpx.InvalidURL as error:
            result.outcome, result.reason = "refused_url", f"URL rejected by the HTTP client: {error}"
        except (httpx.TransportError, httpx.DecodingError, OSError) as error:
            result.outcome, result.reason = "network_error", f"{type(error).__name__}: {error}"
        result.body, result.body_complete = b"", False
        return result

    # --- snapshots --------------------------------------------------------------------

    def _page_texts(self, body: bytes, content_type: str | None) -> PageTexts:
        key = (hashlib.sha256(body).hexdigest(), content_type)
        if key not in self._texts:
            self._texts[key] = extract_page_texts(body, content_type)
        return self._texts[key]

    async def snapshot(self, url: str, method_version: str) -> PageSnapshot:
        """Fetch ``url`` and record what was read: status, time, SHA-256, texts, or the
        reason nothing was read ([V] T1 "Record the evidence")."""
        result = await self.fetch(url)
        outcome: FetchOutcome = result.outcome
        reason = result.reason
        title = text = main = ""
        hidden: list[HiddenText] = []
        if github_raw_url(url):
            reason = "; ".join(filter(None, [f"GitHub blob read raw at {github_raw_url(url)}", reason]))
        if outcome == "ok":
            texts = self._page_texts(result.body, result.content_type)
            if texts.ok:
                title, text, main = texts.title, texts.text, texts.main_text
                hidden = list(texts.hidden_texts)
            elif texts.kind == "pdf":
                outcome, reason = "unverifiable_pdf", texts.reason
            elif texts.kind == "other":
                outcome, reason = "unsupported_type", texts.reason
            else:
                outcome, reason = "unparseable", texts.reason
        body = result.body
        html_url = arxiv_html_url(url)
        if outcome == "ok" and html_url is not None:
            extra = await self.fetch(html_url)
            extra_texts = (
                extract_page_texts(extra.body, extra.content_type) if extra.outcome == "ok" else None
            )
            if extra_texts is not None and extra_texts.ok:
                text = f"{text}\n\n{extra_texts.text}"
                hidden += extra_texts.hidden_texts
                main = extra_texts.main_text or main
                body = result.body + extra.body
                reason = f"also read the arXiv HTML version at {extra.final_url}; sha256 covers both bodies"
            else:
                reason = f"arXiv HTML version not read ({extra.outcome}: {extra.reason or 'no text'})"
        sha = hashlib.sha256(body).hexdigest() if result.body_complete else None
        if sha is not None and self._body_store is not None:
            store_body(self._body_store, sha, body)
        # Private-life sentences are masked before the snapshot leaves the fetcher, so
        # quotes are verified on, and everything stores, the masked text only.
        return mask_page_snapshot(
            PageSnapshot(
                id=stable_id("snap", url, sha),
                url=url,
                final_url=result.final_url,
                redirect_chain=list(result.redirect_chain),
                status=result.status,
                fetched_at=result.fetched_at,
                sha256=sha,
                byte_count=len(body) if result.body_complete else result.bytes_read,
                content_type=result.content_type,
                outcome=outcome,
                reason=reason,
                title=title,
                text=text,
                main_text=main,
                hidden_texts=hidden,
                method_version=method_version,
            )
        )


def live_fetcher(clock: Clock, *, body_store: Path | None = None) -> SafeFetcher:
    """The fetcher for live runs: the network transport and the system resolver."""
    return SafeFetcher(
        transport=live_transport(), resolver=SystemResolver(), clock=clock, body_store=body_store
    )


async def fetch_permission(
    url: str, fetcher: SafeFetcher | None = None, *, clock: Clock | None = None
) -> FetchPermission:
    """Would the pipeline fetch ``url``, and why not? (for the steward, the CLI and
    tests). With no ``fetcher`` the live one is used: its resolver and robots.txt
    reads go to the network, the page itself is never requested."""
    if fetcher is not None:
        return await fetcher.permission(url)
    live = live_fetcher(clock or SystemClock())
    try:
        return await live.permission(url)
    finally:
        await live.aclose()
