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
import tempfile
import zipfile
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from lorekeeper.changes import ChangeSet
from lorekeeper.errors import DerivedWriteError, InvalidInputError, InvalidSpecError, NotFoundError
from lorekeeper.evals.rules import RuleSet, parse_rules, parse_rules_text
from lorekeeper.fsutil import atomic_write_text, is_temp_file, sweep_temp_files
from lorekeeper.jobs import Progress, drive
from lorekeeper.locks import LockTimeoutError, RWLock
from lorekeeper.skills.router import RoutableSkill
from lorekeeper.skills.spec import (
    SKILL_FILE,
    SkillDoc,
    evals_filename,
    find_skill_dirs,
    normalise_evals_text,
    parse_skill_md,
    read_skill_dir,
    split_terms,
)
from lorekeeper.store.engine import Store
from lorekeeper.store.models import GLOBAL, Project, Skill, SkillVersion, utcnow
from lorekeeper.store.scopes import validate_project

FORKS_DIR = "_forks"  # skills/_forks/<project>/<name>/ — '_' cannot start a skill name

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
        }


@dataclass
class ImportReport:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    #: what the import's transaction committed (kinds -> ids); not part of `to_dict()` (the CLI's JSON)
    changes: ChangeSet = field(default_factory=ChangeSet, compare=False)

    def to_dict(self) -> dict[str, list[str]]:
        return {"created": self.created, "updated": self.updated, "unchanged": self.unchanged}


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
    def __init__(self, store: Store, skills_dir: Path | None = None, on_event: SkillEventHook | None = None) -> None:
        self.store = store
        self.skills_dir = skills_dir
        self.folder = SkillFolder(self)
        self.on_event = on_event  # saves, rule edits, restores, forks, fork deletions, imports: signed
        self.audit_warnings: list[str] = []

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
    def list(self, project: str | None = None, search: str = "", include_forks: bool = True) -> list[SkillInfo]:
        """Current versions. project=None: every skill (globals and all forks); project=P: what P
        sees (its forks replace the globals of the same name); search filters on name,
        description, triggers and keywords."""
        with self.store.session() as s:
            rows = s.execute(
                select(Skill, SkillVersion)
                .join(
                    SkillVersion, (SkillVersion.skill_id == Skill.id) & (SkillVersion.version == Skill.current_version)
                )
                .order_by(Skill.name, Skill.project)
            ).all()
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
            return self._version_info(sk, v)

    @staticmethod
    def _version_info(sk: Skill, v: SkillVersion) -> SkillVersionInfo:
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
            return [self._version_info(sk, v) for v in rows]

    def rules(self, name: str, project: str | None = None) -> RuleSet:
        return self.get(name, project).rules()

    def routable(self, project: str | None = None) -> builtins.list[RoutableSkill]:
        """What the router scores for a project: globals, with that project's forks in their place."""
        return [
            RoutableSkill(i.name, i.description, i.triggers, i.keywords) for i in self.list(project=project or GLOBAL)
        ]

    def diff(self, name: str, project: str | None, a: int, b: int) -> str:
        va, vb = self.get_exact(name, project, a), self.get_exact(name, project, b)
        out = difflib.unified_diff(
            (va.content + "\n" + va.evals).splitlines(keepends=True),
            (vb.content + "\n" + vb.evals).splitlines(keepends=True),
            fromfile=f"{name} v{a}",
            tofile=f"{name} v{b}",
        )
        return "".join(out)

    def get_exact(self, name: str, project: str | None, version: int) -> SkillVersionInfo:
        for v in self.versions(name, project):
            if v.version == version:
                return v
        raise NotFoundError(f"skill {name!r} has no version {version}")

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
    ) -> SkillVersionInfo:
        project = validate_project(project)
        doc = parse_skill_md(content, file=f"{name}/{SKILL_FILE}")
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
                    **(extra or {}),
                },
            )
        self.export_after_commit([(name, project)])
        return info

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
        self, s: Session, doc: SkillDoc, evals: str, project: str, message: str, author: str
    ) -> SkillVersionInfo:
        sk = self._skill(s, doc.name, project)
        now = utcnow()
        if sk is None:
            sk = Skill(name=doc.name, project=project, current_version=1, created_at=now, updated_at=now)
            s.add(sk)
            s.flush()
            number = 1
        else:
            cur = s.scalar(
                select(SkillVersion).where(SkillVersion.skill_id == sk.id, SkillVersion.version == sk.current_version)
            )
            if cur is not None and cur.content == doc.content and cur.evals == evals:
                return self._version_info(sk, cur)
            number = (s.scalar(select(func.max(SkillVersion.version)).where(SkillVersion.skill_id == sk.id)) or 0) + 1
        v = SkillVersion(
            skill_id=sk.id,
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
        s.flush()
        return self._version_info(sk, v)

    def restore(self, name: str, project: str | None, version: int, message: str = "") -> SkillVersionInfo:
        """Make an old version current again, as a new version (history is never rewritten)."""
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
        )

    def fork(self, name: str, project: str) -> SkillVersionInfo:
        """Start a project fork from the global skill's current version."""
        project = validate_project(project)
        if not project:
            raise InvalidInputError("a fork needs a project")
        if self.exists(name, project):
            raise InvalidInputError(f"project {project} already has a fork of {name!r}")
        base = self.get(name)
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
        self._emit("skill_fork_deleted", data)
        target = self._folder(name, project)
        try:
            if target is not None and target.exists():
                shutil.rmtree(target)
        except OSError as exc:
            raise _folder_error(target, exc) from None

    # ---------------------------------------------------------------- import / export
    def import_path(
        self, path: str | Path, project: str | None = None, message: str = "imported", *, record: bool = True
    ) -> ImportReport:
        """Import a skill folder, a folder of skill folders, or a zip of them.

        Everything is validated before anything is written, and written in one transaction; a
        signed `skills_imported` audit event records it (`record=False`: the starter library and
        the demo seed at `init`, which records its own events).
        """
        return drive(self.import_steps, (path, project, message), {"record": record})  # type: ignore[no-any-return]

    def import_steps(
        self, path: str | Path, project: str | None = None, message: str = "imported", *, record: bool = True
    ) -> Generator[Progress, None, ImportReport]:
        """`import_path` as a job: yields `Progress` per skill read and validated, so a cancelled
        job stops between two skills, before anything is written (the transaction and the
        skills-folder export that follows it are not interrupted); returns the report."""
        project = validate_project(project)
        path = Path(path)
        if not path.exists():
            raise InvalidInputError(f"nothing to import at {path}")
        with skill_source(path) as (_, dirs):
            if not dirs:
                raise InvalidSpecError(f"no skill folder (a folder with {SKILL_FILE}) found", file=str(path))
            docs = []
            for n, d in enumerate(dirs):
                yield Progress(n, len(dirs), f"reading {d.name}")
                docs.append(read_skill_dir(d))
        yield Progress(len(dirs), len(dirs), f"writing {len(docs)} skill(s)")
        names = [d.name for d in docs]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise InvalidSpecError(f"skill(s) present twice in the import: {', '.join(dupes)}", file=str(path))
        report = ImportReport()
        author = _author()
        # the import and its signed event: one change set, one transaction
        with self.store.capture() as captured, self.store.write() as s:
            if project and s.scalar(select(Project).where(Project.name == project)) is None:
                s.add(Project(name=project))
            for doc in docs:
                before = self._skill(s, doc.name, project)
                before_version = before.current_version if before else None
                evals = normalise_evals_text(doc.evals_text, doc.name) if doc.evals_text.strip() else ""
                info = self._write_version_in(s, doc, evals, project, message, author)
                if before is None:
                    report.created.append(doc.name)
                elif info.version != before_version:
                    report.updated.append(doc.name)
                else:
                    report.unchanged.append(doc.name)
            if record and (report.created or report.updated):  # in the transaction: the outbox (issue 18)
                self._emit(
                    "skills_imported",
                    {
                        "source": path.name,
                        "project": project or None,
                        "message": message,
                        "created": list(report.created),
                        "updated": list(report.updated),
                        "unchanged": len(report.unchanged),
                    },
                )
        report.changes = captured.changes

        self.export_after_commit([(doc.name, project) for doc in docs])
        return report

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
        with self.store.session() as s:
            sk = self._skill(s, name, project)
            if sk is None:
                return
            v = s.scalar(
                select(SkillVersion).where(SkillVersion.skill_id == sk.id, SkillVersion.version == sk.current_version)
            )
        assert v is not None
        atomic_write_text(folder / SKILL_FILE, v.content)
        evals_path = folder / evals_filename(name)
        if v.evals.strip():
            atomic_write_text(evals_path, v.evals)
        elif evals_path.exists():
            evals_path.unlink()

    def export_all(self) -> None:
        with self.folder.writing():
            for info in self.list():
                self._export(info.name, info.project)

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
        first: tuple[Path | None, OSError] | None = None
        with self.folder.writing():  # shared: a start-up sweep never removes a live temp file
            with contextlib.suppress(OSError):
                self.folder.unrecord()  # a crash from here on leaves the folder marked stale
            for name, project in skills:
                try:
                    self._export(name, project)
                except OSError as exc:
                    first = first or (self._folder(name, project), exc)
        if first is not None:
            with contextlib.suppress(OSError):
                self.folder.record(failed=True)  # the user is told to run `repair`; start leaves it to them
            raise _folder_error(first[0], first[1])
        with contextlib.suppress(OSError):
            self.folder.record()

    def expected_files(self) -> dict[Path, str | None]:
        """What the skills/ folder should hold: path -> text (None: the file must not exist)."""
        out: dict[Path, str | None] = {}
        if self.skills_dir is None:
            return out
        with self.store.session() as s:
            rows = s.execute(
                select(Skill, SkillVersion).join(
                    SkillVersion, (SkillVersion.skill_id == Skill.id) & (SkillVersion.version == Skill.current_version)
                )
            ).all()
            for sk, v in rows:
                folder = self._folder(sk.name, sk.project)
                assert folder is not None
                out[folder / SKILL_FILE] = v.content
                out[folder / evals_filename(sk.name)] = v.evals if v.evals.strip() else None
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

    def _blocked(self, path: Path) -> Path | None:
        """A file standing where a folder of `path` belongs (under skills/, or skills/ itself)."""
        root = self.library.skills_dir
        if root is None:
            return None
        for parent in [root, *reversed(path.relative_to(root).parents[:-1])]:
            folder = parent if parent == root else root / parent
            if folder.exists() and not folder.is_dir():
                return folder
        return None

    def _stale_paths(self) -> list[tuple[Path, str | None]]:
        stale: list[tuple[Path, str | None]] = []
        for path, want in sorted(self.library.expected_files().items()):
            if want is None:
                if path.is_file():
                    stale.append((path, None))
                continue
            try:
                same = path.read_text(encoding="utf-8") == want
            except (OSError, UnicodeDecodeError):
                same = False
            if not same:
                stale.append((path, want))
        return stale

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
            data = json.loads(marker.read_text(encoding="utf-8")) if marker else {}
        except (OSError, ValueError):
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

    def temp_files(self) -> list[Path]:
        root = self.library.skills_dir
        if root is None or not root.is_dir():
            return []
        return sorted(p for p in root.rglob(".*.tmp") if p.is_file() and is_temp_file(p))

    def _lock(self) -> RWLock | None:
        root = self.library.skills_dir
        return RWLock(root.parent / "locks" / "skills-export.lock") if root is not None else None

    @contextmanager
    def writing(self) -> Iterator[None]:
        """Held (shared) while exports write: sweeping waits for them (exclusive)."""
        lock = self._lock()
        if lock is None or not lock.path.parent.parent.is_dir():
            yield
            return
        with lock.shared():
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
                sweep_temp_files(root)
                marker = self._read_marker()
                if marker.get("failed") or str(marker.get("revision")) == self.fingerprint():
                    return 0  # up to date; or a failed write the user was told to `repair` (a file may block it)
                return self._rebuild_locked()
        except LockTimeoutError:
            return 0

    def stale(self) -> list[str]:
        out = [self._rel(p) + " (half-written temp file)" for p in self.temp_files()]
        for path, want in self._stale_paths():
            blocked = self._blocked(path)
            why = " (should not exist)" if want is None else (f" ({self._rel(blocked)} is a file)" if blocked else "")
            out.append(self._rel(path) + why)
        return out

    def rebuild(self) -> int:
        """Write what differs from the store; a file standing where a folder belongs is moved aside."""
        lock = self._lock()
        if lock is None:
            return self._rebuild_locked()
        with lock.exclusive():
            return self._rebuild_locked()

    def _rebuild_locked(self) -> int:
        written = 0
        root = self.library.skills_dir
        if root is not None:
            written += len(sweep_temp_files(root))
        for path, want in self._stale_paths():
            blocked = self._blocked(path)
            if blocked is not None:
                blocked.rename(blocked.with_name(f"{blocked.name}.not-a-folder-{utcnow().strftime('%Y%m%d%H%M%S')}"))
            if want is None:
                path.unlink(missing_ok=True)
            else:
                atomic_write_text(path, want)
            written += 1
        self.record()
        return written


