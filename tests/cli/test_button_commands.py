"""A CLI for every button (issue 17 part 6): thumbs, Fix It, skill edits, rule edits, fork deletion.

Each command goes through the same service calls as the GUI's button, so it writes the same
quality events, learnings, versions and signed audit events; `audit verify` passes afterwards.
Exit codes: 0, 2 invalid input, 3 not found, 4 audit key unavailable (nothing written).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import func, select

from helpers.cli import run_lorekeeper
from lorekeeper.store.models import AnswerRecord, QualityEvent

ANSWER_TEXT = "Looks good. Publish it with git push --force so the PR updates."


def cli(ws, *args: str, input: str | None = None):
    return run_lorekeeper("--workspace", str(ws.root), *args, input=input)


def events(ws, kind: str) -> list[dict]:
    r = cli(ws, "audit", "events", "--json")
    assert r.returncode == 0, r.stderr
    return [e for e in json.loads(r.stdout)["events"] if e["type"] == kind]


def verified(ws) -> bool:
    r = cli(ws, "audit", "verify", "--json")
    return r.returncode == 0 and json.loads(r.stdout)["ok"]


def an_answer(ws, project: str | None = "citadel-v2") -> str:
    """An answer as the Playground checks it (no model needed): recorded under its interaction id."""
    prompt = ws.reflect.prepare("please review this pull request before I push", project)
    answer = ws.reflect.check(prompt, ANSWER_TEXT, model="fake:model")
    assert answer.skills
    return answer.interaction


def feedback_rows(ws, interaction: str) -> list[QualityEvent]:
    with ws.store.session() as s:
        return list(
            s.scalars(
                select(QualityEvent).where(QualityEvent.interaction == interaction, QualityEvent.kind == "feedback")
            )
        )


def _refuse_key(monkeypatch) -> None:
    from lorekeeper.audit import service
    from lorekeeper.audit.errors import AuditKeyUnavailableError

    def refuse(self):
        raise AuditKeyUnavailableError("no audit key in the OS keyring", cause="missing", provider="keyring")

    monkeypatch.setattr(service.AuditService, "require_key", refuse)


@pytest.fixture
def no_key(monkeypatch):
    _refuse_key(monkeypatch)


# --------------------------------------------------------------------------- answers


def test_an_answer_is_kept_by_its_id_and_llm_ask_prints_it(workspace, anthropic_server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-env")
    assert (
        cli(workspace, "llm", "configure", "--provider", "anthropic", "--base-url", anthropic_server.url).returncode
        == 0
    )
    anthropic_server.behaviour.reply = lambda body: ANSWER_TEXT
    r = cli(workspace, "llm", "ask", "review this pull request", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    stored = workspace.reflect.answers.get(data["interaction"])
    assert stored.text == ANSWER_TEXT and stored.message == "review this pull request"
    assert [n for n, _ in stored.skills] == data["skills"] and stored.model.startswith("anthropic")
    r = cli(workspace, "llm", "ask", "review this pull request", "--no-stream")
    assert r.returncode == 0 and r.stdout.strip().startswith("Looks good")
    assert "answer: " in r.stderr and "lorekeeper feedback up|down" in r.stderr
    second = r.stderr.split("answer: ")[1].split()[0]
    assert workspace.reflect.answers.get("last").interaction == second != data["interaction"]


def test_feedback_up_writes_the_playgrounds_quality_events_and_a_signed_event(workspace):
    ia = an_answer(workspace)
    r = cli(workspace, "feedback", "up", ia[:10], "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["interaction"] == ia and out["positive"] is True and out["project"] == "citadel-v2"
    rows = feedback_rows(workspace, ia)
    assert sorted(x.skill for x in rows) == sorted(out["skills"]) and all(x.positive for x in rows)
    assert {x.project for x in rows} == {"citadel-v2"}
    (ev,) = events(workspace, "answer_feedback")
    assert ev["status"] == "valid" and ev["data"]["interaction"] == ia and ev["data"]["positive"] is True
    assert ev["data"]["skills"] == out["skills"] and ev["data"]["by"]
    assert verified(workspace)
    m = {x["skill"]: x for x in json.loads(cli(workspace, "quality", "--project", "citadel-v2", "--json").stdout)}
    assert all(m[s]["feedback_positive"] == 1 for s in out["skills"])


def test_feedback_down_adds_the_learning_and_negative_feedback(workspace):
    ia = an_answer(workspace)
    r = cli(workspace, "feedback", "down", "last", "--reason", "Never suggest a force push", "--project", "citadel-v2")
    assert r.returncode == 0, r.stderr
    assert "negative feedback recorded" in r.stdout and "Never suggest a force push" in r.stdout
    rows = feedback_rows(workspace, ia)
    assert rows and not any(x.positive for x in rows) and rows[0].detail == "Never suggest a force push"
    (learning,) = workspace.learnings.list(project="citadel-v2", source="negative")
    assert learning.rule == "Never suggest a force push"
    assert [e["data"]["rule"] for e in events(workspace, "learning_added")] == ["Never suggest a force push"]
    (ev,) = events(workspace, "answer_feedback")
    assert ev["data"]["positive"] is False and ev["data"]["learning"] == learning.id
    assert "Never suggest a force push" in workspace.prompts.build("review", "citadel-v2").text
    assert verified(workspace)


def test_feedback_without_a_reason_uses_the_playgrounds_default_rule(workspace):
    an_answer(workspace, project=None)
    r = cli(workspace, "feedback", "down", "last", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["learning"]["rule"].startswith("Negative feedback on: Looks good.")


def test_feedback_exit_codes(workspace, monkeypatch):
    _refuse_key(monkeypatch)
    assert cli(workspace, "feedback", "up", "last").returncode == 3  # nothing recorded yet
    # issue 18: the answer's quality events are signed rows, so the answer is recorded with the key
    monkeypatch.undo()
    ia = an_answer(workspace)
    _refuse_key(monkeypatch)
    r = cli(workspace, "feedback", "up", "0123456789abcdef")
    assert r.returncode == 3 and "ERR_NOT_FOUND" in r.stderr
    r = cli(workspace, "feedback", "up", "ab")
    assert r.returncode == 2 and "ERR_INVALID_INPUT" in r.stderr
    r = cli(workspace, "feedback", "up", ia, "--project", "storefront")
    assert r.returncode == 3 and "storefront" in r.stderr
    r = cli(workspace, "feedback", "up", ia, "--json")  # the key is unavailable: nothing written
    assert r.returncode == 4 and json.loads(r.stdout)["error"]["code"] == "ERR_AUDIT_KEY_UNAVAILABLE"
    assert feedback_rows(workspace, ia) == []


def test_an_ambiguous_prefix_is_refused(workspace):
    with workspace.store.write() as s:
        for suffix in ("1", "2"):
            s.add(AnswerRecord(interaction="abcdef000" + suffix, message="m", answer="a"))
    r = cli(workspace, "feedback", "up", "abcdef")
    assert r.returncode == 2 and "ambiguous" in r.stderr
    assert cli(workspace, "feedback", "up", "abcdef0001").returncode == 0


def test_fixit_records_the_learning_and_says_it_did_not_reask_without_a_model(workspace):
    ia = an_answer(workspace)
    r = cli(workspace, "fixit", ia, "--rule", "Publish with --force-with-lease, never --force", "--reask", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["reasked"] is False and "no model" in out["note"]
    assert out["learning"]["source"] == "fixit" and out["learning"]["project"] == "citadel-v2"
    (ev,) = events(workspace, "answer_fixed")
    assert ev["data"]["interaction"] == ia and ev["data"]["learning"] == out["learning"]["id"]
    assert events(workspace, "learning_added")[0]["data"]["source"] == "fixit"
    assert verified(workspace)
    r = cli(workspace, "fixit", ia, "--rule", "   ")
    assert r.returncode == 2 and "ERR_INVALID_INPUT" in r.stderr
    assert cli(workspace, "fixit", "fedcba987654", "--rule", "x").returncode == 3


def test_fixit_without_rule_saves_the_seeds_default_rule(workspace):
    """Seed 000/001 pillar 3: Fix It adds `rule: "Fix requested for: <last response>"`; `--rule`
    replaces it (issue 25 d5). A long answer is cut to an excerpt, as the Playground's dialog does."""
    ia = an_answer(workspace)
    r = cli(workspace, "fixit", ia, "--json")
    assert r.returncode == 0, r.stderr
    learning = json.loads(r.stdout)["learning"]
    assert learning["rule"] == f"Fix requested for: {ANSWER_TEXT}" and learning["source"] == "fixit"
    assert workspace.learnings.block("citadel-v2").text.endswith(f"- Fix requested for: {ANSWER_TEXT}")
    long = workspace.reflect.check(workspace.reflect.prepare("review", "citadel-v2"), "word " * 300, model="fake:m")
    rule = json.loads(cli(workspace, "fixit", long.interaction, "--json").stdout)["learning"]["rule"]
    assert rule.startswith("Fix requested for: word word") and rule.endswith("\u2026") and len(rule) < 240


