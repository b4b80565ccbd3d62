"""`SkillLibrary` (`ws.skills`): every version of every skill in the store, global skills and
project forks; the front ends' facade.

A project fork overrides a global skill's content and rules for that project. Every change is a
new immutable version; versions can be diffed and restored (a restore is itself a new version).

The work is done by five services with one job each (issue 28), built once by `SkillLibrary.wire`:

- `SkillRows` (`rows.py`): the one verification path (issue 24: a row or version that does not
  verify is never used), a version written inside a caller's transaction, the signed events.
- `SkillReader` (`reading.py`): `list`, `projects`, `exists`, `resolve_scope`, `get`, `get_exact`,
  `versions`, `rules`, `trigger_cases`, `routable`, `diff`, `file_diffs`, `version_files`,
  `require_verified`.
- `SkillEditor` (`editing.py`): `save`, `set_rules`, `set_trigger_cases`, `restore`, `fork`,
  `delete_fork`, `add_project`; and `skill_in`, `write_version_in`, `committed` for a service that
  writes a version in its own transaction (the proposal queue).
- `SkillImporter` (`importing.py`): `import_path`, `import_steps` (a job).
- `SkillFolder` (`folder.py`): the skills/ folder written after each commit, a `Derived` artefact
  (`ws.skills.folder`; `folder_contents` for the plugin build).

What front ends receive (issue 28, as for facts): the CLI, the panels, MCP and the services that
take the library keep calling `ws.skills.<name>`; `SkillLibrary` holds no logic, each name *is*
the bound method of the one service doing that job (`ws.skills.get is ws.skills.reader.get`).
The values they receive are in `model.py` (re-exported here).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from lorekeeper.skills.editing import SkillEditor
from lorekeeper.skills.files import Limits
from lorekeeper.skills.folder import SkillFolder
from lorekeeper.skills.importing import SkillImporter
from lorekeeper.skills.model import (
    CONFLICT_ACTIONS,
    ConflictPolicy,
    ForgedSkillError,
    ImportReport,
    Resolution,
    SkillInfo,
    SkillVersionInfo,
    restored_versions,
)
from lorekeeper.skills.reading import SkillReader
from lorekeeper.skills.rows import SkillEventHook, SkillRows
from lorekeeper.store.engine import Store

__all__ = [
    "CONFLICT_ACTIONS",
    "ConflictPolicy",
    "ForgedSkillError",
    "ImportReport",
    "Resolution",
    "SkillEventHook",
    "SkillInfo",
    "SkillLibrary",
    "SkillVersionInfo",
    "restored_versions",
]


class SkillLibrary:
    """The front ends' names over the skill services; no behaviour of its own."""

    def __init__(
        self,
        *,
        rows: SkillRows,
        reader: SkillReader,
        editor: SkillEditor,
        importer: SkillImporter,
        folder: SkillFolder,
    ) -> None:
        self.rows, self.reader, self.editor, self.importer, self.folder = rows, reader, editor, importer, folder
        self.store = rows.store
        self.limits = rows.limits
        # verification and the signed events
        self.forged = rows.forged
        self.take_audit_warnings = rows.take_audit_warnings
        # reading
        self.list = reader.list
        self.projects = reader.projects
        self.exists = reader.exists
        self.resolve_scope = reader.resolve_scope
        self.get = reader.get
        self.get_exact = reader.get_exact
        self.versions = reader.versions
        self.rules = reader.rules
        self.trigger_cases = reader.trigger_cases
        self.routable = reader.routable
        self.diff = reader.diff
        self.file_diffs = reader.file_diffs
        self.version_files = reader.version_files
        self.blobs = rows.blobs
        self.require_verified = reader.require_verified
        # changes
        self.save = editor.save
        self.set_rules = editor.set_rules
        self.set_trigger_cases = editor.set_trigger_cases
        self.restore = editor.restore
        self.fork = editor.fork
        self.delete_fork = editor.delete_fork
        self.add_project = editor.add_project
        self.skill_in = editor.skill_in
        self.write_version_in = editor.write_version_in
        self.committed = editor.committed
        # imports (the job and its synchronous form)
        self.import_path = importer.import_path
        self.import_steps = importer.import_steps
        # the skills/ folder
        self.folder_contents = folder.folder_contents

    @property
    def revision(self) -> int:
        """The store's revision: it moves on any change by any process (caches such as the router key on it)."""
        return self.store.revision()

    @classmethod
    def wire(
        cls,
        store: Store,
        skills_dir: Path | None = None,
        *,
        on_event: SkillEventHook | None = None,
        limits: Limits | None = None,
        verifier: Callable[[], Any] | None = None,
        key_loaded: Callable[[], bool] | None = None,
    ) -> SkillLibrary:
        """Each skill service built once, with exactly the collaborators it uses. `verifier`: the
        session's row verifier (issue 24: only verified versions are used or reach skills/);
        `key_loaded`: whether the key session is loaded already (reads that must not load the key
        verify only then)."""
        rows = SkillRows(store, on_event=on_event, limits=limits, verifier=verifier, key_loaded=key_loaded)
        folder = SkillFolder(rows, skills_dir)
        reader = SkillReader(rows)
        return cls(
            rows=rows,
            reader=reader,
            editor=SkillEditor(rows, reader, folder),
            importer=SkillImporter(rows, folder),
            folder=folder,
        )