@contextmanager
def skill_source(path: Path) -> Iterator[tuple[Path, list[Path]]]:
    """The skill folders in a folder or a zip archive (extracted to a temporary folder)."""
    path = Path(path)
    if path.is_file():
        with tempfile.TemporaryDirectory(prefix="lk-import-") as tmp:
            root = _unzip(path, Path(tmp))
            yield root, _skill_dirs_deep(root)
    else:
        yield path, _skill_dirs_deep(path)


def _skill_dirs_deep(root: Path) -> list[Path]:
    """Skill folders at root, one level down, or one level below a single wrapping folder."""
    found = find_skill_dirs(root)
    if found:
        return found
    subdirs = [p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "__"))]
    out: list[Path] = []
    for d in subdirs:
        out.extend(find_skill_dirs(d))
    return out


def _unzip(path: Path, dest: Path) -> Path:
    if not zipfile.is_zipfile(path):
        raise InvalidSpecError("not a skill folder or a zip archive", file=str(path))
    with zipfile.ZipFile(path) as zf:
        for member in zf.infolist():
            target = (dest / member.filename).resolve()
            if not str(target).startswith(str(dest.resolve())):
                raise InvalidSpecError(f"unsafe path in archive: {member.filename}", file=str(path))
        zf.extractall(dest)
    return dest
