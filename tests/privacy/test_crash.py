"""A purge killed with SIGKILL in the middle leaves a journaled run that the next purge finishes."""

from __future__ import annotations

import json
import os
import signal
import sys

from purge_helpers import build_index, files_holding, seed
from sqlalchemy import select

from helpers.cli import run_lorekeeper, run_lorekeeper_process
from lorekeeper.privacy.purge import CRASH_ENV
from lorekeeper.store.models import PurgeRun, PurgeStep
from lorekeeper.workspace import Workspace


def test_kill_9_in_the_middle_then_rerun_completes(workspace: Workspace) -> None:
    seed(workspace, "PD-1")
    seed(workspace, "PD-2")
    build_index(workspace, ["PD-1", "PD-2"])
    root = workspace.root
    workspace.close()
    env = {**os.environ, CRASH_ENV: "after:index:clarifications"}  # store rows and vectors gone, logs not yet
    killed = run_lorekeeper_process(
        "--workspace",
        str(root),
        "purge",
        "--story",
        "PD-1",
        "--force",
        "--json",
        env=env,
        command=[sys.executable, "-m", "lorekeeper"],
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    with Workspace.open(root) as ws:
        with ws.store.session() as s:
            run = s.scalars(select(PurgeRun)).one()
            assert run.status == "running"
            steps = {st.purgeable: st.status for st in s.scalars(select(PurgeStep))}
        assert steps["clarification-rows"] == "erased" and steps["index:clarifications#faiss"] == "erased"
        assert steps["sessions"] == "pending" and steps["markdown"] == "pending"
    assert files_holding(root, "zanzibar-quokka")  # the logs and the markdown still hold it

    proc = run_lorekeeper("--workspace", str(root), "purge", "--story", "PD-1", "--force", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["resumed"] == [run.id] and out["verified"] and "PD-1" in out["stories"]
    # the counts of the killed run's erased steps are kept: the resumed run reports the whole erasure
    assert out["artefacts"]["store"] == 3 and out["artefacts"]["faiss"] == 1 and out["artefacts"]["markdown"] == 1
    assert files_holding(root, "zanzibar-quokka") == []
    assert files_holding(root, "pamplemousse-cobalt")
    with Workspace.open(root) as ws:
        assert ws.purge.run(run.id).status == "done"
    assert run_lorekeeper("--workspace", str(root), "audit", "verify").returncode == 0
