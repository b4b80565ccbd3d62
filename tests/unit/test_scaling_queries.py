"""Issue 26: the agent path at 10,000 skills. What grows with the library must not be a query per
skill: these count the SQL statements a command runs (no timing), at two library sizes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import event

from lorekeeper.workspace import Workspace


def _library(dest: Path, n: int) -> Path:
    for i in range(n):
        folder = dest / f"bulk-{i:04d}"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: bulk-{i:04d}\ndescription: Bulk skill {i}. Use when asked about widget {i}.\n"
            f'metadata:\n  triggers: "widget {i}, gadget"\n  keywords: "kw{i}"\n---\n\n# Bulk {i}\n',
            encoding="utf-8",
        )
        (folder / "notes.md").write_text(f"notes {i}\n", encoding="utf-8")
    return dest


@contextmanager
def _statements(ws: Workspace) -> Iterator[list[str]]:
    seen: list[str] = []

    def listener(_conn, _cursor, statement, *_a) -> None:  # type: ignore[no-untyped-def]
        seen.append(statement)

    event.listen(ws.store.engine, "before_cursor_execute", listener)
    try:
        yield seen
    finally:
        event.remove(ws.store.engine, "before_cursor_execute", listener)


def test_verified_listing_reads_the_ledger_once_not_per_skill(workspace: Workspace, tmp_path: Path) -> None:
    """The SKILLS_HINT of `prompt` and the hook lists the verified library: its statement count
    does not grow with the number of skills (it grew by three or more per skill)."""
    counts = []
    for n, batch in ((20, "a"), (60, "b")):
        workspace.skills.import_path(_library(tmp_path / batch, n), message=batch)
        with _statements(workspace) as seen:
            skills = workspace.skills.list(verified=True)
        assert {f"bulk-{i:04d}" for i in range(n)} <= {s.name for s in skills}
        counts.append(len(seen))
    assert counts[1] <= counts[0] + 2, counts
