"""Issue 29 (deliverables 3 and 4): tiny trees packed whole, the persistent parse cache, and the
file a task names sent before weaker evidence."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from click.testing import CliRunner

from lorekeeper.cli import main as cli_main
from lorekeeper.context import parse, tokens
from lorekeeper.context.diskcache import CACHE_FILE, DiskCache
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


# -- the cache between runs ------------------------------------------------------------------------


def _fresh_process_cache() -> None:
    """What a new `ctx pack` process starts with: no parse result in memory."""
    parse._cache.clear()
    parse._cache_bytes = 0


def test_repacking_an_unchanged_tree_is_answered_from_the_cache(click_tree: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["ctx", "pack", str(click_tree), "--task", "progress bar eta", "--budget", "5000", "--json"]
    _fresh_process_cache()
    first = json.loads(runner.invoke(cli_main, args, catch_exceptions=False).stdout)
    _fresh_process_cache()
    second = json.loads(runner.invoke(cli_main, args, catch_exceptions=False).stdout)
    assert (first["cached"], second["cached"]) == (False, True)
    assert second["text"] == first["text"] and second["files"] == first["files"]
    cache_file = Path(os.environ["LOREKEEPER_PACK_CACHE_DIR"]) / CACHE_FILE
    assert cache_file.is_file()
    # safe to delete: the next run packs again, the same bytes
    cache_file.unlink()
    _fresh_process_cache()
    third = json.loads(runner.invoke(cli_main, args, catch_exceptions=False).stdout)
    assert third["text"] == first["text"] and not third["cached"]
    # --no-cache stores nothing
    cache_file.unlink()
    assert runner.invoke(cli_main, [*args, "--no-cache"]).exit_code == 0
    assert not cache_file.exists()


def test_an_edited_file_is_parsed_again_and_the_others_come_from_the_cache(click_tree: Path, tmp_path: Path) -> None:
    root = tmp_path / "click"
    shutil.copytree(click_tree, root)
    cache = DiskCache(tmp_path / "cache")
    task = "shell completion for Choice options"
    _fresh_process_cache()
    before = pack(root, task=task, budget=6000, cache=cache)
    n = len(before.entries)
    assert cache.hits == 0
    edited = root / "shell_completion.py"
    edited.write_text(edited.read_text(encoding="utf-8") + "\n\ndef choice_marker_xyz():\n    return 1\n")
    _fresh_process_cache()
    hits = cache.hits
    after = pack(root, task=task + " choice_marker_xyz", budget=6000, cache=cache)
    assert cache.hits - hits == n - 1  # every file but the edited one, from the cache
    assert "choice_marker_xyz" in after.text  # the edit is seen: its file was parsed again
    # and the same pack with the cache as without it
    _fresh_process_cache()
    assert pack(root, task=task + " choice_marker_xyz", budget=6000).text == after.text


def test_a_damaged_cache_file_is_set_aside_and_never_fails_a_pack(sample_tree: Path, tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / CACHE_FILE).write_bytes(b"not a database at all" * 100)
    result = pack(sample_tree, task="validate_token", budget=2000, cache=DiskCache(folder))
    assert "def validate_token" in result.text
    assert any(p.name.startswith(CACHE_FILE + ".damaged-") for p in folder.iterdir())
    again = DiskCache(folder)
    _fresh_process_cache()
    assert pack(sample_tree, task="validate_token", budget=2000, cache=again).text == result.text
    assert again.hits == 1  # the fresh file holds the pack


def test_the_cache_stays_within_its_size(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path, max_bytes=200_000)
    for n in range(40):
        cache.put("parse", bytes([n]) * 20, os.urandom(20_000))  # incompressible: ~20 kB each
    assert cache.size() <= 200_000
    assert cache.get(bytes([39]) * 20) is not None  # the most recent stay
    assert cache.get(bytes([0]) * 20) is None  # the oldest went first
