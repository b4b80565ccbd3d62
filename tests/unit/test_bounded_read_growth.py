"""fsutil.read_regular_raw reads the size fstat saw plus one byte (issue 26: reading `limit + 1`
at once allocated the whole 10 MB limit per small file); a file that grew while read is read on
up to the limit, and past it refused, as before."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lorekeeper import fsutil


def _shrunk_fstat(monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    real = os.fstat

    def fstat(fd: int) -> os.stat_result:
        st = real(fd)
        fields = list(st)
        fields[6] = size  # st_size: the file looked smaller when opened than it is when read
        return os.stat_result(fields)

    monkeypatch.setattr(fsutil.os, "fstat", fstat)


def test_a_file_that_grew_while_read_is_read_whole_up_to_the_limit(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "grows.txt"
    path.write_bytes(b"x" * 100)
    _shrunk_fstat(monkeypatch, 10)
    assert fsutil.read_regular_raw(path, limit=1000) == b"x" * 100
    with pytest.raises(fsutil.FileTooLargeError):
        fsutil.read_regular_raw(path, limit=50)


def test_an_ordinary_read_returns_the_bytes(tmp_path: Path) -> None:
    path = tmp_path / "plain.bin"
    path.write_bytes(bytes(range(256)) * 20)
    assert fsutil.read_regular_raw(path, limit=10 * 1024 * 1024) == bytes(range(256)) * 20
    assert fsutil.read_regular_raw(tmp_path / "plain.bin", limit=5120) == bytes(range(256)) * 20
    with pytest.raises(fsutil.FileTooLargeError):
        fsutil.read_regular_raw(path, limit=5119)
