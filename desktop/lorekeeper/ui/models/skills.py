"""The skill explorer and the version history tables."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, Qt

from lorekeeper.skills.library import SkillInfo, SkillVersionInfo, restored_versions
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, fmt_datetime
from lorekeeper.ui.models.base import RowsModel
from lorekeeper.ui.theme import color, icon

FORK_MARK = "⎇"


def skill_label(info: SkillInfo) -> str:
    """`code-review` for a global skill, `code-review  ⎇ citadel-v2` for a project fork."""
    return f"{info.name}  {FORK_MARK} {info.project}" if info.is_fork else info.name


class SkillTableModel(RowsModel[SkillInfo]):
    COL_NAME, COL_VERSION, COL_RULES, COL_TRIGGERS = range(4)
    HEADERS = (
        QT_TRANSLATE_NOOP("SkillTableModel", "Skill"),
        QT_TRANSLATE_NOOP("SkillTableModel", "Ver."),
        QT_TRANSLATE_NOOP("SkillTableModel", "Rules"),
        QT_TRANSLATE_NOOP("SkillTableModel", "Triggers"),
    )
    InfoRole = Qt.ItemDataRole.UserRole + 1

    def cell(self, item: SkillInfo, column: int, role: int) -> Any:
        if role == self.InfoRole:
            return item
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.COL_NAME:
                return skill_label(item)
            if column == self.COL_VERSION:
                return f"v{item.version}"
            if column == self.COL_RULES:
                return item.rules_count
            if column == self.COL_TRIGGERS:
                return ", ".join(item.triggers)
        if role == Qt.ItemDataRole.DecorationRole and column == self.COL_NAME:
            return icon("fork") if item.is_fork else icon("global")
        if role == Qt.ItemDataRole.ForegroundRole and column == self.COL_NAME and item.is_fork:
            return color("fork")
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (self.COL_VERSION, self.COL_RULES):
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            scope = (
                QCoreApplication.translate("SkillTableModel", "fork for project {project}").format(project=item.project)
                if item.is_fork
                else "global"
            )
            forked = (
                QCoreApplication.translate("SkillTableModel", "\nForked by at least one project.")
                if item.has_fork
                else ""
            )
            return QCoreApplication.translate(
                "SkillTableModel",
                "{name} ({scope}), v{version}, {rules_count} rules\n{description}\nTriggers: {0}\nKeywords: {1}{forked}",
            ).format(
                ", ".join(item.triggers) or "—",
                ", ".join(item.keywords) or "—",
                name=item.name,
                scope=scope,
                version=item.version,
                rules_count=item.rules_count,
                description=item.description,
                forked=forked,
            )
        return None

    def index_of(self, name: str, project: str) -> int:
        for i, info in enumerate(self.rows):
            if info.name == name and info.project == project:
                return i
        return -1


class VersionTableModel(RowsModel[SkillVersionInfo]):
    COL_VERSION, COL_DATE, COL_AUTHOR, COL_MESSAGE = range(4)
    HEADERS = (
        QT_TRANSLATE_NOOP("VersionTableModel", "Version"),
        QT_TRANSLATE_NOOP("VersionTableModel", "Saved"),
        QT_TRANSLATE_NOOP("VersionTableModel", "Author"),
        QT_TRANSLATE_NOOP("VersionTableModel", "Message"),
    )

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.restores: dict[int, int] = {}  # version -> the earlier version it brings back whole

    def set_rows(self, rows: list[SkillVersionInfo]) -> None:
        rows = list(rows)
        self.restores = restored_versions(rows)
        super().set_rows(rows)

    def note(self, version: int) -> str:
        """ "restores v3 · no net change since v3" for a version with an earlier one's whole content."""
        old = self.restores.get(version)
        if old is None:
            return ""
        return QCoreApplication.translate("VersionTableModel", "restores v{0} · no net change since v{0}").format(old)

    def cell(self, item: SkillVersionInfo, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.COL_VERSION:
                restored = self.restores.get(item.version)
                return (
                    f"v{item.version}"
                    + (f" \u21ba v{restored}" if restored is not None else "")
                    + ("  (current)" if item.current else "")
                )
            if column == self.COL_DATE:
                return fmt_datetime(item.created_at)
            if column == self.COL_AUTHOR:
                return item.author
            if column == self.COL_MESSAGE:
                note = self.note(item.version)
                return f"[{note}] {item.message}" if note else item.message
        if role == Qt.ItemDataRole.ToolTipRole and column in (self.COL_VERSION, self.COL_MESSAGE):
            note = self.note(item.version)
            return f"v{item.version} {note}" if note else None
        if role == Qt.ItemDataRole.FontRole and item.current and column == self.COL_VERSION:
            from PySide6.QtGui import QFont

            f = QFont()
            f.setBold(True)
            return f
        return None
