"""Offline search over the local corpus: a SQLite FTS5 index ranked by BM25.

Built from the corpus manifest (title, keywords, site, published date) and the
visible text of each page file. Only pages that search may return are indexed:
``searchable`` pages served with status 200 and a body file; redirects, error
pages and pages marked unsearchable are reachable by URL but never returned.
A date filter returns only pages with a known date in range; domain filters
match the host or any subdomain. SQLite's FTS5 is built into Python, so this
works with no network (DuckDB's full-text extension downloads itself).
"""

from __future__ import annotations

import re
import sqlite3
from datetime import date
from pathlib import Path

from reliability_core.models import SearchResult
from reliability_core.providers.base import SearchQuery
from reliability_core.providers.search_filters import domain_allowed
from reliability_core.stand_in.corpus import CorpusManifest, CorpusPage, load_manifest

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# Words that would match nearly every page and only blur the ranking.
_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "has",
        "have",
        "in",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "to",
        "was",
        "were",
        "will",
        "with",
    ]
)
# BM25 column weights: a query word in the title or keywords counts more than in the body.
_WEIGHT_TITLE = 5.0
_WEIGHT_KEYWORDS = 3.0
_WEIGHT_BODY = 1.0
_SNIPPET_TOKENS = 32


def page_visible_text(body: bytes, content_type: str | None) -> tuple[str, str]:
    """(title, visible text) of a page file, through the shared page-text extractor
    (the same text quotes are verified against), or lxml directly without it."""
    try:
        from reliability_core.web.page_text import extract_page_texts
    except ImportError:
        return _lxml_visible_text(body)
    texts = extract_page_texts(body, content_type)
    if not texts.ok:
        return "", ""
    return texts.title, texts.text


def _lxml_visible_text(body: bytes) -> tuple[str, str]:
    import lxml.html
    from lxml import etree

    try:
        root = lxml.html.fromstring(body)
    except (etree.ParserError, ValueError):
        return "", ""
    for bad in root.xpath("//script|//style|//noscript|//template"):
        bad.drop_tree()
    title_el = root.find(".//title")
    title = " ".join(title_el.text_content().split()) if title_el is not None else ""
    return title, " ".join(root.text_content().split())


def is_searchable(page: CorpusPage) -> bool:
    """Search returns a page only if it is marked searchable, served with 200 and has a body."""
    return page.searchable and page.status == 200 and page.file is not None and page.redirect_to is None


def fts_query(text: str) -> str | None:
    """The words of ``text`` as an FTS5 OR-query of quoted terms (no FTS syntax leaks in)."""
    words = [w.lower() for w in _WORD.findall(text)]
    terms = sorted({w for w in words if w not in _STOPWORDS}) or sorted(set(words))
    if not terms:
        return None
    return " OR ".join(f'"{term}"' for term in terms)


class OfflineSearch:
    """``SearchProvider`` over the corpus, deterministic for a given corpus."""

    name = "offline-search"

    def __init__(self, corpus_dir: Path, manifest: CorpusManifest | None = None) -> None:
        self.corpus_dir = corpus_dir
        self.manifest = manifest if manifest is not None else load_manifest(corpus_dir)
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._build()

    def _build(self) -> None:
        self._db.execute(
            "CREATE VIRTUAL TABLE pages USING fts5("
            "url UNINDEXED, title, keywords, body, site UNINDEXED, published UNINDEXED,"
            " tokenize = 'unicode61 remove_diacritics 2')"
        )
        rows = []
        for page in self.manifest.pages:
            if not is_searchable(page):
                continue
            assert page.file is not None
            path = self.corpus_dir / "pages" / page.file
            body = path.read_bytes() if path.exists() else b""
            html_title, text = page_visible_text(body, page.content_type) if body else ("", "")
            rows.append(
                (
                    page.url,
                    page.title or html_title,
                    " ".join(page.keywords),
                    text,
                    page.site,
                    page.published.isoformat() if page.published else None,
                )
            )
        self._db.executemany("INSERT INTO pages VALUES (?, ?, ?, ?, ?, ?)", rows)
        self._db.commit()

    def close(self) -> None:
        self._db.close()

    async def search(self, query: SearchQuery) -> list[SearchResult]:
        """The best ``max_results`` pages by BM25 that pass the filters, ranked from 1."""
        return self.search_sync(query)

    def search_sync(self, query: SearchQuery) -> list[SearchResult]:
        """``search`` without the event loop (the index is in memory)."""
        match = fts_query(query.query)
        if match is None or query.max_results <= 0:
            return []
        sql = (
            "SELECT url, title, published,"
            f" snippet(pages, 3, '', '', '…', {_SNIPPET_TOKENS}) AS snip"
            " FROM pages WHERE pages MATCH ?"
        )
        params: list[object] = [match]
        if query.published_after is not None:
            sql += " AND published IS NOT NULL AND published >= ?"
            params.append(query.published_after.isoformat())
        if query.published_before is not None:
            sql += " AND published IS NOT NULL AND published <= ?"
            params.append(query.published_before.isoformat())
        sql += f" ORDER BY bm25(pages, 0, {_WEIGHT_TITLE}, {_WEIGHT_KEYWORDS}, {_WEIGHT_BODY}), url"
        out: list[SearchResult] = []
        for url, title, published, snip in self._db.execute(sql, params):
            if not domain_allowed(url, query.include_domains, query.exclude_domains):
                continue
            out.append(
                SearchResult(
                    url=url,
                    title=title,
                    snippet=snip or "",
                    published_date=_date_or_none(published),
                    rank=len(out) + 1,
                )
            )
            if len(out) >= query.max_results:
                break
        return out


def _date_or_none(value: str | None) -> date | None:
    return date.fromisoformat(value) if value else None
