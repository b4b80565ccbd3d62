"""Parse and validate Agent Skills folders: `<name>/SKILL.md` and `<name>/<name>.evals.json`.

Front matter follows the Agent Skills specification: `name` (1-64 chars, lowercase letters,
digits and hyphens, no leading/trailing/double hyphen, equal to the folder name), `description`
(1-1024 chars), optional `license`, `compatibility` (<= 500 chars), `metadata` (string to string)
and `allowed-tools`. Router words live in `metadata.triggers` / `metadata.keywords`, each a
comma-separated string. Every error names the file and the field.
"""

from __future__ import annotations

import json
import re
import stat
import unicodedata
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from lorekeeper import safeyaml
from lorekeeper.errors import InvalidSpecError, LorekeeperError, UnsafeInputError
from lorekeeper.evals.rules import RuleSet, parse_rules_text
from lorekeeper.fsutil import decode_text, not_regular, read_regular_bytes, shown_path, utf8_name
from lorekeeper.skills.files import DEFAULT_MAX_FILE_MB, MB, Limits, SkillFile, read_folder_files

MAX_NAME = 64
MAX_DESCRIPTION = 1024
MAX_COMPATIBILITY = 500
ALLOWED_FIELDS = ("name", "description", "license", "compatibility", "metadata", "allowed-tools")
# Claude Code's documented SKILL.md fields (and a few common ones): accepted with a warning, kept verbatim
CLAUDE_CODE_FIELDS = (
    "version",
    "argument-hint",
    "user-invocable",
    "disable-model-invocation",
    "model",
    "context",
    "agent",
    "hooks",
    "when_to_use",
    "author",
    "tags",
)
SKILL_FILE = "SKILL.md"
#: front matter is a few fields (the description is at most 1,024 characters): far below these
FRONT_MATTER_LIMITS = safeyaml.YamlLimits(max_chars=64 * 1024, max_depth=32, max_aliases=50, max_nodes=5_000)


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
    #: every other file of the folder; None: not read (an edit keeps the current version's files)
    files: tuple[SkillFile, ...] | None = None
    blobs: dict[str, bytes] = field(default_factory=dict, repr=False, compare=False)

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


def validate_name(name: object, *, file: str, folder: str | None = None, line: int | None = None) -> str:
    errs = name_errors(name, file=file, folder=folder, line=line)
    if errs:
        raise errs[0]
    assert isinstance(name, str)
    return unicodedata.normalize("NFKC", name.strip())


def name_errors(
    name: object, *, file: str, folder: str | None = None, line: int | None = None
) -> list[InvalidSpecError]:
    """Every rule of the reference validator on `name` (one error per broken rule)."""

    def err(msg: str) -> InvalidSpecError:
        return InvalidSpecError(msg, file=file, field="name", line=line)

    if not isinstance(name, str) or not name.strip():
        return [err("'name' is required and must be a non-empty string")]
    name = unicodedata.normalize("NFKC", name.strip())
    out: list[InvalidSpecError] = []
    if len(name) > MAX_NAME:
        out.append(err(f"'name' is {len(name)} characters; at most {MAX_NAME}"))
    if name != name.lower():
        out.append(err(f"'name' {name!r} must be lowercase"))
    if name.startswith("-") or name.endswith("-"):
        out.append(err(f"'name' {name!r} must not start or end with a hyphen"))
    if "--" in name:
        out.append(err(f"'name' {name!r} must not contain consecutive hyphens"))
    if not all(c.isalnum() or c == "-" for c in name):
        out.append(err(f"'name' {name!r} may only hold letters, digits and hyphens"))
    if folder is not None and unicodedata.normalize("NFKC", folder) != name:
        out.append(err(f"'name' {name!r} must match its folder name {folder!r}"))
    return out


@dataclass(frozen=True)
class SpecCheck:
    """Everything a SKILL.md check found: the document when valid, every error, every warning."""

    doc: SkillDoc | None
    errors: tuple[InvalidSpecError, ...] = ()
    warnings: tuple[InvalidSpecError, ...] = ()


_FENCE = re.compile(r"^---[ \t]*\r?$", re.MULTILINE)


def split_front_matter(text: str) -> tuple[str, str, int] | None:
    """(front matter YAML, body, offset of the YAML in text) or None when there is no front matter."""
    t = text[1:] if text.startswith("\ufeff") else text
    shift = len(text) - len(t)
    first = _FENCE.match(t)
    if first is None:
        return None
    start = first.end() + 1
    close = _FENCE.search(t, start) if start <= len(t) else None
    if close is None:
        return None
    return t[start : close.start()], t[close.end() :].strip(), start + shift


