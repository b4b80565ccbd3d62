"""`SkillImporter`: skill folders from a folder, a zip, a GitHub archive or a .skill file into the library.

Every skill is read and validated first (`checks.check_source_steps`, the same check as `skills
validate`), then everything is written in one transaction with one signed `skills_imported`
event, then the skills/ folder is written (`SkillFolder.export_after_commit`).
"""

from __future__ import annotations

import builtins
import gc
import threading
from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from lorekeeper.errors import InvalidInputError, InvalidSpecError
from lorekeeper.jobs import Progress, drive
from lorekeeper.skills.checks import check_source_steps, rename_doc, renamed_evals
from lorekeeper.skills.files import SkillFile, diff_files
from lorekeeper.skills.folder import Contents, SkillFolder, main_files
from lorekeeper.skills.model import ConflictPolicy, ImportReport, resolution
from lorekeeper.skills.rows import SkillRows, author_name, flush_files, manifest, prefetch_blobs
from lorekeeper.skills.sources import open_source
from lorekeeper.skills.spec import SKILL_FILE, SkillDoc, evals_filename, normalise_evals_text
from lorekeeper.store.models import Project, SkillVersion
from lorekeeper.store.scopes import validate_project

YOUNG_GC_THRESHOLD = 100_000  # objects allocated between two young collections during an import
_gc_lock = threading.Lock()
_gc_holders = 0
_gc_saved: tuple[int, int, int] | None = None


@contextmanager
def _few_collections() -> Iterator[None]:
    """A bulk import allocates about a hundred objects per skill that live until it ends (the
    documents, their files, their rows): at CPython's default threshold the cyclic collector ran
    some 1,200 times over 10,000 skills, five of them full walks of the whole heap (0.6 s CPU,
    issue 26). While an import runs, young collections wait for 100,000 new objects instead of
    700 (the collector still runs, so a cycle is still freed); the threshold is put back when the
    last import of the process ends."""
    global _gc_holders, _gc_saved
    with _gc_lock:
        _gc_holders += 1
        if _gc_holders == 1:
            _gc_saved = gc.get_threshold()
            gc.set_threshold(max(_gc_saved[0], YOUNG_GC_THRESHOLD), *_gc_saved[1:])
    try:
        yield
    finally:
        with _gc_lock:
            _gc_holders -= 1
            if _gc_holders == 0 and _gc_saved is not None:
                gc.set_threshold(*_gc_saved)
                _gc_saved = None


