"""URL rules: which URLs may be fetched at all, the canonical form used to compare
URLs across stages, and the rewrites the method asks for (GitHub blobs read raw,
arXiv abstracts also read as HTML)."""

from __future__ import annotations

import re
import socket
import unicodedata
from typing import Final
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import idna

from reliability_core.models.base import Record
from reliability_core.web.addresses import parse_address

# Characters that look like a dot to a person or to a lenient IDNA mapper.
_UNICODE_DOTS: Final = frozenset("\u3002\uff0e\uff61\u2024\u2027\u00b7\u0701\u0702\u2e33\ufe52")
_HOST_ASCII_OK = re.compile(r"^[a-z0-9._-]+$")
_NUMERIC_LABEL = re.compile(r"^(0x[0-9a-f]*|[0-9]+)$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_CONTROL_OR_SPACE = re.compile(
    r"[\x00-\x20\x7f-\x9f\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff]"
)
_PERCENT_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

# Names that only ever mean something inside a network (RFC 6761, RFC 8375, cloud metadata).
METADATA_HOSTNAMES: Final = frozenset(
    {
        "metadata.google.internal",
        "metadata.goog",
        "metadata",
        "instance-data",
        "instance-data.ec2.internal",
        "metadata.azure.internal",
        "metadata.tencentyun.com",
        "metadata.platformequinix.com",
    }
)
_INTERNAL_SUFFIXES: Final = (
    ".localhost",
    ".local",
    ".internal",
    ".intranet",
    ".lan",
    ".home.arpa",
    ".corp",
    ".private",
    ".localdomain",
)
_TRACKING_PARAMS: Final = frozenset({"fbclid", "gclid", "dclid", "msclkid", "mc_cid", "mc_eid", "_ga"})


class UrlCheck(Record):
    """The verdict on a URL before any network activity: ``ok`` with the clean
    host, or a refusal with its reason."""

    url: str
    ok: bool
    reason: str = ""
    host: str = ""  # lower-case ASCII (IDNA) host, no trailing dot
    port: int = 443
    target: str = "/"  # path and query as sent


def is_numeric_host(host: str) -> bool:
    """True if a resolver would read ``host`` as an IP address in any form:
    dotted quad, decimal (``2130706433``), octal (``0177.0.0.1``), hex (``0x7f.1``),
    shortened (``127.1``), mixed, or an IPv6 literal. A real domain's last label is
    never numeric, so a numeric last label is enough (WHATWG URL "ends in a number")."""
    text = host.lower().rstrip(".")
    if not text:
        return False
    if parse_address(text.strip("[]")) is not None:
        return True
    if _NUMERIC_LABEL.match(text.split(".")[-1]):
        return True
    try:
        socket.inet_aton(text)
    except (OSError, ValueError):
        return False
    return True


def host_refusal_reason(host: str) -> str | None:
    """Why a host name may not be fetched, or None.

    Implements [#3] "Refuse hosts written in any IPv4 form the resolver accepts
    (decimal, octal, hex, shortened like 127.1, mixed) ... and hosts that do not parse
    cleanly (backslashes, control characters, unusual Unicode dots and digits)", plus
    cloud metadata endpoints by name.
    """
    if not host:
        return "URL has no host"
    if "\\" in host or _CONTROL_OR_SPACE.search(host):
        return "host contains a backslash, space or control character"
    if any(ch in _UNICODE_DOTS for ch in host):
        return "host contains a Unicode dot"
    if not host.isascii():
        for ch in host:
            if not ch.isascii() and (ch.isdigit() or unicodedata.category(ch)[0] in "NCZPS"):
                return f"host contains an unusual Unicode character U+{ord(ch):04X}"
        if unicodedata.normalize("NFKC", host) != host:
            return "host is not in Unicode normal form (NFKC)"
    if host.startswith("[") or is_numeric_host(host):
        return "host is a numeric IP address, not a name"
    try:
        ascii_host = to_ascii_host(host)
    except ValueError as error:
        return f"host is not a valid IDNA name: {error}"
    if not _HOST_ASCII_OK.match(ascii_host):
        return "host has characters outside letters, digits, '.', '-' and '_'"
    labels = ascii_host.split(".")
    if len(ascii_host) > 253 or any(not label or len(label) > 63 for label in labels):
        return "host has an empty or over-long label"
    if len(labels) < 2:
        return "single-label host names are internal"
    if ascii_host in METADATA_HOSTNAMES:
        return f"{ascii_host} is a cloud metadata endpoint"
    if ascii_host == "localhost" or ascii_host.endswith(_INTERNAL_SUFFIXES):
        return f"{ascii_host} is an internal-only name"
    return None


def to_ascii_host(host: str) -> str:
    """Lower-case ASCII form of a host (IDNA 2008 for non-ASCII), trailing dot dropped."""
    text = host.lower()
    if text.endswith("."):
        text = text[:-1]
    if text.isascii():
        return text
    try:
        return idna.encode(text, uts46=False).decode("ascii")
    except idna.IDNAError as error:
        raise ValueError(str(error)) from error


