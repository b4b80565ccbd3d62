"""Which files `facts ingest` reads: markdown, text and source files of a folder or a git checkout.

In a git checkout the tracked and untracked-but-not-ignored files are listed by `git ls-files`
(so `.gitignore` is respected); elsewhere the folder is walked, skipping hidden folders and
dependency/build folders. Binary files, files that are not UTF-8 and files over 1 MiB are skipped
with a reason.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from lorekeeper.dbfiles import is_database_file
from lorekeeper.errors import LorekeeperError, UnsafeInputError
from lorekeeper.fsutil import read_regular_bytes, walk

MARKDOWN = frozenset({".md", ".markdown", ".mdx"})
TEXT = frozenset({".txt", ".rst", ".adoc", ".asciidoc", ".org", ".text"})
SOURCE = frozenset(
    {
        ".py", ".pyi", ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".go", ".java", ".kt", ".kts",
        ".rs", ".rb", ".php", ".cs", ".c", ".h", ".cc", ".cpp", ".hpp", ".swift", ".scala", ".sh",
        ".bash", ".sql", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".tf", ".proto", ".graphql",
        ".vue", ".svelte", ".lua", ".ex", ".exs", ".erl", ".dart", ".gradle",
    }
)  # fmt: skip
NAMED = frozenset({"Makefile", "Dockerfile", "Justfile", "README", "CODEOWNERS", "Jenkinsfile"})
SKIP_DIRS = frozenset(
    {"node_modules", "__pycache__", "venv", ".venv", "dist", "build", "target", "vendor", "site-packages"}
)
MAX_BYTES = 1 << 20


@dataclass(frozen=True)
class Candidate:
    origin: str  # the path relative to the ingested root, with '/'
    path: Path
    kind: str  # markdown | text | source


@dataclass(frozen=True)
class Skipped:
    origin: str
    reason: str


def kind_of(path: Path) -> str | None:
    suffix = path.suffix.lower()
    if suffix in MARKDOWN:
        return "markdown"
    if suffix in TEXT or path.name in NAMED:
        return "text"
    if suffix in SOURCE:
        return "source"
    return None


def _git_files(root: Path) -> list[str] | None:
    git = shutil.which("git")
    if git is None or not (root / ".git").exists():
        return None
    try:
        out = subprocess.run(
            [git, "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            capture_output=True,
            timeout=60,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return sorted({p for p in out.decode("utf-8", "replace").split("\0") if p})


def _walk(root: Path) -> list[str]:
    found: list[str] = []
    for dirpath, dirnames, filenames in walk(root, what="the documents folder"):  # iterative, depth-bounded
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIP_DIRS)
        for name in sorted(filenames):
            if name.startswith("."):
                continue
            found.append(Path(dirpath, name).relative_to(root).as_posix())
    return found


def scan(path: Path) -> tuple[Path, list[Candidate]]:
    """(root, files to read). `path` is a folder, a git checkout or a single file (its folder is
    the root, so its origin is its name)."""
    path = path.expanduser().resolve()
    if path.is_file():
        kind = kind_of(path) or "text"
        return path.parent, [Candidate(path.name, path, kind)]
    names = _git_files(path)
    if names is None:
        names = _walk(path)
    out: list[Candidate] = []
    for origin in names:
        p = path / origin
        found = kind_of(p)
        # a FIFO, device or socket (or a link to one) is a candidate too: reading it is refused
        # without blocking and the report names it among the skipped files (issue 24 d6)
        if found is not None and (p.is_file() or (p.exists() and not p.is_dir())):
            out.append(Candidate(origin, p, found))
    return path, out


def read_text(path: Path) -> str | Skipped:
    """The file's text, or why it is skipped."""
    if is_database_file(path):  # never read behind SQLite's back (lorekeeper.dbfiles)
        return Skipped(path.name, "an SQLite database file, not a document")
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            return Skipped(
                path.name,
                f"{size:,} bytes, over the {MAX_BYTES // 1024 // 1024} MiB limit on a document (split it, or quote a smaller file)",
            )
        data = read_regular_bytes(path, limit=MAX_BYTES, what="document")  # never blocks on a FIFO
    except OSError as exc:
        return Skipped(path.name, f"unreadable: {exc.strerror or exc}")
    except UnsafeInputError as exc:  # a special file, or it grew past the limit while read
        return Skipped(path.name, exc.message.removeprefix(f"{exc.file}: "))
    except LorekeeperError as exc:
        return Skipped(path.name, f"unreadable: {exc.message.rsplit(': ', 1)[-1]}")
    if b"\0" in data[:8192]:
        return Skipped(path.name, "binary")
    try:
        return data.decode("utf-8-sig").replace("\r\n", "\n")
    except UnicodeDecodeError:
        return Skipped(path.name, "not UTF-8 text")
