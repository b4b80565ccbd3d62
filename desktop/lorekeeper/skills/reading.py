"""`SkillReader`: the library's current versions, histories, files and diffs, as the front ends read them.

Every version handed out went through `SkillRows.refuse_forged` (one) or `verified_rows` (many).
"""

from __future__ import annotations

import builtins
import difflib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import select

from lorekeeper.errors import LorekeeperError, NotFoundError
from lorekeeper.evals.rules import RuleSet
from lorekeeper.skills.files import diff_files
from lorekeeper.skills.model import SkillInfo, SkillVersionInfo
from lorekeeper.skills.router import RoutableSkill
from lorekeeper.skills.rows import SkillRows, manifest, manifests
from lorekeeper.skills.spec import SKILL_FILE, evals_filename, split_terms
from lorekeeper.skills.triggers import NAMED_SUFFIX, TRIGGER_FILES, TriggerCase, parse_cases, trigger_file
from lorekeeper.store.models import GLOBAL, Project, Skill, SkillVersion, SkillVersionFile
from lorekeeper.store.scopes import validate_project


def rules_count(evals: str) -> int:
    if not evals.strip():
        return 0
    try:
        data = json.loads(evals)
        return len(data.get("rules", [])) if isinstance(data, dict) else len(data)
    except ValueError:
        return 0


class SkillReader:
    """Lists, versions, files and diffs of the library (each call opens its own session)."""

    def __init__(self, rows: SkillRows) -> None:
        self.rows = rows
        self.store = rows.store

    def list(
        self, project: str | None = None, search: str = "", include_forks: bool = True, *, verified: bool = False
    ) -> builtins.list[SkillInfo]:
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
            if verified and self.rows.key_for_reading():
                rows = self.rows.verified_rows(s, rows)
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
                rules_count=rules_count(v.evals),
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

    def exists(self, name: str, project: str = GLOBAL) -> bool:
        with self.store.session() as s:
            return self.rows.skill(s, name, validate_project(project)) is not None

    def resolve_scope(self, name: str, project: str | None) -> str:
        """The scope that serves `name` for `project`: its fork when there is one, else global."""
        project = validate_project(project)
        with self.store.session() as s:
            if project and self.rows.skill(s, name, project) is not None:
                return project
            if self.rows.skill(s, name, GLOBAL) is not None:
                return GLOBAL
        where = f" (project {project})" if project else ""
        raise NotFoundError(f"no skill named {name!r}{where}. `lorekeeper skills list` shows the library.")

    def get(self, name: str, project: str | None = None, version: int | None = None) -> SkillVersionInfo:
        """A version (the current one by default) of the skill that serves `project`."""
        scope = self.resolve_scope(name, project)
        with self.store.session() as s:
            sk = self.rows.skill(s, name, scope)
            assert sk is not None
            want = version if version is not None else sk.current_version
            v = self.rows.version_row(s, sk, want)
            if v is None:
                raise NotFoundError(f"skill {name!r} has no version {want}")
            self.rows.refuse_forged(s, sk, v, current=version is None or want == sk.current_version)
            return self.rows.version_info(sk, v, manifest(s, v.id))

    def get_exact(self, name: str, project: str | None, version: int) -> SkillVersionInfo:
        """Version `version` of exactly that scope (global when project is empty)."""
        project = validate_project(project)
        with self.store.session() as s:
            sk = self.rows.skill(s, name, project)
            if sk is None:
                raise NotFoundError(f"no skill named {name!r}" + (f" in project {project}" if project else ""))
            v = self.rows.version_row(s, sk, version)
            if v is None:
                raise NotFoundError(f"skill {name!r} has no version {version}")
            self.rows.refuse_forged(s, sk, v, current=False)
            return self.rows.version_info(sk, v, manifest(s, v.id))

    def require_verified(self, skills: Iterable[tuple[str, str]]) -> None:
        """Issue 24, fail closed: ERR_UNSIGNED_ENTRY naming the first (name, scope) whose row or
        current version does not verify, before a run that reads them writes anything (nightly,
        Sage). The key session is started for it; without a key the writers fail closed anyway."""
        if not self.rows.key_for_reading():
            return
        for name, scope in skills:
            self.get(name, scope or None)

    def versions(self, name: str, project: str | None = None) -> builtins.list[SkillVersionInfo]:
        """History of the exact scope given (global when project is empty), newest first."""
        project = validate_project(project)
        with self.store.session() as s:
            sk = self.rows.skill(s, name, project)
            if sk is None:
                raise NotFoundError(f"no skill named {name!r}" + (f" in project {project}" if project else ""))
            rows = s.scalars(
                select(SkillVersion).where(SkillVersion.skill_id == sk.id).order_by(SkillVersion.version.desc())
            ).all()
            found = manifests(s, [v.id for v in rows])
            return [self.rows.version_info(sk, v, found.get(v.id, ())) for v in rows]

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
        blobs = self.rows.blobs([f.sha256 for f in v.files])
        out: dict[str, tuple[bytes, int]] = {}
        if main:
            out[SKILL_FILE] = (v.content.encode("utf-8"), 0o644)
            if v.evals.strip():
                out[evals_filename(v.name)] = (v.evals.encode("utf-8"), 0o644)
        for f in v.files:
            out[f.path] = (blobs[f.sha256], f.mode)
        return out
