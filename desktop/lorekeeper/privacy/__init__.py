"""Privacy: PII detection, the sanitizer subprocess, retention and the GDPR purge (seed 004 §3.1, §3.8)."""
