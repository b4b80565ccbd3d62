"""`lorekeeper schedule`: units rendered with the absolute executable and workspace, checked by the
platform's own validators; running a unit's command line by hand performs the nightly on THAT workspace.
(Replaces tests/improve/test_scheduler.py, which checked the static units these templates replace.)"""

from __future__ import annotations

import json
import os
import plistlib
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from packaging_helpers import isolated_env, lk

from lorekeeper.cli import schedule as sched


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    tmp = tmp_path_factory.mktemp("sched")
    env = isolated_env(tmp)
    ws = tmp / "my workspace"  # a space: quoting must hold in every unit
    r = lk("init", str(ws), "--demo", env=env)
    assert r.returncode == 0, r.stderr
    return ws, env


def _ini(text: str) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    section = ""
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            out[section] = {}
        else:
            key, _, value = line.partition("=")
            out[section][key] = value
    return out


def test_systemd_units_name_the_executable_and_workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    ws = tmp_path / "w s"
    plan = sched.render("systemd", ws, "04:30")
    units = tmp_path / "cfg" / "systemd" / "user"
    service, timer = sorted(plan.files, key=lambda p: p.suffix)
    assert service.parent == units and service.name.startswith("lorekeeper-nightly-") and timer.suffix == ".timer"
    svc = _ini(plan.files[service])
    argv = shlex.split(svc["Service"]["ExecStart"])
    assert argv == [sys.executable, "-m", "lorekeeper", "--workspace", str(ws), "schedule", "run"]
    assert os.path.isabs(argv[0]) and svc["Service"]["Type"] == "oneshot"
    tim = _ini(plan.files[timer])
    assert tim["Timer"]["OnCalendar"] == "*-*-* 04:30:00 UTC"
    assert tim["Timer"]["Unit"] == service.name and tim["Install"]["WantedBy"] == "timers.target"


def test_frozen_bundle_names_its_own_executable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", "/opt/lorekeeper/lorekeeper")
    assert sched.own_command() == ["/opt/lorekeeper/lorekeeper"]
    assert sched.render("cron", tmp_path, "03:00").command[:2] == ["/opt/lorekeeper/lorekeeper", "--workspace"]


def test_systemd_analyze_verifies_the_rendered_units(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed (Debian: apt-get install systemd)")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    plan = sched.render("systemd", tmp_path / "ws", "03:00")
    for path, text in plan.files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    env = {**os.environ, "XDG_RUNTIME_DIR": str(run)}
    out = subprocess.run(
        ["systemd-analyze", "verify", "--user", *map(str, plan.files)],
        capture_output=True, text=True, timeout=120, env=env, check=False,
    )  # fmt: skip
    # verify exits 0 on many unit mistakes but names them on stderr: both must be clean
    assert out.returncode == 0 and "lorekeeper-nightly" not in out.stderr, out.stderr
    cal = subprocess.run(
        ["systemd-analyze", "calendar", "*-*-* 03:00:00 UTC"], capture_output=True, text=True, check=False
    )
    assert cal.returncode == 0 and "03:00:00 UTC" in cal.stdout


def test_launchd_plist_round_trips(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "UTC")
    ws = tmp_path / "a & <b>"
    plan = sched.render("launchd", ws, "03:15", home=tmp_path / "home")
    ((path, text),) = plan.files.items()
    assert path.parent == tmp_path / "home" / "Library" / "LaunchAgents"
    data = plistlib.loads(text.encode("utf-8"))
    assert data["Label"] == path.stem == plan.unit
    assert data["ProgramArguments"] == [sys.executable, "-m", "lorekeeper", "--workspace", str(ws), "schedule", "run"]
    assert data["StartCalendarInterval"] == {"Hour": 3, "Minute": 15}
    assert data["StandardOutPath"] == str(ws / "schedule" / "scheduled.log")
    assert plistlib.loads(plistlib.dumps(data)) == data
    if shutil.which("plutil"):
        path.parent.mkdir(parents=True)
        path.write_text(text, encoding="utf-8")
        assert subprocess.run(["plutil", "-lint", str(path)], check=False).returncode == 0


CRON_FIELD = re.compile(r"^(\*|\d+)$")


def test_cron_line_syntax_and_quoting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "UTC")
    ws = tmp_path / "100% ws"
    plan = sched.render("cron", ws, "23:05")
    lines = [ln for ln in plan.cron_block.splitlines() if ln and not ln.startswith("#")]
    assert len(lines) == 1
    fields = lines[0].split(maxsplit=5)
    assert fields[:5] == ["5", "23", "*", "*", "*"] and all(CRON_FIELD.match(f) for f in fields[:5])
    command = fields[5]
    assert "%" not in command.replace("\\%", "")  # cron would cut the command at a bare %
    argv = shlex.split(command.replace("\\%", "%").split(" >> ")[0])
    assert argv == [sys.executable, "-m", "lorekeeper", "--workspace", str(ws), "schedule", "run"]


