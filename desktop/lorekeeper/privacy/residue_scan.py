"""The purge's byte scan, in a process that holds no database connection (issue 23).

`python -m lorekeeper.privacy.residue_scan` reads `{"root": DIR, "needles": [text, ...]}` as JSON on
stdin and writes `{"found": [relative path, ...]}` on stdout: every regular file under DIR (the
database, its WAL and shared-memory files, indexes, logs) whose bytes hold one of the needles.

It runs apart because the caller holds SQLite connections to the workspace's database: reading
`lorekeeper.db`, `-wal` or `-shm` there and closing the descriptor would drop that process's
`fcntl` locks (see `lorekeeper.dbfiles`). This process never connects, so its opens and closes
touch no lock. The needles (a story's own text) travel through the pipe only, never argv or disk.
Standard library only: it starts in a few tens of milliseconds.
"""

from __future__ import annotations

import json
import os
import sys

CHUNK = 1 << 20


def holds(path: str, needles: list[bytes], longest: int) -> bool:
    """Whether the file's bytes hold a needle (read in chunks that overlap by the longest needle)."""
    with open(path, "rb") as fh:
        tail = b""
        while True:
            block = fh.read(CHUNK)
            if not block:
                return False
            data = tail + block
            if any(n in data for n in needles):
                return True
            tail = data[-(longest - 1) :] if longest > 1 else b""


def scan(root: str, needles: list[bytes]) -> list[str]:
    found: list[str] = []
    if not needles:
        return found
    longest = max(len(n) for n in needles)
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            try:
                if os.path.islink(path) or not os.path.isfile(path):
                    continue  # regular files only: a FIFO would block, a link points elsewhere
                if holds(path, needles, longest):
                    found.append(os.path.relpath(path, root).replace(os.sep, "/"))
            except OSError:
                continue
    return sorted(found)


def main() -> None:
    request = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    needles = [str(n).encode("utf-8") for n in request.get("needles", []) if n]
    out = {"found": scan(str(request["root"]), needles)}
    sys.stdout.write(json.dumps(out))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
