"""One check of an import source, shared by `skills validate` and `skills import` (issue 27 d4).

Both commands read a source (a folder of skills at any depth, an archive) through this module, so
they agree on every skill: the same errors (every error of a skill, not only the first), the same
refusal of a name present twice (both copies), the same eval-rule check, the same warnings. The
warnings (front matter fields outside the spec, kept verbatim) are grouped by code and field so a
collection with hundreds of them reads as a few counted lines.

`rename_to_folder`: a skill whose `name` differs from its folder (4 of the 7 skills of one public
collection) is read as the folder's name: only the front matter's `name:` line changes (and the
`skill` field of its evals file). A folder whose name is not a valid skill name cannot be used.
"""

from __future__ import annotations

import json
import re
from collections.abc import Generator, Iterable, Mapping
from dataclasses import dataclass, field, replace

from lorekeeper.errors import InvalidInputError, InvalidSpecError, LorekeeperError
from lorekeeper.jobs import Progress
from lorekeeper.skills.files import Limits
from lorekeeper.skills.sources import SkillSource
from lorekeeper.skills.spec import SKILL_FILE, SkillDoc, check_skill_dir, name_errors, parse_skill_md
from lorekeeper.skills.triggers import parse_cases, trigger_file

_NAME_LINE = re.compile(r"^(name[ \t]*:[ \t]*)(.*?)([ \t]*)(\r?)$", re.MULTILINE)


@dataclass
class SourceCheck:
    """What a source holds, skill by skill."""

    #: the valid skills: (document, its path in the source)
    docs: list[tuple[SkillDoc, str]] = field(default_factory=list)
    #: the refused ones: {"path", "errors": [every error as a dict]}
    invalid: list[dict[str, object]] = field(default_factory=list)
    #: front matter fields outside the spec (kept, reported), as error dicts
    warnings: list[dict[str, object]] = field(default_factory=list)
    #: load-time warnings of the eval rules ("name: text")
    rule_warnings: list[str] = field(default_factory=list)
    #: skills read under their folder's name (`rename_to_folder`): {"from", "to", "path"}
    folder_renames: list[dict[str, str]] = field(default_factory=list)
    #: names present more than once: name -> every path
    duplicates: dict[str, list[str]] = field(default_factory=dict)
    #: the first error met (what a strict import raises)
    first_error: LorekeeperError | None = None

    def refuse(self, path: str, errors: Iterable[LorekeeperError]) -> None:
        errs = list(errors)
        if self.first_error is None and errs:
            self.first_error = errs[0]
        self.invalid.append({"path": path, "errors": [e.to_dict() for e in errs]})


def rename_doc(doc: SkillDoc, new: str) -> SkillDoc:
    """The same skill under another name: only the front matter's `name:` line changes."""
    text = doc.content
    end = text.find("\n---", 3)
    head, tail = (text[:end], text[end:]) if end >= 0 else (text, "")
    head, n = _NAME_LINE.subn(lambda m: f"{m.group(1)}{new}{m.group(3)}{m.group(4)}", head, count=1)
    if n != 1:
        raise InvalidInputError(f"cannot rename {doc.name!r}: no `name:` line in its front matter")
    renamed = parse_skill_md(head + tail, file=f"{new}/{SKILL_FILE}")
    return replace(renamed, evals_text=doc.evals_text, files=doc.files, blobs=doc.blobs)


def renamed_evals(text: str, new: str) -> str:
    """An evals file's text with its `skill` field set to `new` (a list of rules has none)."""
    data = json.loads(text)
    if isinstance(data, dict):
        data["skill"] = new
    return json.dumps(data)


