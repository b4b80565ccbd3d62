"""The built wheel carries the resources, the starter skills, the demo data and the migrations,
and nothing outside lorekeeper/ui imports Qt."""

from __future__ import annotations

import ast
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "desktop" / "lorekeeper"


@pytest.mark.slow
def test_wheel_contains_resources_skills_and_migrations(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    wheel = next(tmp_path.glob("lorekeeper-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "lorekeeper/_data/resources/default_config.toml" in names
    skills = {n.split("/")[3] for n in names if n.startswith("lorekeeper/_data/skills/") and n.endswith("/SKILL.md")}
    assert len(skills) >= 8
    for s in skills:
        assert f"lorekeeper/_data/skills/{s}/{s}.evals.json" in names
    assert any(n.startswith("lorekeeper/_data/demo/") for n in names)
    assert "lorekeeper/store/migrations/env.py" in names
    assert "lorekeeper/store/migrations/script.py.mako" in names
    assert "lorekeeper/store/migrations/versions/0001_initial.py" in names
    # what `schedule install` and `desktop install` render and copy
    for t in ("lorekeeper-nightly.service.in", "lorekeeper-nightly.timer.in", "com.lorekeeper.nightly.plist.in"):
        assert f"lorekeeper/_data/packaging/scheduler/{t}" in names
    assert "lorekeeper/_data/packaging/scheduler/lorekeeper-nightly.cron.in" in names
    assert "lorekeeper/_data/packaging/lorekeeper.desktop" in names
    assert "lorekeeper/_data/resources/io.github.lorekeeper.lorekeeper.metainfo.xml" in names
    assert "lorekeeper/_data/resources/icons/hicolor/512x512/apps/lorekeeper.png" in names
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "lorekeeper = lorekeeper.entry:main" in zipfile.ZipFile(wheel).read(entry).decode()


QT_MODULES = ("PySide6", "pyqtgraph", "PyQt5", "PyQt6", "shiboken6")


def test_nothing_outside_ui_imports_qt() -> None:
    offenders = []
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG)
        if rel.parts[0] == "ui":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            mods = []
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                mods = [node.module]
            for m in mods:
                if m.split(".")[0] in QT_MODULES:
                    offenders.append(f"{rel}:{node.lineno} imports {m}")
    assert offenders == []


def test_core_import_does_not_load_qt() -> None:
    code = (
        "import sys, lorekeeper.workspace, lorekeeper.cli; "
        "bad=[m for m in sys.modules if m.split('.')[0] in ('PySide6','pyqtgraph')]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
