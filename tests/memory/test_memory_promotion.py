"""Seed 004 B4 in normal use (issue 25 d5): a domain learning reaches `global` through stories only.

A domain learning whose reuse score already meets the global bar (>= 0.6) but that was only ever
injected in its own domain is offered, on trial, in the last learnings slot of other domains'
stories; a trial counts as a second domain once that story passes its gate (GO), and the next
`on_story_close` promotes it. Nothing here calls `learn promote` or writes a score by hand.
"""

from __future__ import annotations

import json

from helpers.cli import run_lorekeeper

AUTH_RULE = "Rotate JWT signing keys every 90 days"


def _cli(ws, *args: str) -> dict:
    out = run_lorekeeper(*args, "--json", "--workspace", str(ws.root))
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _learning(inj: dict, lid: int) -> dict | None:
    return next((x for x in inj["learnings"] if x["id"] == lid), None)


def test_a_domain_learning_reaches_global_through_stories_of_a_second_domain(workspace) -> None:
    ws = workspace
    rule = ws.learnings.add(AUTH_RULE, domain="auth", tags="jwt", story="PD-1")
    billing = [ws.learnings.add(f"billing rule {i}", domain="billing", scope="domain").id for i in range(5)]
    # 9 auth stories, each injected once and GO: tanh((9*0.4 + 9*0.4 + 1*0.2)/10) = 0.6291
    for n in range(9):
        assert ws.stories.start(f"AU-{n}", "auth", "backend").error is None
        ws.stories.close(f"AU-{n}", "DONE", "GO")
    info = {r["id"]: r for r in _cli(ws, "learn", "scores")["learnings"]}[rule.id]
    assert (info["reuse_score"], info["domains"], info["scope"]) == (0.6291, 1, "domain")  # the dead end

    # a billing story: its own 5 domain learnings are ranked first, the auth one is offered last, on trial
    first = _cli(ws, "story", "start", "BI-1", "--domain", "billing", "--project", "backend")
    assert first["count_effective"]["learnings"] == 5
    ids = [x["id"] for x in first["learnings"]]
    assert ids[-1] == rule.id and set(ids[:-1]) <= set(billing)
    assert _learning(first, rule.id)["trial"] is True
    assert not any(x["trial"] for x in first["learnings"][:-1])
    assert f"{AUTH_RULE} [domain auth, trial]" in first["block"]
    # that story fails its gate: the trial does not count as a second domain, no promotion
    closed = _cli(ws, "story", "close", "BI-1", "--state", "DONE", "--gate", "NO_GO")
    assert closed["promoted"] == []
    info = {r["id"]: r for r in _cli(ws, "learn", "scores")["learnings"]}[rule.id]
    assert (info["injections"], info["domains"], info["scope"]) == (10, 1, "domain")

    # a second billing story passes: two domains, score >= 0.6 -> global at its close
    second = _cli(ws, "story", "start", "BI-2", "--domain", "billing", "--project", "backend")
    assert _learning(second, rule.id)["trial"] is True
    closed = _cli(ws, "story", "close", "BI-2", "--state", "DONE", "--gate", "GO")
    assert [(p["id"], p["from"], p["to"], p["domains"]) for p in closed["promoted"]] == [
        (rule.id, "domain", "global", 2)
    ]
    assert ws.learnings.get(rule.id).scope == "global"

    # from now on it is served everywhere as a global learning, no longer on trial
    third = _cli(ws, "story", "start", "OPS-1", "--domain", "ops", "--project", "infra")
    got = _learning(third, rule.id)
    assert got is not None and got["scope"] == "global" and got["trial"] is False
    # and it crosses projects: a prompt of another project carries it
    assert AUTH_RULE in ws.learnings.block("frontend").text


def test_no_trial_below_the_global_bar(workspace) -> None:
    ws = workspace
    low = ws.learnings.add("auth domain rule, little used", domain="auth", scope="domain")
    for n in range(3):  # tanh((3*0.4 + 3*0.4 + 0.2)/10) = 0.2449: a domain learning, not near global
        ws.stories.start(f"AU-{n}", "auth", "backend")
        ws.stories.close(f"AU-{n}", "DONE", "GO")
    inj = ws.stories.start("BI-1", "billing", "backend").to_dict()
    assert _learning(inj, low.id) is None
    assert inj["count_effective"]["learnings"] == 0 and inj["block"] == ""