def check_source_steps(
    source: SkillSource, limits: Limits | None, *, rename_to_folder: bool = False
) -> Generator[Progress, None, SourceCheck]:
    """Check every skill of `source`; yields `Progress` per skill, returns the `SourceCheck`."""
    out = SourceCheck()
    total = len(source.skills)
    for n, found in enumerate(source.skills):
        yield Progress(n, total, f"reading {found.display}")
        folder = found.match_folder
        if rename_to_folder and folder is not None:
            check = check_skill_dir(found.dir, display=found.display, folder=None, limits=limits)
        else:
            check = check_skill_dir(found.dir, display=found.display, folder=folder, limits=limits)
        out.warnings.extend(w.to_dict() for w in check.warnings)
        doc = check.doc
        if doc is None:
            out.refuse(found.display, check.errors)
            continue
        if rename_to_folder and folder is not None and doc.name != folder:
            bad = name_errors(folder, file=f"{found.display}/{SKILL_FILE}")
            if bad:
                reasons = "; ".join(e.message for e in bad)
                out.refuse(
                    found.display,
                    [
                        InvalidSpecError(
                            f"--rename-to-folder: the folder name {folder!r} is not a valid skill name ({reasons})",
                            file=f"{found.display}/{SKILL_FILE}",
                            field="name",
                        )
                    ],
                )
                continue
            old = doc.name
            try:
                doc = rename_doc(doc, folder)
                if doc.evals_text.strip():
                    doc = replace(doc, evals_text=renamed_evals(doc.evals_text, folder))
            except (LorekeeperError, ValueError) as exc:
                err = exc if isinstance(exc, LorekeeperError) else InvalidSpecError(str(exc), file=found.display)
                out.refuse(found.display, [err])
                continue
            out.folder_renames.append({"from": old, "to": folder, "path": found.display})
        try:
            rules = doc.rules()
            _check_triggers(doc, found.display)
        except LorekeeperError as exc:
            out.refuse(found.display, [exc])
            continue
        out.rule_warnings.extend(f"{doc.name}: {w}" for w in rules.warnings)
        out.docs.append((doc, found.display))
    by_name: dict[str, list[str]] = {}
    for doc, shown in out.docs:
        by_name.setdefault(doc.name, []).append(shown)
    out.duplicates = {name: where for name, where in by_name.items() if len(where) > 1}
    for dup, where in sorted(out.duplicates.items()):
        for shown in where:
            others = ", ".join(w for w in where if w != shown)
            err = InvalidSpecError(
                f"skill {dup!r} is present twice in the import (also at {others}): import one",
                file=shown,
                field="name",
            )
            out.invalid.append({"path": shown, "errors": [err.to_dict()]})
    if out.duplicates:
        out.docs = [(d, w) for d, w in out.docs if d.name not in out.duplicates]
    return out


def _check_triggers(doc: SkillDoc, shown: str) -> None:
    """A trigger file that does not parse refuses the skill (as the trigger eval would fail on it)."""
    files = {f.path: f for f in doc.files or ()}
    path = trigger_file(list(files), doc.name)
    if path is not None:
        parse_cases(doc.blobs.get(files[path].sha256, b""), file=f"{shown}/{path}")


def group_warnings(warnings: Iterable[Mapping[str, object]], *, examples: int = 3) -> list[dict[str, object]]:
    """Warnings grouped by (code, field), largest group first: {"code", "field", "count",
    "message" (the first one's), "files" (up to `examples`)}."""
    groups: dict[tuple[str, str], dict[str, object]] = {}
    for w in warnings:
        key = (str(w.get("code", "")), str(w.get("field", "") or ""))
        g = groups.get(key)
        if g is None:
            g = groups[key] = {
                "code": key[0],
                "field": key[1],
                "count": 0,
                "message": w.get("message", ""),
                "files": [],
            }
        g["count"] = int(g["count"]) + 1  # type: ignore[call-overload]
        files = g["files"]
        assert isinstance(files, list)
        if len(files) < examples and w.get("file"):
            files.append(w.get("file"))
    return sorted(groups.values(), key=lambda g: (-int(g["count"]), str(g["code"]), str(g["field"])))  # type: ignore[call-overload]


def warning_lines(warnings: list[dict[str, object]], *, quiet: bool) -> list[str]:
    """What the CLI prints on stderr: one line per group (`quiet`: one line in all)."""
    if not warnings:
        return []
    groups = group_warnings(warnings)
    summary = ", ".join(f"{g['field'] or g['code']}: {g['count']}" for g in groups)
    if quiet:
        return [f"warnings: {len(warnings)} ({summary})"]
    lines = []
    for g in groups:
        if g["count"] == 1:
            lines.append(f"warning: {g['message']}")
            continue
        message, fld = str(g["message"]), str(g["field"])
        bare = message.split(f"field {fld}: ", 1)[-1] if fld else message  # the location goes in "e.g."
        files = g["files"]
        assert isinstance(files, list)
        more = int(g["count"]) - len(files)  # type: ignore[call-overload]
        where = ", ".join(str(f) for f in files) + (f" and {more} more" if more > 0 else "")
        lines.append(f"warning: {g['count']}x {bare} (in {where})")
    lines.append(f"warnings: {len(warnings)} ({summary}); --quiet-warnings prints this line only")
    return lines
