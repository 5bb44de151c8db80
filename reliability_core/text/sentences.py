"""Where one sentence ends and the next begins: the one sentence splitter of the pipeline.

A sentence ends at ``.``, ``!``, ``?`` or ``…`` (a closing quotation mark or bracket right
after it stays with it), followed by white space and the start of a new sentence: a capital,
a digit, or an opening quotation mark or bracket. Requiring the new sentence's start keeps
abbreviations and figures inside one sentence ("e.g. the", "approx. 3"), and a line break
always ends a sentence (page text keeps one block per line).

Every reader of sentences uses it: the passages a reader is sent (``verdicts.passages``),
the privacy mask of stored text (``text.privacy``), and the stand-in's readers. Here, below
every phase, because the privacy mask runs in the web and provider layers.

The steering screen's units (``verdicts.steering_screen.features``) are cut by their own
rule on purpose: they are part of a trained artefact, whose measured figures hold only for
the units it was trained on.
"""

from __future__ import annotations

import re

_END = "[.!?\u2026]"
_CLOSING = "[\"'\u201d\u2019\u00bb)\\]]"
_NEXT_STARTS = "(?=[A-Z0-9\"'\u201c\u2018(\\[])"
# The white space between two sentences, captured so a caller can keep it.
_SENTENCE_BREAK = re.compile(rf"((?:(?<={_END})|(?<={_END}{_CLOSING}))\s+{_NEXT_STARTS})")


def split_sentences(text: str, *, keep_breaks: bool = False) -> list[str]:
    """The sentences of ``text``, each keeping its final punctuation.

    By default each line is split on its own and every sentence is stripped, blank ones
    dropped. With ``keep_breaks`` the text is split as given and the breaks are kept between
    the sentences (even positions are sentences, odd ones the white space between them), so
    ``"".join(...)`` gives the text back exactly: what the privacy mask needs to replace a
    sentence and keep everything else as received."""
    if keep_breaks:
        return _SENTENCE_BREAK.split(text)
    out: list[str] = []
    for line in text.splitlines():
        parts = _SENTENCE_BREAK.split(line.strip())
        out.extend(part.strip() for part in parts[::2] if part.strip())
    return out


# A sentence's edges in running text: a sentence break or a line break.
_SENTENCE_EDGE = re.compile(rf"{_SENTENCE_BREAK.pattern}|\s*\n\s*")


def sentence_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the sentence(s) of ``text`` that hold the span [start, end) begin and end,
    without the white space around them: from the end of the previous sentence to the end
    of the last one the span touches (``split_sentences``'s breaks, and line breaks)."""
    left, right = 0, len(text)
    for edge in _SENTENCE_EDGE.finditer(text):
        if edge.end() <= start:
            left = edge.end()
        elif edge.start() >= end:
            right = edge.start()
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
