"""Benchmark: the mechanical checks and the code's backstops in the subjects' languages (issue 25).

Reads every held-out case file in ``benchmarks/data/language_cases/<kind>.jsonl`` (written from how
company reports, newsrooms, wire services, statistics offices and interviews write in each of the 23
web languages, not from the code: see that folder's README), calls the public function that decides
each kind, and prints per kind and per language: the number of cases, accuracy, recall on the
positives, the false-positive rate on the negatives, and the number of exceptions. An exception is a
wrong answer and is also counted on its own (a missing function shows as every case an exception).

Kinds and the call that decides each:

* ``t1``: ``text.numbers.value_written_in(value, text, unit=unit)`` ([V] the value inside the quote);
* ``operator``: ``claims.comparisons.parse_comparison(text)`` ([R] the operator from the claim's words);
* ``operator_conflict``: ``claims.comparisons.operators_bound_to_figure(text, start, end)`` (the set of
  operators the words bind to one figure; two different ones refuse the criteria);
* ``privacy``: ``text.privacy.mentions_private_life(text)`` ([M] private statements are dropped);
* ``reported_speech``: ``claims.speaker.is_reported_speech("", text)``;
* ``other_speaker``: ``claims.speaker.named_other_speaker(text, quote, subject_names)`` (expected true
  when someone other than the subject is named as the speaker; compared as "a name came back or not");
* ``party_politics``: ``claims.claim_type.mentions_party_politics(text)``;
* ``guidance``: ``claims.claim_type.is_company_guidance(text)``;
* ``probability``: ``claims.stated_probability.parse_stated_probability(text)`` (value as a fraction
  and the kind exact / lower_bound / upper_bound, or None).

A case is a *positive* when the rule should fire (true; an operator other than ``eq``; at least one bound
operator; a stated probability) and a *negative* otherwise (the realistic look-alikes). Recall is the share
of positives answered exactly right; the false-positive rate is the share of negatives on which the rule
fired. Run: ``.venv/bin/python -m benchmarks.bench_languages [--kinds t1 privacy] [--langs da de]
[--json PATH] [--failures]``; it writes ``benchmarks/results/bench_languages.json`` unless ``--json``
names another path. Importing this module runs nothing.
"""

from __future__ import annotations

import argparse
import importlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CASES_DIR = ROOT / "benchmarks" / "data" / "language_cases"
RESULT_PATH = ROOT / "benchmarks" / "results" / "bench_languages.json"

# The order the table prints in: the kinds as the issue lists them, then the languages by web use.
KINDS = (
    "t1",
    "operator",
    "operator_conflict",
    "privacy",
    "reported_speech",
    "other_speaker",
    "party_politics",
    "guidance",
    "probability",
)
LANGUAGES = (
    "en", "es", "de", "fr", "ru", "ja", "pt", "it", "zh", "pl", "tr", "fa",
    "nl", "vi", "ar", "id", "ko", "uk", "cs", "he", "da", "sv", "nb",
)  # fmt: skip
PROBABILITY_TOLERANCE = 1e-6

Case = dict[str, Any]


def load_cases(folder: Path = CASES_DIR, kinds: Iterable[str] = KINDS) -> list[Case]:
    """Every case of the named kinds, in file order (one JSON object per line)."""
    cases: list[Case] = []
    for kind in kinds:
        path = folder / f"{kind}.jsonl"
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                cases.append(json.loads(line))
    return cases


def is_positive(case: Case) -> bool:
    """Whether the rule should fire on this case (the look-alikes are the negatives)."""
    expected = case["expected"]
    if case["kind"] == "operator":
        return bool(expected != "eq")
    if case["kind"] == "operator_conflict":
        return len(expected) > 0
    if case["kind"] == "probability":
        return expected is not None
    return bool(expected)


