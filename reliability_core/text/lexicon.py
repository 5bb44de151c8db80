"""Concept lexicons: the words of one idea in every language the subjects write (issue 25).

The code's own backstops (the privacy rule, reported speech, party politics, company
guidance, stated probabilities, the comparison a claim's words make) must hold in the
languages the subjects write, not only in English. Each is built the way the steering
screen's lexicon is: a concept first ("an illness", "a speech verb followed by 'that'",
"strictly more than, before the figure"), then the words of each language, written from the
concept and never from a test item.

Layout: ``lexicon/<area>/<lang>.json``::

    {"lang": "de", "area": "privacy", "concepts": {"illness": ["krebs*", "erkrank*", ...]}}

plus ``lexicon/<area>/README.md`` saying who wrote the words, when and from what.

Entry syntax (matched case-insensitively, after ``’`` is read as ``'``):

- ``word``: the whole word;
- ``stem*``: a word starting with the stem (inflected languages: "erkrank*", "болезн*");
- ``*word``: the word with letters attached before it (Arabic and Hebrew prefixes such as
  "ال", "ב", "ו");
- ``two words``: consecutive words (each may carry ``*``);
- a Han, kana or Thai entry matches inside running text (those scripts do not separate words);
  a Hangul entry needs a boundary before it only (particles follow the word);
- ``re:<pattern>``: a regular expression, for the few forms a word list cannot write (a
  figure followed by a percent sign, say). Use sparingly: it is read by people as data.

``WEB_LANGUAGES`` are the languages every backstop covers: the twenty most used content
languages of the web (W3Techs' ranking of websites' content languages) plus the Nordic
languages the subjects write (a demo subject is a Danish company).
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from reliability_core.text.compiled_patterns import compile_patterns

LEXICON_ROOT: Final = Path(__file__).resolve().parent / "lexicon"
# Where each area's compiled concepts are kept, checked by hash (text.compiled_patterns):
# compiling every area's alternations cost each process about a second (issue 29).
COMPILED_FOLDER: Final = ".compiled"

WEB_LANGUAGES: Final[tuple[str, ...]] = (
    "en", "es", "de", "fr", "ru", "ja", "pt", "it", "zh", "pl", "tr", "fa", "nl", "vi", "ar", "id",
    "ko", "uk", "cs", "he", "da", "sv", "nb",
)  # fmt: skip

_SPACE = r"[\s\u00a0\u202f]+"
_LETTERS = r"\w*"
# The word boundary before an entry that begins with a letter of a script with word gaps.
_LEAD = r"(?<!\w)"


class LexiconError(ValueError):
    """A lexicon file that cannot be read as this module's format: names the file."""


def _no_word_gaps(ch: str) -> bool:
    """Scripts written without spaces between words: Han, Hiragana, Katakana, Thai."""
    name = unicodedata.name(ch, "")
    return name.startswith(("CJK", "HIRAGANA", "KATAKANA", "THAI", "HALFWIDTH KATAKANA"))


def _is_hangul(ch: str) -> bool:
    return unicodedata.name(ch, "").startswith("HANGUL")


def normalise_for_lexicon(text: str) -> str:
    """NFC with typographic apostrophes read as ``'``: the form entries and texts meet in.
    Same length in and out, so match spans index the caller's text."""
    return unicodedata.normalize("NFC", text).replace("\u2019", "'").replace("\u02bc", "'")


def entry_pattern(entry: str) -> str:
    """The regular expression of one entry (module docstring for the syntax)."""
    if entry.startswith("re:"):
        return f"(?:{entry[3:]})"
    words = normalise_for_lexicon(entry).split()
    if not words:
        raise ValueError("an empty entry")
    parts: list[str] = []
    for word in words:
        prefix = word.startswith("*")
        stem = word.endswith("*")
        core = word.strip("*")
        if not core:
            raise ValueError(f"entry {entry!r} has a word with no letters")
        body = re.escape(core).replace("'", "['\u2019]")
        parts.append((_LETTERS if prefix else "") + body + (_LETTERS if stem else ""))
    pattern = _SPACE.join(parts)
    first, last = words[0].lstrip("*")[0], words[-1].rstrip("*")[-1]
    lead = "" if words[0].startswith("*") or _no_word_gaps(first) or not first.isalnum() else _LEAD
    trail = (
        ""
        if words[-1].endswith("*") or _no_word_gaps(last) or _is_hangul(last) or not last.isalnum()
        else r"(?!\w)"
    )
    return f"{lead}(?:{pattern}){trail}"


