"""The skill library: every version of every skill in the store, global skills and project forks.

A project fork overrides a global skill's content and rules for that project. Every change is a
new immutable version; versions can be diffed and restored (a restore is itself a new version).
After each change the workspace's `skills/` folder is rewritten with the current versions, so
agents and git can read them; it is read back only by an explicit import. The folder is derived:
it is written after the store's commit, and when that write fails the change stands, the caller
gets ERR_DERIVED_WRITE_FAILED, and `lorekeeper repair` rebuilds it (`SkillFolder`, a `Derived`).
"""

from __future__ import annotations

import builtins
import contextlib
import difflib
import getpass
import hashlib
import json
import shutil
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from lorekeeper import safejson
from lorekeeper.changes import ChangeSet
from lorekeeper.errors import DerivedWriteError, InvalidInputError, InvalidSpecError, LorekeeperError, NotFoundError
from lorekeeper.evals.rules import RuleSet, parse_rules, parse_rules_text
from lorekeeper.fsutil import atomic_write_text, read_regular_text, sweep_temp_files, temp_files_under
from lorekeeper.jobs import Progress, drive
from lorekeeper.locks import LockTimeoutError, RWLock
from lorekeeper.skills import debris
from lorekeeper.skills.checks import check_source_steps, rename_doc, renamed_evals
from lorekeeper.skills.debris import export_lock
from lorekeeper.skills.files import Limits, SkillFile, diff_files, folder_differences, write_folder
from lorekeeper.skills.router import RoutableSkill
from lorekeeper.skills.sources import FORKS_DIR, open_source  # skills/_forks/<project>/<name>/
from lorekeeper.skills.spec import (
    SKILL_FILE,
    SkillDoc,
    evals_filename,
    normalise_evals_text,
    parse_skill_md,
    split_terms,
    validate_name,
)
from lorekeeper.skills.triggers import NAMED_SUFFIX, TRIGGER_FILES, TriggerCase, dump_cases, parse_cases, trigger_file
from lorekeeper.store.engine import Store
from lorekeeper.store.models import (
    GLOBAL,
    Project,
    Skill,
    SkillBlob,
    SkillVersion,
    SkillVersionFile,
    files_digest,
    files_digest_in,
    utcnow,
)
from lorekeeper.store.scopes import validate_project

# Called after each committed change with (event name, plain data): the signed audit chain hooks in
# here (`lorekeeper.learnings.audit_hook`). It returns a warning when it could not sign the change
# (kept for `take_audit_warnings`; the change itself stands), else None.
SkillEventHook = Callable[[str, dict[str, object]], str | None]


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _author() -> str:
    try:
        return getpass.getuser()
    except Exception:  # noqa: BLE001 - no login name in some containers
        return "operator"


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


def _rules_count(evals: str) -> int:
    if not evals.strip():
        return 0
    try:
        import json

        data = json.loads(evals)
        return len(data.get("rules", [])) if isinstance(data, dict) else len(data)
    except ValueError:
        return 0


