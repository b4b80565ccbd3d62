"""The holds registry of the GUI job layer: a job holds items while it runs; a HoldGate keeps the
buttons bound to a held item disabled with the reason and brings them back when the job ends,
fails or is cancelled."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from lorekeeper.errors import InvalidInputError
from lorekeeper.ui import workers

ITEM = ("proposal", 7)


@pytest.fixture
def gated(qtbot):
    host = QWidget()
    qtbot.addWidget(host)
    button = QPushButton("Approve", host)
    button.setToolTip("Approve the proposal")
    reason = QLabel(host)
    gate = workers.HoldGate(host, lambda: ITEM, lambda: gate.enable(button, True), reason)
    gate.enable(button, True)
    host.show()
    yield button, reason
    host.close()  # the host (and its gate) lives until the test ends


def _start(name: str, reason: str = "") -> workers.Worker:
    w = workers.Worker(lambda: None, name=name, holds=[ITEM], hold_reason=reason)
    workers.tracker().add(w, {})
    return w


def test_a_held_item_waits_with_the_reason_until_every_holder_ended(gated, qtbot):
    button, reason = gated
    assert button.isEnabled() and not reason.isVisible()
    first = _start("Benchmark #7", "Benchmark running on proposal #7")
    second = _start("Another run")
    assert not button.isEnabled()
    assert button.toolTip() == "Benchmark running on proposal #7" and reason.isVisible()
    first.run()  # ends: the other job still holds it, now with its own (default) reason
    assert not button.isEnabled() and button.toolTip().startswith("Another run is running on this proposal")
    second.run()
    assert button.isEnabled() and button.toolTip() == "Approve the proposal" and not reason.isVisible()
    assert workers.tracker().hold_reason(ITEM) == ""


def test_a_failed_or_cancelled_job_releases_its_hold(gated, qtbot):
    button, _reason = gated

    def boom():
        raise InvalidInputError("no")

    failing = workers.Worker(boom, name="Failing", holds=[ITEM])
    workers.tracker().add(failing, {"error": lambda _e: None})
    assert not button.isEnabled()
    failing.run()
    assert button.isEnabled()

    cancelled = _start("Cancelled")
    assert workers.tracker().cancel_holders(ITEM)
    cancelled.run()
    assert button.isEnabled() and workers.tracker().hold_reason(ITEM) == ""