def _first_letter(entry: str) -> str | None:
    """The letter an entry's match must begin with, or None (a regex, an attached prefix,
    or an entry opening with punctuation)."""
    if entry.startswith(("re:", "*")):
        return None
    first = normalise_for_lexicon(entry).lstrip()[:1]
    if not first.isalnum():
        return None
    lower = first.lower()
    return lower if len(lower) == 1 else first


def _grouped(members: list[tuple[str, str]]) -> str | None:
    """``members`` (pattern, first letter), in order, behind one-letter look-aheads: a position
    tries only the entries that begin with its letter."""
    letters = sorted({letter for _, letter in members})
    if not letters:
        return None
    groups = [
        f"(?={re.escape(letter)})(?:{'|'.join(p for p, first in members if first == letter)})"
        for letter in letters
    ]
    return f"(?=[{''.join(re.escape(letter) for letter in letters)}])(?:{'|'.join(groups)})"


def alternation(entries: Iterable[str]) -> str:
    """One pattern matching any of ``entries``, longer entries first at one position (so "no
    more than" wins over "more than"). It is grouped so a position tries only the entries
    that can match there: at a word's start, those beginning with its letter; inside a word,
    those that need no word boundary (scripts without word gaps). Entries with no fixed first
    letter (regexes, attached prefixes) are tried after the lettered ones. An area of
    thousands of words is then read in about the time of a few."""
    # Ties in length in a fixed order (the patterns' text): ordered by length alone, they kept
    # the set's order, which changes with each process's string hashing, so the same lexicon
    # compiled to a different pattern in every process.
    members = sorted(
        {(entry_pattern(e), _first_letter(e)) for e in entries},
        key=lambda m: (-len(m[0]), m[0], m[1] or ""),
    )
    lettered = [(pattern, letter) for pattern, letter in members if letter is not None]
    free = [pattern for pattern, letter in members if letter is None]
    parts = []
    if (at_start := _grouped(lettered)) is not None:
        parts.append(rf"(?<!\w){at_start}")
    if (inside := _grouped([(p, letter) for p, letter in lettered if not p.startswith(_LEAD)])) is not None:
        parts.append(rf"(?<=\w){inside}")
    parts.extend(free)
    return "|".join(parts) or "(?!)"


