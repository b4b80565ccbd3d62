"""Living memory (seed 004 B1-B5): corpora, embedders, FAISS + BM25 indexes, hybrid search, stories,
clarification summaries and the fail-closed injection at story start."""
