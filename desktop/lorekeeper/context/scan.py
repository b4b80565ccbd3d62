"""Walk a source tree the way a developer sees it: no VCS folders, caches, dependencies or binaries.

Ignore rules are git's own (pathspec's GitIgnoreSpec): every `.gitignore` from the repository's
top down to each directory (a deeper file overrides a higher one, the last matching line wins,
`!negations`, anchored `/x` and directory `x/` patterns), then `.git/info/exclude`. A
`.lorekeeperignore` anywhere in the tree takes the same syntax and overrides the `.gitignore`
beside it. A file excluded this way is never read.

Files that look like secrets (`.env`, private keys, keystores, credential files) are left out by
default and listed among the skipped, as are files that are not regular (FIFOs, devices, sockets,
symlinks to them, symlinks leading out of the tree): such a file is never opened for reading, so a
FIFO cannot hang a pack. A file name that is not valid UTF-8 is shown with `\\xNN` escapes.
Paths come back sorted, with forward slashes, so a pack is the same on every machine.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from pathspec import GitIgnoreSpec

from lorekeeper.dbfiles import is_database_file

IGNORED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".idea",
        ".vscode",
        "dist",
        "build",
        "target",
        ".eggs",
        ".next",
        "coverage",
        ".cache",
        "site-packages",
    }
)
IGNORED_SUFFIXES = (".pyc", ".pyo", ".so", ".dll", ".dylib", ".lock", ".min.js", ".map", ".egg-info")
MAX_FILE_BYTES = 1_000_000  # larger files are listed as skipped: generated or data, not code to read
BINARY_SNIFF_BYTES = 8192  # a NUL byte in this prefix marks a binary file
IGNORE_FILES = (".gitignore", ".lorekeeperignore")  # per directory, in this order (the later wins)

# Names that hold credentials far more often than code: left out unless asked for (include_secrets).
SECRET_SPEC = GitIgnoreSpec.from_lines(
    [
        ".env",
        ".env.*",
        "!.env.example",
        "!.env.sample",
        "!.env.template",
        "!.env.dist",
        "!.env.defaults",
        "*.pem",
        "*.key",
        "*.p12",
        "*.pfx",
        "*.jks",
        "*.keystore",
        "*.kdbx",
        "*.ppk",
        "*.gpg",
        "*.asc",
        "id_rsa",
        "id_dsa",
        "id_ecdsa",
        "id_ed25519",
        "*_rsa",
        "*_dsa",
        "*_ecdsa",
        "*_ed25519",
        ".netrc",
        ".pgpass",
        ".pypirc",
        ".htpasswd",
        "credentials.json",
        ".aws/credentials",
        "secrets.yml",
        "secrets.yaml",
        "secrets.json",
        ".secrets",
        "*.tfvars",
    ]
)
SECRET_REASON = "looks like a secret (left out by default)"


@dataclass
class Source:
    rel: str
    text: str


@dataclass
class Skipped:
    rel: str
    reason: str


def _is_plain_skip(reason: str) -> bool:
    """A regular file not packed for its content (binary, too large, a database, unreadable)."""
    return reason in ("binary", "an SQLite database file") or reason.startswith(("larger than", "unreadable"))


def skipped_notes(skipped: list[Skipped], shown: int = 8) -> list[str]:
    """The pack's header lines about files not read: secrets and what is not a regular file (FIFOs,
    devices, sockets, symlinks to them, out of the tree or to folders) by name, with the reason
    (the user should know); binary and oversized files counted."""
    secrets = [s.rel for s in skipped if s.reason == SECRET_REASON]
    special = [f"{s.rel} ({s.reason})" for s in skipped if s.reason != SECRET_REASON and not _is_plain_skip(s.reason)]
    plain = len(skipped) - len(secrets) - len(special)
    lines = []
    if secrets:
        more = f" (+{len(secrets) - shown} more)" if len(secrets) > shown else ""
        lines.append(f"# left out as likely secrets: {', '.join(secrets[:shown])}{more}")
    if special:
        more = f" (+{len(special) - shown} more)" if len(special) > shown else ""
        lines.append(f"# skipped, not regular files: {', '.join(special[:shown])}{more}")
    if plain:
        lines.append(f"# skipped: {plain} binary or oversized files")
    return lines


def display_name(name: str) -> str:
    """`name` as printable UTF-8: bytes that are not UTF-8 (kept by os as surrogates) become \\xNN."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        return os.fsencode(name).decode("utf-8", "backslashreplace")


