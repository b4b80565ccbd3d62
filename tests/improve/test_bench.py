"""Benchmark arithmetic, the order-swap tie rule with a scripted judge, and full runs against the local API server."""

from __future__ import annotations

import json

import pytest
from improve_support import FORCE_RULE, LEASE_RULE, new_skill_text

from lorekeeper.evals.rules import parse_rules
from lorekeeper.improve.bench import eval_score, improvement_pct, score_scenario, totals
from lorekeeper.improve.judge import JudgeCall, ModelAnswerError, parse_judge_answer


def call(a: int, b: int) -> JudgeCall:
    return JudgeCall(a, b, "")


# ---------------------------------------------------------------- arithmetic


def test_eval_score_is_the_share_of_rules_passed():
    rules = parse_rules({"version": 1, "rules": [FORCE_RULE, LEASE_RULE]})
    assert eval_score(rules, "git push --force-with-lease")[0] == 0.5  # contains "--force" too
    assert eval_score(rules, "git push origin")[0] == 0.5
    assert eval_score(rules, "git push --force")[0] == 0.0
    assert eval_score(parse_rules({"version": 1, "rules": []}), "x") == (None, [])


def test_consistent_judge_and_combined_score():
    # order 1: A=old 4, B=new 8; order 2: A=new 7, B=old 5 -> both prefer new
    o = score_scenario(0.5, 1.0, call(4, 8), call(7, 5))
    assert (o.first_prefers, o.second_prefers, o.judge_winner) == ("new", "new", "new")
    assert (o.old_judge, o.new_judge) == (4.5, 7.5)
    assert o.old_score == pytest.approx(0.6 * 5 + 0.4 * 4.5)  # 4.8
    assert o.new_score == pytest.approx(0.6 * 10 + 0.4 * 7.5)  # 9.0
    assert o.winner == "new"


def test_order_swap_disagreement_is_a_judge_tie_and_evals_decide():
    # a position-biased judge: always prefers Response A, by a lot
    o = score_scenario(1.0, 0.5, call(9, 2), call(9, 2))
    assert (o.first_prefers, o.second_prefers, o.judge_winner) == ("old", "new", "tie")
    assert o.old_judge == o.new_judge == 5.5  # mean of the four scores: cannot move the result
    assert o.old_score == pytest.approx(6 + 2.2) and o.new_score == pytest.approx(3 + 2.2)
    assert o.winner == "old"


def test_judge_tie_and_equal_evals_is_a_scenario_tie():
    o = score_scenario(1.0, 1.0, call(3, 9), call(3, 9))
    assert o.judge_winner == "tie" and o.winner == "tie" and o.old_score == o.new_score


def test_equal_scores_in_one_order_is_a_judge_tie():
    o = score_scenario(0.5, 0.5, call(6, 6), call(8, 5))  # order 2 prefers new, order 1 has no preference
    assert o.judge_winner == "tie" and o.winner == "tie"


def test_consistent_judge_can_outweigh_evals():
    # evals prefer old by one rule of two (0.6 x 5 = 3 points); the judge prefers new by 8 points (0.4 x 8 = 3.2)
    o = score_scenario(1.0, 0.5, call(1, 9), call(9, 1))
    assert o.judge_winner == "new" and o.winner == "new"
    assert o.new_score - o.old_score == pytest.approx(0.2)


def test_without_rules_the_judge_alone_decides():
    o = score_scenario(None, None, call(4, 8), call(7, 5))
    assert (o.old_score, o.new_score, o.winner) == (4.5, 7.5, "new")


def test_totals_verdicts_and_improvement():
    new_win = score_scenario(0.5, 1.0, call(4, 8), call(8, 4))
    old_win = score_scenario(1.0, 0.5, call(8, 4), call(4, 8))
    tie = score_scenario(1.0, 1.0, call(5, 5), call(5, 5))
    t = totals([new_win, new_win, old_win])
    assert (t.wins_new, t.wins_old, t.ties, t.verdict) == (2, 1, 0, "PASSED")
    assert t.improvement_pct == pytest.approx((t.new_avg - t.old_avg) / t.old_avg * 100, abs=1e-3)
    assert totals([old_win, tie]).verdict == "FAILED"
    assert totals([new_win, old_win, tie]).verdict == "TIE"
    assert totals([tie]).improvement_pct == 0.0


