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

import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from lorekeeper.archives import ArchiveLimits, is_zip, unpack_zip
from lorekeeper.errors import InvalidInputError, InvalidSpecError
from lorekeeper.fsutil import not_regular, shown_path, walk
from lorekeeper.skills.files import IGNORED_DIRS, MB, Limits
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
    try:
        st = path.stat()
    except OSError as exc:
        raise InvalidInputError(f"cannot read {shown_path(path)}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise not_regular(path, st.st_mode, "import source")
    if not is_zip(path):
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
    for dirpath, dirnames, filenames in walk(root, what="the import source"):
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


def _litter(name: str) -> bool:
    return name.split("/", 1)[0] in IGNORED_DIRS or "/__MACOSX/" in f"/{name}"


def archive_limits(limits: Limits) -> ArchiveLimits:
    """The unpack limits of a skill archive: the skill limits per file; in all, four skills' worth
    (at least 200 MB); the shared member count and expansion ratio bounds."""
    return ArchiveLimits(
        max_file=limits.max_file,
        max_total=max(4 * limits.max_skill, 200 * MB),
        file_limit_hint="[skills] max_file_mb in lorekeeper.toml",
    )


def unpack(archive: Path, dest: Path, limits: Limits) -> None:
    """Unpack a zip safely (`lorekeeper.archives`): no path outside `dest`, no symlinks or special
    members, sizes, member count and expansion ratio capped; modes kept."""
    unpack_zip(archive, dest, archive_limits(limits), shown=shown_path(archive.name), skip=_litter)
