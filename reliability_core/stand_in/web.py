"""The offline web: an httpx transport that serves the local corpus (pages, robots.txt
files, declared redirects and error statuses) so the fetcher, robots rules and quote
verification run unchanged with no network ([#3] "Offline transport"). The SSRF checks
still run on every URL: the offline resolver maps only corpus hosts, to a public
address, so a hostile URL is refused offline exactly as it would be live."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Final

import httpx

from reliability_core.clock import Clock
from reliability_core.stand_in.corpus import CorpusManifest, CorpusPage, load_manifest
from reliability_core.web.fetch import SafeFetcher
from reliability_core.web.robots import VirtualTimer
from reliability_core.web.urls import canonical_url, host_of

# A public address (IANA-held) standing in for every corpus host. The transport never
# connects anywhere; the address only has to pass the same checks a live one would.
OFFLINE_PUBLIC_ADDRESS: Final = "192.0.43.10"
_FILLER_CHUNK: Final = b"<p>" + b"filler " * 9000 + b"</p>\n"


class OfflineResolver:
    """Resolves corpus hosts to a public address; everything else is unknown (NXDOMAIN).
    ``overrides`` lets tests make a name resolve anywhere, including inside."""

    def __init__(self, hosts: set[str], overrides: Mapping[str, list[str]] | None = None) -> None:
        self._hosts = {host.lower() for host in hosts}
        self._overrides = {host.lower(): list(addresses) for host, addresses in (overrides or {}).items()}

    async def resolve(self, host: str, port: int) -> list[str]:
        name = host.lower()
        if name in self._overrides:
            return list(self._overrides[name])
        if name in self._hosts:
            return [OFFLINE_PUBLIC_ADDRESS]
        raise OSError(f"offline resolver: unknown host {host}")


async def _filler(size: int) -> AsyncIterator[bytes]:
    sent = 0
    while sent < size:
        piece = _FILLER_CHUNK[: size - sent]
        sent += len(piece)
        yield piece


class _AsyncStream(httpx.AsyncByteStream):
    def __init__(self, chunks: AsyncIterator[bytes]) -> None:
        self._chunks = chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._chunks:
            yield chunk


class OfflineCorpusTransport(httpx.AsyncBaseTransport):
    """Serves a corpus directory as if it were the web. It receives exactly the requests
    the live transport would (URL host = checked address, ``Host`` header = name) and
    answers by the ``Host`` header and path. Every request is kept in ``requests``."""

    def __init__(self, corpus_dir: Path, manifest: CorpusManifest | None = None) -> None:
        self._dir = corpus_dir
        self._manifest = manifest if manifest is not None else load_manifest(corpus_dir)
        self._pages: dict[str, CorpusPage] = {canonical_url(page.url): page for page in self._manifest.pages}
        self.requests: list[httpx.Request] = []

    def hosts(self) -> set[str]:
        """Every host the corpus serves (pages and robots files)."""
        found = {host_of(page.url) for page in self._manifest.pages}
        found |= {host.lower() for host in self._manifest.robots}
        robots_dir = self._dir / "robots"
        if robots_dir.is_dir():
            found |= {path.stem.lower() for path in robots_dir.glob("*.txt")}
        return {host for host in found if host}

    def _robots_file(self, host: str) -> Path | None:
        declared = self._manifest.robots.get(host)
        candidates = [self._dir / declared, self._dir / "robots" / declared] if declared else []
        candidates.append(self._dir / "robots" / f"{host}.txt")
        return next((path for path in candidates if path.is_file()), None)

    def _page_file(self, relative: str) -> Path | None:
        candidates = [self._dir / "pages" / relative, self._dir / relative]
        return next((path for path in candidates if path.is_file()), None)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        host = request.headers.get("host", request.url.host).split(":")[0].lower()
        target = request.url.raw_path.decode("ascii")
        if request.url.path == "/robots.txt":
            robots = self._robots_file(host)
            if robots is None:
                return httpx.Response(404, text="no robots.txt", headers={"content-type": "text/plain"})
            return httpx.Response(200, content=robots.read_bytes(), headers={"content-type": "text/plain"})
        page = self._pages.get(canonical_url(f"https://{host}{target}"))
        if page is None:
            return httpx.Response(
                404, text="not in the offline corpus", headers={"content-type": "text/plain"}
            )
        if page.redirect_to is not None:
            status = page.status if 300 <= page.status < 400 else 301
            return httpx.Response(status, headers={"location": page.redirect_to})
        headers = {"content-type": page.content_type}
        if page.oversize_bytes is not None:
            return httpx.Response(
                page.status, headers=headers, stream=_AsyncStream(_filler(page.oversize_bytes))
            )
        body_file = self._page_file(page.file) if page.file else None
        if body_file is None:
            return httpx.Response(page.status, headers=headers, content=b"")
        return httpx.Response(page.status, headers=headers, content=body_file.read_bytes())


def offline_fetcher(
    corpus_dir: Path, clock: Clock, *, body_store: Path | None = None, latency_seconds: float = 0.0
) -> SafeFetcher:
    """A SafeFetcher over the offline corpus: same rules, no network, no real waiting
    (crawl delays are honoured on a virtual timeline). ``latency_seconds`` adds a
    simulated network delay to every response (benchmarks only)."""
    transport = OfflineCorpusTransport(corpus_dir)
    served: httpx.AsyncBaseTransport = transport
    if latency_seconds > 0:
        from reliability_core.providers.latency import DelayedTransport

        served = DelayedTransport(transport, latency_seconds)
    return SafeFetcher(
        transport=served,
        resolver=OfflineResolver(transport.hosts()),
        clock=clock,
        timer=VirtualTimer(),
        body_store=body_store,
    )
