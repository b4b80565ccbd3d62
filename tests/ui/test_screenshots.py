from __future__ import annotations

from lorekeeper.errors import WorkspaceError
from lorekeeper.ui.app import run_app
from lorekeeper.ui.panels import PANELS
from lorekeeper.workspace import Workspace


def test_screenshot_mode_writes_one_png_per_panel(qapp, tmp_path, capsys):
    root = tmp_path / "ws"
    Workspace.init(root, demo=True).close()
    out = tmp_path / "shots"
    code = run_app(lambda: Workspace.open(root), screenshot_dir=out)
    assert code == 0
    files = sorted(p.name for p in out.glob("*.png"))
    # one per panel, and one per other view a panel offers (the Router's Trigger evals tab)
    assert files == sorted([f"{spec.panel_id}.png" for spec in PANELS] + ["router-triggers.png"])
    for p in out.glob("*.png"):
        assert p.stat().st_size > 10_000  # a real render, not an empty image
    printed = capsys.readouterr().out
    assert all(str(out / f) in printed for f in files)


def test_a_workspace_that_cannot_open_shows_the_error_screen(qapp, tmp_path):
    def broken() -> Workspace:
        raise WorkspaceError(f"no workspace at {tmp_path / 'missing'}")

    out = tmp_path / "shots"
    code = run_app(broken, screenshot_dir=out)
    assert code != 0
    assert (out / "error.png").is_file()


def test_error_screen_retry_opens_the_workspace(qtbot, tmp_path, sync_workers):
    from lorekeeper.ui.app import _Launcher

    root = tmp_path / "ws"
    attempts: list[int] = []

    def factory() -> Workspace:
        attempts.append(1)
        if len(attempts) == 1:
            return Workspace.open(root)  # not created yet: fails
        return Workspace.open(root)

    launcher = _Launcher(factory)
    assert not launcher.open()
    screen = launcher.error_screen
    qtbot.addWidget(screen)
    assert screen.code_label.text() == "ERR_WORKSPACE"
    assert "lorekeeper init" in screen.advice_label.text()
    Workspace.init(root).close()
    screen.retry_button.click()
    assert launcher.window is not None
    qtbot.addWidget(launcher.window)
    launcher.window.close()
    launcher.window.ws.close()
