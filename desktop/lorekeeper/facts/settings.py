"""Fact settings in lorekeeper.toml: `[facts] prompt_budget`, `include_candidates`, and per project
`[facts.projects."<P>"] include_candidates` (`FactSettings`, issue 28).

Why the config file and not a store row: it is an operator's policy for a client, read by every
front end (CLI, app, agent servers) the same way, versioned with the rest of the workspace's
configuration, and editable by hand. Only that one key of that one table is rewritten; every
other line, comments included, stays as it was; the result is parsed back before it replaces the
file atomically.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from lorekeeper.config import Config
from lorekeeper.errors import InvalidInputError, InvalidSpecError
from lorekeeper.facts.reports import DEFAULT_PROMPT_BUDGET
from lorekeeper.fsutil import atomic_write_text
from lorekeeper.store.scopes import validate_project

_ANY_HEADER = re.compile(r"^\s*\[")
_KEY = re.compile(r"^\s*include_candidates\s*=")


def _header(project: str) -> re.Pattern[str]:
    name = re.escape(project)
    return re.compile(rf"^\s*\[\s*facts\s*\.\s*projects\s*\.\s*(?:{name}|\"{name}\"|'{name}')\s*\]\s*(#.*)?$")


def write_include_candidates(config_path: Path, project: str, value: bool) -> None:
    text = config_path.read_text(encoding="utf-8") if config_path.exists() else ""
    lines = text.splitlines()
    line = f"include_candidates = {'true' if value else 'false'}"
    header = _header(project)
    start = next((i for i, ln in enumerate(lines) if header.match(ln)), None)
    if start is None:
        if lines and lines[-1].strip():
            lines.append("")
        lines += [f"[facts.projects.{json.dumps(project)}]", line]
    else:
        end = next((i for i in range(start + 1, len(lines)) if _ANY_HEADER.match(lines[i])), len(lines))
        at = next((i for i in range(start + 1, end) if _KEY.match(lines[i])), None)
        if at is None:
            lines.insert(start + 1, line)
        else:
            lines[at] = line
    new = "\n".join(lines) + "\n"
    try:
        parsed = tomllib.loads(new)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidSpecError(
            f"not valid TOML after the change (nothing written): {exc}", file=str(config_path)
        ) from None
    if parsed.get("facts", {}).get("projects", {}).get(project, {}).get("include_candidates") is not value:
        raise InvalidSpecError(
            f"[facts.projects.{project}] is defined in a form this writer does not edit; set include_candidates by hand",
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
