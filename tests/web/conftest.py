"""Fakes at the web seams: a resolver that answers from a table and a transport that
answers from a function, recording every request it receives."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence

import httpx
import pytest

from reliability_core.clock import FixedClock
from reliability_core.web.fetch import SafeFetcher
from reliability_core.web.robots import VirtualTimer

PUBLIC = "93.184.216.34"
PUBLIC_2 = "151.101.1.69"

Handler = Callable[[httpx.Request], Awaitable[httpx.Response]]


class TableResolver:
    """Answers from a table; a list of answers per name is served in turn (rebinding)."""

    def __init__(self, table: Mapping[str, Sequence[Sequence[str]] | Sequence[str]]) -> None:
        self.answers: dict[str, list[list[str]]] = {}
        for host, value in table.items():
            if value and isinstance(value[0], str):
                self.answers[host] = [list(value)]  # type: ignore[arg-type]
            else:
                self.answers[host] = [list(answer) for answer in value]
        self.calls: list[str] = []

    async def resolve(self, host: str, port: int) -> list[str]:
        self.calls.append(host)
        queue = self.answers.get(host)
        if queue is None:
            raise OSError(f"NXDOMAIN {host}")
        return queue.pop(0) if len(queue) > 1 else list(queue[0])


class RecordingTransport(httpx.AsyncBaseTransport):
    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.requests: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return await self.handler(request)

    def page_requests(self) -> list[httpx.Request]:
        return [r for r in self.requests if r.url.path != "/robots.txt"]


def html(body: str, status: int = 200, **headers: str) -> httpx.Response:
    return httpx.Response(
        status, content=body.encode(), headers={"content-type": "text/html; charset=utf-8", **headers}
    )


def no_robots(request: httpx.Request) -> httpx.Response | None:
    if request.url.path == "/robots.txt":
        return httpx.Response(404, text="none")
    return None


def make_fetcher(
    handler: Handler,
    table: Mapping[str, Sequence[Sequence[str]] | Sequence[str]],
    clock: FixedClock,
    **kwargs: object,
) -> tuple[SafeFetcher, RecordingTransport, TableResolver, VirtualTimer]:
    transport = RecordingTransport(handler)
    resolver = TableResolver(table)
    timer = VirtualTimer()
    fetcher = SafeFetcher(transport=transport, resolver=resolver, clock=clock, timer=timer, **kwargs)  # type: ignore[arg-type]
    return fetcher, transport, resolver, timer


@pytest.fixture
def site_handler() -> Handler:
    """A plain site: no robots.txt, one article page."""

    async def handler(request: httpx.Request) -> httpx.Response:
        robots = no_robots(request)
        if robots is not None:
            return robots
        return html(
            "<html><head><title>Article</title></head><body><p>Hello world, this is text.</p></body></html>"
        )

    return handler
