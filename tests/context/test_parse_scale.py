"""Parsing at scale: worker processes and the content cache give the same pack as a plain serial
parse; the query sweep keeps modern TypeScript (variance after a comment, definitions inside
call chains)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lorekeeper.context import parse
from lorekeeper.context.pack import pack, parse_sources

TASK = "shell completion for Choice options"


def test_worker_processes_and_the_cache_give_the_same_pack(
    click_tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "tree"
    shutil.copytree(click_tree, root)
    shutil.copytree(click_tree, root / "copy")  # every file twice: the second copy comes from the cache
    monkeypatch.setattr(parse, "_cache", type(parse._cache)())
    monkeypatch.setattr(parse, "_cache_bytes", 0)
    monkeypatch.setenv("LOREKEEPER_PARSE_WORKERS", "0")
    serial = pack(root, task=TASK, budget=6000)
    monkeypatch.setattr(parse, "_cache", type(parse._cache)())
    monkeypatch.setattr(parse, "_cache_bytes", 0)
    monkeypatch.setenv("LOREKEEPER_PARSE_WORKERS", "1")
    parallel = pack(root, task=TASK, budget=6000)
    assert parallel.text == serial.text
    assert [e.to_dict() for e in parallel.entries] == [e.to_dict() for e in serial.entries]
    again = pack(root, task=TASK, budget=6000)  # all from the cache now
    assert again.text == serial.text


def test_parse_sources_keeps_order_and_survives_a_broken_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    items = [(f"m{k}.py", f"def f{k}(x):\n    return g{k}(x)\n") for k in range(6)]
    monkeypatch.setenv("LOREKEEPER_PARSE_WORKERS", "1")
    monkeypatch.setattr("sys.executable", "/bin/false")  # the worker dies at once: parsed here instead
    gen = parse_sources(items, True)
    while True:
        try:
            next(gen)
        except StopIteration as stop:
            files = stop.value
            break
    assert [pf.rel for pf in files] == [rel for rel, _ in items]
    assert [pf.definitions[0].calls for pf in files] == [{f"g{k}"} for k in range(6)]
    again = parse.parse_file("other.py", items[0][1])  # the cache answers under another name
    assert again.rel == "other.py" and again.definitions[0].name == "f0"


def test_typescript_variance_after_a_comment_and_definitions_in_call_chains() -> None:
    ts = (
        "export interface ZodObject<\n"
        "  /** @ts-ignore Cast variance */\n"
        "  out Shape extends Base = Loose,\n"
        "  out Config extends Cfg = Strip,\n"
        "> extends Other<Shape> {\n"
        "  safeParse(data: unknown): Result<Shape>;\n"
        "}\n"
        "////////////////////////////////////////////////////////////\n"
        "test('x', async () => {\n"
        "  const text = await ky('u', { onDownloadProgress() { seen = true; } }).text();\n"
        "});\n"
    )
    for detail in (False, True):
        pf = parse.parse_file("schemas.ts", ts, detail=detail)
        assert pf.parsed
        names = {d.name for d in pf.definitions}
        assert {"ZodObject", "onDownloadProgress"} <= names
