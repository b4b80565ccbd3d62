"""The skill library's values: what lists, panels, the CLI and imports receive (issue 28: one
module for the shapes, the services that make them are in `rows`, `reading`, `editing`,
`importing` and `folder`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from lorekeeper.changes import ChangeSet
from lorekeeper.errors import InvalidInputError, LorekeeperError
from lorekeeper.evals.rules import RuleSet, parse_rules_text
from lorekeeper.skills.files import SkillFile
from lorekeeper.skills.spec import evals_filename, validate_name
from lorekeeper.store.models import GLOBAL
from lorekeeper.store.scopes import validate_project


class ForgedSkillError(LorekeeperError):
    """A skill row or version that does not verify (the audit package's ERR_UNSIGNED_ENTRY)."""

    code = "ERR_UNSIGNED_ENTRY"


@dataclass(frozen=True)
class SkillInfo:
    """A skill's current version, as lists and panels show it."""

    id: int
    name: str
    project: str
    version: int
    description: str
    triggers: tuple[str, ...]
    keywords: tuple[str, ...]
    updated_at: datetime
    rules_count: int = 0
    has_fork: bool = False  # for a global skill: some project forks it

    @property
    def is_fork(self) -> bool:
        return self.project != GLOBAL

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "project": self.project or None,
            "version": self.version,
            "description": self.description,
            "triggers": list(self.triggers),
            "keywords": list(self.keywords),
            "rules": self.rules_count,
            "updated_at": self.updated_at.isoformat(),
        }


@dataclass(frozen=True)
class SkillVersionInfo:
    name: str
    project: str
    version: int
    content: str
    evals: str
    message: str
    author: str
    created_at: datetime
    current: bool = False
    files: tuple[SkillFile, ...] = ()  # every file besides SKILL.md and the evals file

    def rules(self) -> RuleSet:
        if not self.evals.strip():
            return RuleSet(rules=(), skill=self.name)
        return parse_rules_text(self.evals, file=f"{self.name} v{self.version}/{evals_filename(self.name)}")

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "project": self.project or None,
            "version": self.version,
            "message": self.message,
            "author": self.author,
            "created_at": self.created_at.isoformat(),
            "current": self.current,
            "files": [f.to_dict() for f in self.files],
        }


def restored_versions(versions: Iterable[SkillVersionInfo]) -> dict[int, int]:
    """version -> the earlier version whose whole content (SKILL.md, rules, files) it has again,
    for every version that brings an earlier one back (a restore, the undo of an approval): v5 -> v3
    says v5 restores v3 and that v4..v5 together changed nothing (no net change since v3)."""
    seen: dict[tuple[object, ...], int] = {}
    out: dict[int, int] = {}
    for v in sorted(versions, key=lambda x: x.version):
        key = (v.content, v.evals, tuple(sorted((f.path, f.sha256, f.mode) for f in v.files)))
        earlier = seen.get(key)
        if earlier is not None:
            out[v.version] = earlier  # the latest earlier one: v5 restores v3 (= v1) after v4
        seen[key] = v.version
    return out


CONFLICT_ACTIONS = ("ask", "skip", "new-version", "fork", "rename")


@dataclass(frozen=True)
class Resolution:
    """What an import does with a skill whose name exists (with other content) in its scope.

    ask: report it as "exists" and leave it; skip: leave it silently; new-version: the import becomes
    the skill's new version; fork: import it as project `project`'s fork; rename: import it as `name`.
    """

    action: str = "ask"
    project: str = ""
    name: str = ""

    def __post_init__(self) -> None:
        if self.action not in CONFLICT_ACTIONS:
            raise InvalidInputError(f"--on-conflict is one of {', '.join(CONFLICT_ACTIONS)}, not {self.action!r}")
        if self.action == "fork" and not validate_project(self.project):
            raise InvalidInputError("--on-conflict fork needs --project P (the project the fork goes to)")
        if self.action == "rename":
            validate_name(self.name, file="--on-conflict rename")


ConflictPolicy = str | Resolution | Mapping[str, Resolution]


@dataclass
class ImportReport:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    #: name collisions left alone: {"name", "project", "path", "version", "diff"}
    exists: list[dict[str, object]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    forked: list[dict[str, str]] = field(default_factory=list)  # {"name", "project"}
    renamed: list[dict[str, str]] = field(default_factory=list)  # {"from", "to"}
    #: skills that could not be imported: {"path", "errors": [every error]}
    invalid: list[dict[str, object]] = field(default_factory=list)
    warnings: list[dict[str, object]] = field(default_factory=list)
    #: skills read under their folder's name (`--rename-to-folder`): {"from", "to", "path"}
    folder_renames: list[dict[str, str]] = field(default_factory=list)
    dry_run: bool = False
    #: what the import's transaction committed (kinds -> ids); not part of `to_dict()` (the CLI's JSON)
    changes: ChangeSet = field(default_factory=ChangeSet, compare=False)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"created": self.created, "updated": self.updated, "unchanged": self.unchanged}
        for key in ("exists", "skipped", "forked", "renamed", "folder_renames", "invalid", "warnings"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if self.dry_run:
            out["dry_run"] = True
        return out

    @property
    def imported(self) -> int:
        return len(self.created) + len(self.updated) + len(self.forked) + len(self.renamed)


def resolution(policy: ConflictPolicy, name: str) -> Resolution:
    """What the import does with `name` under `policy` (one action, or one per name)."""
    if isinstance(policy, Resolution):
        return policy
    if isinstance(policy, str):
        return Resolution(policy)
    return policy.get(name, Resolution("ask"))
