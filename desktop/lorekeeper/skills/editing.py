"""`SkillEditor`: every change to the library but imports: saves, rule and trigger-case edits,
restores, forks, fork deletions and projects.

Every change is a new immutable version (a restore is itself a new version) and one signed audit
event, both in the change's one transaction (issue 24); the skills/ folder is written after the
commit (`SkillFolder.export_after_commit`).
"""

from __future__ import annotations

import builtins
import hashlib
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from lorekeeper.errors import InvalidInputError, InvalidSpecError, NotFoundError
from lorekeeper.evals.rules import parse_rules, parse_rules_text
from lorekeeper.skills.files import SkillFile
from lorekeeper.skills.folder import SkillFolder
from lorekeeper.skills.model import SkillVersionInfo
from lorekeeper.skills.reading import SkillReader
from lorekeeper.skills.rows import SkillRows, author_name, sha256_text
from lorekeeper.skills.spec import SKILL_FILE, SkillDoc, evals_filename, normalise_evals_text, parse_skill_md
from lorekeeper.skills.triggers import TRIGGER_FILES, TriggerCase, dump_cases, parse_cases, trigger_file
from lorekeeper.store.models import GLOBAL, Project, Skill, SkillVersion
from lorekeeper.store.scopes import validate_project


class SkillEditor:
    """Saves, edits, restores and forks skills; each change one transaction with its signed event."""

    def __init__(self, rows: SkillRows, reader: SkillReader, folder: SkillFolder) -> None:
        self.rows, self.reader, self.folder = rows, reader, folder
        self.store = rows.store

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
        doc = parse_skill_md(content, file=f"{name}/{SKILL_FILE}", max_bytes=self.rows.limits.max_file)
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
        before = self.rows.current_number(name, project)
        if files is not None:
            doc = replace(doc, files=tuple(files), blobs=blobs or {})
        evals = normalise_evals_text(evals, doc.name) if evals.strip() else ""
        # the version and its signed event: one transaction (issue 24); the folder after the commit
        with self.store.write() as tx:
            info = self.rows.write_version_in(tx, doc, evals, project, message or "edited", author or author_name())
            if info.version != before:
                self.rows.emit(
                    event,
                    {
                        "skill": name,
                        "project": project or None,
                        "version": info.version,
                        "previous": before,
                        "message": info.message,
                        "author": info.author,
                        "content_sha256": sha256_text(info.content),
                        "evals_sha256": sha256_text(info.evals),
                        **({"files": len(info.files)} if info.files else {}),
                        **(extra or {}),
                    },
                )
            self.store.after_commit(tx, lambda: self.folder.export_after_commit([(name, project)]))
        return info

    def set_trigger_cases(
        self, name: str, project: str | None, cases: Sequence[TriggerCase], message: str = ""
    ) -> SkillVersionInfo:
        """A new version whose trigger file holds `cases` (the skill's other files unchanged): a
        signed `skill_saved` event, as any edit."""
        scope = self.reader.resolve_scope(name, project)
        cur = self.reader.get(name, scope or None)
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
        current = self.reader.get(name, project)
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
            sk = self.rows.skill(s, name, project) or self.rows.skill(s, name, GLOBAL)
            if sk is None:
                return ""
            v = self.rows.current_row(s, sk)
            return v.evals if v else ""

    def restore(self, name: str, project: str | None, version: int, message: str = "") -> SkillVersionInfo:
        """Make an old version current again, as a new version (history is never rewritten)."""
        self.rows.start_key()  # a signed write anyway: the version copied is checked first
        old = self.reader.get_exact(name, project, version)
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
        self.rows.start_key()  # a signed write anyway: the version copied is checked first
        project = validate_project(project)
        if not project:
            raise InvalidInputError("a fork needs a project")
        if self.reader.exists(name, project):
            raise InvalidInputError(f"project {project} already has a fork of {name!r}")
        base = self.reader.get(name)
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
            sk = self.rows.skill(s, name, project)
            if sk is None:
                raise NotFoundError(f"project {project} has no fork of {name!r}")
            versions = list(s.scalars(select(SkillVersion).where(SkillVersion.skill_id == sk.id)))
            current = next((v for v in versions if v.version == sk.current_version), None)
            data: dict[str, object] = {
                "skill": name,
                "project": project,
                "versions": len(versions),
                "current_version": sk.current_version,
                "content_sha256": sha256_text(current.content) if current is not None else None,
            }
            s.delete(sk)
            self.rows.emit("skill_fork_deleted", data)  # in the deletion's transaction (issue 24)
        self.folder.remove(name, project)

    def add_project(self, name: str, description: str = "") -> None:
        name = validate_project(name)
        if not name:
            raise InvalidInputError("a project needs a name")
        with self.store.write() as s:
            if s.scalar(select(Project).where(Project.name == name)) is None:
                s.add(Project(name=name, description=description))

    # ---------------------------------------------------------------- for a service's own transaction
    # The proposal queue writes a skill version and its decision in ONE transaction: these are the
    # library's public entry points for that (it never reaches into the library's private helpers).
    def skill_in(self, s: Session, name: str, project: str) -> Skill | None:
        """The skill row of exactly that scope, read in the caller's session."""
        return self.rows.skill(s, name, project)

    def write_version_in(
        self, s: Session, doc: SkillDoc, evals: str, project: str, message: str, author: str
    ) -> SkillVersionInfo:
        """Write a new current version inside the caller's transaction; call `committed` after it commits."""
        return self.rows.write_version_in(s, doc, evals, project, message, author)

    def committed(self, name: str, project: str) -> None:
        """After the caller's transaction committed (the store revision moved with it): write the folder."""
        self.folder.export_after_commit([(name, project)])
