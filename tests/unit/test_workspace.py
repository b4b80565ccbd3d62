"""Workspaces: init (starter, demo), reopening, a PostgreSQL-backed workspace, eval history."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from lorekeeper.errors import WorkspaceError
from lorekeeper.store.models import utcnow
from lorekeeper.workspace import SUBDIRS, Workspace


def test_init_creates_layout_and_starter_library(tmp_path: Path) -> None:
    with Workspace.init(tmp_path / "ws") as ws:
        assert (ws.root / "lorekeeper.toml").is_file()
        assert all((ws.root / d).is_dir() for d in SUBDIRS)
        names = [i.name for i in ws.skills.list()]
        assert len(names) >= 8 and "git-manager" in names
        assert (ws.root / "skills" / "git-manager" / "SKILL.md").is_file()
        assert ws.config.get("store.url") == "sqlite:///lorekeeper.db"
    with pytest.raises(WorkspaceError, match="already a workspace"):
        Workspace.init(tmp_path / "ws")
    with pytest.raises(WorkspaceError, match="lorekeeper init"):
        Workspace.open(tmp_path / "elsewhere")


def test_demo_has_projects_forks_history_and_sources(demo_workspace: Workspace) -> None:
    ws = demo_workspace
    assert ws.skills.projects()
    forks = [i for i in ws.skills.list() if i.project]
    assert forks
    runs = ws.evals.history(limit=1000)
    assert len(runs) >= 10
    assert any(r.passed for r in runs) and any(not r.passed for r in runs)
    assert any(r.created_at < utcnow() - timedelta(days=1) for r in runs)
    assert any((ws.root / "sources").iterdir())


def test_workspace_on_postgresql(tmp_path: Path, pg_url: str) -> None:
    root = tmp_path / "pgws"
    root.mkdir()
    (root / "lorekeeper.toml").write_text(f'[store]\nurl = "{pg_url}"\n', encoding="utf-8")
    with Workspace.open(root) as ws:
        ws.audit.init_key(record=False)  # issue 24: skill versions are signed rows, written with the key
        ws.skills.import_path(Path(__file__).resolve().parents[2] / "skills")
        assert len(ws.skills.list()) >= 8
        report = ws.evals.run_skill("git push --force", "git-manager")
        assert not report.passed
        assert ws.evals.count(skill="git-manager") == 1
    assert not (root / "lorekeeper.db").exists()


def test_eval_history_filters(workspace: Workspace) -> None:
    ws = workspace
    ws.evals.run_skill("git push --force origin main", "git-manager", source="app")
    ws.evals.run_skill("All good, committed on a feature branch.", "git-manager", source="app")
    ws.evals.run_skill("A review.", "code-review", source="cli")
    assert ws.evals.count() == 3
    assert ws.evals.count(skill="git-manager") == 2
    assert ws.evals.count(skill="git-manager", passed=False) == 1
    assert [r.response for r in ws.evals.history(search="FORCE")] == ["git push --force origin main"]
    newest = ws.evals.history(limit=1)[0]
    assert newest.skill == "code-review" and newest.results
    assert ws.evals.history(limit=2, offset=2)[0].response.startswith("git push")


def test_router_cache_follows_library_changes(workspace: Workspace, tmp_path: Path) -> None:
    r1 = workspace.routers.get()
    assert workspace.routers.get() is r1
    d = tmp_path / "zebra-tool"
    d.mkdir()
    (d / "SKILL.md").write_text('---\nname: zebra-tool\ndescription: Z.\nmetadata:\n  triggers: "zebra"\n---\n# Z\n')
    workspace.skills.import_path(d)
    assert workspace.routers.get() is not r1
    assert workspace.routers.get().route("a zebra").skills[0].name == "zebra-tool"
