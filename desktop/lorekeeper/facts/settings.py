"""Fact settings in lorekeeper.toml: `[facts] prompt_budget`, `include_candidates`, and per project
`[facts.projects."<P>"] include_candidates` (`FactSettings`, issue 28).

Why the config file and not a store row: it is an operator's policy for a client, read by every
front end (CLI, app, agent servers) the same way, versioned with the rest of the workspace's
configuration, and editable by hand. The file is edited with tomlkit (issue 28: no regex editor):
only that one key of that one table changes, in whatever form the operator wrote the table
(`[facts.projects.nord]`, a quoted name, dotted keys, an inline table); every other line, comments
included, stays as it was; the result is parsed back before it replaces the file atomically.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from lorekeeper.config import Config
from lorekeeper.errors import InvalidInputError, InvalidSpecError
from lorekeeper.facts.reports import DEFAULT_PROMPT_BUDGET
from lorekeeper.fsutil import atomic_write_text
from lorekeeper.store.scopes import validate_project


def _table(parent: Any, key: str, where: str, config_path: Path) -> Any:
    """`parent[key]` as a table (created when missing); a key holding something else is refused."""
    import tomlkit  # loaded by the rare write, not by every workspace open

    if key not in parent:
        parent[key] = tomlkit.table()
    child = parent[key]
    if not isinstance(child, dict):
        raise InvalidSpecError(f"{where} is not a table; set include_candidates by hand", file=str(config_path))
    return child


def _edited(text: str, project: str, value: bool, config_path: Path, *, inline: bool) -> str:
    """The file with the one key set; a new project gets a table, or an inline table (`inline`)."""
    import tomlkit  # loaded by the rare write, not by every workspace open
    from tomlkit.exceptions import TOMLKitError

    try:
        doc = tomlkit.parse(text)
    except TOMLKitError as exc:
        raise InvalidSpecError(f"not valid TOML (nothing written): {exc}", file=str(config_path)) from None
    facts = _table(doc, "facts", "[facts]", config_path)
    projects = _table(facts, "projects", "[facts] projects", config_path)
    if project in projects:
        _table(projects, project, f"[facts.projects.{project}]", config_path)["include_candidates"] = value
    elif inline or isinstance(projects, tomlkit.items.InlineTable):
        entry = tomlkit.inline_table()
        entry["include_candidates"] = value
        projects[project] = entry
    else:  # a new [facts.projects."<P>"] table, a blank line after it (it may land between two)
        table = tomlkit.table()
        table.add("include_candidates", value)
        table.add(tomlkit.nl())
        projects[project] = table
    return tomlkit.dumps(doc).rstrip("\n") + "\n"


def _holds(new: str, project: str, value: bool, config_path: Path) -> bool:
    try:
        parsed = tomllib.loads(new)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidSpecError(
            f"not valid TOML after the change (nothing written): {exc}", file=str(config_path)
        ) from None
    return parsed.get("facts", {}).get("projects", {}).get(project, {}).get("include_candidates") is value


def write_include_candidates(config_path: Path, project: str, value: bool) -> None:
    text = config_path.read_text(encoding="utf-8") if config_path.exists() else ""
    new = _edited(text, project, bool(value), config_path, inline=False)
    if not _holds(new, project, bool(value), config_path):
        # projects written as dotted keys (`projects.nord.include_candidates = true`): tomlkit
        # places a new table at the wrong path there, an inline entry beside the keys is right
        new = _edited(text, project, bool(value), config_path, inline=True)
        if not _holds(new, project, bool(value), config_path):
            raise InvalidSpecError(
                f"[facts.projects.{project}] is defined in a form this writer does not edit; "
                "set include_candidates by hand",
                file=str(config_path),
            )
    atomic_write_text(config_path, new)


class FactSettings:
    """The facts policy read from (and `include_candidates` written to) the workspace's config."""

    def __init__(self, config: Config) -> None:
        self.config = config  # the workspace's one shared object: a write reloads it in place

    def include_candidates(self, project: str) -> bool:
        """`[facts.projects.<P>] include_candidates` in lorekeeper.toml, else `[facts]
        include_candidates`, else true (seed 003: a pack of approved facts only is empty on day one)."""
        per = self.config.get("facts.projects", {}) or {}
        proj = per.get(project) if isinstance(per, dict) else None
        if isinstance(proj, dict) and "include_candidates" in proj:
            return bool(proj["include_candidates"])
        return bool(self.config.get("facts.include_candidates", True))

    def set_include_candidates(self, project: str, value: bool) -> bool:
        """Write `[facts.projects."<P>"] include_candidates` in lorekeeper.toml and reload the config."""
        proj = validate_project(project)
        if not proj or self.config.path is None:
            raise InvalidInputError("include_candidates is set for a project of a workspace with a lorekeeper.toml")
        write_include_candidates(self.config.path, proj, bool(value))
        self.config.reload()
        return self.include_candidates(proj)

    def prompt_budget(self) -> int:
        return int(self.config.get("facts.prompt_budget", DEFAULT_PROMPT_BUDGET))
