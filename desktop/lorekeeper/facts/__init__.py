"""Typed facts from documentation (seed 003): model, extraction, consolidation, conflicts, packs."""
