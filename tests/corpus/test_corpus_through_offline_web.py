"""Every URL of the offline world is answered by the offline transport the way the
manifest declares: pages with their status and bytes, redirects with a Location that
is itself a corpus URL, robots.txt bodies per host."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from reliability_core.stand_in.corpus import load_manifest

offline = pytest.importorskip("reliability_core.stand_in.web")

CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus"


async def _get(transport: httpx.AsyncBaseTransport, url: str) -> httpx.Response:
    request = httpx.Request("GET", url)
    response = await transport.handle_async_request(request)
    await response.aread()
    return response


async def test_every_manifest_url_is_served_with_its_declared_behaviour() -> None:
    manifest = load_manifest(CORPUS)
    transport = offline.OfflineCorpusTransport(CORPUS, manifest)
    urls = {page.url for page in manifest.pages}
    for page in manifest.pages:
        response = await _get(transport, page.url)
        if page.redirect_to is not None:
            assert 300 <= response.status_code < 400, page.url
            assert response.headers["location"] in urls, page.url
            continue
        assert response.status_code == page.status, page.url
        if page.oversize_bytes is not None:
            assert len(response.content) == page.oversize_bytes
        elif page.file is not None:
            assert response.content == (CORPUS / "pages" / page.file).read_bytes(), page.url


async def test_robots_bodies_are_served_per_host() -> None:
    manifest = load_manifest(CORPUS)
    transport = offline.OfflineCorpusTransport(CORPUS, manifest)
    for host, path in manifest.robots.items():
        response = await _get(transport, f"https://{host}/robots.txt")
        assert response.status_code == 200
        assert response.content == (CORPUS / path).read_bytes()
