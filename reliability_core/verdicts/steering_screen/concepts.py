"""Concept features of the steering screen: words that mean the same thing share one feature.

An n-gram classifier learns "fact-checker" from the attacks that say "fact-checker"; an
attack that says "whoever assesses this" or "the verifier", or says it in a language whose
attacks used other words, shares none of its n-grams. A concept lexicon
(``lexicon/<lang>.json``: 14 concepts such as "an evaluator", "an override", "a verdict
value", "a reward or threat", each with its words, stems and phrases in 32 languages) maps
all of them to one feature per concept, plus one per pair of concepts that occur together in
a window ("an evaluator" with "a verdict value" is what a judge-directed instruction has and
a court report mostly has not). The classifier learns one weight for the concept across
wordings and languages, so a rewording it never saw still lights the features a known one
did. The lexicon was written for this purpose from a concept list, without reading any
steering text (``lexicon/README.md``).

Entry syntax (matched on the screen's normalised text and its script-aware tokens):
``word`` a whole token; ``stem*`` any token starting with the stem (3 characters or more,
shorter stems match whole tokens only); ``two words`` consecutive tokens, each part may be a
stem. Han, kana and Thai are one token per character, so a word there is a sequence of
character tokens.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

LEXICON_DIR = Path(__file__).resolve().parent / "lexicon"
MIN_STEM_CHARS = 3

Part = tuple[str, bool]  # token text, matches as a prefix


@dataclass(frozen=True)
class ConceptLexicon:
    """Entries indexed by their first part: an exact token, or a stem looked up by the
    token's prefixes."""

    by_token: dict[str, tuple[tuple[tuple[Part, ...], str], ...]]
    by_stem: dict[str, tuple[tuple[tuple[Part, ...], str], ...]]
    concepts: tuple[str, ...]
    digest: str
    longest_stem: int

    def matches(self, tokens: Sequence[str]) -> Counter[str]:
        """Concept -> number of entries matched in a token sequence (at most one match per
        concept starting at one token)."""
        found: Counter[str] = Counter()
        for i, token in enumerate(tokens):
            candidates = list(self.by_token.get(token, ()))
            for n in range(MIN_STEM_CHARS, min(len(token), self.longest_stem) + 1):
                candidates.extend(self.by_stem.get(token[:n], ()))
            here = {concept for parts, concept in candidates if _matches_at(parts, tokens, i)}
            found.update(here)
        return found


def _part_matches(part: Part, token: str) -> bool:
    text, prefix = part
    return token.startswith(text) if prefix else token == text


def _matches_at(parts: tuple[Part, ...], tokens: Sequence[str], i: int) -> bool:
    if i + len(parts) > len(tokens):
        return False
    return all(_part_matches(p, tokens[i + k]) for k, p in enumerate(parts))


def entry_parts(entry: str, tokenize: object) -> tuple[Part, ...]:
    """An entry as token parts. ``tokenize`` is the screen's tokenizer (normalise + words),
    passed in so this module does not import the feature module that imports it."""
    parts: list[Part] = []
    for chunk in entry.split():
        prefix = chunk.endswith("*")
        tokens = tokenize(chunk.rstrip("*"))  # type: ignore[operator]
        for k, token in enumerate(tokens):
            is_last = k == len(tokens) - 1
            parts.append((token, prefix and is_last and len(token) >= MIN_STEM_CHARS))
    return tuple(parts)


def build_lexicon(files: Iterable[Path], tokenize: object) -> ConceptLexicon:
    by_token: dict[str, list[tuple[tuple[Part, ...], str]]] = defaultdict(list)
    by_stem: dict[str, list[tuple[tuple[Part, ...], str]]] = defaultdict(list)
    concepts: set[str] = set()
    digest = hashlib.sha256()
    seen: set[tuple[tuple[Part, ...], str]] = set()
    for path in sorted(files):
        raw = path.read_bytes()
        digest.update(path.name.encode() + b"\0" + raw)
        data = json.loads(raw)
        for concept, entries in sorted(data["concepts"].items()):
            concepts.add(concept)
            for entry in entries:
                parts = entry_parts(str(entry), tokenize)
                if not parts or (parts, concept) in seen:
                    continue
                seen.add((parts, concept))
                first, prefix = parts[0]
                (by_stem if prefix else by_token)[first].append((parts, concept))
    return ConceptLexicon(
        by_token={k: tuple(v) for k, v in by_token.items()},
        by_stem={k: tuple(v) for k, v in by_stem.items()},
        concepts=tuple(sorted(concepts)),
        digest=digest.hexdigest(),
        longest_stem=max((len(k) for k in by_stem), default=0),
    )


def lexicon_files(directory: Path = LEXICON_DIR) -> list[Path]:
    return sorted(directory.glob("*.json")) if directory.is_dir() else []


@functools.lru_cache(maxsize=1)
def default_lexicon() -> ConceptLexicon:
    from reliability_core.verdicts.steering_screen.features import normalise, words

    return build_lexicon(lexicon_files(), lambda text: words(normalise(text)))


def concept_pairs(present: Iterable[str]) -> list[str]:
    """Every pair of the concepts present, in a fixed order."""
    return [f"{a}+{b}" for a, b in itertools.combinations(sorted(set(present)), 2)]
