"""Issue 31 item 10: after a break in the middle of the log (an edited line in an earlier day
file) signed writes go on; `audit status` (text and --json) and the Audit panel say at every
start that the chain has a break and where (day file, line, seq), until the operator
acknowledges it with a signed `break_acknowledged` event (`audit acknowledge [--reason]` or the
panel's button). The acknowledgement names the break it covers: a new break is reported again."""

from __future__ import annotations

import json
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from helpers.cli import run_lorekeeper
from lorekeeper.workspace import Workspace

EARLIER = "2026-11-30"


def _ws_with_an_earlier_day(root: Path) -> Path:
    """Three signed events on an earlier day, then one today (the real clock)."""
    ws = Workspace.init(root, starter=False)
    try:
        log = ws.audit.log
        tick = iter(range(1, 100))
        clock = log.clock
        log.clock = lambda: f"{EARLIER}T10:00:{next(tick):02d}.000000+00:00"
        for i in range(3):
            log.append("note", {"i": i})
        log.clock = clock
        log.append("note", {"i": 3})
    finally:
        ws.close()
    return root


def _edit(root: Path, line: int, old: str, new: str) -> None:
    path = root / "sessions" / f"{EARLIER}.jsonl"
    lines = path.read_text().splitlines()
    assert old in lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new)
    path.write_text("\n".join(lines) + "\n")


def _lk(root: Path, *args: str):
    return run_lorekeeper("--workspace", str(root), "audit", *args)


