"""Source classes from the maintained policy file and page signals."""

from __future__ import annotations

import pytest

from reliability_core.verdicts.sources import classify_source, default_source_policy, is_rejected_class


def test_policy_documents_every_source_class() -> None:
    policy = default_source_policy()
    assert "unknown" in policy.classes
    assert not policy.classes["user_edited_wiki"].accepted


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://en.wikipedia.org/wiki/Northwind", "user_edited_wiki"),
        ("https://x.com/northwind/status/1", "social_media"),
        ("https://www.reddit.com/r/energy/comments/1", "forum"),
        ("https://polymarket.com/event/wind", "prediction_market"),
        ("https://www.prnewswire.com/news/northwind", "self_interested_press_release"),
        ("https://www.reuters.com/business/energy/northwind", "wire_service"),
        ("https://www.sec.gov/Archives/edgar/data/1", "official_record"),
    ],
)
def test_domain_policy_places_known_hosts(url: str, expected: str) -> None:
    assert classify_source(url).source_class == expected


def test_rejected_classes_are_never_evidence() -> None:
    for cls in (
        "social_media",
        "forum",
        "user_edited_wiki",
        "prediction_market",
        "content_farm",
        "self_interested_press_release",
        "unknown",
    ):
        assert is_rejected_class(cls)  # type: ignore[arg-type]
    for cls in ("official_record", "wire_service", "established_newsroom", "subject_ordinary_statement"):
        assert not is_rejected_class(cls)  # type: ignore[arg-type]


def test_subject_annual_report_is_an_official_record_and_not_independent() -> None:
    got = classify_source(
        "https://northwind.example/investors/annual-report-2023",
        title="Annual report 2023",
        own_domains=["northwind.example"],
        subject_names=["Northwind Energy"],
    )
    assert got.source_class == "official_record"
    assert got.subject_own and got.primary_or_major


def test_subject_blog_is_an_ordinary_statement() -> None:
    got = classify_source(
        "https://northwind.example/blog/our-progress", title="Our progress", own_domains=["northwind.example"]
    )
    assert got.source_class == "subject_ordinary_statement"
    assert got.subject_own and not got.primary_or_major


def test_unlisted_host_is_placed_by_page_signal() -> None:
    got = classify_source("https://news-hub.example/x", title="PRESS RELEASE: Northwind wins award")
    assert got.source_class == "self_interested_press_release"
    assert not got.accepted


def test_unlisted_host_without_signal_is_unknown_and_not_accepted() -> None:
    got = classify_source("https://somewhere.example/page", title="Northwind capacity")
    assert got.source_class == "unknown" and not got.accepted


def test_exchange_filing_naming_the_subject_is_its_own_official_record() -> None:
    got = classify_source(
        "https://exchange.example/filings/northwind/annual-report-2025",
        title="Northwind Energy A/S: annual report 2025 (company announcement)",
        subject_names=["Northwind Energy A/S", "Northwind"],
    )
    assert got.source_class == "official_record" and got.subject_own and got.primary_or_major


def test_regulator_notice_is_an_independent_official_record() -> None:
    got = classify_source(
        "https://energyregulator.example/notices/2021-03-15-sea-lynx-consent",
        title="Sea Lynx consent",
        subject_names=["Northwind"],
    )
    assert got.source_class == "official_record" and not got.subject_own