def _plain(node: yaml.Node, source: str) -> Any:
    """A YAML node as plain data where every scalar is its source text (`2026-02-06`, `1.10`, `true`
    stay strings, as the reference validator's strict YAML reads them); duplicate keys raise."""
    if isinstance(node, yaml.ScalarNode):
        return "" if node.tag.endswith(":null") and node.value in ("", "~", "null", "Null", "NULL") else node.value
    if isinstance(node, yaml.SequenceNode):
        return [_plain(n, source) for n in node.value]
    if isinstance(node, yaml.MappingNode):
        out: dict[str, Any] = {}
        for k, v in node.value:
            key = _plain(k, source)
            key = key if isinstance(key, str) else source[k.start_mark.index : k.end_mark.index]
            if key in out:
                raise _DuplicateKey(key, k.start_mark.line)
            out[key] = _plain(v, source)
        return out
    return None


_YAML_TYPES = {"int": "a number", "float": "a number", "bool": "a boolean", "null": "null", "timestamp": "a date"}


def _typed_scalar(root: Any, key: str) -> tuple[str, str] | None:
    """(source text, what YAML reads it as) when the top-level `key` is a plain scalar that YAML
    resolves to a number, boolean, null or date (`description: 12345`): agents' YAML readers see
    no string there, so a field that must be one is refused. None otherwise."""
    if not isinstance(root, yaml.MappingNode):
        return None
    for k, v in root.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key and isinstance(v, yaml.ScalarNode) and v.style is None:
            kind = _YAML_TYPES.get(v.tag.rsplit(":", 1)[-1])
            if kind is not None and v.value not in ("", "~"):
                return v.value, kind
    return None


class _DuplicateKey(Exception):
    def __init__(self, key: str, line: int) -> None:
        super().__init__(key)
        self.key, self.line = key, line


