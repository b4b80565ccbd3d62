"""The Skills panel's library actions: Import… (a folder or a zip, with a question per name that
exists with other content), Fork to project… and Delete fork. One job: changing what the library
holds from the explorer; the panel places the buttons and refreshes on the change feed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMenu, QPushButton

from lorekeeper.skills.library import Resolution
from lorekeeper.ui import widgets
from lorekeeper.ui.import_dialog import ConflictDialog
from lorekeeper.ui.widgets import label
from lorekeeper.ui.workers import Hold, HoldGate, run_task

if TYPE_CHECKING:
    from lorekeeper.ui.panels.skills import SkillsPanel

IMPORT_HOLD: Hold = ("library", "import")


class LibraryActions(QObject):
    """Import…, Fork to project… and Delete fork for the skill selected in `panel`."""

    def __init__(self, panel: SkillsPanel) -> None:
        super().__init__(panel)
        self.panel = panel
        self.conflict_dialog: ConflictDialog | None = None  # the open "name exists" question, if any
        self.import_button = QPushButton(self.tr("Import…"))
        menu = QMenu(self.import_button)
        menu.addAction(self.tr("Skill folder…"), self.import_folder)
        menu.addAction(self.tr("Zip archive…"), self.import_zip)
        self.import_button.setMenu(menu)
        self.fork_button = QPushButton(self.tr("Fork to project…"))
        self.fork_button.clicked.connect(self.fork_selected)
        self.delete_fork_button = QPushButton(self.tr("Delete fork"))
        self.delete_fork_button.clicked.connect(self.delete_selected_fork)
        # an import in progress: Import… waits, saying why (one import at a time from this window)
        self.import_reason = label("", "hintText", wrap=True)
        self.import_gate = HoldGate(self, lambda: IMPORT_HOLD, self.update_buttons, self.import_reason)

    def update_buttons(self) -> None:
        info = self.panel.selected
        self.import_gate.enable(self.import_button, True)
        self.fork_button.setEnabled(info is not None and not info.is_fork)
        self.panel.skill_gate.enable(self.delete_fork_button, info is not None and info.is_fork)

    def _import_target(self) -> str | None:
        return self.panel.scope_project()

    @Slot()
    def import_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(
            self.panel, self.tr("Import a skill folder (or a folder of skill folders)")
        )
        if path:
            self.import_path(Path(path))

    @Slot()
    def import_zip(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.panel, self.tr("Import skills from a zip"), "", self.tr("Zip archives (*.zip)")
        )
        if path:
            self.import_path(Path(path))

    def import_path(self, path: Path, decisions: dict[str, Resolution] | None = None) -> None:
        """Import every valid skill found in `path`; a name that exists with other content is asked
        about (ConflictDialog, with the diff), then imported as answered."""
        panel = self.panel
        if self.import_gate.reason():
            panel.ctx.status(self.import_gate.reason())
            return
        project = self._import_target()
        lib = panel.ws.skills
        message = panel.explorer_message
        message.clear_message()

        def done(report) -> None:
            parts = [f"{len(v)} {k}" for k, v in report.to_dict().items() if v and k not in ("warnings", "exists")]
            where = self.tr(" into project {project}").format(project=project) if project else ""
            text = self.tr("Imported {name}{where}: ").format(name=path.name, where=where) + (
                ", ".join(parts) or self.tr("nothing to do")
            )
            for bad in report.invalid:
                errs = bad["errors"]
                text += f"\n{bad['path']}: " + "; ".join(str(e["message"]) for e in errs)
            if report.invalid:
                message.show_error(text)
            else:
                message.show_ok(text)
            panel.changed(self.tr("Imported {name}").format(name=path.name))
            if report.exists and decisions is None:
                self._ask_conflicts(path, list(report.exists), {})

        run_task(
            lib.import_steps,  # progress per skill; Cancel stops it between skills, before any write
            path,
            project,
            self.tr("imported from {name}").format(name=path.name),
            strict=False,
            on_conflict=decisions if decisions is not None else "ask",
            name=self.tr("Importing {name}").format(name=path.name),
            holds=[IMPORT_HOLD],
            hold_reason=self.tr(
                "Importing {name} — the next import can start when it finishes, or cancel it (Cancel in the status bar)"
            ).format(name=path.name),
            on_result=done,
            on_error=message.show_error,
        )

    def _ask_conflicts(self, path: Path, pending: list[dict], answers: dict[str, Resolution]) -> None:
        """One dialog per collision (window-modal, opened in turn); then the import runs with the answers."""
        if not pending:
            if any(r.action != "skip" for r in answers.values()):
                self.import_path(path, answers)
            return
        conflict = pending.pop(0)
        dialog = ConflictDialog(self.panel, conflict, self.panel.projects)
        self.conflict_dialog = dialog

        def finished(_code: int) -> None:
            answers[str(conflict["name"])] = dialog.resolution or Resolution("skip")
            self.conflict_dialog = None
            self._ask_conflicts(path, pending, answers)

        dialog.finished.connect(finished)
        dialog.open()

    @Slot()
    def fork_selected(self) -> None:
        info = self.panel.selected
        if info is None or info.is_fork:
            return
        project, ok = QInputDialog.getItem(
            self.panel,
            self.tr("Fork to project"),
            self.tr("Fork {name} for project (pick one or type a new name):").format(name=info.name),
            self.panel.projects,
            0,
            True,
        )
        if ok and project.strip():
            self.fork_to(info.name, project.strip())

    def fork_to(self, name: str, project: str) -> None:
        panel = self.panel
        lib = panel.ws.skills
        run_task(
            lambda: lib.fork(name, project),
            name=self.tr("Forking {name}").format(name=name),
            on_result=lambda v: panel.changed(
                self.tr("Forked {name} for {project} (v{version})").format(
                    name=name, project=project, version=v.version
                ),
                (name, project),
            ),
            on_error=panel.explorer_message.show_error,
        )

    @Slot()
    def delete_selected_fork(self) -> None:
        panel = self.panel
        info = panel.selected
        if info is None or not info.is_fork:
            return
        if not widgets.confirm(
            panel,
            self.tr("Delete fork"),
            self.tr(
                "Delete the fork of {name} for project {project}, with its whole history? The global skill stays."
            ).format(name=info.name, project=info.project),
        ):
            return
        lib = panel.ws.skills
        run_task(
            lambda: lib.delete_fork(info.name, info.project),
            name=self.tr("Deleting fork of {name}").format(name=info.name),
            on_result=lambda _r: panel.changed(
                self.tr("Deleted the {project} fork of {name}").format(project=info.project, name=info.name),
                (info.name, ""),
            ),
            on_error=panel.explorer_message.show_error,
        )
