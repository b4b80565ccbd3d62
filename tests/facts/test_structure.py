"""Issue 28 d1: the fact services have one job each; `ws.facts` is a facade with no logic of its own."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from lorekeeper.facts import service as facade_module
from lorekeeper.facts.decisions import FactDecisions
from lorekeeper.facts.packs import FactPacks
from lorekeeper.facts.reading import FactReader
from lorekeeper.facts.settings import FactSettings
from lorekeeper.facts.work import FactWork
from lorekeeper.workspace import Workspace

FACTS_DIR = Path(facade_module.__file__).parent
MAX_CLASS_LINES = 600


def test_no_fact_class_holds_more_than_one_job_worth_of_lines() -> None:
    sizes = {}
    for path in FACTS_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                sizes[f"{path.name}:{node.name}"] = (node.end_lineno or 0) - node.lineno + 1
    assert max(sizes.values()) <= MAX_CLASS_LINES, sorted(sizes.items(), key=lambda kv: -kv[1])[:3]


def test_every_front_end_name_is_the_method_of_the_service_doing_that_job(workspace: Workspace) -> None:
    facts = workspace.facts
    owners = {
        FactReader: ("list", "show", "counts", "projects", "documents", "document", "conflicts", "conflict", "runs"),
        FactDecisions: ("approve", "approve_many", "reject", "reopen", "edit", "add", "resolve"),
        FactWork: ("ingest", "extract", "apply_recorded", "consolidate", "apply_recorded_consolidation"),
        FactPacks: ("pack", "packable", "conventions", "prompt_block"),
        FactSettings: ("include_candidates", "set_include_candidates", "prompt_budget"),
    }
    for cls, names in owners.items():
        for name in names:
            bound = getattr(facts, name)
            assert inspect.ismethod(bound) and type(bound.__self__) is cls, name
    # the facade defines no method doing work (only the wiring and two constants)
    own = {n for n, v in vars(facade_module.FactService).items() if callable(v) or isinstance(v, classmethod)}
    assert own <= {"__init__", "wire", "types", "weights"}


def test_the_prompt_carries_one_facts_block_from_the_packs_service(demo_workspace: Workspace) -> None:
    assert demo_workspace.prompts.injectors.count("facts") == 1
    assembled = demo_workspace.prompts.build("How do I ship the release?", "citadel-v2")
    blocks = [text for name, text in assembled.blocks if name == "facts"]
    assert len(blocks) == 1 and blocks[0].startswith("FACTS (citadel-v2")
    assert sum(text.count("FACTS (") for _name, text in assembled.blocks) == 1
