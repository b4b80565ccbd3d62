"""Seeding a story's memory data the way issue 12 lays it out (store rows, index files, summary, events)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lorekeeper.memory.embedders import HashingEmbedder
from lorekeeper.memory.index import CorpusIndex, Item
from lorekeeper.memory.layout import MemoryLayout, item_id64
from lorekeeper.store.models import Clarification, Learning, MemoryInjection, Story

EMBEDDER = HashingEmbedder(64)

#: distinctive words of each story: found nowhere else, searched byte for byte after a purge
WORDS = {
    "PD-1": "Les operateurs exigent une rotation zanzibar-quokka des jetons chaque semaine",
    "PD-2": "Le tableau de bord doit afficher la latence pamplemousse-cobalt en continu",
    "PD-3": "Les exports nocturnes respectent le quota margaux-tundra par projet",
    "PD-1-2": "Les relances clients suivent le calendrier oursin-basalte du trimestre",
}


def summary_text(story: str, until: str) -> str:
    return (
        f"---\nstory: {story}\nstep: 0\ndate: 2025-04-11\ndomain: auth\nproject: backend\n"
        f"retention_until: {until}\n---\n\n# Clarifications PO — {story} (résumé structuré)\n\n"
        f"## Problème / besoin utilisateur\n{WORDS[story]}.\n"
    )


def seed(ws: Any, story: str, until: str = "2027-10-11", served_by: str | None = None) -> None:
    """One story with a validated summary in every artefact; `served_by`: another story whose
    injection trace served this summary (its row and its signed event name this story)."""
    layout = MemoryLayout(ws.root)
    with ws.store.write() as s:
        s.add(Story(id=story, domain="auth", project="backend", state="DONE", gate="GO"))
        s.add(
            Clarification(
                story=story,
                domain="auth",
                project="backend",
                date="2025-04-11",
                retention_until=until,
                problem=WORDS[story],
            )
        )
        s.add(Learning(project="backend", rule=f"{WORDS[story]} (learning)", story=story, domain="auth"))
        if served_by:
            s.add(
                MemoryInjection(trace=f"t-{served_by}", story=served_by, kind="clarification", item=story, position=0)
            )
    path = layout.clarification_file(story)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(summary_text(story, until), encoding="utf-8")
    ws.audit.log.append("clarification_validated", {"summary": WORDS[story]}, story=story)
    if served_by:
        ws.audit.log.append("memory_injected", {"clarifications": [story]}, story=served_by)


def build_index(ws: Any, stories: list[str]) -> CorpusIndex:
    index = CorpusIndex("clarifications", MemoryLayout(ws.root).index("clarifications"))
    items = [Item(item_id64("clarifications", s), s, WORDS[s], story=s) for s in stories]
    index.build(items, EMBEDDER)
    return index


def nearest(index: CorpusIndex, text: str) -> int | None:
    hits = index.search(EMBEDDER.embed([text])[0], 1)
    return hits[0][0] if hits else None


def files_holding(root: Path, needle: str) -> list[str]:
    """Every file of the workspace (database, WAL, indexes, logs) whose bytes hold `needle`."""
    data = needle.encode("utf-8")
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and data in p.read_bytes())


def purge_json(out: str) -> dict[str, Any]:
    return json.loads(out)
