"""`SkillFolder`: the workspace's `skills/` folder, derived from the store.

After each change the folder is rewritten with the current versions, so agents and git can read
them; it is read back only by an explicit import. The folder is derived: it is written after the
store's commit, and when that write fails the change stands, the caller gets
ERR_DERIVED_WRITE_FAILED, and `lorekeeper repair` rebuilds it. Only versions that verify are
written (issue 24: agents read this folder).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from lorekeeper import safejson
from lorekeeper.errors import DerivedWriteError, LorekeeperError
from lorekeeper.fsutil import atomic_write_text, read_regular_text, sweep_temp_files, temp_files_under
from lorekeeper.locks import LockTimeoutError, RWLock
from lorekeeper.skills import debris
from lorekeeper.skills.debris import export_lock
from lorekeeper.skills.files import SkillFile, folder_differences, write_folder
from lorekeeper.skills.rows import SkillRows, manifests
from lorekeeper.skills.sources import FORKS_DIR  # skills/_forks/<project>/<name>/
from lorekeeper.skills.spec import SKILL_FILE, evals_filename
from lorekeeper.store.models import Skill, SkillVersion, utcnow

#: a skill folder's contents: SKILL.md and the evals file (path -> bytes), the other files, their blobs
Contents = tuple[dict[str, bytes], list[SkillFile], dict[str, bytes]]


def main_files(name: str, content: str, evals: str) -> dict[str, bytes]:
    """SKILL.md and, when there are rules, `<name>.evals.json`."""
    main = {SKILL_FILE: content.encode("utf-8")}
    if evals.strip():
        main[evals_filename(name)] = evals.encode("utf-8")
    return main


def folder_error(folder: Path | None, exc: OSError) -> DerivedWriteError:
    return DerivedWriteError(
        f"the change is saved in the store, but the skills folder could not be written "
        f"({folder}: {exc.strerror or exc}). Fix the folder's permissions, then run `lorekeeper repair`.",
        path=str(folder) if folder else None,
    )


class SkillFolder:
    """The workspace's `skills/` folder: the current version of every skill that verifies, written
    after each committed change (`export_after_commit`), and a `Derived` artefact (`stale`,
    `rebuild`, `recover`) that `lorekeeper repair` and the start-up rebuild from the store."""

    derived_name = "skills-folder"

    def __init__(self, rows: SkillRows, skills_dir: Path | None) -> None:
        self.rows = rows
        self.store = rows.store
        self.skills_dir = skills_dir

    def _rel(self, path: Path) -> str:
        root = self.skills_dir
        return str(path.relative_to(root.parent)) if root is not None else str(path)

    # issue 18: crash-clean export. A crash mid-export leaves temp files (swept at start and by
    # repair) and a folder behind the store: the marker records the skills state the folder was
    # last fully written for; it is removed before an export starts and written when it ends, so a
    # missing or different marker at start means "check and rebuild".
    MARKER = ".lorekeeper-export.json"

    def fingerprint(self) -> str:
        """The revision of what the folder exports: moves with any new version, restore, fork or deletion."""
        with self.store.session() as s:
            n_versions, max_version = s.execute(select(func.count(SkillVersion.id), func.max(SkillVersion.id))).one()
            n_skills, current = s.execute(select(func.count(Skill.id), func.sum(Skill.current_version))).one()
        return f"{n_versions}:{max_version or 0}:{n_skills}:{current or 0}"

    def _marker(self) -> Path | None:
        root = self.skills_dir
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
        root = self.skills_dir
        return len(debris.sweep(root)) if root is not None else 0

    def temp_files(self) -> list[Path]:
        root = self.skills_dir
        if root is None or not root.is_dir():
            return []
        return sorted(temp_files_under(root))

    def _lock(self) -> RWLock | None:
        root = self.skills_dir
        return export_lock(root) if root is not None else None

    @contextmanager
    def writing(self) -> Iterator[None]:
        """Held (exclusive) while an export writes: other exports and sweeping wait for it."""
        lock = self._lock()
        root = self.skills_dir
        if lock is None or root is None or not lock.path.parent.parent.is_dir():
            yield
            return
        with lock.exclusive(), debris.exporting(root):
            yield

    def recover(self) -> int:
        """At start: sweep crash debris; rebuild when the recorded revision is not the store's.
        Skipped when another process is exporting right now (its temp files are live)."""
        root = self.skills_dir
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
        root = self.skills_dir
        for _name, _project, folder, diffs in self.folder_state():
            blocked = _blocker(folder, root)
            why = f" ({self._rel(blocked)} is a file)" if blocked is not None else ""
            out.extend(self._rel(folder / d) + why for d in diffs)
        return out

    def rebuild(self) -> int:
        """Write what differs from the store; a file standing where a folder belongs is moved aside."""
        lock = self._lock()
        root = self.skills_dir
        if lock is None or root is None:
            return self._rebuild_locked()
        with lock.exclusive(), debris.exporting(root):
            return self._rebuild_locked()

    def _rebuild_locked(self) -> int:
        written = 0
        root = self.skills_dir
        if root is not None:
            written += len(sweep_temp_files(root))
        for name, project, folder, _diffs in self.folder_state():
            want = self.folder_contents(name, project)
            if want is None:
                continue
            _clear_blockers(folder, self.skills_dir)
            written += write_folder(folder, *want)
        self.record()
        return written

    # ---------------------------------------------------------------- the export
    EXPORT_BATCH = 500  # skills read, verified and written per batch (issue 26: no query per skill)

    def folder(self, name: str, project: str) -> Path | None:
        """Where a skill's folder goes: skills/<name>, a fork's skills/_forks/<project>/<name>."""
        if self.skills_dir is None:
            return None
        if project:
            return self.skills_dir / FORKS_DIR / project / name
        return self.skills_dir / name

    def folder_contents(self, name: str, project: str) -> Contents | None:
        """What a skill's folder holds: SKILL.md and the evals file, the other files, their blobs
        (None: no such skill, or its current version does not verify)."""
        return self.folder_contents_many([(name, project)]).get((name, project))

    def folder_contents_many(self, skills: Sequence[tuple[str, str]]) -> dict[tuple[str, str], Contents]:
        """`folder_contents` for many (name, project) skills at once: one query for the rows, one
        verification pass, one manifest and blob read per batch. A skill that is missing, or whose
        version does not verify (noted in `forged_skipped`), is absent from the answer."""
        want = set(skills)
        names = sorted({name for name, _ in want})
        out: dict[tuple[str, str], Contents] = {}
        with self.store.session() as s:
            rows: list[Any] = []
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
            kept = self.rows.verified_rows(s, rows)
            for sk, _v in set(rows) - set(kept):  # issue 24: a forged version never reaches skills/
                self.rows.forged_skipped.add((sk.name, sk.project))
            found_files = manifests(s, [v.id for _, v in kept])
            found = [(sk.name, sk.project, v.content, v.evals, found_files.get(v.id, [])) for sk, v in kept]
        blobs = self.rows.blobs([f.sha256 for *_, files in found for f in files])
        for name, project, content, evals, files in found:
            out[(name, project)] = (main_files(name, content, evals), files, {f.sha256: blobs[f.sha256] for f in files})
        return out

    BULK = 64  # folders: from this many on, files are not synced one by one but once (`os.sync`)

    def _export_many(
        self, skills: Sequence[tuple[str, str]], known: Mapping[tuple[str, str], tuple[int, Contents]] | None = None
    ) -> tuple[Path | None, OSError] | None:
        """Write these skills' folders, a batch at a time; the first failure (every folder is tried).

        `known`: what the caller itself just committed and signed, (version, contents) per skill
        (an import); a skill whose current version is still that one is written from it, without
        reading back and verifying what this process wrote a moment ago. Any other (changed since
        by another process, or not given) is read from the store and verified."""
        first: tuple[Path | None, OSError] | None = None
        todo = [(name, project) for name, project in skills if self.folder(name, project) is not None]
        bulk = len(todo) >= self.BULK and hasattr(os, "sync")  # (Windows has no os.sync: a file at a time)
        for i in range(0, len(todo), self.EXPORT_BATCH):
            batch = todo[i : i + self.EXPORT_BATCH]
            contents: dict[tuple[str, str], Contents] = {}
            if known:
                current = self._current_versions(batch)
                contents = {k: known[k][1] for k in batch if k in known and current.get(k) == known[k][0]}
            rest = [k for k in batch if k not in contents]
            if rest:
                contents.update(self.folder_contents_many(rest))
            for name, project in batch:
                want = contents.get((name, project))
                folder = self.folder(name, project)
                if want is None or folder is None:
                    continue
                try:  # a file where the folder belongs fails: `repair` moves it aside
                    write_folder(folder, *want, fsync=not bulk)
                except OSError as exc:
                    first = first or (folder, exc)
        if bulk:
            os.sync()  # one flush for the batch, before the marker says the folder is current
        return first

    def _current_versions(self, skills: Sequence[tuple[str, str]]) -> dict[tuple[str, str], int]:
        want = set(skills)
        names = sorted({name for name, _ in want})
        out: dict[tuple[str, str], int] = {}
        with self.store.session() as s:
            for i in range(0, len(names), 500):
                for name, project, version in s.execute(
                    select(Skill.name, Skill.project, Skill.current_version).where(Skill.name.in_(names[i : i + 500]))
                ):
                    if (name, project) in want:
                        out[(name, project)] = int(version)
        return out

    def export_all(self) -> None:
        with self.writing():
            with self.store.session() as s:
                scopes = [(sk.name, sk.project) for sk in s.scalars(select(Skill).order_by(Skill.name, Skill.project))]
            failed = self._export_many(scopes)
        if failed is not None:
            raise failed[1]

    def export_after_commit(
        self, skills: Sequence[tuple[str, str]], known: Mapping[tuple[str, str], tuple[int, Contents]] | None = None
    ) -> None:
        """Rewrite the folders of these (name, project) skills after their change is committed
        (`known`: see `_export_many`).

        A failed write leaves the store change in place and raises ERR_DERIVED_WRITE_FAILED
        naming the remedy (`lorekeeper repair`); every folder is attempted first.
        """
        first: tuple[Path | None, OSError] | None
        # exclusive: two processes exporting at once would remove each other's temp files, and the
        # one that read the older version could write last; serialised, the last holder reads the
        # latest committed version. A start-up sweep never removes a live temp file either.
        with self.writing():
            with contextlib.suppress(OSError):
                self.unrecord()  # a crash from here on leaves the folder marked stale
            first = self._export_many(skills, known)
        if first is not None:
            with contextlib.suppress(OSError):
                self.record(failed=True)  # the user is told to run `repair`; start leaves it to them
            raise folder_error(first[0], first[1])
        with contextlib.suppress(OSError):
            self.record()

    def remove(self, name: str, project: str) -> None:
        """A deleted fork's folder removed (ERR_DERIVED_WRITE_FAILED when it cannot be)."""
        target = self.folder(name, project)
        try:
            if target is not None and target.exists():
                shutil.rmtree(target)
        except OSError as exc:
            raise folder_error(target, exc) from None

    def folder_state(self) -> list[tuple[str, str, Path, list[str]]]:
        """Each skill's folder and what in it differs from the store: (name, scope, folder, paths)."""
        out: list[tuple[str, str, Path, list[str]]] = []
        if self.skills_dir is None:
            return out
        with self.store.session() as s:
            scopes = [(sk.name, sk.project) for sk in s.scalars(select(Skill).order_by(Skill.name, Skill.project))]
        for name, project in scopes:
            folder = self.folder(name, project)
            want = self.folder_contents(name, project)
            if folder is None or want is None:
                continue
            diffs = folder_differences(folder, *want)
            if diffs:
                out.append((name, project, folder, diffs))
        return out


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
