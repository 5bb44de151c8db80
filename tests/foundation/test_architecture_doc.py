"""docs/ARCHITECTURE.md stays true to the tree ([#23] "docs/ARCHITECTURE.md opens with the
folder map and follows it"): every module of the core is in the folder map, every path the map
names exists, and every core name the doc's tables give resolves to something importable."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "ARCHITECTURE.md"
CORE = ROOT / "reliability_core"
# The first segment of a name the doc writes relative to reliability_core.
CORE_HEADS = frozenset(
    p.stem for p in CORE.iterdir() if (p.is_dir() and (p / "__init__.py").exists()) or p.suffix == ".py"
) - {"__init__"}


def folder_map() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("## The folder map")
    block = re.search(r"```\n(.*?)```", text[start:], re.S)
    assert block is not None, "the folder map is a fenced block under '## The folder map'"
    return block.group(1)


def mapped_paths() -> set[str]:
    """Paths under reliability_core/ the map names, from its indentation and names."""
    paths: set[str] = set()
    stack: list[tuple[int, str]] = []
    for line in folder_map().splitlines():
        if not line.strip() or line.strip().startswith("---"):
            continue
        indent = len(line) - len(line.lstrip())
        names_part = re.split(r"\s{2,}", line.strip())[0]
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parent = "/".join(name for _, name in stack)
        for name in (n.strip() for n in names_part.split(",")):
            path = f"{parent}/{name}" if parent else name
            paths.add(path.rstrip("/"))
        if names_part.endswith("/"):
            stack.append((indent, names_part.rstrip("/")))
    return {p.removeprefix("reliability_core/") for p in paths if p.startswith("reliability_core/")}


def core_modules() -> set[str]:
    """Every module and package of the core, as paths relative to reliability_core/."""
    found: set[str] = set()
    for path in CORE.rglob("*.py"):
        rel = path.relative_to(CORE)
        if "__pycache__" in rel.parts:
            continue
        if path.name == "__init__.py":
            if rel.parent != Path("."):
                found.add(rel.parent.as_posix())
        else:
            found.add(rel.as_posix())
    return found


def covered(module: str, mapped: set[str]) -> bool:
    """A module is on the map when it or a folder holding it is named there (a folder's own
    modules are listed one level down; the stand-in's handlers and the screen's internals are
    named by their folder)."""
    if module in mapped:
        return True
    parts = module.split("/")
    return any("/".join(parts[:i]) in mapped for i in range(1, len(parts))) and len(parts) > 2


def test_every_core_module_is_on_the_folder_map() -> None:
    mapped = mapped_paths()
    missing = sorted(m for m in core_modules() if not covered(m, mapped))
    assert not missing, f"modules missing from the folder map in docs/ARCHITECTURE.md: {missing}"


def test_every_path_on_the_folder_map_exists() -> None:
    stale = sorted(p for p in mapped_paths() if not (CORE / p).exists())
    assert not stale, f"the folder map names paths that do not exist: {stale}"


def test_every_test_folder_the_map_names_exists() -> None:
    named = set(re.findall(r"\btests/[\w/]+", folder_map()))
    assert named, "the folder map names each phase's test folder"
    assert not sorted(p for p in named if not (ROOT / p).is_dir())


def doc_core_names() -> list[str]:
    names = set(re.findall(r"`([A-Za-z_][\w.]*)`", DOC.read_text(encoding="utf-8")))
    return sorted(n for n in names if "." in n and n.split(".")[0] in CORE_HEADS and not n.endswith((".py", ".md")))


@pytest.mark.parametrize("name", doc_core_names())
def test_every_core_name_in_the_doc_resolves(name: str) -> None:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module("reliability_core." + ".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        break
    else:
        pytest.fail(f"docs/ARCHITECTURE.md names {name!r}: no such module under reliability_core")
    for attribute in parts[cut:]:
        assert hasattr(obj, attribute), f"docs/ARCHITECTURE.md names {name!r}: {attribute!r} not found"
        obj = getattr(obj, attribute)


def stages_toc_names() -> list[str]:
    import reliability_core.stages as stages

    names = set(re.findall(r"``([A-Za-z_][\w.]*)``", stages.__doc__ or ""))
    return sorted(n for n in names if "." in n or hasattr(stages, n))


@pytest.mark.parametrize("name", stages_toc_names())
def test_the_table_of_contents_in_stages_names_real_functions(name: str) -> None:
    """``stages.py`` is the method's table of contents: every stage function and every phase
    module or function it names exists."""
    import reliability_core.stages as stages

    if "." not in name:
        assert callable(getattr(stages, name)), f"stages.{name} is not a function"
        return
    test_every_core_name_in_the_doc_resolves(name)
