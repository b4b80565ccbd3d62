"""`lorekeeper plugin build DIR`: a Claude Code plugin and the marketplace that lists it.

The layout is Claude Code's documented one (plugins reference, marketplace reference):

    DIR/.claude-plugin/marketplace.json        name, owner, plugins[{name, source: "./lorekeeper"}]
    DIR/lorekeeper/.claude-plugin/plugin.json  the manifest (name, version, description, author)
    DIR/lorekeeper/hooks/hooks.json            UserPromptSubmit and Stop hooks
    DIR/lorekeeper/.mcp.json                   the lorekeeper MCP server (stdio)
    DIR/lorekeeper/scripts/lorekeeper          the launcher every hook and the server run
    DIR/lorekeeper/skills/<name>/...           optionally the workspace's skills, with their files

Hooks and the MCP server reach the launcher through `${CLAUDE_PLUGIN_ROOT}` (Claude Code copies an
installed plugin into its cache, so no path inside the plugin may be absolute); the launcher holds
the one absolute path, to this Lorekeeper and its workspace. A team runs
`claude plugin marketplace add DIR` then `claude plugin install lorekeeper@lorekeeper`.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lorekeeper import __version__, safejson
from lorekeeper.agents.install import HOOK_TIMEOUT, SERVER_NAME, program
from lorekeeper.errors import InvalidInputError, LorekeeperError
from lorekeeper.fsutil import atomic_write_text, read_regular_text

PLUGIN_NAME = "lorekeeper"
MARKETPLACE_NAME = "lorekeeper"
ROOT_VAR = "${CLAUDE_PLUGIN_ROOT}"
LAUNCHER = "scripts/lorekeeper"
KEBAB = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SEMVER = re.compile(r"^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$")
#: the hook events Claude Code knows (hooks reference; the list Claude Code 2.1.197 validates
#: against: `claude plugin validate` refuses any other key, "Invalid key in record").
HOOK_EVENTS = frozenset(
    [
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "PostToolBatch",
        "Notification",
        "UserPromptSubmit",
        "UserPromptExpansion",
        "SessionStart",
        "SessionEnd",
        "Stop",
        "StopFailure",
        "SubagentStart",
        "SubagentStop",
        "PreCompact",
        "PostCompact",
        "PermissionRequest",
        "PermissionDenied",
        "Setup",
        "TeammateIdle",
        "TaskCreated",
        "TaskCompleted",
        "Elicitation",
        "ElicitationResult",
        "ConfigChange",
        "WorktreeCreate",
        "WorktreeRemove",
        "InstructionsLoaded",
        "CwdChanged",
        "FileChanged",
        "MessageDisplay",
    ]
)
#: hook handler types (hooks reference): command, http, mcp_tool, prompt, agent
HOOK_TYPES = frozenset({"command", "http", "mcp_tool", "prompt", "agent"})
#: component folders that belong at the plugin root, never inside .claude-plugin/
COMPONENT_DIRS = ("commands", "agents", "skills", "hooks", "output-styles", "monitors", "bin")
JSON_LIMIT = 4 * 1024 * 1024
#: above this many skills, `build` warns: Claude Code lists every plugin skill by name in each
#: session's context (measured with 2.1.197: 1,000 skills put about 25 KB of names in every request)
MANY_SKILLS = 200


def _dump(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def _hook(sub: str, project: str | None) -> str:
    args = ["hooks", "claude-code", sub, *(["--project", project] if project else [])]
    return f'"{ROOT_VAR}/{LAUNCHER}" ' + shlex.join(args)


def manifests(project: str | None) -> dict[str, dict[str, Any]]:
    """The plugin's JSON files, by path relative to the plugin folder."""
    desc = "Lorekeeper: SKILLS_HINT and LEARNINGS on every prompt, evals and quality on Stop, the MCP tools"
    if project:
        desc += f" (project {project})"
    hooks = {
        event: [{"hooks": [{"type": "command", "command": _hook(sub, project), "timeout": HOOK_TIMEOUT[event]}]}]
        for event, sub in (("UserPromptSubmit", "user-prompt-submit"), ("Stop", "stop"))
    }
    return {
        ".claude-plugin/plugin.json": {
            "name": PLUGIN_NAME,
            "version": __version__,
            "description": desc,
            "author": {"name": "Lorekeeper"},
            "keywords": ["skills", "learnings", "evals", "mcp"],
        },
        "hooks/hooks.json": {"hooks": hooks},
        ".mcp.json": {
            "mcpServers": {
                SERVER_NAME: {
                    "command": f"{ROOT_VAR}/{LAUNCHER}",
                    "args": ["mcp", *(["--project", project] if project else [])],
                }
            }
        },
    }