class SkillLibrary:
    def __init__(
        self,
        store: Store,
        skills_dir: Path | None = None,
        on_event: SkillEventHook | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.limits = limits or Limits()  # per-file and per-skill size caps ([skills] in lorekeeper.toml)
        self.skills_dir = skills_dir
        self.folder = SkillFolder(self)
        self.on_event = on_event  # saves, rule edits, restores, forks, fork deletions, imports: signed
        self.audit_warnings: list[str] = []
        # issue 24: the session's row verifier (set by the workspace): a skill or skill version that
        # does not verify, is older than its ledger entry or whose files manifest changed is never
        # exported to skills/ (agents read that folder)
        self.verifier: Callable[[], Any] | None = None
        # whether the key session is loaded already: reads that must not load the key (`route`,
        # `eval --no-record`) verify only then; the writers load it (they sign anyway)
        self.key_loaded: Callable[[], bool] = lambda: False
        self.forged_skipped: set[tuple[str, str]] = set()

    def _checking(self) -> bool:
        return self.verifier is not None and self.key_loaded() and not self.store.info.get("lorekeeper_keyless_legacy")

    def _key_for_reading(self) -> bool:
        """Start the key session for a caller that asked for verified skills; False when it
        cannot start (nothing can be verified without the key: the library as stored)."""
        if self.verifier is None or self.store.info.get("lorekeeper_keyless_legacy"):
            return False
        try:
            self.verifier()
        except LorekeeperError:
            return False
        return True

    def _refuse_forged(self, s: Session, sk: Skill, v: SkillVersion, *, current: bool) -> None:
        """ERR_UNSIGNED_ENTRY when the version (and for the current one, the skill row) is not the
        one Lorekeeper signed: a forged SKILL.md or rules are never shown, evaluated, forked or
        restored as a new signed version (which would launder them)."""
        if not self._checking():
            return
        assert self.verifier is not None
        verifier = self.verifier()
        ok_sk = not current or bool(verifier.filter([sk], purpose="skills read"))
        ok_v = ok_sk and bool(verifier.filter([v], purpose="skills read"))
        if ok_v and v.files_digest == files_digest_in(s, v.id):
            return
        where = f" (project {sk.project})" if sk.project else ""
        raise ForgedSkillError(
            f"skill {sk.name!r}{where} version {v.version} does not verify: it was changed outside Lorekeeper, "
            "so it is not used. `lorekeeper skills verify` lists what; `lorekeeper skills restore` a version that verifies."
        )

    def require_verified(self, skills: Iterable[tuple[str, str]]) -> None:
        """Issue 24, fail closed: ERR_UNSIGNED_ENTRY naming the first (name, scope) whose row or
        current version does not verify, before a run that reads them writes anything (nightly,
        Sage). The key session is started for it; without a key the writers fail closed anyway."""
        if not self._key_for_reading():
            return
        for name, scope in skills:
            self.get(name, scope or None)

    def _verified(self, s: Session, sk: Skill, v: SkillVersion) -> bool:
        """The skill row, its current version and its files manifest are the ones Lorekeeper signed."""
        if self.verifier is None or self.store.info.get("lorekeeper_keyless_legacy"):
            return True  # (the starter rows a keyless `init` writes in this process: legacy, unsigned)
        verifier = self.verifier()
        kept = verifier.filter([sk], purpose="skills export")
        kept_v = verifier.filter([v], purpose="skills export") if kept else []
        return bool(kept_v) and v.files_digest == files_digest_in(s, v.id)

    def _verified_rows(self, s: Session, rows: Sequence[Any]) -> builtins.list[Any]:
        """`_verified` for many (skill, version) rows at once (issue 26: at 10,000 skills one
        ledger read per table and one manifest query, not three per skill); same verdicts."""
        if self.verifier is None or self.store.info.get("lorekeeper_keyless_legacy"):
            return builtins.list(rows)
        verifier = self.verifier()
        kept_sk = {id(sk) for sk in verifier.filter([sk for sk, _ in rows], purpose="skills export")}
        rows = [(sk, v) for sk, v in rows if id(sk) in kept_sk]
        kept_v = {id(v) for v in verifier.filter([v for _, v in rows], purpose="skills export")}
        rows = [(sk, v) for sk, v in rows if id(v) in kept_v]
        manifests: dict[int, builtins.list[tuple[str, str, int]]] = {v.id: [] for _, v in rows}
        ids = builtins.list(manifests)
        for i in range(0, len(ids), 500):
            for vid, path, sha, mode in s.execute(
                select(
                    SkillVersionFile.version_id, SkillVersionFile.path, SkillVersionFile.sha256, SkillVersionFile.mode
                ).where(SkillVersionFile.version_id.in_(ids[i : i + 500]))
            ):
                manifests[vid].append((path, sha, mode))
        return [(sk, v) for sk, v in rows if v.files_digest == files_digest(manifests[v.id])]

    def forged(self, only: tuple[str, str] | None = None) -> dict[tuple[str, str], builtins.list[str]]:
        """(name, project) -> what of the current version does not verify (needs the verifier)."""
        out: dict[tuple[str, str], builtins.list[str]] = {}
        if self.verifier is None:
            return out
        verifier = self.verifier()
        with self.store.session() as s:
            q = select(Skill)
            if only is not None:
                q = q.where(Skill.name == only[0], Skill.project == only[1])
            for sk in s.scalars(q):
                if not verifier.filter([sk], purpose="skills verify"):
                    out[(sk.name, sk.project)] = ["the skill row (current version) does not verify"]
                    continue
                v = s.scalar(
                    select(SkillVersion).where(
                        SkillVersion.skill_id == sk.id, SkillVersion.version == sk.current_version
                    )
                )
                if v is None:
                    out[(sk.name, sk.project)] = ["its current version is missing"]
                elif not verifier.filter([v], purpose="skills verify"):
                    out[(sk.name, sk.project)] = [f"{SKILL_FILE}, rules and files of version {v.version} do not verify"]
                elif v.files_digest != files_digest_in(s, v.id):
                    out[(sk.name, sk.project)] = [f"the files manifest of version {v.version} was changed"]
        return out

    def _emit(self, name: str, data: dict[str, object]) -> None:
        if self.on_event is not None:
            warning = self.on_event(name, data)
            if warning:
                self.audit_warnings.append(warning)

    def take_audit_warnings(self) -> list[str]:
        """Changes the audit chain could not sign (the change itself was kept), then cleared."""
        out, self.audit_warnings = self.audit_warnings, []
        return out

    def _current_number(self, name: str, project: str) -> int | None:
        with self.store.session() as s:
            sk = self._skill(s, name, project)
            return sk.current_version if sk is not None else None

    @property
    def revision(self) -> int:
        """The store's revision: it moves on any change by any process (caches such as the router key on it)."""
        return self.store.revision()

    # ---------------------------------------------------------------- reading
    def list(
        self, project: str | None = None, search: str = "", include_forks: bool = True, *, verified: bool = False
    ) -> list[SkillInfo]:
        """Current versions. project=None: every skill (globals and all forks); project=P: what P
        sees (its forks replace the globals of the same name); search filters on name,
        description, triggers and keywords. `verified`: only skills whose row and current version
        verify (the key session is started for it; without a key, the library as stored). Issue 24:
        the SKILLS_HINT of `prompt` and the hook, the skills `ask` cites."""
        with self.store.session() as s:
            rows: Sequence[Any] = s.execute(
                select(Skill, SkillVersion)
                .join(
                    SkillVersion, (SkillVersion.skill_id == Skill.id) & (SkillVersion.version == Skill.current_version)
                )
                .order_by(Skill.name, Skill.project)
            ).all()
            if verified and self._key_for_reading():
                rows = self._verified_rows(s, rows)
        forked = {sk.name for sk, _ in rows if sk.project != GLOBAL}
        infos = [
            SkillInfo(
                id=sk.id,
                name=sk.name,
                project=sk.project,
                version=v.version,
                description=v.description,
                triggers=split_terms(v.triggers),
                keywords=split_terms(v.keywords),
                updated_at=sk.updated_at,
                rules_count=_rules_count(v.evals),
                has_fork=sk.project == GLOBAL and sk.name in forked,
            )
            for sk, v in rows
        ]
        if project is not None:
            project = validate_project(project)
            visible = {i.name: i for i in infos if i.project == GLOBAL}
            visible.update({i.name: i for i in infos if i.project == project})  # forks replace globals
            infos = sorted(visible.values(), key=lambda i: i.name)
        elif not include_forks:
            infos = [i for i in infos if i.project == GLOBAL]
        if search:
            needle = search.casefold()
            infos = [
                i
                for i in infos
                if needle in i.name.casefold()
                or needle in i.description.casefold()
                or any(needle in t.casefold() for t in i.triggers + i.keywords)
            ]
        return infos

    def projects(self) -> builtins.list[str]:
        with self.store.session() as s:
            named = set(s.scalars(select(Project.name)))
            forked = set(s.scalars(select(Skill.project).where(Skill.project != GLOBAL)))
        return sorted(named | forked)

    def add_project(self, name: str, description: str = "") -> None:
        name = validate_project(name)
        if not name:
            raise InvalidInputError("a project needs a name")
        with self.store.write() as s:
            if s.scalar(select(Project).where(Project.name == name)) is None:
                s.add(Project(name=name, description=description))

    def _skills_named(self, s: Session, names: Sequence[str]) -> dict[tuple[str, str], Skill]:
        out: dict[tuple[str, str], Skill] = {}
        for i in range(0, len(names), 500):
            for sk in s.scalars(select(Skill).where(Skill.name.in_(names[i : i + 500]))):
                out[(sk.name, sk.project)] = sk
        return out

    def _skill(self, s: Session, name: str, project: str) -> Skill | None:
        return s.scalar(select(Skill).where(Skill.name == name, Skill.project == project))

    def exists(self, name: str, project: str = GLOBAL) -> bool:
        with self.store.session() as s:
            return self._skill(s, name, validate_project(project)) is not None

    def resolve_scope(self, name: str, project: str | None) -> str:
        """The scope that serves `name` for `project`: its fork when there is one, else global."""
        project = validate_project(project)
        with self.store.session() as s:
            if project and self._skill(s, name, project) is not None:
                return project
            if self._skill(s, name, GLOBAL) is not None:
                return GLOBAL
        where = f" (project {project})" if project else ""
        raise NotFoundError(f"no skill named {name!r}{where}. `lorekeeper skills list` shows the library.")

    def get(self, name: str, project: str | None = None, version: int | None = None) -> SkillVersionInfo:
        """A version (the current one by default) of the skill that serves `project`."""
        scope = self.resolve_scope(name, project)
        with self.store.session() as s:
            sk = self._skill(s, name, scope)
            assert sk is not None
            want = version if version is not None else sk.current_version
            v = s.scalar(select(SkillVersion).where(SkillVersion.skill_id == sk.id, SkillVersion.version == want))
            if v is None:
                raise NotFoundError(f"skill {name!r} has no version {want}")
            self._refuse_forged(s, sk, v, current=version is None or want == sk.current_version)
            return self._version_info(sk, v, _manifest(s, v.id))

    @staticmethod
    def _version_info(sk: Skill, v: SkillVersion, files: Sequence[SkillFile] = ()) -> SkillVersionInfo:
        return SkillVersionInfo(
            name=sk.name,
            project=sk.project,
            version=v.version,
            content=v.content,
            evals=v.evals,
            message=v.message,
            author=v.author,
            created_at=v.created_at,
            current=v.version == sk.current_version,
            files=tuple(files),
        )

    def versions(self, name: str, project: str | None = None) -> builtins.list[SkillVersionInfo]:
        """History of the exact scope given (global when project is empty), newest first."""
        project = validate_project(project)
        with self.store.session() as s:
            sk = self._skill(s, name, project)
            if sk is None:
                raise NotFoundError(f"no skill named {name!r}" + (f" in project {project}" if project else ""))
            rows = s.scalars(
                select(SkillVersion).where(SkillVersion.skill_id == sk.id).order_by(SkillVersion.version.desc())
            ).all()
            manifests = _manifests(s, [v.id for v in rows])
            return [self._version_info(sk, v, manifests.get(v.id, ())) for v in rows]

    def rules(self, name: str, project: str | None = None) -> RuleSet:
        return self.get(name, project).rules()

    def trigger_cases(
        self, project: str | None = None, name: str | None = None
    ) -> tuple[dict[str, builtins.list[TriggerCase]], builtins.list[dict[str, object]]]:
        """The trigger cases of every skill `project` sees that carries a trigger file (issue 27
        d2), or of `name` only: (name -> cases, problems: a file that does not parse)."""
        visible = {i.name: i for i in self.list(project=project or GLOBAL)}
        if name is not None and name not in visible:
            raise NotFoundError(f"no skill named {name!r}" + (f" in project {project}" if project else ""))
        ids = {i.id: i.name for i in visible.values() if name is None or i.name == name}
        with self.store.session() as s:
            holders = {
                sk_id
                for (sk_id,) in s.execute(
                    select(Skill.id)
                    .join(
                        SkillVersion,
                        (SkillVersion.skill_id == Skill.id) & (SkillVersion.version == Skill.current_version),
                    )
                    .join(SkillVersionFile, SkillVersionFile.version_id == SkillVersion.id)
                    .where(
                        SkillVersionFile.path.in_(TRIGGER_FILES) | SkillVersionFile.path.like(f"%{NAMED_SUFFIX}"),
                        Skill.id.in_(builtins.list(ids)),
                    )
                )
            }
        cases: dict[str, builtins.list[TriggerCase]] = {}
        problems: builtins.list[dict[str, object]] = []
        for sk_id in sorted(holders, key=lambda i: ids[i]):
            skill = ids[sk_id]
            v = self.get(skill, project)
            path = trigger_file([f.path for f in v.files], skill)
            if path is None:
                continue
            data = self.version_files(v, main=False)[path][0]
            try:
                cases[skill] = parse_cases(data, file=f"{skill}/{path}")
            except LorekeeperError as exc:
                problems.append(exc.to_dict())
        return cases, problems

    def routable(self, project: str | None = None, *, verified: bool = False) -> builtins.list[RoutableSkill]:
        """What the router scores for a project: globals, with that project's forks in their place
        (`verified`: only the skills that verify, see `list`)."""
        return [
            RoutableSkill(i.name, i.description, i.triggers, i.keywords)
            for i in self.list(project=project or GLOBAL, verified=verified)
        ]

    def diff(self, name: str, project: str | None, a: int, b: int) -> str:
        """SKILL.md and rules as one unified diff, then every other changed file, file by file."""
        va, vb = self.get_exact(name, project, a), self.get_exact(name, project, b)
        out = difflib.unified_diff(
            (va.content + "\n" + va.evals).splitlines(keepends=True),
            (vb.content + "\n" + vb.evals).splitlines(keepends=True),
            fromfile=f"{name} v{a}",
            tofile=f"{name} v{b}",
        )
        head = "".join(out)
        files = self.file_diffs(name, project, a, b, main=False)
        return head + "".join(files.values())

    def file_diffs(self, name: str, project: str | None, a: int, b: int, *, main: bool = True) -> dict[str, str]:
        """Per-file unified diffs between versions a and b (only the files that differ; binary
        files and mode changes say so). `main`: SKILL.md and the evals file are included."""
        va, vb = self.get_exact(name, project, a), self.get_exact(name, project, b)
        return diff_files(
            f"{name} v{a}", f"{name} v{b}", self.version_files(va, main=main), self.version_files(vb, main=main)
        )

    def version_files(self, v: SkillVersionInfo, *, main: bool = True) -> dict[str, tuple[bytes, int]]:
        """Every file of a version: relative path -> (bytes, mode)."""
        blobs = self.blobs([f.sha256 for f in v.files])
        out: dict[str, tuple[bytes, int]] = {}
        if main:
            out[SKILL_FILE] = (v.content.encode("utf-8"), 0o644)
            if v.evals.strip():
                out[evals_filename(v.name)] = (v.evals.encode("utf-8"), 0o644)
        for f in v.files:
            out[f.path] = (blobs[f.sha256], f.mode)
        return out

    def blobs(self, shas: Sequence[str]) -> dict[str, bytes]:
        """The bytes of these blobs (by SHA-256)."""
        want = sorted(set(shas))
        out: dict[str, bytes] = {}
        with self.store.session() as s:
            for i in range(0, len(want), 500):
                for sha, data in s.execute(
                    select(SkillBlob.sha256, SkillBlob.data).where(SkillBlob.sha256.in_(want[i : i + 500]))
                ):
                    out[sha] = bytes(data)
        return out

    def get_exact(self, name: str, project: str | None, version: int) -> SkillVersionInfo:
        project = validate_project(project)
        with self.store.session() as s:
            sk = self._skill(s, name, project)
            if sk is None:
                raise NotFoundError(f"no skill named {name!r}" + (f" in project {project}" if project else ""))
            v = s.scalar(select(SkillVersion).where(SkillVersion.skill_id == sk.id, SkillVersion.version == version))
            if v is None:
                raise NotFoundError(f"skill {name!r} has no version {version}")
            self._refuse_forged(s, sk, v, current=False)
            return self._version_info(sk, v, _manifest(s, v.id))

    # ---------------------------------------------------------------- writing
    def save(
        self,
        name: str,
        project: str | None,
        content: str,
        evals: str | None = None,
        message: str = "",
        author: str | None = None,
    ) -> SkillVersionInfo:
        """Validate, then store a new version (creating the skill or fork if needed).

        Content that is identical to the current version creates nothing and returns it.
        A new version is a signed `skill_saved` audit event.
        """
        return self._save(name, project, content, evals, message, author, event="skill_saved")

    def _save(
        self,
        name: str,
        project: str | None,
        content: str,
        evals: str | None,
        message: str,
        author: str | None,
        *,
        event: str,
        extra: dict[str, object] | None = None,
        files: Sequence[SkillFile] | None = None,
        blobs: dict[str, bytes] | None = None,
    ) -> SkillVersionInfo:
        project = validate_project(project)
        doc = parse_skill_md(content, file=f"{name}/{SKILL_FILE}", max_bytes=self.limits.max_file)
        if doc.name != name:
            raise InvalidSpecError(
                f"'name' is {doc.name!r} but the skill being saved is {name!r}",
                file=f"{name}/{SKILL_FILE}",
                field="name",
            )
        if evals is None:
            evals = self._current_evals(name, project)
        if evals.strip():
            parse_rules_text(evals, file=f"{name}/{evals_filename(name)}")
        before = self._current_number(name, project)
        if files is not None:
            doc = _with_files(doc, files, blobs or {})
        # the version and its signed event: one transaction (issue 24); the folder after the commit
        with self.store.write() as tx:
            info = self._write_version(doc, evals, project, message or "edited", author or _author())
            if info.version != before:
                self._emit(
                    event,
                    {
                        "skill": name,
                        "project": project or None,
                        "version": info.version,
                        "previous": before,
                        "message": info.message,
                        "author": info.author,
                        "content_sha256": _sha256(info.content),
                        "evals_sha256": _sha256(info.evals),
                        **({"files": len(info.files)} if info.files else {}),
                        **(extra or {}),
                    },
                )
            self.store.after_commit(tx, lambda: self.export_after_commit([(name, project)]))
        return info

    def set_trigger_cases(
        self, name: str, project: str | None, cases: Sequence[TriggerCase], message: str = ""
    ) -> SkillVersionInfo:
        """A new version whose trigger file holds `cases` (the skill's other files unchanged): a
        signed `skill_saved` event, as any edit."""
        scope = self.resolve_scope(name, project)
        cur = self.get(name, scope or None)
        path = trigger_file([f.path for f in cur.files], name) or TRIGGER_FILES[0]
        data = dump_cases(cases).encode("utf-8")
        parse_cases(data, file=f"{name}/{path}")
        sha = hashlib.sha256(data).hexdigest()
        files = sorted([f for f in cur.files if f.path != path] + [SkillFile(path, sha, 0o644, len(data))])
        return self._save(
            name,
            scope,
            cur.content,
            cur.evals,
            message or f"trigger cases ({len(cases)})",
            None,
            event="skill_saved",
            extra={"trigger_cases": len(cases)},
            files=files,
            blobs={sha: data},
        )

    def set_rules(
        self, name: str, project: str | None, rules: builtins.list[dict[str, Any]], message: str = ""
    ) -> SkillVersionInfo:
        """Replace the rules of a skill (validated as a whole) as a new version."""
        project = validate_project(project)
        current = self.get(name, project)
        rs = parse_rules({"version": 1, "skill": name, "rules": rules}, file=f"{name}/{evals_filename(name)}")
        return self._save(
            name,
            project,
            current.content,
            rs.to_json(),
            message or "rules edited",
            None,
            event="skill_rules_saved",
            extra={"rules": [r.id for r in rs.rules]},
        )

    def _current_evals(self, name: str, project: str) -> str:
        with self.store.session() as s:
            sk = self._skill(s, name, project) or self._skill(s, name, GLOBAL)
            if sk is None:
                return ""
            v = s.scalar(
                select(SkillVersion).where(SkillVersion.skill_id == sk.id, SkillVersion.version == sk.current_version)
            )
            return v.evals if v else ""

    def _write_version(self, doc: SkillDoc, evals: str, project: str, message: str, author: str) -> SkillVersionInfo:
        evals = normalise_evals_text(evals, doc.name) if evals.strip() else ""
        with self.store.write() as s:
            info = self._write_version_in(s, doc, evals, project, message, author)
        return info

    def _write_version_in(
        self, s: Session, doc: SkillDoc, evals: str, project: str, message: str, author: str, *, absent: bool = False
    ) -> SkillVersionInfo:
        """`absent`: the caller read in this transaction that no such skill exists (no lookup)."""
        sk = None if absent else self._skill(s, doc.name, project)
        now = utcnow()
        files: Sequence[SkillFile] = doc.files if doc.files is not None else ()
        if sk is None:
            sk = Skill(name=doc.name, project=project, current_version=1, created_at=now, updated_at=now)
            s.add(sk)  # flushed with its first version below (one flush, not two)
            number = 1
        else:
            cur = s.scalar(
                select(SkillVersion).where(SkillVersion.skill_id == sk.id, SkillVersion.version == sk.current_version)
            )
            cur_files = _manifest(s, cur.id) if cur is not None else []
            if doc.files is None:  # an edit of SKILL.md or the rules: the other files stay
                files = cur_files
            if cur is not None and cur.content == doc.content and cur.evals == evals and list(files) == cur_files:
                return self._version_info(sk, cur, cur_files)
            number = (s.scalar(select(func.max(SkillVersion.version)).where(SkillVersion.skill_id == sk.id)) or 0) + 1
        v = SkillVersion(
            skill=sk,
            version=number,
            content=doc.content,
            evals=evals,
            description=doc.description,
            triggers=", ".join(doc.triggers),
            keywords=", ".join(doc.keywords),
            message=message,
            author=author,
            created_at=now,
        )
        s.add(v)
        sk.current_version = number
        sk.updated_at = now
        if not absent:
            s.flush()
        # a new skill (bulk import): its rows go with the transaction's next flush, in one batch
        _store_files(s, v, files, doc.blobs, flush=not absent)
        return self._version_info(sk, v, files)

    def restore(self, name: str, project: str | None, version: int, message: str = "") -> SkillVersionInfo:
        """Make an old version current again, as a new version (history is never rewritten)."""
        if self.verifier is not None and not self.store.info.get("lorekeeper_keyless_legacy"):
            self.verifier()  # the key session (a signed write anyway): the version copied is checked first
        old = self.get_exact(name, project, version)
        return self._save(
            name,
            project,
            old.content,
            old.evals,
            message or f"restored v{version}",
            None,
            event="skill_restored",
            extra={"restored": version},
            files=old.files,
        )

    def fork(self, name: str, project: str) -> SkillVersionInfo:
        """Start a project fork from the global skill's current version."""
        if self.verifier is not None and not self.store.info.get("lorekeeper_keyless_legacy"):
            self.verifier()  # the key session (a signed write anyway): the version copied is checked first
        project = validate_project(project)
        if not project:
            raise InvalidInputError("a fork needs a project")
        if self.exists(name, project):
            raise InvalidInputError(f"project {project} already has a fork of {name!r}")
        base = self.get(name)
        with self.store.write():  # the project, the fork and its event: one commit (issue 24)
            self.add_project(project)
            return self._save(
                name,
                project,
                base.content,
                base.evals,
                f"forked from global v{base.version}",
                None,
                event="skill_forked",
                extra={"base_version": base.version},
                files=base.files,
            )

    def delete_fork(self, name: str, project: str) -> None:
        """Delete a project's fork with its history: the project sees the global skill again.
        A signed `skill_fork_deleted` audit event records it (with the deleted current content's hash)."""
        project = validate_project(project)
        if not project:
            raise InvalidInputError("only project forks can be deleted; global skills keep their history")
        with self.store.write() as s:
            sk = self._skill(s, name, project)
            if sk is None:
                raise NotFoundError(f"project {project} has no fork of {name!r}")
            versions = list(s.scalars(select(SkillVersion).where(SkillVersion.skill_id == sk.id)))
            current = next((v for v in versions if v.version == sk.current_version), None)
            data: dict[str, object] = {
                "skill": name,
                "project": project,
                "versions": len(versions),
                "current_version": sk.current_version,
                "content_sha256": _sha256(current.content) if current is not None else None,
            }
            s.delete(sk)
            self._emit("skill_fork_deleted", data)  # in the deletion's transaction (issue 24)
        target = self._folder(name, project)
        try:
            if target is not None and target.exists():
                shutil.rmtree(target)
        except OSError as exc:
            raise _folder_error(target, exc) from None

    # ---------------------------------------------------------------- import / export
    def import_path(
        self,
        path: str | Path,
        project: str | None = None,
        message: str = "imported",
        *,
        record: bool = True,
        strict: bool = True,
        on_conflict: ConflictPolicy = "new-version",
        dry_run: bool = False,
        rename_to_folder: bool = False,
    ) -> ImportReport:
        """Import skill folders found at any depth in a folder or an archive (zip, GitHub archive, .skill).

        Every skill is validated before anything is written, and written in one transaction; a
        signed `skills_imported` audit event records it (`record=False`: the starter library and
        the demo seed at `init`, which records its own events). `strict` (the library default):
        one invalid skill imports nothing; otherwise every valid skill imports and each invalid one
        is reported with all its errors. `on_conflict` says what a name that exists with other
        content becomes (`Resolution`; the CLI and the GUI ask: "ask"). `dry_run`: nothing written.
        """
        return drive(  # type: ignore[no-any-return]
            self.import_steps,
            (path, project, message),
            {
                "record": record,
                "strict": strict,
                "on_conflict": on_conflict,
                "dry_run": dry_run,
                "rename_to_folder": rename_to_folder,
            },
        )

    def import_steps(
        self,
        path: str | Path,
        project: str | None = None,
        message: str = "imported",
        *,
        record: bool = True,
        strict: bool = True,
        on_conflict: ConflictPolicy = "new-version",
        dry_run: bool = False,
        rename_to_folder: bool = False,
    ) -> Generator[Progress, None, ImportReport]:
        """`import_path` as a job: yields `Progress` per skill read and validated, so a cancelled
        job stops between two skills, before anything is written (the transaction and the
        skills-folder export that follows it are not interrupted); returns the report."""
        project = validate_project(project)
        path = Path(path)
        if not path.exists():
            raise InvalidInputError(f"nothing to import at {path}")
        report = ImportReport(dry_run=dry_run)
        with open_source(path, self.limits) as source:
            if not source.skills:
                raise InvalidSpecError(f"no skill folder (a folder with {SKILL_FILE}) found", file=str(path))
            total = len(source.skills)
            # the same check as `skills validate` (issue 27 d4): both agree on every skill
            checked = yield from check_source_steps(source, self.limits, rename_to_folder=rename_to_folder)
        report.warnings.extend(checked.warnings)
        report.folder_renames.extend(checked.folder_renames)
        if strict and checked.first_error is not None:
            raise checked.first_error
        if strict and checked.duplicates:
            raise InvalidSpecError(
                f"skill(s) present twice in the import: {', '.join(sorted(checked.duplicates))}", file=str(path)
            )
        report.invalid.extend(checked.invalid)
        docs = checked.docs
        yield Progress(total, total, f"writing {len(docs)} skill(s)")
        author = _author()
        written: list[tuple[str, str]] = []
        if dry_run:
            with self.store.session() as s:
                self._apply_import(s, docs, project, message, author, on_conflict, report, written, write=False)
            return report
        if not docs:  # every skill refused (a hostile or broken source): nothing is written at all
            return report
        # the import and its signed event: one change set, one transaction (the event goes to the
        # audit outbox in the same transaction, issue 18)
        with self.store.capture() as captured, self.store.write() as s:
            if project and s.scalar(select(Project).where(Project.name == project)) is None:
                s.add(Project(name=project))
            self._apply_import(s, docs, project, message, author, on_conflict, report, written, write=True)
            if record and report.imported:
                self._emit(
                    "skills_imported",
                    {
                        "source": path.name,
                        "project": project or None,
                        "message": message,
                        "created": list(report.created),
                        "updated": list(report.updated),
                        "unchanged": len(report.unchanged),
                        **({"forked": list(report.forked)} if report.forked else {}),
                        **({"renamed": list(report.renamed)} if report.renamed else {}),
                    },
                )
        report.changes = captured.changes
        self.export_after_commit(written)
        return report

    def _apply_import(
        self,
        s: Session,
        docs: Sequence[tuple[SkillDoc, str]],
        project: str,
        message: str,
        author: str,
        policy: ConflictPolicy,
        report: ImportReport,
        written: builtins.list[tuple[str, str]],
        *,
        write: bool,
    ) -> None:
        """Classify each document (created / unchanged / a collision and what it becomes) and,
        when `write`, write it; `written` gets the (name, scope) folders to rewrite after commit."""
        renames = 0
        # issue 26: the rows of every imported name read at once (a bulk import of 10,000 skills
        # looked each one up twice); a skill this import creates or a rename target is looked up
        known = self._skills_named(s, sorted({doc.name for doc, _ in docs}))
        done: set[tuple[str, str]] = set(written)
        prefetch_blobs(s, (f.sha256 for doc, _ in docs for f in doc.files or ()))
        for doc, shown in docs:
            evals = normalise_evals_text(doc.evals_text, doc.name) if doc.evals_text.strip() else ""
            touched = (doc.name, project) in done  # the same name twice (a lenient import)
            before = self._skill(s, doc.name, project) if touched else known.get((doc.name, project))
            target_doc, scope = doc, project
            if before is not None:
                cur = s.scalar(
                    select(SkillVersion).where(
                        SkillVersion.skill_id == before.id, SkillVersion.version == before.current_version
                    )
                )
                cur_files = _manifest(s, cur.id) if cur is not None else []
                same = cur is not None and cur.content == doc.content and cur.evals == evals
                if same and list(doc.files or ()) == cur_files:
                    report.unchanged.append(doc.name)
                    continue
                res = _resolution(policy, doc.name)
                if res.action == "ask":
                    report.exists.append(
                        {
                            "name": doc.name,
                            "project": project or None,
                            "path": shown,
                            "version": before.current_version,
                            "diff": self._incoming_diff(cur, cur_files, doc, evals),
                        }
                    )
                    continue
                if res.action == "skip":
                    report.skipped.append(doc.name)
                    continue
                if res.action == "new-version":
                    report.updated.append(doc.name)
                elif res.action == "fork":
                    scope = validate_project(res.project)
                    if write and s.scalar(select(Project).where(Project.name == scope)) is None:
                        s.add(Project(name=scope))
                    report.forked.append({"name": doc.name, "project": scope})
                else:  # rename
                    renames += 1
                    if renames > 1:
                        raise InvalidInputError(
                            "--on-conflict rename NEW names one skill, but several imported skills collide: "
                            "import them one at a time"
                        )
                    target_doc = rename_doc(doc, res.name)
                    if self._skill(s, res.name, project) is not None:
                        raise InvalidInputError(
                            f"cannot rename {doc.name!r} to {res.name!r}: that name exists too; choose another"
                        )
                    evals = normalise_evals_text(renamed_evals(doc.evals_text, res.name), res.name) if evals else ""
                    report.renamed.append({"from": doc.name, "to": res.name})
            else:
                report.created.append(doc.name)
            if write:
                key = (target_doc.name, scope)
                absent = target_doc.name == doc.name and key not in known and key not in done
                self._write_version_in(s, target_doc, evals, scope, message, author, absent=absent)
                written.append(key)
                done.add(key)

    def _incoming_diff(
        self, cur: SkillVersion | None, cur_files: Sequence[SkillFile], doc: SkillDoc, evals: str
    ) -> str:
        """What an import would change in the current version: a per-file unified diff."""
        old: dict[str, tuple[bytes, int]] = {}
        if cur is not None:
            old[SKILL_FILE] = (cur.content.encode("utf-8"), 0o644)
            if cur.evals.strip():
                old[evals_filename(doc.name)] = (cur.evals.encode("utf-8"), 0o644)
            blobs = self.blobs([f.sha256 for f in cur_files])
            old.update({f.path: (blobs[f.sha256], f.mode) for f in cur_files})
        new: dict[str, tuple[bytes, int]] = {SKILL_FILE: (doc.content.encode("utf-8"), 0o644)}
        if evals:
            new[evals_filename(doc.name)] = (evals.encode("utf-8"), 0o644)
        new.update({f.path: (doc.blobs[f.sha256], f.mode) for f in doc.files or ()})
        label = f"v{cur.version}" if cur is not None else "current"
        text = "".join(diff_files(f"{doc.name} {label}", f"{doc.name} imported", old, new).values())
        return text if len(text) <= 20000 else text[:20000] + "\n... (diff cut at 20,000 characters)\n"

    def _folder(self, name: str, project: str) -> Path | None:
        if self.skills_dir is None:
            return None
        if project:
            return self.skills_dir / FORKS_DIR / project / name
        return self.skills_dir / name

    def _export(self, name: str, project: str) -> None:
        folder = self._folder(name, project)
        if folder is None:
            return
        want = self.folder_contents(name, project)
        if want is None:
            return
        write_folder(folder, *want)  # a file where the folder belongs fails: `lorekeeper repair` moves it aside

    def folder_contents(
        self, name: str, project: str
    ) -> tuple[dict[str, bytes], builtins.list[SkillFile], dict[str, bytes]] | None:
        """What a skill's folder holds: SKILL.md and the evals file, the other files, their blobs."""
        with self.store.session() as s:
            sk = self._skill(s, name, project)
            if sk is None:
                return None
            v = s.scalar(
                select(SkillVersion).where(SkillVersion.skill_id == sk.id, SkillVersion.version == sk.current_version)
            )
            assert v is not None
            if not self._verified(s, sk, v):  # issue 24: a forged version never reaches skills/
                self.forged_skipped.add((name, project))
                return None
            files = _manifest(s, v.id)
            content, evals = v.content, v.evals
        main = {SKILL_FILE: content.encode("utf-8")}
        if evals.strip():
            main[evals_filename(name)] = evals.encode("utf-8")
        return main, files, self.blobs([f.sha256 for f in files])

    EXPORT_BATCH = 500  # skills read, verified and written per batch (issue 26: no query per skill)

    def folder_contents_many(
        self, skills: Sequence[tuple[str, str]]
    ) -> dict[tuple[str, str], tuple[dict[str, bytes], builtins.list[SkillFile], dict[str, bytes]]]:
        """`folder_contents` for many (name, project) skills at once: one query for the rows, one
        verification pass, one manifest and blob read per batch. A skill that is missing, or whose
        version does not verify (noted in `forged_skipped`), is absent from the answer."""
        want = set(skills)
        names = sorted({name for name, _ in want})
        out: dict[tuple[str, str], tuple[dict[str, bytes], builtins.list[SkillFile], dict[str, bytes]]] = {}
        with self.store.session() as s:
            rows: builtins.list[Any] = []
            for i in range(0, len(names), 500):
                rows += [
                    (sk, v)
                    for sk, v in s.execute(
                        select(Skill, SkillVersion)
                        .join(
                            SkillVersion,
                            (SkillVersion.skill_id == Skill.id) & (SkillVersion.version == Skill.current_version),
                        )
                        .where(Skill.name.in_(names[i : i + 500]))
                    ).all()
                    if (sk.name, sk.project) in want
                ]
            kept = self._verified_rows(s, rows)
            for sk, _v in set(rows) - set(kept):  # issue 24: a forged version never reaches skills/
                self.forged_skipped.add((sk.name, sk.project))
            manifests = _manifests(s, [v.id for _, v in kept])
            found = [(sk.name, sk.project, v.content, v.evals, manifests.get(v.id, [])) for sk, v in kept]
        blobs = self.blobs([f.sha256 for *_, files in found for f in files])
        for name, project, content, evals, files in found:
            main = {SKILL_FILE: content.encode("utf-8")}
            if evals.strip():
                main[evals_filename(name)] = evals.encode("utf-8")
            out[(name, project)] = (main, files, {f.sha256: blobs[f.sha256] for f in files})
        return out

    def _export_many(self, skills: Sequence[tuple[str, str]]) -> tuple[Path | None, OSError] | None:
        """Write these skills' folders, a batch at a time; the first failure (every folder is tried)."""
        first: tuple[Path | None, OSError] | None = None
        todo = [(name, project) for name, project in skills if self._folder(name, project) is not None]
        for i in range(0, len(todo), self.EXPORT_BATCH):
            batch = todo[i : i + self.EXPORT_BATCH]
            contents = self.folder_contents_many(batch)
            for name, project in batch:
                want = contents.get((name, project))
                folder = self._folder(name, project)
                if want is None or folder is None:
                    continue
                try:
                    write_folder(folder, *want)  # a file where the folder belongs fails: `repair` moves it aside
                except OSError as exc:
                    first = first or (folder, exc)
        return first

    def export_all(self) -> None:
        with self.folder.writing():
            failed = self._export_many([(info.name, info.project) for info in self.list()])
        if failed is not None:
            raise failed[1]

    # ---------------------------------------------------------------- for a service's own transaction
    # The proposal queue writes a skill version and its decision in ONE transaction: these are the
    # library's public entry points for that (it never reaches into the library's private helpers).
    def skill_in(self, s: Session, name: str, project: str) -> Skill | None:
        """The skill row of exactly that scope, read in the caller's session."""
        return self._skill(s, name, project)

    def write_version_in(
        self, s: Session, doc: SkillDoc, evals: str, project: str, message: str, author: str
    ) -> SkillVersionInfo:
        """Write a new current version inside the caller's transaction; call `committed` after it commits."""
        info: SkillVersionInfo = self._write_version_in(s, doc, evals, project, message, author)
        return info

    def committed(self, name: str, project: str) -> None:
        """After the caller's transaction committed (the store revision moved with it): write the folder."""
        self.export_after_commit([(name, project)])

    def export_after_commit(self, skills: Sequence[tuple[str, str]]) -> None:
        """Rewrite the folders of these (name, project) skills after their change is committed.

        A failed write leaves the store change in place and raises ERR_DERIVED_WRITE_FAILED
        naming the remedy (`lorekeeper repair`); every folder is attempted first.
        """
        first: tuple[Path | None, OSError] | None
        # exclusive: two processes exporting at once would remove each other's temp files, and the
        # one that read the older version could write last; serialised, the last holder reads the
        # latest committed version. A start-up sweep never removes a live temp file either.
        with self.folder.writing():
            with contextlib.suppress(OSError):
                self.folder.unrecord()  # a crash from here on leaves the folder marked stale
            first = self._export_many(skills)
        if first is not None:
            with contextlib.suppress(OSError):
                self.folder.record(failed=True)  # the user is told to run `repair`; start leaves it to them
            raise _folder_error(first[0], first[1])
        with contextlib.suppress(OSError):
            self.folder.record()

    def folder_state(self) -> builtins.list[tuple[str, str, Path, builtins.list[str]]]:
        """Each skill's folder and what in it differs from the store: (name, scope, folder, paths)."""
        out: builtins.list[tuple[str, str, Path, builtins.list[str]]] = []
        if self.skills_dir is None:
            return out
        with self.store.session() as s:
            scopes = [(sk.name, sk.project) for sk in s.scalars(select(Skill).order_by(Skill.name, Skill.project))]
        for name, project in scopes:
            folder = self._folder(name, project)
            want = self.folder_contents(name, project)
            if folder is None or want is None:
                continue
            diffs = folder_differences(folder, *want)
            if diffs:
                out.append((name, project, folder, diffs))
        return out


def _folder_error(folder: Path | None, exc: OSError) -> DerivedWriteError:
    return DerivedWriteError(
        f"the change is saved in the store, but the skills folder could not be written "
        f"({folder}: {exc.strerror or exc}). Fix the folder's permissions, then run `lorekeeper repair`.",
        path=str(folder) if folder else None,
    )


class SkillFolder:
    """The workspace's `skills/` folder as a `Derived` artefact: current versions, rebuilt from the store."""

    derived_name = "skills-folder"

    def __init__(self, library: SkillLibrary) -> None:
        self.library = library

    def _rel(self, path: Path) -> str:
        root = self.library.skills_dir
        return str(path.relative_to(root.parent)) if root is not None else str(path)

    # issue 18: crash-clean export. A crash mid-export leaves temp files (swept at start and by
    # repair) and a folder behind the store: the marker records the skills state the folder was
    # last fully written for; it is removed before an export starts and written when it ends, so a
    # missing or different marker at start means "check and rebuild".
    MARKER = ".lorekeeper-export.json"

    def fingerprint(self) -> str:
        """The revision of what the folder exports: moves with any new version, restore, fork or deletion."""
        from sqlalchemy import func

        with self.library.store.session() as s:
            n_versions, max_version = s.execute(select(func.count(SkillVersion.id), func.max(SkillVersion.id))).one()
            n_skills, current = s.execute(select(func.count(Skill.id), func.sum(Skill.current_version))).one()
        return f"{n_versions}:{max_version or 0}:{n_skills}:{current or 0}"

    def _marker(self) -> Path | None:
        root = self.library.skills_dir
        return root / self.MARKER if root is not None else None

    def _read_marker(self) -> dict[str, Any]:
        marker = self._marker()
        try:
            data = safejson.loads(read_regular_text(marker, what="export marker")) if marker else {}
        except (OSError, ValueError, LorekeeperError):
            return {}
        return data if isinstance(data, dict) else {}

    def recorded(self) -> str | None:
        rev = self._read_marker().get("revision")
        return str(rev) if rev is not None else None

    def record(self, *, failed: bool = False) -> None:
        """The revision the folder was written for; `failed`: an export failed (ERR_DERIVED_WRITE_FAILED)."""
        marker = self._marker()
        if marker is not None and marker.parent.is_dir():
            data: dict[str, Any] = {"revision": self.fingerprint()}
            if failed:
                data["failed"] = True
            atomic_write_text(marker, json.dumps(data) + "\n")

    def unrecord(self) -> None:
        marker = self._marker()
        if marker is not None:
            marker.unlink(missing_ok=True)

    def sweep(self) -> int:
        """The export's crash debris removed (under the export lock); how many files."""
        root = self.library.skills_dir
        return len(debris.sweep(root)) if root is not None else 0

    def temp_files(self) -> list[Path]:
        root = self.library.skills_dir
        if root is None or not root.is_dir():
            return []
        return sorted(temp_files_under(root))

    def _lock(self) -> RWLock | None:
        root = self.library.skills_dir
        return export_lock(root) if root is not None else None

    @contextmanager
    def writing(self) -> Iterator[None]:
        """Held (exclusive) while an export writes: other exports and sweeping wait for it."""
        lock = self._lock()
        root = self.library.skills_dir
        if lock is None or root is None or not lock.path.parent.parent.is_dir():
            yield
            return
        with lock.exclusive(), debris.exporting(root):
            yield

    def recover(self) -> int:
        """At start: sweep crash debris; rebuild when the recorded revision is not the store's.
        Skipped when another process is exporting right now (its temp files are live)."""
        root = self.library.skills_dir
        lock = self._lock()
        if root is None or lock is None or not root.is_dir():
            return 0
        try:
            with lock.exclusive(timeout=0.2):
                marker = self._read_marker()
                current = str(marker.get("revision")) == self.fingerprint()
                if not current or debris.has_debris(root):  # an export died (the journal), or it is stale
                    debris.sweep_locked(root)
                if marker.get("failed") or current:
                    return 0  # up to date; or a failed write the user was told to `repair` (a file may block it)
                with debris.exporting(root):
                    return self._rebuild_locked()
        except LockTimeoutError:
            return 0

    def stale(self) -> list[str]:
        out = [self._rel(p) + " (half-written temp file)" for p in self.temp_files()]
        root = self.library.skills_dir
        for _name, _project, folder, diffs in self.library.folder_state():
            blocked = _blocker(folder, root)
            why = f" ({self._rel(blocked)} is a file)" if blocked is not None else ""
            out.extend(self._rel(folder / d) + why for d in diffs)
        return out

    def rebuild(self) -> int:
        """Write what differs from the store; a file standing where a folder belongs is moved aside."""
        lock = self._lock()
        root = self.library.skills_dir
        if lock is None or root is None:
            return self._rebuild_locked()
        with lock.exclusive(), debris.exporting(root):
            return self._rebuild_locked()

    def _rebuild_locked(self) -> int:
        written = 0
        root = self.library.skills_dir
        if root is not None:
            written += len(sweep_temp_files(root))
        for name, project, folder, _diffs in self.library.folder_state():
            want = self.library.folder_contents(name, project)
            if want is None:
                continue
            _clear_blockers(folder, self.library.skills_dir)
            written += write_folder(folder, *want)
        self.record()
        return written


def _blocker(folder: Path, root: Path | None) -> Path | None:
    """A file standing where a folder of `folder` belongs (under skills/, or skills/ itself)."""
    if root is None:
        return None
    for parent in [root, *(root / p for p in reversed(folder.relative_to(root).parents[:-1])), folder]:
        if parent.is_symlink() or (parent.exists() and not parent.is_dir()):
            return parent
    return None


def _clear_blockers(folder: Path, root: Path | None) -> None:
    blocked = _blocker(folder, root)
    while blocked is not None:
        blocked.rename(blocked.with_name(f"{blocked.name}.not-a-folder-{utcnow().strftime('%Y%m%d%H%M%S')}"))
        blocked = _blocker(folder, root)


def _manifest(s: Session, version_id: int) -> builtins.list[SkillFile]:
    return _manifests(s, [version_id]).get(version_id, [])


def _manifests(s: Session, version_ids: Sequence[int]) -> dict[int, builtins.list[SkillFile]]:
    out: dict[int, builtins.list[SkillFile]] = {}
    ids = builtins.list(version_ids)
    for i in range(0, len(ids), 500):
        rows = s.execute(
            select(
                SkillVersionFile.version_id,
                SkillVersionFile.path,
                SkillVersionFile.sha256,
                SkillVersionFile.mode,
                SkillBlob.size,
            )
            .join(SkillBlob, SkillBlob.sha256 == SkillVersionFile.sha256)
            .where(SkillVersionFile.version_id.in_(ids[i : i + 500]))
        )
        for vid, path, sha, mode, size in rows:
            out.setdefault(vid, []).append(SkillFile(path, sha, mode, size))
    for files in out.values():
        files.sort()
    return out


BLOBS_STORED = "lorekeeper_blobs_stored"  # session.info: blob sha256s known to be in the store
BLOBS_CHECKED = "lorekeeper_blobs_checked"  # session.info: blob sha256s already looked up


def prefetch_blobs(s: Session, shas: Iterable[str]) -> None:
    """Look these blobs up in one query per 500 (`_store_files` then asks nothing for them)."""
    have: set[str] = s.info.setdefault(BLOBS_STORED, set())
    checked: set[str] = s.info.setdefault(BLOBS_CHECKED, set())
    ask = sorted(set(shas) - checked)
    for i in range(0, len(ask), 500):
        have.update(s.scalars(select(SkillBlob.sha256).where(SkillBlob.sha256.in_(ask[i : i + 500]))))
    checked.update(ask)


def _store_files(
    s: Session, version: SkillVersion, files: Sequence[SkillFile], blobs: Mapping[str, bytes], *, flush: bool = True
) -> None:
    """The version's file rows; a blob is written once, whoever else holds the same bytes."""
    if not files:
        return
    shas = sorted({f.sha256 for f in files})
    # the blobs this transaction knows to be stored (a bulk import checks them all at once)
    have: set[str] = s.info.setdefault(BLOBS_STORED, set())
    checked: set[str] = s.info.setdefault(BLOBS_CHECKED, set())
    ask = [sha for sha in shas if sha not in checked]
    for i in range(0, len(ask), 500):
        have.update(s.scalars(select(SkillBlob.sha256).where(SkillBlob.sha256.in_(ask[i : i + 500]))))
    checked.update(ask)
    for sha in shas:
        if sha not in have:
            if sha not in blobs:
                raise InvalidInputError(f"file content {sha[:12]} is not in the store")
            s.add(SkillBlob(sha256=sha, size=len(blobs[sha]), data=blobs[sha]))
            have.add(sha)
    for f in files:
        s.add(SkillVersionFile(version=version, path=f.path, sha256=f.sha256, mode=f.mode))
    if flush:
        s.flush()


def _with_files(doc: SkillDoc, files: Sequence[SkillFile], blobs: dict[str, bytes]) -> SkillDoc:
    return replace(doc, files=tuple(files), blobs=blobs)


def _resolution(policy: ConflictPolicy, name: str) -> Resolution:
    if isinstance(policy, Resolution):
        return policy
    if isinstance(policy, str):
        return Resolution(policy)
    return policy.get(name, Resolution("ask"))