@dataclass(frozen=True)
class LexiconHit:
    """One match of a concept's entry: where it stands in the caller's text."""

    concept: str
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class AreaLexicon:
    """Every language's entries of one area, compiled once per concept."""

    area: str
    entries: dict[str, dict[str, tuple[str, ...]]]  # concept -> lang -> entries
    digest: str
    _compiled: dict[str, re.Pattern[str]] = field(repr=False, compare=False)
    # The folder its files were read from; compiled sets of its entries are kept beside them.
    _root: Path | None = field(default=None, repr=False, compare=False)
    _unions: dict[tuple[str, ...], re.Pattern[str]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def concepts(self) -> tuple[str, ...]:
        return tuple(sorted(self.entries))

    def languages(self, concept: str) -> tuple[str, ...]:
        return tuple(sorted(lang for lang, words in self.entries.get(concept, {}).items() if words))

    def pattern(self, concept: str) -> re.Pattern[str]:
        """The concept's compiled alternation, for a rule that places it in a larger pattern."""
        try:
            return self._compiled[concept]
        except KeyError:
            raise KeyError(f"lexicon area {self.area!r} has no concept {concept!r}") from None

    def find(self, text: str, concept: str) -> list[LexiconHit]:
        """Every non-overlapping match of the concept in ``text``, in order."""
        return list(_found(self.pattern(concept), concept, text))

    def has(self, text: str, concept: str) -> bool:
        """Does ``text`` say the concept in any language?"""
        return _said(self.pattern(concept), text)

    def has_any(self, text: str, concepts: tuple[str, ...]) -> bool:
        """Does ``text`` say any of ``concepts``? One scan of their entries together: exactly
        when this is False, every ``has`` and ``find`` of those concepts on ``text`` finds
        nothing, so a rule may ask it first and skip the per-concept scans (issue 29)."""
        union = self._unions.get(concepts)
        if union is None:
            union = self._unions.setdefault(concepts, _union(self, concepts))
        return _said(union, text)


# The rules ask the same questions of the same sentences many times (the evidence step reads a
# page's sentences once per claim), and an alternation of every language's entries is slow to
# try at every position; the answers depend on nothing but the compiled pattern and the text.
@functools.lru_cache(maxsize=16384)
def _found(pattern: re.Pattern[str], concept: str, text: str) -> tuple[LexiconHit, ...]:
    normal = normalise_for_lexicon(text)
    if len(normal) != len(text):  # NFC changed the length: spans would not index ``text``
        text = normal
    return tuple(
        LexiconHit(concept, m.start(), m.end(), text[m.start() : m.end()])
        for m in pattern.finditer(normal)
        if m.end() > m.start()
    )


@functools.lru_cache(maxsize=16384)
def _said(pattern: re.Pattern[str], text: str) -> bool:
    return pattern.search(normalise_for_lexicon(text)) is not None


def _union(lexicon: AreaLexicon, concepts: tuple[str, ...]) -> re.Pattern[str]:
    for concept in concepts:
        lexicon.pattern(concept)  # an unknown concept raises, as ``pattern`` does
    entries = [e for concept in concepts for words in lexicon.entries[concept].values() for e in words]
    name = hashlib.sha256("\0".join(sorted(concepts)).encode()).hexdigest()[:16]
    pattern = alternation(entries)
    if lexicon._root is None:
        return re.compile(pattern, re.IGNORECASE)
    store = compiled_store(f"{lexicon.area}.any-{name}", lexicon._root)
    return compile_patterns({"any": pattern}, re.IGNORECASE, store)["any"]


def _read(path: Path, area: str) -> tuple[str, dict[str, list[str]]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LexiconError(f"{path}: not a JSON lexicon file ({exc})") from exc
    lang = data.get("lang")
    if lang != path.stem or data.get("area") != area:
        raise LexiconError(
            f"{path}: says lang={lang!r} area={data.get('area')!r}; expected {path.stem!r} {area!r}"
        )
    concepts = data.get("concepts")
    if not isinstance(concepts, dict) or not all(
        isinstance(v, list) and all(isinstance(e, str) and e.strip() for e in v) for v in concepts.values()
    ):
        raise LexiconError(f"{path}: 'concepts' must map each concept to a list of non-empty strings")
    # Each entry's pattern is compiled once, inside its concept's alternation (area_lexicon);
    # only when that fails is each entry compiled alone, to name the one at fault.
    for concept, entries in concepts.items():
        for entry in entries:
            try:
                entry_pattern(entry)
            except ValueError as exc:
                raise LexiconError(f"{path}: concept {concept!r}, entry {entry!r}: {exc}") from exc
    return lang, concepts


def _entry_at_fault(area: str, concept: str, files: dict[str, Path], error: re.error) -> LexiconError:
    """The error naming the file and entry whose pattern breaks ``concept``'s alternation."""
    for path in files.values():
        _, concepts = _read(path, area)
        for entry in concepts.get(concept, []):
            try:
                re.compile(entry_pattern(entry))
            except re.error as exc:
                return LexiconError(f"{path}: concept {concept!r}, entry {entry!r}: {exc}")
    return LexiconError(f"lexicon area {area!r}, concept {concept!r}: {error}")


@functools.cache
def area_lexicon(area: str, root: Path = LEXICON_ROOT) -> AreaLexicon:
    """The lexicon of one area (``lexicon/<area>/*.json``), read and checked once per process."""
    folder = root / area
    files = sorted(folder.glob("*.json"))
    if not files:
        raise LexiconError(f"no lexicon files for area {area!r} in {folder}")
    digest = hashlib.sha256()
    entries: dict[str, dict[str, tuple[str, ...]]] = {}
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
        lang, concepts = _read(path, area)
        for concept, words in concepts.items():
            entries.setdefault(concept, {})[lang] = tuple(words)
    patterns = {
        concept: alternation([e for words in by_lang.values() for e in words])
        for concept, by_lang in entries.items()
    }
    try:
        compiled = compile_patterns(patterns, re.IGNORECASE, compiled_store(area, root))
    except re.error as exc:
        for concept, pattern in patterns.items():
            try:
                re.compile(pattern, re.IGNORECASE)
            except re.error:
                raise _entry_at_fault(area, concept, {p.stem: p for p in files}, exc) from exc
        raise
    return AreaLexicon(
        area=area,
        entries=entries,
        digest=digest.hexdigest(),
        _compiled=compiled,
        _root=root,
    )


def compiled_store(name: str, root: Path = LEXICON_ROOT) -> Path:
    """Where a rule keeps patterns it builds from lexicon entries, compiled (with
    ``text.compiled_patterns``, checked by hash): beside the areas' own compiled files."""
    return root / COMPILED_FOLDER / f"{name}.marshal"


def compile_every_area(root: Path = LEXICON_ROOT) -> list[str]:
    """Read, check and compile every area under ``root``, writing the compiled concepts
    beside the files (at install: ``python -m reliability_core.text.lexicon``)."""
    areas = sorted(p.name for p in root.iterdir() if p.is_dir() and any(p.glob("*.json")))
    for area in areas:
        area_lexicon(area, root)
    return areas


if __name__ == "__main__":
    print("compiled lexicon areas:", ", ".join(compile_every_area()))