def is_secret(rel: str) -> bool:
    return SECRET_SPEC.match_file(rel)


class IgnoreRules:
    """Git's exclusion rules for one walk: a GitIgnoreSpec per directory that has ignore files."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.specs: dict[str, GitIgnoreSpec] = {}  # dir relative to root ("" = root) -> its rules
        # rules above the root (the enclosing repository's top down to the root's parent) and
        # info/exclude, as (prefix of root inside that dir, spec), most specific first
        self.outer: list[tuple[str, GitIgnoreSpec]] = []
        top, gitdir = _repository(root)
        if top is not None:
            parts = Path(os.path.realpath(root)).relative_to(top).parts  # root may be relative
            for depth in range(len(parts) - 1, -1, -1):
                base = top.joinpath(*parts[:depth])
                spec = _read_spec(base)
                if spec is not None:
                    self.outer.append(("/".join(parts[depth:]) + "/", spec))
            if gitdir is not None:
                lines = _lines(gitdir / "info" / "exclude")
                if lines:
                    self.outer.append(("/".join(parts) + "/" if parts else "", GitIgnoreSpec.from_lines(lines)))

    def load(self, reldir: str, dirpath: str, filenames: list[str]) -> None:
        if any(n in filenames for n in IGNORE_FILES):
            spec = _read_spec(Path(dirpath))
            if spec is not None:
                self.specs[reldir] = spec

    def ignored(self, rel: str, is_dir: bool) -> bool:
        """Whether `rel` (relative to the root, its parents not ignored) is excluded."""
        probe = rel + "/" if is_dir else rel
        d = rel.rpartition("/")[0] if "/" in rel else ""
        while True:  # the deepest ignore file first: it overrides those above it
            spec = self.specs.get(d)
            if spec is not None:
                hit = _verdict(spec, probe[len(d) + 1 :] if d else probe)
                if hit is not None:
                    return hit
            if not d:
                break
            d = d.rpartition("/")[0] if "/" in d else ""
        for prefix, spec in self.outer:
            hit = _verdict(spec, prefix + probe)
            if hit is not None:
                return hit
        return False


def _verdict(spec: GitIgnoreSpec, probe: str) -> bool | None:
    """The last line of `spec` that matches `probe` itself decides (True: ignored, False: a negation).

    A directory's own rules are applied when the walk reaches it (an ignored directory is never
    entered, so nothing below it can be re-included, as in git). A line that matches `probe` only
    through one of its parent directories is therefore skipped here: `*` then `!*/` re-includes
    directories, never the files in them. `probe` ends with "/" for a directory.
    """
    for pattern in reversed(spec.patterns):
        if pattern.include is None:
            continue
        result = pattern.match_file(probe)
        if result is None:
            continue
        m = getattr(result, "match", None)
        # a directory mark that ends before `probe` does: a parent directory matched, not `probe`
        if m is not None and "ps_d" in m.re.groupindex and m.start("ps_d") != -1 and m.end("ps_d") != len(probe):
            continue
        return bool(pattern.include)
    return None


def scan(root: Path, *, include_secrets: bool = False) -> tuple[list[Source], list[Skipped]]:
    root = Path(root)
    if root.is_file() or not root.is_dir():
        name = display_name(root.name)
        if is_database_file(root):
            return [], [Skipped(name, "an SQLite database file")]
        try:  # the path given is a FIFO, a device or a link to one: refused, naming it (never read)
            mode = os.stat(root).st_mode
        except OSError:
            mode = None
        if mode is not None and not stat.S_ISREG(mode):
            from lorekeeper.fsutil import not_regular

            raise not_regular(root, mode, what="the path given")
        got = _read_regular(str(root))
        if isinstance(got, str):
            return [], [Skipped(name, got)]
        return [Source(name, _decode(got) or "")], []
    rules = IgnoreRules(root)
    real_root = os.path.realpath(root)
    sources: list[Source] = []
    skipped: list[Skipped] = []
    for dirpath, dirnames, filenames in os.walk(root):
        reldir = os.path.relpath(dirpath, root).replace(os.sep, "/")
        reldir = "" if reldir == "." else reldir
        rules.load(reldir, dirpath, filenames)
        keep = []
        for d in sorted(dirnames):
            rel = f"{reldir}/{d}".lstrip("/")
            if d in IGNORED_DIRS or d.endswith(".egg-info") or rules.ignored(rel, True):
                continue
            if os.path.islink(os.path.join(dirpath, d)):  # os.walk does not follow it: say so
                skipped.append(Skipped(display_name(rel), "a symlink to a directory (not followed)"))
                continue
            keep.append(d)
        dirnames[:] = keep
        for name in sorted(filenames):
            rel = f"{reldir}/{name}".lstrip("/")
            if name.endswith(IGNORED_SUFFIXES) or rules.ignored(rel, False):
                continue
            shown = display_name(rel)
            if not include_secrets and is_secret(rel):
                skipped.append(Skipped(shown, SECRET_REASON))
                continue
            path = os.path.join(dirpath, name)
            if is_database_file(name):  # never read behind SQLite's back (lorekeeper.dbfiles)
                skipped.append(Skipped(shown, "an SQLite database file"))
                continue
            got = _read_regular(path, real_root)
            if isinstance(got, str):
                skipped.append(Skipped(shown, got))
                continue
            text = _decode(got)
            if text is None:
                skipped.append(Skipped(shown, "binary"))
                continue
            sources.append(Source(shown, text))
    sources.sort(key=lambda s: s.rel)
    return sources, skipped


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a directory"
    return "not a regular file"


def _read_regular(path: str, real_root: str | None = None) -> bytes | str:
    """The bytes of a regular file, or why it is skipped: only regular files are ever opened."""
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode):
            try:
                st = os.stat(path)
            except OSError:
                return "a broken symlink"
            if not stat.S_ISREG(st.st_mode):
                return f"a symlink to {_kind(st.st_mode)}"
            target = os.path.realpath(path)
            if real_root is not None and os.path.commonpath([real_root, target]) != real_root:
                return "a symlink leading outside the tree"
        elif not stat.S_ISREG(st.st_mode):
            return _kind(st.st_mode)
        if st.st_size > MAX_FILE_BYTES:
            return f"larger than {MAX_FILE_BYTES:,} bytes"
        # O_NONBLOCK: should the file be swapped for a FIFO after the check, opening cannot block
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                return _kind(st.st_mode)
            if st.st_size > MAX_FILE_BYTES:
                return f"larger than {MAX_FILE_BYTES:,} bytes"
            with os.fdopen(fd, "rb", closefd=False) as f:
                return f.read(MAX_FILE_BYTES + 1)
        finally:
            os.close(fd)
    except FileNotFoundError:
        return "unreadable: it vanished during the scan"
    except OSError as exc:
        return f"unreadable: {exc.strerror or exc}"


def _decode(data: bytes) -> str | None:
    if b"\0" in data[:BINARY_SNIFF_BYTES]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        # legacy-encoded text (latin-1, cp1252) is still text a reader needs: keep it
        return data.decode("latin-1")


def _lines(path: Path) -> list[str]:
    try:
        if not path.is_file():
            return []
        return path.read_text(encoding="utf-8", errors="surrogateescape").splitlines()
    except OSError:
        return []


def _read_spec(directory: Path) -> GitIgnoreSpec | None:
    lines: list[str] = []
    for name in IGNORE_FILES:
        lines.extend(_lines(directory / name))
    return GitIgnoreSpec.from_lines(lines) if any(ln.strip() for ln in lines) else None


def _repository(root: Path) -> tuple[Path | None, Path | None]:
    """The top of the git work tree holding `root` and its git dir (None, None outside git)."""
    here = Path(os.path.realpath(root))
    for top in (here, *here.parents):
        dotgit = top / ".git"
        if dotgit.is_dir():
            return top, dotgit
        if dotgit.is_file():  # a worktree or submodule: "gitdir: <path>"
            text = "".join(_lines(dotgit))
            gitdir = Path(text.partition("gitdir:")[2].strip()) if "gitdir:" in text else None
            if gitdir is not None and not gitdir.is_absolute():
                gitdir = top / gitdir
            common = gitdir / "commondir" if gitdir is not None else None
            if common is not None and common.is_file():
                gitdir = (gitdir / "".join(_lines(common)).strip()) if gitdir else None
            return top, gitdir
    return None, None
