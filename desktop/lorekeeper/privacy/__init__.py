"""Privacy: the deterministic PII gate, the clarification sanitizer subprocess, retention dates and the GDPR purge (seed 004 §3.1, §3.8)."""
