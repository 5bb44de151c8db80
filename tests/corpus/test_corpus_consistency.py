"""The offline world is internally consistent: every URL it names resolves to a
page or a deliberate HTTP behaviour, every answer-key quote is in its page (or,
for the deliberately altered one, is not), and every trap the method must meet
is present at least once."""

from __future__ import annotations

import re
import sys
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import lxml.html
import pytest
import yaml

from reliability_core.models import RegistryEntry
from reliability_core.stand_in.corpus import CorpusManifest, CorpusPage, load_manifest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "data" / "corpus"
NOW = date(2026, 11, 30)
COVERABLE_KINDS = {"company", "nonprofit", "public_figure"}
SPEAKING_KINDS = {"subject_own", "interview", "news_quoting"}


@pytest.fixture(scope="module")
def manifest() -> CorpusManifest:
    return load_manifest(CORPUS)


@pytest.fixture(scope="module")
def pages(manifest: CorpusManifest) -> dict[str, CorpusPage]:
    return {page.url: page for page in manifest.pages}


@pytest.fixture(scope="module")
def registry() -> list[RegistryEntry]:
    raw = yaml.safe_load((ROOT / "data" / "subjects.yaml").read_text(encoding="utf-8"))
    return [RegistryEntry.model_validate(item) for item in raw]


@pytest.fixture(scope="module")
def key() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((CORPUS / "answer_key.yaml").read_text(encoding="utf-8"))
    return loaded


def visible_text(body: bytes) -> str:
    """Page text as a reader sees it: markup, scripts and styles removed, spacing collapsed."""
    tree = lxml.html.fromstring(body)
    for element in tree.xpath("//script|//style"):
        element.drop_tree()
    return re.sub(r"\s+", " ", tree.text_content()).strip()


def page_text(page: CorpusPage) -> str:
    assert page.file is not None
    return visible_text((CORPUS / "pages" / page.file).read_bytes())


def test_every_manifest_url_is_https_on_an_example_host(manifest: CorpusManifest) -> None:
    for page in manifest.pages:
        parts = urlsplit(page.url)
        assert parts.scheme == "https", page.url
        assert parts.hostname is not None and parts.hostname.endswith(".example"), page.url


def test_manifest_urls_are_unique(manifest: CorpusManifest) -> None:
    counts = Counter(page.url for page in manifest.pages)
    assert [url for url, n in counts.items() if n > 1] == []


def test_every_page_file_exists(manifest: CorpusManifest) -> None:
    for page in manifest.pages:
        if page.redirect_to is None:
            assert page.file is not None, page.url
            assert (CORPUS / "pages" / page.file).is_file(), page.file


def test_redirects_point_to_manifest_urls(manifest: CorpusManifest, pages: dict[str, CorpusPage]) -> None:
    redirects = [page for page in manifest.pages if page.redirect_to is not None]
    assert redirects
    for page in redirects:
        assert page.status in (301, 302, 307, 308), page.url
        assert page.redirect_to in pages, page.redirect_to


def test_robots_files_exist_and_cover_a_disallow_and_a_long_crawl_delay(manifest: CorpusManifest) -> None:
    bodies = {host: (CORPUS / path).read_text(encoding="utf-8") for host, path in manifest.robots.items()}
    assert all(host.endswith(".example") for host in bodies)
    assert any("Disallow: /" in body and "Disallow: /\n" not in body for body in bodies.values())
    assert any("Crawl-delay: 60" in body for body in bodies.values())


def test_every_answer_key_url_is_in_the_manifest(key: dict[str, Any], pages: dict[str, CorpusPage]) -> None:
    urls: list[str] = []
    for subject in key["subjects"]:
        urls += subject["documents"] + subject["mention_only_documents"]
    for row in key["statements"]:
        urls += [row["document_url"], *row["evidence_urls"], *(item["url"] for item in row["not_evidence"])]
    urls += [trap["url"] for trap in key["traps"]] + [item["url"] for item in key["web_behaviour"]]
    assert sorted({url for url in urls if url not in pages}) == []


def test_kept_quotes_appear_verbatim_in_their_page_text(
    key: dict[str, Any], pages: dict[str, CorpusPage]
) -> None:
    missing = []
    for row in key["statements"]:
        text = page_text(pages[row["document_url"]])
        if row["expect_verified"] and row["quote"] not in text:
            missing.append((row["id"], row["quote"]))
    assert missing == []


