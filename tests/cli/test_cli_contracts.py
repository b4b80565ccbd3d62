"""The public CLI contracts of DESIGN.md, run as a user runs them: real files, the command's entry
point in this process (tests/helpers/cli.py), and a real process where the process is the point
(exact stdin bytes through a pipe, the exit code of a failing start)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from helpers.cli import run_lorekeeper, run_lorekeeper_process

RULES = {
    "version": 1,
    "skill": "git-manager",
    "rules": [
        {
            "id": "gm-001",
            "name": "No force push",
            "type": "string_not_contains",
            "value": "--force",
            "severity": "warning",
        },
        {"id": "gm-002", "name": "Response under 40 chars", "type": "max_length", "value": 40, "severity": "info"},
    ],
}


def lk(*args: str, stdin: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    """`python -m lorekeeper ...` in this process: exit code, stdout and stderr (bytes) as a process gives them."""
    return run_lorekeeper(*args, input=stdin, env={**os.environ, **(env or {})}, text=False)


def lk_process(*args: str, stdin: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    """`python -m lorekeeper ...` in a real subprocess."""
    return run_lorekeeper_process(*args, input=stdin, env={**os.environ, **(env or {})}, text=False)


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("cli") / "ws"
    r = lk("init", str(root), "--demo", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["skills"] >= 8
    return root


def test_eval_rules_file_json_contract(tmp_path: Path) -> None:
    rules = tmp_path / "r.evals.json"
    rules.write_text(json.dumps(RULES), encoding="utf-8")
    resp = tmp_path / "resp.txt"
    resp.write_text("Run git push --force on the main branch now!", encoding="utf-8")
    r = lk("eval", "--rules", str(rules), "--response", str(resp), "--json")
    assert r.returncode == 0  # evals never block
    out = json.loads(r.stdout)
    assert out == {
        "passed": False,
        "results": [
            {
                "id": "gm-001",
                "name": "No force push",
                "type": "string_not_contains",
                "severity": "warning",
                "passed": False,
            },
            {
                "id": "gm-002",
                "name": "Response under 40 chars",
                "type": "max_length",
                "severity": "info",
                "passed": False,
            },
        ],
        "footnote": "Eval: ⚠️ No force push | ℹ️ Response under 40 chars",
    }
    strict = lk("eval", "--rules", str(rules), "--response", str(resp), "--json", "--strict")
    assert strict.returncode == 1


def test_eval_reads_stdin_exactly_and_strict_passes(tmp_path: Path) -> None:
    rules = tmp_path / "r.json"
    rules.write_text(json.dumps(RULES), encoding="utf-8")
    # 40 code points of multi-byte text, with CRLF kept as is.
    text = "é" * 38 + "\r\n"
    r = lk_process("eval", "--rules", str(rules), "--response", "-", "--json", "--strict", stdin=text)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["passed"] is True and out["footnote"] == ""
    r = lk_process("eval", "--rules", str(rules), "--response", "-", "--json", stdin=text + "x")
    assert json.loads(r.stdout)["footnote"] == "Eval: ℹ️ Response under 40 chars"


def test_invalid_rules_file_exits_2_naming_file_and_rule(tmp_path: Path) -> None:
    rules = tmp_path / "bad.evals.json"
    rules.write_text(
        json.dumps({"rules": [{"id": "oops-7", "type": "regex_match", "pattern": "([", "severity": "warning"}]})
    )
    r = lk("eval", "--rules", str(rules), "--response", "-", stdin="x")
    assert r.returncode == 2
    err = r.stderr.decode()
    assert "ERR_INVALID_SPEC" in err and str(rules) in err and "oops-7" in err
    rj = lk("eval", "--rules", str(rules), "--response", "-", "--json", stdin="x")
    assert rj.returncode == 2
    assert json.loads(rj.stdout)["error"]["rule_id"] == "oops-7"


def test_eval_with_skill_and_project_fork(ws: Path, tmp_path: Path) -> None:
    r = lk("--workspace", str(ws), "skills", "list", "--json")
    skills = json.loads(r.stdout)["skills"]
    forks = [s for s in skills if s["project"]]
    assert forks, "the demo workspace has project forks"
    fork = forks[0]
    r = lk(
        "eval",
        "--skill",
        fork["name"],
        "--project",
        fork["project"],
        "--response",
        "-",
        "--json",
        "--workspace",
        str(ws),
        stdin="",
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert len(out["results"]) == fork["rules"]
    r = lk("eval", "--skill", "no-such-skill", "--response", "-", "--workspace", str(ws), stdin="x")
    assert r.returncode == 3 and b"ERR_NOT_FOUND" in r.stderr


def test_route_json_contract(ws: Path) -> None:
    r = lk("route", "Please review this pull request for XSS and SQL injection", "--json", "--workspace", str(ws))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert set(out) == {"skills", "hint"}
    assert out["skills"], "a review request routes to at least one skill"
    first = out["skills"][0]
    assert set(first) == {"name", "score", "triggers", "keywords"}
    assert first["score"] == 2 * len(first["triggers"]) + len(first["keywords"])
    scores = [(-s["score"], s["name"]) for s in out["skills"]]
    assert scores == sorted(scores) and len(out["skills"]) <= 5
    assert out["hint"].startswith("SKILLS_HINT (focus on these):\n- " + first["name"] + ": ")
    r = lk("route", "zzz qqq", "--json", "--workspace", str(ws))
    assert json.loads(r.stdout) == {"skills": [], "hint": ""}
    r = lk("route", "review deploy test release migrate audit", "--json", "--top", "2", "--workspace", str(ws))
    assert len(json.loads(r.stdout)["skills"]) == 2


def test_workspace_from_environment(ws: Path) -> None:
    r = lk("skills", "list", "--json", env={"LOREKEEPER_WORKSPACE": str(ws)})
    assert r.returncode == 0 and len(json.loads(r.stdout)["skills"]) >= 8


def test_skills_show_validate_import(ws: Path, tmp_path: Path) -> None:
    r = lk("skills", "show", "git-manager", "--json", "--workspace", str(ws))
    assert r.returncode == 0
    shown = json.loads(r.stdout)
    assert shown["content"].startswith("---") and shown["rules"]
    good = tmp_path / "lib" / "my-skill"
    good.mkdir(parents=True)
    (good / "SKILL.md").write_text(
        '---\nname: my-skill\ndescription: Mine.\nmetadata:\n  triggers: "frobnicate"\n---\n# Mine\n'
    )
    r = lk("skills", "validate", str(tmp_path / "lib"), "--json")
    assert r.returncode == 0 and json.loads(r.stdout) == {"valid": True, "skills": ["my-skill"], "errors": []}
    r = lk("skills", "import", str(good), "--workspace", str(ws), "--json")
    assert json.loads(r.stdout)["created"] == ["my-skill"]
    r = lk("route", "frobnicate it", "--json", "--workspace", str(ws))
    assert json.loads(r.stdout)["skills"][0]["name"] == "my-skill"
    bad = tmp_path / "lib" / "Bad_Skill"
    bad.mkdir()
    (bad / "SKILL.md").write_text("---\nname: Bad_Skill\ndescription: x\n---\n")
    r = lk("skills", "validate", str(tmp_path / "lib"), "--json")
    assert r.returncode == 2
    errs = json.loads(r.stdout)["errors"]
    assert errs[0]["field"] == "name" and "Bad_Skill" in errs[0]["file"]
    r = lk("skills", "import", str(bad), "--workspace", str(ws))
    assert r.returncode == 2 and b"ERR_INVALID_SPEC" in r.stderr


def test_versions_and_restore_from_cli(ws: Path, tmp_path: Path) -> None:
    r = lk("skills", "versions", "git-manager", "--json", "--workspace", str(ws))
    assert json.loads(r.stdout)["versions"][0]["version"] == 1
    r = lk("skills", "restore", "git-manager", "1", "--json", "--workspace", str(ws))
    assert r.returncode == 0  # identical content: no new version needed
    r = lk("skills", "restore", "git-manager", "9", "--workspace", str(ws))
    assert r.returncode == 3


def test_missing_workspace_is_a_clear_error(tmp_path: Path) -> None:
    r = lk_process("route", "x", "--workspace", str(tmp_path / "nowhere"))
    assert r.returncode == 4
    assert b"lorekeeper init" in r.stderr


def test_default_workspace_is_created_on_first_use() -> None:
    r = lk("route", "review my code", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["skills"]


def test_validate_zip_names_the_archive_member(tmp_path: Path) -> None:
    import zipfile

    z = tmp_path / "pack.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("pack/good-one/SKILL.md", "---\nname: good-one\ndescription: Fine.\n---\n# ok\n")
        zf.writestr("pack/bad-one/SKILL.md", "---\nname: bad-one\n---\n# no description\n")
    r = lk("skills", "validate", str(z), "--json")
    assert r.returncode == 2
    out = json.loads(r.stdout)
    assert out["skills"] == ["good-one"]
    assert out["errors"][0]["field"] == "description"
    assert out["errors"][0]["file"].startswith(f"{z}:") and "bad-one" in out["errors"][0]["file"]


def test_import_reporting_only_exists_says_how_many_skipped_and_why(ws: Path, tmp_path: Path) -> None:
    """Issue 31 item 5: an import where every skill collides says so in one summary line."""
    for text in ("# One\n", "# Two, other content\n"):
        src = tmp_path / "lib" / "dup-skill"
        src.mkdir(parents=True, exist_ok=True)
        (src / "SKILL.md").write_text(
            f'---\nname: dup-skill\ndescription: Dup.\nmetadata:\n  triggers: "dupdup"\n---\n{text}'
        )
        r = lk("skills", "import", str(tmp_path / "lib"), "--workspace", str(ws))
    assert r.returncode == 0
    last = r.stdout.decode().strip().splitlines()[-1]
    assert last.startswith("nothing imported: 1 skipped")
    assert "already exist with other content" in last and "--on-conflict" in last
    # an invalid skill beside them is counted in the same line (it was only listed on stderr)
    bad = tmp_path / "lib" / "bad-skill"
    bad.mkdir()
    (bad / "SKILL.md").write_text("---\nname: bad-skill\n---\n# no description\n")
    r = lk("skills", "import", str(tmp_path / "lib"), "--workspace", str(ws))
    assert r.returncode == 0
    last = r.stdout.decode().strip().splitlines()[-1]
    assert last.startswith("nothing imported: 1 skipped") and last.endswith(
        ", 1 invalid (their errors follow on stderr)"
    )
    assert "bad-skill" in r.stderr.decode()
