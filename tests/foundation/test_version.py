from pathlib import Path

from reliability_core.version import compute_method_version, method_version, tree_hash


def _tree(root: Path) -> None:
    (root / "reliability_core" / "prompts").mkdir(parents=True)
    (root / "reliability_core" / "constants.py").write_text("PRIOR = 2\n")
    (root / "reliability_core" / "prompts" / "judge.md").write_text("Judge literally.\n")
    (root / "reliability_dagster").mkdir()
    (root / "reliability_dagster" / "assets.py").write_text("x = 1\n")


def test_same_tree_gives_the_same_version(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    _tree(a)
    _tree(b)
    assert compute_method_version(a) == compute_method_version(b)
    assert compute_method_version(a).startswith("0.1.0+")


def test_line_endings_do_not_change_the_version(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    _tree(a)
    _tree(b)
    (b / "reliability_core" / "constants.py").write_bytes(b"PRIOR = 2\r\n")
    assert tree_hash(a) == tree_hash(b)


def test_changing_a_prompt_constant_or_code_line_changes_the_version(tmp_path: Path) -> None:
    _tree(tmp_path)
    before = compute_method_version(tmp_path)
    for rel, text in [
        ("reliability_core/prompts/judge.md", "Judge loosely.\n"),
        ("reliability_core/constants.py", "PRIOR = 3\n"),
        ("reliability_dagster/assets.py", "x = 2\n"),
    ]:
        path = tmp_path / rel
        original = path.read_text()
        path.write_text(text)
        assert compute_method_version(tmp_path) != before, rel
        path.write_text(original)
    assert compute_method_version(tmp_path) == before


def test_caches_and_tests_are_not_part_of_the_method(tmp_path: Path) -> None:
    _tree(tmp_path)
    before = compute_method_version(tmp_path)
    (tmp_path / "reliability_core" / "__pycache__").mkdir()
    (tmp_path / "reliability_core" / "__pycache__" / "x.py").write_text("junk")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text("junk")
    assert compute_method_version(tmp_path) == before


def test_offline_runs_are_labelled_in_the_version() -> None:
    assert method_version(offline=True).endswith(".offline-rules")
    assert "offline" not in method_version(offline=False)


def test_the_source_policy_is_part_of_the_method_and_the_price_table_is_not(tmp_path: Path) -> None:
    _tree(tmp_path)
    (tmp_path / "reliability_core" / "policy").mkdir()
    (tmp_path / "reliability_core" / "policy" / "sources.yaml").write_text("version: 1\n")
    (tmp_path / "reliability_core" / "providers").mkdir()
    (tmp_path / "reliability_core" / "providers" / "prices.yaml").write_text("models: {}\n")
    before = compute_method_version(tmp_path)
    (tmp_path / "reliability_core" / "providers" / "prices.yaml").write_text("models: {x: {input: 1, output: 2}}\n")
    assert compute_method_version(tmp_path) == before, "a price changes what a run costs, never a verdict"
    (tmp_path / "reliability_core" / "policy" / "sources.yaml").write_text("version: 2\n")
    assert compute_method_version(tmp_path) != before


def test_the_source_policy_the_pipeline_reads_is_hashed_into_the_method_version() -> None:
    from reliability_core.providers.pricing import DEFAULT_PRICES_PATH
    from reliability_core.verdicts.sources import DEFAULT_POLICY_PATH
    from reliability_core.version import _PACKAGES_ROOT, method_files

    files = method_files(_PACKAGES_ROOT)
    assert DEFAULT_POLICY_PATH in files
    assert DEFAULT_PRICES_PATH.exists() and DEFAULT_PRICES_PATH not in files
