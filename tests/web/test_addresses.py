from __future__ import annotations

import ipaddress

import pytest

from reliability_core.web.addresses import address_refusal_reason, embedded_ipv4, is_public_address

NON_PUBLIC = [
    "127.0.0.1",
    "127.255.255.254",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",  # cloud metadata
    "169.254.1.1",
    "0.0.0.0",
    "0.1.2.3",
    "100.64.0.1",  # CGNAT: is_global already False, listed anyway
    "100.127.255.255",
    "198.18.0.1",  # benchmarking
    "198.19.255.255",
    "192.0.2.1",
    "198.51.100.7",
    "203.0.113.9",
    "192.0.0.8",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    "100.100.100.200",  # Alibaba metadata
    "::",
    "::1",
    "fe80::1",
    "fc00::1",
    "fd12:3456::1",
    "fd00:ec2::254",  # AWS IMDS IPv6
    "ff02::1",
    "fec0::1",
    "2001:db8::1",
    "3fff::1",  # documentation (RFC 9637); is_global says True
    "100::1",
    "5f00::1",  # is_global says True
]

EMBEDDED = [
    ("::ffff:127.0.0.1", "IPv4-mapped"),
    ("::ffff:8.8.8.8", "IPv4-mapped"),  # even a public embedded address is refused
    ("::127.0.0.1", "IPv4-compatible"),  # is_global says True
    ("64:ff9b::7f00:1", "NAT64"),  # is_global says True
    ("64:ff9b::a9fe:a9fe", "NAT64"),
    ("64:ff9b:1::a00:1", "local-use NAT64"),
    ("2002:7f00:1::", "6to4"),  # is_global says True
    ("2002:a9fe:a9fe::1", "6to4"),
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"),
    ("::ffff:0:a00:1", "SIIT"),
]


@pytest.mark.parametrize("text", NON_PUBLIC)
def test_non_public_addresses_are_refused(text: str) -> None:
    address = ipaddress.ip_address(text)
    assert not is_public_address(address)
    assert address_refusal_reason(address)


@pytest.mark.parametrize(("text", "mechanism"), EMBEDDED)
def test_ipv4_embedded_in_ipv6_is_refused_and_named(text: str, mechanism: str) -> None:
    reason = address_refusal_reason(ipaddress.ip_address(text))
    assert reason is not None
    assert mechanism in reason


def test_embedded_ipv4_recovers_the_inner_address() -> None:
    assert embedded_ipv4(ipaddress.IPv6Address("64:ff9b::7f00:1")) == (
        ipaddress.IPv4Address("127.0.0.1"),
        "NAT64",
    )
    assert embedded_ipv4(ipaddress.IPv6Address("2002:a9fe:a9fe::1")) == (
        ipaddress.IPv4Address("169.254.169.254"),
        "6to4",
    )
    assert embedded_ipv4(ipaddress.IPv6Address("2606:4700::1111")) is None


@pytest.mark.parametrize(
    "text", ["93.184.216.34", "8.8.8.8", "151.101.1.69", "2606:4700::1111", "2a00:1450:4001::200e"]
)
def test_public_addresses_are_allowed(text: str) -> None:
    assert is_public_address(ipaddress.ip_address(text))


def test_metadata_address_is_named_as_metadata() -> None:
    reason = address_refusal_reason(ipaddress.ip_address("169.254.169.254"))
    assert reason is not None and "metadata" in reason
