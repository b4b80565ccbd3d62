"""What a read command must not import (issue 26 d3: a lighter start for every command).

`lorekeeper facts list` opens the workspace, loads the key and verifies signed rows; it asks no
model, validates no model answer, matches no scope glob, checks no text for personal data and
migrates nothing, and its store is SQLite. Each library below costs tens to hundreds of milliseconds of every such
command when imported at the top of a module the workspace pulls in.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from lorekeeper.workspace import Workspace

#: modules (top-level names, or dotted lorekeeper modules) a read of facts must leave unloaded
NOT_FOR_A_READ = (
    "jsonschema",  # facts.extract: validates a model's answer
    "pathspec",  # facts.model: scope globs
    "lorekeeper.privacy.pii",  # memory.clarify: the PII gate of a summary
    "regex",  # evals: user regexes, compiled when a rule is parsed
    "sqlalchemy.dialects.postgresql",  # a SQLite store's command (a `postgresql_*` model option loaded it)
    "alembic",  # the store's migrations (an up-to-date store is checked without it)
    "anthropic",
    "mcp",
    "tiktoken",
    "tokenizers",
    "faiss",
    "numpy",
    "PySide6",
)

PROBE = """
import atexit, json, sys
names, root, report_to = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
def report():
    loaded = set(sys.modules)
    hit = [n for n in names if n in loaded or any(m.startswith(n + ".") for m in loaded)]
    with open(report_to, "w", encoding="utf-8") as f:
        json.dump(hit, f)
atexit.register(report)
sys.argv = ["lorekeeper", "--workspace", root, "facts", "list", "--json"]
from lorekeeper.entry import main
main()
"""


def test_facts_list_imports_no_model_schema_glob_pii_or_migration_library(
    demo_workspace: Workspace, tmp_path: Path
) -> None:
    report = tmp_path / "loaded.json"
    env = {**os.environ, "LOREKEEPER_AGENTD": "off"}  # this process itself, not the agent service
    out = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(NOT_FOR_A_READ), str(demo_workspace.root), str(report)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["facts"], "the demo's facts are listed"
    assert json.loads(report.read_text(encoding="utf-8")) == []  # none of them was imported
