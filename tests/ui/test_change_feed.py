"""The change feed: a panel open while ANOTHER process imports a skill shows it without a refresh.

Workers run on threads here (not synchronously): the feed polls the store revision in a
background job every second, as in the app. The issue asks for a measured bound: the new skill
is listed within 2 s of the other process's import finishing.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from helpers import forkcli
from lorekeeper.ui import workers


def write_skill(root: Path, name: str) -> Path:
    d = root / name
    d.mkdir(parents=True)
    (d / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: Cares for quokkas in their marsupial enclosure.\n"
        'metadata:\n  triggers: "quokka, quokkas, marsupial enclosure"\n  keywords: "quokka, marsupial"\n'
        "---\n\n# Quokka care\n\nFeed the quokkas leaves.\n",
        encoding="utf-8",
    )
    return d


@pytest.fixture
def threaded_window(qtbot, ui_workspace):
    from lorekeeper.ui.main_window import MainWindow

    workers.set_synchronous(False)
    win = MainWindow(ui_workspace)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.close()
    workers.wait_for_all(10000)


def import_elsewhere(ws_root: Path, src: Path) -> None:
    """`lorekeeper --workspace WS skills import DIR` in another process (forked warm: helpers.forkcli)."""
    env = dict(os.environ)
    r = forkcli.run("--workspace", str(ws_root), "skills", "import", str(src), timeout=120, env=env)
    assert r.returncode == 0, r.stderr


def test_another_process_import_appears_in_the_open_skills_and_router_panels(
    qtbot, threaded_window, ui_workspace, tmp_path, capsys
):
    win = threaded_window
    panel = win.select_panel("skills")
    qtbot.waitUntil(lambda: panel.model.rowCount() > 0, timeout=10000)
    assert "quokka-care" not in {r.name for r in panel.model.rows}
    router = win.select_panel("router")
    win.select_panel("skills")

    import_elsewhere(ui_workspace.root, write_skill(tmp_path / "src", "quokka-care"))
    finished = time.monotonic()
    qtbot.waitUntil(lambda: "quokka-care" in {r.name for r in panel.model.rows}, timeout=2000)
    latency = time.monotonic() - finished
    with capsys.disabled():
        print(f"\n[change feed] another process's import listed after {latency * 1000:.0f} ms")

    # the router routes to it too (its cache keys on the store revision), with no restart
    win.select_panel("router")
    router.message.setPlainText("how do I care for a quokka in its marsupial enclosure")
    qtbot.waitUntil(lambda: router.model.rowCount() > 0 and router.model.rows[0].name == "quokka-care", timeout=5000)


def test_in_process_writes_reach_the_bus_once_per_change(qtbot, threaded_window, ui_workspace, tmp_path):
    win = threaded_window
    topics: list[str] = []
    win.bus.changed.connect(topics.append)
    ui_workspace.learnings.add("Quokkas are never fed bread", project=None)
    qtbot.waitUntil(lambda: "learnings" in topics, timeout=2000)
    assert "skills" not in topics
