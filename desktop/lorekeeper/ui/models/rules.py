"""Eval rules, with the live pass/fail of a trial response, and eval results tables."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from lorekeeper.evals.engine import RuleResult
from lorekeeper.evals.rules import Rule
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, value_text
from lorekeeper.ui.models.base import RowsModel
from lorekeeper.ui.theme import color, icon


def rule_value_text(rule: Rule) -> str:
    if rule.value is None:
        return "—"
    if isinstance(rule.value, tuple | list):
        return ", ".join(rule.value)
    text = str(rule.value)
    return f"/{text}/{rule.flags}" if rule.type.startswith("regex") else text


def result_cell(passed: bool | None, severity: str, role: int) -> Any:
    if passed is None:
        return "—" if role == Qt.ItemDataRole.DisplayRole else None
    if role == Qt.ItemDataRole.DisplayRole:
        return value_text("pass" if passed else "fail")
    if role == Qt.ItemDataRole.DecorationRole:
        if passed:
            return icon("pass")
        return icon("fail") if severity == "warning" else icon("info")
    if role == Qt.ItemDataRole.ForegroundRole:
        return color("pass") if passed else (color("fail") if severity == "warning" else color("info"))
    return None


class RulesTableModel(RowsModel[Rule]):
    COL_RESULT, COL_ID, COL_NAME, COL_TYPE, COL_SEVERITY, COL_VALUE = range(6)
    HEADERS = (
        QT_TRANSLATE_NOOP("RulesTableModel", "Result"),
        "ID",
        QT_TRANSLATE_NOOP("RulesTableModel", "Name"),
        QT_TRANSLATE_NOOP("RulesTableModel", "Type"),
        QT_TRANSLATE_NOOP("RulesTableModel", "Severity"),
        QT_TRANSLATE_NOOP("RulesTableModel", "Value / pattern"),
    )

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.outcomes: dict[str, bool] = {}

    def set_outcomes(self, results: tuple[RuleResult, ...] | list[RuleResult] | None) -> None:
        self.outcomes = {r.id: r.passed for r in results or ()}
        if self.rows:
            self.dataChanged.emit(self.index(0, self.COL_RESULT), self.index(len(self.rows) - 1, self.COL_RESULT))

    def outcome(self, rule_id: str) -> bool | None:
        return self.outcomes.get(rule_id)

    def cell(self, item: Rule, column: int, role: int) -> Any:
        if column == self.COL_RESULT:
            return result_cell(self.outcomes.get(item.id), item.severity, role)
        if role == Qt.ItemDataRole.DisplayRole:
            return {
                self.COL_ID: item.id,
                self.COL_NAME: item.name or "",
                self.COL_TYPE: item.type,
                self.COL_SEVERITY: item.severity,
                self.COL_VALUE: rule_value_text(item),
            }.get(column)
        if role == Qt.ItemDataRole.DecorationRole and column == self.COL_SEVERITY:
            return icon("warning") if item.severity == "warning" else icon("info")
        if role == Qt.ItemDataRole.ToolTipRole and column == self.COL_VALUE:
            return rule_value_text(item)
        return None


class ResultsTableModel(RowsModel[dict]):
    """Results of one eval run, as dicts `{"id","name","type","severity","passed"}`."""

    COL_RESULT, COL_NAME, COL_TYPE, COL_SEVERITY, COL_ID = range(5)
    HEADERS = (
        QT_TRANSLATE_NOOP("ResultsTableModel", "Result"),
        QT_TRANSLATE_NOOP("ResultsTableModel", "Rule"),
        QT_TRANSLATE_NOOP("ResultsTableModel", "Type"),
        QT_TRANSLATE_NOOP("ResultsTableModel", "Severity"),
        "ID",
    )

    def cell(self, item: dict, column: int, role: int) -> Any:
        if column == self.COL_RESULT:
            return result_cell(bool(item.get("passed")), str(item.get("severity", "")), role)
        if role == Qt.ItemDataRole.DisplayRole:
            return {
                self.COL_NAME: item.get("name", ""),
                self.COL_TYPE: item.get("type", ""),
                self.COL_SEVERITY: item.get("severity", ""),
                self.COL_ID: item.get("id", ""),
            }.get(column)
        return None
