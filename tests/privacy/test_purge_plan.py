"""Issue 28 d3: a purge plan costs the story, not the log (the session log is indexed by story)."""

from __future__ import annotations

from typing import Any

import pytest
from purge_helpers import seed

from lorekeeper.audit.log import SessionLog
from lorekeeper.workspace import Workspace


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many session-log events each `SessionLog.events` call parsed."""
    seen: list[int] = []
    real = SessionLog.events

    def counting(self: SessionLog, files: Any = None) -> Any:
        out = real(self, files)
        seen.append(len(out))
        return out

    monkeypatch.setattr(SessionLog, "events", counting)
    return seen


def test_the_plan_counts_the_story_events_and_the_events_naming_it(workspace: Workspace) -> None:
    seed(workspace, "PD-1")
    seed(workspace, "PD-2", served_by="PD-3")  # PD-3's injection trace names PD-2
    log = workspace.audit.log
    log.append("note", {"text": "see PD-1 for the rotation"}, story="PD-3")  # names PD-1
    log.append("note", {"text": "PD-12 and XPD-1 are other stories"}, story="PD-3")  # names neither
    log.append("note", {"text": "the story «my story» again"}, story="my story")
    log.append("note", {"text": "as in «my story»"}, story="PD-3")
    plan = workspace.purge.plan
    assert plan("PD-1")["sessions"] == 2
    assert plan("PD-2")["sessions"] == 2  # its own event and the trace that served it
    assert plan("PD-12")["sessions"] == 1
    assert plan("my story")["sessions"] == 2  # an id that is not one word: searched in the texts
    assert plan("PD-404")["sessions"] == 0
    result = workspace.purge.purge_story("PD-1")
    assert result.verified and result.artefacts["sessions"] == 2
    assert plan("PD-1")["sessions"] == 0  # tombstones and the purge's own proof are not counted


def test_a_second_plan_reads_no_event_while_the_log_is_unchanged(workspace: Workspace, reads: list[int]) -> None:
    for n in range(30):
        workspace.audit.log.append("note", {"text": f"other story event {n}"}, story=f"PD-{100 + n}")
    seed(workspace, "PD-1")
    first = workspace.purge.plan("PD-1")
    assert first["sessions"] == 1 and sum(reads) >= 31
    reads.clear()
    assert workspace.purge.plan("PD-1") == first
    assert workspace.purge.plan("PD-2")["sessions"] == 0
    assert reads == []  # the unchanged day files were not parsed again
    workspace.audit.log.append("note", {"text": "PD-1 again"}, story="PD-9")
    assert workspace.purge.plan("PD-1")["sessions"] == 2  # the changed day file is read again
    assert len(reads) == 1


def test_opening_a_workspace_does_not_load_the_vector_index_libraries(workspace: Workspace) -> None:
    """The purgeables are built once at wiring; the memory indexes' faiss and numpy still load
    only with the first plan or purge (about 0.45 s of every cold command otherwise)."""
    import subprocess
    import sys

    code = (
        "import sys; from lorekeeper.workspace import Workspace; "
        f"ws = Workspace.open({str(workspace.root)!r}); opened = 'faiss' in sys.modules; "
        "ws.purge.plan('PD-1'); print(opened, 'faiss' in sys.modules); ws.close()"
    )
    workspace.close()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split() == ["False", "True"], out.stderr
