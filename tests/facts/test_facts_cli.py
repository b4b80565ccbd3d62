"""The facts CLI contracts of DESIGN.md, through the command's entry point on a template workspace."""

from __future__ import annotations

from pathlib import Path

from facts_helpers import GUIDE, lk, words, write_docs

from lorekeeper.workspace import Workspace

FACT_KEYS = {
    "id",
    "project",
    "type",
    "statement",
    "detail",
    "scope",
    "tags",
    "confidence",
    "status",
    "provenance",
    "corroboration",
}
QUOTE = "Never modify a migration script already merged on main."


def add(root: Path, doc: Path, statement: str, *extra: str, type_: str = "constraint", quote: str = QUOTE):
    return lk(
        root,
        "facts",
        "add",
        "--project",
        "nord",
        "--type",
        type_,
        "--statement",
        statement,
        "--document",
        str(doc),
        "--quote",
        quote,
        *extra,
    )


def test_add_prints_the_fact_shape_and_removes_double_star(workspace: Workspace, tmp_path: Path) -> None:
    docs = write_docs(tmp_path)
    code, fact, err = add(
        workspace.root,
        docs / "guide.md",
        "Never edit a Flyway migration that is already merged on main.",
        "--scope",
        "**",
        "--scope",
        "db/migration/**",
        "--tag",
        "Flyway",
        "--confidence",
        "0.95",
        "--detail",
        "Create a new V<n>__name.sql instead.",
    )
    assert code == 0, err
    assert set(fact) >= FACT_KEYS
    assert fact["id"].startswith("nord:constraint:") and len(fact["id"].rsplit(":", 1)[1]) == 8
    assert fact["scope"] == ["db/migration/**"]
    assert fact["tags"] == ["flyway"]
    assert fact["status"] == "candidate" and fact["confidence"] == 0.95 and fact["corroboration"] == 1
    (prov,) = fact["provenance"]
    assert prov["quote"] == QUOTE and prov["origin"] == "guide.md"
    assert prov["document_id"].startswith("nord:file:") and len(prov["document_id"].rsplit(":", 1)[1]) == 10

    code, only, _ = add(workspace.root, docs / "guide.md", "Write handler errors as problem+json.", "--scope", "**",
                        type_="convention", quote="Every handler under internal/api returns problem+json errors.")  # fmt: skip
    assert code == 0 and only["scope"] == []  # a universal scope is an absence of scope

    code, listed, _ = lk(workspace.root, "facts", "list", "--project", "nord")
    assert code == 0 and [f["id"] for f in listed["facts"]] == [fact["id"], only["id"]]
    code, shown, _ = lk(workspace.root, "facts", "show", fact["id"])
    assert shown["statement"] == fact["statement"]


def test_a_quote_not_in_the_document_is_refused(workspace: Workspace, tmp_path: Path) -> None:
    docs = write_docs(tmp_path)
    for quote in ("Never modify a migration script that was merged.", "never modify a migration script", ""):
        code, out, _ = add(workspace.root, docs / "guide.md", "Never edit merged migrations.", quote=quote)
        assert code == 2
        assert out["error"]["code"] == "ERR_INVALID_SPEC"
    code, listed, _ = lk(workspace.root, "facts", "list", "--all")
    assert listed == {"facts": []}  # nothing was stored
    code, out, _ = add(workspace.root, docs / "guide.md", "Never edit merged migrations.", type_="opinion")
    assert code == 2


def test_a_document_over_the_size_cap_is_refused_naming_the_limit(workspace: Workspace, tmp_path: Path) -> None:
    """Issue 31 item 7: a 1.1 MiB document names the 1 MiB limit, not "could not be read"."""
    big = tmp_path / "big.md"
    quote = "Always pin the base image digest."
    big.write_text(quote + "\n" + "filler line for size\n" * 60_000, encoding="utf-8")
    code, out, _ = add(workspace.root, big, "Pin base images.", quote=quote)
    assert code == 2 and out["error"]["code"] == "ERR_INVALID_SPEC"
    assert "1 MiB limit" in out["error"]["message"] and "big.md" in out["error"]["message"]