def test_improvement_pct_when_old_average_is_zero():
    assert improvement_pct(0.0, 0.0) == 0.0
    assert improvement_pct(0.0, 5.0) is None
    assert improvement_pct(4.0, 5.0) == 25.0
    assert improvement_pct(5.0, 4.0) == -20.0


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "score A 7",
        '{"score_a": 0, "score_b": 5}',
        '{"score_a": 7.5, "score_b": 5}',
        '{"score_a": "7", "score_b": 5}',
        "[7, 5]",
        '{"score_a": 7}',
    ],
)
def test_malformed_judge_answers(raw):
    with pytest.raises(ModelAnswerError):
        parse_judge_answer(raw)


def test_judge_answer_in_a_code_fence():
    assert parse_judge_answer('Here:\n```json\n{"score_a": 7, "score_b": 10, "reason": "B cites lines"}\n```') == (
        7,
        10,
        "B cites lines",
    )


# ---------------------------------------------------------------- runs


class ScriptedJudge:
    """Always prefers whichever response is shown as A: the position bias the order swap catches."""

    model = "scripted-judge"

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    def score(self, *, skill, description, scenario, response_a, response_b):
        self.seen.append((response_a, response_b))
        return JudgeCall(9, 3, "A looks better", prompt="scripted", raw="{}")


def test_position_biased_judge_gives_ties_and_evals_decide(model_ws, sage_proposal):
    judge = ScriptedJudge()
    run = model_ws.improve.bench.run(sage_proposal.id, judge=judge, seed=7)
    assert len(run.results) == 3 and len(judge.seen) == 6
    for r in run.results:
        assert r.judge_winner == "tie"
        assert [c["prefers"] for c in r.judge_calls] == ["old", "new"]
        assert (r.old_eval, r.new_eval) == (0.0, 0.0)  # "--force-with-lease" contains "--force"
        assert r.winner == "tie"
    assert (run.verdict, run.ties, run.improvement_pct) == ("TIE", 3, 0.0)


def test_run_against_the_local_model_server(model_ws, sage_proposal, anthropic_server):
    model_ws.skills.set_rules("code-review", None, [FORCE_RULE, LEASE_RULE])
    run = model_ws.improve.bench.run(sage_proposal.id, seed=42)
    script = model_ws.script
    assert script.calls == {"sage": 0, "scenarios": 1, "run": 6, "judge": 6}
    assert (run.verdict, run.wins_new, run.wins_old, run.ties) == ("PASSED", 3, 0, 0)
    r = run.results[0]
    assert "--force-with-lease" in r.new_output and "--force-with-lease" not in r.old_output
    assert (r.old_eval, r.new_eval) == (0.0, 0.5)
    assert r.judge_winner == "new" and [c["prefers"] for c in r.judge_calls] == ["new", "new"]
    assert r.old_score == pytest.approx(0.4 * 4) and r.new_score == pytest.approx(0.6 * 5 + 0.4 * 9)
    assert run.improvement_pct == pytest.approx((6.6 - 1.6) / 1.6 * 100)
    # labels hidden: the judge sees "Response A"/"Response B", the old output first in one call, second in the other
    judge_prompts = [p for p in anthropic_server.prompts() if p.startswith("You are an impartial judge")]
    first = judge_prompts[0]
    assert "Response A" in first and "Response B" in first
    assert "proposed" not in first.lower() and "old content" not in first.lower()
    orders = {c["order"]: c for c in r.judge_calls}
    assert r.old_output in orders["A=old, B=new"]["prompt"].split("Response B:")[0]
    assert r.old_output in orders["A=new, B=old"]["prompt"].split("Response B:")[1]
    # reproducible: model names, seed, templates, systems, rules, raw answers are stored
    again = model_ws.improve.bench.get(run.id)
    assert (again.provider, again.model, again.judge_model, again.seed) == (
        "anthropic",
        "claude-test",
        "claude-test",
        42,
    )
    assert set(again.config["templates"]) == {"bench_system", "judge", "scenarios"}
    assert new_skill_text(model_ws) in again.config["systems"]["new"]
    assert [x["id"] for x in again.config["rules"]["rules"]] == ["cr-1", "cr-2"]
    assert all(c["raw"] for c in r.judge_calls)
    gen = again.config["scenario_generation"]
    assert gen["prompt"].startswith("Write 3 realistic") and json.loads(gen["raw"])[0] == r.scenario
    assert gen["model"] == "anthropic:claude-test"
    # the proposal's badge
    assert model_ws.improve.proposals.get(sage_proposal.id).benchmark.verdict == "PASSED"


