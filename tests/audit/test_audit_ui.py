"""pytest-qt: the fail-closed screen (Retry, Settings), the Audit panel (Verify, Rotate with
confirmation, event browser) and the key state in the status bar. Real buttons are clicked."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

import keyring
import pytest
from audit_helpers import free_port, session_files, set_audit_config
from PySide6.QtCore import Qt

from lorekeeper.audit.providers import KEYRING_SERVICE
from lorekeeper.workspace import Workspace


@pytest.fixture
def sync_workers():
    from lorekeeper.ui import workers

    workers.set_synchronous(True)
    yield
    workers.set_synchronous(False)


@pytest.fixture
def audit_ws(tmp_path: Path):
    ws = Workspace.init(tmp_path / "ws", starter=False)
    for i, story in enumerate(["PD-1", "PD-2", "PD-2", "PD-3"]):
        ws.audit.log.append("memory_injected" if i % 2 == 0 else "proposal_approved", {"i": i}, story=story)
    yield ws
    ws.close()


@pytest.fixture
def window(qtbot, audit_ws, sync_workers):
    from lorekeeper.ui.main_window import MainWindow

    win = MainWindow(audit_ws)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.close()


@pytest.fixture
def answer(monkeypatch):
    """Answer the confirmation box (a modal box would block the test); records what was asked."""
    from lorekeeper.ui import widgets

    asked: list[str] = []
    reply = {"value": True}

    def fake(_parent, title, _text):
        asked.append(title)
        return reply["value"]

    monkeypatch.setattr(widgets, "confirm", fake)
    return asked, reply


def click(qtbot, button) -> None:
    assert button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def panel(window):
    return window.select_panel("audit")


# --------------------------------------------------------------------------- fail-closed screen


def _launcher(root: Path):
    from lorekeeper.ui.app import _Launcher

    return _Launcher(lambda: Workspace.open(root))


def test_missing_key_shows_the_fail_closed_screen_and_retry_opens_the_app(qtbot, tmp_path: Path, sync_workers):
    ws = Workspace.init(tmp_path / "w", starter=False)
    root, ws_id = ws.root, ws.audit.workspace_id
    saved = {s: keyring.get_password(KEYRING_SERVICE, f"audit-hmac:{ws_id}{s}") for s in ("", ":v1", ":version")}
    ws.close()
    for s in saved:
        keyring.delete_password(KEYRING_SERVICE, f"audit-hmac:{ws_id}{s}")
    before = {p.name: p.read_bytes() for p in session_files(root)}

    launcher = _launcher(root)
    assert launcher.open() is False
    screen = launcher.error_screen
    from lorekeeper.ui.panels.audit import FailClosedScreen

    assert isinstance(screen, FailClosedScreen) and launcher.window is None
    qtbot.addWidget(screen)
    screen.show()
    assert screen.cause_label.text() == "Audit key missing"
    assert "ERR_AUDIT_KEY_UNAVAILABLE" in screen.code_label.text()
    assert "init-key" in screen.advice_label.text()
    assert "failed closed" in screen.status_label.text()

    click(qtbot, screen.retry_button)  # still missing: the same screen, nothing else
    assert launcher.window is None and launcher.error_screen is screen
    assert screen.retry_button.isEnabled() and screen.retry_button.text() == "Retry"
    assert screen.cause_label.text() == "Audit key missing"
    for s, v in saved.items():
        keyring.set_password(KEYRING_SERVICE, f"audit-hmac:{ws_id}{s}", v)
    click(qtbot, screen.retry_button)
    assert launcher.window is not None
    qtbot.addWidget(launcher.window)
    assert launcher.window.keys_label.text() == "Key: keyring v1"
    assert {p.name: p.read_bytes() for p in session_files(root)} == before
    launcher.window.close()
    launcher.window.ws.close()


def test_dead_vault_screen_then_settings_switch_to_keyring_then_retry(qtbot, tmp_path: Path, sync_workers, monkeypatch):
    ws = Workspace.init(tmp_path / "v", starter=False)  # has a keyring key
    root = ws.root
    ws.close()
    set_audit_config(root, provider="vault", addr=f"http://127.0.0.1:{free_port()}")
    monkeypatch.setenv("VAULT_TOKEN", "t")
    launcher = _launcher(root)
    assert launcher.open() is False
    screen = launcher.error_screen
    qtbot.addWidget(screen)
    assert screen.cause_label.text() == "Vault is unreachable"
    assert "vault" in screen.provider_label.text().lower()

    dialog = screen.settings_dialog()
    qtbot.addWidget(dialog)
    assert dialog.provider.currentText() == "vault"
    dialog.provider.setCurrentText("keyring")
    from PySide6.QtWidgets import QDialogButtonBox

    click(qtbot, dialog.buttons.button(QDialogButtonBox.StandardButton.Save))
    assert dialog.result() == dialog.DialogCode.Accepted
    assert 'provider = "keyring"' in (root / "lorekeeper.toml").read_text()

    click(qtbot, screen.retry_button)
    assert launcher.window is not None
    qtbot.addWidget(launcher.window)
    launcher.window.close()
    launcher.window.ws.close()


def test_settings_refuse_a_bad_vault_address(qtbot, tmp_path: Path):
    from lorekeeper.ui.panels.audit import AuditSettingsDialog

    ws = Workspace.init(tmp_path / "s", starter=False)
    root = ws.root
    ws.close()
    before = (root / "lorekeeper.toml").read_text()
    dialog = AuditSettingsDialog(root)
    qtbot.addWidget(dialog)
    dialog.provider.setCurrentText("vault")
    dialog.addr.setText("not a url")
    dialog.save()
    assert dialog.message.isVisibleTo(dialog) and "http" in dialog.message.text()
    assert (root / "lorekeeper.toml").read_text() == before


def test_status_bar_is_red_when_failed_closed(qtbot, tmp_path: Path):
    from lorekeeper.audit.errors import AuditKeyUnavailableError
    from lorekeeper.ui.panels.audit import KeyStateLabel

    ws = Workspace.init(tmp_path / "r", starter=False)
    root = ws.root
    ws.close()
    set_audit_config(root, provider="vault", addr=f"http://127.0.0.1:{free_port()}")
    ws = Workspace.open(root)
    try:
        with pytest.raises(AuditKeyUnavailableError):
            ws.audit.require_key()
        lab = KeyStateLabel(ws.audit.status)  # asks for the state in a worker (it may ask the keyring)
        qtbot.addWidget(lab)
        qtbot.waitUntil(lambda: lab.failed, timeout=10000)
        assert lab.failed and "failed closed" in lab.text() and "color" in lab.styleSheet()
    finally:
        ws.close()


# --------------------------------------------------------------------------- the panel


def test_panel_shows_the_key_session_and_the_events(qtbot, window, audit_ws):
    p = panel(window)
    assert p.provider_value.text() == "keyring"
    assert p.version_value.text() == "v1"
    assert p.events_model.rowCount() == 4
    assert p.log_value.text().startswith("4 events in 1 file · last ")
    assert window.keys_label.text() == "Key: keyring v1"
    assert not window.keys_label.failed


def test_verify_button_reports_ok_then_names_the_broken_line(qtbot, window, audit_ws):
    p = panel(window)
    click(qtbot, p.verify_button)
    assert p.last_report.ok
    assert "Chain verified: 4 events" in p.verify_summary.text()
    (path,) = session_files(audit_ws.root)
    lines = path.read_text().splitlines()
    lines[2] = lines[2].replace('"i":2', '"i":7')
    path.write_text("\n".join(lines) + "\n")
    click(qtbot, p.verify_button)
    assert not p.last_report.ok
    assert f"{path.name} line 3" in p.verify_summary.text()
    assert p.issues_model.rowCount() == 1
    issue = p.issues_model.row(0)
    assert (issue.file, issue.line) == (path.name, 3)
    # double-clicking the issue selects that event in the browser
    p._jump_to_issue(p.issues_model.index(0, 0))
    assert "line 3" in p.payload_title.text()
    assert "does NOT match" in p.payload_status.text()


def test_rotate_button_asks_first_and_no_changes_nothing(qtbot, window, audit_ws, answer):
    asked, reply = answer
    p = panel(window)
    reply["value"] = False
    click(qtbot, p.rotate_button)
    assert asked == ["Rotate the audit key"]
    assert keyring.get_password(KEYRING_SERVICE, f"audit-hmac:{audit_ws.audit.workspace_id}:version") == "1"
    assert p.events_model.rowCount() == 4


def test_rotate_button_rotates_and_old_events_still_verify(qtbot, window, audit_ws, answer):
    asked, _reply = answer
    p = panel(window)
    click(qtbot, p.rotate_button)
    assert asked == ["Rotate the audit key"]
    assert "v1 → v2" in p.key_message.text()
    # one key per session: the rotation started a new session on v2 at once, no restart
    assert window.keys_label.text() == "Key: keyring v2"
    assert p.version_value.text() == "v2"
    newest = p.events_model.row(0)
    assert (newest.type, newest.key_version, newest.status) == ("audit_key_rotated", 2, "valid")
    # the next event of this very process is signed with v2 (no restart)
    audit_ws.audit.log.append("after_rotation", {"i": 9})
    assert [(e.type, e.key_version) for e in audit_ws.audit.log.events()][-2:] == [
        ("audit_key_rotated", 2),
        ("after_rotation", 2),
    ]
    click(qtbot, p.verify_button)
    assert p.last_report.ok, p.last_report.text()
    # a new session starts on the new key
    reopened = Workspace.open(audit_ws.root)
    try:
        assert reopened.audit.require_key().version == 2
        assert reopened.audit.verify().ok
    finally:
        reopened.close()


def test_event_browser_filters_and_shows_the_signed_payload(qtbot, window, audit_ws):
    p = panel(window)
    p.f_type.setCurrentIndex(p.f_type.findData("proposal_approved"))
    assert p.events_model.rowCount() == 2
    p.f_type.setCurrentIndex(0)
    qtbot.keyClicks(p.f_story, "PD-2")
    assert {r.story for r in p.events_model.rows} == {"PD-2"} and p.events_model.rowCount() == 2
    p.f_story.clear()
    day = p.f_date.itemData(1)
    p.f_date.setCurrentIndex(1)
    assert all(r.file.startswith(day) for r in p.events_model.rows)
    p.events_table.selectRow(0)
    assert '"sig"' in p.payload.toPlainText() and '"content_sha256"' in p.payload.toPlainText()
    assert "Signature valid" in p.payload_status.text()


def test_event_browser_shows_and_filters_who_decided(qtbot, window, audit_ws):
    """Issue 25 d2: every event names its operator (the OS login here, no Vault); the By filter
    keeps one operator's decisions."""
    import getpass

    audit_ws.audit.log.append("proposal_rejected", {"id": 7, "by": "alice"}, story="PD-4")
    audit_ws.audit.log.append("learning_added", {"id": 8, "by": "alice"})
    p = panel(window)
    p.refresh()
    from lorekeeper.ui.panels.audit import EventsModel

    by_col = EventsModel.HEADERS.index("By")
    shown = {p.events_model.index(r, by_col).data() for r in range(p.events_model.rowCount())}
    assert shown == {"alice", getpass.getuser()}  # the fixture's events: this session's operator
    p.f_by.setCurrentIndex(p.f_by.findData("alice"))
    assert p.events_model.rowCount() == 2 and {r.type for r in p.events_model.rows} == {
        "proposal_rejected",
        "learning_added",
    }
    assert "2 of 6" in p.count_label.text()


