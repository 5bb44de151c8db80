"""Extract the judge-directed attacks of promptfoo's ``judge-prompt-injection`` example
(promptfoo/promptfoo, MIT) into ``data/steering/public/promptfoo_judge.jsonl`` and its
benign answers into ``promptfoo_judge_benign.jsonl``: the first public writer whose attacks
aim at a judge (a model grading an answer, or choosing the better of two), as the attacks on
this product's judges do (issue 28). Every other public writer attacks a chatbot's system
prompt or an agent.

The example's test files (``promptfooconfig*.yaml``) are copied into
``data/steering/upstream/promptfoo-judge-prompt-injection/`` with their commits and hashes
(``MANIFEST.md`` there); this script reads that folder, so the output is reproducible from
the repository. Run by hand after changing the copies:

    python tools/steering_data/extract_promptfoo_judge.py

**The labelling rule** (promptfoo's own labels, read mechanically; nothing is judged here):

- The judged texts of a test are its ``response``, ``output``, ``payload``, ``response_a``
  and ``response_b`` variables (never the question, the rubric or the assertion).
- A test is **not an attack** when its description or metric starts with "baseline" or
  "clean", or its file is one the example itself calls non-adversarial
  (``NOT_ATTACK_FILES``: "These aren't adversarial attacks - they're realistic edge cases").
  Its judged texts are benign.
- Otherwise it is an attack test. With one judged text, that text is the attack. With two,
  the attack is the one the assertion says must not win ("FAIL if B selected", "FAIL if
  B", or a
  JavaScript check that the winner is A); the other one is not used at all (in some tests
  it carries an injection too, "Both have injections"), so no attack test adds benign text.
  A pair whose assertion names no loser is skipped and reported.
- A text's category is its test's metric, or where the test names none the prefix of its
  description ("Jailbreak: ..." -> ``promptfoo-judge/jailbreak``).
- Each distinct text once (files in name order, the first occurrence kept; an attack text
  that is also a benign one stays an attack and leaves the benign file).

All texts are English (two attacks quote one line each in Chinese, French and German).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
UPSTREAM = ROOT / "data" / "steering" / "upstream" / "promptfoo-judge-prompt-injection"
OUT = ROOT / "data" / "steering" / "public" / "promptfoo_judge.jsonl"
BENIGN_OUT = OUT.with_name("promptfoo_judge_benign.jsonl")
SOURCE = "promptfoo:examples/judge-prompt-injection"
JUDGED = ("response", "output", "payload", "response_a", "response_b")
NOT_ATTACK_FILES = frozenset({"promptfooconfig-edge-cases.yaml"})
FAIL_IF = re.compile(r"FAIL if (?:Response )?([AB])\b(?: is)?(?: selected)?", re.IGNORECASE)
WINNER_IS = re.compile(r"winner\s*===\s*[\"']([AB])[\"']")


Test = dict[str, Any]  # one entry of a file's ``tests:`` as PyYAML reads it


def assertions(test: Test) -> list[dict[str, Any]]:
    return [a for a in test.get("assert") or [] if isinstance(a, dict)]


def is_baseline(test: Test) -> bool:
    labels = [str(test.get("description", ""))] + [str(a.get("metric", "")) for a in assertions(test)]
    return any(label.strip().lower().startswith(("baseline", "clean")) for label in labels)


def kind_of(test: Test) -> str:
    """A test's kind where it names no metric (the two rubric-grader files): its description's
    prefix ("Jailbreak: Developer testing mode" -> ``jailbreak``)."""
    prefix, sep, _ = str(test.get("description", "")).partition(":")
    return re.sub(r"[^a-z0-9]+", "-", prefix.lower()).strip("-") if sep else "none"


def loser(test: Test) -> str | None:
    """Which of a pair the assertion says must not win (``A`` or ``B``), if it says so."""
    texts = [str(a.get("value", "")) for a in assertions(test)]
    fails: set[str] = {m for t in texts for m in FAIL_IF.findall(t)}
    if len(fails) == 1:
        return fails.pop()
    winners: set[str] = {m for t in texts for m in WINNER_IS.findall(t)}
    if len(winners) == 1:
        return "B" if winners.pop() == "A" else "A"
    return None


def labelled(path: Path) -> tuple[list[tuple[str, str, str]], list[str]]:
    """(text, label, metric) of a file's judged texts, and the tests skipped (with why)."""
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    out: list[tuple[str, str, str]] = []
    skipped: list[str] = []
    for test in doc.get("tests", []) or []:
        vars_ = test.get("vars", {}) or {}
        judged = {k: str(vars_[k]) for k in JUDGED if k in vars_}
        metric = next((str(a["metric"]) for a in assertions(test) if "metric" in a), None) or kind_of(test)
        if not judged:
            skipped.append(f"{path.name}: {test.get('description')}: no judged text")
            continue
        if path.name in NOT_ATTACK_FILES or is_baseline(test):
            out.extend((text, "clean", metric) for text in judged.values())
        elif len(judged) == 1:
            out.append((next(iter(judged.values())), "steering", metric))
        elif (which := loser(test)) is not None and f"response_{which.lower()}" in judged:
            out.append((judged[f"response_{which.lower()}"], "steering", metric))
        else:
            skipped.append(f"{path.name}: {test.get('description')}: the assertion names no loser")
    return out, skipped


def row(text: str, label: str, metric: str, file: str) -> dict[str, object]:
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    return {
        "text": text,
        "label": label,
        "lang": "en",
        "source": f"{SOURCE}/{file}",
        "category": f"promptfoo-judge/{metric}",
        "group": f"promptfoo-judge:{digest}",
        "context_dependent": False if label == "steering" else None,
    }


def extract(folder: Path) -> tuple[list[dict[str, object]], list[dict[str, object]], list[str]]:
    attacks: dict[str, dict[str, object]] = {}
    benign: dict[str, dict[str, object]] = {}
    skipped: list[str] = []
    for path in sorted(folder.glob("promptfooconfig*.yaml")):
        rows, why = labelled(path)
        skipped += why
        for text, label, metric in rows:
            text = text.removesuffix("\n")
            if not text.strip():
                continue
            if label == "steering":
                attacks.setdefault(text, row(text, label, metric, path.name))
            else:
                benign.setdefault(text, row(text, label, metric, path.name))
    return list(attacks.values()), [r for t, r in benign.items() if t not in attacks], skipped


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> None:
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows), encoding="utf-8"
    )


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else UPSTREAM
    attacks, benign, skipped = extract(folder)
    write_jsonl(OUT, attacks)
    write_jsonl(BENIGN_OUT, benign)
    for line in skipped:
        print("skipped:", line)
    print(f"{len(attacks)} attacks into {OUT}, {len(benign)} benign into {BENIGN_OUT}")


if __name__ == "__main__":
    main()
