from __future__ import annotations

from benchmarks.bench_quote_verification import make_page, make_quotes, run


def test_benchmark_page_is_large_and_restyled_quotes_from_it_verify() -> None:
    result = run(page_chars=30_000, quotes=20)
    assert result.page_chars >= 30_000
    assert result.verified == 10  # the restyled half verifies, the altered half does not


def test_benchmark_inputs_are_reproducible() -> None:
    page = make_page(5_000)
    assert page == make_page(5_000)
    assert make_quotes(page, 4) == make_quotes(page, 4)