def test_lexical_consolidation_062_merges_061_does_not(workspace: Workspace, tmp_path: Path) -> None:
    first = {"a.md": QUOTE, "b.md": QUOTE + "\n", "c.md": "Also: " + QUOTE}
    docs = write_docs(tmp_path, first)
    shared, only_a, only_b = words("w", 31), words("a", 10), words("b", 9)  # 31/50 = 0.62
    older = " ".join(shared + only_a)
    code, a, _ = add(workspace.root, docs / "a.md", older)
    code, b, _ = add(workspace.root, docs / "b.md", " ".join(shared + only_b))
    assert code == 0
    assert b["id"] == a["id"] and b["statement"] == older  # the older survives with its id and statement
    assert [p["origin"] for p in b["provenance"]] == ["a.md", "b.md"] and b["corroboration"] == 2
    # 61/100: stays a fact of its own
    s61 = words("v", 61)
    code, c, _ = add(workspace.root, docs / "a.md", " ".join(s61 + words("x", 20)), type_="pitfall")
    code, d, _ = add(workspace.root, docs / "c.md", " ".join(s61 + words("y", 19)), type_="pitfall")
    assert d["id"] != c["id"] and d["corroboration"] == 1
    # the same words in another type never merge
    code, e, _ = add(workspace.root, docs / "c.md", older, type_="convention")
    assert e["id"] != a["id"]
    code, listed, _ = lk(workspace.root, "facts", "list", "--project", "nord")
    assert len(listed["facts"]) == 4
    code, everything, _ = lk(workspace.root, "facts", "list", "--project", "nord", "--all")
    merged = [f for f in everything["facts"] if f["merged_into"]]
    assert [f["merged_into"] for f in merged] == [a["id"]]  # the newer one stays as history


def test_pack_order_bonus_budget_and_rejected_never_packed(workspace: Workspace, tmp_path: Path) -> None:
    docs = write_docs(tmp_path, {"a.md": GUIDE, "b.md": GUIDE})
    facts = workspace.facts
    ids = {}
    for key, type_, conf in [
        ("glossary", "glossary", 1.0),  # 0.35
        ("constraint", "constraint", 0.5),  # 0.50
        ("runbook", "runbook", 0.9),  # 0.63
        ("stack", "stack", 0.6),  # 0.51, + 0.1 corroborated below = 0.61
        ("pitfall", "pitfall", 0.9),  # 0.81: rejected below
    ]:
        f = facts.add("nord", type_, f"Rule about {key} number one here.", str(docs / "a.md"), QUOTE, confidence=conf)
        ids[key] = f.fact.id
    f = facts.add("nord", "stack", "Rule about stack number one here.", str(docs / "b.md"), QUOTE, confidence=0.3).fact
    assert f.id == ids["stack"] and f.corroboration == 2
    code, out, _ = lk(workspace.root, "facts", "reject", ids["pitfall"], "--reason", "wrong")
    assert code == 0 and out["status"] == "rejected"

    code, pack, _ = lk(workspace.root, "facts", "pack", "--project", "nord", "--format", "json")
    assert code == 0
    assert [f["id"] for f in pack["facts"]] == [ids["runbook"], ids["stack"], ids["constraint"], ids["glossary"]]
    assert [f["score"] for f in pack["facts"]] == [0.63, 0.61, 0.5, 0.35]
    assert ids["pitfall"] not in pack["markdown"]

    code, small, _ = lk(workspace.root, "facts", "pack", "--project", "nord", "--json", "--budget", "60")
    assert 0 < len(small["facts"]) < 4 and small["tokens"] <= 60
    assert [f["id"] for f in small["facts"]] == [f["id"] for f in pack["facts"]][: len(small["facts"])]
    assert facts.pack("nord", 0).facts == []

    assert facts.pack("nord", approved_only=True).facts == []
    facts.approve(ids["glossary"])
    assert [f.id for f in facts.pack("nord", approved_only=True).facts] == [ids["glossary"]]

    # include_candidates = false for the project ([facts.projects.nord] in lorekeeper.toml)
    cfg = workspace.root / "lorekeeper.toml"
    cfg.write_text(cfg.read_text() + "\n[facts.projects.nord]\ninclude_candidates = false # by hand\n")
    code, pack, _ = lk(workspace.root, "facts", "pack", "--project", "nord", "--format", "json")
    assert [f["id"] for f in pack["facts"]] == [ids["glossary"]] and pack["include_candidates"] is False
    code, out, _ = lk(workspace.root, "facts", "settings", "--project", "nord", "--include-candidates")
    assert out == {"project": "nord", "include_candidates": True}
    assert "[facts.projects.nord]" in cfg.read_text() and cfg.read_text().count("include_candidates") == 1
    code, pack, _ = lk(workspace.root, "facts", "pack", "--project", "nord", "--format", "json")
    assert len(pack["facts"]) == 4
    workspace.facts.set_include_candidates("other.proj", False)
    assert workspace.facts.include_candidates("other.proj") is False and workspace.facts.include_candidates("nord")


