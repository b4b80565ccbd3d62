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


def test_without_the_audit_key_the_learning_is_kept_and_the_cli_says_it_is_unsigned(workspace, monkeypatch):
    from lorekeeper.audit.errors import AuditKeyUnavailableError

    def no_key(self):
        raise AuditKeyUnavailableError("no audit key in the OS keyring", cause="missing", provider="keyring")

    from lorekeeper.audit import service

    monkeypatch.setattr(service.AuditService, "require_key", no_key)
    r = CliRunner().invoke(main, ["learn", "add", "Kept even unsigned", "--workspace", str(workspace.root)])
    assert r.exit_code == 0
    assert "warning: learning_added was saved but not signed" in r.stderr
    assert "ERR_AUDIT_KEY_UNAVAILABLE" in r.stderr
    assert [x.rule for x in workspace.learnings.list()] == ["Kept even unsigned"]
