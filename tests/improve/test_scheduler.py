"""The scheduler units in packaging/scheduler run `lorekeeper nightly` every day at 03:00 UTC."""

from __future__ import annotations

import configparser
import plistlib
import shutil
import subprocess
from pathlib import Path

import pytest

UNITS = Path(__file__).resolve().parents[2] / "packaging" / "scheduler"


def unit(name: str) -> configparser.ConfigParser:
    cp = configparser.ConfigParser(strict=False, interpolation=None)
    cp.optionxform = str  # type: ignore[assignment]
    cp.read_string((UNITS / name).read_text(encoding="utf-8"))
    return cp


def test_systemd_timer_and_service():
    timer = unit("lorekeeper-nightly.timer")
    assert timer["Timer"]["OnCalendar"] == "*-*-* 03:00:00 UTC"
    assert timer["Timer"]["Unit"] == "lorekeeper-nightly.service"
    assert timer["Install"]["WantedBy"] == "timers.target"
    service = unit("lorekeeper-nightly.service")
    assert service["Service"]["Type"] == "oneshot"
    assert service["Service"]["ExecStart"].split()[-2:] == ["lorekeeper", "nightly"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_systemd_understands_the_calendar():
    out = subprocess.run(
        ["systemd-analyze", "calendar", "*-*-* 03:00:00 UTC"], check=False, capture_output=True, text=True, timeout=30
    )
    assert out.returncode == 0 and "03:00:00 UTC" in out.stdout


def test_launchd_plist():
    data = plistlib.loads((UNITS / "com.lorekeeper.nightly.plist").read_bytes())
    assert data["Label"] == "com.lorekeeper.nightly"
    assert data["ProgramArguments"][-2:] == ["lorekeeper", "nightly"]
    assert data["StartCalendarInterval"] == {"Hour": 3, "Minute": 0}
    assert data["EnvironmentVariables"]["TZ"] == "UTC"


def test_cron_line():
    lines = [
        ln
        for ln in (UNITS / "lorekeeper-nightly.cron").read_text(encoding="utf-8").splitlines()
        if ln.strip() and not ln.startswith("#")
    ]
    assert lines[0] == "CRON_TZ=UTC"
    fields = lines[1].split(maxsplit=5)
    assert fields[:5] == ["0", "3", "*", "*", "*"]
    assert fields[5].startswith("lorekeeper nightly")