def check_fetch_url(url: str) -> UrlCheck:
    """May this URL be fetched at all, before resolving it?

    Implements [V] T1 "HTTPS only" and [#3] "Refuse ... URLs with credentials, and
    hosts that do not parse cleanly".
    """
    raw = url.strip(" \t\r\n")
    if "\\" in raw:
        return UrlCheck(url=url, ok=False, reason="URL contains a backslash")
    if _CONTROL.search(raw):
        return UrlCheck(url=url, ok=False, reason="URL contains a control character")
    try:
        parts = urlsplit(raw)
    except ValueError as error:
        return UrlCheck(url=url, ok=False, reason=f"URL does not parse: {error}")
    if parts.scheme.lower() != "https":
        return UrlCheck(
            url=url, ok=False, reason=f"only https is fetched, not {parts.scheme or 'no scheme'!r}"
        )
    netloc = parts.netloc
    if "@" in netloc:
        return UrlCheck(url=url, ok=False, reason="URL carries credentials")
    if netloc.startswith("["):
        return UrlCheck(url=url, ok=False, reason="host is a numeric IP address, not a name")
    host, sep, port_text = netloc.partition(":")
    port = 443
    if sep:
        if not port_text.isascii() or not port_text.isdigit() or not 0 < int(port_text) < 65536:
            return UrlCheck(url=url, ok=False, reason=f"invalid port {port_text!r}")
        port = int(port_text)
    reason = host_refusal_reason(host)
    if reason is not None:
        return UrlCheck(url=url, ok=False, reason=reason)
    path = quote(parts.path or "/", safe="/%:@!$&'()*+,;=-._~")
    query = quote(parts.query, safe="/%:@!$&'()*+,;=-._~?")
    target = path + (f"?{query}" if query else "")
    return UrlCheck(url=url, ok=True, host=to_ascii_host(host), port=port, target=target)


def _normalise_escapes(component: str, safe: str) -> str:
    """Upper-case percent escapes, decode escaped unreserved characters, and escape
    anything that should be escaped (RFC 3986 §6.2.2)."""

    def fix(match: re.Match[str]) -> str:
        char = chr(int(match.group(0)[1:], 16))
        return char if char in _UNRESERVED else match.group(0).upper()

    return quote(_PERCENT_ESCAPE.sub(fix, component), safe=safe + "%")


def canonical_url(url: str) -> str:
    """The form in which two URLs that name the same document compare equal:
    lower-case scheme and host, no default port, no fragment, ``/`` for an empty path,
    normalised percent escapes, tracking parameters (``utm_*``, ``fbclid`` ...) dropped.
    Used to compare a URL against the URLs search returned ([M] step 2: "A URL that
    search did not actually return is never used"). Unparseable input comes back stripped."""
    raw = url.strip()
    try:
        parts = urlsplit(raw)
        scheme = parts.scheme.lower()
        host = to_ascii_host(parts.hostname or "")
        port = parts.port
    except ValueError:
        return raw
    if not scheme or not host:
        return raw
    if parts.netloc.rsplit("@", 1)[-1].startswith("["):
        host = f"[{host}]"
    netloc = host
    if port is not None and (scheme, port) not in {("https", 443), ("http", 80)}:
        netloc = f"{host}:{port}"
    if parts.username is not None:
        userinfo = parts.username + (f":{parts.password}" if parts.password is not None else "")
        netloc = f"{userinfo}@{netloc}"
    path = _normalise_escapes(parts.path or "/", "/:@!$&'()*+,;=-._~")
    pairs = [
        (key, value)
        for key, value in parse_qsl(parts.query, keep_blank_values=True)
        if not key.lower().startswith("utm_") and key.lower() not in _TRACKING_PARAMS
    ]
    query = urlencode(pairs, doseq=True, quote_via=quote, safe="/:@!$'()*+,;-._~") if pairs else ""
    return urlunsplit((scheme, netloc, path, query, ""))


def host_of(url: str) -> str:
    """The ASCII host of a URL, or "" when there is none."""
    try:
        return to_ascii_host(urlsplit(url.strip()).hostname or "")
    except ValueError:
        return ""


_GITHUB_BLOB = re.compile(r"^/([^/]+)/([^/]+)/blob/(.+)$")
_ARXIV_ABS = re.compile(r"^/abs/([^?#]+?)/?$")


def github_raw_url(url: str) -> str | None:
    """``https://github.com/o/r/blob/ref/path`` -> ``https://raw.githubusercontent.com/o/r/ref/path``
    ([V] T1 "GitHub blobs are read raw"); None for any other URL."""
    parts = urlsplit(url.strip())
    if host_of(url) not in {"github.com", "www.github.com"}:
        return None
    match = _GITHUB_BLOB.match(parts.path)
    if not match:
        return None
    owner, repo, rest = match.groups()
    return f"https://raw.githubusercontent.com/{owner}/{repo}/{rest}"


def arxiv_html_url(url: str) -> str | None:
    """``https://arxiv.org/abs/<id>`` -> ``https://arxiv.org/html/<id>`` ([V] T1
    "arXiv abstracts also try the HTML version"); None for any other URL."""
    parts = urlsplit(url.strip())
    if host_of(url) not in {"arxiv.org", "www.arxiv.org", "export.arxiv.org"}:
        return None
    match = _ARXIV_ABS.match(parts.path)
    if not match:
        return None
    return f"https://arxiv.org/html/{match.group(1)}"


def robots_url(host: str, port: int = 443) -> str:
    """Where a host's robots.txt lives (RFC 9309 §2.3: ``/robots.txt`` at the authority)."""
    return f"https://{host}/robots.txt" if port == 443 else f"https://{host}:{port}/robots.txt"
