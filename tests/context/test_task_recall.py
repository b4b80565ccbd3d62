"""With a task and a budget, the pack holds whole the function bodies a developer would read."""

from __future__ import annotations

from pathlib import Path

import pytest

from lorekeeper.context import tokens
from lorekeeper.context.pack import pack

# (task, budget, functions whose whole body a developer reads to make the change)
TASKS = [
    (
        "prompt ignores the default value when hide_input is set",
        8000,
        {"prompt", "Option.prompt_for_value", "_build_prompt"},
    ),
    (
        "the progress bar shows a wrong ETA when the length is unknown",
        8000,
        {"ProgressBar.format_eta", "ProgressBar.eta", "ProgressBar.render_progress"},
    ),
    (
        "shell completion of Choice parameters returns the wrong items",
        8000,
        {"Choice.shell_complete", "ShellComplete.get_completions", "_resolve_incomplete"},
    ),
]


@pytest.mark.parametrize(("task", "budget", "needed"), TASKS)
def test_needed_bodies_are_sent_whole(click_tree: Path, task: str, budget: int, needed: set[str]) -> None:
    result = pack(click_tree, task=task, budget=budget)
    assert tokens.count(result.text) <= budget
    whole = {q for e in result.entries for q in e.bodies} | {
        q for e in result.entries if e.mode == "full" for q in _all_defs(click_tree / e.rel)
    }
    found = needed & whole
    assert len(found) / len(needed) >= 2 / 3, f"whole bodies: {sorted(whole)}"


def _all_defs(path: Path) -> set[str]:
    from lorekeeper.context.parse import parse_file

    if path.suffix != ".py":
        return set()
    return {d.qualname for d in parse_file(path.name, path.read_text()).definitions}
