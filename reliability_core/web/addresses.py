"""Which network addresses the fetcher may connect to ([V] T1 "Private, loopback
and metadata addresses refused"; [#3] "Refuse every destination that is not public").

Python's ``ipaddress.is_global`` is a backstop only: it calls NAT64
(``64:ff9b::/96``), 6to4 (``2002::/16``), IPv4-compatible IPv6 and some
documentation space global, so every non-public range is also listed here.
"""

from __future__ import annotations

import ipaddress
from typing import Final

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# (network, why it is not public). Sources: IANA IPv4/IPv6 special-purpose registries,
# RFC 6598 (CGNAT), RFC 2544 (benchmarking), RFC 5737/3849/9637 (documentation).
_NON_PUBLIC_V4: Final[tuple[tuple[ipaddress.IPv4Network, str], ...]] = tuple(
    (ipaddress.IPv4Network(net), why)
    for net, why in (
        ("0.0.0.0/8", "unspecified / 'this network'"),
        ("10.0.0.0/8", "private"),
        ("100.64.0.0/10", "carrier-grade NAT"),
        ("127.0.0.0/8", "loopback"),
        ("169.254.0.0/16", "link-local (cloud metadata lives here)"),
        ("172.16.0.0/12", "private"),
        ("192.0.0.0/24", "IETF protocol assignments"),
        ("192.0.2.0/24", "documentation"),
        ("192.88.99.0/24", "6to4 relay anycast"),
        ("192.168.0.0/16", "private"),
        ("198.18.0.0/15", "benchmarking"),
        ("198.51.100.0/24", "documentation"),
        ("203.0.113.0/24", "documentation"),
        ("224.0.0.0/4", "multicast"),
        ("240.0.0.0/4", "reserved"),
        ("255.255.255.255/32", "broadcast"),
    )
)

_NON_PUBLIC_V6: Final[tuple[tuple[ipaddress.IPv6Network, str], ...]] = tuple(
    (ipaddress.IPv6Network(net), why)
    for net, why in (
        ("::/128", "unspecified"),
        ("::1/128", "loopback"),
        ("100::/64", "discard-only"),
        ("2001:db8::/32", "documentation"),
        ("3fff::/20", "documentation"),
        ("2001::/23", "IETF protocol assignments"),
        ("5f00::/16", "segment routing SIDs"),
        ("fc00::/7", "unique local (private)"),
        ("fe80::/10", "link-local"),
        ("fec0::/10", "site-local (deprecated)"),
        ("ff00::/8", "multicast"),
    )
)

# IPv6 prefixes that carry an IPv4 address inside them: the embedded address is
# what a translator or tunnel would actually reach, so the whole class is refused.
_EMBEDDED_V4: Final[tuple[tuple[ipaddress.IPv6Network, str], ...]] = tuple(
    (ipaddress.IPv6Network(net), why)
    for net, why in (
        ("::ffff:0:0/96", "IPv4-mapped IPv6"),
        ("::/96", "IPv4-compatible IPv6"),
        ("::ffff:0:0:0/96", "IPv4-translated IPv6 (SIIT)"),
        ("64:ff9b::/96", "NAT64"),
        ("64:ff9b:1::/48", "local-use NAT64"),
        ("2002::/16", "6to4"),
        ("2001::/32", "Teredo"),
    )
)

# Cloud metadata services, named explicitly so the reason is clear in the record.
METADATA_ADDRESSES: Final[frozenset[IPAddress]] = frozenset(
    {
        ipaddress.IPv4Address("169.254.169.254"),  # AWS, GCP, Azure, OpenStack
        ipaddress.IPv4Address("169.254.170.2"),  # AWS ECS task metadata
        ipaddress.IPv4Address("100.100.100.200"),  # Alibaba Cloud
        ipaddress.IPv6Address("fd00:ec2::254"),  # AWS IMDS over IPv6
    }
)


def parse_address(text: str) -> IPAddress | None:
    """A strictly written IP address (dotted quad or IPv6), or None. Zone ids are refused."""
    if "%" in text:
        return None
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def embedded_ipv4(address: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, str] | None:
    """The IPv4 address carried inside an IPv6 address, and the mechanism, if any."""
    for network, why in _EMBEDDED_V4:
        if address in network:
            if why == "Teredo":
                teredo = address.teredo
                inner = teredo[1] if teredo else ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
            elif why == "6to4":
                inner = address.sixtofour or ipaddress.IPv4Address(0)
            else:
                inner = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
            return inner, why
    return None


def address_refusal_reason(address: IPAddress) -> str | None:
    """Why the fetcher must not connect to ``address``, or None if it is public.

    Implements [#3] "Refuse every destination that is not public: loopback, private,
    link-local, unspecified, multicast, reserved, carrier-grade NAT, benchmark and
    documentation ranges, cloud metadata endpoints ..., and IPv4 addresses embedded
    in IPv6 (mapped, compatible, NAT64, 6to4, Teredo)."
    """
    if address in METADATA_ADDRESSES:
        return f"{address} is a cloud metadata endpoint"
    if isinstance(address, ipaddress.IPv6Address):
        if address in (ipaddress.IPv6Address("::"), ipaddress.IPv6Address("::1")):
            return f"{address} is {'unspecified' if int(address) == 0 else 'loopback'}"
        embedded = embedded_ipv4(address)
        if embedded is not None:
            inner, why = embedded
            return f"{address} is {why} (embeds IPv4 {inner})"
        for network6, why in _NON_PUBLIC_V6:
            if address in network6:
                return f"{address} is {why} ({network6})"
    else:
        for network4, why in _NON_PUBLIC_V4:
            if address in network4:
                return f"{address} is {why} ({network4})"
    if not address.is_global:
        return f"{address} is not globally routable"
    return None


def is_public_address(address: IPAddress) -> bool:
    """True if the fetcher may connect to ``address`` ([V] T1 "Fetch the cited URL — safely")."""
    return address_refusal_reason(address) is None
