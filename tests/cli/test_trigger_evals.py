"""Issue 27 d2: trigger cases per skill (skill-creator's shape), stored with the skill's files and
versions; `skills trigger-eval` scores the router on them over the whole library; `skills suggest
--triggers` writes them from the description and the quality history."""

from __future__ import annotations

import json
from pathlib import Path

from helpers.cli import run_lorekeeper
from lorekeeper.skills.triggers import TriggerCase
from lorekeeper.workspace import Workspace

CASES = [
    {"query": "please review this pull request before merge", "should_trigger": True},
    {"query": "can you look over my diff and comment", "should_trigger": True},  # no router word: missed
    {"query": "write a migration to add a column", "should_trigger": False},
    {"query": "review the deploy plan for tonight", "should_trigger": False},  # "review": a false trigger
]


def _folder(tmp_path: Path, triggers: object, name: str = "code-review") -> Path:
    src = tmp_path / "src" / name
    src.mkdir(parents=True)
    (src / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: Reviews code changes and pull requests.\n"
        'metadata:\n  triggers: "review, code review, review this PR"\n  keywords: "pull request, PR"\n---\n# Review\n',
        encoding="utf-8",
    )
    (src / "triggers.json").write_text(json.dumps(triggers), encoding="utf-8")
    return src


def test_trigger_eval_scores_each_skill_with_its_confusions_and_collisions(workspace: Workspace, tmp_path: Path):
    src = _folder(tmp_path, {"evals": CASES})  # the {"evals": [...]} shape
    root = str(workspace.root)
    workspace.close()
    r = run_lorekeeper("skills", "import", str(src), "--on-conflict", "new-version", "--workspace", root, "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["updated"] == ["code-review"], r.stdout
    out = run_lorekeeper("skills", "trigger-eval", "--workspace", root, "--json", "--top", "2")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    [sc] = report["skills"]
    assert (sc["name"], sc["cases"], sc["tp"], sc["fn"], sc["fp"], sc["tn"]) == ("code-review", 4, 1, 1, 1, 1)
    assert sc["precision"] == 0.5 and sc["recall"] == 0.5
    missed = [c for c in sc["confusions"] if c["should_trigger"]]
    assert missed[0]["query"] == CASES[1]["query"] and missed[0]["fired"] is False
    false = [c for c in sc["confusions"] if not c["should_trigger"]]
    assert false[0]["query"] == CASES[3]["query"] and false[0]["rank"] in (1, 2)
    text = run_lorekeeper("skills", "trigger-eval", "code-review", "--workspace", root).stdout
    assert "50%" in text and "missed 'can you look over my diff and comment'" in text
    # the cases are a file of the skill: exported, and kept per version
    assert json.loads((Path(root) / "skills" / "code-review" / "triggers.json").read_text())["evals"] == CASES
    nocases = run_lorekeeper("skills", "trigger-eval", "git-manager", "--workspace", root)
    assert nocases.returncode == 3 and "has no trigger cases" in nocases.stderr


def test_a_malformed_trigger_file_is_refused_by_validate_and_import_alike(workspace: Workspace, tmp_path: Path):
    src = _folder(tmp_path, [{"query": "x", "should_trigger": "yes"}], name="my-review")
    root = str(workspace.root)
    workspace.close()
    v = run_lorekeeper("skills", "validate", str(src.parent), "--json")
    i = run_lorekeeper("skills", "import", str(src.parent), "--workspace", root, "--json")
    assert v.returncode == 2 and i.returncode == 2
    assert "should_trigger' must be true or false" in json.loads(v.stdout)["errors"][0]["message"]
    assert json.loads(v.stdout)["errors"] == json.loads(i.stdout)["invalid"][0]["errors"]


def test_suggest_triggers_writes_cases_from_history_and_description(workspace: Workspace):
    answers = workspace.reflect.answers
    assert answers is not None
    for n, (message, ranked) in enumerate(
        [
            ("go over this PR for me", [("code-review", 2), ("git-manager", 1)]),  # code-review first
            ("squash my last three commits", [("git-manager", 2), ("code-review", 1)]),  # a near miss
            ("bump the lodash version", [("dependency-upgrade", 2)]),  # not about code-review at all
        ]
    ):
        answers.record(f"i{n}", project=None, message=message, prompt="p", text="a", skills=ranked)
    workspace.skills.set_trigger_cases("code-review", None, [TriggerCase("review my PR", True)])
    before = workspace.skills.get("code-review").version
    s = workspace.improve.trigger_cases.suggest("code-review", use_model=False)
    assert s.cases[0] == TriggerCase("review my PR", True)  # existing cases kept first
    added = {c.query: c.should_trigger for c in s.added}
    assert added["go over this PR for me"] is True and added["squash my last three commits"] is False
    assert "bump the lodash version" not in added
    assert s.sources["history"] == 2 and s.sources.get("description", 0) >= 1
    assert s.version == before + 1
    cases, problems = workspace.skills.trigger_cases(None, "code-review")
    assert not problems and len(cases["code-review"]) == len(s.cases)
    again = workspace.improve.trigger_cases.suggest("code-review", use_model=False, write=False)
    assert again.added == () and again.version is None  # nothing new: no new version


def test_trigger_precision_and_recall_follow_the_one_rounding_rule(workspace: Workspace, tmp_path: Path, qtbot):
    """Issue 31 item 8: every rate shown is rounded down (README): 2 of 3 is 0.6666 in --json and
    "66.6%" in the text and the GUI, never 0.6667, "0.67" or "66.7%"."""
    from lorekeeper.skills.triggers import SkillTriggerScore
    from lorekeeper.ui.models.route import TriggerTableModel

    cases = [
        {"query": "please review this pull request before merge", "should_trigger": True},
        {"query": "review this PR now", "should_trigger": True},
        {"query": "can you look over my diff and comment", "should_trigger": True},  # missed
        {"query": "review the deploy plan for tonight", "should_trigger": False},  # a false trigger
        {"query": "write a migration to add a column", "should_trigger": False},
    ]
    src = _folder(tmp_path, cases)
    root = str(workspace.root)
    workspace.close()
    r = run_lorekeeper("skills", "import", str(src), "--on-conflict", "new-version", "--workspace", root, "--json")
    assert r.returncode == 0, r.stdout
    out = run_lorekeeper("skills", "trigger-eval", "code-review", "--workspace", root, "--json", "--top", "2")
    [sc] = json.loads(out.stdout)["skills"]
    assert (sc["tp"], sc["fn"], sc["fp"]) == (2, 1, 1)
    assert sc["precision"] == 0.6666 and sc["recall"] == 0.6666
    text = run_lorekeeper("skills", "trigger-eval", "code-review", "--workspace", root, "--top", "2").stdout
    row = next(line for line in text.splitlines() if line.startswith("code-review"))
    assert row.count("66.6%") == 2 and "0.67" not in row and "66.7" not in row
    model = TriggerTableModel()
    model.set_rows([SkillTriggerScore("code-review", 5, tp=2, fp=1, fn=1, tn=1)])
    shown = [model.data(model.index(0, c)) for c in (model.COL_PRECISION, model.COL_RECALL)]
    assert shown == ["66.6%", "66.6%"]


def test_design_names_hold_name_triggers_json_took_and_top_level_collisions(workspace: Workspace, tmp_path: Path):
    src = _folder(tmp_path, CASES)
    (src / "triggers.json").rename(src / "code-review.triggers.json")  # DESIGN's `<name>.triggers.json`
    root = str(workspace.root)
    workspace.close()
    v = run_lorekeeper("skills", "validate", str(src), "--json")
    assert v.returncode == 0, v.stdout
    r = run_lorekeeper("skills", "import", str(src), "--on-conflict", "new-version", "--workspace", root, "--json")
    assert r.returncode == 0, r.stdout
    report = json.loads(run_lorekeeper("skills", "trigger-eval", "--workspace", root, "--json", "--top", "2").stdout)
    [sc] = report["skills"]
    assert sc["cases"] == 4 and all(c["took"] == c["taken_by"] for c in sc["confusions"])
    assert report["collisions"] and {"skill", "with", "cases"} <= set(report["collisions"][0])
    assert report["collisions"][0]["skill"] == "code-review"
    # a malformed one is refused by validate as the other names are
    (src / "code-review.triggers.json").write_text("[{}]", encoding="utf-8")
    assert run_lorekeeper("skills", "validate", str(src), "--json").returncode == 2
