"""Add or edit one eval rule. OK validates with the engine's own parser; an invalid rule is not accepted."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from lorekeeper.errors import InvalidSpecError
from lorekeeper.evals.rules import RULE_TYPES, SEVERITIES, Rule, parse_rule
from lorekeeper.ui.i18n import QT_TRANSLATE_NOOP, tr_const
from lorekeeper.ui.widgets import MessageBox

_REGEX = ("regex_match", "regex_not_match")
_NO_VALUE = ("is_json", "not_is_json")
_COUNT = ("max_length", "min_length", "min_words", "max_words")
_HELP = {
    "count": QT_TRANSLATE_NOOP("rule_dialog", "A whole number (Unicode code points for lengths, inclusive)."),
    "list": QT_TRANSLATE_NOOP("rule_dialog", "Several values separated by commas."),
    "regex": QT_TRANSLATE_NOOP("rule_dialog", "A Python regular expression, searched anywhere in the response."),
    "none": QT_TRANSLATE_NOOP("rule_dialog", "This rule type needs no value."),
    "text": QT_TRANSLATE_NOOP("rule_dialog", "Literal text, case-sensitive unless the type starts with 'i'."),
}


def _kind(rtype: str) -> str:
    if rtype in _REGEX:
        return "regex"
    if rtype in _NO_VALUE:
        return "none"
    if rtype in _COUNT:
        return "count"
    if rtype.endswith(("_any", "_all")):
        return "list"
    return "text"


def rule_to_dict(rule: Rule) -> dict[str, Any]:
    """A rule as the rules file writes it (lists as JSON lists)."""
    out = rule.to_dict()
    if isinstance(out.get("value"), tuple):
        out["value"] = list(out["value"])
    return out


class RuleDialog(QDialog):
    def __init__(
        self, parent: QWidget | None = None, rule: Rule | None = None, taken_ids: set[str] | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Edit rule") if rule else self.tr("Add rule"))
        self.setMinimumWidth(520)
        self.taken_ids = set(taken_ids or ()) - ({rule.id} if rule else set())
        self.result_rule: Rule | None = None

        self.id_edit = QLineEdit()
        self.id_edit.setPlaceholderText(self.tr("a short unique id, e.g. cr-006"))
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText(self.tr("what the footnote shows, e.g. “Mentions rollback”"))
        self.type_combo = QComboBox()
        self.type_combo.addItems(list(RULE_TYPES))
        self.severity_combo = QComboBox()
        self.severity_combo.addItems(list(SEVERITIES))
        self.value_edit = QLineEdit()
        self.pattern_edit = QLineEdit()
        self.pattern_edit.setPlaceholderText(self.tr(r"e.g. \brollback\b"))
        self.flag_i = QCheckBox(self.tr("i  ignore case"))
        self.flag_m = QCheckBox(self.tr("m  multi-line"))
        self.flag_s = QCheckBox(self.tr("s  dot matches newline"))
        flags = QWidget()
        fl = QHBoxLayout(flags)
        fl.setContentsMargins(0, 0, 0, 0)
        for cb in (self.flag_i, self.flag_m, self.flag_s):
            fl.addWidget(cb)
        fl.addStretch(1)
        self.help_label = QLabel()
        self.help_label.setObjectName("hintText")
        self.help_label.setWordWrap(True)
        self.error = MessageBox()

        form = QFormLayout()
        form.addRow("ID", self.id_edit)
        form.addRow(self.tr("Name"), self.name_edit)
        form.addRow(self.tr("Type"), self.type_combo)
        form.addRow(self.tr("Severity"), self.severity_combo)
        self.value_row_label = QLabel(self.tr("Value"))
        form.addRow(self.value_row_label, self.value_edit)
        self.pattern_row_label = QLabel(self.tr("Pattern"))
        form.addRow(self.pattern_row_label, self.pattern_edit)
        self.flags_row_label = QLabel(self.tr("Flags"))
        form.addRow(self.flags_row_label, flags)
        self.flags_widget = flags
        form.addRow("", self.help_label)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.try_accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)

        self.type_combo.currentTextChanged.connect(self._on_type)
        if rule is not None:
            self._load(rule)
        else:
            self.type_combo.setCurrentText("string_contains")
            self.severity_combo.setCurrentText("warning")
        self._on_type(self.type_combo.currentText())
        self.initial = self.raw_rule()  # what `has_changes` compares with

    def has_changes(self) -> bool:
        """Has the operator changed anything since the dialog opened? (the unsaved-edit guard)"""
        return self.raw_rule() != self.initial

    def _load(self, rule: Rule) -> None:
        self.id_edit.setText(rule.id)
        self.name_edit.setText(rule.name or "")
        self.type_combo.setCurrentText(rule.type)
        self.severity_combo.setCurrentText(rule.severity)
        if rule.type in _REGEX:
            self.pattern_edit.setText(str(rule.value))
            self.flag_i.setChecked("i" in rule.flags)
            self.flag_m.setChecked("m" in rule.flags)
            self.flag_s.setChecked("s" in rule.flags)
        elif isinstance(rule.value, tuple | list):
            self.value_edit.setText(", ".join(rule.value))
        elif rule.value is not None:
            self.value_edit.setText(str(rule.value))

    @Slot(str)
    def _on_type(self, rtype: str) -> None:
        kind = _kind(rtype)
        regex = kind == "regex"
        for w in (self.pattern_edit, self.pattern_row_label, self.flags_widget, self.flags_row_label):
            w.setVisible(regex)
        has_value = kind not in ("regex", "none")
        self.value_edit.setVisible(has_value)
        self.value_row_label.setVisible(has_value)
        self.value_edit.setPlaceholderText(
            {"count": "e.g. 1200", "list": "e.g. rollback, revert, roll back"}.get(kind, "e.g. ## Summary")
        )
        self.help_label.setText(tr_const("rule_dialog", _HELP[kind]))

    def raw_rule(self) -> dict[str, Any]:
        rtype = self.type_combo.currentText()
        raw: dict[str, Any] = {"id": self.id_edit.text().strip()}
        name = self.name_edit.text().strip()
        if name:
            raw["name"] = name
        raw["type"] = rtype
        kind = _kind(rtype)
        if kind == "regex":
            raw["pattern"] = self.pattern_edit.text()
            flags = "".join(
                f for f, cb in (("i", self.flag_i), ("m", self.flag_m), ("s", self.flag_s)) if cb.isChecked()
            )
            if flags:
                raw["flags"] = flags
        elif kind == "list":
            raw["value"] = [v.strip() for v in self.value_edit.text().split(",") if v.strip()]
        elif kind == "count":
            raw["value"] = self.value_edit.text().strip()
        elif kind == "text":
            raw["value"] = self.value_edit.text()
        raw["severity"] = self.severity_combo.currentText()
        return raw

    @Slot()
    def try_accept(self) -> None:
        raw = self.raw_rule()
        try:
            if raw["id"] in self.taken_ids:
                raise InvalidSpecError(self.tr("another rule already has this id"), rule_id=raw["id"], field="id")
            if "value" in raw and raw["value"] in ("", []):
                raise InvalidSpecError(self.tr("missing 'value'"), rule_id=raw["id"] or "#new", field="value")
            rule = parse_rule(raw, 0)
        except InvalidSpecError as exc:
            self.error.show_error(exc)
            return
        self.result_rule = rule
        self.accept()
