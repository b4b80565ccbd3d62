"""Marketplaces: a local marketplace.json with two plugins, search, notes, install and fork."""

from __future__ import annotations

import json
import zipfile

from helpers.cli import run_lorekeeper


def _cli(ws, *args):
    r = run_lorekeeper(*args, "--workspace", str(ws.root), "--json")
    return r.returncode, (json.loads(r.stdout) if r.returncode == 0 and r.stdout.strip() else r.stderr)


def test_marketplace_file_lists_the_skills_of_its_plugins(workspace, market_dir) -> None:
    code, out = _cli(workspace, "market", "add", str(market_dir / ".claude-plugin" / "marketplace.json"))
    assert code == 0, out
    assert out["kind"] == "marketplace" and out["name"] == "team-market"
    assert sorted(s["name"] for s in out["skills"]) == ["outage-runbook", "pdf-forms", "spreadsheet-cleanup"]
    assert {s["plugin"] for s in out["skills"]} == {"docs-kit", "ops-kit"}
    assert any("far-away" in p and "remote" in p for p in out["problems"])
    code, out = _cli(workspace, "market", "list")
    assert [(s["name"], s["skills"]) for s in out["sources"]] == [("team-market", 3)]
    code, out = _cli(workspace, "market", "add", str(market_dir))
    assert code == 2 and "exists" in out  # same name twice


def test_search_by_keyword_and_compatibility_note(workspace, market_dir) -> None:
    workspace.market.add(str(market_dir))
    code, out = _cli(workspace, "market", "search", "fill the PDF form")
    assert code == 0
    assert out["results"][0]["name"] == "pdf-forms" and 0 < out["results"][0]["score"] < 1
    assert "outage-runbook" not in [r["name"] for r in out["results"]]
    code, out = _cli(workspace, "market", "search", "production outage")
    assert [r["name"] for r in out["results"]] == ["outage-runbook"]
    code, note = _cli(workspace, "market", "show", "pdf-forms")
    assert code == 0
    assert note["tools"] == ["Bash", "Read"] and note["scripts"] == ["scripts/fill_form.py"]
    assert "python scripts/fill_form.py input.pdf" in note["runs"]
    assert "scripts/check_fields.py" in note["note"]  # referenced but not shipped
    assert note["model"] is None
    # the starter library has an incident-runbook skill: the note names the overlap
    code, note = _cli(workspace, "market", "show", "team-market:outage-runbook")
    assert "incident-runbook" in [o["name"] for o in note["overlaps"]]
    assert "Overlaps with installed skills" in note["note"]


def test_install_globally_and_fork_into_a_project(workspace, market_dir) -> None:
    workspace.market.add(str(market_dir))
    code, out = _cli(workspace, "market", "install", "pdf-forms")
    assert code == 0 and out["created"] == ["pdf-forms"] and out["project"] is None
    assert workspace.skills.get("pdf-forms").content.startswith("---\nname: pdf-forms\n")
    code, out = _cli(workspace, "market", "install", "pdf-forms")
    assert code == 0 and out["result"] == "unchanged"  # the same skill again (issue 31); never replaced
    code, out = _cli(workspace, "market", "install", "outage-runbook", "--project", "shop")
    assert code == 0 and out["created"] == ["outage-runbook"]
    assert workspace.skills.exists("outage-runbook", "shop") and not workspace.skills.exists("outage-runbook")
    code, hits = _cli(workspace, "market", "search", "fill the PDF form")
    assert hits["results"][0]["installed"] is True
    # the installed skill now routes (it has no router words: via description)
    code, r = _cli(workspace, "route", "please fill this PDF form")
    assert r["skills"][0]["name"] == "pdf-forms" and r["skills"][0]["via"] == "description"


def test_folder_and_zip_sources_and_remove(workspace, market_dir, tmp_path) -> None:
    scan = workspace.market.add(str(market_dir / "plugins" / "docs-kit"), "docs")
    assert scan.source.kind == "folder" and [s.name for s in scan.skills] == ["pdf-forms", "spreadsheet-cleanup"]
    archive = tmp_path / "ops.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for p in (market_dir / "plugins" / "ops-kit").rglob("*"):
            if p.is_file():
                zf.write(p, p.relative_to(market_dir / "plugins"))
    scan = workspace.market.add(str(archive))
    assert scan.source.kind == "zip" and [s.name for s in scan.skills] == ["outage-runbook"]
    code, out = _cli(workspace, "market", "install", "ops:outage-runbook")
    assert code == 0 and out["created"] == ["outage-runbook"]
    code, out = _cli(workspace, "market", "remove", "docs")
    assert code == 0 and [s.source.name for s in workspace.market.scan_all()] == ["ops"]
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out = _cli(workspace, "market", "add", str(empty))
    assert code == 2 and "no skill found" in out