def test_altered_quote_is_absent_from_its_page_and_its_page_form_is_present(
    key: dict[str, Any], pages: dict[str, CorpusPage]
) -> None:
    altered = [row for row in key["statements"] if not row["expect_verified"]]
    assert altered, "the corpus needs one quote transcribed with a small error"
    for row in altered:
        text = page_text(pages[row["document_url"]])
        assert row["quote"] not in text
        assert row["page_form"] in text


def test_registry_has_the_five_required_kinds(registry: list[RegistryEntry]) -> None:
    kinds = {entry.kind for entry in registry}
    assert {"company", "nonprofit", "public_figure", "politician", "private_person"} <= kinds
    assert len(registry) >= 5
    assert len({entry.id for entry in registry}) == len(registry)


def test_politicians_and_private_people_without_consent_are_labelled_refused(
    registry: list[RegistryEntry], key: dict[str, Any]
) -> None:
    expected = {row["subject_id"]: row["expected_coverage"] for row in key["subjects"]}
    assert set(expected) == {entry.id for entry in registry}
    for entry in registry:
        refused = entry.kind == "politician" or (entry.kind == "private_person" and not entry.consent)
        assert expected[entry.id] == ("refused" if refused else "covered"), entry.id


def _covered(key: dict[str, Any]) -> list[dict[str, Any]]:
    return [row for row in key["subjects"] if row["expected_coverage"] == "covered"]


def test_each_coverable_subject_has_25_to_40_speaking_documents_over_8_years(
    key: dict[str, Any], pages: dict[str, CorpusPage]
) -> None:
    for subject in _covered(key):
        documents = [pages[url] for url in subject["documents"]]
        assert 25 <= len(documents) <= 40, subject["subject_id"]
        assert all(page.kind in SPEAKING_KINDS for page in documents)
        assert all(subject["subject_id"] in page.subject_ids for page in documents)
        years = {page.published.year for page in documents if page.published}
        assert max(years) - min(years) + 1 >= 8, subject["subject_id"]
        assert sum(page.forward_looking for page in documents) >= 8, subject["subject_id"]


def test_each_coverable_subject_has_mention_only_documents_without_its_statements(
    key: dict[str, Any],
) -> None:
    statement_docs = {row["document_url"] for row in key["statements"]}
    for subject in _covered(key):
        assert subject["mention_only_documents"], subject["subject_id"]
        assert not set(subject["mention_only_documents"]) & statement_docs


def test_every_speaking_document_holds_a_statement_by_its_subject(key: dict[str, Any]) -> None:
    by_subject: dict[str, set[str]] = {}
    for row in key["statements"]:
        if row["speaker"] == row["subject_id"] or row["drop_reason"] in ("paraphrase", "private_life"):
            by_subject.setdefault(row["subject_id"], set()).add(row["document_url"])
    for subject in _covered(key):
        assert set(subject["documents"]) <= by_subject[subject["subject_id"]]


def test_each_coverable_subject_has_five_resolvable_claims_per_type_with_evidence(
    key: dict[str, Any],
) -> None:
    for subject in _covered(key):
        counts: Counter[str] = Counter()
        for row in key["statements"]:
            if (
                row["subject_id"] == subject["subject_id"]
                and row["kept"]
                and row["triage"] == "resolvable_now"
                and row["verdict"] not in (None, "unresolvable")
                and not row["party_political"]
                and row["evidence_urls"]
            ):
                counts[row["type"]] += 1
        assert counts["factual"] >= 8, (subject["subject_id"], counts)
        assert counts["promise"] >= 5, (subject["subject_id"], counts)
        assert counts["prediction"] >= 5, (subject["subject_id"], counts)


def test_deadlines_after_now_are_not_yet_due_and_resolvable_ones_have_passed(key: dict[str, Any]) -> None:
    for row in key["statements"]:
        if row["deadline"] is None or not row["kept"]:
            continue
        due = date.fromisoformat(str(row["deadline"]))
        if row["triage"] == "not_yet_due":
            assert due > NOW, row["id"]
        if row["triage"] == "resolvable_now":
            assert due <= NOW, row["id"]


def test_evidence_is_never_the_claims_own_document(key: dict[str, Any]) -> None:
    for row in key["statements"]:
        assert row["document_url"] not in row["evidence_urls"], row["id"]


