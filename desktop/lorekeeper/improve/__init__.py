"""The improvement loop (seeds 000/001 pillars 4, 6, 7): nightly analysis, proposals, Sage, A/B benchmarks.

- `nightly`: finds underperforming skills (the rule lives in `lorekeeper.quality.metrics`) and
  writes one deterministic, template-based proposal per skill, never a duplicate of a pending one.
- `proposals`: the review queue; approve (the current version stays in the history, the proposed
  content becomes a new current version), reject, undo; every decision is a signed audit event.
- `sage`: model-written proposals for up to 5 target skills, benchmarked automatically.
- `bench` + `judge`: old vs new content on scenarios, deterministic evals (60%) plus an LLM judge
  that scores both outputs in both orders with hidden labels (40%).
"""