def test_note_with_the_configured_model(workspace, market_dir, anthropic_server, monkeypatch) -> None:
    from lorekeeper.llm.base import LLMSettings

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-env")
    workspace.llm.configure(
        LLMSettings(provider="anthropic", base_url=anthropic_server.url, model="claude-test", max_retries=0, timeout=10)
    )
    anthropic_server.behaviour.reply = lambda body: "Fits: the project has no PDF skill.\nVERDICT: install"
    workspace.market.add(str(market_dir))
    note = workspace.market.note("pdf-forms", None)
    assert note.model == "anthropic:claude-test" and note.model_note.endswith("VERDICT: install")
    asked = str(anthropic_server.requests[-1].body["messages"][-1]["content"])
    assert "Fill PDF forms" in asked and "code-review" in asked  # the skill and the installed skills


def test_install_never_offers_what_it_refuses_and_names_the_source_not_a_temp_folder(workspace, market_dir) -> None:
    """Issue 31 items 5 and 6: a skill the import would refuse is not offered (the listing says why,
    naming the source and the path inside it); an identical install is "unchanged", exit 0."""
    bad = market_dir / "plugins" / "docs-kit" / "skills" / "bad-rules"
    bad.mkdir(parents=True)
    (bad / "SKILL.md").write_text("---\nname: bad-rules\ndescription: Broken rules. Use when never.\n---\nBody\n")
    rules = {
        "version": 1,
        "skill": "bad-rules",
        "rules": [{"id": "x1", "type": "nope", "value": "a", "severity": "warning"}],
    }
    (bad / "bad-rules.evals.json").write_text(json.dumps(rules))
    warned = market_dir / "plugins" / "docs-kit" / "skills" / "warned"
    warned.mkdir()
    (warned / "SKILL.md").write_text(
        "---\nname: warned\ndescription: Has a Claude Code field. Use when.\nmodel: opus\n---\nB\n"
    )
    code, out = _cli(workspace, "market", "add", str(market_dir))
    assert code == 0, out
    assert "bad-rules" not in [s["name"] for s in out["skills"]]
    shown = "team-market:plugins/docs-kit/skills/bad-rules/bad-rules.evals.json"
    assert any(p.startswith(shown) and "rule x1" in p for p in out["problems"]), out["problems"]
    code, hits = _cli(workspace, "market", "search", "")
    assert "bad-rules" not in [h["name"] for h in hits["results"]]
    r = run_lorekeeper("market", "install", "bad-rules", "--workspace", str(workspace.root), "--json")
    assert r.returncode == 2 and shown in json.loads(r.stdout)["error"]["message"]
    r = run_lorekeeper("market", "install", "warned", "--workspace", str(workspace.root), "--json")
    assert r.returncode == 0, r.stderr
    assert "team-market:plugins/docs-kit/skills/warned/SKILL.md" in json.dumps(json.loads(r.stdout)["warnings"])
    assert "lk-market-" not in r.stdout + r.stderr
    # the same skill again: unchanged, exit 0, nothing written; another content of that name: refused
    version = workspace.skills.get("warned").version
    code, out = _cli(workspace, "market", "install", "warned")
    assert code == 0 and out["result"] == "unchanged" and out["unchanged"] == ["warned"] and out["created"] == []
    assert workspace.skills.get("warned").version == version
    (warned / "SKILL.md").write_text("---\nname: warned\ndescription: Another text. Use when.\n---\nB\n")
    code, out = _cli(workspace, "market", "install", "warned")
    assert code == 2 and "other content" in out and "lk-market-" not in out


def test_a_skill_named_unlike_its_folder_is_refused_as_skills_import_refuses_it(workspace, market_dir) -> None:
    """`market add` offered a skill whose `name:` differs from its folder, which `skills import`
    refuses: both now refuse it with the same reason (the listing's `problems` say it)."""
    folder = market_dir / "plugins" / "docs-kit" / "skills" / "pdf-forms"
    md = folder / "SKILL.md"
    md.write_text(md.read_text(encoding="utf-8").replace("name: pdf-forms", "name: pdf-filler", 1), encoding="utf-8")
    reason = "'name' 'pdf-filler' must match its folder name 'pdf-forms'"
    r = run_lorekeeper("skills", "import", str(folder), "--workspace", str(workspace.root), "--json")
    assert r.returncode == 2 and reason in r.stdout + r.stderr, (r.stdout[-400:], r.stderr[-400:])
    code, out = _cli(workspace, "market", "add", str(market_dir))
    assert code == 0, out
    assert sorted(s["name"] for s in out["skills"]) == ["outage-runbook", "spreadsheet-cleanup"]
    assert any(reason in p for p in out["problems"]), out["problems"]
