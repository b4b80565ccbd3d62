"""`lorekeeper schedule install|uninstall|status|run`: the daily scheduled run of one workspace.

The units (systemd user timer + service, launchd agent, crontab block) are rendered from the
templates in packaging/scheduler with the ABSOLUTE path of the running executable
(`python -m lorekeeper` of this interpreter, or the bundle's executable when frozen) and the
absolute workspace, so the scheduler's PATH and working directory do not matter.

Every unit calls `lorekeeper --workspace WS schedule run`, which runs the scheduled jobs in order:
the nightly improvement analysis, then the retention purge (`purge --retention`: the stories
whose retention date has passed are erased), then the daily backup (`backups/lorekeeper-<time>-daily`,
`[backup] keep` = 7 newest kept). The units name only `schedule run`, so a step added in a later
version runs without reinstalling them. The outcome of each run is written to
WS/schedule/last-run.json, which `schedule status` shows.

`--at HH:MM` is UTC (systemd says so in OnCalendar; launchd and cron read local time, so the
hour is converted with the offset in force at install time and the file says so).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from string import Template
from typing import Any
from xml.sax.saxutils import escape as xml_escape

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option, workspace_option
from lorekeeper.errors import InvalidInputError, LorekeeperError, WorkspaceError
from lorekeeper.fsutil import atomic_write_text
from lorekeeper.locations import resolve_workspace_dir
from lorekeeper.paths import packaging_dir

KINDS = ("systemd", "launchd", "cron")
STATE_DIR = "schedule"  # under the workspace: last-run.json, installed.json, scheduled.log
LAST_RUN = "last-run.json"
INSTALLED = "installed.json"
LOG_NAME = "scheduled.log"
_AT = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")


# ---------------------------------------------------------------------------------------- inputs
def own_command() -> list[str]:
    """The absolute command line of this lorekeeper: the bundle's executable, or `python -m lorekeeper`.

    The interpreter path is made absolute but NOT resolved: a virtualenv's python is a symlink to
    the base interpreter, and resolving it would lose the venv (and its packages).
    """
    if getattr(sys, "frozen", False):
        return [os.path.abspath(sys.executable)]
    return [os.path.abspath(sys.executable), "-m", "lorekeeper"]


def parse_at(text: str) -> tuple[int, int]:
    m = _AT.match(text.strip())
    if not m:
        raise InvalidInputError(f"--at must be HH:MM (24-hour, UTC), e.g. 03:00; got {text!r}")
    return int(m.group(1)), int(m.group(2))


def default_kind() -> str:
    """launchd on macOS; systemd where a systemd user manager can run; else cron (else systemd files)."""
    if sys.platform == "darwin":
        return "launchd"
    if Path("/run/systemd/system").is_dir() and shutil.which("systemctl"):
        return "systemd"
    if shutil.which("crontab"):
        return "cron"
    return "systemd"


def workspace_id(workspace: Path) -> str:
    """A short stable name for one workspace's units (several workspaces may be scheduled)."""
    return hashlib.sha256(str(workspace).encode("utf-8")).hexdigest()[:8]


def local_time_of(hour: int, minute: int, now: datetime | None = None) -> tuple[int, int]:
    """HH:MM UTC as local time today (the offset in force now)."""
    now = now or datetime.now(UTC)
    utc = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    local = utc.astimezone()
    return local.hour, local.minute


def next_run_utc(hour: int, minute: int, now: datetime | None = None) -> datetime:
    now = now or datetime.now(UTC)
    run = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    return run if run > now else run + timedelta(days=1)


def config_home() -> Path:
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")


# ------------------------------------------------------------------------------------- rendering
def _systemd_quote(arg: str) -> str:
    """One ExecStart argument: double-quoted, with systemd's specifiers (%) and variables ($) escaped."""
    return '"' + arg.replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%").replace("$", "$$") + '"'


def _cron_escape(text: str) -> str:
    """cron turns an unescaped % of the command into a newline."""
    return text.replace("%", "\\%")


@dataclass
class Plan:
    """What `schedule install` writes: files (path -> text) and, for cron, the crontab block."""

    kind: str
    workspace: Path
    at: str
    command: list[str]
    unit: str
    files: dict[Path, str] = field(default_factory=dict)
    cron_block: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "workspace": str(self.workspace),
            "at_utc": self.at,
            "unit": self.unit,
            "command": self.command,
            "files": {str(p): text for p, text in self.files.items()},
            "crontab": self.cron_block or None,
        }


