"""Import the AVeriTeC dev set as gold items ([#10] "An importer for the AVeriTeC
dev set ... labels ... mapped to our verdicts, documented").

AVeriTeC (Schlichtkrull et al., 2023) is CC BY-NC 4.0. The project never copies
it: the importer reads ``RELIABILITY_AVERITEC`` (default
``../shared/data/averitec/dev.json`` beside the project, ``reliability_core.settings``)
at run time, and tests skip when the file is absent.

Each record has a claim, a claim date (``DD-MM-YYYY``), a label, and
question-answer evidence: questions a fact-checker asked, each with answers
taken from a source URL. We map each answer to one frozen ``GoldEvidence`` whose
page text is the answer (with the question before it, so the judge can read
what it answers) and whose quote is the answer itself, so the frozen quote is
verified against its own page text. The source class is ``"unknown"``: the
dataset does not classify sources, and we do not guess.

Label mapping (``AVERITEC_LABEL_MAP``), and why:

- Supported -> ``true``: the evidence supports the claim as stated.
- Refuted -> ``false``: the evidence refutes it.
- Not Enough Evidence -> ``unresolvable``: the annotators could not settle it;
  our method "prefer[s] 'unresolvable' to a guess" ([M] step 8).
- Conflicting Evidence/Cherrypicking -> ``mixed``: the claim is partly right and
  partly wrong, or technically true but misleading by selection, which is what
  our middle level "mixed" means; it is not "unresolvable", because the
  annotators did settle it, on evidence pointing both ways.

AVeriTeC has no "mostly" levels, so a judge's "mostly_true" on a Supported
claim counts as wrong in exact-match accuracy; the backtest reports that as is.
"""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path
from typing import Any

from reliability_core.models import CriteriaLevels, GoldEvidence, GoldItem, Verdict
from reliability_core.settings import settings

AVERITEC_SOURCE = "averitec-dev"
AVERITEC_LICENCE = "CC BY-NC 4.0"
AVERITEC_LABEL_MAP: dict[str, Verdict] = {
    "Supported": "true",
    "Refuted": "false",
    "Not Enough Evidence": "unresolvable",
    "Conflicting Evidence/Cherrypicking": "mixed",
}

# AVeriTeC claims are statements of fact checked against the record; the
# dataset has no promises or predictions with deadlines.
_CRITERIA = CriteriaLevels(
    true="The evidence shows the claim is accurate as stated, in every part.",
    mostly_true="The evidence shows the claim is accurate in substance with a minor inaccuracy.",
    mixed=(
        "The evidence shows part of the claim is accurate and part is not, or that it is "
        "technically accurate but misleading by leaving out what contradicts it."
    ),
    mostly_false="The evidence shows the claim is inaccurate in substance with a minor accurate element.",
    false="The evidence shows the claim is inaccurate.",
)


def map_averitec_label(label: str) -> Verdict:
    """Our verdict for an AVeriTeC label (see the module docstring for why)."""
    try:
        return AVERITEC_LABEL_MAP[label]
    except KeyError:
        raise ValueError(f"unknown AVeriTeC label {label!r}") from None


def parse_averitec_date(text: str) -> date:
    """AVeriTeC dates are ``DD-MM-YYYY``."""
    return datetime.strptime(text.strip(), "%d-%m-%Y").date()


def _evidence(question: dict[str, Any]) -> list[GoldEvidence]:
    out: list[GoldEvidence] = []
    for answer in question.get("answers") or []:
        kind = answer.get("answer_type", "")
        text = (answer.get("answer") or "").strip()
        if kind == "Unanswerable" or not text:
            continue  # an unanswered question is not evidence
        if kind == "Boolean" and answer.get("boolean_explanation"):
            # "Yes"/"No" alone says nothing without the explanation the annotator gave.
            text = f"{text}. {answer['boolean_explanation'].strip()}"
        url = answer.get("source_url") or answer.get("cached_source_url") or ""
        out.append(
            GoldEvidence(
                url=url,
                quote=text,
                source_class="unknown",
                page_text=f"Question: {question.get('question', '').strip()}\nAnswer: {text}",
                independent=True,
                publisher=answer.get("source_medium", ""),
            )
        )
    return out


def averitec_record_to_gold(record: dict[str, Any], index: int) -> GoldItem:
    """One AVeriTeC record as a gold item (id ``averitec-dev-<index>``)."""
    made_on = parse_averitec_date(record["claim_date"])
    evidence = [e for q in record.get("questions") or [] for e in _evidence(q)]
    speaker = record.get("speaker")
    return GoldItem(
        id=f"{AVERITEC_SOURCE}-{index:03d}",
        claim=record["claim"].strip(),
        claim_type="factual",
        subject_kind="public_figure" if speaker else "unknown",
        made_on=made_on,
        criteria=_CRITERIA,
        judge_at=made_on,
        evidence=evidence,
        label=map_averitec_label(record["label"]),
        trap_tags=[],
        source=AVERITEC_SOURCE,
        source_label=record["label"],
        notes=f"{AVERITEC_LICENCE}; speaker: {speaker or 'unknown'}; justification: {record.get('justification', '')}",
    )


def import_averitec(path: Path | None = None) -> list[GoldItem]:
    """Every record of the AVeriTeC dev file (default: the settings' ``averitec``) as gold
    items, in file order."""
    source = path or settings().averitec
    records = json.loads(source.read_text(encoding="utf-8"))
    if not isinstance(records, list):
        raise ValueError(f"{source}: expected a JSON list of AVeriTeC records")
    return [averitec_record_to_gold(r, i) for i, r in enumerate(records)]
