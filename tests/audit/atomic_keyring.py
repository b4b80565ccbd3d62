"""A file keyring that replaces its file atomically, for the kill -9 tests.

keyrings.alt's PlaintextKeyring (the suite's stand-in for the OS keyring) rewrites its file in
place, so a SIGKILL during a rotation's `set_password` can leave it empty and lose every key; an
OS keyring is a daemon and has no such window. This backend keeps a JSON file (path from
LK_TEST_KEYRING_FILE) and writes it with temp file + fsync + rename.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError


class AtomicFileKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    @property
    def path(self) -> Path:
        return Path(os.environ["LK_TEST_KEYRING_FILE"])

    def _load(self) -> dict[str, str]:
        try:
            return dict(json.loads(self.path.read_text(encoding="utf-8")))
        except FileNotFoundError:
            return {}

    def _save(self, data: dict[str, str]) -> None:
        tmp = self.path.with_name(self.path.name + f".{os.getpid()}.tmp")
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(data, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.path)

    def get_password(self, service: str, username: str) -> str | None:
        return self._load().get(f"{service}\0{username}")

    def set_password(self, service: str, username: str, password: str) -> None:
        data = self._load()
        data[f"{service}\0{username}"] = password
        self._save(data)

    def delete_password(self, service: str, username: str) -> None:
        data = self._load()
        if data.pop(f"{service}\0{username}", None) is None:
            raise PasswordDeleteError(username)
        self._save(data)