def test_local_hour_for_launchd_and_cron(monkeypatch: pytest.MonkeyPatch) -> None:
    from datetime import UTC, datetime

    monkeypatch.setenv("TZ", "Asia/Kolkata")  # UTC+05:30, no DST
    import time

    time.tzset()
    try:
        assert sched.local_time_of(3, 0, datetime(2026, 1, 1, tzinfo=UTC)) == (8, 30)
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_bad_time_and_kind_are_invalid_input(demo: tuple[Path, dict[str, str]]) -> None:
    ws, env = demo
    r = lk("schedule", "install", "--workspace", str(ws), "--at", "25:00", "--print", env=env)
    assert r.returncode == 2 and "ERR_INVALID_INPUT" in r.stderr
    r = lk("schedule", "install", "--workspace", str(ws.parent / "nope"), "--print", env=env)
    assert r.returncode == 4 and "no workspace" in r.stderr


def _fake_crontab(bin_dir: Path, store: Path) -> None:
    bin_dir.mkdir(parents=True, exist_ok=True)
    script = bin_dir / "crontab"
    script.write_text(
        "#!/bin/sh\n"
        f'STORE="{store}"\n'
        'if [ "$1" = "-l" ]; then [ -f "$STORE" ] || { echo "no crontab for $USER" >&2; exit 1; }; cat "$STORE"; exit 0; fi\n'
        'if [ "$1" = "-" ]; then cat > "$STORE"; exit 0; fi\n'
        "exit 2\n",
        encoding="utf-8",
    )
    script.chmod(0o755)


