"""Steward rulings applied to the verdicts before anything is scored ([V] §04 "What a
steward can do"; rulings are "applied to the next score computation").

The stewardship phase records a ruling (``stewardship.steward``) and re-scores the subject
(``stewardship.rescore``); what a ruling does to a verdict is decided here, in the scoring
phase, because every score computation (``report.build_report``) applies the rulings first
and a phase never imports one above it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from reliability_core.models import SCORED_VERDICTS, ClaimVerdict, JudgeVerdict, StewardRuling, Verdict
from reliability_core.warehouse import Ledger, tables

_VALID_VERDICTS: frozenset[str] = frozenset((*SCORED_VERDICTS, "unresolvable"))


def ordered_rulings(rulings: Iterable[StewardRuling]) -> list[StewardRuling]:
    """Rulings in the order they were made (``ruled_at``, then id): the order they are
    applied in and listed in."""
    return sorted(rulings, key=lambda r: (r.ruled_at, r.id))


def _ruled_verdict(ruling: StewardRuling) -> Verdict | None:
    if ruling.new_verdict is None:
        return None
    if ruling.new_verdict not in _VALID_VERDICTS:
        raise ValueError(f"steward ruling {ruling.id} names an unknown verdict {ruling.new_verdict!r}")
    return ruling.new_verdict  # type: ignore[return-value]


def apply_ruling(verdict: ClaimVerdict, ruling: StewardRuling) -> ClaimVerdict:
    """[V] §04 "What a steward can do: uphold, demote or retract a claim; resolve a dispute
    and credit the side that was right; re-run the mechanical quote check." Effects on the
    claim's verdict before scoring ([#8]):

    - ``uphold``: the verdict stands unchanged (the gate still decides whether it is shown).
    - ``demote``: the verdict becomes the ruling's ``new_verdict`` when one is given,
      otherwise ``unresolvable``: the claim is then counted, not scored.
    - ``retract``: the verdict is withdrawn: ``unresolvable`` and not shown (gate failed
      "retracted by a steward"); counted, never scored.
    - ``resolve_for_a``: judge A's verdict (and basis) becomes the verdict.
    - ``resolve_for_b``: judge B's verdict (and basis) becomes the verdict; without a
      judge B verdict the ruling changes nothing.
      After either resolution the disagreement flag stays set (both verdicts are still
      shown), and the reason records which side the steward credited.
    - ``recheck_quote``: the quotes were fetched and checked again
      (``steward.recheck_quotes``); if any failed, the verdict is held (gate failed
      "quote re-check failed: ..."), so it is no longer shown or scored; otherwise it
      stands unchanged.

    Every applied ruling is appended to the verdict's ``reason``."""
    note = (
        f"steward {ruling.action} ({ruling.steward}, {ruling.ruled_at.date().isoformat()}): {ruling.reason}"
    )
    reason = f"{verdict.reason}; {note}" if verdict.reason else note
    if ruling.action == "recheck_quote" and ruling.quote_recheck_failed:
        failed = [f"quote re-check failed: {f}" for f in ruling.quote_recheck_failed]
        gate = verdict.gate.model_copy(update={"shown": False, "failed": [*verdict.gate.failed, *failed]})
        return verdict.model_copy(update={"gate": gate, "reason": reason})
    if ruling.action in ("uphold", "recheck_quote"):
        return verdict.model_copy(update={"reason": reason})
    if ruling.action == "demote":
        new = _ruled_verdict(ruling) or "unresolvable"
        return verdict.model_copy(update={"verdict": new, "reason": reason})
    if ruling.action == "retract":
        gate = verdict.gate.model_copy(
            update={"shown": False, "failed": [*verdict.gate.failed, "retracted by a steward"]}
        )
        return verdict.model_copy(update={"verdict": "unresolvable", "gate": gate, "reason": reason})
    judge: JudgeVerdict | None = verdict.judge_a if ruling.action == "resolve_for_a" else verdict.judge_b
    if judge is None:
        return verdict.model_copy(update={"reason": f"{reason} (no verdict from that judge: unchanged)"})
    return verdict.model_copy(update={"verdict": judge.verdict, "basis": judge.basis, "reason": reason})


def apply_rulings(verdicts: Sequence[ClaimVerdict], rulings: Sequence[StewardRuling]) -> list[ClaimVerdict]:
    """[V] §04: steward rulings are "applied to the next score computation". Rulings on a
    claim are applied in the order they were made (``ruled_at``, then id), each on the
    result of the previous one; see ``apply_ruling`` for the effect of each action.
    Rulings on claims without a verdict change nothing. Returns verdicts in input order."""
    by_claim: dict[str, list[StewardRuling]] = {}
    for ruling in ordered_rulings(rulings):
        by_claim.setdefault(ruling.claim_id, []).append(ruling)
    out: list[ClaimVerdict] = []
    for verdict in verdicts:
        for ruling in by_claim.get(verdict.claim_id, []):
            verdict = apply_ruling(verdict, ruling)
        out.append(verdict)
    return out


def read_rulings(ledger: Ledger, subject_id: str) -> list[StewardRuling]:
    """Every ruling on a subject's claims, oldest first."""
    return ordered_rulings(ledger.read_all(tables.RULINGS_LEDGER, subject_id, StewardRuling))

