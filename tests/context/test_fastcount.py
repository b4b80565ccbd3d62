"""The cached o200k table gives quicktok's exact counts (ctx read no longer loads the vocabulary)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from lorekeeper.context import fastcount, tokens

EDGE_CASES = [
    "hello world",
    "  \n\n  x",
    "don't DON'T I'M we'll",
    "a\x1c b\x1f\x0b\x0c",
    "\t\t\n \r\n",
    "12345678 1.5e10",
    "foo//bar\n/ */ /**",
    "CamelCaseWORDSHere parseHTTPHeader_v2",
    "x  \n",
    "    return self._zod.parse(payload)  # comment\n",
    "'s's ''' \"\"\"",
]


@pytest.fixture()
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> fastcount.Table:
    monkeypatch.setenv("LOREKEEPER_CACHE_DIR", str(tmp_path))
    fastcount.write_table(tokens.encoding(), fastcount.cache_path())
    t = fastcount.Table(fastcount.cache_path())
    return t


def test_table_counts_equal_quicktok_on_real_sources(table: fastcount.Table) -> None:
    root = Path(fastcount.__file__).parents[1]
    files = sorted(root.rglob("*.py"))[:120]
    checked = 0
    for f in files:
        text = f.read_text(encoding="utf-8")
        if not text.isascii():
            continue
        assert table.count(text) == len(tokens.encode(text)), f
        checked += 1
    assert checked > 50
    for text in EDGE_CASES:
        assert table.count(text) == len(tokens.encode(text)), repr(text)


def test_ctx_read_counts_from_the_table_without_loading_quicktok(table: fastcount.Table, tmp_path: Path) -> None:
    src = tmp_path / "small.py"
    src.write_text("def f(a: int) -> int:\n    return a + 1\n", encoding="utf-8")
    code = (
        "import sys\n"
        "from lorekeeper.context.read import read_file\n"
        f"r = read_file(__import__('pathlib').Path({str(src)!r}))\n"
        "print(r.rendered.original_tokens, 'quicktok' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    n, loaded = out.stdout.split()
    assert int(n) == tokens.count(src.read_text(encoding="utf-8"))
    assert loaded == "False"
