"""The router is kept per process, not per `Workspace` (issue 26): the agent service opens the
workspace afresh for every call, and rebuilding the router costs about a second at 10,000 skills.
A change of the library (any process: the store's revision) still shows at the very next call."""

from __future__ import annotations

from pathlib import Path

from lorekeeper.skills.router import Router
from lorekeeper.workspace import Workspace

MESSAGE = "please frobnicate the zanzibar ledger"


def _skill(folder: Path) -> Path:
    d = folder / "zanzibar-ledger"
    d.mkdir(parents=True)
    (d / "SKILL.md").write_text(
        "---\nname: zanzibar-ledger\ndescription: Keep the Zanzibar ledger. Use when asked to frobnicate it.\n"
        'metadata:\n  triggers: "frobnicate, zanzibar ledger"\n  keywords: "zanzibar"\n---\n\n# Zanzibar\n\nDo it.\n',
        encoding="utf-8",
    )
    return folder


def _router(root: Path) -> Router:
    ws = Workspace.open(root)  # as the agent service does for each call
    try:
        return ws.routers.get()
    finally:
        ws.close()


def test_a_reopened_workspace_reuses_the_router_until_the_library_changes(workspace: Workspace, tmp_path) -> None:
    root = workspace.root
    first = _router(root)
    assert not first.route(MESSAGE).skills
    assert _router(root) is first  # another Workspace of the same store: no rebuild

    workspace.skills.import_path(_skill(tmp_path / "lib"))
    fresh = _router(root)
    assert fresh is not first
    assert [m.name for m in fresh.route(MESSAGE).skills] == ["zanzibar-ledger"]
    assert _router(root) is fresh
