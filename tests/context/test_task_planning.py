"""Task-first planning on a tree far larger than the budget: the task's bodies come first.

The synthetic tree has a hub (`pkg/util.py`, imported by every module, so it tops the PageRank and
shares words with the task) and a target file (`pkg/headers.py`) holding the function the task
names, its callees and a caller. Before task-first planning, the plan kept every file and
downgraded the least relevant first, so at a small budget the hub outlived the target's bodies.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lorekeeper.context import tokens
from lorekeeper.context.pack import pack
from lorekeeper.context.render import HEADER_PREFIX

TASK = "parse_header drops the charset parameter of a quoted header value"
NEEDED = ("def parse_header(", "def _split_params(", "def _unquote(")

TARGET = '''"""Parsing of HTTP-like header values."""

from pkg import util


def _unquote(value):
    """Strip one pair of double quotes."""
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1]
    return value.replace('\\\\"', '"')


def _split_params(rest):
    """Split `a=1; b="2"` into pairs."""
    out = []
    for part in rest.split(";"):
        if "=" not in part:
            continue
        key, _, raw = part.partition("=")
        out.append((key.strip().lower(), _unquote(raw.strip())))
    return out


def parse_header(line):
    """`text/html; charset="utf-8"` -> ("text/html", {"charset": "utf-8"})."""
    main, _, rest = line.partition(";")
    params = {}
    for key, value in _split_params(rest):
        if key == "charset":
            continue
        params[key] = util.header_value(value)
    return main.strip(), params


def content_type(headers):
    """The content type and charset of a header mapping."""
    kind, params = parse_header(headers.get("content-type", ""))
    return kind, params.get("charset", util.DEFAULT_CHARSET)
'''


def _hub() -> str:
    lines = ['"""Helpers used everywhere: header values, charsets, quoting."""', "", 'DEFAULT_CHARSET = "utf-8"', ""]
    for k in range(40):
        lines += [
            "",
            f"def header_value_{k}(value, charset=DEFAULT_CHARSET, quoted=False):",
            f'    """Normalise a header value {k} with its charset and quoting."""',
            "    text = value.decode(charset) if isinstance(value, bytes) else str(value)",
            "    if quoted and text.startswith('\"'):",
            "        text = text.strip('\"')",
            f"    return text.strip().lower() + '{k}'",
        ]
    lines += ["", "", "def header_value(value):", "    return header_value_0(value)", ""]
    return "\n".join(lines)


def _module(k: int) -> str:
    body = [f'"""Feature module {k}."""', "", "from pkg import util", "", ""]
    for j in range(6):
        body += [
            f"def feature_{k}_{j}(request, options=None):",
            f'    """Handle feature {k}.{j} of a request."""',
            "    values = []",
            "    for name, raw in sorted(request.items()):",
            f"        values.append(util.header_value_{(k + j) % 40}(raw))",
            "    if options:",
            "        values.extend(sorted(options))",
            "    return values",
            "",
            "",
        ]
    return "\n".join(body)


@pytest.fixture(scope="module")
def hub_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hubtree")
    pkg = root / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('"""The package."""\n', encoding="utf-8")
    (pkg / "util.py").write_text(_hub(), encoding="utf-8")
    (pkg / "headers.py").write_text(TARGET, encoding="utf-8")
    for k in range(60):
        (pkg / f"feature_{k:02d}.py").write_text(_module(k), encoding="utf-8")
    return root


@pytest.mark.parametrize("budget", [900, 1500, 3000])
def test_the_targets_bodies_survive_a_hub_at_small_budgets(hub_tree: Path, budget: int) -> None:
    result = pack(hub_tree, task=TASK, budget=budget)
    assert tokens.count(result.text) <= budget
    for needed in NEEDED:
        assert needed in result.text, f"{needed} missing at {budget}"
    target = next(e for e in result.entries if e.rel == "pkg/headers.py")
    # whole bodies in its map, or the whole file when that costs less than the map with them
    assert (target.mode == "map" and "parse_header" in target.bodies) or (
        target.mode == "full" and target.sent_tokens <= target.original_tokens + 20
    )
    hub = next(e for e in result.entries if e.rel == "pkg/util.py")
    assert hub.mode != "full"  # the hub is central, but the task's bodies came first
    # the target's section comes first, before any other file
    first = next(line for line in result.text.splitlines() if line.startswith(HEADER_PREFIX + "pkg/"))
    assert first.startswith(HEADER_PREFIX + "pkg/headers.py ")


def test_files_left_out_are_listed_by_path_in_the_index(hub_tree: Path) -> None:
    result = pack(hub_tree, task=TASK, budget=1500)
    assert result.indexed, "a tree this large for the budget lists some files by path only"
    index = result.text.split("=== index:", 1)[1]
    for rel in result.indexed:
        assert rel.rsplit("/", 1)[-1] in index
        assert rel not in result.sections
        entry = next(e for e in result.entries if e.rel == rel)
        assert entry.mode == "omitted" and entry.reason.startswith("index")
    assert result.output_tokens == tokens.count(result.text)


def test_a_budget_below_the_bodies_still_fits_and_keeps_the_target_named(hub_tree: Path) -> None:
    result = pack(hub_tree, task=TASK, budget=260)
    assert tokens.count(result.text) <= 260
    assert "headers.py" in result.text


def test_task_planning_is_deterministic(hub_tree: Path) -> None:
    assert pack(hub_tree, task=TASK, budget=1500).text == pack(hub_tree, task=TASK, budget=1500).text
