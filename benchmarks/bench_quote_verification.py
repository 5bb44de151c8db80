"""Quote verification throughput on a large page ([#3] "a benchmark in benchmarks/
reports quote verification throughput on a large page").

Run: ``.venv/bin/python -m benchmarks.bench_quote_verification`` (or ``make bench``).
Reports the one-off cost of normalising a ~2 MB page, then quotes per second when
verifying against it (the page is normalised once and cached, as in the pipeline).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from reliability_core.text.normalise import normalise_for_match
from reliability_core.text.quotes import verify_quote

_WORDS = [
    "capacity",
    "offshore",
    "wind",
    "we",
    "will",
    "deliver",
    "by",
    "2025",
    "the",
    "company",
    "said",
    "revenue",
    "rose",
    "percent",
    "billion",
    "forecast",
    "expect",
    "target",
    "annual",
    "report",
    "install",
    "gigawatt",
    "cost",
    "fell",
    "record",
    "year",
    "quarter",
    "guidance",
]
_DECOR = ["\u201c", "\u201d", "\u2019", "\u2014", "\u00a0", "\u2026", "\u00ad", " ", " ", " ", ", ", ". "]


def make_page(target_chars: int = 2_000_000, seed: int = 7) -> str:
    """A synthetic page of about ``target_chars`` characters with curly quotes,
    dashes, non-breaking spaces and soft hyphens mixed in."""
    rng = random.Random(seed)
    parts: list[str] = []
    size = 0
    while size < target_chars:
        word = rng.choice(_WORDS)
        piece = word.capitalize() if rng.random() < 0.1 else word
        piece += rng.choice(_DECOR)
        parts.append(piece)
        size += len(piece)
    return "".join(parts)


def make_quotes(page: str, count: int, seed: int = 11) -> list[str]:
    """Half cut from the page (restyled: straight quotes, plain spaces), half altered."""
    rng = random.Random(seed)
    quotes: list[str] = []
    for index in range(count):
        start = rng.randrange(0, len(page) - 700)
        quote = page[start : start + rng.randint(20, 600)]
        quote = quote.replace("\u201c", '"').replace("\u201d", '"').replace("\u00a0", " ")
        if index % 2:
            quote = quote + " zzz"  # not on the page
        quotes.append(quote)
    return quotes


@dataclass(frozen=True)
class BenchResult:
    page_chars: int
    normalise_seconds: float
    quotes: int
    verify_seconds: float
    verified: int

    @property
    def quotes_per_second(self) -> float:
        return self.quotes / self.verify_seconds if self.verify_seconds else float("inf")


def run(page_chars: int = 2_000_000, quotes: int = 400) -> BenchResult:
    page = make_page(page_chars)
    started = time.perf_counter()
    normalised_page = normalise_for_match(page)
    normalise_seconds = time.perf_counter() - started
    sample = make_quotes(page, quotes)
    started = time.perf_counter()
    verified = sum(verify_quote(quote, normalised_page).verified for quote in sample)
    verify_seconds = time.perf_counter() - started
    return BenchResult(len(page), normalise_seconds, len(sample), verify_seconds, verified)


def main() -> None:
    result = run()
    print(f"page: {result.page_chars:,} characters, normalised once in {result.normalise_seconds:.2f} s")
    print(
        f"verify_quote: {result.quotes} quotes in {result.verify_seconds:.2f} s "
        f"= {result.quotes_per_second:,.0f} quotes/s ({result.verified} verified, "
        f"{result.quotes - result.verified} not found)"
    )


if __name__ == "__main__":
    main()
