"""The app's first window (issue 30 d1): a plain launch (`lorekeeper`, `lorekeeper gui`) paints an
"Opening workspace…" window before the CLI (click) and the app's modules are imported; the opening
screen then takes its place and the main window follows. Every other call (`--help`, `--version`,
`gui --screenshot`) goes to the CLI as before, with no window first.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

# Run in a fresh process as the console script does: records each top-level window's first paint
# (its class, title, and whether click / the app module were imported by then) until the main
# window paints, then which top-level windows are still visible.
PROBE = r"""
import faulthandler, json, os, sys
faulthandler.dump_traceback_later(45, exit=True)  # a hang says where, before the test's timeout
import PySide6.QtWidgets as W
from PySide6.QtCore import QEvent, QObject

seen, painted = [], []  # the windows themselves, kept alive: an id() is reused once one is deleted


class Probe(QObject):
    def eventFilter(self, obj, ev):
        if ev.type() == QEvent.Type.Paint and obj.isWidgetType() and obj.isWindow() and not any(w is obj for w in painted):
            painted.append(obj)
            seen.append({
                "cls": type(obj).__name__,
                "title": obj.windowTitle(),
                "click": "click" in sys.modules,
                "app": "lorekeeper.ui.app" in sys.modules,
            })
            if type(obj).__name__ not in ("QWidget", "OpeningScreen"):  # the main window, or an error screen
                visible = [type(w).__name__ for w in W.QApplication.topLevelWidgets() if w.isVisible()]
                print("SEEN " + json.dumps({"seen": seen, "visible": visible}), flush=True)
                os._exit(0)
        return False


class ProbeApp(W.QApplication):
    def __init__(self, *a):
        super().__init__(*a)
        self._probe = Probe()
        self.installEventFilter(self._probe)


W.QApplication = ProbeApp
sys.argv = ["lorekeeper", *sys.argv[1:]]
from lorekeeper.entry import main
main()
"""


def _launch(tmp_path, lang: str, *argv: str) -> dict:
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "LOREKEEPER_LANG": lang, "LOREKEEPER_AGENTD": "off"}
    out = subprocess.run(
        [sys.executable, str(probe), *argv], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    line = next((x for x in out.stdout.splitlines() if x.startswith("SEEN ")), None)
    assert line is not None, (out.returncode, out.stdout[-2000:], out.stderr[-2000:])
    return json.loads(line[5:])


@pytest.mark.parametrize(
    ("lang", "words", "title"),
    [
        ("en", ("--workspace", "{ws}"), "Lorekeeper — opening the workspace"),
        ("fr", ("gui", "--workspace", "{ws}"), "Lorekeeper — ouverture de l'espace de travail"),
    ],
)
def test_a_plain_launch_paints_its_first_window_before_the_cli_then_opens_the_main_window(
    tmp_path, workspace_templates, lang, words, title
):
    ws = workspace_templates.copy(tmp_path / "ws")
    ws.close()
    got = _launch(tmp_path, lang, *(w.format(ws=ws.root) for w in words))
    first = got["seen"][0]
    assert first["title"] == title  # the opening window, in the operator's language
    assert not first["click"] and not first["app"]  # painted before the CLI and the app were imported
    assert [s["cls"] for s in got["seen"]][-2:] == ["OpeningScreen", "MainWindow"]
    assert got["visible"] == ["MainWindow"]  # the first window and the opening screen are gone


def test_a_launch_on_a_missing_workspace_goes_from_the_first_window_to_the_error_screen(tmp_path) -> None:
    got = _launch(tmp_path, "en", "gui", "--workspace", str(tmp_path / "nowhere"))
    assert got["seen"][0]["title"] == "Lorekeeper — opening the workspace" and not got["seen"][0]["click"]
    assert [s["cls"] for s in got["seen"]][-2:] == ["OpeningScreen", "ErrorScreen"]
    assert got["visible"] == ["ErrorScreen"]  # with its code and Retry; nothing of the launch left behind


@pytest.mark.parametrize(
    ("argv", "where"),
    [
        ([], "default"),
        (["--workspace", "/w"], "/w"),
        (["--workspace=/w", "gui"], "/w"),
        (["--workspace", "/a", "gui", "--workspace", "/b"], "/b"),
        (["gui", "--workspace=~/w"], os.path.expanduser("~/w")),
        (["--help"], None),
        (["--version"], None),
        (["gui", "--help"], None),
        (["gui", "--screenshot", "/tmp/x"], None),
        (["gui", "--size", "1024x640"], None),
        (["init", "/w"], None),
        (["--workspace"], None),
    ],
)
def test_only_a_plain_launch_takes_the_first_window_path(monkeypatch, tmp_path, argv, where) -> None:
    from lorekeeper.entry import gui_launch

    monkeypatch.delenv("LOREKEEPER_WORKSPACE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    expected = str(tmp_path / "lorekeeper" / "workspace") if where == "default" else where
    if where == "default" and not sys.platform.startswith("linux"):
        expected = ""
    assert gui_launch(argv) == expected


def test_the_opening_screen_takes_the_first_windows_place(qtbot, tmp_path) -> None:
    from lorekeeper.ui import splash
    from lorekeeper.ui.app import OpeningScreen

    first = splash.show(str(tmp_path))
    first.move(40, 30)
    opening = OpeningScreen(str(tmp_path))
    qtbot.addWidget(opening)
    splash.hand_over(opening)
    assert opening.isVisible() and not first.isVisible()
    assert opening.pos() == first.pos()
    assert splash.current() is None