def scheduled_command(workspace: Path, exe: Sequence[str] | None = None) -> list[str]:
    return [*(exe or own_command()), "--workspace", str(workspace), "schedule", "run"]


def render(kind: str, workspace: Path, at: str, *, exe: Sequence[str] | None = None, home: Path | None = None) -> Plan:
    """Render the units of `kind` for `workspace` at `at` (HH:MM UTC); nothing is written."""
    if kind not in KINDS:
        raise InvalidInputError(f"--kind must be one of {', '.join(KINDS)}; got {kind!r}")
    hour, minute = parse_at(at)
    at = f"{hour:02d}:{minute:02d}"
    workspace = Path(os.path.abspath(workspace))
    command = scheduled_command(workspace, exe)
    wid = workspace_id(workspace)
    unit = f"lorekeeper-nightly-{wid}"
    templates = packaging_dir() / "scheduler"
    lhour, lminute = local_time_of(hour, minute)
    log = workspace / STATE_DIR / LOG_NAME
    values = {
        "workspace": str(workspace),
        "workspace_name": workspace.name,
        "workspace_xml": xml_escape(str(workspace)),
        "at": at,
        "unit": unit,
        "local_at": f"{lhour:02d}:{lminute:02d}",
        "local_hour": str(lhour),
        "local_minute": str(lminute),
    }
    plan = Plan(kind, workspace, at, command, unit)
    home = home or Path.home()

    def fill(name: str, **extra: str) -> str:
        return Template((templates / name).read_text(encoding="utf-8")).substitute(values, **extra)

    if kind == "systemd":
        units = config_home() / "systemd" / "user"
        exec_start = " ".join(_systemd_quote(a) for a in command)
        plan.files[units / f"{unit}.service"] = fill("lorekeeper-nightly.service.in", exec_start=exec_start)
        plan.files[units / f"{unit}.timer"] = fill("lorekeeper-nightly.timer.in")
    elif kind == "launchd":
        label = f"com.lorekeeper.nightly.{wid}"
        plan.unit = label
        args = "\n".join(f"    <string>{xml_escape(a)}</string>" for a in command)
        plist = fill(
            "com.lorekeeper.nightly.plist.in", label=label, program_arguments=args, log_xml=xml_escape(str(log))
        )
        plan.files[home / "Library" / "LaunchAgents" / f"{label}.plist"] = plist
    else:
        plan.cron_block = fill(
            "lorekeeper-nightly.cron.in",
            marker=f"lorekeeper-schedule {wid}",
            command=_cron_escape(shlex.join(command)),
            log_sh=_cron_escape(shlex.quote(str(log))),
        )
    return plan


# ------------------------------------------------------------------------------------ installing
def _run(argv: list[str], *, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=60, check=False)


def read_crontab() -> str:
    if not shutil.which("crontab"):
        raise LorekeeperError(
            "no `crontab` program on PATH: install cron, or choose --kind systemd", code="ERR_WORKSPACE"
        )
    proc = _run(["crontab", "-l"])
    if proc.returncode != 0:
        if "no crontab" in (proc.stderr + proc.stdout).lower():
            return ""
        raise LorekeeperError(f"`crontab -l` failed: {proc.stderr.strip()}", code="ERR_WORKSPACE")
    return proc.stdout


def strip_block(crontab: str, wid: str) -> str:
    """The crontab without this workspace's block (between its BEGIN and END markers)."""
    out: list[str] = []
    inside = False
    for line in crontab.splitlines():
        if line.startswith(f"# lorekeeper-schedule {wid} BEGIN"):
            inside = True
            continue
        if inside and line.startswith(f"# lorekeeper-schedule {wid} END"):
            inside = False
            continue
        if not inside:
            out.append(line)
    return "\n".join(out).strip("\n")


def write_crontab(text: str) -> None:
    proc = _run(["crontab", "-"], stdin=text)
    if proc.returncode != 0:
        raise LorekeeperError(f"`crontab -` failed: {proc.stderr.strip()}", code="ERR_WORKSPACE")