def launcher_text(workspace: Path) -> str:
    """A POSIX sh launcher, the one file of the plugin that names absolute paths.

    The workspace: `$LOREKEEPER_WORKSPACE` when set (Lorekeeper reads it itself), else the one the
    plugin was built from when it exists on this machine, else Lorekeeper's default. The program:
    the Lorekeeper that built the plugin when it is here, else `lorekeeper` on PATH, so a teammate
    with their own install and workspace uses the same plugin."""
    cmd = program()
    ws = shlex.quote(str(workspace))
    return (
        "#!/bin/sh\n"
        "# Written by `lorekeeper plugin build`: how this plugin starts Lorekeeper.\n"
        f'if [ -z "${{LOREKEEPER_WORKSPACE:-}}" ] && [ -d {ws} ]; then set -- --workspace {ws} "$@"; fi\n'
        f'if [ -x {shlex.quote(cmd[0])} ]; then exec {shlex.join(cmd)} "$@"; fi\n'
        'if command -v lorekeeper >/dev/null 2>&1; then exec lorekeeper "$@"; fi\n'
        'echo "lorekeeper plugin: Lorekeeper is not installed (no lorekeeper on PATH)" >&2\n'
        "exit 1\n"
    )


@dataclass
class CheckResult:
    """What `check` found: errors (Claude Code would refuse or misread it) and warnings."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "errors": self.errors, "warnings": self.warnings}


def _skills_to_ship(workspace: Any, project: str | None, warnings: list[str]) -> list[tuple[str, Any]]:
    """(name, folder contents) of every skill the project sees (the globals without a project),
    each one a valid Agent Skill whose folder name is its name; the others are left out, said."""
    from lorekeeper.skills.spec import SKILL_FILE, check_skill_md

    infos = workspace.skills.list(project=project) if project else workspace.skills.list(include_forks=False)
    chosen = []
    for info in infos:
        if project is None and info.project:
            continue
        want = workspace.skills.folder_contents(info.name, info.project)
        if want is None:
            warnings.append(f"skill {info.name!r} left out: its stored version does not verify")
            continue
        if not KEBAB.match(info.name):
            warnings.append(f"skill {info.name!r} left out: a plugin skill's name must be kebab-case")
            continue
        text = want[0][SKILL_FILE].decode("utf-8", "replace")
        spec = check_skill_md(text, folder=info.name)
        if spec.errors:
            warnings.append(f"skill {info.name!r} left out: {spec.errors[0]}")
            continue
        chosen.append((info.name, want))
    return chosen


def build(directory: Path, workspace: Any, project: str | None = None, *, skills: bool = True) -> dict[str, Any]:
    """Write the marketplace and its plugin into `directory` (re-running rewrites both: a skill
    deleted since is removed from the plugin). `workspace` is an open Workspace. Everything is
    read and checked before the first write; a marketplace.json that is not ours is never touched."""
    if project is not None and not project.strip():
        raise InvalidInputError("--project is empty")
    if directory.exists() and not directory.is_dir():
        raise InvalidInputError(f"{directory} is not a folder; nothing was written")
    market = directory / ".claude-plugin" / "marketplace.json"
    if market.exists() or market.is_symlink():  # never overwrite somebody else's marketplace
        unreadable: list[str] = []
        existing = _load(market, unreadable)
        if existing is None:
            raise InvalidInputError(f"{unreadable[0]}; fix or move it, nothing was written")
        if existing.get("name") != MARKETPLACE_NAME:
            raise InvalidInputError(f"{market} is another marketplace ({existing.get('name')!r}); nothing was written")
    warnings: list[str] = []
    chosen = _skills_to_ship(workspace, project, warnings) if skills else []
    plugin = directory / PLUGIN_NAME
    files = manifests(project)
    for rel, data in files.items():
        _dump(plugin / rel, data)
    launcher = plugin / LAUNCHER
    launcher.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(launcher, launcher_text(Path(workspace.root)))
    launcher.chmod(0o755)
    from lorekeeper.skills.files import write_folder

    skills_root = plugin / "skills"
    keep = {name for name, _ in chosen}
    if skills_root.is_dir() and not skills_root.is_symlink():
        for old in skills_root.iterdir():  # a skill deleted (or left out) since the last build
            if old.name not in keep:
                shutil.rmtree(old) if old.is_dir() and not old.is_symlink() else old.unlink()
    elif skills_root.exists() or skills_root.is_symlink():
        skills_root.unlink()
    for name, (main, extra, blobs) in chosen:
        write_folder(skills_root / name, main, extra, blobs)
    if not chosen and skills_root.is_dir():
        skills_root.rmdir()
    _dump(
        market,
        {
            "name": MARKETPLACE_NAME,
            "owner": {"name": "Lorekeeper"},
            "metadata": {"description": "The Lorekeeper plugin for Claude Code", "version": __version__},
            "plugins": [
                {
                    "name": PLUGIN_NAME,
                    "source": f"./{PLUGIN_NAME}",
                    "description": files[".claude-plugin/plugin.json"]["description"],
                    "version": __version__,
                }
            ],
        },
    )
    if len(chosen) > MANY_SKILLS:
        warnings.append(
            f"{len(chosen)} skills: Claude Code lists each plugin skill in every session's context "
            f"(about {len(chosen) * 25 // 1000} KB per request); --no-skills leaves the choice to SKILLS_HINT"
        )
    result = check(directory, skills=False)  # the skills were checked above, before any write
    if not result.ok:  # what we wrote departs from the layout: a bug, never a plugin handed out silently
        raise RuntimeError("the plugin just written does not pass its check: " + "; ".join(result.errors))
    return {
        "dir": str(directory),
        "marketplace": MARKETPLACE_NAME,
        "plugin": PLUGIN_NAME,
        "project": project,
        "skills": [n for n, _ in chosen],
        "warnings": warnings + result.warnings,
        "install": [
            f"claude plugin marketplace add {shlex.quote(str(directory))}",
            f"claude plugin install {PLUGIN_NAME}@{MARKETPLACE_NAME}",
        ],
    }


# ---------------------------------------------------------------------- --check
def _load(path: Path, problems: list[str]) -> dict[str, Any] | None:
    if not path.exists() and not path.is_symlink():
        problems.append(f"{path}: missing")
        return None
    try:  # a regular file only (a FIFO is refused, not waited on), bounded in size and nesting
        data = safejson.loads(read_regular_text(path, limit=JSON_LIMIT, what=path.name), what=str(path))
    except (OSError, ValueError, LorekeeperError) as exc:
        problems.append(f"{path}: not readable JSON ({exc})")
        return None
    if not isinstance(data, dict):
        problems.append(f"{path}: not a JSON object")
        return None
    return data


def _command_target(command: str, plugin: Path, where: str, r: CheckResult) -> None:
    """A command must reach into the plugin through ${CLAUDE_PLUGIN_ROOT}, to an executable file."""
    try:
        first = shlex.split(command)[0] if command.strip() else ""
    except ValueError as exc:
        r.errors.append(f"{where}: the command does not parse ({exc})")
        return
    if first.startswith("/"):
        r.errors.append(f"{where}: absolute path {first!r}; use {ROOT_VAR}/... (an installed plugin is copied)")
        return
    if not first.startswith(ROOT_VAR + "/"):
        if "/" in first:
            r.errors.append(f"{where}: relative path {first!r}; use {ROOT_VAR}/... (the working folder is the user's)")
        return  # a program on PATH: allowed by the schema
    target = plugin / first[len(ROOT_VAR) + 1 :]
    if not target.resolve().is_relative_to(plugin.resolve()):
        r.errors.append(f"{where}: {first} leaves the plugin folder")
    elif not target.is_file():
        r.errors.append(f"{where}: {first} is not a file of the plugin")
    elif not target.stat().st_mode & 0o111:
        r.errors.append(f"{where}: {first} is not executable")


def _check_hooks(data: dict[str, Any], plugin: Path, r: CheckResult) -> None:
    path = "hooks/hooks.json"
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        r.errors.append(f"{path}: `hooks` must be an object of events")
        return
    for event, groups in hooks.items():
        if event not in HOOK_EVENTS:
            r.errors.append(f"{path}: {event!r} is not a hook event Claude Code knows")
        if not isinstance(groups, list):
            r.errors.append(f"{path}: hooks.{event} must be a list of matcher groups")
            continue
        for i, group in enumerate(groups):
            where = f"{path}: hooks.{event}[{i}]"
            if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
                r.errors.append(f"{where}: a matcher group needs a `hooks` list")
                continue
            if "matcher" in group and not isinstance(group["matcher"], str):
                r.errors.append(f"{where}.matcher must be a string")
            for j, hook in enumerate(group["hooks"]):
                w = f"{where}.hooks[{j}]"
                if not isinstance(hook, dict) or not isinstance(hook.get("type"), str):
                    r.errors.append(f"{w}: a hook is an object with a `type`")
                    continue
                if hook["type"] not in HOOK_TYPES:
                    r.errors.append(f"{w}: hook type {hook['type']!r} is not one of {sorted(HOOK_TYPES)}")
                timeout = hook.get("timeout")
                if timeout is not None and (
                    isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0
                ):
                    r.errors.append(f"{w}.timeout must be a positive number of seconds")
                if hook["type"] == "command":
                    if not isinstance(hook.get("command"), str) or not hook["command"].strip():
                        r.errors.append(f"{w}: a command hook needs a `command` string")
                    else:
                        _command_target(hook["command"], plugin, w, r)


def _check_mcp(data: dict[str, Any], plugin: Path, r: CheckResult) -> None:
    servers = data.get("mcpServers")
    if not isinstance(servers, dict) or not servers:
        r.errors.append(".mcp.json: `mcpServers` must be a non-empty object")
        return
    for name, server in servers.items():
        where = f".mcp.json: mcpServers.{name}"
        if not isinstance(server, dict):
            r.errors.append(f"{where} must be an object")
            continue
        kind = server.get("type", "stdio")
        if kind == "stdio":
            if not isinstance(server.get("command"), str) or not server["command"]:
                r.errors.append(f"{where}: a stdio server needs a `command` string")
            else:
                _command_target(shlex.quote(server["command"]), plugin, where, r)
        elif kind in ("http", "sse", "ws"):
            if not isinstance(server.get("url"), str) or not server["url"]:
                r.errors.append(f"{where}: a {kind} server needs a `url` string")
        else:
            r.warnings.append(f"{where}: server type {kind!r} is not stdio, http, sse or ws")
        if "args" in server and not (
            isinstance(server["args"], list) and all(isinstance(a, str) for a in server["args"])
        ):
            r.errors.append(f"{where}.args must be a list of strings")
        if "env" in server and not (
            isinstance(server["env"], dict) and all(isinstance(v, str) for v in server["env"].values())
        ):
            r.errors.append(f"{where}.env must map names to strings")


def _check_skills(plugin: Path, r: CheckResult) -> None:
    from lorekeeper.skills.spec import SKILL_FILE, check_skill_md

    skills = plugin / "skills"
    for folder in sorted(p for p in skills.iterdir() if p.is_dir()):
        md = folder / SKILL_FILE
        if not md.is_file():
            r.errors.append(f"skills/{folder.name}: no {SKILL_FILE}")
            continue
        text = md.read_text(encoding="utf-8", errors="replace")
        spec = check_skill_md(text, file=f"skills/{folder.name}/{SKILL_FILE}", folder=folder.name)
        r.errors.extend(f"skills/{folder.name}: {e}" for e in spec.errors)


#: plugin.json keys that name component paths (manifest reference); the last three may be inline objects
PATH_FIELDS = ("commands", "agents", "skills", "outputStyles", "hooks", "mcpServers", "lspServers")
INLINE_FIELDS = frozenset({"hooks", "mcpServers", "lspServers"})


def _check_paths(manifest: dict[str, Any], plugin: Path, r: CheckResult) -> None:
    """Component paths: `./`-relative, no `..`, inside the plugin, present (path rules)."""
    root = plugin.resolve()
    for key in PATH_FIELDS:
        value = manifest.get(key)
        if value is None or (key in INLINE_FIELDS and isinstance(value, dict)):
            continue
        paths = [value] if isinstance(value, str) else value
        if not isinstance(paths, list) or not all(isinstance(v, str) for v in paths):
            r.errors.append(f"plugin.json: `{key}` must be a ./path or a list of them")
            continue
        for rel in paths:
            if not rel.startswith("./"):
                r.errors.append(f"plugin.json: {key} path {rel!r} must start with ./")
            elif ".." in Path(rel).parts:
                r.errors.append(f"plugin.json: {key} path {rel!r} contains '..'")
            elif not (plugin / rel).resolve().is_relative_to(root):
                r.errors.append(f"plugin.json: {key} path {rel!r} leaves the plugin folder")
            elif not (plugin / rel).exists():
                r.errors.append(f"plugin.json: {key} path {rel!r} is not in the plugin")


def _check_plugin(plugin: Path, entry_name: str, entry_version: object, r: CheckResult, *, skills: bool) -> None:
    meta = plugin / ".claude-plugin"
    manifest = _load(meta / "plugin.json", r.errors) if (meta / "plugin.json").exists() else None
    if manifest is not None:  # the manifest is optional; when there, its fields are checked
        name = manifest.get("name")
        if not isinstance(name, str) or not KEBAB.match(name):
            r.errors.append(f"plugin.json: `name` must be kebab-case, got {name!r}")
        elif name != entry_name:
            r.errors.append(f"plugin.json name {name!r} differs from the marketplace entry {entry_name!r}")
        version = manifest.get("version")
        if version is not None and not isinstance(version, str):
            r.errors.append(f"plugin.json: `version` must be a string, got {version!r}")
        elif version is not None and not SEMVER.match(version):  # documented as semver; Claude Code takes any
            r.warnings.append(f"plugin.json: `version` should be semantic (1.2.3), got {version!r}")
        if isinstance(version, str) and isinstance(entry_version, str) and version != entry_version:
            r.warnings.append(
                f"plugin.json version {version!r} differs from the marketplace entry's {entry_version!r} (plugin.json wins)"
            )
        for key in ("description", "homepage", "repository", "license"):
            if key in manifest and not isinstance(manifest[key], str):
                r.errors.append(f"plugin.json: `{key}` must be a string")
        author = manifest.get("author")
        if author is not None and not (isinstance(author, dict) and isinstance(author.get("name"), str)):
            r.errors.append("plugin.json: `author` must be an object with a `name`")
        _check_paths(manifest, plugin, r)
        keywords = manifest.get("keywords")
        if keywords is not None and not (isinstance(keywords, list) and all(isinstance(k, str) for k in keywords)):
            r.errors.append("plugin.json: `keywords` must be a list of strings")
    else:
        r.warnings.append(f"{entry_name}: no .claude-plugin/plugin.json (allowed; the name comes from the marketplace)")
    misplaced = [d for d in COMPONENT_DIRS if (meta / d).exists()]
    if misplaced:
        r.errors.append(f"{entry_name}/.claude-plugin/ holds {misplaced}: components go at the plugin root")
    if (plugin / "hooks" / "hooks.json").exists():
        hooks = _load(plugin / "hooks" / "hooks.json", r.errors)
        if hooks is not None:
            _check_hooks(hooks, plugin, r)
    if (plugin / ".mcp.json").exists():
        mcp = _load(plugin / ".mcp.json", r.errors)
        if mcp is not None:
            _check_mcp(mcp, plugin, r)
    if skills and (plugin / "skills").is_dir():
        _check_skills(plugin, r)


def check(directory: Path, *, skills: bool = True) -> CheckResult:
    """Every way `directory` departs from Claude Code's documented marketplace + plugin layout
    (`skills=False`: the SKILL.md files are not parsed again)."""
    r = CheckResult()
    market = _load(directory / ".claude-plugin" / "marketplace.json", r.errors)
    if market is None:
        return r
    name = market.get("name")
    if not isinstance(name, str) or not KEBAB.match(name):
        r.errors.append(f"marketplace.json: `name` must be kebab-case, got {name!r}")
    owner = market.get("owner")
    if not (isinstance(owner, dict) and isinstance(owner.get("name"), str) and owner["name"]):
        r.errors.append("marketplace.json: `owner` must be an object with a `name`")
    plugins = market.get("plugins")
    if not isinstance(plugins, list) or not plugins:
        r.errors.append("marketplace.json: `plugins` must be a non-empty list")
        return r
    seen: set[str] = set()
    root = directory.resolve()
    for i, entry in enumerate(plugins):
        where = f"marketplace.json: plugins[{i}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not KEBAB.match(entry["name"]):
            r.errors.append(f"{where}: needs a kebab-case `name`")
            continue
        if entry["name"] in seen:
            r.errors.append(f"{where}: duplicate plugin name {entry['name']!r}")
        seen.add(entry["name"])
        source = entry.get("source")
        if isinstance(source, str):
            if not source.startswith("./"):
                r.errors.append(f"{where}.source: a relative path must start with ./, got {source!r}")
                continue
            plugin = (directory / source).resolve()
            if not plugin.is_relative_to(root):
                r.errors.append(f"{where}.source leaves the marketplace folder")
            elif not plugin.is_dir():
                r.errors.append(f"{where}.source: {source} is not a folder")
            else:
                _check_plugin(plugin, entry["name"], entry.get("version"), r, skills=skills)
        elif isinstance(source, dict) and isinstance(source.get("source"), str):
            r.warnings.append(f"{where}: a {source['source']!r} source is fetched by Claude Code, not checked here")
        else:
            r.errors.append(f"{where}: `source` must be a ./path or a source object")
    return r