def _function(module: str, name: str) -> Callable[..., Any]:
    # Imported at call time so that a function another change has not landed yet counts as an
    # exception on its cases instead of stopping the whole benchmark.
    found: Callable[..., Any] = getattr(importlib.import_module(f"reliability_core.{module}"), name)
    return found


def _operator_name(answer: Any) -> str:
    return str(getattr(answer, "value", answer))


def answer_of(case: Case) -> Any:
    """Call the function that decides the case's kind, with the case's inputs; normalise the answer."""
    kind, text = case["kind"], case["text"]
    if kind == "t1":
        return bool(
            _function("text.numbers", "value_written_in")(float(case["value"]), text, unit=case["unit"])
        )
    if kind == "operator":
        return _operator_name(_function("claims.comparisons", "parse_comparison")(text))
    if kind == "operator_conflict":
        bound = _function("claims.comparisons", "operators_bound_to_figure")(
            text, case["figure_start"], case["figure_end"]
        )
        return sorted({_operator_name(op) for op in bound})
    if kind == "privacy":
        return bool(_function("text.privacy", "mentions_private_life")(text))
    if kind == "reported_speech":
        return bool(_function("claims.speaker", "is_reported_speech")("", text))
    if kind == "other_speaker":
        name = _function("claims.speaker", "named_other_speaker")(text, case["quote"], case["subject_names"])
        return name is not None
    if kind == "party_politics":
        return bool(_function("claims.claim_type", "mentions_party_politics")(text))
    if kind == "guidance":
        return bool(_function("claims.claim_type", "is_company_guidance")(text))
    if kind == "probability":
        found = _function("claims.stated_probability", "parse_stated_probability")(text)
        return None if found is None else [float(found[0]), str(found[1])]
    raise ValueError(f"unknown kind {kind!r}")


def is_right(case: Case, answer: Any) -> bool:
    """Whether the normalised answer is the expected one (probabilities: same kind, value within 1e-6)."""
    expected = case["expected"]
    if case["kind"] == "probability" and expected is not None and answer is not None:
        return bool(answer[1] == expected[1] and abs(answer[0] - expected[0]) <= PROBABILITY_TOLERANCE)
    return bool(answer == expected)


def fired(case: Case, answer: Any) -> bool:
    """Whether the rule fired: the answer is the positive side of the kind."""
    return is_positive({**case, "expected": answer})


@dataclass
class Tally:
    """Counts for one group of cases (a kind, a kind and language, or a kind and form)."""

    n: int = 0
    right: int = 0
    errors: int = 0
    positives: int = 0
    positives_right: int = 0
    negatives: int = 0
    negatives_fired: int = 0
    failures: list[str] = field(default_factory=list)

    def add(self, case: Case, answer: Any, error: str | None) -> None:
        self.n += 1
        right = error is None and is_right(case, answer)
        self.right += right
        self.errors += error is not None
        if is_positive(case):
            self.positives += 1
            self.positives_right += right
        else:
            self.negatives += 1
            self.negatives_fired += error is None and fired(case, answer)
        if not right:
            self.failures.append(case["id"] + (f" ({error})" if error else f" -> {answer!r}"))

    def figures(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "accuracy": _share(self.right, self.n),
            "positives": self.positives,
            "recall": _share(self.positives_right, self.positives),
            "negatives": self.negatives,
            "false_positive_rate": _share(self.negatives_fired, self.negatives),
            "errors": self.errors,
        }


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def run(cases: list[Case]) -> dict[str, dict[str, dict[str, Tally]]]:
    """Tallies per kind: ``{"all": {"all": t}, "lang": {lang: t}, "form": {form: t}}``."""
    out: dict[str, dict[str, dict[str, Tally]]] = {}
    for case in cases:
        error = None
        answer: Any = None
        try:
            answer = answer_of(case)
        except Exception as exc:  # an exception is a wrong answer, counted on its own
            error = f"{type(exc).__name__}: {exc}"[:160]
        groups = out.setdefault(case["kind"], {"all": {}, "lang": {}, "form": {}})
        for axis, key in (("all", "all"), ("lang", case["lang"]), ("form", case["form"])):
            groups[axis].setdefault(key, Tally()).add(case, answer, error)
    return out


