"""The context compression engine (seed 002): decide what an agent's context keeps, drops and where.

Layers, one module each: `tokens` (exact o200k_base counts), `surprise` (per-line predictive
surprise), `parse`/`languages` (tree-sitter), `graph` (dependency graph, heat diffusion, PageRank,
communities, call graph), `intent` (structured intent), `allocate` (Boltzmann budgets and modes),
`render` (full / map / signatures / reference), `chunks` (semantic chunks, bridges, tail anchor),
`mmr` (cross-file de-duplication), `rewrite` (safe BPE-aligned rewrites), `ledger` (pressure,
re-injection plan, deficits), `cache` (RRF eviction), `handoff` (multi-agent), `smells`, and
`pack` which runs them in order. `bench` measures the result with Python's `ast`, independently.
"""