def test_pack_markdown_is_ready_for_agents_md(workspace: Workspace, tmp_path: Path) -> None:
    docs = write_docs(tmp_path)
    add(workspace.root, docs / "guide.md", "Never edit merged Flyway migrations.", "--scope", "db/migration/**")
    from helpers.cli import run_lorekeeper

    proc = run_lorekeeper("--workspace", str(workspace.root), "facts", "pack", "--project", "nord")
    assert proc.returncode == 0
    assert proc.stdout.startswith("## Facts for nord")
    assert "- **constraint** Never edit merged Flyway migrations. _(applies to: `db/migration/**`)_" in proc.stdout


def test_conventions_most_specific_first_universal_left_out(workspace: Workspace, tmp_path: Path) -> None:
    docs = write_docs(tmp_path)
    made = {}
    for key, scopes in [
        ("universal", ["**"]),
        ("ext", ["*.sql"]),
        ("folder", ["db/**"]),
        ("exact", ["db/migration/V1.sql"]),
        ("deep", ["src/**", "db/migration/**"]),  # its most specific matching glob counts
        ("other", ["src/**"]),
    ]:
        f = workspace.facts.add(
            "nord", "convention", f"Follow the {key} rule.", str(docs / "guide.md"), QUOTE, scope=scopes
        )
        made[key] = f.fact.id
    code, out, _ = lk(workspace.root, "facts", "conventions", "db/migration/V1.sql", "--project", "nord")
    assert code == 0 and out["path"] == "db/migration/V1.sql"
    assert [f["id"] for f in out["facts"]] == [made[k] for k in ("exact", "deep", "folder", "ext")]
    assert {f.id for f in workspace.facts.conventions("src/app/main.py", "nord")} == {made["deep"], made["other"]}
    assert workspace.facts.conventions("README.md", "nord") == []  # universal facts live in the pack
    workspace.facts.reject(made["exact"], why="obsolete")
    assert made["exact"] not in [f.id for f in workspace.facts.conventions("db/migration/V1.sql", "nord")]


def test_reject_needs_a_reason_and_decisions_are_signed_events(workspace: Workspace, tmp_path: Path) -> None:
    docs = write_docs(tmp_path)
    code, f, _ = add(workspace.root, docs / "guide.md", "Never edit merged Flyway migrations.")
    code, out, _ = lk(workspace.root, "facts", "reject", f["id"], "--reason", "  ")
    assert code == 2
    code, out, _ = lk(workspace.root, "facts", "approve", f["id"], "--reason", "matches the guide", "--by", "ana")
    assert out["status"] == "approved" and out["decided_by"] == "ana"
    code, out, _ = lk(workspace.root, "facts", "edit", f["id"], "--statement", "Never edit a merged Flyway migration.",
                      "--scope", "db/migration/**", "--reason", "shorter")  # fmt: skip
    assert out["statement"] == "Never edit a merged Flyway migration." and out["status"] == "approved"
    code, out, _ = lk(workspace.root, "facts", "edit", f["id"], "--type", "pitfall", "--reason", "a trap really")
    assert out["type"] == "pitfall" and out["id"].startswith("nord:pitfall:") and out["scope"] == ["db/migration/**"]
    code, old, _ = lk(workspace.root, "facts", "show", f["id"])
    assert old["merged_into"] == out["id"]  # the old id keeps its history
    with Workspace.open(workspace.root) as ws:
        events = [(e.type, e.data) for e in ws.audit.log.events() if e.type.startswith("fact")]
    kinds = [k for k, _ in events]
    assert kinds == ["fact_added", "fact_approved", "fact_edited", "fact_edited"]
    approved = events[1][1]
    assert approved["by"] == "ana" and approved["why"] == "matches the guide" and approved["at"]


