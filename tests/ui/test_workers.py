"""The worker helper, in its real threaded mode: results, progress, errors and cancel on the GUI thread."""

from __future__ import annotations

import threading
import time

from PySide6.QtCore import QThread

from lorekeeper.errors import InvalidInputError
from lorekeeper.ui import workers


def test_result_arrives_on_the_gui_thread(qtbot):
    gui = QThread.currentThread()
    seen: dict[str, object] = {}

    def work() -> str:
        seen["worker_thread"] = threading.current_thread().name
        return "done"

    def on_result(value: str) -> None:
        seen["value"] = value
        seen["on_gui"] = QThread.currentThread() is gui

    workers.run_task(work, on_result=on_result, name="test job")
    qtbot.waitUntil(lambda: "value" in seen)
    assert seen["value"] == "done"
    assert seen["on_gui"] is True
    assert seen["worker_thread"] != threading.main_thread().name
    qtbot.waitUntil(lambda: workers.tracker().running() == 0)


def test_generator_reports_progress_and_returns(qtbot):
    steps: list[tuple[int, int, str]] = []
    out: list[int] = []

    def job():
        for i in range(3):
            yield i + 1, 3, f"step {i + 1}"
        return 42

    workers.run_task(job, on_progress=lambda d, t, s: steps.append((d, t, s)), on_result=out.append)
    qtbot.waitUntil(lambda: out == [42])
    assert steps == [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")]


def test_errors_are_delivered_with_their_code(qtbot):
    errors: list[BaseException] = []

    def boom() -> None:
        raise InvalidInputError("bad thing")

    workers.run_task(boom, on_error=errors.append)
    qtbot.waitUntil(lambda: bool(errors))
    assert workers.error_text(errors[0]) == "ERR_INVALID_INPUT: bad thing"


def test_cancel_stops_a_generator_between_steps(qtbot):
    started = threading.Event()
    steps: list[int] = []
    results: list[object] = []
    cancelled: list[bool] = []

    def long_job():
        for i in range(1000):
            started.set()
            steps.append(i)
            time.sleep(0.005)
            yield i, 1000, "working"
        return "finished"

    worker = workers.run_task(long_job, on_result=results.append, on_cancelled=lambda: cancelled.append(True))
    assert started.wait(5)
    assert workers.tracker().running() >= 1
    worker.cancel()
    qtbot.waitUntil(lambda: cancelled == [True], timeout=5000)
    assert results == []
    assert len(steps) < 1000
    qtbot.waitUntil(lambda: workers.tracker().running() == 0)


def test_synchronous_mode_runs_inline(sync_workers):
    out: list[int] = []
    workers.run_task(lambda: 7, on_result=out.append)
    assert out == [7]
    assert workers.tracker().running() == 0


def test_an_answer_for_a_closed_panel_is_dropped_and_other_errors_still_surface(qtbot):
    """A look-up that finishes after its panel was closed must not raise into Qt's event loop."""
    import pytest
    from PySide6.QtWidgets import QLabel

    shown = QLabel()
    gate = threading.Event()
    done: dict[str, bool] = {}
    workers.run_task(
        lambda: gate.wait(5) and "late",
        on_result=shown.setText,
        on_finished=lambda: done.setdefault("finished", True),
        name="late look-up",
    )
    shown.deleteLater()  # the panel closes while the job runs
    qtbot.waitUntil(lambda: not _alive(shown))
    gate.set()
    qtbot.waitUntil(lambda: done.get("finished", False))  # finished normally, nothing raised
    assert workers.tracker().running() == 0

    relay_error = RuntimeError("a bug")
    with pytest.raises(RuntimeError, match="a bug"):
        workers._Relay._call(_FakeRelay(relay_error), "result", None)


def _alive(widget) -> bool:
    import shiboken6

    return shiboken6.isValid(widget)


class _FakeRelay:
    def __init__(self, exc: BaseException) -> None:
        def boom(_value):
            raise exc

        self.callbacks = {"result": boom}
        self.worker = type("W", (), {"name": "fake"})()


def test_a_look_up_answers_while_long_jobs_fill_their_pool(qtbot):
    """Issue 28 d4: look-ups have their own pool; with every long-job thread busy, a look-up (an
    invisible job) still answers, and so does the change feed's poll."""
    release = threading.Event()
    started: list[int] = []
    ended: list[int] = []

    def long_job(n: int) -> int:
        started.append(n)
        release.wait(30)
        return n

    busy = workers.POOL_SIZES[workers.LONG]
    try:
        for n in range(busy):
            workers.run_task(long_job, n, name=f"long {n}", on_result=ended.append)
        qtbot.waitUntil(lambda: len(started) == busy)  # every long-job thread is taken
        answers: list[str] = []
        workers.run_task(lambda: "found", name="look-up", visible=False, on_result=answers.append)
        workers.run_task(lambda: "polled", name="poll", visible=False, kind=workers.POLL, on_result=answers.append)
        qtbot.waitUntil(lambda: len(answers) == 2)
        assert sorted(answers) == ["found", "polled"] and ended == []  # answered while the long jobs run
    finally:
        release.set()
    qtbot.waitUntil(lambda: len(ended) == busy)
    qtbot.waitUntil(lambda: workers.tracker().running() == 0)


def test_an_unknown_job_kind_is_refused_before_anything_runs(qtbot):
    import pytest

    ran: list[int] = []
    with pytest.raises(ValueError, match="unknown job kind"):
        workers.run_task(lambda: ran.append(1), kind="bulk")
    assert ran == [] and workers.tracker().running() == 0