def test_scenarios_are_kept_and_reused(model_ws, sage_proposal):
    model_ws.improve.bench.run(sage_proposal.id, judge=ScriptedJudge())
    model_ws.improve.bench.run(sage_proposal.id, judge=ScriptedJudge(), extra_scenarios=["My own request"])
    assert model_ws.script.calls["scenarios"] == 1
    assert model_ws.improve.bench.list()[0].config["scenario_generation"] is None  # all kept ones
    kept = model_ws.improve.bench.scenarios("code-review")
    assert [s.source for s in kept] == ["operator", "model", "model", "model"]
    runs = model_ws.improve.bench.list(sage_proposal.id)
    assert runs[0].results[0].scenario == "My own request"
    assert len(runs) == 2


def test_malformed_judge_answer_stores_nothing(model_ws, sage_proposal):
    model_ws.script.judge_raw = "I prefer the second one."
    with pytest.raises(ModelAnswerError, match="JSON object"):
        model_ws.improve.bench.run(sage_proposal.id)
    assert model_ws.improve.bench.list() == []


def test_benchmark_needs_a_model(weak_ws):
    from lorekeeper.llm.base import LLMUnavailableError

    pid = weak_ws.improve.run_nightly().created[0]["proposal"]
    with pytest.raises(LLMUnavailableError, match="no model is configured"):
        weak_ws.improve.bench.run(pid)


def test_cli_bench_run_and_show(model_ws, sage_proposal):
    from click.testing import CliRunner

    from lorekeeper.cli import main

    root = str(model_ws.root)
    r = CliRunner().invoke(
        main,
        ["bench", "run", str(sage_proposal.id), "--scenarios", "2", "--seed", "3", "--json", "--workspace", root],
        catch_exceptions=False,
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["verdict"] == "PASSED" and data["seed"] == 3 and len(data["results"]) == 2
    assert data["weights"] == {"evals": 0.6, "judge": 0.4, "scale": 10.0}
    r = CliRunner().invoke(main, ["bench", "show", str(data["id"]), "--workspace", root], catch_exceptions=False)
    assert "judge [A=old, B=new]" in r.output and "judge [A=new, B=old]" in r.output and "new ★" in r.output


def test_benchmark_stored_on_postgresql(tmp_path, pg_url, anthropic_server, monkeypatch):
    from pathlib import Path

    from improve_support import ScriptedModel

    from lorekeeper.improve.proposals import NewProposal
    from lorekeeper.llm.base import LLMSettings
    from lorekeeper.workspace import Workspace

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-env")
    root = tmp_path / "pgws"
    root.mkdir()
    (root / "lorekeeper.toml").write_text(f'[store]\nurl = "{pg_url}"\n', encoding="utf-8")
    with Workspace.open(root) as ws:
        ws.audit.init_key(record=False)  # issue 18: proposals are signed rows (no key, no proposal)
        ws.skills.import_path(Path(__file__).resolve().parents[2] / "skills")
        ws.skills.set_rules("code-review", None, [FORCE_RULE])
        ws.llm.configure(
            LLMSettings(
                provider="anthropic", base_url=anthropic_server.url, model="claude-test", max_retries=0, timeout=10
            )
        )
        anthropic_server.behaviour.reply = ScriptedModel(ws)
        cur = ws.skills.get("code-review")
        p = ws.improve.proposals.create(
            NewProposal(
                skill="code-review",
                scope="",
                project="",
                source="sage",
                reason="r",
                summary="s",
                metrics={},
                failing_rules=[],
                learnings=[],
                base_version=cur.version,
                current_content=cur.content,
                proposed_content=new_skill_text(ws),
            )
        )
        run = ws.improve.bench.run(p.id, judge=ScriptedJudge(), seed=5)
        again = ws.improve.bench.get(run.id)
        assert (again.verdict, again.seed, len(again.results)) == ("TIE", 5, 3)
        assert [r.judge_winner for r in again.results] == ["tie"] * 3
        assert ws.improve.proposals.get(p.id).benchmark.run_id == run.id


def test_judge_and_scenario_answers_in_other_common_shapes():
    from lorekeeper.improve.bench import parse_scenarios

    assert parse_judge_answer('{"Score A": 6, "Score B": 8, "Reasoning": "B is safer"}') == (6, 8, "B is safer")
    assert parse_judge_answer("Response A: 7/10. Response B: 9/10. B cites lines.")[:2] == (7, 9)
    assert parse_scenarios('[{"request": "one"}, {"scenario": "two"}, "three"]', 3) == ["one", "two", "three"]
    assert parse_scenarios("Sure:\n1. First request\n2. Second request\n3. Third\n", 2) == [
        "First request",
        "Second request",
    ]
    with pytest.raises(ModelAnswerError, match="numbered list"):
        parse_scenarios("I cannot help with that.", 3)
