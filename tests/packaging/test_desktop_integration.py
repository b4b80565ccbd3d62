"""The launcher entry, the AppStream metainfo and the icons pass the freedesktop validators, and
`lorekeeper desktop install` puts them (Exec = this lorekeeper, absolute) in $XDG_DATA_HOME."""

from __future__ import annotations

import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from packaging_helpers import ROOT, isolated_env, lk

DESKTOP = ROOT / "packaging" / "lorekeeper.desktop"
METAINFO = ROOT / "resources" / "io.github.lorekeeper.lorekeeper.metainfo.xml"
SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)


def _validate_desktop(path: Path) -> None:
    if shutil.which("desktop-file-validate") is None:
        pytest.skip("desktop-file-validate is not installed (Debian: apt-get install desktop-file-utils)")
    out = subprocess.run(["desktop-file-validate", str(path)], capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 0 and not (out.stdout + out.stderr).strip(), out.stdout + out.stderr  # no hints either


def test_desktop_entry_validates_without_hints() -> None:
    _validate_desktop(DESKTOP)


def test_metainfo_validates() -> None:
    if shutil.which("appstreamcli") is None:
        pytest.skip("appstreamcli is not installed (Debian: apt-get install appstream)")
    out = subprocess.run(
        ["appstreamcli", "validate", "--no-net", str(METAINFO)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    # errors and warnings fail; appstream 0.16 reports <developer> (the 1.0 form) as an info only
    assert not [ln for ln in out.stdout.splitlines() if ln.startswith(("E:", "W:"))], out.stdout


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    return struct.unpack(">II", data[16:24])


def test_icons_in_every_freedesktop_size() -> None:
    assert (ROOT / "resources" / "icons" / "lorekeeper.svg").is_file()
    for n in SIZES:
        assert _png_size(ROOT / "resources" / "icons" / "hicolor" / f"{n}x{n}" / "apps" / "lorekeeper.png") == (n, n)


def test_desktop_install_puts_entry_metainfo_and_icons_in_xdg_data_home(tmp_path: Path) -> None:
    env = isolated_env(tmp_path)
    r = lk("desktop", "install", env=env)
    assert r.returncode == 0, r.stderr
    data = Path(env["XDG_DATA_HOME"])
    entry = data / "applications" / "lorekeeper.desktop"
    exec_line = next(ln for ln in entry.read_text(encoding="utf-8").splitlines() if ln.startswith("Exec="))
    import sys

    assert exec_line == f"Exec={sys.executable} -m lorekeeper gui"
    assert (data / "metainfo" / METAINFO.name).read_bytes() == METAINFO.read_bytes()
    assert (data / "icons" / "hicolor" / "scalable" / "apps" / "lorekeeper.svg").is_file()
    for n in SIZES:
        assert _png_size(data / "icons" / "hicolor" / f"{n}x{n}" / "apps" / "lorekeeper.png") == (n, n)
    if shutil.which("desktop-file-validate"):
        _validate_desktop(entry)
    r = lk("desktop", "uninstall", env=env)
    assert r.returncode == 0 and not entry.exists()