class SkillImporter:
    """Imports skill collections: validated first, one transaction, one signed event."""

    def __init__(self, rows: SkillRows, folder: SkillFolder) -> None:
        self.rows, self.folder = rows, folder
        self.store = rows.store

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
        with _few_collections():
            return (
                yield from self._import_steps(
                    path,
                    project,
                    message,
                    record=record,
                    strict=strict,
                    on_conflict=on_conflict,
                    dry_run=dry_run,
                    rename_to_folder=rename_to_folder,
                )
            )

    def _import_steps(
        self,
        path: str | Path,
        project: str | None,
        message: str,
        *,
        record: bool,
        strict: bool,
        on_conflict: ConflictPolicy,
        dry_run: bool,
        rename_to_folder: bool,
    ) -> Generator[Progress, None, ImportReport]:
        project = validate_project(project)
        path = Path(path)
        if not path.exists():
            raise InvalidInputError(f"nothing to import at {path}")
        report = ImportReport(dry_run=dry_run)
        with open_source(path, self.rows.limits) as source:
            if not source.skills:
                raise InvalidSpecError(f"no skill folder (a folder with {SKILL_FILE}) found", file=str(path))
            total = len(source.skills)
            # the same check as `skills validate` (issue 27 d4): both agree on every skill
            checked = yield from check_source_steps(source, self.rows.limits, rename_to_folder=rename_to_folder)
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
        author = author_name()
        written: list[tuple[str, str]] = []
        exported: dict[tuple[str, str], tuple[int, Contents]] = {}  # what this import committed, for the export
        if dry_run:
            with self.store.session() as s:
                self._apply(s, docs, project, message, author, on_conflict, report, written, exported, write=False)
            return report
        if not docs:  # every skill refused (a hostile or broken source): nothing is written at all
            return report
        # the import and its signed event: one change set, one transaction (the event goes to the
        # audit outbox in the same transaction, issue 18)
        with self.store.capture() as captured, self.store.write() as s:
            if project and s.scalar(select(Project).where(Project.name == project)) is None:
                s.add(Project(name=project))
            self._apply(s, docs, project, message, author, on_conflict, report, written, exported, write=True)
            if record and report.imported:
                self.rows.emit(
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
        self.folder.export_after_commit(written, exported)
        return report

    def _apply(
        self,
        s: Session,
        docs: Sequence[tuple[SkillDoc, str]],
        project: str,
        message: str,
        author: str,
        policy: ConflictPolicy,
        report: ImportReport,
        written: builtins.list[tuple[str, str]],
        exported: dict[tuple[str, str], tuple[int, Contents]],
        *,
        write: bool,
    ) -> None:
        """Classify each document (created / unchanged / a collision and what it becomes) and,
        when `write`, write it; `written` gets the (name, scope) folders to rewrite after commit,
        `exported` the version written and its folder's contents."""
        renames = 0
        # issue 26: the rows of every imported name read at once (a bulk import of 10,000 skills
        # looked each one up twice); a skill this import creates or a rename target is looked up
        known = self.rows.skills_named(s, sorted({doc.name for doc, _ in docs}))
        done: set[tuple[str, str]] = set(written)
        prefetch_blobs(s, (f.sha256 for doc, _ in docs for f in doc.files or ()))
        for doc, shown in docs:
            evals = normalise_evals_text(doc.evals_text, doc.name) if doc.evals_text.strip() else ""
            touched = (doc.name, project) in done  # the same name twice (a lenient import)
            if touched:
                flush_files(s)  # its manifest, to compare with
            before = self.rows.skill(s, doc.name, project) if touched else known.get((doc.name, project))
            target_doc, scope = doc, project
            if before is not None:
                cur = self.rows.current_row(s, before)
                cur_files = manifest(s, cur.id) if cur is not None else []
                same = cur is not None and cur.content == doc.content and cur.evals == evals
                if same and list(doc.files or ()) == cur_files:
                    report.unchanged.append(doc.name)
                    continue
                res = resolution(policy, doc.name)
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
                    if self.rows.skill(s, res.name, project) is not None:
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
                info = self.rows.write_version_in(s, target_doc, evals, scope, message, author, absent=absent)
                written.append(key)
                done.add(key)
                if target_doc.files is not None:
                    files = builtins.list(target_doc.files)
                    blobs = {f.sha256: target_doc.blobs[f.sha256] for f in files}
                    exported[key] = (info.version, (main_files(key[0], info.content, info.evals), files, blobs))
        if write:
            flush_files(s)  # the manifests before the commit hook digests and signs the versions

    def _incoming_diff(
        self, cur: SkillVersion | None, cur_files: Sequence[SkillFile], doc: SkillDoc, evals: str
    ) -> str:
        """What an import would change in the current version: a per-file unified diff."""
        old: dict[str, tuple[bytes, int]] = {}
        if cur is not None:
            old[SKILL_FILE] = (cur.content.encode("utf-8"), 0o644)
            if cur.evals.strip():
                old[evals_filename(doc.name)] = (cur.evals.encode("utf-8"), 0o644)
            blobs = self.rows.blobs([f.sha256 for f in cur_files])
            old.update({f.path: (blobs[f.sha256], f.mode) for f in cur_files})
        new: dict[str, tuple[bytes, int]] = {SKILL_FILE: (doc.content.encode("utf-8"), 0o644)}
        if evals:
            new[evals_filename(doc.name)] = (evals.encode("utf-8"), 0o644)
        new.update({f.path: (doc.blobs[f.sha256], f.mode) for f in doc.files or ()})
        label = f"v{cur.version}" if cur is not None else "current"
        text = "".join(diff_files(f"{doc.name} {label}", f"{doc.name} imported", old, new).values())
        return text if len(text) <= 20000 else text[:20000] + "\n... (diff cut at 20,000 characters)\n"