def _systemctl(*args: str) -> tuple[bool, str]:
    if not shutil.which("systemctl"):
        return False, "systemctl is not on PATH"
    proc = _run(["systemctl", "--user", *args])
    return proc.returncode == 0, (proc.stderr or proc.stdout).strip()


def install(plan: Plan) -> list[str]:
    """Write the plan; returns what was done or what the operator still has to run."""
    notes: list[str] = []
    for path, text in plan.files.items():
        atomic_write_text(path, text)
        notes.append(f"wrote {path}")
    if plan.kind == "systemd":
        ok, why = _systemctl("daemon-reload")
        if ok:
            ok, why = _systemctl("enable", "--now", f"{plan.unit}.timer")
        if ok:
            notes.append(f"enabled {plan.unit}.timer")
        else:
            notes.append(
                f"not enabled ({why or 'no user systemd'}); run: systemctl --user daemon-reload && "
                f"systemctl --user enable --now {plan.unit}.timer"
            )
    elif plan.kind == "launchd":
        path = next(iter(plan.files))
        if shutil.which("launchctl"):
            domain = f"gui/{os.getuid()}"
            _run(["launchctl", "bootout", domain, str(path)])
            proc = _run(["launchctl", "bootstrap", domain, str(path)])
            notes.append("loaded with launchctl" if proc.returncode == 0 else f"launchctl: {proc.stderr.strip()}")
        else:
            notes.append(f"load it with: launchctl bootstrap gui/$(id -u) {path}")
    else:
        current = strip_block(read_crontab(), workspace_id(plan.workspace))
        write_crontab((current + "\n" if current else "") + plan.cron_block)
        notes.append("crontab updated")
    state = plan.to_dict()
    state["installed_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    atomic_write_text(plan.workspace / STATE_DIR / INSTALLED, json.dumps(state, indent=2) + "\n")
    return notes


def uninstall(workspace: Path, kind: str) -> list[str]:
    plan = render(kind, workspace, "03:00")
    notes: list[str] = []
    if kind == "systemd":
        ok, _ = _systemctl("disable", "--now", f"{plan.unit}.timer")
        if ok:
            notes.append(f"disabled {plan.unit}.timer")
    elif kind == "launchd" and shutil.which("launchctl"):
        for path in plan.files:
            _run(["launchctl", "bootout", f"gui/{os.getuid()}", str(path)])
    for path in plan.files:
        if path.exists():
            path.unlink()
            notes.append(f"removed {path}")
    if kind == "systemd":
        _systemctl("daemon-reload")
    if kind == "cron":
        current = read_crontab()
        stripped = strip_block(current, workspace_id(plan.workspace))
        if stripped != current.strip("\n"):
            write_crontab(stripped + "\n" if stripped else "")
            notes.append("crontab block removed")
    installed = plan.workspace / STATE_DIR / INSTALLED
    if installed.exists():
        installed.unlink()
    return notes or ["nothing was installed"]


# ---------------------------------------------------------------------------------------- status
def _systemd_next(unit: str) -> str | None:
    ok, _ = _systemctl("is-enabled", f"{unit}.timer")
    if not ok:
        return None
    proc = _run(["systemctl", "--user", "show", f"{unit}.timer", "-p", "NextElapseUSecRealtime", "--value"])
    value = proc.stdout.strip()
    return value or None


def status(workspace: Path) -> dict[str, Any]:
    workspace = Path(os.path.abspath(workspace))
    state_dir = workspace / STATE_DIR
    out: dict[str, Any] = {"workspace": str(workspace), "installed": False, "next_run": None, "last_run": None}
    installed_path = state_dir / INSTALLED
    if installed_path.is_file():
        info = json.loads(installed_path.read_text(encoding="utf-8"))
        kind = str(info.get("kind"))
        present = all(Path(p).is_file() for p in info.get("files") or {})
        if kind == "cron" and shutil.which("crontab"):
            try:
                present = f"lorekeeper-schedule {workspace_id(workspace)} BEGIN" in read_crontab()
            except LorekeeperError:
                present = False
        out.update(
            installed=present,
            kind=kind,
            at_utc=info.get("at_utc"),
            command=info.get("command"),
            unit=info.get("unit"),
            files=sorted(info.get("files") or {}),
        )
        if present:
            nxt = _systemd_next(str(info.get("unit"))) if kind == "systemd" else None
            if nxt:
                out["next_run"], out["next_run_source"] = nxt, "systemctl"
            else:
                hour, minute = parse_at(str(info.get("at_utc") or "03:00"))
                out["next_run"] = next_run_utc(hour, minute).isoformat(timespec="minutes")
                out["next_run_source"] = "computed"
    last = state_dir / LAST_RUN
    if last.is_file():
        out["last_run"] = json.loads(last.read_text(encoding="utf-8"))
    return out


def status_text(info: dict[str, Any]) -> str:
    lines = [f"workspace: {info['workspace']}"]
    if info["installed"]:
        lines.append(f"scheduled: {info['kind']} ({info['unit']}) every day at {info['at_utc']} UTC")
        lines.append(f"next run:  {info['next_run']} ({info['next_run_source']})")
        lines.append(f"command:   {shlex.join(info['command'])}")
    else:
        lines.append("scheduled: no (install with `lorekeeper schedule install`)")
    last = info["last_run"]
    if last:
        lines.append(f"last run:  {last['finished_at']} {'ok' if last['ok'] else 'FAILED'} (exit {last['exit_code']})")
        for step in last["steps"]:
            lines.append(f"  {step['name']}: {step['status']} {step.get('detail', '')}".rstrip())
    else:
        lines.append("last run:  never")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------ the run
def daily_backup(workspace: Path) -> dict[str, Any]:
    """The last step (after the retention purge, so today's copy holds nothing it erased): one
    backup a day under backups/, the `[backup] keep` newest daily ones kept (default 7)."""
    from lorekeeper.store.backup import DEFAULT_KEEP, BackupUnsupportedError
    from lorekeeper.workspace import Workspace

    try:
        with Workspace.open(workspace) as ws:
            keep = int(ws.config.get("backup.keep", DEFAULT_KEEP))
            out = ws.backups.daily(keep)
    except BackupUnsupportedError as exc:  # PostgreSQL: the server's own backups (pg_dump)
        return {"name": "backup", "status": "skipped", "detail": exc.message}
    except Exception as exc:  # noqa: BLE001 - recorded as the run's outcome
        code = exc.exit_code if isinstance(exc, LorekeeperError) else 1
        return {"name": "backup", "status": "failed", "detail": str(exc) or type(exc).__name__, "exit_code": code}
    detail = out["detail"] + (f"; pruned {len(out['pruned'])} older daily backup(s)" if out["pruned"] else "")
    step: dict[str, Any] = {"name": "backup", "status": out["status"], "detail": detail}
    step.update({k: out[k] for k in ("path", "keep", "pruned") if k in out})
    for k in ("bytes", "revision", "created_at"):
        if k in out:
            step[k] = out[k]
    return step


def run_scheduled(workspace: Path) -> dict[str, Any]:
    """The scheduled jobs on `workspace`, in order; the outcome is recorded in WS/schedule/last-run.json."""
    from lorekeeper.workspace import Workspace

    workspace = Path(os.path.abspath(workspace))
    started = datetime.now(UTC)
    t0 = time.monotonic()
    steps: list[dict[str, Any]] = []
    exit_code = 0
    try:
        ws = Workspace.open(workspace)  # never the empty default: a missing workspace is an error
    except LorekeeperError as exc:
        # nowhere to record the outcome when the workspace itself is missing: the scheduler's log has it
        raise WorkspaceError(f"the scheduled run cannot open its workspace: {exc.message}") from exc
    with ws:
        # fail closed (issue 24): without the key or with a broken chain nothing runs and nothing is
        # written, last-run.json included; the error (exit 4) reaches the scheduler's own log
        ws.audit.check_writable()
        try:
            summary = ws.improve.run_nightly(None)
            steps.append({"name": "nightly", "status": "ok", "detail": summary.text().splitlines()[0]})
        except Exception as exc:  # noqa: BLE001 - any failure is recorded as the run's outcome
            steps.append({"name": "nightly", "status": "failed", "detail": str(exc) or type(exc).__name__})
            exit_code = exc.exit_code if isinstance(exc, LorekeeperError) else 1
    proc = subprocess.run(
        [*own_command(), "--workspace", str(workspace), "purge", "--retention"],
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    ok = proc.returncode == 0
    detail = (proc.stdout if ok else proc.stderr).strip().splitlines()
    steps.append(
        {"name": "retention-purge", "status": "ok" if ok else "failed", "detail": detail[-1] if detail else ""}
    )
    exit_code = exit_code or proc.returncode
    backup_step = daily_backup(workspace)
    steps.append(backup_step)
    if backup_step["status"] == "failed":
        exit_code = exit_code or int(backup_step.pop("exit_code", 4))
    record = {
        "started_at": started.isoformat(timespec="seconds"),
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "seconds": round(time.monotonic() - t0, 2),
        "exit_code": exit_code,
        "ok": exit_code == 0,
        "command": [*own_command(), "--workspace", str(workspace), "schedule", "run"],
        "steps": steps,
    }
    atomic_write_text(workspace / STATE_DIR / LAST_RUN, json.dumps(record, indent=2) + "\n")
    return record


# ------------------------------------------------------------------------------------ commands
def _workspace(workspace_dir: Path | None) -> Path:
    ctx = click.get_current_context(silent=True)
    if workspace_dir is None and ctx is not None:
        workspace_dir = (ctx.find_root().obj or {}).get("workspace_dir")
    return Path(os.path.abspath(resolve_workspace_dir(workspace_dir)))


_kind = click.option("--kind", type=click.Choice(KINDS), default=None, help="Scheduler (default: this platform's).")


@click.group("schedule")
def schedule() -> None:
    """The daily scheduled run of a workspace (nightly analysis, retention purge, backup)."""


@schedule.command("install")
@click.option("--at", "at", default="03:00", show_default=True, help="Time of the daily run, HH:MM UTC.")
@_kind
@click.option("--dry-run", "--print", "dry_run", is_flag=True, help="Print the units and where they go; write nothing.")
@workspace_option
@json_option
@handle_errors
def install_cmd(at: str, kind: str | None, dry_run: bool, workspace_dir: Path | None, as_json: bool) -> None:
    """Write the units that run `schedule run` on the workspace every day, with absolute paths."""
    workspace = _workspace(workspace_dir)
    if not (workspace / "lorekeeper.toml").is_file():
        raise WorkspaceError(f"no workspace at {workspace}; create it with `lorekeeper init {workspace}` first")
    plan = render(kind or default_kind(), workspace, at)
    notes = [] if dry_run else install(plan)
    if as_json:
        emit_json({**plan.to_dict(), "dry_run": dry_run, "notes": notes})
        return
    if dry_run:
        for path, text in plan.files.items():
            click.echo(f"# {path}\n{text}")
        if plan.cron_block:
            click.echo(f"# crontab -l (added block)\n{plan.cron_block}")
        click.echo(f"(dry run, {plan.kind}: nothing written)")
        return
    click.echo("\n".join(notes))
    click.echo(f"runs every day at {plan.at} UTC: {shlex.join(plan.command)}")


@schedule.command("uninstall")
@_kind
@workspace_option
@json_option
@handle_errors
def uninstall_cmd(kind: str | None, workspace_dir: Path | None, as_json: bool) -> None:
    """Remove this workspace's units (the kind it was installed with, unless --kind)."""
    workspace = _workspace(workspace_dir)
    installed = workspace / STATE_DIR / INSTALLED
    if kind is None and installed.is_file():
        kind = str(json.loads(installed.read_text(encoding="utf-8")).get("kind"))
    notes = uninstall(workspace, kind or default_kind())
    if as_json:
        emit_json({"workspace": str(workspace), "notes": notes})
    else:
        click.echo("\n".join(notes))


@schedule.command("status")
@workspace_option
@json_option
@handle_errors
def status_cmd(workspace_dir: Path | None, as_json: bool) -> None:
    """Whether the workspace is scheduled, the next run and the last run's result."""
    info = status(_workspace(workspace_dir))
    if as_json:
        emit_json(info)
    else:
        click.echo(status_text(info))


@schedule.command("run")
@workspace_option
@json_option
@handle_errors
def run_cmd(workspace_dir: Path | None, as_json: bool) -> None:
    """What the units run: the nightly analysis, the retention purge, the daily backup (recorded)."""
    record = run_scheduled(_workspace(workspace_dir))
    if as_json:
        emit_json(record)
    else:
        for step in record["steps"]:
            click.echo(f"{step['name']}: {step['status']} {step.get('detail', '')}".rstrip())
    sys.exit(record["exit_code"])
