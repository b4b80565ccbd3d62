"""Issue 26 d5: `lorekeeper plugin build DIR` writes a Claude Code marketplace and its plugin (manifest,
hooks, MCP server, the workspace's skills with their files) with every path through
${CLAUDE_PLUGIN_ROOT}; `--check` validates a folder against the documented layout."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from helpers.cli import run_lorekeeper

ROOT = "${CLAUDE_PLUGIN_ROOT}"


def _build(ws, out: Path, *extra: str):
    return run_lorekeeper("--workspace", str(ws.root), "plugin", "build", str(out), *extra, "--json")


def _check(out: Path):
    r = run_lorekeeper("plugin", "build", str(out), "--check", "--json")
    return r.returncode, json.loads(r.stdout)


def _read(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def _skill_with_a_script(ws, root: Path, project: str | None = None) -> None:
    folder = root / "deploy-check"
    (folder / "scripts").mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: deploy-check\ndescription: Check a deployment before release\n---\n\n# Deploy check\n\nRun it.\n",
        encoding="utf-8",
    )
    script = folder / "scripts" / "check.sh"
    script.write_text("#!/bin/sh\necho ok\n", encoding="utf-8")
    script.chmod(0o755)
    ws.skills.import_path(folder, project, "test import")


def test_build_writes_the_documented_layout_with_skills_and_their_files(demo_workspace, tmp_path):
    ws = demo_workspace
    _skill_with_a_script(ws, tmp_path / "src")
    out = tmp_path / "market"
    r = _build(ws, out)
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["install"] == [
        f"claude plugin marketplace add {out}",
        "claude plugin install lorekeeper@lorekeeper",
    ]

    market = _read(out / ".claude-plugin" / "marketplace.json")
    assert market["name"] == "lorekeeper" and market["owner"]["name"]
    assert market["plugins"] == [
        {
            "name": "lorekeeper",
            "source": "./lorekeeper",
            "description": market["plugins"][0]["description"],
            "version": market["plugins"][0]["version"],
        }
    ]
    plugin = out / "lorekeeper"
    manifest = _read(plugin / ".claude-plugin" / "plugin.json")
    assert manifest["name"] == "lorekeeper" and manifest["version"] == market["plugins"][0]["version"]

    hooks = _read(plugin / "hooks" / "hooks.json")["hooks"]
    assert set(hooks) == {"UserPromptSubmit", "Stop"}
    prompt_hook = hooks["UserPromptSubmit"][0]["hooks"][0]
    assert prompt_hook["type"] == "command" and prompt_hook["timeout"] == 10
    assert prompt_hook["command"] == f'"{ROOT}/scripts/lorekeeper" hooks claude-code user-prompt-submit'
    assert hooks["Stop"][0]["hooks"][0]["command"].endswith("hooks claude-code stop")
    server = _read(plugin / ".mcp.json")["mcpServers"]["lorekeeper"]
    assert server == {"command": f"{ROOT}/scripts/lorekeeper", "args": ["mcp"]}
    # an installed plugin is copied into Claude Code's cache: only the launcher names this machine
    for rel in (".claude-plugin/plugin.json", "hooks/hooks.json", ".mcp.json"):
        text = (plugin / rel).read_text(encoding="utf-8")
        assert str(ws.root) not in text and str(tmp_path) not in text, rel
    launcher = plugin / "scripts" / "lorekeeper"
    assert os.access(launcher, os.X_OK) and str(ws.root) in launcher.read_text(encoding="utf-8")

    # the global library (no project: the forks stay out), each skill with its evals and files
    names = sorted(p.name for p in (plugin / "skills").iterdir())
    assert names == sorted(report["skills"])
    assert names == sorted(i.name for i in ws.skills.list(include_forks=False))
    assert "deploy-check" in names and "code-review" in names
    script = plugin / "skills" / "deploy-check" / "scripts" / "check.sh"
    assert script.read_text(encoding="utf-8") == "#!/bin/sh\necho ok\n" and os.access(script, os.X_OK)
    assert (plugin / "skills" / "code-review" / "code-review.evals.json").is_file()
    stored = ws.skills.folder_contents("code-review", "")
    assert (plugin / "skills" / "code-review" / "SKILL.md").read_bytes() == stored[0]["SKILL.md"]

    code, checked = _check(out)
    assert code == 0 and checked["ok"] and checked["errors"] == [], checked


def test_a_project_build_carries_its_forks_and_a_rebuild_drops_a_deleted_skill(demo_workspace, tmp_path):
    ws = demo_workspace
    _skill_with_a_script(ws, tmp_path / "src", "citadel-v2")  # a skill of the project only
    out = tmp_path / "market"
    assert _build(ws, out, "--project", "citadel-v2").returncode == 0
    plugin = out / "lorekeeper"
    fork = ws.skills.folder_contents("code-review", "citadel-v2")
    assert fork is not None and fork[0]["SKILL.md"] != ws.skills.folder_contents("code-review", "")[0]["SKILL.md"]
    assert (plugin / "skills" / "code-review" / "SKILL.md").read_bytes() == fork[0]["SKILL.md"]
    hooks = _read(plugin / "hooks" / "hooks.json")["hooks"]
    assert hooks["UserPromptSubmit"][0]["hooks"][0]["command"].endswith("user-prompt-submit --project citadel-v2")
    assert _read(plugin / ".mcp.json")["mcpServers"]["lorekeeper"]["args"] == ["mcp", "--project", "citadel-v2"]

    assert (plugin / "skills" / "deploy-check" / "scripts" / "check.sh").is_file()
    ws.skills.delete_fork("code-review", "citadel-v2")
    ws.skills.delete_fork("deploy-check", "citadel-v2")
    assert _build(ws, out, "--project", "citadel-v2").returncode == 0
    assert (plugin / "skills" / "code-review" / "SKILL.md").read_bytes() == ws.skills.folder_contents(
        "code-review", ""
    )[0]["SKILL.md"]
    kept = {p.name for p in (plugin / "skills").iterdir()}
    assert "deploy-check" not in kept and kept == {i.name for i in ws.skills.list(project="citadel-v2")}

    assert _build(ws, out, "--no-skills").returncode == 0
    assert not (plugin / "skills").exists()
    assert _check(out)[0] == 0


def test_the_hook_command_runs_from_a_copied_plugin(workspace, tmp_path):
    """What Claude Code does: copy the plugin into its cache, expand ${CLAUDE_PLUGIN_ROOT}, run the
    hook through the shell with the hook JSON on stdin."""
    out = tmp_path / "market"
    assert _build(workspace, out, "--no-skills").returncode == 0
    cache = tmp_path / "cache" / "lorekeeper" / "0.1.0"
    shutil.copytree(out / "lorekeeper", cache)
    command = _read(cache / "hooks" / "hooks.json")["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"]
    env = {**os.environ, "CLAUDE_PLUGIN_ROOT": str(cache)}
    env.pop("LOREKEEPER_WORKSPACE", None)
    payload = {"hook_event_name": "UserPromptSubmit", "prompt": "review this code for security", "cwd": str(tmp_path)}
    done = subprocess.run(
        ["sh", "-c", command], input=json.dumps(payload), capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "SKILLS_HINT" in context and "code-review" in context


def test_check_reports_each_departure_from_the_layout(workspace, tmp_path):
    out = tmp_path / "market"
    assert _build(workspace, out).returncode == 0
    plugin = out / "lorekeeper"
    hooks_file = plugin / "hooks" / "hooks.json"
    hooks = _read(hooks_file)
    hooks["hooks"]["Stop"][0]["hooks"][0]["command"] = "/usr/local/bin/lorekeeper hooks claude-code stop"
    hooks["hooks"]["OnTuesday"] = [{"hooks": [{"type": "command", "command": "true"}]}]
    hooks_file.write_text(json.dumps(hooks), encoding="utf-8")
    manifest_file = plugin / ".claude-plugin" / "plugin.json"
    manifest = _read(manifest_file)
    manifest_file.write_text(
        json.dumps(
            {
                **manifest,
                "name": "Lore Keeper",
                "version": "one",
                "skills": "../elsewhere",
                "agents": ["agents/"],
                "commands": ["./commands"],
            }
        ),
        encoding="utf-8",
    )
    (plugin / "scripts" / "lorekeeper").chmod(0o644)
    (plugin / ".claude-plugin" / "skills").mkdir()
    skill_md = plugin / "skills" / "code-review" / "SKILL.md"
    skill_md.write_text(skill_md.read_text(encoding="utf-8").replace("name: code-review", "name: other"))

    code, checked = _check(out)
    assert code == 1 and not checked["ok"]
    errors = "\n".join(checked["errors"])
    assert "absolute path '/usr/local/bin/lorekeeper'" in errors
    assert "`name` must be kebab-case, got 'Lore Keeper'" in errors
    assert "${CLAUDE_PLUGIN_ROOT}/scripts/lorekeeper is not executable" in errors  # the MCP server's command
    assert ".claude-plugin/ holds ['skills']" in errors
    assert "skills path '../elsewhere' must start with ./" in errors
    assert "agents path 'agents/' must start with ./" in errors
    assert "commands path './commands' is not in the plugin" in errors
    assert "skills/code-review:" in errors
    assert "'OnTuesday' is not a hook event Claude Code knows" in errors
    warnings = "\n".join(checked["warnings"])  # Claude Code takes these, its validator warns too
    assert "`version` should be semantic (1.2.3), got 'one'" in warnings
    assert "differs from the marketplace entry's" in warnings

    plain = run_lorekeeper("plugin", "build", str(out), "--check")
    assert plain.returncode == 1 and "error: " in plain.stdout

    code, checked = _check(tmp_path / "nothing-here")
    assert code == 1 and "marketplace.json: missing" in checked["errors"][0]


def test_build_never_overwrites_another_marketplace(workspace, tmp_path):
    out = tmp_path / "market"
    (out / ".claude-plugin").mkdir(parents=True)
    theirs = out / ".claude-plugin" / "marketplace.json"
    theirs.write_text('{"name": "acme-tools", "owner": {"name": "Acme"}, "plugins": []}', encoding="utf-8")
    r = _build(workspace, out)
    assert r.returncode == 2 and json.loads(r.stdout)["error"]["code"] == "ERR_INVALID_INPUT"
    assert "acme-tools" in theirs.read_text(encoding="utf-8") and not (out / "lorekeeper").exists()

    theirs.write_text("{not json", encoding="utf-8")
    r = _build(workspace, out)
    assert r.returncode == 2 and "not readable JSON" in json.loads(r.stdout)["error"]["message"]
    assert theirs.read_text(encoding="utf-8") == "{not json" and not (out / "lorekeeper").exists()

    r = _build(workspace, tmp_path / "p", "--project", "bad name!")
    assert r.returncode == 2 and not (tmp_path / "p").exists()
    r = _build(workspace, tmp_path / "p", "--project", "nosuch")  # a typo would ship the globals only
    assert r.returncode == 3 and json.loads(r.stdout)["error"]["code"] == "ERR_NOT_FOUND"
    assert not (tmp_path / "p").exists()


def test_a_large_library_is_shipped_with_a_warning_about_claude_codes_context(workspace, tmp_path, monkeypatch):
    from lorekeeper.agents import plugin

    monkeypatch.setattr(plugin, "MANY_SKILLS", 5)  # 200 in use; the starter library has 12
    r = _build(workspace, tmp_path / "market")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert len(report["skills"]) == 12
    assert any(w.startswith("12 skills: Claude Code lists each plugin skill") for w in report["warnings"])
    plain = run_lorekeeper("--workspace", str(workspace.root), "plugin", "build", str(tmp_path / "m2"))
    assert "warning: 12 skills" in plain.stdout and "--no-skills" in plain.stdout
