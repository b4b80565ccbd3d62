"""A generated skill collection for the import benchmarks: realistic SKILL.md folders, fixed seed.

Each skill has front matter (name, description, license, metadata with triggers and keywords, now
and then `allowed-tools`), a body of 2 to 6 KB (headings, steps, a fenced code block, a table), and
about a third carry resource files (a script, a reference page, now and then a binary asset); one in
ten has an evals file. Nothing here is committed: the benchmarks write it into a temp folder.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

WORDS = [
    "deploy",
    "review",
    "audit",
    "docker",
    "kubernetes",
    "migration",
    "schema",
    "test",
    "pytest",
    "release",
    "incident",
    "rollback",
    "latency",
    "profile",
    "refactor",
    "api",
    "graphql",
    "security",
    "xss",
    "owasp",
    "commit",
    "rebase",
    "branch",
    "changelog",
    "terraform",
    "helm",
    "grafana",
    "alert",
    "queue",
    "cache",
    "index",
    "vacuum",
    "backup",
    "restore",
    "pdf",
    "invoice",
    "contract",
    "ledger",
    "budget",
    "forecast",
    "sprint",
    "retro",
    "onboarding",
    "accessibility",
    "contrast",
    "typography",
    "layout",
    "component",
    "storybook",
    "lint",
    "format",
    "coverage",
]

PROSE = (
    "Read the request twice and name the outcome before acting.",
    "Prefer the smallest change that makes the check pass, then widen it only with evidence.",
    "Quote the exact file and line you rely on; never paraphrase an error message.",
    "When two sources disagree, say which one you trust and why.",
    "Run the project's own tooling instead of guessing its conventions.",
    "Stop and ask when the request would delete data or rewrite history.",
    "Keep the output short, a summary line then the details a reviewer needs.",
    "Record what you changed and how you verified it in the final message.",
)


def _body(rnd: random.Random, name: str, words: list[str], size: int) -> str:
    parts = [f"# {name.replace('-', ' ').title()}\n", f"Use this skill for {words[0]} and {words[1]} work.\n"]
    n = 0
    while sum(len(p) for p in parts) < size:
        n += 1
        parts.append(f"\n## Step {n}: {rnd.choice(words)} {rnd.choice(WORDS)}\n\n")
        parts.append(" ".join(rnd.choice(PROSE) for _ in range(rnd.randint(3, 6))) + "\n\n")
        parts.extend(f"- {rnd.choice(WORDS)}: {rnd.choice(PROSE)}\n" for _ in range(rnd.randint(2, 5)))
        if n % 2 == 0:
            parts.append(
                f"\n```bash\n{rnd.choice(words)} --check {rnd.choice(WORDS)}/\n{rnd.choice(WORDS)} run --all\n```\n"
            )
        if n % 3 == 0:
            parts.append("\n| input | expected |\n|---|---|\n")
            parts.extend(f"| {rnd.choice(WORDS)} | {rnd.choice(WORDS)} |\n" for _ in range(3))
    return "".join(parts)


def write_collection(dest: Path, n: int, seed: int = 26) -> dict[str, int]:
    """Write `n` skill folders under `dest`; returns counts (skills, files, bytes)."""
    rnd = random.Random(seed)
    stats = {"skills": 0, "files": 0, "bytes": 0}
    for i in range(n):
        words = rnd.sample(WORDS, 6)
        name = f"{words[0]}-{words[1]}-{i:05d}"
        folder = dest / f"group-{i % 40:02d}" / name
        folder.mkdir(parents=True)
        triggers = ", ".join([words[0], f"{words[1]} {words[2]}", f"{words[3]} checks"])
        keywords = ", ".join([words[4], words[5], f"kw{i}"])
        tools = "\nallowed-tools: Bash(git:*) Read" if i % 7 == 0 else ""
        head = (
            f"---\nname: {name}\ndescription: {rnd.choice(PROSE)} Use when the operator asks about {words[0]}, "
            f"{words[1]} or {words[2]} in a {words[3]} setting.\nlicense: MIT{tools}\nmetadata:\n"
            f'  triggers: "{triggers}"\n  keywords: "{keywords}"\n  version: "1.{i % 9}"\n---\n\n'
        )
        text = head + _body(rnd, name, words, rnd.randint(2000, 6000))
        files = {"SKILL.md": text.encode("utf-8")}
        if i % 3 == 0:
            files["scripts/check.py"] = (
                f'"""{name}: the check this skill runs."""\n\nimport sys\n\n\ndef main() -> int:\n'
                f'    print("{words[0]} ok")\n    return 0\n\n\nif __name__ == "__main__":\n    sys.exit(main())\n'
            ).encode()
            files["references/guide.md"] = _body(rnd, f"{name} guide", words, rnd.randint(1000, 3000)).encode()
        if i % 17 == 0:
            files["assets/logo.bin"] = rnd.randbytes(rnd.randint(512, 4096))
        if i % 10 == 0:
            rules = [
                {"id": f"mentions-{words[0]}", "type": "string_contains", "value": words[0], "severity": "warning"}
            ]
            files[f"{name}.evals.json"] = json.dumps({"version": 1, "skill": name, "rules": rules}).encode()
        for rel, data in files.items():
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            stats["files"] += 1
            stats["bytes"] += len(data)
        stats["skills"] += 1
    return stats
