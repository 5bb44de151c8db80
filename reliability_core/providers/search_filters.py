"""Domain and date filters shared by the live and offline search providers."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from urllib.parse import urlsplit


def host_of(url: str) -> str:
    """Lower-case host of ``url`` without a leading ``www.``."""
    host = (urlsplit(url).hostname or "").lower()
    return host[4:] if host.startswith("www.") else host


def host_matches(host: str, domain: str) -> bool:
    """``host`` is ``domain`` or one of its subdomains."""
    domain = domain.lower().lstrip(".")
    domain = domain[4:] if domain.startswith("www.") else domain
    return host == domain or host.endswith(f".{domain}")


def domain_allowed(url: str, include: Sequence[str], exclude: Sequence[str]) -> bool:
    """Inside the include list (when there is one) and outside the exclude list."""
    host = host_of(url)
    if include and not any(host_matches(host, d) for d in include):
        return False
    return not any(host_matches(host, d) for d in exclude)


def parse_result_date(value: object) -> date | None:
    """``2024-01-15``, ``2024-01-15T10:00:00Z`` or ``1/15/2024``; anything else is unknown."""
    if isinstance(value, date):
        return value
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        pass
    try:
        return datetime.strptime(text, "%m/%d/%Y").date()
    except ValueError:
        return None