def test_create_the_missing_key_from_the_stop_page_then_continue(
    qtbot, tmp_path: Path, sync_workers, answer, monkeypatch
):
    """Issue 30 d4: a workspace with no key yet stops on the fail-closed screen; "Create the key"
    asks, creates it in the keyring (as `audit init-key`: a signed audit_key_created event) and the
    app opens on it without a Retry."""
    asked, _reply = answer
    with monkeypatch.context() as m:
        m.setattr(Workspace, "_init_audit_key", lambda self: None)  # as on a machine where init had no keyring
        ws = Workspace.init(tmp_path / "k", starter=False)
        root = ws.root
        ws.close()

    launcher = _launcher(root)
    assert launcher.open() is False
    screen = launcher.error_screen
    qtbot.addWidget(screen)
    screen.show()
    assert screen.cause_label.text() == "Audit key missing" and screen.create_button.isVisible()
    assert "Create the key" in screen.advice_label.text() and "init-key" in screen.advice_label.text()
    click(qtbot, screen.create_button)
    assert asked == ["Create the audit key"]
    assert launcher.window is not None, screen.settings_message.text()  # continued: the app is open
    qtbot.addWidget(launcher.window)
    assert launcher.window.keys_label.text() == "Key: keyring v1"
    assert any(e.type == "audit_key_created" for e in launcher.window.ws.audit.log.events())
    launcher.window.close()
    launcher.window.ws.close()


def test_the_create_button_is_only_for_a_missing_key(qtbot, tmp_path: Path, sync_workers):
    ws = Workspace.init(tmp_path / "d", starter=False)
    root = ws.root
    ws.close()
    set_audit_config(root, provider="vault", addr=f"http://127.0.0.1:{free_port()}")  # nobody answers there
    launcher = _launcher(root)
    assert launcher.open() is False
    screen = launcher.error_screen
    qtbot.addWidget(screen)
    screen.show()
    assert screen.cause != "missing" and not screen.create_button.isVisible()
