"""The Qt-free job API: progress, streamed values, cancel, latest-answer-wins, worker processes."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from lorekeeper.jobs import Cancelled, CancelToken, JobRunner, LatestWins, Progress, as_progress, drive, process_steps


def test_a_generator_job_reports_progress_values_and_its_result():
    progress: list[Progress] = []
    values: list[object] = []

    def job():
        yield Progress(1, 3, "one")
        yield "chunk "
        yield (2, 3, "two")  # the older tuple form is still progress
        yield {"partial": 1}
        yield (3, 3)
        return "answer"

    assert drive(job, on_progress=progress.append, on_value=values.append) == "answer"
    assert progress == [Progress(1, 3, "one"), Progress(2, 3, "two"), Progress(3, 3, "")]
    assert values == ["chunk ", {"partial": 1}]


def test_only_int_tuples_are_progress():
    assert as_progress((1, 2, "x")) == Progress(1, 2, "x")
    assert as_progress(("a", "b")) is None
    assert as_progress((1, 2, 3)) is None
    assert as_progress("text") is None


def test_a_plain_callable_receives_the_token_when_it_asks_for_it():
    seen: list[CancelToken] = []

    def job(x: int, *, cancel: CancelToken) -> int:
        seen.append(cancel)
        return x * 2

    token = CancelToken()
    assert drive(job, (21,), token=token) == 42
    assert seen == [token]
    assert drive(lambda: 5) == 5  # no `cancel` parameter: called without it


def test_cancel_stops_a_generator_between_steps_and_runs_its_cleanup():
    token = CancelToken()
    steps: list[int] = []
    cleaned: list[bool] = []

    def job():
        try:
            for i in range(100):
                steps.append(i)
                if i == 3:
                    token.cancel()
                yield (i, 100, "")
            return "finished"
        finally:
            cleaned.append(True)

    with pytest.raises(Cancelled) as info:
        drive(job, token=token)
    assert info.value.code == "ERR_CANCELLED"
    assert steps == [0, 1, 2, 3]
    assert cleaned == [True]


def test_a_job_may_stop_itself_inside_a_long_step():
    def job(cancel: CancelToken) -> str:
        for _ in range(1000):
            cancel.raise_if_cancelled()
            cancel.cancel()
        return "never"

    with pytest.raises(Cancelled):
        drive(job)


def test_the_token_is_a_should_stop_callable_and_fires_callbacks_once():
    token = CancelToken()
    fired: list[int] = []
    token.on_cancel(lambda: fired.append(1))
    assert token() is False
    token.cancel()
    token.cancel()
    assert token() is True and token.cancelled
    assert fired == [1]
    token.on_cancel(lambda: fired.append(2))  # already cancelled: at once
    assert fired == [1, 2]


def test_latest_wins_cancels_the_older_token_under_the_same_key():
    latest = LatestWins()
    first = latest.begin("route")
    other = latest.begin("skills")
    second = latest.begin("route")
    assert first.cancelled and not second.cancelled and not other.cancelled
    assert latest.is_current("route", second) and not latest.is_current("route", first)
    latest.end("route", first)  # ending a superseded job leaves the current one alone
    assert latest.is_current("route", second)


def test_runner_drops_the_superseded_answer_and_keeps_the_latest():
    runner = JobRunner(max_workers=2)
    release = threading.Event()
    values: list[str] = []

    def slow(tag: str):
        yield f"{tag}-started"
        release.wait(5)
        yield f"{tag}-late"
        return tag

    try:
        old = runner.submit(slow, "old", key="query", on_value=values.append)
        deadline = time.monotonic() + 5
        while "old-started" not in values and time.monotonic() < deadline:
            time.sleep(0.01)
        new = runner.submit(slow, "new", key="query", on_value=values.append)
        release.set()
        assert new.result(5) == "new"
        with pytest.raises(Cancelled):
            old.result(5)
        assert old.cancelled
        assert "old-late" not in values
        assert "new-late" in values
    finally:
        runner.shutdown()


def test_runner_reports_errors_unchanged():
    runner = JobRunner()
    try:
        handle = runner.submit(lambda: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            handle.result(5)
    finally:
        runner.shutdown()


def test_a_process_job_forwards_progress_and_returns_its_result(tmp_path: Path):
    from lorekeeper.context.pack import pack_steps

    body = "".join(f"def f{i}(x):\n    return x + {i}\n\n\n" for i in range(40))
    (tmp_path / "a.py").write_text(body)
    (tmp_path / "b.py").write_text("from a import f1\n\n" + body.replace("def f", "def g"))
    progress: list[Progress] = []
    result = drive(process_steps, (pack_steps, tmp_path), {"mode": "full"}, on_progress=progress.append)
    assert {e.rel for e in result.entries} == {"a.py", "b.py"}
    assert progress and progress[-1].text == "done"


def test_cancelling_a_process_job_terminates_the_child():
    token = CancelToken()
    threading.Timer(0.5, token.cancel).start()
    started = time.monotonic()
    with pytest.raises(Cancelled):
        drive(process_steps, (time.sleep, 60), token=token)
    assert time.monotonic() - started < 30  # not the child's 60 s: it was terminated


def test_a_process_job_error_arrives_with_the_child_traceback():
    with pytest.raises(ValueError) as info:
        drive(process_steps, (int, "not a number"))
    assert "Traceback" in info.value.__traceback_text__  # type: ignore[attr-defined]
