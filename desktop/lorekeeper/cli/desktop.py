"""`lorekeeper desktop install|uninstall [--print]`: the launcher entry, AppStream metainfo and icons
in the user's data folders ($XDG_DATA_HOME, default ~/.local/share), so the app shows up in the
desktop's menu. The entry's Exec names this lorekeeper by its absolute path (as the scheduler does).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import click

from lorekeeper.cli.common import emit_json, handle_errors, json_option
from lorekeeper.cli.schedule import own_command
from lorekeeper.fsutil import atomic_write_bytes, atomic_write_text
from lorekeeper.paths import packaging_dir, resources_dir

APP_ID = "io.github.lorekeeper.lorekeeper"
DESKTOP_FILE = "lorekeeper.desktop"
METAINFO = f"{APP_ID}.metainfo.xml"


def data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def _exec_quote(arg: str) -> str:
    """One Exec argument (Desktop Entry spec: quote reserved characters, double the % of field codes)."""
    arg = arg.replace("%", "%%")
    if any(c in arg for c in " \t\n\"'\\><~|&;$*?#()`"):
        return '"' + arg.replace("\\", "\\\\").replace('"', '\\"').replace("`", "\\`").replace("$", "\\$") + '"'
    return arg


def render_desktop_entry(exe: list[str] | None = None) -> str:
    """packaging/lorekeeper.desktop with Exec= naming this executable (absolute)."""
    command = " ".join(_exec_quote(a) for a in [*(exe or own_command()), "gui"])
    lines = []
    for line in (packaging_dir() / DESKTOP_FILE).read_text(encoding="utf-8").splitlines():
        lines.append(f"Exec={command}" if line.startswith("Exec=") else line)
    return "\n".join(lines) + "\n"


def plan(root: Path | None = None) -> dict[Path, Path | str]:
    """Destination -> source file (copied) or text (written)."""
    root = root or data_home()
    icons = resources_dir() / "icons"
    out: dict[Path, Path | str] = {
        root / "applications" / DESKTOP_FILE: render_desktop_entry(),
        root / "metainfo" / METAINFO: resources_dir() / METAINFO,
        root / "icons" / "hicolor" / "scalable" / "apps" / "lorekeeper.svg": icons / "lorekeeper.svg",
    }
    for png in sorted((icons / "hicolor").glob("*/apps/lorekeeper.png")):
        out[root / "icons" / "hicolor" / png.parent.parent.name / "apps" / "lorekeeper.png"] = png
    return out


def _refresh_caches(root: Path) -> list[str]:
    notes = []
    for argv in (
        ["update-desktop-database", str(root / "applications")],
        ["gtk-update-icon-cache", "--ignore-theme-index", str(root / "icons" / "hicolor")],
    ):
        if shutil.which(argv[0]):
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
            notes.append(f"{argv[0]}: {'ok' if proc.returncode == 0 else proc.stderr.strip()}")
    return notes


@click.group("desktop")
def desktop() -> None:
    """Desktop integration: the menu entry, metainfo and icons in the user's data folders."""


@desktop.command("install")
@click.option("--print", "dry_run", is_flag=True, help="List what would be written; write nothing.")
@json_option
@handle_errors
def install_cmd(dry_run: bool, as_json: bool) -> None:
    """Install the launcher entry (Exec = this lorekeeper), the metainfo and the icons."""
    files = plan()
    if not dry_run:
        for dest, src in files.items():
            if isinstance(src, Path):
                atomic_write_bytes(dest, src.read_bytes())
            else:
                atomic_write_text(dest, src)
    notes = [] if dry_run else _refresh_caches(data_home())
    if as_json:
        emit_json({"files": [str(p) for p in files], "dry_run": dry_run, "notes": notes})
        return
    for dest in files:
        click.echo(("would write " if dry_run else "wrote ") + str(dest))
    for note in notes:
        click.echo(note)


@desktop.command("uninstall")
@json_option
@handle_errors
def uninstall_cmd(as_json: bool) -> None:
    """Remove what `desktop install` wrote."""
    removed = []
    for dest in plan():
        if dest.exists():
            dest.unlink()
            removed.append(str(dest))
    if as_json:
        emit_json({"removed": removed})
    else:
        click.echo("\n".join(f"removed {p}" for p in removed) or "nothing was installed")
