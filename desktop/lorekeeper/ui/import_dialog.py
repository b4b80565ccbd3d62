"""The question an import asks when a skill's name exists with other content: what it changes
(a per-file diff), and what to do: skip, make it a new version, fork it into a project, or rename it."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
)

from lorekeeper.errors import LorekeeperError
from lorekeeper.skills.library import Resolution
from lorekeeper.ui.widgets import MessageBox, label, mono_font


class ConflictDialog(QDialog):
    """One collision: the diff between the current version and the imported one, and four answers."""

    def __init__(self, parent, conflict: dict[str, object], projects: list[str]) -> None:
        super().__init__(parent)
        self.setObjectName("conflictDialog")
        name = str(conflict["name"])
        self.setWindowTitle(self.tr("{name} exists").format(name=name))
        self.resolution: Resolution | None = None
        where = self.tr(" in project {project}").format(project=conflict["project"]) if conflict.get("project") else ""
        intro = label(
            self.tr(
                "A skill named {name} exists{where} (v{version}) with other content than {path}. Nothing is replaced unless you choose so."
            ).format(name=name, where=where, version=conflict["version"], path=conflict["path"])
        )
        intro.setWordWrap(True)
        self.diff = QPlainTextEdit(str(conflict.get("diff") or ""))
        self.diff.setReadOnly(True)
        self.diff.setFont(mono_font())
        self.diff.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.project = QComboBox()
        self.project.setEditable(True)
        self.project.addItems(projects)
        self.project.setCurrentText(projects[0] if projects else "")
        self.new_name = QLineEdit(f"{name}-imported")
        self.message = MessageBox()
        self.skip_button = QPushButton(self.tr("Skip"))
        self.version_button = QPushButton(self.tr("Import as a new version"))
        self.fork_button = QPushButton(self.tr("Fork into project"))
        self.rename_button = QPushButton(self.tr("Import renamed"))
        self.skip_button.clicked.connect(lambda: self._answer(Resolution("skip")))
        self.version_button.clicked.connect(lambda: self._answer(Resolution("new-version")))
        self.fork_button.clicked.connect(
            lambda: self._answer(lambda: Resolution("fork", project=self.project.currentText().strip()))
        )
        self.rename_button.clicked.connect(
            lambda: self._answer(lambda: Resolution("rename", name=self.new_name.text().strip()))
        )
        fork_row = QHBoxLayout()
        fork_row.addWidget(label(self.tr("Project")))
        fork_row.addWidget(self.project, 1)
        fork_row.addWidget(self.fork_button)
        rename_row = QHBoxLayout()
        rename_row.addWidget(label(self.tr("New name")))
        rename_row.addWidget(self.new_name, 1)
        rename_row.addWidget(self.rename_button)
        buttons = QHBoxLayout()
        buttons.addWidget(self.skip_button)
        buttons.addStretch(1)
        buttons.addWidget(self.version_button)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(label(self.tr("What the import would change"), "sectionTitle"))
        layout.addWidget(self.diff, 1)
        layout.addWidget(self.message)
        layout.addLayout(fork_row)
        layout.addLayout(rename_row)
        layout.addLayout(buttons)
        self.resize(820, 560)

    def _answer(self, make) -> None:
        try:
            self.resolution = make() if callable(make) else make
        except LorekeeperError as exc:
            self.message.show_error(exc)
            return
        self.accept()
