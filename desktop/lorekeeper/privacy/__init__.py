"""Privacy: the deterministic PII gate, the clarification sanitizer subprocess, retention dates."""
