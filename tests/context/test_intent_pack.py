"""The intent drives the plan: a bug report pins the raising code and its tests whole, where the
same words asked as an exploration do not; a pasted traceback points at the code by file and line."""

from __future__ import annotations

import textwrap
from pathlib import Path

from lorekeeper.context import tokens
from lorekeeper.context.pack import pack

CONFIG = '''
    """Reading the settings file."""
    from __future__ import annotations


    class ConfigError(Exception):
        """The settings file cannot be used."""


    def load_config(path: str) -> dict[str, str]:
        """Read and parse the settings file at `path`."""
        with open(path, encoding="utf-8") as fh:
            return parse_config(fh.read())


    def parse_config(text: str) -> dict[str, str]:
        """Parse `key = value` lines; blank lines and comments are skipped."""
        if not text.strip():
            raise ConfigError("the config file is empty")
        out: dict[str, str] = {}
        for number, line in enumerate(text.splitlines(), 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if "=" not in line:
                raise ConfigError(f"line {number}: expected key = value, got {line!r}")
            key, value = (part.strip() for part in line.split("=", 1))
            out[key] = value
        return out


    def config_summary(config: dict[str, str]) -> str:
        """One line per setting, sorted by key."""
        return "\\n".join(f"{k} = {config[k]}" for k in sorted(config))
'''
TESTS = """
    import pytest

    from app.config import ConfigError, config_summary, load_config, parse_config


    def test_parse_config_reads_pairs():
        assert parse_config("a = 1\\nb = two") == {"a": "1", "b": "two"}


    def test_parse_config_rejects_an_empty_file():
        with pytest.raises(ConfigError):
            parse_config("   \\n")


    def test_parse_config_skips_comments_and_blank_lines():
        text = "# header\\n\\na = 1  # trailing\\n\\n# footer\\n"
        assert parse_config(text) == {"a": "1"}


    def test_parse_config_keeps_equal_signs_in_values():
        assert parse_config("url = http://x/?a=b") == {"url": "http://x/?a=b"}


    @pytest.mark.parametrize("line", ["novalue", "  just words  ", "[section]"])
    def test_parse_config_rejects_lines_without_equal(line):
        with pytest.raises(ConfigError, match="expected key = value"):
            parse_config(f"a = 1\\n{line}\\n")


    def test_load_config_reads_the_file(tmp_path):
        path = tmp_path / "settings.cfg"
        path.write_text("name = demo\\nlevel = debug\\n", encoding="utf-8")
        assert load_config(str(path)) == {"name": "demo", "level": "debug"}


    def test_config_summary_sorts_by_key():
        assert config_summary({"b": "2", "a": "1"}) == "a = 1\\nb = 2"
"""
FILLER = '''
    """Helpers for {name}."""


    def {name}_total(values: list[int]) -> int:
        """Sum of the values, the negative ones counted as zero."""
        total = 0
        for value in values:
            total += max(0, value)
        return total


    def {name}_label(value: int, unit: str = "items") -> str:
        """A short label such as '3 items'."""
        if value == 1:
            return f"1 {{unit.rstrip('s')}}"
        return f"{{value}} {{unit}}"
'''


def _tree(root: Path) -> Path:
    files = {"app/__init__.py": "", "app/config.py": CONFIG, "tests/test_config.py": TESTS}
    for name in ("orders", "stock", "billing", "users", "mail", "reports", "search", "audit", "export", "backup"):
        files[f"app/{name}.py"] = FILLER.format(name=name)
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return root


def _whole(result: object, root: Path) -> set[str]:
    from lorekeeper.context.parse import parse_file

    out: set[str] = set()
    for e in result.entries:  # type: ignore[attr-defined]
        if e.mode == "full":
            out |= {d.qualname for d in parse_file(e.rel, (root / e.rel).read_text()).definitions}
        out |= set(e.bodies)
    return out


BUDGET = 800


def test_fix_bug_keeps_the_raising_function_and_its_test_whole(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    fix = pack(root, task="ConfigError raised by parse_config on an empty config file", budget=BUDGET)
    explore = pack(root, task="how does parse_config read the config file?", budget=BUDGET)
    assert fix.intent.task_type == "fix_bug" and explore.intent.task_type == "explore"
    assert tokens.count(fix.text) <= BUDGET and tokens.count(explore.text) <= BUDGET
    fix_whole, explore_whole = _whole(fix, root), _whole(explore, root)
    assert "parse_config" in fix_whole
    assert "test_parse_config_rejects_an_empty_file" in fix_whole
    assert "def test_parse_config_rejects_an_empty_file():\n    with pytest.raises(ConfigError):" in fix.text
    # the same words asked as a question: the code first, not the test of the error
    assert "parse_config" in explore_whole
    assert "test_parse_config_rejects_an_empty_file" not in explore_whole


def test_traceback_frame_points_at_the_function(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    trace = (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.11/site-packages/app/config.py", line 14, in load_config\n'
        '  File "/venv/lib/python3.11/site-packages/app/config.py", line 22, in parse_config\n'
        "app.config.ConfigError: line 3: expected key = value"
    )
    result = pack(root, task=trace, budget=BUDGET)
    assert result.intent.task_type == "fix_bug"
    assert result.intent.frames[-1] == ("/venv/lib/python3.11/site-packages/app/config.py", 22, "parse_config")
    whole = _whole(result, root)
    assert {"parse_config", "load_config"} <= whole
    intent_layer = next(layer for layer in result.layers if layer["layer"] == "intent")
    assert "traceback frame app/config.py:parse_config" in intent_layer["note"]