def test_evidence_pages_do_not_merely_repeat_the_claims_words(
    key: dict[str, Any], pages: dict[str, CorpusPage]
) -> None:
    """A page a careful person cites states the outcome in its own words; a page that
    repeats the claim verbatim is the "only repeats the claim" trap, not evidence."""
    repeats = []
    for row in key["statements"]:
        for url in row["evidence_urls"]:
            if row["quote"].lower() in page_text(pages[url]).lower():
                repeats.append((row["id"], url))
    assert repeats == []


def test_labels_use_the_methods_vocabulary(key: dict[str, Any]) -> None:
    for row in key["statements"]:
        assert row["type"] in (None, "factual", "promise", "prediction")
        assert row["drop_reason"] in (None, "other_speaker", "paraphrase", "private_life")
        assert row["kept"] == (row["drop_reason"] is None)
        if row["kept"] and row["type"]:
            assert row["triage"] in ("resolvable_now", "not_yet_due", "never_resolvable", "own_records_only")
        assert row["verdict"] in (
            None,
            "true",
            "mostly_true",
            "mixed",
            "mostly_false",
            "false",
            "unresolvable",
        )
        assert row["basis"] in (
            None,
            "independent_source",
            "official_records_only",
            "ordinary_statements_only",
            "nothing",
        )
        assert row["probability_kind"] in (None, "exact", "lower_bound", "upper_bound")
        assert (row["stated_probability"] is None) == (row["probability_kind"] is None)


def test_every_statement_state_is_present_for_each_coverable_subject(key: dict[str, Any]) -> None:
    for subject in _covered(key):
        rows = [row for row in key["statements"] if row["subject_id"] == subject["subject_id"]]
        drops = {row["drop_reason"] for row in rows}
        assert {"other_speaker", "paraphrase", "private_life"} <= drops, subject["subject_id"]
        triages = {row["triage"] for row in rows if row["kept"]}
        assert {"resolvable_now", "not_yet_due", "never_resolvable", "own_records_only"} <= triages
        assert any(row["party_political"] for row in rows)
        assert {"exact", "lower_bound"} <= {row["probability_kind"] for row in rows}
        assert any(row["type"] == "prediction" and row["stated_probability"] is None for row in rows)
        assert {"false"} <= {row["verdict"] for row in rows if row["type"] == "promise"}


def test_every_trap_class_is_present(key: dict[str, Any]) -> None:
    present = {trap["trap"] for trap in key["traps"]}
    assert set(key["trap_classes"]) <= present
    bases = {row["basis"] for row in key["statements"]}
    assert {"independent_source", "official_records_only", "ordinary_statements_only"} <= bases


def test_http_behaviours_are_in_the_manifest(pages: dict[str, CorpusPage]) -> None:
    statuses = {page.status for page in pages.values()}
    assert {200, 301, 404, 500} <= statuses
    assert any(page.content_type.startswith("application/pdf") for page in pages.values())
    assert any((page.oversize_bytes or 0) > 5_000_000 for page in pages.values())


def test_pdf_page_is_a_pdf(pages: dict[str, CorpusPage]) -> None:
    for page in pages.values():
        if page.content_type.startswith("application/pdf"):
            assert page.file is not None
            body = (CORPUS / "pages" / page.file).read_bytes()
            assert body.startswith(b"%PDF-") and body.rstrip().endswith(b"%%EOF")


def test_broken_charset_page_is_not_valid_in_its_declared_charset(
    key: dict[str, Any], pages: dict[str, CorpusPage]
) -> None:
    broken = [trap["url"] for trap in key["traps"] if trap["trap"] == "broken_charset"]
    for url in broken:
        page = pages[url]
        assert page.file is not None
        charset = page.content_type.split("charset=")[-1]
        with pytest.raises(UnicodeDecodeError):
            (CORPUS / "pages" / page.file).read_bytes().decode(charset)


def test_steering_text_is_present_in_english_and_german(
    key: dict[str, Any], pages: dict[str, CorpusPage]
) -> None:
    texts = " ".join(page_text(pages[t["url"]]) for t in key["traps"] if t["trap"].startswith("steering"))
    assert "ignore your previous instructions" in texts.lower()
    assert "ignoriere alle vorherigen anweisungen" in texts.lower()


def test_generated_files_are_up_to_date_and_deterministic() -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    import build_corpus

    first = build_corpus.outputs()
    second = build_corpus.outputs()
    assert first == second
    stale = [str(path) for path, body in first.items() if not path.exists() or path.read_bytes() != body]
    assert stale == [], "run .venv/bin/python tools/build_corpus.py"
