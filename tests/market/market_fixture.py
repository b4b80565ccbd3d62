"""A local Claude Code plugin marketplace with two plugins (three skills, one with scripts)."""

from __future__ import annotations

import json
from pathlib import Path


def skill_md(name: str, description: str, extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n\n# {name}\n\nSteps.\n"


def make_marketplace(root: Path) -> Path:
    """root/.claude-plugin/marketplace.json listing plugins `docs-kit` and `ops-kit` (+ one remote)."""
    (root / ".claude-plugin").mkdir(parents=True)
    (root / ".claude-plugin" / "marketplace.json").write_text(
        json.dumps(
            {
                "name": "team-market",
                "owner": {"name": "Team"},
                "plugins": [
                    {"name": "docs-kit", "source": "./plugins/docs-kit", "description": "Documents"},
                    {"name": "ops-kit", "source": "./plugins/ops-kit"},
                    {"name": "far-away", "source": {"source": "github", "repo": "someone/elsewhere"}},
                ],
            }
        ),
        encoding="utf-8",
    )
    pdf = root / "plugins" / "docs-kit" / "skills" / "pdf-forms"
    (pdf / "scripts").mkdir(parents=True)
    (pdf / "SKILL.md").write_text(
        skill_md(
            "pdf-forms",
            "Fill PDF forms and extract their fields. Use when the user wants to fill a PDF form.",
            "allowed-tools: Bash Read\n",
        )
        + "\nRun `python scripts/fill_form.py input.pdf` then check scripts/check_fields.py.\n",
        encoding="utf-8",
    )
    (pdf / "scripts" / "fill_form.py").write_text("print('filled')\n", encoding="utf-8")
    (pdf / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00binary")
    sheet = root / "plugins" / "docs-kit" / "skills" / "spreadsheet-cleanup"
    sheet.mkdir(parents=True)
    (sheet / "SKILL.md").write_text(
        skill_md("spreadsheet-cleanup", "Clean messy spreadsheets - dedupe rows, fix dates, normalise columns."),
        encoding="utf-8",
    )
    runbook = root / "plugins" / "ops-kit" / "skills" / "outage-runbook"
    runbook.mkdir(parents=True)
    (runbook / "SKILL.md").write_text(
        skill_md(
            "outage-runbook",
            "Guide an incident response during a production outage - triage, mitigate, roll back, postmortem.",
        ),
        encoding="utf-8",
    )
    return root
