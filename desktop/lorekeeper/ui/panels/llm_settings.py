"""The model Settings dialog: provider, model, server, timeouts; the API key goes to the OS keyring."""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from lorekeeper.llm.base import DEFAULT_MODELS, PROVIDERS, LLMSettings, ProviderStatus
from lorekeeper.ui.widgets import MessageBox, label
from lorekeeper.ui.workers import run_task
from lorekeeper.workspace import Workspace


class LLMSettingsDialog(QDialog):
    saved = Signal(object)  # ProviderStatus after the save

    def __init__(self, ws: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ws = ws
        self.setWindowTitle(self.tr("Model settings"))
        self.setMinimumWidth(460)
        s = ws.llm.settings
        self.provider = QComboBox()
        for p in PROVIDERS:
            self.provider.addItem(p, p)
        self.provider.setCurrentIndex(max(self.provider.findData(s.provider), 0))
        self.model = QLineEdit(s.model)
        self.base_url = QLineEdit(s.base_url)
        self.base_url.setPlaceholderText(self.tr("empty: the provider's default"))
        self.timeout = QDoubleSpinBox()
        self.timeout.setRange(0.5, 3600)
        self.timeout.setSuffix(" s")
        self.timeout.setValue(s.timeout)
        self.retries = QSpinBox()
        self.retries.setRange(0, 10)
        self.retries.setValue(s.max_retries)
        self.max_tokens = QSpinBox()
        self.max_tokens.setRange(1, 200000)
        self.max_tokens.setValue(s.max_tokens)
        self.command = QLineEdit(s.command)
        self.api_key = QLineEdit()
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key.setObjectName("apiKey")
        self.message = MessageBox()

        form = QFormLayout()
        form.addRow(self.tr("Provider"), self.provider)
        form.addRow(self.tr("Model"), self.model)
        form.addRow(self.tr("Server URL"), self.base_url)
        form.addRow(self.tr("Timeout"), self.timeout)
        form.addRow(self.tr("Retries"), self.retries)
        form.addRow(self.tr("Max answer tokens"), self.max_tokens)
        form.addRow(self.tr("claude program"), self.command)
        form.addRow(self.tr("Anthropic API key"), self.api_key)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(
            label(
                self.tr("Secrets never go to lorekeeper.toml: the key is stored in the OS keyring."),
                "hintText",
                wrap=True,
            )
        )
        lay.addLayout(form)
        lay.addWidget(self.message)
        lay.addWidget(self.buttons)
        self.provider.currentIndexChanged.connect(self._update)
        self._update()

    @Slot()
    def _update(self) -> None:
        p = self.provider.currentData()
        self.model.setPlaceholderText(self.tr("empty: {0}").format(DEFAULT_MODELS.get(p) or "the program default"))
        self.api_key.setEnabled(p == "anthropic")
        self.command.setEnabled(p == "claude-cli")
        self.base_url.setEnabled(p in ("anthropic", "ollama"))
        llm = self.ws.llm
        run_task(  # asks the OS keyring (a D-Bus round trip): never on the GUI thread
            lambda: llm.key_source("anthropic"),
            name=self.tr("Looking up the API key"),
            key=(id(self), "key-source"),
            visible=False,
            on_result=self._show_key_source,
        )

    def _show_key_source(self, source: str) -> None:
        if not isValid(self):  # closed while the worker asked
            return
        self.api_key.setPlaceholderText(
            {
                "keyring": "a key is stored — type a new one to replace it",
                "environment": "from ANTHROPIC_API_KEY — type one to store it",
            }.get(source, "not set")
        )

    def settings(self) -> LLMSettings:
        return dataclasses.replace(
            self.ws.llm.settings,
            provider=self.provider.currentData(),
            model=self.model.text().strip(),
            base_url=self.base_url.text().strip(),
            timeout=float(self.timeout.value()),
            max_retries=int(self.retries.value()),
            max_tokens=int(self.max_tokens.value()),
            command=self.command.text().strip() or "claude",
        )

    @Slot()
    def save(self) -> None:
        settings, key, ws = self.settings(), self.api_key.text(), self.ws
        self.api_key.clear()

        def apply() -> ProviderStatus:
            ws.llm.configure(settings)
            if key.strip():
                ws.llm.set_key(key, "anthropic")
            return ws.llm.status()

        self.save_button.setEnabled(False)
        run_task(
            apply,
            name=self.tr("Saving model settings"),
            on_result=self._on_saved,
            on_error=self._on_error,
            on_finished=lambda: self.save_button.setEnabled(True),
        )

    def _on_saved(self, status: ProviderStatus) -> None:
        self.saved.emit(status)
        self.accept()

    def _on_error(self, exc: BaseException) -> None:
        self.message.show_error(exc)
