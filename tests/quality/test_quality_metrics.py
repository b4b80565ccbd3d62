"""Quality metrics arithmetic and the seed's underperformer rule."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner

from lorekeeper.cli import main
from lorekeeper.quality import is_underperforming
from lorekeeper.quality.metrics import Event, compute, daily

T0 = datetime(2026, 11, 1, 12, tzinfo=UTC)


def events(
    skill: str, applied: int, passed: int, failed: int, pos: int = 0, neg: int = 0, project: str = "p"
) -> list[Event]:
    out = [Event("applied", skill, project, T0) for _ in range(applied)]
    out += [Event("eval", skill, project, T0, passed=True) for _ in range(passed)]
    out += [Event("eval", skill, project, T0, passed=False) for _ in range(failed)]
    out += [Event("feedback", skill, project, T0, positive=True) for _ in range(pos)]
    out += [Event("feedback", skill, project, T0, positive=False) for _ in range(neg)]
    return out


def test_counts_and_success_rate():
    (m,) = compute(events("a", applied=5, passed=4, failed=1, pos=2, neg=1))
    assert (m.applied_count, m.evaluated, m.succeeded) == (5, 5, 4)
    assert m.success_rate == pytest.approx(0.8)
    assert (m.feedback_positive, m.feedback_negative) == (2, 1)
    assert not m.underperforming  # exactly 80% is not below 80%


@pytest.mark.parametrize(
    ("applied", "rate", "pos", "neg", "flag"),
    [
        (2, 0.0, 0, 9, False),  # fewer than 3 uses: never flagged
        (3, 0.79, 5, 0, True),  # below 80%
        (3, 0.80, 5, 0, False),  # at 80%
        (3, 1.0, 1, 2, True),  # more negative than positive
        (3, 1.0, 2, 2, False),  # a tie is not "more"
        (3, None, 0, 1, True),  # no eval outcome, negative feedback
        (3, None, 0, 0, False),
    ],
)
def test_the_underperformer_rule(applied, rate, pos, neg, flag):
    assert is_underperforming(applied, rate, pos, neg) is flag


def test_sorted_by_health_worst_first():
    ev = events("good", 5, 5, 0, pos=3) + events("bad", 4, 1, 3) + events("meh", 3, 1, 1, pos=1)
    ranked = compute(ev)
    assert ranked[0].skill == "bad"
    assert ranked[0].underperforming and ranked[0].reasons == ["low success rate (25%)"]
    assert ranked[-1].skill == "good"


def test_by_project_splits_the_same_skill():
    ev = events("cr", 3, 3, 0, project="a") + events("cr", 3, 0, 3, project="b")
    both = compute(ev)
    assert len(both) == 1 and both[0].success_rate == 0.5
    split = {m.project: m for m in compute(ev, by_project=True)}
    assert split["a"].success_rate == 1.0 and split["b"].underperforming


def test_daily_points():
    ev = [*events("cr", 1, 1, 0), Event("eval", "cr", "p", T0 + timedelta(days=1), passed=False)]
    pts = daily(ev, "cr")
    assert [(p.day, p.success_rate) for p in pts] == [("2026-11-01", 1.0), ("2026-11-02", 0.0)]


def test_the_tracker_window_and_the_cli(workspace):
    q = workspace.quality
    now = datetime.now(UTC)
    old = now - timedelta(days=40)
    q.log_applied(["code-review"] * 3, "citadel-v2", at=old)
    for _ in range(3):
        q.log_applied(["code-review"], "citadel-v2")
        q.log_eval("code-review", "citadel-v2", False)
    q.log_feedback(["code-review"], "citadel-v2", True)
    (m,) = q.metrics(days=30)
    assert m.applied_count == 3 and m.success_rate == 0.0 and m.underperforming
    (m_all,) = q.metrics(days=None)
    assert m_all.applied_count == 6
    r = CliRunner().invoke(main, ["quality", "--json", "--workspace", str(workspace.root)], catch_exceptions=False)
    data = json.loads(r.output)
    assert data[0]["skill"] == "code-review" and data[0]["underperforming"] is True
    assert data[0]["success_rate"] == 0.0 and data[0]["feedback_positive"] == 1
    r = CliRunner().invoke(main, ["quality", "--workspace", str(workspace.root)], catch_exceptions=False)
    assert "UNDERPERFORMING: low success rate (0%)" in r.output


def test_the_database_count_matches_the_arithmetic_on_events(workspace):
    import random

    rnd = random.Random(4)
    q = workspace.quality
    for _ in range(200):
        skill = rnd.choice(["a", "b", "c"])
        project = rnd.choice(["p1", "p2", None])
        kind = rnd.choice(["applied", "eval", "feedback"])
        if kind == "applied":
            q.log_applied([skill], project)
        elif kind == "eval":
            q.log_eval(skill, project, rnd.random() < 0.7)
        else:
            q.log_feedback([skill], project, rnd.random() < 0.5)
    for by_project in (False, True):
        assert q.metrics(by_project=by_project) == compute(q.events(), by_project=by_project)
    assert q.metrics(project="p1") == compute(q.events(project="p1"))


def test_an_agent_checking_answers_with_lorekeeper_eval_feeds_the_metrics(workspace):
    def ev(text):
        return CliRunner().invoke(
            main, ["eval", "--skill", "git-manager", "--response", "-", "--workspace", str(workspace.root)], input=text
        )

    assert ev("Use git push --force now.").exit_code == 0
    assert ev("Open a pull request from a feature branch.").exit_code == 0
    m = {x.skill: x for x in workspace.quality.metrics()}
    rules = workspace.skills.get("git-manager").rules()
    assert m["git-manager"].applied_count == 2 and m["git-manager"].evaluated == 2
    assert m["git-manager"].succeeded == sum(
        1
        for t in ("Use git push --force now.", "Open a pull request from a feature branch.")
        if workspace.evals.run_rules(t, rules).passed
    )
    # the Evals panel's runs (the operator trying rules) are not skill uses
    workspace.evals.run_skill("anything", "git-manager", source="app")
    assert {x.skill: x for x in workspace.quality.metrics()}["git-manager"].applied_count == 2
    assert workspace.quality.metrics() == compute(workspace.quality.events())


@pytest.mark.postgres
def test_metrics_on_postgresql(tmp_path, pg_url):
    import random

    from lorekeeper.workspace import Workspace

    ws = Workspace.init(tmp_path / "pgws")
    ws.close()
    cfg = ws.root / "lorekeeper.toml"
    cfg.write_text(cfg.read_text().replace('url = "sqlite:///lorekeeper.db"', f'url = "{pg_url}"'))
    with Workspace.open(ws.root) as pg:
        assert pg.store.url.startswith("postgresql")
        rnd = random.Random(7)
        old = datetime.now(UTC) - timedelta(days=45)
        for i in range(120):
            skill, project = rnd.choice(["a", "b"]), rnd.choice(["p1", "p2"])
            at = old if i % 10 == 0 else None
            pg.quality.log_applied([skill], project, at=at)
            pg.quality.log_eval(skill, project, rnd.random() < 0.6, at=at)
            if i % 3 == 0:
                pg.quality.log_feedback([skill], project, rnd.random() < 0.4, at=at)
        from lorekeeper.paths import starter_skills_dir

        pg.skills.import_path(starter_skills_dir())
        pg.evals.run_skill("git push --force", "git-manager", None, source="cli")
        for by_project in (False, True):
            assert pg.quality.metrics(by_project=by_project) == compute(pg.quality.events(), by_project=by_project)
        assert sum(m.applied_count for m in pg.quality.metrics(days=None)) == 121
        assert sum(m.applied_count for m in pg.quality.metrics(days=30)) == 121 - 12
        assert pg.quality.metrics(project="p1") == compute(pg.quality.events(project="p1"))
        assert {m.skill for m in pg.quality.metrics()} == {"a", "b", "git-manager"}


def test_one_rounding_rule_for_every_rate_shown():
    """Issue 31 item 8: 4 of 6 reads "66.6%" in the reason and 0.6666 in JSON (both rounded down),
    never 0.6667 beside "66.6%"."""
    from lorekeeper.quality.metrics import format_rate

    (m,) = compute(events("a", applied=6, passed=4, failed=2))
    assert format_rate(m.success_rate) == "66.6%"
    assert m.to_dict()["success_rate"] == 0.6666
    assert any("66.6%" in r for r in m.reasons)
