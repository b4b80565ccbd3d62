"""Skill sources to discover skills in, search, compatibility notes, install and fork.

A source is one of:
- `folder`: a local folder holding skill folders at any depth (a folder with SKILL.md);
- `git`: a git checkout (a local one is read in place; a URL is cloned, `--depth 1`, under the
  workspace's `sources/market/<name>/`);
- `zip`: a zip archive of skills (extracted once per archive content into `sources/market/.cache/`);
- `marketplace`: a Claude Code plugin marketplace, `.claude-plugin/marketplace.json` (or the folder
  holding it): every plugin it lists with a local `source` ("./plugins/x", relative to the
  marketplace root or to `metadata.pluginRoot`), its skills under `<plugin>/skills/`, or the
  folders its `skills` list names. Plugins with a remote source (github, url, npm) are listed as
  skipped: Lorekeeper does not download them behind the operator's back.

Search ranks the skills of every source by BM25 over name + description (the router's
`TextIndex`). A compatibility note for a project says what the skill needs and how it overlaps:
the tools in its `allowed-tools`, the scripts it ships or runs, and the installed skills (what the
project sees) whose description is closest to its own. With a configured model, the model also
reads the skill and the project's skills and writes a short verdict.

Install: the skill's folder goes through the library's ordinary import (globally, or into a
project, where it forks/overrides the global skill of that name); an existing skill of the same
name in that scope is never replaced here.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from sqlalchemy import select

from lorekeeper import safejson, safeyaml
from lorekeeper.archives import ArchiveLimits, is_zip, unpack_zip
from lorekeeper.errors import InvalidInputError, InvalidSpecError, LorekeeperError, NotFoundError
from lorekeeper.fsutil import MIB, not_regular, read_regular_text, shown_path, too_large, walk
from lorekeeper.jobs import Progress, drive
from lorekeeper.llm.service import LLMService
from lorekeeper.skills.library import ImportReport, SkillLibrary
from lorekeeper.skills.spec import SKILL_FILE, check_skill_dir, split_front_matter
from lorekeeper.skills.textindex import TextIndex
from lorekeeper.store.engine import Store
from lorekeeper.store.models import MarketSource, utcnow
from lorekeeper.store.scopes import validate_project

KINDS = ("folder", "git", "zip", "marketplace")
MARKETPLACE_FILE = Path(".claude-plugin") / "marketplace.json"
SKIP_DIRS = {".git", "node_modules", "__MACOSX", ".venv", "__pycache__"}
_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")
_SCRIPT_REF = re.compile(r"(?<![\w/.-])((?:scripts|bin|tools)/[\w./-]+\.(?:py|sh|js|ts|mjs|rb|pl|ps1))")
_RUNS = re.compile(r"`((?:python3?|node|bash|sh|npx|uv run|pip install|npm install)\s[^`\n]{1,80})`")
OVERLAP_SHOW = 3  # installed skills named in a note
MARKET_SKILL_MD_LIMIT = 10 * MIB  # a listing reads SKILL.md only: the import applies the real limits
MARKETPLACE_JSON_LIMIT = 10 * MIB
#: a zip source unpacks into the cache within these bounds (the shared ratio and member limits)
ZIP_SOURCE_LIMITS = ArchiveLimits(max_file=50 * MIB, max_total=500 * MIB)
OVERLAP_MIN = 0.1  # an installed skill overlaps when its similarity (see `_overlaps`) is at least this
NOTE_PROMPT = """You advise an operator who considers adding an Agent Skill to a project.

The candidate skill ({name}, from {source}):
<skill>
{content}
</skill>

The skills the project already has (name: description):
{installed}

Facts found without a model: {facts}