def check_skill_md(
    text: str, *, file: str = SKILL_FILE, folder: str | None = None, max_bytes: int = DEFAULT_MAX_FILE_MB * MB
) -> SpecCheck:
    """Check a SKILL.md text against the Agent Skills rules: every error (file, field, line) and
    every warning (fields outside the spec, kept verbatim). `folder`: the name it must match;
    `max_bytes`: its size limit (the per-file limit of skills). Hostile text (NUL characters, an
    alias bomb, deep nesting, too large) is refused before its YAML is built."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        return SpecCheck(
            None,
            (
                UnsafeInputError(
                    f"SKILL.md is {size / MB:.1f} MB; the limit is {max_bytes / MB:g} MB "
                    "([skills] max_file_mb in lorekeeper.toml)",
                    code="ERR_INPUT_TOO_LARGE",
                    file=file,
                ),
            ),
        )
    if "\0" in text:
        at = text.index("\0")
        return SpecCheck(
            None,
            (
                InvalidSpecError(
                    "SKILL.md holds a NUL character: it must be text", file=file, line=text.count("\n", 0, at) + 1
                ),
            ),
        )
    split = split_front_matter(text)
    if split is None:
        return SpecCheck(
            None, (InvalidSpecError("SKILL.md must start with YAML front matter between '---' lines", file=file),)
        )
    yaml_text, body, offset = split
    line0 = text.count("\n", 0, offset) + 1  # file line of the YAML's first line
    try:
        root = safeyaml.compose(yaml_text, limits=FRONT_MATTER_LIMITS, what=file, line0=line0)
        meta_raw = _plain(root, yaml_text) if root is not None else {}
    except UnsafeInputError as exc:  # an alias bomb, too deep, too large: refused before it is built
        return SpecCheck(None, (exc,))
    except _DuplicateKey as dup:
        return SpecCheck(
            None,
            (
                InvalidSpecError(
                    f"duplicate key {dup.key!r} in the front matter: keep one",
                    file=file,
                    field=dup.key,
                    line=line0 + dup.line,
                ),
            ),
        )
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = line0 + mark.line if mark is not None else None
        return SpecCheck(None, (InvalidSpecError(f"front matter is not valid YAML: {exc}", file=file, line=line),))
    if not isinstance(meta_raw, dict):
        return SpecCheck(None, (InvalidSpecError("the front matter must be a YAML mapping", file=file, line=line0),))
    meta: dict[str, Any] = meta_raw
    lines: dict[str, int] = {}
    if isinstance(root, yaml.MappingNode):
        for k, _v in root.value:
            if isinstance(k, yaml.ScalarNode):
                lines[k.value] = line0 + k.start_mark.line
    errors: list[InvalidSpecError] = []
    warnings: list[InvalidSpecError] = []

    def err(msg: str, fld: str, key: str | None = None) -> None:
        errors.append(InvalidSpecError(msg, file=file, field=fld, line=lines.get(key or fld.split(".")[0])))

    for key in meta:
        if key in ALLOWED_FIELDS:
            continue
        if key in CLAUDE_CODE_FIELDS:
            why = f"{key!r} is a Claude Code field, not an Agent Skills one"
        else:
            why = f"unknown front matter field {key!r}"
        warnings.append(
            InvalidSpecError(
                f"{why}: kept verbatim in SKILL.md, not used by Lorekeeper", file=file, field=key, line=lines.get(key)
            )
        )
    typed = {key: t for key in ("name", "description") if (t := _typed_scalar(root, key)) is not None}
    for key, (value, kind) in typed.items():
        err(f"{key!r} must be a string: YAML reads {value!r} as {kind}; put it in quotes", key)
    name = meta.get("name")
    if "name" in typed:
        pass
    elif "name" not in meta:
        err("'name' is required and must be a non-empty string", "name")
    else:
        errors.extend(name_errors(name, file=file, folder=folder, line=lines.get("name")))
    desc = meta.get("description")
    if "description" in typed:
        pass
    elif not isinstance(desc, str) or not desc.strip():
        err("'description' is required and must be a non-empty string", "description")
    elif len(desc.strip()) > MAX_DESCRIPTION:
        err(f"'description' is {len(desc.strip())} characters; at most {MAX_DESCRIPTION}", "description")
    compat = meta.get("compatibility")
    if compat is not None:
        if not isinstance(compat, str):
            err("'compatibility' must be a string", "compatibility")
        elif len(compat) > MAX_COMPATIBILITY:
            err(f"'compatibility' is {len(compat)} characters; at most {MAX_COMPATIBILITY}", "compatibility")
    lic = meta.get("license")
    if lic is not None and not isinstance(lic, str):
        err("'license' must be a string", "license")
    tools = meta.get("allowed-tools")
    if isinstance(tools, list) and all(isinstance(t, str) for t in tools):
        tools = " ".join(tools)
    elif tools is not None and not isinstance(tools, str):
        err("'allowed-tools' must be a space-delimited string or a list of tool names", "allowed-tools")
        tools = None
    md = meta.get("metadata")
    metadata: dict[str, str] = {}
    if md is not None and md != "" and not isinstance(md, dict):
        err("'metadata' must be a mapping of string keys to string values", "metadata")
    elif isinstance(md, dict):
        md_node = (
            next((v for k, v in root.value if isinstance(k, yaml.ScalarNode) and k.value == "metadata"), None)
            if isinstance(root, yaml.MappingNode)
            else None
        )
        sources: dict[str, str] = {}
        if isinstance(md_node, yaml.MappingNode):
            for k, v in md_node.value:
                sources[str(_plain(k, yaml_text))] = yaml_text[v.start_mark.index : v.end_mark.index]
        for k, v in md.items():
            if isinstance(v, list) and k in ("triggers", "keywords"):
                v = ", ".join(str(x) for x in v)
            elif not isinstance(v, str):  # nested metadata: its YAML source text, as written
                v = sources.get(k, str(v)).strip()
            metadata[k] = v
    if errors:
        return SpecCheck(None, tuple(errors), tuple(warnings))
    assert isinstance(name, str) and isinstance(desc, str)
    doc = SkillDoc(
        name=unicodedata.normalize("NFKC", name.strip()),
        description=desc.strip(),
        content=text,
        body=body,
        metadata=metadata,
        license=lic if isinstance(lic, str) else None,
        compatibility=compat if isinstance(compat, str) else None,
        allowed_tools=tools if isinstance(tools, str) else None,
    )
    return SpecCheck(doc, (), tuple(warnings))


def parse_skill_md(
    text: str, *, file: str = SKILL_FILE, folder: str | None = None, max_bytes: int = DEFAULT_MAX_FILE_MB * MB
) -> SkillDoc:
    """Validate a SKILL.md text (kept byte for byte in `content`); raise its first error.
    `folder` is the directory name it must match, when known; `max_bytes` its size limit."""
    check = check_skill_md(text, file=file, folder=folder, max_bytes=max_bytes)
    if check.doc is None:
        raise check.errors[0]
    return check.doc


def _named(exc: LorekeeperError, file: str) -> InvalidSpecError:
    """A read error as a spec error of `file` (the path inside the import source), code kept."""
    if isinstance(exc, InvalidSpecError) and exc.file == file:
        return exc
    msg = exc.message
    if isinstance(exc, InvalidSpecError) and exc.file and msg.startswith(f"{exc.file}: "):
        msg = msg[len(exc.file) + 2 :]
    return UnsafeInputError(msg, code=exc.code, file=file)


_FOLDER = object()  # read_skill_dir's default: the name must match the folder's own name


def check_skill_dir(
    path: Path, *, display: str | None = None, folder: object = _FOLDER, limits: Limits | None = None
) -> SpecCheck:
    """Read and check one skill folder: SKILL.md (byte for byte), its evals file and every other
    file. Every error is collected (not only the first). `display` names the folder in errors (the
    path inside the import source, never a temporary folder); `folder=None` skips the name check
    (a skill at the root of an archive is named by its `name`)."""
    path = Path(path)
    shown = display if display is not None else str(path)
    if not utf8_name(shown):
        return SpecCheck(
            None,
            (
                UnsafeInputError(
                    "the skill folder's name is not UTF-8: rename it", code="ERR_NOT_UTF8", file=shown_path(shown)
                ),
            ),
        )
    md_file = f"{shown}/{SKILL_FILE}"
    md = path / SKILL_FILE
    limits = limits or Limits()
    try:
        st = md.lstat()
    except OSError:
        return SpecCheck(None, (InvalidSpecError(f"no {SKILL_FILE} in skill folder", file=shown),))
    if stat.S_ISLNK(st.st_mode):
        return SpecCheck(None, (InvalidSpecError("symlinks are refused: SKILL.md must be a file", file=md_file),))
    if not stat.S_ISREG(st.st_mode):
        return SpecCheck(None, (_named(not_regular(md, st.st_mode, "SKILL.md"), md_file),))
    try:
        raw = read_regular_bytes(md, limit=limits.max_file, what="SKILL.md", follow=False)
    except LorekeeperError as exc:
        return SpecCheck(None, (_named(exc, md_file),))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return SpecCheck(
            None, (InvalidSpecError(f"SKILL.md is not UTF-8 (invalid byte at offset {exc.start})", file=md_file),)
        )
    want = path.name if folder is _FOLDER else folder
    assert want is None or isinstance(want, str)
    check = check_skill_md(text, file=md_file, folder=want, max_bytes=limits.max_file)
    errors = list(check.errors)
    warnings = list(check.warnings)
    doc = check.doc
    name = doc.name if doc is not None else None
    evals_text = ""
    evals_size = 0
    if name is not None:
        evals = path / evals_filename(name)
        if evals.is_file() and not evals.is_symlink():
            ev_file = f"{shown}/{evals_filename(name)}"
            try:
                ev_raw = read_regular_bytes(evals, limit=limits.max_file, what="evals file", follow=False)
                evals_size = len(ev_raw)
                evals_text = decode_text(ev_raw, ev_file, what="evals file", encoding="utf-8-sig")
                rs = parse_rules_text(evals_text, file=ev_file)
                if rs.skill is not None and rs.skill != name:
                    errors.append(
                        InvalidSpecError(
                            f"'skill' is {rs.skill!r} but the skill is {name!r}", file=ev_file, field="skill"
                        )
                    )
            except InvalidSpecError as exc:
                errors.append(exc)
            except LorekeeperError as exc:
                errors.append(_named(exc, ev_file))
    exclude = {SKILL_FILE} | ({evals_filename(name)} if name and evals_text else set())
    files, blobs, file_errors = read_folder_files(
        path, display=shown, limits=limits, exclude=exclude, counted=len(raw) + evals_size
    )
    errors.extend(file_errors)
    if errors or doc is None:
        return SpecCheck(None, tuple(errors), tuple(warnings))
    return SpecCheck(replace(doc, evals_text=evals_text, files=tuple(files), blobs=blobs), (), tuple(warnings))


def read_skill_dir(
    path: Path, *, display: str | None = None, folder: object = _FOLDER, limits: Limits | None = None
) -> SkillDoc:
    """Read and validate one skill folder (all its files); raise its first error."""
    check = check_skill_dir(path, display=display, folder=folder, limits=limits)
    if check.doc is None:
        raise check.errors[0]
    return check.doc


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
