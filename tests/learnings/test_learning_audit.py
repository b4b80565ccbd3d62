"""Learning events are signed into the audit chain; without a key the change is kept and reported."""

from __future__ import annotations

from click.testing import CliRunner

from lorekeeper.cli import main


def run(ws, *args):
    return CliRunner().invoke(main, [*args, "--workspace", str(ws.root)], catch_exceptions=False)


def test_learning_changes_are_signed_chained_events(workspace):
    a = workspace.learnings.add("Avoid sudo in deployment scripts", project="citadel-v2", story="ST-42")
    workspace.learnings.archive([a.id])
    workspace.learnings.import_text("# L\n\n- [2026-01-01T00:00:00Z] [fixit] Imported rule\n", "p")
    events = [e for e in workspace.audit.log.events() if e.type.startswith("learning")]
    assert [e.type for e in events] == ["learning_added", "learning_archived", "learnings_imported"]
    assert all(e.status == "valid" for e in events)
    assert events[0].data["rule"] == "Avoid sudo in deployment scripts" and events[0].story == "ST-42"
    assert events[1].data["ids"] == [a.id] and events[1].data["by"]
    assert workspace.audit.verify().ok
    assert workspace.learnings.take_audit_warnings() == []


def test_without_the_audit_key_learning_commands_fail_closed_and_write_nothing(workspace, monkeypatch, tmp_path):
    # issue 18 reverses the earlier fail-open behaviour on purpose: an unsigned learning would go
    # into every prompt, so with no key the command exits 4 and writes nothing
    from lorekeeper.audit.errors import AuditKeyUnavailableError

    kept = workspace.learnings.add("Signed while the key was there")
    before = workspace.store.revision()

    def no_key(self):
        raise AuditKeyUnavailableError("no audit key in the OS keyring", cause="missing", provider="keyring")

    from lorekeeper.audit import service

    monkeypatch.setattr(service.AuditService, "require_key", no_key)
    md = tmp_path / "in.md"
    md.write_text("# L\n\n- [2026-01-01T00:00:00Z] [fixit] Imported rule\n", encoding="utf-8")
    for args in (
        ["learn", "add", "Never unsigned"],
        ["learn", "edit", str(kept.id), "--rule", "Edited unsigned"],
        ["learn", "archive", str(kept.id)],
        ["learn", "import", str(md)],
    ):
        r = CliRunner().invoke(main, [*args, "--workspace", str(workspace.root)])
        assert r.exit_code == 4, (args, r.output)
        assert "ERR_AUDIT_KEY_UNAVAILABLE" in r.output + r.stderr
    monkeypatch.undo()
    assert [x.rule for x in workspace.learnings.list(status="all")] == ["Signed while the key was there"]
    assert workspace.store.revision() == before  # not one transaction committed
