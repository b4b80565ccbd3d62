"""The soak's GUI actor (issue 23): an offscreen MainWindow on the workspace, its change feed polling,
its panels reloading, and the operator's writes made from this process as the panels make them
(jobs in the thread pool through `run_task`): proposal approve / undo / reject, a conflict resolved,
a clarification then a purge by clicking the Purge runs panel, a learning, a key rotation, a context
pack started in the Compression ledger panel and cancelled (its worker process terminated), the
pack's worker process killed with SIGKILL, F5. Every operation is journaled like a worker's."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from helpers.soak import PROJECT, PROPOSAL_STATUS, Journal, answers_for


class GuiActor:
    def __init__(self, qtbot: Any, win: Any, plan: dict[str, Any], journal: Journal, seed: int = 7) -> None:
        self.qtbot = qtbot
        self.win = win
        self.ws = win.ws
        self.journal = journal
        self.rng = random.Random(seed)
        self.proposals = list(plan["gui"]["proposals"])
        self.conflicts = list(plan["gui"]["conflicts"])
        self.src = Path(plan["_src"])
        self.stories: list[str] = []
        self.kills = 0

    # ------------------------------------------------------------------ a job, as a panel runs it
    def job(self, op: str, target: str, fn: Any, *args: Any, timeout: float = 90, **kwargs: Any) -> tuple[bool, Any]:
        from lorekeeper.ui.workers import run_task

        n = self.journal.start(op, target)
        box: dict[str, Any] = {}
        run_task(
            fn,
            *args,
            name=f"soak {op}",
            on_result=lambda r: box.setdefault("r", r),
            on_error=lambda e: box.setdefault("e", e),
            **kwargs,
        )
        self.qtbot.waitUntil(lambda: bool(box), timeout=int(timeout * 1000))
        if "e" in box:
            exc = box["e"]
            self.journal.end(n, False, code=getattr(exc, "code", type(exc).__name__), error=str(exc))
            return False, exc
        result = box["r"]
        out = result if isinstance(result, dict) else result.to_dict() if hasattr(result, "to_dict") else None
        self.journal.end(n, True, out=out if isinstance(out, dict) and len(str(out)) < 4000 else None)
        return True, result

    # ------------------------------------------------------------------ operations
    def proposal(self) -> None:
        if not self.proposals:
            return self.learn_add()
        pid = self.proposals.pop(0)
        props = self.ws.improve.proposals
        seq = self.rng.choice([["approve"], ["approve", "undo"], ["reject"], ["reject", "undo"]])
        for step in seq:
            fn = {"approve": props.approve, "reject": props.reject, "undo": props.undo}[step]
            ok, _ = self.job(f"proposal_{step}", f"proposal:{pid}", fn, pid, why="soak from the GUI")
            if not ok:
                break
        assert set(seq) <= set(PROPOSAL_STATUS)
        return None

    def conflict(self) -> None:
        if not self.conflicts:
            return self.learn_add()
        c = self.conflicts.pop(0)
        if self.rng.random() < 0.5:
            self.job(
                "conflict_keep", f"conflict:{c['id']}", self.ws.facts.resolve, c["id"], keep=c["facts"][0], why="soak"
            )
        else:
            self.job(
                "conflict_reject-all",
                f"conflict:{c['id']}",
                self.ws.facts.resolve,
                c["id"],
                reject_all=True,
                why="soak",
            )
        return None

    def learn_add(self) -> None:
        rule = f"Soak rule gui-{os.getpid()}-{self.journal.n + 1}: keep this."
        self.job("learn_add", f"rule:{rule}", self.ws.learnings.add, rule, project=PROJECT)

    def clarify(self) -> None:
        story = f"SOAK-GUI-{self.journal.n + 1}"
        answers = answers_for(story, os.getpid() * 1000 + self.journal.n)
        cl = self.ws.clarifications

        def run() -> Any:
            return cl.save(cl.sanitize(story, "billing", PROJECT, answers))

        ok, _ = self.job("clarify", f"story:{story}", run)
        if ok:
            self.stories.append(story)

    def purge(self) -> None:
        """Type the story in the Purge runs panel, press Purge, confirm (widgets.confirm is patched)."""
        if not self.stories:
            return self.clarify()
        story = self.stories.pop(0)
        panel = self.win.select_panel("purge")
        before = panel.last_result
        n = self.journal.start("purge", f"story:{story}")
        panel.story.clear()
        panel.message.clear_message()
        self.qtbot.keyClicks(panel.story, story)
        self.qtbot.waitUntil(panel.purge_button.isEnabled, timeout=30000)
        self.qtbot.mouseClick(panel.purge_button, Qt.MouseButton.LeftButton)
        failed = lambda: panel.message.objectName() == "errorBox" and bool(panel.message.text())  # noqa: E731
        self.qtbot.waitUntil(lambda: panel.last_result is not before or failed(), timeout=120000)
        res = panel.last_result
        if res is not before and res is not None and story in res.stories:
            self.journal.end(
                n, bool(res.verified), code=0 if res.verified else "ERR_PURGE_INCOMPLETE", out=res.to_dict()
            )
        else:
            self.journal.end(n, False, code="panel", error=panel.message.text())
        return None

    def rotate(self) -> None:
        self.job("rotate", "key", self.ws.audit.rotate)

    def cancelled_pack(self) -> None:
        """Start a pack in the Compression ledger panel (a worker process) and press Cancel; or kill -9
        the worker process: the panel says so, nothing is written."""
        panel = self.win.select_panel("ledger")
        kill = self.rng.random() < 0.4
        n = self.journal.start("gui_pack_kill9" if kill else "gui_pack_cancel", f"pack:{self.journal.n + 1}")
        panel.folder_edit.setText(str(self.src))
        before = set(multiprocessing.active_children())
        self.qtbot.mouseClick(panel.pack_button, Qt.MouseButton.LeftButton)
        if kill:
            self.qtbot.waitUntil(lambda: bool(set(multiprocessing.active_children()) - before), timeout=30000)
            self.qtbot.wait(self.rng.randint(0, 300))
            for child in set(multiprocessing.active_children()) - before:
                if child.pid:
                    os.kill(child.pid, signal.SIGKILL)
                    self.kills += 1
        else:
            self.qtbot.wait(self.rng.randint(0, 300))
            if panel.cancel_button.isEnabled():
                self.qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
        self.qtbot.waitUntil(lambda: panel.worker is None, timeout=60000)
        self.journal.end(n, True, out={"message": panel.message.text()[:200]})

    def refresh(self) -> None:
        n = self.journal.start("gui_f5", "f5")
        for pid in ("learnings", "proposals", "purge"):
            self.win.select_panel(pid)
            self.win.refresh_current()
        self.journal.end(n, True)

    def step(self) -> None:
        ops = {
            self.proposal: 4,
            self.conflict: 2,
            self.learn_add: 2,
            self.clarify: 2,
            self.purge: 3,
            self.rotate: 1,
            self.cancelled_pack: 1,
            self.refresh: 1,
        }
        self.rng.choices(list(ops), list(ops.values()))[0]()
        self.qtbot.wait(self.rng.randint(0, 150))


def run_soak(
    qtbot: Any,
    ws: Any,
    tmp: Path,
    *,
    seconds: float,
    workers: dict[str, str],
    kill_every: float,
    proposals: int,
    conflicts: int,
    url: str | None = None,
    seed: int = 23,
) -> tuple[Any, dict[str, Any]]:
    """The whole soak on `ws` (closed at the end): returns the verdict and the figures."""
    import time

    from kill_support import use_atomic_keyring

    from helpers.soak import Fleet, check, prepare
    from lorekeeper.ui.main_window import MainWindow

    root = Path(ws.root)
    plan = prepare(ws, ["gui", *workers], proposals=proposals, conflicts=conflicts)
    restore = use_atomic_keyring(ws.audit.workspace_id, tmp / "keyring.json")
    fleet = Fleet(root, workers, seed=seed)
    figures: dict[str, Any] = {}
    try:
        win = MainWindow(ws)
        qtbot.addWidget(win)
        win.show()
        qtbot.waitExposed(win)
        actor = GuiActor(qtbot, win, plan, Journal(root.parent / "journals" / "gui.jsonl"), seed=seed)
        fleet.start_all()
        t0 = time.monotonic()
        next_kill = t0 + kill_every * random.Random(seed).uniform(0.5, 1.5)
        rng = random.Random(seed + 1)
        while time.monotonic() - t0 < seconds:
            actor.step()
            now = time.monotonic()
            if now >= next_kill:
                fleet.kill_one()
                next_kill = now + kill_every * rng.uniform(0.5, 1.5)
            fleet.tend()
        figures["seconds"] = round(time.monotonic() - t0, 1)
        fleet.stop()
        win.close()
        qtbot.waitUntil(lambda: not win.isVisible(), timeout=10000)
        from lorekeeper.ui.workers import tracker

        qtbot.waitUntil(lambda: tracker().running() == 0, timeout=30000)
        ws.close()
        figures["kill9_workers"] = sum(fleet.kills.values())
        figures["kill9_gui_jobs"] = actor.kills
        figures["starts"] = dict(fleet.starts)
        figures["crashed"] = list(fleet.crashed)
        verdict = check(root, url)
    finally:
        if fleet.procs:
            fleet.stop(grace=5)
        restore()
    return verdict, figures