def _status(root: Path) -> dict:
    r = _lk(root, "status", "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["chain"]


def test_status_names_a_middle_break_at_every_start_until_acknowledged(tmp_path: Path):
    root = _ws_with_an_earlier_day(tmp_path / "ws")
    assert _status(root)["ok"] and "chain        verified, no break" in _lk(root, "status").stdout
    _edit(root, 2, '"i":1', '"i":7')
    # signed writes go on after the break (it is not the head's business)
    assert _lk(root, "append", "after_break").returncode == 0
    for _start in range(2):  # every start says it, not only the first
        chain = _status(root)
        assert not chain["ok"] and chain["unacknowledged"] == 1
        (brk,) = chain["breaks"]
        assert (brk["file"], brk["line"], brk["seq"], brk["kind"]) == (
            f"{EARLIER}.jsonl",
            2,
            2,
            "content_mismatch",
        )
        text = _lk(root, "status")
        assert f"BREAK (ERR_AUDIT_VERIFY_FAILED) at {EARLIER}.jsonl line 2 (event #2)" in text.stdout
        assert "lorekeeper audit acknowledge" in text.stdout
        assert "unacknowledged break" in text.stderr

    r = _lk(root, "acknowledge", "--reason", "test edit by the operator", "--json")
    assert r.returncode == 0, r.stderr
    ack = json.loads(r.stdout)
    assert [(b["file"], b["line"], b["seq"]) for b in ack["acknowledged"]] == [(f"{EARLIER}.jsonl", 2, 2)]
    assert ack["event"]["type"] == "break_acknowledged" and ack["reason"] == "test edit by the operator"

    # the acknowledgement is a signed event in the log, naming the break it covers
    ws = Workspace.open(root)
    try:
        (event,) = [e for e in ws.audit.log.events() if e.type == "break_acknowledged"]
        assert event.status == "valid"
        assert event.data["reason"] == "test edit by the operator" and event.data["operator"]
        assert [(b["file"], b["line"]) for b in event.data["breaks"]] == [(f"{EARLIER}.jsonl", 2)]
    finally:
        ws.close()

    for _start in range(2):
        chain = _status(root)
        assert chain["unacknowledged"] == 0 and chain["breaks"] == []
        assert [b["line"] for b in chain["acknowledged"]] == [2]
        text = _lk(root, "status")
        assert "BREAK" not in text.stdout and "1 break(s), acknowledged by" in text.stdout
        assert "test edit by the operator" in text.stdout
    # verify still tells the truth about the log
    assert _lk(root, "verify").returncode == 1
    # a second acknowledge writes nothing
    again = _lk(root, "acknowledge")
    assert again.returncode == 0 and "already acknowledged" in again.stdout

    # a new, different break is reported again (the earlier one stays acknowledged)
    _edit(root, 3, '"i":2', '"i":9')
    chain = _status(root)
    assert [(b["line"], b["seq"]) for b in chain["breaks"]] == [(3, 3)]
    assert [b["line"] for b in chain["acknowledged"]] == [2]
    assert f"BREAK (ERR_AUDIT_VERIFY_FAILED) at {EARLIER}.jsonl line 3 (event #3)" in _lk(root, "status").stdout


def test_the_same_line_edited_again_is_a_new_break(tmp_path: Path):
    root = _ws_with_an_earlier_day(tmp_path / "ws")
    _edit(root, 2, '"i":1', '"i":7')
    assert _lk(root, "acknowledge").returncode == 0
    assert _status(root)["unacknowledged"] == 0
    _edit(root, 2, '"i":7', '"i":8')  # what was acknowledged is not what is there now
    assert [b["line"] for b in _status(root)["breaks"]] == [2]


def test_acknowledge_with_no_break_writes_nothing(tmp_path: Path):
    root = _ws_with_an_earlier_day(tmp_path / "ws")
    before = sorted((p.name, p.read_bytes()) for p in (root / "sessions").glob("*.jsonl"))
    r = _lk(root, "acknowledge", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["event"] is None
    assert "the chain has no break" in _lk(root, "acknowledge").stdout
    assert sorted((p.name, p.read_bytes()) for p in (root / "sessions").glob("*.jsonl")) == before


def test_a_reason_over_the_limit_is_refused_before_anything_is_written(tmp_path: Path):
    root = _ws_with_an_earlier_day(tmp_path / "ws")
    _edit(root, 2, '"i":1', '"i":7')
    r = _lk(root, "acknowledge", "--reason", "x" * 2001, "--json")
    assert r.returncode == 2
    assert json.loads(r.stdout)["error"]["code"] == "ERR_INVALID_INPUT"
    assert _status(root)["unacknowledged"] == 1


# --------------------------------------------------------------------------- the Audit panel


@pytest.fixture
def sync_workers():
    from lorekeeper.ui import workers

    workers.set_synchronous(True)
    yield
    workers.set_synchronous(False)


def _open_panel(qtbot, root: Path):
    from lorekeeper.ui.main_window import MainWindow

    ws = Workspace.open(root)
    ws.audit.require_key()
    win = MainWindow(ws)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    return ws, win, win.select_panel("audit")


def test_audit_panel_says_where_the_break_is_until_its_button_acknowledges_it(qtbot, tmp_path: Path, sync_workers):
    root = _ws_with_an_earlier_day(tmp_path / "ws")
    _edit(root, 2, '"i":1', '"i":7')
    for _start in range(2):  # every start of the app, not only the first
        ws, win, p = _open_panel(qtbot, root)
        try:
            assert p.chain_box.isVisible() and p.ack_button.isVisible()
            assert f"{EARLIER}.jsonl line 2 (event #2)" in p.chain_message.text()
            assert "has a break" in p.chain_message.text()
        finally:
            win.close()
            ws.close()

    ws, win, p = _open_panel(qtbot, root)
    try:
        qtbot.keyClicks(p.ack_reason, "looked into it: a test edit")
        assert p.ack_button.isEnabled()
        qtbot.keyClick(p.ack_reason, Qt.Key.Key_Return)  # Enter in the one field acknowledges (issue 30 d2)
        assert not p.ack_button.isVisible()
        assert "1 break(s) acknowledged by" in p.chain_message.text()
        assert "has a break" not in p.chain_message.text()
        (event,) = [e for e in ws.audit.log.events() if e.type == "break_acknowledged"]
        assert event.data["reason"] == "looked into it: a test edit"
    finally:
        win.close()
        ws.close()

    ws, win, p = _open_panel(qtbot, root)  # the next start: no alarm for the acknowledged break
    try:
        assert not p.ack_button.isVisible()
        assert "has a break" not in p.chain_message.text()
    finally:
        win.close()
        ws.close()

    _edit(root, 3, '"i":2', '"i":9')  # a new break: said again
    ws, win, p = _open_panel(qtbot, root)
    try:
        assert p.ack_button.isVisible()
        assert f"{EARLIER}.jsonl line 3 (event #3)" in p.chain_message.text()
    finally:
        win.close()
        ws.close()


def test_audit_panel_shows_no_banner_on_a_sound_chain(qtbot, tmp_path: Path, sync_workers):
    root = _ws_with_an_earlier_day(tmp_path / "ws")
    ws, win, p = _open_panel(qtbot, root)
    try:
        assert not p.chain_box.isVisible()
    finally:
        win.close()
        ws.close()
