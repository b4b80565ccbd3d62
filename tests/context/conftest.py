"""Fixtures for the context engine: a small multi-language tree and a copy of a real package."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

SAMPLE = {
    "app/__init__.py": "",
    "app/auth.py": '''
        """Authentication helpers."""
        from __future__ import annotations

        import hashlib
        from .session import Session, new_token


        def validate_token(token: str, secret: str) -> bool:
            """Check a token's signature against the secret."""
            digest = _digest(token, secret)
            return digest.endswith("0")


        def _digest(token: str, secret: str) -> str:
            return hashlib.sha256((token + secret).encode()).hexdigest()


        class Authenticator:
            """Logs users in."""

            def login(
                self,
                user: str,  # the account name
                password: str,
                *,
                remember: bool = False,
            ) -> Session:
                token = new_token(user)
                return Session(user, token, remember)
    ''',
    "app/session.py": """
        from __future__ import annotations

        import secrets
        from dataclasses import dataclass


        @dataclass
        class Session:
            user: str
            token: str
            remember: bool = False


        def new_token(user: str) -> str:
            return user + ":" + secrets.token_hex(8)
    """,
    "app/db.py": '''
        from __future__ import annotations

        import sqlite3

        SEP = "  |  "


        def connect(path: str = ":memory:", sep: str = SEP) -> sqlite3.Connection:
            """Open the database."""
            return sqlite3.connect(path)


        QUERY = """
        SELECT *   
        FROM users   


        WHERE id = ?
        """
    ''',
    "app/broken.py": """
        def ok():
            return 1

        def broken(:
            return 2
    """,
    "tests/test_auth.py": """
        from app.auth import validate_token


        def test_validate():
            assert validate_token("a", "b") in (True, False)
    """,
    "web/util.ts": """
        export function formatName(first: string, last: string): string {
          return `${first} ${last}`;
        }
    """,
    "web/main.ts": """
        import { formatName } from "./util";

        export class Greeter {
          greet(first: string, last: string): string {
            return "Hello " + formatName(first, last);
          }
        }
    """,
    "src/lib.rs": """
        mod entropy;
        use crate::entropy::shannon;

        pub fn score(xs: &[f64]) -> f64 {
            shannon(xs)
        }
    """,
    "src/entropy.rs": """
        pub fn shannon(xs: &[f64]) -> f64 {
            xs.iter().map(|p| -p * p.ln()).sum()
        }
    """,
    "go/cmd/main.go": """
        package main

        import "example.com/proj/go/store"

        func main() {
            store.Open("x")
        }
    """,
    "go/store/store.go": """
        package store

        func Open(name string) error {
            return nil
        }
    """,
    "java/com/acme/App.java": """
        package com.acme;

        import com.acme.util.Strings;

        public class App {
            public static void main(String[] args) {
                System.out.println(Strings.upper("x"));
            }
        }
    """,
    "java/com/acme/util/Strings.java": """
        package com.acme.util;

        public class Strings {
            public static String upper(String s) { return s.toUpperCase(); }
        }
    """,
    "README.md": "# Sample\n\n## Usage\n\nRun it.\n",
    "logo.png": b"\x89PNG\r\n\x1a\n\x00\x00binary",
}


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content).lstrip("\n"), encoding="utf-8")
    return root


@pytest.fixture
def sample_tree(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "sample", SAMPLE)


@pytest.fixture(scope="session")
def click_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the installed `click` package: a real, public code base of ~100k tokens."""
    import click

    dest = tmp_path_factory.mktemp("corpus") / "click"
    shutil.copytree(Path(click.__file__).parent, dest, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


@pytest.fixture(autouse=True)
def _pack_cache_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """`ctx pack` caches parses and packs between runs: the tests keep that cache to themselves."""
    monkeypatch.setenv("LOREKEEPER_PACK_CACHE_DIR", str(tmp_path_factory.mktemp("pack-cache")))
