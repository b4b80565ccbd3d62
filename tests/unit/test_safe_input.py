"""The shared bounded readers (issue 24 d6): what they refuse, and that ordinary input still reads."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

import pytest
import yaml

from lorekeeper import archives, fsutil, safejson, safeyaml
from lorekeeper.errors import UnsafeInputError


def test_safeyaml_keeps_ordinary_anchors_and_stops_a_bomb_at_its_first_layer_past_the_bound() -> None:
    assert safeyaml.safe_load("base: &b {x: 1}\nother: *b\nlist: [*b, *b]\n") == {
        "base": {"x": 1},
        "other": {"x": 1},
        "list": [{"x": 1}, {"x": 1}],
    }
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x"]']
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    with pytest.raises(UnsafeInputError) as ei:
        safeyaml.compose("\n".join(lines), what="bomb.yaml", line0=10)
    assert ei.value.code == "ERR_INPUT_TOO_COMPLEX" and ei.value.line == 10 + 4  # the layer of 9**4 nodes
    with pytest.raises(UnsafeInputError, match="more than 3 aliases"):
        safeyaml.check("a: &a 1\nb: [*a, *a, *a, *a]\n", limits=safeyaml.YamlLimits(max_aliases=3))
    with pytest.raises(UnsafeInputError) as ei:
        safeyaml.compose("k: " + "[" * 5000 + "]" * 5000)
    assert ei.value.code == "ERR_INPUT_TOO_DEEP"
    with pytest.raises(UnsafeInputError) as ei:
        safeyaml.check("x" * 11, limits=safeyaml.YamlLimits(max_chars=10))
    assert ei.value.code == "ERR_INPUT_TOO_LARGE"
    with pytest.raises(yaml.YAMLError):  # invalid YAML stays PyYAML's error
        safeyaml.safe_load("a: [unclosed")


def test_safejson_counts_brackets_outside_strings_only() -> None:
    text = '{"a": "[[[[{{{{", "b": "say \\"[[[[\\"", "c": [1, [2, [3]]]}'
    assert safejson.nesting(text) == 4  # the object and three lists
    assert safejson.loads(text, max_depth=4)["c"] == [1, [2, [3]]]
    with pytest.raises(UnsafeInputError) as ei:
        safejson.loads(text, max_depth=3, what="x.json")
    assert ei.value.code == "ERR_INPUT_TOO_DEEP" and ei.value.file == "x.json"
    with pytest.raises(ValueError):  # invalid JSON stays json's error
        safejson.loads("{nope")
    assert safejson.loads(b'{"k": 1}', parse_int=str) == {"k": "1"}  # bytes and json's keywords


def test_read_regular_refuses_special_files_and_sizes_before_reading(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path, kind in ((fifo, "FIFO"), (Path("/dev/zero"), "device"), (tmp_path, "folder")):
        with pytest.raises(UnsafeInputError, match=kind) as ei:
            fsutil.read_regular_bytes(path)
        assert ei.value.code == "ERR_NOT_REGULAR_FILE" and ei.value.file == str(path)
    f = tmp_path / "f.txt"
    f.write_bytes(b"12345")
    assert fsutil.read_regular_bytes(f, limit=5) == b"12345"
    with pytest.raises(UnsafeInputError) as ei:
        fsutil.read_regular_bytes(f, limit=4)
    assert ei.value.code == "ERR_INPUT_TOO_LARGE"
    link = tmp_path / "link"
    link.symlink_to(f)
    assert fsutil.read_regular_bytes(link) == b"12345"
    with pytest.raises(UnsafeInputError, match="symlink"):
        fsutil.read_regular_bytes(link, follow=False)
    with pytest.raises(UnsafeInputError) as ei:
        fsutil.read_stream_bytes(io.BytesIO(b"x" * 11), limit=10)
    assert ei.value.code == "ERR_INPUT_TOO_LARGE"
    assert fsutil.read_stream_bytes(io.BytesIO(b"x" * 10), limit=10) == b"x" * 10
    (tmp_path / "bad").write_bytes(b"ok \xff")
    with pytest.raises(UnsafeInputError, match="0xff at byte offset 3") as ei:
        fsutil.read_regular_text(tmp_path / "bad")
    assert ei.value.code == "ERR_NOT_UTF8"
    assert fsutil.shown_path(os.fsdecode(b"/x/bad\xff")) == "/x/bad\\xff"


def test_unpack_zip_checks_the_whole_directory_first_and_keeps_modes(tmp_path: Path) -> None:
    z = tmp_path / "ok.zip"
    with zipfile.ZipFile(z, "w") as zf:
        info = zipfile.ZipInfo("kit/run.sh")
        info.external_attr = 0o100755 << 16
        zf.writestr(info, "#!/bin/sh\n")
        zf.writestr("kit/notes/a.md", "# a\n")
    dest = tmp_path / "out"
    dest.mkdir()
    assert archives.unpack_zip(z, dest) == 2
    assert (dest / "kit" / "run.sh").stat().st_mode & 0o777 == 0o755
    assert (dest / "kit" / "notes" / "a.md").read_text() == "# a\n"
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(bad, "w") as zf:
        zf.writestr("kit/first.md", "x")
        zf.writestr("/etc/escape", "x")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(UnsafeInputError, match="unsafe path") as ei:
        archives.unpack_zip(bad, empty)
    assert ei.value.code == "ERR_ARCHIVE_UNSAFE"
    assert not any(empty.iterdir())  # refused before the first member was written
    with pytest.raises(UnsafeInputError, match="times its size"):
        big = tmp_path / "big.zip"
        with zipfile.ZipFile(big, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("zeros", b"\0" * (2 * 1024 * 1024))
        archives.unpack_zip(big, empty)