def test_cron_install_keeps_other_lines_and_uninstall_removes_only_ours(
    demo: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    ws, env = demo
    store = tmp_path / "crontab.txt"
    store.write_text("MAILTO=me\n0 1 * * * /usr/bin/backup\n", encoding="utf-8")
    _fake_crontab(tmp_path / "bin", store)
    env = {**env, "PATH": f"{tmp_path / 'bin'}{os.pathsep}{env['PATH']}"}
    for _ in range(2):  # idempotent: a second install replaces the block
        r = lk("schedule", "install", "--workspace", str(ws), "--kind", "cron", "--json", env=env)
        assert r.returncode == 0, r.stderr
    text = store.read_text(encoding="utf-8")
    assert text.startswith("MAILTO=me\n0 1 * * * /usr/bin/backup\n")
    assert text.count(" BEGIN") == 1 and shlex.quote(str(ws)) in text
    st = json.loads(lk("schedule", "status", "--workspace", str(ws), "--json", env=env).stdout)
    assert st["installed"] and st["kind"] == "cron" and st["next_run"]
    r = lk("schedule", "uninstall", "--workspace", str(ws), env=env)
    assert r.returncode == 0, r.stderr
    assert store.read_text(encoding="utf-8") == "MAILTO=me\n0 1 * * * /usr/bin/backup\n"
    assert not json.loads(lk("schedule", "status", "--workspace", str(ws), "--json", env=env).stdout)["installed"]


def test_installed_unit_command_runs_the_nightly_on_that_workspace(
    demo: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    ws, env = demo
    decoy = tmp_path / "decoy"  # what $LOREKEEPER_WORKSPACE and the default would be: never touched
    r = lk("schedule", "install", "--workspace", str(ws), "--kind", "systemd", "--at", "02:45", env=env)
    assert r.returncode == 0, r.stderr
    service = next((Path(env["XDG_CONFIG_HOME"]) / "systemd" / "user").glob("lorekeeper-nightly-*.service"))
    exec_start = next(ln for ln in service.read_text(encoding="utf-8").splitlines() if ln.startswith("ExecStart="))
    argv = shlex.split(exec_start.removeprefix("ExecStart="))
    assert argv[0] == sys.executable and argv[argv.index("--workspace") + 1] == str(ws)
    # by hand, as a scheduler would: from /, with a bare PATH that has no lorekeeper on it
    # XDG_STATE_HOME too: the audit head's witness lives there, and a run that cannot find it
    # sees a broken chain and fails closed (issue 24); a real scheduler has the user's own
    keep = ("HOME", "PYTHONPATH", "PYTHON_KEYRING_BACKEND", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME")
    bare = {k: env[k] for k in keep}
    bare.update(PATH="/usr/bin:/bin", LOREKEEPER_WORKSPACE=str(decoy))
    before = _nightly_runs(ws)
    proc = subprocess.run(argv, capture_output=True, text=True, env=bare, cwd="/", timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert _nightly_runs(ws) == before + 1
    assert not decoy.exists()
    last = json.loads((ws / "schedule" / "last-run.json").read_text(encoding="utf-8"))
    assert last["ok"] and last["exit_code"] == 0
    steps = {s["name"]: s["status"] for s in last["steps"]}
    # `purge --retention` exists now (issue 13); the daily backup comes last (issue 23)
    assert steps == {"nightly": "ok", "retention-purge": "ok", "backup": "ok"}
    assert len(list((ws / "backups").glob("lorekeeper-*-daily"))) == 1
    st = lk("schedule", "status", "--workspace", str(ws), env=env)
    assert st.returncode == 0 and "02:45 UTC" in st.stdout and "ok (exit 0)" in st.stdout


def test_scheduled_run_on_a_missing_workspace_fails_loudly(tmp_path: Path) -> None:
    env = isolated_env(tmp_path)
    r = lk("--workspace", str(tmp_path / "gone"), "schedule", "run", env=env)
    assert r.returncode == 4 and "cannot open its workspace" in r.stderr
    assert not (tmp_path / "gone").exists()


def _nightly_runs(ws: Path) -> int:
    from lorekeeper.workspace import Workspace

    with Workspace.open(ws) as w:
        return len([r for r in w.improve.runs(limit=1000) if r.get("kind") == "nightly"])


def test_units_and_help_say_the_retention_purge_runs_now(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 31 item 12: the purge exists, so nothing the operator reads says it is still to come."""
    from click.testing import CliRunner

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    stale = re.compile(r"once this version has|when available|when this version has|until then|once the .purge", re.I)
    texts = [
        text for kind in ("systemd", "launchd", "cron") for text in sched.render(kind, tmp_path, "03:00").files.values()
    ]
    texts += [sched.render("cron", tmp_path, "03:00").cron_block or ""]
    runner = CliRunner()
    texts += [runner.invoke(sched.schedule, ["--help"]).output, runner.invoke(sched.schedule, ["run", "--help"]).output]
    texts += [sched.__doc__ or "", Path(sched.__file__).read_text(encoding="utf-8")]
    for text in texts:
        assert not stale.search(text), stale.search(text)
    service = next(t for t in sched.render("systemd", tmp_path, "03:00").files.values() if "[Service]" in t)
    assert "retention purge" in service
    # what `systemctl --user status` shows: the whole run, not the first step alone
    (description,) = [line for line in service.splitlines() if line.startswith("Description=")]
    assert "nightly analysis, retention purge, backup" in description, description
