from __future__ import annotations

import pytest

from reliability_core.text.quotes import verify_quote
from reliability_core.web.page_text import content_kind, declared_encoding, decode_body, extract_page_texts

NEWS_PAGE = """<!DOCTYPE html>
<html lang="en"><head>
<meta charset="utf-8"><title>Northwind sets 2025 target | The Wire</title>
<script>window.dataLayer = [{"quote": "We never said this"}];</script>
<style>.ad { display: none }</style>
<link rel="stylesheet" href="/s.css">
</head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/energy">Energy</a></li></ul></nav>
<div class="cookie-banner">We use cookies. <button>Accept</button></div>
<article>
  <h1>Northwind sets 2025 target</h1>
  <p class="byline">By A. Reporter &middot; 3 March 2021</p>
  <p>&ldquo;We will install 1.2&nbsp;GW of new capacity by 2025,&rdquo; said Jane Doe,
     chief executive of Northwind.</p>
  <p>She added: "Our costs fell by 12.5% last year &mdash; a record."</p>
  <figure><img src="x.jpg" alt="turbines"><figcaption>Turbines off the coast.</figcaption></figure>
  <template><p>Template text is not shown</p></template>
  <noscript><p>Enable JavaScript</p></noscript>
  <p>Analysts were <em>cautious</em>: <a href="/x">read more</a>.</p>
</article>
<aside><h2>Related</h2><ul><li>Other story</li></ul></aside>
<footer>&copy; 2021 The Wire</footer>
<script>console.log("tracking")</script>
</body></html>"""


def test_visible_text_has_every_text_node_except_hidden_ones() -> None:
    texts = extract_page_texts(NEWS_PAGE.encode("utf-8"), "text/html; charset=utf-8")
    assert texts.ok
    assert texts.title == "Northwind sets 2025 target | The Wire"
    for shown in [
        "Home",
        "We use cookies.",
        "Turbines off the coast.",
        "Other story",
        "© 2021 The Wire",
        "read more",
    ]:
        assert shown in texts.text
    for hidden in [
        "dataLayer",
        "We never said this",
        "display: none",
        "Template text",
        "Enable JavaScript",
        "tracking",
    ]:
        assert hidden not in texts.text


def test_main_text_is_the_article_for_the_models() -> None:
    texts = extract_page_texts(NEWS_PAGE.encode("utf-8"), "text/html")
    assert "1.2" in texts.main_text and "Jane Doe" in texts.main_text
    for boilerplate in ["Home", "Other story", "© 2021 The Wire"]:
        assert boilerplate not in texts.main_text


def test_quote_across_inline_markup_and_entities_verifies_against_visible_text() -> None:
    texts = extract_page_texts(NEWS_PAGE.encode("utf-8"), "text/html")
    assert verify_quote(
        '"We will install 1.2 GW of new capacity by 2025," said Jane Doe', texts.text
    ).verified
    assert verify_quote("Our costs fell by 12.5% last year - a record.", texts.text).verified
    assert verify_quote("Analysts were cautious: read more.", texts.text).verified
    assert not verify_quote("We never said this", texts.text).verified


def test_inline_tags_do_not_split_words_and_blocks_do() -> None:
    texts = extract_page_texts(
        b"<p>Hel<b>lo</b> wor<i>ld</i></p><p>Next</p><div>Block<br>break</div>", "text/html"
    )
    assert texts.text == "Hello world\nNext\nBlock\nbreak"


def test_broken_html_still_gives_text() -> None:
    texts = extract_page_texts(
        b"<html><body><p>Unclosed <b>bold <div>nested</p></span></table>tail text", "text/html"
    )
    assert texts.ok
    assert "Unclosed bold" in texts.text and "tail text" in texts.text


def test_a_page_labelled_utf8_is_read_as_utf8_even_when_its_bytes_are_not() -> None:
    # WHATWG Encoding Standard: the declared encoding is used, invalid bytes become
    # U+FFFD (as every browser shows such a page); the label is not second-guessed.
    body = "<p>The harbour caf\u00e9 reopened on Monday, the owner said: \u201cquoted\u201d</p>"
    texts = extract_page_texts(body.encode("cp1252"), "text/html; charset=utf-8")
    assert texts.ok
    assert texts.text == "The harbour caf\ufffd reopened on Monday, the owner said: \ufffdquoted\ufffd"


# Issue 26 item 4: one stray byte in an otherwise valid UTF-8 page.
STRAY_BYTE_PAGE = (
    "<html><head>{meta}<title>\u00d8rsted results</title></head><body>"
    "<p>\u00d8rsted said: \u201cRevenue rose 12% in 2025.\u201d</p>"
    "<p>Footer \u00a9 2026 \u2013 K\u00f8benhavn</p>"
    "</body></html>"
)
STRAY_QUOTE = "\u00d8rsted said: \u201cRevenue rose 12% in 2025.\u201d"