In at most 5 short lines: does it fit this project, what it needs (tools, scripts, accounts), and
whether it duplicates or conflicts with an installed skill (name it). End with a line
`VERDICT: install`, `VERDICT: fork` (adapt it to the project) or `VERDICT: skip`.
"""


@dataclass(frozen=True)
class SourceInfo:
    name: str
    kind: str
    location: str
    origin: str
    skills: int = 0
    problems: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "kind": self.kind,
            "location": self.location,
            "origin": self.origin or None,
            "skills": self.skills,
            "problems": list(self.problems),
        }


@dataclass(frozen=True)
class MarketSkill:
    source: str
    name: str
    description: str
    path: Path  # the skill's folder
    plugin: str = ""
    allowed_tools: tuple[str, ...] = ()
    files: tuple[str, ...] = ()  # relative paths inside the folder
    content: str = ""
    where: str = ""  # the folder as the operator knows it: "SOURCE:path/inside/it" (never a temp folder)

    @property
    def ref(self) -> str:
        return f"{self.source}:{self.name}"

    @property
    def shown(self) -> str:
        return self.where or f"{self.source}:{self.name}"

    def to_dict(self) -> dict[str, object]:
        return {
            "ref": self.ref,
            "source": self.source,
            "plugin": self.plugin or None,
            "name": self.name,
            "description": self.description,
            "allowed_tools": list(self.allowed_tools),
            "files": list(self.files),
            "where": self.shown,
        }


@dataclass(frozen=True)
class Scan:
    source: SourceInfo
    skills: tuple[MarketSkill, ...]
    problems: tuple[str, ...] = ()
    refused: tuple[tuple[str, str], ...] = ()  # (name, why): skills found that the import would refuse


@dataclass(frozen=True)
class SearchHit:
    skill: MarketSkill
    score: float  # BM25/(1+BM25) of the query against name + description, in (0, 1)
    terms: tuple[str, ...]
    installed: bool = False  # a skill of that name is in the library already

    def to_dict(self) -> dict[str, object]:
        return {**self.skill.to_dict(), "score": self.score, "terms": list(self.terms), "installed": self.installed}


@dataclass(frozen=True)
class CompatNote:
    skill: MarketSkill
    project: str
    tools: tuple[str, ...]
    scripts: tuple[str, ...]
    runs: tuple[str, ...]
    overlaps: tuple[tuple[str, float], ...]  # (installed skill, similarity in (0, 1))
    exists: str  # "" | "global" | "project": a skill of that name already serves the project
    text: str
    model: str = ""
    model_note: str = ""

    def to_dict(self) -> dict[str, object]:
        return {
            "skill": self.skill.to_dict(),
            "project": self.project or None,
            "tools": list(self.tools),
            "scripts": list(self.scripts),
            "runs": list(self.runs),
            "overlaps": [{"name": n, "similarity": s} for n, s in self.overlaps],
            "exists": self.exists or None,
            "note": self.text,
            "model": self.model or None,
            "model_note": self.model_note or None,
        }


def _overlaps(sk: MarketSkill, installed: list[tuple[str, str]]) -> tuple[tuple[str, float], ...]:
    """Installed skills whose name + description resemble the skill's: BM25 of the skill's own text
    against each, divided by its BM25 against itself (1.0: as close as the skill to itself)."""
    index = TextIndex([*installed, (sk.name, sk.description)])
    hits = index.search(f"{sk.name} {sk.description}")
    self_score = next((h.bm25 for h in hits if h.index == len(installed)), 0.0)
    if self_score <= 0:
        return ()
    out = [
        (installed[h.index][0], round(min(h.bm25 / self_score, 1.0), 2))
        for h in hits
        if h.index != len(installed) and h.bm25 / self_score >= OVERLAP_MIN
    ]
    return tuple(out[:OVERLAP_SHOW])


def _score(bm25: float) -> float:
    return min(max(round(bm25 / (1.0 + bm25), 4), 0.0001), 0.9999)


def _split_tools(raw: Any) -> tuple[str, ...]:
    if raw is None:
        return ()
    items = raw if isinstance(raw, list) else re.split(r"[,\s]+(?![^()]*\))", str(raw))
    return tuple(dict.fromkeys(str(i).strip() for i in items if str(i).strip()))


def _file_digest(path: Path, limit: int) -> str:
    """SHA-256 of a regular file read in chunks (never all of it in memory), refused past `limit`."""
    st = path.stat()
    if not stat.S_ISREG(st.st_mode):
        raise not_regular(path, st.st_mode, "archive")
    if st.st_size > limit:
        raise too_large(shown_path(path), st.st_size, limit, "archive")
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def _skill_dirs(root: Path) -> list[Path]:
    """Folders holding a SKILL.md under root, at any depth (hidden and vendored folders skipped)."""
    out: list[Path] = []
    if (root / SKILL_FILE).is_file():
        return [root]
    stack = [root]
    while stack:
        d = stack.pop()
        try:
            children = sorted(p for p in d.iterdir() if p.is_dir() and not p.is_symlink())
        except OSError:
            continue
        for c in children:
            if c.name in SKIP_DIRS or c.name.startswith("."):
                continue
            if (c / SKILL_FILE).is_file():
                out.append(c)
            else:
                stack.append(c)
    return sorted(out)


def _folder_files(folder: Path) -> tuple[str, ...]:
    """The files of a skill folder (relative, sorted, `.git/` left out), by an iterative and
    depth-bounded walk: `rglob` recurses once per folder level (1,000 nested folders: a crash)."""
    out: list[str] = []
    for here, dirs, names in walk(folder, what="the skill"):
        dirs[:] = [d for d in dirs if d != ".git"]
        out.extend(str((Path(here) / n).relative_to(folder)) for n in names if (Path(here) / n).is_file())
    return tuple(sorted(out))


def read_market_skill(source: str, folder: Path, plugin: str = "", shown: Path | None = None) -> MarketSkill:
    """A skill folder as the market lists it; lenient (the import validates it for real)."""
    where = str(shown or folder)
    md_file = f"{where}/{SKILL_FILE}"
    try:
        text = read_regular_text(
            folder / SKILL_FILE, limit=MARKET_SKILL_MD_LIMIT, what="SKILL.md", encoding="utf-8-sig"
        )
        split = split_front_matter(text)
        loaded = safeyaml.safe_load(split[0], what=md_file) if split is not None else {}
        meta = loaded if isinstance(loaded, dict) else {}
    except yaml.YAMLError as exc:
        raise InvalidSpecError(f"unreadable SKILL.md: {exc}", file=md_file) from None
    except LorekeeperError as exc:  # a special file, too large, not UTF-8, a YAML bomb
        raise InvalidSpecError(f"unreadable SKILL.md: {exc.message}", file=md_file) from None
    name, desc = meta.get("name"), meta.get("description")
    if not isinstance(name, str) or not name.strip() or not isinstance(desc, str) or not desc.strip():
        raise InvalidSpecError("SKILL.md needs a name and a description", file=f"{where}/{SKILL_FILE}")
    try:
        files = _folder_files(folder)
    except LorekeeperError as exc:
        raise InvalidSpecError(f"unreadable skill folder: {exc.message}", file=where) from None
    return MarketSkill(
        source=source,
        name=name.strip(),
        description=" ".join(desc.split()),
        path=folder,
        plugin=plugin,
        allowed_tools=_split_tools(meta.get("allowed-tools")),
        files=files,
        content=text,
        where=f"{source}:{Path(where).as_posix()}" if shown is not None else "",
    )


class MarketService:
    def __init__(
        self,
        store: Store,
        skills: SkillLibrary,
        llm: LLMService,
        cache_dir: Path,
        git: Callable[[list[str]], None] | None = None,
    ) -> None:
        self.store = store
        self.skills = skills
        self.llm = llm
        self.cache_dir = cache_dir
        self._git = git or _run_git
        self._scans: dict[tuple[str, str, float], Scan] = {}

    # ------------------------------------------------------------------ sources
    def sources(self) -> list[SourceInfo]:
        with self.store.session() as s:
            rows = s.scalars(select(MarketSource).order_by(MarketSource.name)).all()
            return [SourceInfo(r.name, r.kind, r.location, r.origin) for r in rows]

    def source(self, name: str) -> SourceInfo:
        for src in self.sources():
            if src.name == name:
                return src
        raise NotFoundError(f"no marketplace source named {name!r}. `lorekeeper market list` shows them.")

    def add(self, location: str, name: str | None = None) -> Scan:
        """Register a source after scanning it once (it must hold at least one skill)."""
        loc = location.strip()
        if not loc:
            raise InvalidInputError("give a folder, a git checkout or URL, a zip, or a marketplace.json")
        is_url = bool(re.match(r"^(https?|ssh|git)://|^[\w.-]+@[\w.-]+:", loc))
        path = Path(loc).expanduser()
        if is_url:
            kind, origin = "git", loc
        else:
            path = path.resolve()
            if not path.exists():
                raise InvalidInputError(
                    f"nothing at {path}: give a folder, a git checkout or URL, a zip, or a marketplace.json"
                )
            origin = ""
            st = path.stat()
            if not (stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode)):
                raise not_regular(path, st.st_mode, "source")
            if path.is_file() and path.name == "marketplace.json":
                kind = "marketplace"
                path = path.parent.parent if path.parent.name == ".claude-plugin" else path.parent
            elif path.is_file():
                if not is_zip(path):
                    raise InvalidSpecError("not a zip archive, a folder or a marketplace.json", file=str(path))
                kind = "zip"
            elif os.path.lexists(path / MARKETPLACE_FILE):
                # a FIFO, device or link to one named marketplace.json is refused when read (issue
                # 24 d6), never silently skipped for a folder scan
                kind = "marketplace"
            elif (path / ".git").exists():
                kind = "git"
            else:
                kind = "folder"
        default = re.sub(r"\.(git|zip)$", "", (loc.rstrip("/").rsplit("/", 1)[-1] if is_url else path.name))
        name = (name or re.sub(r"[^a-z0-9._-]+", "-", default.lower()).strip("-.") or "source")[:64]
        if not _NAME.match(name):
            raise InvalidInputError(f"source name {name!r}: lowercase letters, digits, '.', '_' and '-'")
        if any(s.name == name for s in self.sources()):
            raise InvalidInputError(f"a source named {name!r} exists; remove it first or give --name")
        if is_url:
            path = self.cache_dir / name
            if path.exists():
                shutil.rmtree(path)
            path.parent.mkdir(parents=True, exist_ok=True)
            self._git(["clone", "--depth", "1", "--quiet", loc, str(path)])
        info = SourceInfo(name, kind, str(path), origin)
        scan = self._scan(info)
        if not scan.skills:
            raise InvalidSpecError(
                "no skill found (a folder with SKILL.md)" + (f": {scan.problems[0]}" if scan.problems else ""),
                file=loc,
            )
        with self.store.write() as s:
            s.add(MarketSource(name=name, kind=kind, location=str(path), origin=origin, added_at=utcnow()))
        return scan

    def remove(self, name: str) -> SourceInfo:
        info = self.source(name)
        with self.store.write() as s:
            row = s.scalar(select(MarketSource).where(MarketSource.name == name))
            if row is not None:
                s.delete(row)
        if info.origin:  # our own clone
            shutil.rmtree(info.location, ignore_errors=True)
        return info

    # ------------------------------------------------------------------ scanning
    def scan(self, name: str) -> Scan:
        return self._scan(self.source(name))

    def scan_all(self) -> list[Scan]:
        return drive(self.scan_all_steps, (), {})  # type: ignore[no-any-return]

    def scan_all_steps(self) -> Generator[Progress, None, list[Scan]]:
        """Every source scanned (a job: progress per source)."""
        srcs = self.sources()
        out = []
        for n, src in enumerate(srcs):
            yield Progress(n, len(srcs), f"scanning {src.name}")
            try:
                out.append(self._scan(src))
            except LorekeeperError as exc:
                out.append(Scan(src, (), (f"{exc.code}: {exc.message}",)))
        yield Progress(len(srcs), len(srcs), "scanned")
        return out

    def _stamp(self, info: SourceInfo) -> float:
        p = Path(info.location)
        marker = p / MARKETPLACE_FILE if info.kind == "marketplace" else p
        try:
            return marker.stat().st_mtime
        except OSError:
            return 0.0

    def _scan(self, info: SourceInfo) -> Scan:
        key = (info.name, info.location, self._stamp(info))
        cached = self._scans.get(key)
        if cached is not None:
            return cached
        root = Path(info.location)
        if not root.exists():
            raise NotFoundError(
                f"source {info.name}: {root} is gone; remove it (`lorekeeper market remove {info.name}`)"
            )
        problems: list[str] = []
        found: list[tuple[Path, str]] = []  # (folder, plugin)
        if info.kind == "zip":
            root = self._unzipped(root)
        if info.kind == "marketplace":
            found = self._marketplace_dirs(root, problems)
        else:
            found = [(d, "") for d in _skill_dirs(root)]
        skills: dict[str, MarketSkill] = {}
        refused: list[tuple[str, str]] = []
        for folder, plugin in found:
            shown = folder.relative_to(root) if folder.is_relative_to(root) else folder
            try:
                sk = read_market_skill(info.name, folder, plugin, shown)
            except LorekeeperError as exc:
                problems.append(f"{shown}: {exc.message}")
                continue
            # validated as the import will (issue 31): a skill the install would refuse is not offered
            check = check_skill_dir(folder, display=sk.shown, limits=self.skills.limits)  # name = folder, as import
            if check.doc is None:
                why = "; ".join(e.message for e in check.errors)
                problems.append(why)
                refused.append((sk.name, why))
                continue
            if sk.name in skills:
                problems.append(f"{shown}: a second skill named {sk.name!r} (the first is kept)")
                continue
            skills[sk.name] = sk
        scan = Scan(
            SourceInfo(info.name, info.kind, info.location, info.origin, len(skills), tuple(problems)),
            tuple(sorted(skills.values(), key=lambda s: s.name)),
            tuple(problems),
            tuple(refused),
        )
        self._scans = {k: v for k, v in self._scans.items() if k[0] != info.name}
        self._scans[key] = scan
        return scan

    def _unzipped(self, archive: Path) -> Path:
        """The zip source unpacked once per content into the cache, within ZIP_SOURCE_LIMITS."""
        digest = _file_digest(archive, ZIP_SOURCE_LIMITS.max_archive)[:16]
        dest = self.cache_dir / ".cache" / f"{archive.stem}-{digest}"
        if dest.is_dir():
            return dest
        made = [p for p in (self.cache_dir, self.cache_dir / ".cache") if not p.exists()]
        tmp = Path(tempfile.mkdtemp(prefix="unzip-", dir=self._ensure(self.cache_dir / ".cache")))
        try:
            unpack_zip(archive, tmp, ZIP_SOURCE_LIMITS, shown=shown_path(archive), keep_modes=False)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            for p in reversed(made):  # a refused archive leaves no trace, not even the cache folder
                with contextlib.suppress(OSError):
                    p.rmdir()
            raise
        tmp.rename(dest)
        return dest

    @staticmethod
    def _ensure(p: Path) -> Path:
        p.mkdir(parents=True, exist_ok=True)
        return p

    def _marketplace_dirs(self, root: Path, problems: list[str]) -> list[tuple[Path, str]]:
        file = root / MARKETPLACE_FILE
        try:
            data = safejson.loads(
                read_regular_text(file, limit=MARKETPLACE_JSON_LIMIT, what="marketplace.json"), what=str(file)
            )
        except (OSError, ValueError) as exc:
            raise InvalidSpecError(f"marketplace.json is not valid JSON: {exc}", file=str(MARKETPLACE_FILE)) from None
        plugins = data.get("plugins") if isinstance(data, dict) else None
        if not isinstance(plugins, list):
            raise InvalidSpecError(
                "marketplace.json has no 'plugins' list", file=str(MARKETPLACE_FILE), field="plugins"
            )
        meta = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
        plugin_root = root / str(meta.get("pluginRoot") or ".")
        out: list[tuple[Path, str]] = []
        for n, entry in enumerate(plugins):
            if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
                problems.append(f"plugins[{n}]: an entry needs a name")
                continue
            pname = entry["name"]
            src = entry.get("source", "./")
            if not isinstance(src, str):
                kind = src.get("source", "?") if isinstance(src, dict) else type(src).__name__
                problems.append(f"plugin {pname}: remote source ({kind}) not fetched; add it as its own source")
                continue
            base = (root if src.startswith("./") or src in (".", "./") else plugin_root) / src
            base = base.resolve()
            if not base.is_relative_to(root.resolve()):
                problems.append(f"plugin {pname}: source {src!r} is outside the marketplace")
                continue
            listed = entry.get("skills")
            if isinstance(listed, list) and listed:
                dirs = [(base / str(p)).resolve() for p in listed]
                for d in dirs:
                    if (d / SKILL_FILE).is_file():
                        out.append((d, pname))
                    else:
                        out.extend((x, pname) for x in _skill_dirs(d))
            elif (base / "skills").is_dir():
                out.extend((d, pname) for d in _skill_dirs(base / "skills"))
            elif base.is_dir():
                got = _skill_dirs(base)
                if not got:
                    problems.append(f"plugin {pname}: no skills in {src}")
                out.extend((d, pname) for d in got)
            else:
                problems.append(f"plugin {pname}: {src} does not exist")
        seen: set[Path] = set()
        return [(d, p) for d, p in out if not (d in seen or seen.add(d))]  # type: ignore[func-returns-value]

    # ------------------------------------------------------------------ search and show
    def catalogue(self, source: str | None = None) -> list[MarketSkill]:
        scans = [self.scan(source)] if source else self.scan_all()
        return [sk for sc in scans for sk in sc.skills]

    def search(self, query: str, *, source: str | None = None, top: int = 20) -> list[SearchHit]:
        """Skills sharing a word with the query, by BM25 over name + description; an empty query lists all."""
        skills = self.catalogue(source)
        installed = {i.name for i in self.skills.list()}
        if not query.strip():
            return [SearchHit(s, 0.0, (), s.name in installed) for s in skills][: max(top, 0)]
        index = TextIndex([(s.name, s.description) for s in skills])
        return [
            SearchHit(skills[h.index], _score(h.bm25), h.terms, skills[h.index].name in installed)
            for h in index.search(query, top)
        ]

    def find(self, ref: str) -> MarketSkill:
        """`SOURCE:NAME` or `NAME` (then it must be unique across sources)."""
        src, _, name = ref.rpartition(":")
        scans = [self.scan(src)] if src else self.scan_all()
        matches = [s for sc in scans for s in sc.skills if s.name == name]
        if not matches:
            why = next((w for sc in scans for n, w in sc.refused if n == name), None)
            if why is not None:
                raise InvalidSpecError(f"{name} is in the marketplace but cannot be installed: {why}")
            raise NotFoundError(f"no skill {ref!r} in the marketplaces. `lorekeeper market search` lists them.")
        if len(matches) > 1:
            raise InvalidInputError(
                f"{name!r} is in several sources ({', '.join(m.source for m in matches)}): say which, as SOURCE:{name}"
            )
        return matches[0]

    def note(self, ref: str | MarketSkill, project: str | None = None, *, use_model: bool | None = None) -> CompatNote:
        """What the skill needs and how it overlaps with what `project` (or the global library) has."""
        sk = ref if isinstance(ref, MarketSkill) else self.find(ref)
        project = validate_project(project)
        visible = self.skills.list(project=project or "")
        exists = ""
        for i in visible:
            if i.name == sk.name:
                exists = "project" if i.project else "global"
        others = [i for i in visible if i.name != sk.name]
        overlaps = _overlaps(sk, [(i.name, i.description) for i in others])
        scripts = tuple(f for f in sk.files if f.split("/", 1)[0] in ("scripts", "bin", "tools"))
        referenced = tuple(dict.fromkeys(m.group(1) for m in _SCRIPT_REF.finditer(sk.content)))
        missing = tuple(r for r in referenced if r not in sk.files)
        runs = tuple(dict.fromkeys(m.group(1).strip() for m in _RUNS.finditer(sk.content)))[:5]
        lines = []
        lines.append("Tools it asks for: " + (", ".join(sk.allowed_tools) if sk.allowed_tools else "none declared"))
        if scripts:
            lines.append(
                f"Scripts it ships ({len(scripts)}): " + ", ".join(scripts[:6]) + (" ..." if len(scripts) > 6 else "")
            )
        else:
            lines.append("Scripts it ships: none")
        if runs:
            lines.append("Commands it runs: " + "; ".join(runs))
        if missing:
            lines.append("Referenced but not in its folder: " + ", ".join(missing))
        where = f"project {project}" if project else "the global library"
        if exists:
            lines.append(
                f"Already installed: {sk.name} serves {where} ({'its fork' if exists == 'project' else 'global'})"
            )
        if overlaps:
            lines.append(
                f"Overlaps with installed skills of {where}: " + ", ".join(f"{n} ({s:.2f})" for n, s in overlaps)
            )
        else:
            lines.append(f"No installed skill of {where} covers the same ground")
        model = model_note = ""
        want_model = use_model is not False
        if want_model:
            status = self.llm.status()
            if status.ready:
                provider = self.llm.provider()
                facts = " / ".join(lines)
                installed_text = "\n".join(f"- {i.name}: {i.description[:200]}" for i in visible[:60]) or "(none)"
                model_note = provider.complete(
                    NOTE_PROMPT.format(
                        name=sk.name, source=sk.source, content=sk.content[:6000], installed=installed_text, facts=facts
                    )
                ).strip()
                model = f"{provider.name}:{provider.model}"
            elif use_model:
                from lorekeeper.llm.base import LLMUnavailableError

                raise LLMUnavailableError(f"the note needs a model: {status.reason}")
        text = "\n".join([*lines, *([model_note] if model_note else [])])
        return CompatNote(sk, project, sk.allowed_tools, scripts, runs, overlaps, exists, text, model, model_note)

    # ------------------------------------------------------------------ install
    def install(self, ref: str | MarketSkill, project: str | None = None) -> ImportReport:
        """Install globally, or into `project` (a fork that overrides the global skill of that name there).
        Never replaces a skill of the same name in the same scope."""
        sk = ref if isinstance(ref, MarketSkill) else self.find(ref)
        project = validate_project(project)
        with _staged(sk) as folder:
            try:
                if self.skills.exists(sk.name, project):
                    # the same skill again is "unchanged" (exit 0); another one of that name is never replaced
                    probe = self.skills.import_path(folder, project or None, on_conflict="ask", dry_run=True)
                    if sk.name in probe.unchanged:
                        probe.dry_run = False
                        return _unstaged_report(probe, folder, sk)
                    where = f"project {project}" if project else "the global library"
                    raise InvalidInputError(
                        f"{sk.name} exists in {where} with other content; fork it into a project (--project P), "
                        "or import it with `lorekeeper skills import` to choose what happens to the existing one"
                    )
                report = self.skills.import_path(
                    folder, project or None, message=f"installed from marketplace {sk.source}"
                )
            except LorekeeperError as exc:
                raise _unstaged_error(exc, folder, sk) from None
            return _unstaged_report(report, folder, sk)


def _run_git(args: list[str]) -> None:
    try:
        subprocess.run(["git", *args], check=True, capture_output=True, text=True, timeout=300)
    except FileNotFoundError:
        raise InvalidInputError("git is not installed: clone the repository yourself and add the folder") from None
    except subprocess.CalledProcessError as exc:
        raise InvalidInputError(f"git {' '.join(args[:1])} failed: {exc.stderr.strip()[:300]}") from None
    except subprocess.TimeoutExpired:
        raise InvalidInputError("git clone took longer than 5 minutes; clone it yourself and add the folder") from None


def _unstage(value: Any, folder: Path, sk: MarketSkill) -> Any:
    """`value` with the staged copy's path replaced by where the skill is in its source."""
    if isinstance(value, str):
        return value.replace(str(folder), sk.shown).replace(str(folder.parent), sk.source)
    if isinstance(value, dict):
        return {k: _unstage(v, folder, sk) for k, v in value.items()}
    if isinstance(value, list):
        return [_unstage(v, folder, sk) for v in value]
    return value


def _unstaged_error(exc: LorekeeperError, folder: Path, sk: MarketSkill) -> LorekeeperError:
    """The same error, naming the source and the path inside it instead of the temporary copy."""
    exc.message = _unstage(exc.message, folder, sk)
    exc.args = (exc.message,)
    exc.details = _unstage(dict(exc.details), folder, sk)
    if isinstance(exc, InvalidSpecError) and exc.file:
        exc.file = _unstage(exc.file, folder, sk)
    return exc


def _unstaged_report(report: ImportReport, folder: Path, sk: MarketSkill) -> ImportReport:
    for key in ("exists", "invalid", "warnings"):
        setattr(report, key, _unstage(getattr(report, key), folder, sk))
    return report


@contextmanager
def _staged(sk: MarketSkill) -> Iterator[Path]:
    """A copy of the skill's folder named after the skill (the import checks folder == name)."""
    with tempfile.TemporaryDirectory(prefix="lk-market-") as tmp:
        folder = Path(tmp) / sk.name
        shutil.copytree(sk.path, folder, symlinks=True, ignore=shutil.ignore_patterns(".git"))
        yield folder
