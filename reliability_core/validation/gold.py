"""The gold-set format: one ``GoldItem`` per line of a JSONL file ([#10] "A
documented gold-set format (JSONL)"; format described in data/gold/README.md).

Reading is strict: a line that is not a valid ``GoldItem`` is a validation
issue with its line number, never silently skipped. ``validate_gold_file``
returns the issues as values; ``load_gold`` raises when there are any, because
a backtest over a broken gold set would measure nothing.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from pydantic import ValidationError

from reliability_core.models.base import Record
from reliability_core.models.gold import GoldItem

# The traps every gold set must cover ([#10], after [R] "traps like ties and
# 'announced' versus 'took effect' ... outcomes known before the lock, attempts to
# steer the Ref, and vague, subjective or private claims").
TRAP_TAGS: tuple[str, ...] = (
    "tie_more_than",
    "announced_vs_took_effect",
    "outcome_known_before_claim",
    "steering_attempt",
    "vague",
    "subjective",
    "private",
    "self_reported_only",
)

_SPACES = re.compile(r"\s+")
_QUOTE_MARKS = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "‚": "'"})


class GoldIssue(Record):
    """One problem found in a gold file: where, which item, what."""

    line: int
    item_id: str | None
    message: str


class GoldValidation(Record):
    """Result of validating a gold file: the valid items' count, every issue, and
    how many items carry each trap tag."""

    path: str
    items: int
    issues: list[GoldIssue]
    trap_coverage: dict[str, int]
    missing_trap_tags: list[str]

    @property
    def ok(self) -> bool:
        return not self.issues


class GoldFormatError(ValueError):
    """A gold file that does not validate (a bug in the data, not an expected outcome)."""

    def __init__(self, validation: GoldValidation) -> None:
        first = "; ".join(f"line {i.line}: {i.message}" for i in validation.issues[:5])
        super().__init__(f"{validation.path}: {len(validation.issues)} issue(s): {first}")
        self.validation = validation


def quote_in_page_text(quote: str, page_text: str) -> bool:
    """Whether a frozen evidence quote appears word for word in its page text,
    after normalising spacing and quotation marks ([M] step 4: "after
    normalising spacing and quotation marks")."""

    def norm(text: str) -> str:
        return _SPACES.sub(" ", text.translate(_QUOTE_MARKS)).strip().casefold()

    return bool(quote.strip()) and norm(quote) in norm(page_text)


def item_issues(item: GoldItem) -> list[str]:
    """Rules a parsed gold item must also meet beyond its schema."""
    problems: list[str] = []
    unknown = sorted(set(item.trap_tags) - set(TRAP_TAGS))
    if unknown:
        problems.append(f"unknown trap tag(s) {unknown}; allowed: {list(TRAP_TAGS)}")
    if not item.claim.strip():
        problems.append("empty claim text")
    if not item.source.strip():
        problems.append("empty source (say 'synthetic' or the dataset name)")
    if item.made_on is not None and item.judge_at < item.made_on:
        problems.append(f"judge_at {item.judge_at} is before made_on {item.made_on}")
    if item.labeller_agreement is not None and not 0.0 <= item.labeller_agreement <= 1.0:
        problems.append("labeller_agreement must be within [0, 1]")
    if item.stated_probability is not None:
        if not 0.0 <= item.stated_probability <= 1.0:
            problems.append("stated_probability must be within [0, 1]")
        if item.claim_type != "prediction":
            problems.append("stated_probability is only meaningful on a prediction")
    for n, evidence in enumerate(item.evidence):
        if evidence.page_text and not quote_in_page_text(evidence.quote, evidence.page_text):
            problems.append(f"evidence {n}: quote not found in its page text")
        if not evidence.page_text:
            problems.append(f"evidence {n}: no page text to verify the frozen quote against")
    return problems


def trap_coverage(items: Iterable[GoldItem]) -> dict[str, int]:
    """How many items carry each trap tag (every tag listed, zeros included)."""
    counts = Counter(tag for item in items for tag in item.trap_tags)
    return {tag: counts.get(tag, 0) for tag in TRAP_TAGS}


def parse_gold_lines(lines: Iterable[str], path: str = "<memory>") -> tuple[list[GoldItem], GoldValidation]:
    """Parse JSONL text into items and a validation report (blank lines and
    lines starting with ``#`` are ignored)."""
    items: list[GoldItem] = []
    issues: list[GoldIssue] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            issues.append(GoldIssue(line=number, item_id=None, message=f"not JSON: {error.msg}"))
            continue
        item_id = data.get("id") if isinstance(data, dict) else None
        try:
            item = GoldItem.model_validate(data)
        except ValidationError as error:
            detail = "; ".join(
                f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors()[:3]
            )
            issues.append(GoldIssue(line=number, item_id=item_id, message=f"not a gold item: {detail}"))
            continue
        if item.id in seen:
            issues.append(
                GoldIssue(
                    line=number, item_id=item.id, message=f"duplicate id (first on line {seen[item.id]})"
                )
            )
            continue
        seen[item.id] = number
        issues.extend(GoldIssue(line=number, item_id=item.id, message=m) for m in item_issues(item))
        items.append(item)
    coverage = trap_coverage(items)
    validation = GoldValidation(
        path=path,
        items=len(items),
        issues=issues,
        trap_coverage=coverage,
        missing_trap_tags=[tag for tag, count in coverage.items() if count == 0],
    )
    return items, validation


def decode_gold_lines(raw: bytes) -> tuple[list[str], list[GoldIssue]]:
    """The lines of a gold file's bytes, each decoded as UTF-8 on its own, so one bad
    byte stays on its line (issue 26): that line is an issue naming its line number,
    the byte and its offset in the file, and is read as blank, while every other line
    is still read. Lines end at ``\\n``, ``\\r\\n`` or ``\\r``, as a text file is read."""
    lines: list[str] = []
    issues: list[GoldIssue] = []
    offset = 0
    for number, chunk in enumerate(raw.splitlines(keepends=True), start=1):
        try:
            lines.append(chunk.decode("utf-8"))
        except UnicodeDecodeError as error:
            lines.append("")
            issues.append(
                GoldIssue(
                    line=number,
                    item_id=None,
                    message=f"not UTF-8: byte 0x{chunk[error.start]:02x} at byte offset {offset + error.start} "
                    f"of the file (column {error.start + 1} of the line, in bytes): {error.reason}",
                )
            )
        offset += len(chunk)
    return lines, issues


def read_gold_file(path: Path) -> tuple[list[GoldItem], GoldValidation]:
    """The valid items of a gold JSONL file and its validation report, undecodable
    lines included (``decode_gold_lines``), issues in line order."""
    lines, undecodable = decode_gold_lines(path.read_bytes())
    items, validation = parse_gold_lines(lines, str(path))
    issues = sorted([*undecodable, *validation.issues], key=lambda issue: issue.line)
    return items, validation.model_copy(update={"issues": issues})


def validate_gold_file(path: Path) -> GoldValidation:
    """Validate a gold JSONL file; issues are returned, not raised."""
    _, validation = read_gold_file(path)
    return validation


def load_gold(path: Path) -> list[GoldItem]:
    """The items of a gold JSONL file; raises ``GoldFormatError`` if any line is invalid."""
    items, validation = read_gold_file(path)
    if validation.issues:
        raise GoldFormatError(validation)
    return items


def gold_to_jsonl(items: Sequence[GoldItem]) -> str:
    """JSONL text: one item per line, keys in model order, no defaults dropped."""
    return "".join(item.model_dump_json() + "\n" for item in items)


def save_gold(items: Sequence[GoldItem], path: Path) -> Path:
    """Write items as JSONL (UTF-8); refuses duplicate ids."""
    ids = Counter(item.id for item in items)
    duplicated = sorted(i for i, c in ids.items() if c > 1)
    if duplicated:
        raise ValueError(f"duplicate gold ids: {duplicated[:5]}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(gold_to_jsonl(items), encoding="utf-8")
    return path
