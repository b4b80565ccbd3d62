"""Issue 25 d2: named operators. Two workspaces on one PostgreSQL store, one Vault KV path, each
operator with a token of their own (display names alice and bob): every signed decision records who
made it (the token's Vault identity), the histories show it in --json and filter on it (--by)."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import pytest
from audit_helpers import BaoServer, run_cli, set_audit_config
from test_store_trust import count, new_ws

from lorekeeper.improve.proposals import NewProposal
from lorekeeper.workspace import Workspace

pytestmark = pytest.mark.postgres


def token_for(bao: BaoServer, name: str) -> str:
    """A child token of the dev server's root token, with a display name (Vault makes it "token-NAME")."""
    out = bao.client().auth.token.create(display_name=name, policies=["root"], ttl="1h")
    return str(out["auth"]["client_token"])


def lk(root: Path, token: str, *args: str) -> dict | list:
    out = run_cli("--workspace", str(root), *args, "--json", env={**os.environ, "VAULT_TOKEN": token})
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_each_decision_names_its_operator_and_the_histories_filter_on_it(
    tmp_path: Path, pg_url: str, bao: BaoServer, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.delenv("VAULT_ADDR", raising=False)
    alice, bob = token_for(bao, "alice"), token_for(bao, "bob")
    path = f"lk-team/{uuid.uuid4().hex}"
    a, b = new_ws(tmp_path / "a", pg_url), new_ws(tmp_path / "b", pg_url)
    for root in (a, b):
        set_audit_config(root, provider="vault", addr=bao.addr, path=path)
    monkeypatch.setenv("VAULT_TOKEN", alice)
    assert run_cli("--workspace", str(a), "audit", "init-key").returncode == 0
    src = tmp_path / "skills-in"
    for name in ("deploy-notes", "rollback-notes"):
        (src / name).mkdir(parents=True)
        (src / name / "SKILL.md").write_text(f"---\nname: {name}\ndescription: Notes.\n---\n\nBody.\n", "utf-8")
    with Workspace.open(a) as ws:  # alice imports the skill and queues two proposals
        ws.skills.import_path(src, message="team skills")
        ids = []
        for i, name in enumerate(("deploy-notes", "rollback-notes")):
            sk = ws.skills.get(name)
            info = ws.improve.proposals.create(
                NewProposal(
                    skill=name, scope="", project="", source="template", reason=f"change {i}",
                    summary="one line", metrics={}, failing_rules=[], learnings=[], base_version=sk.version,
                    current_content=sk.content, proposed_content=sk.content + f"\nLine {i}.\n",
                )
            )  # fmt: skip
            assert info is not None
            ids.append(info.id)

    lk(b, bob, "proposals", "approve", str(ids[0]), "--reason", "looks right")
    lk(a, alice, "proposals", "reject", str(ids[1]), "--reason", "not needed")
    lk(a, alice, "learn", "add", "Deploys wait for the canary", "--scope", "global")
    lk(b, bob, "learn", "add", "Rollbacks are one command", "--scope", "global")

    # proposals: who decided, in --json, and --by
    rows = lk(a, alice, "proposals", "list", "--status", "all")
    assert {p["id"]: p["decided_by"] for p in rows} == {ids[0]: "token-bob", ids[1]: "token-alice"}
    assert [p["id"] for p in lk(a, alice, "proposals", "list", "--status", "all", "--by", "token-bob")] == [ids[0]]
    assert count(pg_url, f"SELECT count(*) FROM proposals WHERE decided_by = 'token-bob' AND id = {ids[0]}") == 1
    # audit events: every event carries its operator in its signed data; both logs verify
    events = lk(b, bob, "audit", "events")["events"]
    mine = [e for e in events if e["by"] == "token-bob"]
    assert {e["type"] for e in mine} >= {"proposal_approved", "learning_added"}, {e["type"] for e in mine}
    assert all(e["status"] == "valid" for e in events)
    only = lk(b, bob, "audit", "events", "--by", "TOKEN-BOB")["events"]
    assert only and all(e["by"] == "token-bob" for e in only)
    alice_events = lk(a, alice, "audit", "events", "--by", "token-alice")["events"]
    assert {"proposal_rejected", "learning_added"} <= {e["type"] for e in alice_events}
    # purge runs: who ran the purge
    out = run_cli(
        "--workspace", str(b), "clarify", "PD-9", "--domain", "ops", "--project", "shop", "--yes",
        env={**os.environ, "VAULT_TOKEN": bob}, input="Deploys stall\nGreen in 5 min\nNo new tool\nSafety\n",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    lk(b, bob, "purge", "--story", "PD-9", "--force")
    runs = lk(a, alice, "purge", "runs")["runs"]
    assert [r["by"] for r in runs] == ["token-bob"]
    assert lk(a, alice, "purge", "runs", "--by", "token-alice")["runs"] == []
    for root, tok in ((a, alice), (b, bob)):
        out = run_cli("--workspace", str(root), "audit", "verify", env={**os.environ, "VAULT_TOKEN": tok})
        assert out.returncode == 0, out.stderr
