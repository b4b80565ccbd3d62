"""Issue 29 (deliverables 3 and 4): tiny trees packed whole, the persistent parse cache, and the
file a task names sent before weaker evidence."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from lorekeeper.cli import main as cli_main
from lorekeeper.context import tokens
from lorekeeper.context.pack import pack

FIFTEEN_LINES = "".join(f"def f{i}(x):\n    return x + {i}\n\n" for i in range(5))


def _tiny(tmp_path: Path) -> Path:
    root = tmp_path / "tiny"
    root.mkdir()
    (root / "a.py").write_text(FIFTEEN_LINES, encoding="utf-8")
    assert len(FIFTEEN_LINES.splitlines()) == 15
    return root


def test_a_tiny_tree_is_packed_whole_within_a_budget(tmp_path: Path) -> None:
    root = _tiny(tmp_path)
    for target in (root, root / "a.py"):
        result = pack(target, budget=4000)
        assert result.output_tokens <= 4000 and tokens.count(result.text) == result.output_tokens
        assert FIFTEEN_LINES.strip() in result.text  # every line, whole
        assert [e.mode for e in result.entries] == ["full"]


def test_a_tiny_tree_without_a_budget_is_packed_whole_in_every_mode(tmp_path: Path) -> None:
    root = _tiny(tmp_path)
    runner = CliRunner()
    for mode in ("auto", "full", "signatures"):
        res = runner.invoke(cli_main, ["ctx", "pack", str(root), "--mode", mode])
        assert res.exit_code == 0, res.output
        assert "None" not in res.output
        assert "def f4(x)" in res.stdout
    assert "return x + 4" in runner.invoke(cli_main, ["ctx", "pack", str(root)]).stdout


def test_an_empty_tree_packs_to_its_header(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    result = pack(tmp_path / "empty")
    assert result.text.startswith("# Lorekeeper context pack") and result.entries == []
