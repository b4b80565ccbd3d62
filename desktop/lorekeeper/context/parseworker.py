"""A parse worker: `python -m lorekeeper.context.parseworker` reads a pickled (items, detail) from
stdin, parses each (rel, text) with `parse.parse_batch` and writes the pickled results to stdout.

A plain subprocess rather than multiprocessing: it never re-imports the caller's `__main__` (a
script without an `if __name__ == "__main__"` guard keeps working) and it may be started from a
daemonic job process, which multiprocessing forbids.
"""

from __future__ import annotations

import pickle
import sys


def main() -> None:
    items, detail = pickle.loads(sys.stdin.buffer.read())
    from lorekeeper.context.parse import parse_batch

    sys.stdout.buffer.write(pickle.dumps(parse_batch(items, detail), protocol=pickle.HIGHEST_PROTOCOL))
    sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
