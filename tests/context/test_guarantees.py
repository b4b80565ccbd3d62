"""The five guarantees of a pack, on a multi-language tree and on a real package."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lorekeeper.context import tokens
from lorekeeper.context.pack import pack
from lorekeeper.context.render import HEADER_PREFIX
from lorekeeper.errors import InvalidInputError

HEADER = re.compile(
    r"^" + re.escape(HEADER_PREFIX) + r"(\S+) \[(full|map|signatures|reference) -(\d+)(; [^\]]*)?\]$", re.MULTILINE
)


@pytest.mark.parametrize("mode", ["auto", "full", "map", "signatures"])
def test_output_never_larger_than_input(sample_tree: Path, click_tree: Path, mode: str) -> None:
    for root in (sample_tree, click_tree):
        result = pack(root, mode=mode)
        assert tokens.count(result.text) == result.output_tokens
        assert result.output_tokens <= result.input_tokens


@pytest.mark.parametrize("budget", [200, 1000, 4000, 12000, 60000])
def test_budget_never_exceeded(click_tree: Path, budget: int) -> None:
    result = pack(click_tree, task="prompt ignores the default when hide_input is set", budget=budget)
    assert tokens.count(result.text) <= budget
    # whatever had to go, the pack says so: downgraded files carry the reason in their header
    for e in result.entries:
        assert e.mode in ("full", "map", "signatures", "reference", "omitted")


def test_forced_modes_respect_the_budget_too(click_tree: Path) -> None:
    result = pack(click_tree, mode="full", budget=5000)
    assert tokens.count(result.text) <= 5000
    assert "over budget" in result.text  # the downgrades are visible in the headers


def test_budget_smaller_than_the_header_is_refused(sample_tree: Path) -> None:
    with pytest.raises(InvalidInputError, match="raise --budget"):
        pack(sample_tree, budget=5)


def test_deterministic_bytes(click_tree: Path) -> None:
    a = pack(click_tree, task="shell completion for Choice options", budget=6000).text
    b = pack(click_tree, task="shell completion for Choice options", budget=6000).text
    assert a == b
    assert pack(click_tree, mode="signatures").text == pack(click_tree, mode="signatures").text


def test_parse_failure_falls_back_visibly(click_tree: Path, tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "tree"
    shutil.copytree(click_tree, root)
    (root / "broken.py").write_text("def ok():\n    return 1\n\ndef broken(:\n    return 2\n", encoding="utf-8")
    for kwargs in (
        {"mode": "signatures"},
        {"mode": "map"},
        {"task": "fix broken"},
        {"task": "progress bar", "budget": 3000},
    ):
        result = pack(root, **kwargs)
        entry = next(e for e in result.entries if e.rel == "broken.py")
        assert entry.parse_error_line == 4
        section = result.sections["broken.py"]
        assert "fallback: parse error at line 4" in section.splitlines()[0]
        if entry.mode == "full":
            assert "def broken(:" in section  # sent whole: nothing of it vanished
        elif entry.mode == "signatures":
            # map and signatures of a broken file: its lexical outline, every def line numbered
            assert "lexical outline" in section.splitlines()[0]
            assert "1: def ok():" in section and "4: def broken(:" in section
        else:
            assert entry.mode == "reference" and "budget" in section.splitlines()[0]


def test_every_file_header_gives_mode_and_dropped_tokens(sample_tree: Path, click_tree: Path) -> None:
    for root, kwargs in (
        (click_tree, {"mode": "signatures"}),
        (click_tree, {"task": "progress bar eta", "budget": 9000}),
        (sample_tree, {}),
    ):
        result = pack(root, **kwargs)
        headers = {m.group(1): (m.group(2), int(m.group(3))) for m in HEADER.finditer(result.text)}
        sent = [e for e in result.entries if e.mode != "omitted"]
        assert len(headers) == len(sent)
        for e in sent:
            mode, dropped = headers[e.rel]
            assert mode == e.mode
            body = result.sections[e.rel].split("\n", 1)[1] if "\n" in result.sections[e.rel] else ""
            assert dropped == max(0, e.original_tokens - tokens.count(body))


def test_binary_files_are_skipped_and_counted(sample_tree: Path) -> None:
    result = pack(sample_tree, mode="full")
    assert [s.rel for s in result.skipped] == ["logo.png"]
    assert "# skipped: 1 binary or oversized files" in result.text


def test_bad_arguments(sample_tree: Path) -> None:
    with pytest.raises(InvalidInputError):
        pack(sample_tree, mode="aggressive")
    with pytest.raises(InvalidInputError):
        pack(sample_tree, budget=0)
    with pytest.raises(InvalidInputError):
        pack(sample_tree / "missing")


def test_same_bytes_across_processes_with_different_hash_seeds(click_tree: Path, tmp_path: Path) -> None:
    """Set and dict orders change with PYTHONHASHSEED; the pack must not."""
    import os
    import subprocess
    import sys

    outs = []
    for seed in ("1", "2"):
        out = tmp_path / f"pack{seed}.txt"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run(
            [
                sys.executable,
                "-c",
                "from lorekeeper.cli import main; main()",
                "ctx",
                "pack",
                str(click_tree),
                "--task",
                "shell completion of Choice parameters",
                "--budget",
                "7000",
                "-o",
                str(out),
            ],
            check=True,
            env=env,
            capture_output=True,
        )
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