def _pct(value: float | None) -> str:
    return "   -" if value is None else f"{100 * value:4.0f}"


def _row(label: str, t: Tally) -> str:
    f = t.figures()
    return (
        f"  {label:<22} n={f['n']:>4}  acc {_pct(f['accuracy'])}%  recall {_pct(f['recall'])}% "
        f"({f['positives']:>3})  FP rate {_pct(f['false_positive_rate'])}% ({f['negatives']:>3})  errors {f['errors']}"
    )


def report(tallies: dict[str, dict[str, dict[str, Tally]]], *, forms: bool, failures: bool) -> str:
    lines = []
    for kind in [k for k in KINDS if k in tallies]:
        groups = tallies[kind]
        lines.append(kind)
        lines.append(_row("all languages", groups["all"]["all"]))
        for lang in [lang for lang in LANGUAGES if lang in groups["lang"]]:
            lines.append(_row(lang, groups["lang"][lang]))
        if forms:
            for form in sorted(groups["form"]):
                lines.append(_row(f"form {form}", groups["form"][form]))
        if failures:
            lines.extend(f"    wrong: {item}" for item in groups["all"]["all"].failures)
    return "\n".join(lines)


def matrix(tallies: dict[str, dict[str, dict[str, Tally]]]) -> str:
    """Accuracy in per cent, one row per kind and one column per language: the table to publish."""
    langs = [lang for lang in LANGUAGES if any(lang in groups["lang"] for groups in tallies.values())]
    lines = ["accuracy %".ljust(18) + "  all" + "".join(f"{lang:>4}" for lang in langs)]
    for kind in [k for k in KINDS if k in tallies]:
        groups = tallies[kind]
        cells = [
            groups["lang"][lang].figures()["accuracy"] if lang in groups["lang"] else None for lang in langs
        ]
        lines.append(
            f"{kind:<18}{_pct(groups['all']['all'].figures()['accuracy']):>5}"
            + "".join(f"{_pct(cell):>4}" for cell in cells)
        )
    return "\n".join(lines)


def as_json(tallies: dict[str, dict[str, dict[str, Tally]]]) -> dict[str, Any]:
    return {
        "cases": sum(groups["all"]["all"].n for groups in tallies.values()),
        "kinds": {
            kind: {
                "all": groups["all"]["all"].figures(),
                "by_language": {lang: t.figures() for lang, t in groups["lang"].items()},
                "by_form": {form: t.figures() for form, t in sorted(groups["form"].items())},
                "wrong": groups["all"]["all"].failures,
            }
            for kind, groups in tallies.items()
        },
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    parser.add_argument("--langs", nargs="+", choices=LANGUAGES, default=None, help="default: every language")
    parser.add_argument(
        "--json",
        type=Path,
        default=None,
        help=f"where to write the figures (default {RESULT_PATH.relative_to(ROOT)} for a full run; a run "
        "narrowed by --kinds or --langs writes only where this says, so the published figures stay whole)",
    )
    parser.add_argument("--forms", action="store_true", help="also print the figures per form")
    parser.add_argument("--failures", action="store_true", help="also print every wrong case")
    args = parser.parse_args(argv)
    cases = [c for c in load_cases(kinds=args.kinds) if args.langs is None or c["lang"] in args.langs]
    tallies = run(cases)
    print(report(tallies, forms=args.forms, failures=args.failures))
    print()
    print(matrix(tallies))
    narrowed = args.langs is not None or set(args.kinds) != set(KINDS)
    target = args.json if args.json is not None else (None if narrowed else RESULT_PATH)
    if target is None:
        print("a narrowed run: figures not written (give --json PATH to keep them)")
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(as_json(tallies), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"figures written to {target}")


if __name__ == "__main__":
    main()
