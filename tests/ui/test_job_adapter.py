"""The Qt adapter over the job API: streamed values, latest answer wins, the error dialog."""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from lorekeeper.errorlog import error_log_path
from lorekeeper.jobs import Progress
from lorekeeper.ui import workers


def test_yielded_values_stream_to_the_gui_and_progress_to_the_tracker(qtbot):
    chunks: list[object] = []
    steps: list[tuple[int, int, str]] = []
    out: list[str] = []

    def job():
        yield Progress(1, 2, "first half")
        yield "Hello, "
        yield "world"
        yield (2, 2, "second half")
        return "Hello, world"

    workers.run_task(job, on_value=chunks.append, on_progress=lambda *a: steps.append(a), on_result=out.append)
    qtbot.waitUntil(lambda: out == ["Hello, world"])
    assert chunks == ["Hello, ", "world"]
    assert steps == [(1, 2, "first half"), (2, 2, "second half")]
    qtbot.waitUntil(lambda: workers.tracker().running() == 0)


def test_the_latest_job_under_a_key_wins(qtbot):
    release = threading.Event()
    results: list[str] = []
    values: list[str] = []
    cancelled: list[str] = []

    def slow(tag: str):
        yield tag + ":start"
        release.wait(5)
        return tag

    def submit(tag: str) -> None:
        workers.run_task(
            slow,
            tag,
            key=("test", "query"),
            on_value=values.append,
            on_result=results.append,
            on_cancelled=lambda: cancelled.append(tag),
        )

    submit("old")
    qtbot.waitUntil(lambda: values == ["old:start"])
    submit("new")
    release.set()
    qtbot.waitUntil(lambda: results == ["new"] and cancelled == ["old"], timeout=5000)
    assert values == ["old:start", "new:start"]
    qtbot.waitUntil(lambda: workers.tracker().running() == 0)


def test_an_unexpected_error_opens_the_dialog_and_copy_details_puts_the_traceback_on_the_clipboard(
    qtbot, window, ui_workspace
):
    panel_errors: list[BaseException] = []

    def broken_job() -> None:
        {}["missing key"]  # a bug, not a LorekeeperError

    workers.run_task(broken_job, name="Broken job", on_error=panel_errors.append)
    dialog = window.error_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.code_label.text() == "ERR_INTERNAL"
    assert dialog.message_label.text() == "Broken job failed: KeyError: 'missing key'"
    assert len(panel_errors) == 1  # the panel's own handler still ran
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    copied = QGuiApplication.clipboard().text()
    assert "Traceback (most recent call last)" in copied and "broken_job" in copied and "KeyError" in copied
    log = error_log_path(ui_workspace.root)
    assert log.is_file() and "broken_job" in log.read_text() and "ERR_INTERNAL" in log.read_text()
    assert str(log) in dialog.findChildren(type(dialog.code_label))[2].text()


def test_an_error_with_a_code_does_not_open_the_dialog(window):
    from lorekeeper.errors import InvalidInputError

    def job() -> None:
        raise InvalidInputError("bad input")

    workers.run_task(job, name="Checked job", on_error=lambda _e: None)
    assert window.error_dialog is None


def test_a_fast_loop_s_progress_is_coalesced_and_its_last_step_arrives(qtbot):
    steps: list[tuple[int, int, str]] = []
    out: list[str] = []

    def job():
        for i in range(2000):
            yield i + 1, 2000, f"item {i + 1}"
        return "done"

    workers.run_task(job, on_progress=lambda d, t, s: steps.append((d, t, s)), on_result=out.append)
    qtbot.waitUntil(lambda: out == ["done"])
    assert steps[-1] == (2000, 2000, "item 2000")  # the bar ends full
    assert len(steps) < 100  # not one GUI-thread call per item
