"""Parse and validate Agent Skills folders: `<name>/SKILL.md` and `<name>/<name>.evals.json`.

Front matter follows the Agent Skills specification: `name` (1-64 chars, lowercase letters,
digits and hyphens, no leading/trailing/double hyphen, equal to the folder name), `description`
(1-1024 chars), optional `license`, `compatibility` (<= 500 chars), `metadata` (string to string)
and `allowed-tools`. Router words live in `metadata.triggers` / `metadata.keywords`, each a
comma-separated string. Every error names the file and the field.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import frontmatter
import yaml

from lorekeeper.errors import InvalidSpecError
from lorekeeper.evals.rules import RuleSet, parse_rules_text

MAX_NAME = 64
MAX_DESCRIPTION = 1024
MAX_COMPATIBILITY = 500
ALLOWED_FIELDS = ("name", "description", "license", "compatibility", "metadata", "allowed-tools")
SKILL_FILE = "SKILL.md"


def evals_filename(name: str) -> str:
    return f"{name}.evals.json"


def split_terms(raw: Any) -> tuple[str, ...]:
    """`"review, code review, audit"` -> ("review", "code review", "audit"); lists are accepted too."""
    if raw is None:
        return ()
    items = raw if isinstance(raw, (list, tuple)) else str(raw).split(",")
    out: list[str] = []
    for item in items:
        term = " ".join(str(item).split())
        if term and term not in out:
            out.append(term)
    return tuple(out)


@dataclass(frozen=True)
class SkillDoc:
    """One skill as written on disk: its SKILL.md text and its rules text."""

    name: str
    description: str
    content: str  # the whole SKILL.md, front matter included
    body: str
    metadata: dict[str, str] = field(default_factory=dict)
    license: str | None = None
    compatibility: str | None = None
    allowed_tools: str | None = None
    evals_text: str = ""

    @property
    def triggers(self) -> tuple[str, ...]:
        return split_terms(self.metadata.get("triggers"))

    @property
    def keywords(self) -> tuple[str, ...]:
        return split_terms(self.metadata.get("keywords"))

    def rules(self) -> RuleSet:
        if not self.evals_text.strip():
            return RuleSet(rules=(), skill=self.name)
        return parse_rules_text(self.evals_text, file=evals_filename(self.name))


def validate_name(name: object, *, file: str, folder: str | None = None) -> str:
    if not isinstance(name, str) or not name.strip():
        raise InvalidSpecError("'name' is required and must be a non-empty string", file=file, field="name")
    name = unicodedata.normalize("NFKC", name.strip())
    if len(name) > MAX_NAME:
        raise InvalidSpecError(f"'name' is {len(name)} characters; at most {MAX_NAME}", file=file, field="name")
    if name != name.lower():
        raise InvalidSpecError(f"'name' {name!r} must be lowercase", file=file, field="name")
    if name.startswith("-") or name.endswith("-"):
        raise InvalidSpecError(f"'name' {name!r} must not start or end with a hyphen", file=file, field="name")
    if "--" in name:
        raise InvalidSpecError(f"'name' {name!r} must not contain consecutive hyphens", file=file, field="name")
    if not all(c.isalnum() or c == "-" for c in name):
        raise InvalidSpecError(f"'name' {name!r} may only hold letters, digits and hyphens", file=file, field="name")
    if folder is not None and unicodedata.normalize("NFKC", folder) != name:
        raise InvalidSpecError(f"'name' {name!r} must match its folder name {folder!r}", file=file, field="name")
    return name


def parse_skill_md(text: str, *, file: str = SKILL_FILE, folder: str | None = None) -> SkillDoc:
    """Validate a SKILL.md text. `folder` is the directory name it must match, when known."""
    if not text.lstrip("\ufeff").startswith("---"):
        raise InvalidSpecError("SKILL.md must start with YAML front matter between '---' lines", file=file)
    try:
        post = frontmatter.loads(text.lstrip("\ufeff"))
    except yaml.YAMLError as exc:
        raise InvalidSpecError(f"front matter is not valid YAML: {exc}", file=file) from None
    meta = dict(post.metadata)
    unknown = [k for k in meta if k not in ALLOWED_FIELDS]
    if unknown:
        raise InvalidSpecError(
            f"unexpected front matter field(s) {', '.join(map(str, unknown))}; allowed: {', '.join(ALLOWED_FIELDS)}",
            file=file,
            field=str(unknown[0]),
        )
    name = validate_name(meta.get("name"), file=file, folder=folder)
    desc = meta.get("description")
    if not isinstance(desc, str) or not desc.strip():
        raise InvalidSpecError(
            "'description' is required and must be a non-empty string", file=file, field="description"
        )
    desc = desc.strip()
    if len(desc) > MAX_DESCRIPTION:
        raise InvalidSpecError(
            f"'description' is {len(desc)} characters; at most {MAX_DESCRIPTION}", file=file, field="description"
        )
    compat = meta.get("compatibility")
    if compat is not None:
        if not isinstance(compat, str):
            raise InvalidSpecError("'compatibility' must be a string", file=file, field="compatibility")
        if len(compat) > MAX_COMPATIBILITY:
            raise InvalidSpecError(
                f"'compatibility' is {len(compat)} characters; at most {MAX_COMPATIBILITY}",
                file=file,
                field="compatibility",
            )
    lic = meta.get("license")
    if lic is not None and not isinstance(lic, str):
        raise InvalidSpecError("'license' must be a string", file=file, field="license")
    tools = meta.get("allowed-tools")
    if tools is not None and not isinstance(tools, str):
        raise InvalidSpecError("'allowed-tools' must be a space-delimited string", file=file, field="allowed-tools")
    md = meta.get("metadata") or {}
    if not isinstance(md, dict):
        raise InvalidSpecError(
            "'metadata' must be a mapping of string keys to string values", file=file, field="metadata"
        )
    metadata: dict[str, str] = {}
    for k, v in md.items():
        if not isinstance(k, str):
            raise InvalidSpecError("'metadata' keys must be strings", file=file, field="metadata")
        if isinstance(v, list) and k in ("triggers", "keywords"):
            v = ", ".join(str(x) for x in v)
        if not isinstance(v, (str, int, float)) or isinstance(v, bool):
            raise InvalidSpecError(f"'metadata.{k}' must be a string", file=file, field=f"metadata.{k}")
        metadata[k] = str(v)
    return SkillDoc(
        name=name,
        description=desc,
        content=text.lstrip("\ufeff"),
        body=post.content,
        metadata=metadata,
        license=lic,
        compatibility=compat,
        allowed_tools=tools,
    )


def read_skill_dir(path: Path) -> SkillDoc:
    """Read and validate one skill folder (SKILL.md and, when present, its evals file)."""
    path = Path(path)
    md = path / SKILL_FILE
    if not md.is_file():
        raise InvalidSpecError(f"no {SKILL_FILE} in skill folder", file=str(path))
    try:
        text = md.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InvalidSpecError("SKILL.md is not UTF-8", file=str(md)) from None
    doc = parse_skill_md(text, file=str(md), folder=path.name)
    evals = path / evals_filename(doc.name)
    evals_text = ""
    if evals.is_file():
        try:
            evals_text = evals.read_text(encoding="utf-8-sig")
        except UnicodeDecodeError:
            raise InvalidSpecError("evals file is not UTF-8", file=str(evals)) from None
        rs = parse_rules_text(evals_text, file=str(evals))
        if rs.skill is not None and rs.skill != doc.name:
            raise InvalidSpecError(
                f"'skill' is {rs.skill!r} but the skill is {doc.name!r}", file=str(evals), field="skill"
            )
    return SkillDoc(**{**doc.__dict__, "evals_text": evals_text})


def find_skill_dirs(root: Path) -> list[Path]:
    """Skill folders under root: root itself if it holds SKILL.md, else its direct children that do."""
    root = Path(root)
    if (root / SKILL_FILE).is_file():
        return [root]
    return sorted(p for p in root.iterdir() if p.is_dir() and (p / SKILL_FILE).is_file())


def normalise_evals_text(text: str, name: str) -> str:
    """Pretty-print a rules document consistently (keeps every field the user wrote)."""
    if not text.strip():
        return ""
    data = json.loads(text)
    if isinstance(data, dict) and "skill" not in data:
        data = {"version": data.get("version", 1), "skill": name, **{k: v for k, v in data.items() if k != "version"}}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
