"""The web layer: safe fetching, robots.txt, page text ([V] T1, [M] steps 4 and 7).
See docs/architecture/web.md."""

from reliability_core.web.fetch import (
    Fetcher,
    FetchPermission,
    FetchResult,
    Resolver,
    SafeFetcher,
    SystemResolver,
    fetch_permission,
    live_fetcher,
)
from reliability_core.web.urls import canonical_url

__all__ = [
    "FetchPermission",
    "FetchResult",
    "Fetcher",
    "Resolver",
    "SafeFetcher",
    "SystemResolver",
    "canonical_url",
    "fetch_permission",
    "live_fetcher",
]
