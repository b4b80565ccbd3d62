"""Issue 24 d6, the judge's hostile set played against every file-taking command the other two
files leave out: the same bombs and special files given to `skills validate`, `skills edit --file`,
`skills rules edit --rule`, `eval --rules`, `facts add --document`, `facts ingest`, `audit append
--data`, `bench scenarios`, `ctx pack` (the path itself a FIFO or a link to /dev/zero), a 30 MB
SKILL.md, and a Stop hook whose transcript is /dev/zero. Each one: exit 2 within 10 s with a
stable code and no traceback, nothing written (the hook: exit 0, nothing printed, the refusal in
hooks.log)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from test_hostile_input import (
    LIMIT_S,
    _alarm,
    _skill,
    _tree,
    alias_bomb,
    deep_json,
    deep_yaml,
    fifo,
    nul_skill,
    numeric_description,
)

from helpers.cli import run_lorekeeper


def dev_zero_link(tmp: Path) -> Path:
    link = tmp / "zero.md"
    link.symlink_to("/dev/zero")
    return link


def skill_md_of(make: Callable[[Path], Path]) -> Callable[[Path], Path]:
    """The SKILL.md file of a hostile skill folder (what `skills edit --file` takes)."""
    return lambda tmp: make(tmp) / "SKILL.md"


def skill_30mb(tmp: Path) -> Path:
    return _skill(tmp / "big30", "name: big30\ndescription: Thirty megabytes.\n", "y" * (30 * 1024 * 1024))


def deep_json_file(tmp: Path) -> Path:
    p = tmp / "deep.json"
    p.write_text(deep_json(tmp), encoding="utf-8")
    return p


def non_utf8_doc(tmp: Path) -> Path:
    p = tmp / "doc.md"
    p.write_bytes(b"# Notes\n\xff\xfe not text\n")
    return p


def fifo_db(tmp: Path) -> Path:
    p = tmp / "backup.db"
    os.mkfifo(p)
    return p


def dev_zero_db(tmp: Path) -> Path:
    link = tmp / "zero.db"
    link.symlink_to("/dev/zero")
    return link


def fifo_backup(tmp: Path) -> Path:
    folder = tmp / "backup-2026"
    folder.mkdir()
    os.mkfifo(folder / "lorekeeper.db")
    return folder


Make = Callable[[Path], "Path | str"]
CASES: list[tuple[str, Make, Callable[[str], list[str]], tuple[str, ...]]] = [
    ("skills validate: 20,000-deep YAML", deep_yaml, lambda p: ["skills", "validate", p], ("ERR_INPUT_TOO_DEEP",)),
    ("skills validate: 30 MB SKILL.md", skill_30mb, lambda p: ["skills", "validate", p], ("ERR_INPUT_TOO_LARGE",)),
    ("skills validate: NUL bytes", nul_skill, lambda p: ["skills", "validate", p], ("ERR_INVALID_SPEC",)),
    ("skills validate: numeric description", numeric_description, lambda p: ["skills", "validate", p], ("ERR_INVALID_SPEC",)),
    ("skills validate: link to /dev/zero", dev_zero_link, lambda p: ["skills", "validate", p], ("ERR_NOT_REGULAR_FILE",)),
    ("skills import: 30 MB SKILL.md", skill_30mb, lambda p: ["skills", "import", p], ("ERR_INPUT_TOO_LARGE",)),
    ("skills import: link to /dev/zero", dev_zero_link, lambda p: ["skills", "import", p], ("ERR_NOT_REGULAR_FILE",)),
    ("skills edit --file: alias bomb", skill_md_of(alias_bomb), lambda p: ["skills", "edit", "code-review", "--file", p], ("ERR_INPUT_TOO_COMPLEX",)),
    ("skills edit --file: 20,000-deep YAML", skill_md_of(deep_yaml), lambda p: ["skills", "edit", "code-review", "--file", p], ("ERR_INPUT_TOO_DEEP",)),
    ("skills edit --file: 30 MB", skill_md_of(skill_30mb), lambda p: ["skills", "edit", "code-review", "--file", p], ("ERR_INPUT_TOO_LARGE",)),
    ("skills edit --file: NUL bytes", skill_md_of(nul_skill), lambda p: ["skills", "edit", "code-review", "--file", p], ("ERR_INVALID_SPEC",)),
    ("skills edit --file: FIFO", fifo, lambda p: ["skills", "edit", "code-review", "--file", p], ("ERR_NOT_REGULAR_FILE",)),
    ("skills edit --file: link to /dev/zero", dev_zero_link, lambda p: ["skills", "edit", "code-review", "--file", p], ("ERR_NOT_REGULAR_FILE",)),
    ("skills rules edit --rule: 50,000 deep", deep_json, lambda j: ["skills", "rules", "edit", "code-review", "cr-001", "--rule", j], ("ERR_INPUT_TOO_DEEP",)),
    ("eval --rules: 50,000-deep file", deep_json_file, lambda p: ["eval", "--rules", p, "--response", "-", "--no-record"], ("ERR_INPUT_TOO_DEEP", "ERR_INVALID_SPEC")),
    ("eval --response: link to /dev/zero", dev_zero_link, lambda p: ["eval", "--skill", "code-review", "--response", p], ("ERR_NOT_REGULAR_FILE",)),
    ("learn import: non-UTF-8", non_utf8_doc, lambda p: ["learn", "import", p], ("ERR_NOT_UTF8", "ERR_INVALID_SPEC")),
    ("facts add --document: FIFO", fifo, lambda p: ["facts", "add", "--project", "p", "--type", "pitfall", "--statement", "S", "--document", p, "--quote", "S"], ("ERR_NOT_REGULAR_FILE", "ERR_INVALID_SPEC")),
    ("facts add --document: non-UTF-8", non_utf8_doc, lambda p: ["facts", "add", "--project", "p", "--type", "pitfall", "--statement", "S", "--document", p, "--quote", "S"], ("ERR_NOT_UTF8", "ERR_INVALID_SPEC")),
    ("facts ingest: link to /dev/zero", dev_zero_link, lambda p: ["facts", "ingest", p, "--project", "p", "--no-extract"], ("ERR_NOT_REGULAR_FILE",)),
    ("audit append --data: FIFO", fifo, lambda p: ["audit", "append", "operator_note", "--data", p], ("ERR_NOT_REGULAR_FILE",)),
    ("audit append --data: 50,000 deep", deep_json_file, lambda p: ["audit", "append", "operator_note", "--data", p], ("ERR_INPUT_TOO_DEEP", "ERR_CANONICAL_JSON")),
    ("restore: a FIFO named .db", fifo_db, lambda p: ["restore", p], ("ERR_NOT_REGULAR_FILE", "ERR_BACKUP_INVALID")),
    ("restore: a .db link to /dev/zero", dev_zero_db, lambda p: ["restore", p], ("ERR_NOT_REGULAR_FILE", "ERR_BACKUP_INVALID")),
    ("restore: a folder whose lorekeeper.db is a FIFO", fifo_backup, lambda p: ["restore", p], ("ERR_NOT_REGULAR_FILE", "ERR_BACKUP_INVALID")),
    ("restore: not a database", non_utf8_doc, lambda p: ["restore", p], ("ERR_INVALID_INPUT", "ERR_BACKUP_INVALID", "ERR_INVALID_SPEC")),
    ("ctx pack: the path is a FIFO", fifo, lambda p: ["ctx", "pack", p, "--budget", "4000"], ("ERR_NOT_REGULAR_FILE",)),
    ("ctx pack: the path links to /dev/zero", dev_zero_link, lambda p: ["ctx", "pack", p, "--budget", "4000"], ("ERR_NOT_REGULAR_FILE",)),
    ("ctx read: the path is a FIFO", fifo, lambda p: ["ctx", "read", p], ("ERR_NOT_REGULAR_FILE", "ERR_INVALID_INPUT")),
]  # fmt: skip


@pytest.fixture(scope="module")
def closed_workspace(workspace_templates, tmp_path_factory: pytest.TempPathFactory) -> Path:
    ws = workspace_templates.copy(tmp_path_factory.mktemp("hostile3") / "ws")
    root = Path(ws.root)
    ws.close()
    return root


@pytest.mark.parametrize(("make", "argv", "codes"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hostile_input_is_refused_with_exit_2_and_nothing_written(
    closed_workspace: Path, tmp_path: Path, make: Make, argv: Callable[[str], list[str]], codes: tuple[str, ...]
) -> None:
    material = tmp_path / "material"
    material.mkdir()
    arg = str(make(material))
    before = _tree(closed_workspace)
    args = argv(arg)
    where = [] if args[0] == "ctx" else ["--workspace", str(closed_workspace)]
    with _alarm(LIMIT_S):
        r = run_lorekeeper(*where, *args, "--json", input="An answer.\n")
    assert r.returncode == 2, (r.returncode, r.stdout[-500:], r.stderr[-500:])
    assert "Traceback" not in r.stderr and "ERR_INTERNAL" not in r.stdout + r.stderr
    out = json.loads(r.stdout)
    error = out.get("error") or out["errors"][0]
    assert error["code"] in codes, error
    assert material.name in json.dumps(error) or error.get("file"), error  # where: the path (or the skill's file)
    assert _tree(closed_workspace) == before


def test_a_stop_hook_on_a_dev_zero_transcript_answers_in_time(closed_workspace: Path, tmp_path: Path) -> None:
    link = dev_zero_link(tmp_path)
    for transcript in (str(link), "/dev/zero"):
        stop = json.dumps({"hook_event_name": "Stop", "transcript_path": transcript, "session_id": "s"})
        before = _tree(closed_workspace)
        with _alarm(LIMIT_S):
            r = run_lorekeeper("hooks", "claude-code", "stop", "--workspace", str(closed_workspace), input=stop)
        assert r.returncode == 0 and r.stdout == "" and "Traceback" not in r.stderr, (r.stdout, r.stderr)
        after = {k: v for k, v in _tree(closed_workspace).items() if not k.startswith("logs/")}
        assert after == {k: v for k, v in before.items() if not k.startswith("logs/")}
    log = (closed_workspace / "logs" / "hooks.log").read_text(encoding="utf-8")
    assert log.count("ERR_NOT_REGULAR_FILE") >= 2, log[-800:]


def test_a_non_utf8_file_name_given_to_ctx_pack_is_refused_or_packed(tmp_path: Path) -> None:
    name = os.fsencode(tmp_path) + b"/bad\xff.py"
    with open(name, "wb") as fh:
        fh.write(b"def f():\n    return 1\n")
    with _alarm(LIMIT_S):
        r = run_lorekeeper("ctx", "pack", os.fsdecode(name), "--budget", "4000", "--json")
    assert r.returncode in (0, 2) and "Traceback" not in r.stderr, (r.returncode, r.stdout[-400:], r.stderr[-400:])
    assert "ERR_INTERNAL" not in r.stdout + r.stderr
