"""Ask (seed 001 "NotebookLM"): cited answers over the workspace's knowledge.

BM25 retrieval over passages of the skills, the learnings, the documents under `sources/` and
`clarifications/` (and any corpus a feature registers: facts, memory), then an answer from the
configured model that cites the numbered passages it used; without a model, the ranked passages.
"""
