"""Where one sentence ends and the next begins: the one sentence splitter of the pipeline.

A sentence ends at ``.``, ``!``, ``?`` or ``…`` (a closing quotation mark or bracket right
after it stays with it), followed by white space and the start of a new sentence: a capital
of any script, a digit, an opening quotation mark or bracket, or a letter of a script
without case; or at ``。``, ``！``, ``？``, ``؟`` or ``।``, which need no space after them.
Requiring the new sentence's start keeps abbreviations and figures inside one sentence
("e.g. the", "approx. 3"), and a line break always ends a sentence (page text keeps one
block per line).

Every reader of sentences uses it: the passages a reader is sent (``verdicts.passages``),
the privacy mask of stored text (``text.privacy``), and the stand-in's readers. Here, below
every phase, because the privacy mask runs in the web and provider layers.

The steering screen's units (``verdicts.steering_screen.features``) are cut by their own
rule on purpose: they are part of a trained artefact, whose measured figures hold only for
the units it was trained on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_END = "[.!?\u2026]"
# Full stops that need no space after them: the ideographic full stop, full-width "!" and
# "?" (Chinese, Japanese), the Arabic question mark and the Devanagari danda.
_WIDE_END = "[\u3002\uff01\uff1f\u061f\u0964]"
_CLOSING = "[\"'\u201d\u2019\u00bb\u300d\u300f)\\]]"
_OPENING = "\"'\u201c\u2018\u00ab\u201e\u300c\u300e(["
# Candidate breaks: after an end mark (and a closing mark), white space; after a wide end
# mark, optional white space. Whether the next sentence starts there is decided in code
# (``_starts_sentence``): Python's patterns cannot ask "an upper-case letter of any script".
_CANDIDATE = re.compile(
    rf"(?:(?<={_END})|(?<={_END}{_CLOSING}))\s+(?=\S)|(?P<wide>(?:(?<={_WIDE_END})|(?<={_WIDE_END}{_CLOSING}))\s*)(?=\S)"
)


def _starts_sentence(ch: str) -> bool:
    """A new sentence starts with a capital of any script ("Ø", "Э", "Ά"), a digit, an
    opening quotation mark or bracket, or a letter of a script without case (Arabic,
    Hebrew, Han, kana, Hangul, Devanagari). A lower-case letter continues the sentence, so
    abbreviations and figures stay inside it ("e.g. the", "approx. 3", "z. B. die")."""
    return ch.isupper() or ch.isdigit() or ch in _OPENING or (ch.isalpha() and not ch.islower())


# A short capitalised word cut by a period after a figure is a scale abbreviation ("5 Mrd.
# Euro", "3 Mio. Kunden", "2 Tsd. Besucher"), not the end of a sentence although a capital
# follows (German nouns are capitalised). A unit symbol ("2.1 GW.") or a glued scale ("£4bn.")
# does end one.
_FIGURE_ABBREVIATION = re.compile(r"\d\s+[^\W\d_][^\W\d_A-Z]{1,3}\.$")


def _breaks(text: str) -> Iterator[re.Match[str]]:
    """The sentence breaks of ``text`` (white space between two sentences, possibly empty
    after a wide end mark)."""
    for match in _CANDIDATE.finditer(text):
        if match.group("wide") is not None or (_starts_sentence(text[match.end()]) and not _FIGURE_ABBREVIATION.search(
            text[max(0, match.start() - 24) : match.start()]
        )):
            yield match


def split_sentences(text: str, *, keep_breaks: bool = False) -> list[str]:
    """The sentences of ``text``, each keeping its final punctuation.

    By default each line is split on its own and every sentence is stripped, blank ones
    dropped. With ``keep_breaks`` the text is split as given and the breaks are kept between
    the sentences (even positions are sentences, odd ones the white space between them), so
    ``"".join(...)`` gives the text back exactly: what the privacy mask needs to replace a
    sentence and keep everything else as received."""
    if keep_breaks:
        parts: list[str] = []
        position = 0
        for match in _breaks(text):
            parts += [text[position : match.start()], match.group(0)]
            position = match.end()
        return [*parts, text[position:]]
    out: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        out.extend(part.strip() for part in split_sentences(stripped, keep_breaks=True)[::2] if part.strip())
    return out


def _edges(text: str) -> Iterator[tuple[int, int]]:
    """A sentence's edges in running text: a sentence break or a line break, in order."""
    edges = [(m.start(), m.end()) for m in _breaks(text)]
    edges += [(m.start(), m.end()) for m in re.finditer(r"\s*\n\s*", text)]
    yield from sorted(edges)


def sentence_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the sentence(s) of ``text`` that hold the span [start, end) begin and end,
    without the white space around them: from the end of the previous sentence to the end
    of the last one the span touches (``split_sentences``'s breaks, and line breaks)."""
    left, right = 0, len(text)
    for edge_start, edge_end in _edges(text):
        if edge_end <= start:
            left = max(left, edge_end)
        elif edge_start >= end:
            right = edge_start
            break
    while left < right and text[left].isspace():
        left += 1
    while right > left and text[right - 1].isspace():
        right -= 1
    return left, right


def sentence_around(text: str, start: int | None, end: int | None) -> str:
    """The sentence(s) of ``text`` that hold the span [start, end) (``sentence_span``)."""
    if start is None or end is None or not text:
        return ""
    left, right = sentence_span(text, start, end)
    return text[left:right]