def test_ingest_skips_unchanged_reextracts_changed_and_flags_vanished_quotes(
    workspace: Workspace, tmp_path: Path
) -> None:
    docs = write_docs(tmp_path, {"guide.md": GUIDE, "sub/notes.txt": "Deploy with make release.\n", "x.bin": "a\0b"})
    code, rep, _ = lk(workspace.root, "facts", "ingest", str(docs), "--project", "nord")
    assert code == 0 and len(rep["new"]) == 2 and rep["pending"] and rep["extraction"] is None
    assert all(d.startswith("nord:file:") for d in rep["new"])
    code, f, _ = add(workspace.root, docs / "guide.md", "Never edit merged Flyway migrations.")
    assert f["provenance"][0]["document_id"] in rep["new"]  # the ingested document, not a second copy
    code, again, _ = lk(workspace.root, "facts", "ingest", str(docs), "--project", "nord")
    assert again["new"] == [] and again["changed"] == [] and sorted(again["unchanged"]) == sorted(rep["new"])
    (docs / "guide.md").write_text(GUIDE.replace(QUOTE, "Migrations are immutable once merged."), encoding="utf-8")
    code, changed, _ = lk(workspace.root, "facts", "ingest", str(docs), "--project", "nord")
    assert changed["changed"] == [f["provenance"][0]["document_id"]] and len(changed["unchanged"]) == 1
    assert changed["flagged"] == [f["id"]]
    code, flagged, _ = lk(workspace.root, "facts", "list", "--flagged")
    assert [x["id"] for x in flagged["facts"]] == [f["id"]] and flagged["facts"][0]["flag"] == "quote_vanished"
    code, docs_out, _ = lk(workspace.root, "facts", "documents", "--project", "nord")
    assert {d["origin"] for d in docs_out["documents"]} == {"guide.md", "sub/notes.txt"}


def test_ingest_of_a_git_checkout_respects_gitignore(workspace: Workspace, tmp_path: Path) -> None:
    import shutil
    import subprocess

    import pytest

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = write_docs(tmp_path, {"README.md": GUIDE, "src/app.py": "x = 1\n", "build/out.md": "generated\n",
                                 ".gitignore": "build/\n", "logo.png": "\x89PNG"})  # fmt: skip
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "add", "README.md"], check=True)
    report = workspace.facts.ingest(repo, "nord")
    origins = sorted(d.origin for d in workspace.facts.documents("nord"))
    assert origins == ["README.md", "src/app.py"] and len(report.new) == 2  # tracked + untracked, not ignored
    kinds = {d.origin: d.kind for d in workspace.facts.documents("nord")}
    assert kinds == {"README.md": "markdown", "src/app.py": "source"}


def test_ingest_of_a_document_over_the_cap_says_why_it_was_skipped(workspace: Workspace, tmp_path: Path) -> None:
    """Issue 31 item 7: the text of `facts ingest` names the skipped file and the 1 MiB limit (it
    said only "1 skipped"); `facts add` names the file once, not "big.md: big.md cannot be"."""
    from helpers.cli import run_lorekeeper

    big = tmp_path / "big.md"
    quote = "Always pin the base image digest."
    big.write_text(quote + "\n" + "filler line for size\n" * 60_000, encoding="utf-8")
    r = run_lorekeeper("--workspace", str(workspace.root), "facts", "ingest", str(big), "--project", "p1")
    assert r.returncode == 0, r.stderr
    assert "1 skipped" in r.stdout
    assert "skipped big.md: " in r.stdout and "over the 1 MiB limit" in r.stdout
    code, out, _ = add(workspace.root, big, "Pin base images.", quote=quote)
    assert code == 2 and out["error"]["message"].count("big.md") == 1, out["error"]["message"]
