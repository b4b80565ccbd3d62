"""Where skills are found in what an operator imports: real collections have real layouts.

A source is a folder or an archive (a `.zip`, a GitHub "Download ZIP" archive `repo-main/...`, or a
`.skill` file, which is a zip of one skill folder). Skills are found at any depth (`skills/*`,
`plugins/*/skills/*`, nested collections, hidden folders such as `.curated/`): a folder holding a
SKILL.md is a skill, and everything below it is its files. `__MACOSX/` and `.git/` are ignored.
A skill at the root of an archive (or under its single wrapping folder) is named by its `name`
(its folder is the archive, not a name). Every path shown to the operator is the path inside the
source (`pack.zip:skills/pdf/SKILL.md`, the archive as given), never the temporary folder an archive is unpacked into.
"""

from __future__ import annotations

import os
import stat
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from lorekeeper.errors import InvalidSpecError
from lorekeeper.skills.files import IGNORED_DIRS, MB, Limits, safe_relpath
from lorekeeper.skills.spec import SKILL_FILE

ARCHIVE_SUFFIXES = (".zip", ".skill")
FORKS_DIR = "_forks"  # the workspace's skills/_forks/<project>/<name>/ (a name cannot start with '_')


@dataclass(frozen=True)
class FoundSkill:
    """One skill folder in a source."""

    dir: Path  # on disk (inside the temporary folder for an archive)
    display: str  # the folder as the operator knows it: inside the source
    match_folder: str | None  # the name SKILL.md must carry (None: archive root, named by `name`)


@dataclass(frozen=True)
class SkillSource:
    path: Path  # what the operator gave
    root: Path  # where its files are on disk
    skills: list[FoundSkill]
    archive: bool

    def display(self, p: Path) -> str:
        rel = p.relative_to(self.root).as_posix()
        if self.archive:
            return f"{self.path}:{rel}" if rel != "." else str(self.path)
        return str(self.path / rel) if rel != "." else str(self.path)


@contextmanager
def open_source(path: Path, limits: Limits | None = None) -> Iterator[SkillSource]:
    """The skills in a folder or an archive (unpacked to a temporary folder for the duration)."""
    path = Path(path)
    limits = limits or Limits()
    if path.is_dir():
        src = SkillSource(path, path, [], archive=False)
        yield SkillSource(path, path, find_skills(src), archive=False)
        return
    if not zipfile.is_zipfile(path):
        raise InvalidSpecError(
            "not a skill folder or an archive (.zip, .skill): give a folder holding SKILL.md, or a zip of one",
            file=str(path),
        )
    with tempfile.TemporaryDirectory(prefix="lk-import-") as tmp:
        root = Path(tmp)
        unpack(path, root, limits)
        src = SkillSource(path, root, [], archive=True)
        yield SkillSource(path, root, find_skills(src), archive=True)


def find_skills(src: SkillSource) -> list[FoundSkill]:
    root = src.root
    found: list[FoundSkill] = []
    wrapper = _single_wrapper(root) if src.archive else None
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        dirnames[:] = sorted(d for d in dirnames if d not in IGNORED_DIRS and not (here / d).is_symlink())
        if here == root and FORKS_DIR in dirnames and SKILL_FILE not in filenames:
            dirnames.remove(FORKS_DIR)  # a workspace's skills/ folder: its project forks are not global skills
        if SKILL_FILE in filenames:
            at_root = src.archive and here in (root, wrapper)
            if at_root:
                match: str | None = None
            elif here == root:  # the folder given is itself a skill
                match = src.path.resolve().name
            else:
                match = here.name
            found.append(FoundSkill(here, src.display(here), match))
            dirnames[:] = []  # everything below a skill is its files
    return found


def _single_wrapper(root: Path) -> Path | None:
    """The one folder an archive wraps everything in (`repo-main/`, `my-skill/`), if any."""
    entries = [p for p in root.iterdir() if p.name not in IGNORED_DIRS and p.name != ".DS_Store"]
    if len(entries) == 1 and entries[0].is_dir():
        return entries[0]
    return None


def unpack(archive: Path, dest: Path, limits: Limits) -> None:
    """Unpack a zip safely: no path outside `dest`, no symlinks, sizes capped; modes kept."""
    shown = str(archive.name)
    with zipfile.ZipFile(archive) as zf:
        members = zf.infolist()
        total = 0
        for m in members:
            name = m.filename
            if name.split("/", 1)[0] in IGNORED_DIRS or "/__MACOSX/" in f"/{name}":
                continue
            try:
                rel = safe_relpath(name.rstrip("/"), file=shown)
            except InvalidSpecError:
                raise InvalidSpecError(
                    f"unsafe path in archive: {name} (it would land outside the import)", file=shown
                ) from None
            mode = (m.external_attr >> 16) & 0xFFFF
            if stat.S_ISLNK(mode):
                raise InvalidSpecError(
                    "symlinks are refused (a skill must hold its own files): replace it with the file it points to",
                    file=f"{shown}:{rel}",
                )
            if m.is_dir():
                continue
            if m.file_size > limits.max_file:
                raise InvalidSpecError(
                    f"file is {m.file_size / MB:.1f} MB; the limit is {limits.max_file / MB:g} MB per file "
                    "([skills] max_file_mb in lorekeeper.toml)",
                    file=f"{shown}:{rel}",
                )
            total += m.file_size
        if total > 4 * limits.max_skill and total > 200 * MB:
            raise InvalidSpecError(f"the archive unpacks to {total / MB:.0f} MB: too large to import", file=shown)
        for m in members:
            name = m.filename
            if m.is_dir() or name.split("/", 1)[0] in IGNORED_DIRS or "/__MACOSX/" in f"/{name}":
                continue
            rel = safe_relpath(name, file=shown)
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            with zf.open(m) as fh, open(target, "wb") as out:
                read = 0
                while chunk := fh.read(1 << 20):
                    read += len(chunk)
                    if read > limits.max_file:  # the header lied about the size
                        raise InvalidSpecError(f"file is larger than its archive header says: {rel}", file=shown)
                    out.write(chunk)
            perms = ((m.external_attr >> 16) & 0o777) if m.create_system == 3 else 0
            os.chmod(target, perms if perms & 0o400 else 0o644)