@pytest.mark.parametrize(
    ("content_type", "meta", "bom"),
    [
        ("text/html; charset=utf-8", "", b""),
        ("text/html", '<meta charset="utf-8">', b""),
        ("text/html", '<meta http-equiv="Content-Type" content="text/html; charset=UTF-8">', b""),
        ("text/html", "", b"\xef\xbb\xbf"),
    ],
)
def test_one_stray_byte_in_a_declared_utf8_page_costs_one_character(
    content_type: str, meta: str, bom: bytes
) -> None:
    body = bom + STRAY_BYTE_PAGE.format(meta=meta).encode("utf-8").replace(b"Footer", b"Foo\xfeter")
    texts = extract_page_texts(body, content_type)
    assert texts.ok
    assert STRAY_QUOTE in texts.text
    assert verify_quote(STRAY_QUOTE, texts.text).verified
    assert "Foo\ufffdter \u00a9 2026 \u2013 K\u00f8benhavn" in texts.text
    assert texts.text.count("\ufffd") == 1
    assert texts.title == "\u00d8rsted results"


def test_only_a_page_that_declares_nothing_is_guessed() -> None:
    # No label, no BOM: not valid UTF-8, so windows-1252 (the legacy default) reads it.
    body = "<p>Caf\u00e9 cr\u00e8me: \u201cquoted\u201d</p>".encode("cp1252")
    assert decode_body(body, "text/html") == "<p>Caf\u00e9 cr\u00e8me: \u201cquoted\u201d</p>"
    assert declared_encoding(body, "text/html") is None
    assert declared_encoding(body, "text/html; charset=x-no-such-charset") is None


def test_meta_charset_is_used_when_the_header_has_none() -> None:
    body = '<html><head><meta charset="iso-8859-7"></head><body><p>\u0391\u03b8\u03ae\u03bd\u03b1</p></body></html>'
    texts = extract_page_texts(body.encode("iso-8859-7"), "text/html")
    assert "Αθήνα" in texts.text


def test_unknown_charset_name_does_not_crash() -> None:
    texts = extract_page_texts(b"<p>plain ascii</p>", "text/html; charset=x-no-such-charset")
    assert texts.text == "plain ascii"


def test_utf16_with_bom_is_decoded() -> None:
    body = "\ufeff<p>wide text</p>".encode("utf-16-le")
    assert decode_body(body, "text/html") == "<p>wide text</p>"


def test_binary_junk_is_an_outcome_not_an_exception() -> None:
    junk = bytes(range(256)) * 200
    texts = extract_page_texts(junk, "text/html")
    assert not texts.ok
    assert texts.reason


def test_empty_and_whitespace_bodies_are_outcomes() -> None:
    assert not extract_page_texts(b"", "text/html").ok
    assert not extract_page_texts(b"   \n ", "text/plain").ok


def test_huge_page_is_handled() -> None:
    body = (
        "<html><body>" + "<div><p>Paragraph with some words in it.</p></div>" * 10_000 + "</body></html>"
    ).encode()
    texts = extract_page_texts(body, "text/html")
    assert texts.ok
    assert texts.text.count("Paragraph with some words in it.") == 10_000


def test_deeply_nested_html_is_read_or_an_outcome() -> None:
    nested = extract_page_texts(("<div>" * 1000 + "deep" + "</div>" * 1000).encode(), "text/html")
    assert nested.ok and nested.text == "deep"
    too_deep = extract_page_texts(("<div>" * 5000 + "deep" + "</div>" * 5000).encode(), "text/html")
    assert not too_deep.ok
    assert "no visible text" in too_deep.reason


def test_content_kinds() -> None:
    assert content_kind("text/html; charset=utf-8", b"") == "html"
    assert content_kind("application/xhtml+xml", b"") == "html"
    assert content_kind("text/plain", b"") == "text"
    assert content_kind("application/pdf", b"") == "pdf"
    assert content_kind(None, b"%PDF-1.5") == "pdf"
    assert content_kind(None, b"<!DOCTYPE html><html>") == "html"
    assert content_kind("image/jpeg", b"") == "other"
    assert content_kind("application/json", b"{}") == "other"


def test_xhtml_with_an_xml_declaration_is_read() -> None:
    body = b'<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>xhtml text</p></body></html>'
    texts = extract_page_texts(body, "application/xhtml+xml")
    assert texts.ok
    assert texts.text == "xhtml text"


TRANSCRIPT = """<html><head><title>Interview with Jane Doe</title></head><body>
<h1>Transcript</h1>
<p><b>Interviewer:</b> Will Northwind hit its target?</p>
<p><b>Jane Doe:</b> We expect EBITDA above DKK 28&#160;billion in 2025, and I&rsquo;d say
it&rsquo;s 70% likely we finish Sea&shy;Lynx&nbsp;2 on time.</p>
<table><tr><th>Year</th><th>Capacity</th></tr><tr><td>2022</td><td>7.4 GW</td></tr></table>
</body></html>"""


def test_transcript_answers_verify_across_speaker_markup_and_entities() -> None:
    texts = extract_page_texts(TRANSCRIPT.encode(), "text/html; charset=utf-8")
    assert verify_quote(
        "We expect EBITDA above DKK 28 billion in 2025, and I'd say it's 70% likely we finish SeaLynx 2 on time.",
        texts.text,
    ).verified
    assert "Jane Doe:\nWe expect" not in texts.text  # inline <b> does not break the paragraph
    assert "2022\n7.4 GW" in texts.text  # table cells stay apart


def test_windows_1252_smart_quotes_without_any_charset_are_read() -> None:
    body = b"<p>\x93We will deliver,\x94 she said \x96 firmly.</p>"
    texts = extract_page_texts(body, "text/html")
    assert texts.text == "\u201cWe will deliver,\u201d she said \u2013 firmly."
    assert verify_quote('"We will deliver," she said - firmly.', texts.text).verified