def test_fixit_reask_sends_the_fix_request_with_the_new_learning(workspace, anthropic_server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-env")
    cli(workspace, "llm", "configure", "--provider", "anthropic", "--base-url", anthropic_server.url)
    ia = an_answer(workspace)
    anthropic_server.behaviour.reply = lambda body: "Publish with git push --force-with-lease."
    r = cli(workspace, "fixit", ia, "--rule", "Publish with --force-with-lease", "--reask", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["reasked"] and out["answer"]["answer"] == "Publish with git push --force-with-lease."
    prompt = anthropic_server.prompts()[-1]
    assert "- Publish with --force-with-lease" in prompt and ANSWER_TEXT in prompt
    assert workspace.reflect.answers.get(out["answer"]["interaction"]).project == "citadel-v2"


# --------------------------------------------------------------------------- skills


EXTRA = "\nCite file:line for every finding; the CLI edited this.\n"


def new_content(ws) -> str:
    return ws.skills.get("code-review").content.rstrip("\n") + "\n" + EXTRA


def test_skills_edit_from_a_file_is_a_new_signed_version_with_the_rules_kept(workspace, tmp_path: Path):
    before = workspace.skills.get("code-review")
    content = new_content(workspace)
    f = tmp_path / "SKILL.md"
    f.write_text(content, encoding="utf-8")
    r = cli(workspace, "skills", "edit", "code-review", "--file", str(f), "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["version"] == before.version + 1 and out["changed"]
    now = workspace.skills.get("code-review")
    assert now.content == content and now.evals == before.evals
    (ev,) = events(workspace, "skill_saved")
    assert ev["data"]["skill"] == "code-review" and ev["data"]["version"] == now.version
    assert ev["data"]["previous"] == before.version and ev["data"]["by"]
    assert (workspace.root / "skills" / "code-review" / "SKILL.md").read_text(encoding="utf-8") == content
    r = cli(workspace, "skills", "edit", "code-review", "--file", "-", input=content)  # stdin, unchanged
    assert r.returncode == 0 and "no change" in r.stdout
    assert len(events(workspace, "skill_saved")) == 1
    assert verified(workspace)


def test_skills_edit_validates_first_and_maps_exit_codes(workspace, tmp_path: Path):
    before = workspace.skills.get("code-review").version
    bad = tmp_path / "bad.md"
    bad.write_text(new_content(workspace).replace("name: code-review", "name: other-skill"), encoding="utf-8")
    r = cli(workspace, "skills", "edit", "code-review", "--file", str(bad))
    assert r.returncode == 2 and "ERR_INVALID_SPEC" in r.stderr
    bad.write_bytes(b"\xff\xfe not utf-8")
    assert cli(workspace, "skills", "edit", "code-review", "--file", str(bad)).returncode == 2
    r = cli(workspace, "skills", "edit", "code-review")  # not interactive, no --file
    assert r.returncode == 2 and "--file" in r.stderr
    assert cli(workspace, "skills", "edit", "no-such-skill", "--file", str(bad)).returncode == 3
    r = cli(workspace, "skills", "edit", "code-review", "--project", "nowhere", "--file", str(bad))
    assert r.returncode == 3 and "skills fork" in r.stderr
    assert workspace.skills.get("code-review").version == before and events(workspace, "skill_saved") == []


def test_skills_edit_without_the_key_writes_nothing(workspace, tmp_path: Path, no_key):
    f = tmp_path / "SKILL.md"
    f.write_text(new_content(workspace), encoding="utf-8")
    before = workspace.skills.get("code-review").version
    r = cli(workspace, "skills", "edit", "code-review", "--file", str(f))
    assert r.returncode == 4 and "ERR_AUDIT_KEY_UNAVAILABLE" in r.stderr
    assert workspace.skills.get("code-review").version == before


def test_skills_edit_opens_the_editor_when_interactive(workspace, monkeypatch):
    from lorekeeper.cli import skills as skills_cli

    seen: list[str] = []

    def fake_edit(text, **kwargs):
        seen.append(text)
        return "edited"

    monkeypatch.setattr(skills_cli.click, "edit", fake_edit)
    monkeypatch.setattr(skills_cli.sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(skills_cli.sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setenv("EDITOR", "true")
    content = skills_cli._read_content("code-review", None, "current text")
    assert content == "edited" and seen == ["current text"]


def rules_of(ws, name: str, project: str | None = None) -> dict[str, dict]:
    out = {}
    for r in ws.skills.get(name, project).rules().rules:
        d = r.to_dict()
        if isinstance(d.get("value"), tuple):
            d["value"] = list(d["value"])
        out[r.id] = d
    return out


def test_rules_add_edit_delete_are_signed_versions(workspace):
    v0 = workspace.skills.get("code-review").version
    r = cli(
        workspace, "skills", "rules", "add", "code-review",
        "--id", "cli-1", "--type", "string_contains", "--value", "file:line", "--name", "Cites file:line", "--json",
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["version"] == v0 + 1
    assert rules_of(workspace, "code-review")["cli-1"] == {
        "id": "cli-1", "name": "Cites file:line", "type": "string_contains", "severity": "warning", "value": "file:line",
    }  # fmt: skip
    rule = {"id": "cli-2", "type": "regex_not_match", "pattern": "--force(?!-with-lease)", "severity": "info"}
    assert cli(workspace, "skills", "rules", "add", "code-review", "--rule", json.dumps(rule)).returncode == 0
    r = cli(
        workspace,
        "skills",
        "rules",
        "edit",
        "code-review",
        "cli-1",
        "--severity",
        "info",
        "--value",
        "a",
        "--value",
        "b",
        "--type",
        "contains_any",
    )
    assert r.returncode == 0, r.stderr
    assert rules_of(workspace, "code-review")["cli-1"]["value"] == ["a", "b"]
    assert rules_of(workspace, "code-review")["cli-1"]["severity"] == "info"
    assert cli(workspace, "skills", "rules", "delete", "code-review", "cli-2").returncode == 0
    assert "cli-2" not in rules_of(workspace, "code-review")
    assert workspace.skills.get("code-review").version == v0 + 4
    kinds = [e["data"]["message"] for e in events(workspace, "skill_rules_saved")]
    assert kinds == ["added rule cli-1", "added rule cli-2", "edited rule cli-1", "deleted rule cli-2"]
    assert verified(workspace)


def test_rules_commands_refuse_bad_rules_with_the_eval_engines_codes(workspace, no_key):
    v0 = workspace.skills.get("code-review").version
    r = cli(workspace, "skills", "rules", "add", "code-review", "--id", "x", "--type", "string_contains", "--value", "")
    assert r.returncode == 2 and "ERR_INVALID_SPEC" in r.stderr
    r = cli(workspace, "skills", "rules", "add", "code-review", "--id", "x", "--type", "no_such_type", "--value", "a")
    assert r.returncode == 2 and "ERR_INVALID_SPEC" in r.stderr
    r = cli(workspace, "skills", "rules", "add", "code-review", "--rule", "{not json")
    assert r.returncode == 2 and "ERR_INVALID_INPUT" in r.stderr
    existing = next(iter(rules_of(workspace, "code-review")))
    r = cli(
        workspace,
        "skills",
        "rules",
        "add",
        "code-review",
        "--id",
        existing,
        "--type",
        "string_contains",
        "--value",
        "q",
    )
    assert r.returncode == 2 and "rules edit" in r.stderr
    assert cli(workspace, "skills", "rules", "edit", "code-review", "nope", "--severity", "info").returncode == 3
    assert cli(workspace, "skills", "rules", "delete", "code-review", "nope").returncode == 3
    assert cli(workspace, "skills", "rules", "delete", "nope-skill", "x").returncode == 3
    r = cli(workspace, "skills", "rules", "delete", "code-review", existing)  # valid, but no key
    assert r.returncode == 4 and "ERR_AUDIT_KEY_UNAVAILABLE" in r.stderr
    assert workspace.skills.get("code-review").version == v0


def test_unfork_deletes_the_fork_with_a_signed_event(demo_workspace):
    ws = demo_workspace
    forks = [i for i in ws.skills.list() if i.project]
    assert forks
    fork = forks[0]
    r = cli(ws, "skills", "unfork", fork.name, "--project", fork.project, "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["deleted_versions"] >= 1 and out["now_serves"]["project"] in (None, "")
    assert not ws.skills.exists(fork.name, fork.project)
    assert ws.skills.get(fork.name, fork.project).project == ""  # the project sees the global skill
    assert not (ws.root / "skills" / "_forks" / fork.project / fork.name).exists()
    (ev,) = events(ws, "skill_fork_deleted")
    assert ev["data"]["skill"] == fork.name and ev["data"]["project"] == fork.project and ev["data"]["by"]
    assert verified(ws)
    r = cli(ws, "skills", "unfork", fork.name, "--project", fork.project)
    assert r.returncode == 3 and "ERR_NOT_FOUND" in r.stderr


def test_unfork_without_the_key_keeps_the_fork(demo_workspace, no_key):
    fork = next(i for i in demo_workspace.skills.list() if i.project)
    r = run_lorekeeper(
        "--workspace", str(demo_workspace.root), "skills", "unfork", fork.name, "--project", fork.project
    )
    assert r.returncode == 4 and demo_workspace.skills.exists(fork.name, fork.project)


def test_gui_paths_sign_fork_deletion_import_and_save(workspace, tmp_path: Path):
    """The service layer signs them, so the Skills panel's buttons get the events too."""
    lib = workspace.skills
    lib.fork("code-review", "proj-a")
    lib.delete_fork("code-review", "proj-a")
    src = tmp_path / "imp" / "cli-imported"
    src.mkdir(parents=True)
    (src / "SKILL.md").write_text(
        "---\nname: cli-imported\ndescription: An imported skill for the audit test.\n---\n\nBody\n", encoding="utf-8"
    )
    lib.import_path(src.parent)
    lib.import_path(src.parent)  # unchanged: nothing to record
    types = [e.type for e in workspace.audit.log.events()]
    assert types == ["skill_forked", "skill_fork_deleted", "skills_imported"]
    imported = next(e for e in workspace.audit.log.events() if e.type == "skills_imported")
    assert imported.data["created"] == ["cli-imported"] and imported.data["by"]
    assert workspace.audit.verify().ok
    assert lib.take_audit_warnings() == []


def test_skills_import_without_the_key_exits_4_and_writes_nothing(workspace, tmp_path: Path, no_key):
    # issue 24: skill versions are signed rows; without the key the import fails closed
    src = tmp_path / "imp" / "cli-imported"
    src.mkdir(parents=True)
    (src / "SKILL.md").write_text(
        "---\nname: cli-imported\ndescription: An imported skill for the audit test.\n---\n\nBody\n", encoding="utf-8"
    )
    r = cli(workspace, "skills", "import", str(src.parent))
    assert r.returncode == 4 and "ERR_AUDIT_KEY_UNAVAILABLE" in r.stderr
    assert not workspace.skills.exists("cli-imported")
    assert not (workspace.root / "skills" / "cli-imported").exists()


# --------------------------------------------------------------------------- quality and the demo


def test_quality_names_the_project(demo_workspace):
    r = cli(demo_workspace, "quality", "--project", "citadel-v2", "--all-time")
    assert r.returncode == 0, r.stderr
    rows = [line for line in r.stdout.splitlines()[1:] if line.strip()]
    assert rows and all(line.split()[1] == "citadel-v2" for line in rows)
    data = json.loads(cli(demo_workspace, "quality", "--project", "citadel-v2", "--all-time", "--json").stdout)
    assert data and {m["project"] for m in data} == {"citadel-v2"}


def test_demo_learnings_reach_their_projects_prompts(demo_workspace):
    r = cli(demo_workspace, "prompt", "review this odoo controller", "--project", "citadel-v2")
    assert r.returncode == 0, r.stderr
    assert "- Never suggest csrf=False on Odoo controllers" in r.stdout
    assert "- Always use t-call for translations in Odoo QWeb" in r.stdout
    assert "- Cite file:line for every code review finding" in r.stdout  # a global rule
    assert "Storefront prices are integer cents" not in r.stdout
    r = cli(demo_workspace, "prompt", "review this component", "--project", "storefront")
    assert "- Storefront prices are integer cents" in r.stdout and "Odoo" not in r.stdout.split("\n\n")[1]
    with demo_workspace.store.session() as s:
        assert s.scalar(select(func.count()).select_from(AnswerRecord)) == 0


def test_rules_add_and_edit_warn_about_nested_quantifiers(workspace):
    """The same load-time warning as `skills validate` and `eval --json`: saved, but the operator is told."""
    args = ("skills", "rules", "add", "code-review", "--id", "slow", "--type", "regex_match", "--pattern", "(.*a){20}")
    r = cli(workspace, *args)
    assert r.returncode == 0, r.stderr
    assert "warning: rule slow: pattern '(.*a){20}' nests quantifiers" in r.stderr
    r = cli(workspace, "skills", "rules", "edit", "code-review", "slow", "--pattern", r"^(a+)+$", "--json")
    assert r.returncode == 0, r.stderr
    assert "nests quantifiers" in json.loads(r.stdout)["warnings"][0]
    r = cli(workspace, "skills", "rules", "edit", "code-review", "slow", "--pattern", "^a+$", "--json")
    assert "warnings" not in json.loads(r.stdout) and "nests" not in r.stderr
