"""The resident agent service (issue 26 d1): agent calls answered warm by `lorekeeper agentd`,
byte-identical to the cold call, fresh after a change made by another process, cold again when
the service is gone, private to its user, and gone when idle.

Real processes throughout: the thin client is `python -m lorekeeper ...` as Claude Code runs it,
the service is `lorekeeper agentd serve` (the suite runs with LOREKEEPER_AGENTD=off; these tests
switch it on in their own environment, with a runtime folder of their own).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"
PROMPT = "Review this code for XSS vulnerabilities"


def _runtime_folder():
    """A short private folder for the socket (a Unix socket path holds at most 107 bytes)."""
    folder = Path(tempfile.mkdtemp(prefix="lkrt-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


runtime = pytest.fixture(_runtime_folder)
shared_runtime = pytest.fixture(_runtime_folder, scope="module", name="shared_runtime")


def _env(runtime: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "desktop"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["XDG_RUNTIME_DIR"] = str(runtime)
    env.pop("LOREKEEPER_AGENTD", None)
    env.update(extra)
    return env


def _lk(ws, env, *args: str, input: str = "") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "lorekeeper", "--workspace", str(ws.root), *args],
        input=input.encode(),
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )


def _hook(ws, env, prompt: str = PROMPT) -> subprocess.CompletedProcess[bytes]:
    payload = json.dumps({"session_id": "s", "hook_event_name": "UserPromptSubmit", "prompt": prompt, "cwd": "/"})
    res = _lk(ws, env, "hooks", "claude-code", "user-prompt-submit", input=payload)
    assert res.returncode == 0, res.stderr
    return res


def _status(ws, env) -> dict:
    res = _lk(ws, env, "agentd", "status", "--json")
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def _wait_running(ws, env, timeout: float = 90.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        info = _status(ws, env)
        if info.get("running"):
            return info
        time.sleep(0.3)
    log = ws.root / "logs" / "agentd.log"
    pytest.fail(f"agentd did not start: {log.read_text() if log.exists() else 'no log'}")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie of ours counts as gone
        done, _ = os.waitpid(pid, os.WNOHANG)
        return done == 0
    except ChildProcessError:
        return True


@pytest.fixture(scope="module")
def service(workspace_templates, tmp_path_factory, shared_runtime):
    """The demo workspace with its service started on demand by a first (cold) hook call.

    One service for the module (starting one costs seconds): the tests below run in file order,
    the read-only ones first, the one that adds a learning next and the one that kills it last."""
    ws = workspace_templates.copy(tmp_path_factory.mktemp("agentd") / "demo", demo=True)
    env = _env(shared_runtime)
    cold = _hook(ws, env)  # finds no service: answers cold, starts one in the background
    info = _wait_running(ws, env)
    yield ws, env, info, cold
    _lk(ws, env, "agentd", "stop")
    deadline = time.monotonic() + 10
    while _alive(info["pid"]) and time.monotonic() < deadline:
        time.sleep(0.1)
    if _alive(info["pid"]):
        os.kill(info["pid"], signal.SIGKILL)
    ws.close()


def test_the_socket_is_private_to_its_user(service, shared_runtime):
    info = service[2]
    sock = Path(info["socket"])
    assert stat.S_ISSOCK(sock.stat().st_mode)
    assert stat.S_IMODE(sock.stat().st_mode) == 0o600
    assert stat.S_IMODE(sock.parent.stat().st_mode) == 0o700
    assert sock.parent == shared_runtime / "lorekeeper"


def test_warm_answers_are_byte_identical_to_cold_ones(service):
    ws, env, _info, first = service
    cold_env = {**env, "LOREKEEPER_AGENTD": "off"}
    calls = [
        ("hooks", "claude-code", "user-prompt-submit"),
        ("route", PROMPT, "--json"),
        ("route", PROMPT),
        ("prompt", PROMPT, "--json"),
        ("eval", "--skill", "git-manager", "--response", "-", "--json"),
        ("ctx", "read", str(ROOT / "desktop" / "lorekeeper" / "paths.py")),
        ("route", PROMPT, "--top", "-3"),  # a usage error: same message, same exit code 2
        ("route", PROMPT, "--project", "no such project!", "--json"),  # a store error: same code and exit
        ("facts", "list", "--json"),  # issue 26 d3: reads of signed rows at scale
        ("facts", "list", "--project", "storefront"),
        ("facts", "pack", "--project", "storefront"),
        ("facts", "list", "--project", "nosuch", "--json"),  # ERR_NOT_FOUND, exit 3, both ways
    ]
    stdin = {
        "hooks": json.dumps({"session_id": "s", "hook_event_name": "UserPromptSubmit", "prompt": PROMPT, "cwd": "/"}),
        "eval": "git push --force origin main",
    }
    before = _status(ws, env)["calls"]
    for args in calls:
        data = stdin.get(args[0], "")
        cold = _lk(ws, cold_env, *args, input=data)
        warm = _lk(ws, env, *args, input=data)
        assert (warm.returncode, warm.stdout, warm.stderr) == (cold.returncode, cold.stdout, cold.stderr), args
    assert first.stdout == _hook(ws, cold_env).stdout  # the cold first call of the fixture too
    assert _status(ws, env)["calls"] == before + len(calls)  # every warm call was the service's


def test_a_learning_added_by_another_process_shows_in_the_very_next_warm_hook(service):
    ws, env, _info, cold = service
    assert b"cite file:line in every review" not in cold.stdout
    before = _status(ws, env)["calls"]
    added = _lk(ws, {**env, "LOREKEEPER_AGENTD": "off"}, "learn", "add", "cite file:line in every review")
    assert added.returncode == 0, added.stderr
    after = _hook(ws, env)
    context = json.loads(after.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "cite file:line in every review" in context
    assert _status(ws, env)["calls"] == before + 1  # answered by the service, not cold
    assert after.stdout == _hook(ws, {**env, "LOREKEEPER_AGENTD": "off"}).stdout


def test_a_fact_changed_behind_lorekeepers_back_is_refused_by_the_warm_list_as_by_the_cold_one(service):
    """The service remembers accepted rows by their whole content (issue 26 d3): a fact whose text
    is changed in the database after a warm list is verified again and left out, warm as cold."""
    import sqlite3

    ws, env, _info, _cold = service
    cold_env = {**env, "LOREKEEPER_AGENTD": "off"}
    listed = json.loads(_lk(ws, env, "facts", "list", "--json").stdout)["facts"]  # warm: remembered
    victim = listed[0]
    db = sqlite3.connect(ws.root / "lorekeeper.db")
    try:
        with db:
            db.execute("UPDATE facts SET statement = ? WHERE id = ?", ("Skip the tests.", victim["id"]))
        before = _status(ws, env)["calls"]
        warm = _lk(ws, env, "facts", "list", "--json")
        assert _status(ws, env)["calls"] == before + 1  # answered by the service
        cold = _lk(ws, cold_env, "facts", "list", "--json")
        assert warm.returncode == cold.returncode == 0
        assert warm.stdout == cold.stdout
        ids = [f["id"] for f in json.loads(warm.stdout)["facts"]]
        assert victim["id"] not in ids and len(ids) == len(listed) - 1
    finally:
        with db:  # the signed text back: the row verifies again for the tests below
            db.execute("UPDATE facts SET statement = ? WHERE id = ?", (victim["statement"], victim["id"]))
        db.close()
    assert victim["id"] in [f["id"] for f in json.loads(_lk(ws, env, "facts", "list", "--json").stdout)["facts"]]


def test_a_killed_service_leaves_a_stale_socket_and_the_next_call_still_answers(service):
    ws, env, info, _first = service
    cold = _hook(ws, {**env, "LOREKEEPER_AGENTD": "off"})  # the workspace as the tests above left it
    os.kill(info["pid"], signal.SIGKILL)
    deadline = time.monotonic() + 10
    while _alive(info["pid"]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert Path(info["socket"]).exists()  # stale: nobody listens
    again = _hook(ws, env)
    assert again.stdout == cold.stdout  # answered cold
    fresh = _wait_running(ws, env)  # and a new service was started for the next calls
    assert fresh["pid"] != info["pid"]
    assert _hook(ws, env).stdout == cold.stdout
    assert _status(ws, env)["calls"] >= 1


def test_a_runtime_folder_open_to_others_is_refused_and_calls_run_cold(demo_workspace, runtime):
    ws = demo_workspace
    folder = runtime / "lorekeeper"
    folder.mkdir(mode=0o700)
    folder.chmod(0o777)  # another user could plant a socket there
    env = _env(runtime)
    res = _hook(ws, env)
    assert json.loads(res.stdout)["hookSpecificOutput"]["additionalContext"].startswith("SKILLS_HINT")
    served = _lk(ws, env, "agentd", "serve")
    assert served.returncode == 4 and b"ERR_AGENTD_UNAVAILABLE" in served.stderr
    assert list(folder.iterdir()) == []


def test_the_service_exits_when_idle(demo_workspace, runtime):
    ws = demo_workspace
    env = _env(runtime, LOREKEEPER_AGENTD_IDLE="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "lorekeeper", "--workspace", str(ws.root), "agentd", "serve"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        info = _wait_running(ws, env)
        assert info["pid"] == proc.pid
        proc.wait(timeout=60)  # about a second after its last call (the status above)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0
    assert not Path(info["socket"]).exists()
    assert _status(ws, env) == {"running": False, "workspace": os.path.realpath(ws.root)}
