from __future__ import annotations

import pytest

from reliability_core.web.urls import (
    arxiv_html_url,
    canonical_url,
    check_fetch_url,
    github_raw_url,
    is_numeric_host,
)

HOSTILE_URLS = [
    # not https
    ("http://example.com/", "https"),
    ("ftp://example.com/file", "https"),
    ("file:///etc/passwd", "https"),
    ("gopher://example.com/", "https"),
    ("//example.com/", "https"),
    # numeric hosts in every IPv4 form
    ("https://127.0.0.1/", "numeric"),
    ("https://2130706433/", "numeric"),
    ("https://0177.0.0.1/", "numeric"),
    ("https://0x7f.1/", "numeric"),
    ("https://0x7f000001/", "numeric"),
    ("https://127.1/", "numeric"),
    ("https://127.0.1/", "numeric"),
    ("https://0177.0x0.1/", "numeric"),
    ("https://169.254.169.254/latest/meta-data/", "numeric"),
    ("https://127.0.0.1./", "numeric"),
    ("https://[::1]/", "numeric"),
    ("https://[::ffff:127.0.0.1]/", "numeric"),
    ("https://[fd00:ec2::254]/", "numeric"),
    ("https://[fe80::1%25eth0]/", "numeric"),
    ("https://%31%32%37.0.0.1/", "numeric"),
    ("https://%65xample.com/", "characters outside"),
    ("https://0/", "numeric"),
    # credentials
    ("https://user:pass@example.com/", "credentials"),
    ("https://user@example.com/", "credentials"),
    ("https://example.com@127.0.0.1/", "credentials"),
    # hosts that do not parse cleanly
    ("https://example.com\\@evil.com/", "backslash"),
    ("https://evil.com\\.example.com/", "backslash"),
    ("https://exa\tmple.com/", "control"),
    ("https://exa\x00mple.com/", "control"),
    ("https://example.com /", "space"),
    ("https://example\u3002com/", "Unicode dot"),
    ("https://example\uff0ecom/", "Unicode dot"),
    ("https://example\uff61com/", "Unicode dot"),
    ("https://\uff11\uff12\uff17.0.0.1/", "Unicode"),  # fullwidth digits
    ("https://\u0661\u0662\u0667.0.0.1/", "Unicode"),  # Arabic-Indic digits
    ("https://ex\u200bample.com/", "control"),  # zero-width space
    # internal names and metadata by name
    ("https://metadata.google.internal/computeMetadata/v1/", "metadata"),
    ("https://metadata.google.internal./", "metadata"),
    ("https://METADATA.GOOGLE.INTERNAL/", "metadata"),
    ("https://instance-data.ec2.internal/", "metadata"),
    ("https://metadata/", "single-label"),
    ("https://localhost/", "single-label"),
    ("https://foo.localhost/", "internal"),
    ("https://printer.local/", "internal"),
    ("https://router.home.arpa/", "internal"),
    ("https://intranet/", "single-label"),
    # bad ports and empty hosts
    ("https://example.com:0/", "port"),
    ("https://example.com:99999/", "port"),
    ("https://example.com:abc/", "port"),
    ("https:///path", "no host"),
]


@pytest.mark.parametrize(("url", "why"), HOSTILE_URLS)
def test_hostile_urls_are_refused_before_any_lookup(url: str, why: str) -> None:
    check = check_fetch_url(url)
    assert not check.ok
    assert why.lower() in check.reason.lower()


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/",
        "https://www.example.com/a/b?c=d",
        "https://news.example/2024/01/story.html",
        "https://example.com:8443/x",
        "https://bücher.example/katalog",
        "https://sub-domain.example.co.uk/path with space",
    ],
)
def test_ordinary_https_urls_pass_the_url_check(url: str) -> None:
    check = check_fetch_url(url)
    assert check.ok, check.reason


def test_url_check_returns_idna_host_and_escaped_target() -> None:
    check = check_fetch_url("https://Bücher.Example/a b?q=ä")
    assert check.host == "xn--bcher-kva.example"
    assert check.target == "/a%20b?q=%C3%A4"


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1", "2130706433", "0177.0.0.1", "0x7f.1", "127.1", "0x7f.0.0.1", "1.2.3.4.", "::1", "[::1]"],
)
def test_numeric_host_in_any_ipv4_form_is_detected(host: str) -> None:
    assert is_numeric_host(host)


@pytest.mark.parametrize("host", ["example.com", "1e100.net", "123.example", "a1.b2.c3"])
def test_names_with_digits_are_not_numeric_hosts(host: str) -> None:
    assert not is_numeric_host(host)


def test_unusual_unicode_dots_and_digits_are_named_in_the_reason() -> None:
    assert "dot" in check_fetch_url("https://example\u3002com/").reason
    assert "Unicode" in check_fetch_url("https://\uff11\uff12\uff17.0.0.1/").reason


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("HTTPS://Example.COM/a", "https://example.com/a"),
        ("https://example.com:443/a", "https://example.com/a"),
        ("https://example.com", "https://example.com/"),
        ("https://example.com/a#section", "https://example.com/a"),
        ("https://example.com/a?utm_source=x&id=3&fbclid=y", "https://example.com/a?id=3"),
        ("https://example.com/%7euser/%2f", "https://example.com/~user/%2F"),
        ("https://example.com./a", "https://example.com/a"),
        ("https://bücher.example/", "https://xn--bcher-kva.example/"),
    ],
)
def test_canonical_url_makes_equal_documents_compare_equal(a: str, b: str) -> None:
    assert canonical_url(a) == canonical_url(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("https://example.com/a", "https://example.com/b"),
        ("https://example.com/a?id=1", "https://example.com/a?id=2"),
        ("https://example.com/a", "http://example.com/a"),
        ("https://example.com:8443/a", "https://example.com/a"),
        ("https://a.example.com/", "https://b.example.com/"),
    ],
)
def test_canonical_url_keeps_different_documents_apart(a: str, b: str) -> None:
    assert canonical_url(a) != canonical_url(b)


def test_canonical_url_is_idempotent() -> None:
    url = "HTTPS://Example.com:443/%7ex/a%2fb?utm_medium=m&b=2&a=1#frag"
    assert canonical_url(canonical_url(url)) == canonical_url(url)


def test_canonical_url_returns_unparseable_input_stripped() -> None:
    assert canonical_url("  not a url  ") == "not a url"


def test_github_blob_urls_are_read_raw() -> None:
    assert (
        github_raw_url("https://github.com/org/repo/blob/main/docs/README.md")
        == "https://raw.githubusercontent.com/org/repo/main/docs/README.md"
    )
    assert github_raw_url("https://github.com/org/repo/tree/main/docs") is None
    assert github_raw_url("https://example.com/org/repo/blob/main/x") is None


def test_arxiv_abstract_pages_have_an_html_version() -> None:
    assert arxiv_html_url("https://arxiv.org/abs/2401.01234v2") == "https://arxiv.org/html/2401.01234v2"
    assert arxiv_html_url("https://arxiv.org/pdf/2401.01234") is None
    assert arxiv_html_url("https://example.com/abs/2401.01234") is None
