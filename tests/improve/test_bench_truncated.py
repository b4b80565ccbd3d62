"""Benchmark outputs the model cut at [llm] max_tokens are flagged in the stored run and its badge."""

from __future__ import annotations


def test_outputs_cut_at_max_tokens_are_stored_with_the_run(model_ws, sage_proposal, anthropic_server):
    anthropic_server.behaviour.stop_reason = "max_tokens"
    run = model_ws.improve.bench.run(sage_proposal.id, seed=42)
    again = model_ws.improve.bench.get(run.id)  # read back from the store
    assert len(again.truncated) == 6  # 3 scenarios x (old, new)
    assert {t["side"] for t in again.truncated} == {"old", "new"}
    assert again.to_dict()["truncated"] == again.truncated
    assert again.badge.endswith("· 6 answers cut at max_tokens")


def test_a_complete_run_flags_nothing(model_ws, sage_proposal):
    run = model_ws.improve.bench.run(sage_proposal.id, seed=42)
    assert model_ws.improve.bench.get(run.id).truncated == []
    assert "max_tokens" not in run.badge
