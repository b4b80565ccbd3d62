"""Issue 29 (deliverables 3 and 4): tiny trees packed whole, the persistent parse cache, and the
file a task names sent before weaker evidence."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from lorekeeper.cli import main as cli_main
from lorekeeper.context import parse, tokens
from lorekeeper.context.diskcache import CACHE_FILE, DiskCache
from lorekeeper.context.pack import pack

FIFTEEN_LINES = "".join(f"def f{i}(x):\n    return x + {i}\n\n" for i in range(5))


def _tiny(tmp_path: Path) -> Path:
    root = tmp_path / "tiny"
    root.mkdir()
    (root / "a.py").write_text(FIFTEEN_LINES, encoding="utf-8")
    assert len(FIFTEEN_LINES.splitlines()) == 15
    return root


def test_a_tiny_tree_is_packed_whole_within_a_budget(tmp_path: Path) -> None:
    root = _tiny(tmp_path)
    for target in (root, root / "a.py"):
        result = pack(target, budget=4000)
        assert result.output_tokens <= 4000 and tokens.count(result.text) == result.output_tokens
        assert FIFTEEN_LINES.strip() in result.text  # every line, whole
        assert [e.mode for e in result.entries] == ["full"]


def test_a_tiny_tree_without_a_budget_is_packed_whole_in_every_mode(tmp_path: Path) -> None:
    root = _tiny(tmp_path)
    runner = CliRunner()
    for mode in ("auto", "full", "signatures"):
        res = runner.invoke(cli_main, ["ctx", "pack", str(root), "--mode", mode])
        assert res.exit_code == 0, res.output
        assert "None" not in res.output
        assert "def f4(x)" in res.stdout
    assert "return x + 4" in runner.invoke(cli_main, ["ctx", "pack", str(root)]).stdout


def test_an_empty_tree_packs_to_its_header(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    result = pack(tmp_path / "empty")
    assert result.text.startswith("# Lorekeeper context pack") and result.entries == []


# -- the cache between runs ------------------------------------------------------------------------


def _fresh_process_cache() -> None:
    """What a new `ctx pack` process starts with: no parse result in memory."""
    parse._cache.clear()
    parse._cache_bytes = 0


def test_repacking_an_unchanged_tree_is_answered_from_the_cache(click_tree: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["ctx", "pack", str(click_tree), "--task", "progress bar eta", "--budget", "5000", "--json"]
    _fresh_process_cache()
    first = json.loads(runner.invoke(cli_main, args, catch_exceptions=False).stdout)
    _fresh_process_cache()
    second = json.loads(runner.invoke(cli_main, args, catch_exceptions=False).stdout)
    assert (first["cached"], second["cached"]) == (False, True)
    assert second["text"] == first["text"] and second["files"] == first["files"]
    cache_file = Path(os.environ["LOREKEEPER_PACK_CACHE_DIR"]) / CACHE_FILE
    assert cache_file.is_file()
    # safe to delete: the next run packs again, the same bytes
    cache_file.unlink()
    _fresh_process_cache()
    third = json.loads(runner.invoke(cli_main, args, catch_exceptions=False).stdout)
    assert third["text"] == first["text"] and not third["cached"]
    # --no-cache stores nothing
    cache_file.unlink()
    assert runner.invoke(cli_main, [*args, "--no-cache"]).exit_code == 0
    assert not cache_file.exists()


def test_an_edited_file_is_parsed_again_and_the_others_come_from_the_cache(click_tree: Path, tmp_path: Path) -> None:
    root = tmp_path / "click"
    shutil.copytree(click_tree, root)
    cache = DiskCache(tmp_path / "cache")
    task = "shell completion for Choice options"
    _fresh_process_cache()
    before = pack(root, task=task, budget=6000, cache=cache)
    n = len(before.entries)
    assert cache.hits == 0
    edited = root / "shell_completion.py"
    edited.write_text(edited.read_text(encoding="utf-8") + "\n\ndef choice_marker_xyz():\n    return 1\n")
    _fresh_process_cache()
    hits = cache.hits
    after = pack(root, task=task + " choice_marker_xyz", budget=6000, cache=cache)
    assert cache.hits - hits == n - 1  # every file but the edited one, from the cache
    assert "choice_marker_xyz" in after.text  # the edit is seen: its file was parsed again
    # and the same pack with the cache as without it
    _fresh_process_cache()
    assert pack(root, task=task + " choice_marker_xyz", budget=6000).text == after.text


def test_a_damaged_cache_file_is_set_aside_and_never_fails_a_pack(sample_tree: Path, tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / CACHE_FILE).write_bytes(b"not a database at all" * 100)
    result = pack(sample_tree, task="validate_token", budget=2000, cache=DiskCache(folder))
    assert "def validate_token" in result.text
    assert any(p.name.startswith(CACHE_FILE + ".damaged-") for p in folder.iterdir())
    again = DiskCache(folder)
    _fresh_process_cache()
    assert pack(sample_tree, task="validate_token", budget=2000, cache=again).text == result.text
    assert again.hits == 1  # the fresh file holds the pack


def test_a_re_pack_parses_only_the_files_that_changed(
    click_tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lorekeeper.context import pack as pack_module

    root = tmp_path / "click"
    shutil.copytree(click_tree, root)
    parsed: list[str] = []
    real = pack_module.parse_file

    def spy(rel: str, text: str, *, detail: bool = True) -> parse.ParsedFile:
        parsed.append(rel)
        return real(rel, text, detail=detail)

    monkeypatch.setattr(pack_module, "parse_file", spy)
    monkeypatch.setenv("LOREKEEPER_PARSE_WORKERS", "0")  # every parse in this process, where the spy sees it
    cache = DiskCache(tmp_path / "cache")
    _fresh_process_cache()
    first = pack(root, task="progress bar eta", budget=5000, cache=cache)
    assert len(parsed) == len(first.entries) > 10
    parsed.clear()
    _fresh_process_cache()  # a new process: only the cache on disk is left
    other = pack(root, task="shell completion for Choice options", budget=5000, cache=cache)
    assert parsed == [] and not other.cached  # a new task on an unchanged tree: nothing parsed again
    (root / "termui.py").write_text((root / "termui.py").read_text(encoding="utf-8") + "\n# edited\n")
    _fresh_process_cache()
    pack(root, task="progress bar eta", budget=5000, cache=cache)
    assert parsed == ["termui.py"]


def test_another_task_on_an_unchanged_tree_reuses_its_graphs(
    click_tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lorekeeper.context import graph

    built: list[int] = []
    real = graph.structure

    def spy(files: list[parse.ParsedFile]) -> graph.Structure:
        built.append(len(files))
        return real(files)

    monkeypatch.setattr(graph, "structure", spy)
    cache = DiskCache(tmp_path / "cache")
    _fresh_process_cache()
    pack(click_tree, task="progress bar eta", budget=5000, cache=cache)
    assert len(built) == 1
    _fresh_process_cache()
    other = pack(click_tree, task="shell completion for Choice options", budget=5000, cache=cache)
    assert len(built) == 1 and not other.cached  # the import and call graphs came from the cache
    _fresh_process_cache()
    assert pack(click_tree, task="shell completion for Choice options", budget=5000).text == other.text


def test_a_cache_file_garbled_after_it_opens_is_set_aside_and_rewritten(click_tree: Path, tmp_path: Path) -> None:
    # the file opens (its first page is intact) but its other pages are garbage: every read fails
    # as "malformed"; the cache used to stay broken, so every later pack ran cold
    folder = tmp_path / "cache"
    first_cache = DiskCache(folder)
    _fresh_process_cache()
    first = pack(click_tree, task="progress bar eta", budget=5000, cache=first_cache)
    first_cache.close()
    path = folder / CACHE_FILE
    data = bytearray(path.read_bytes())
    assert len(data) > 8 * 4096
    rng = random.Random(29)
    for page in range(4096, len(data), 4096):
        data[page + 64 : page + 512] = rng.randbytes(448)
    path.write_bytes(bytes(data))
    _fresh_process_cache()
    second = pack(click_tree, task="progress bar eta", budget=5000, cache=DiskCache(folder))
    assert second.text == first.text and not second.cached
    assert any(p.name.startswith(CACHE_FILE + ".damaged-") for p in folder.iterdir())
    _fresh_process_cache()
    third_cache = DiskCache(folder)
    third = pack(click_tree, task="progress bar eta", budget=5000, cache=third_cache)
    assert third.cached and third.text == first.text  # the fresh file holds the pack again
    third_cache.close()
    # broken again: still one file set aside (the newest), not one more per breakage
    for p in folder.iterdir():
        if ".damaged-" in p.name:
            p.rename(folder / (CACHE_FILE + ".damaged-1"))  # an older one
        elif p.name != CACHE_FILE:
            p.unlink()  # no journal left beside it
    (folder / CACHE_FILE).write_bytes(b"not a database at all" * 100)
    _fresh_process_cache()
    assert pack(click_tree, task="progress bar eta", budget=5000, cache=DiskCache(folder)).text == first.text
    assert len([p for p in folder.iterdir() if ".damaged-" in p.name]) == 1, sorted(folder.iterdir())


def test_a_cached_re_pack_does_not_load_the_token_vocabulary(sample_tree: Path, tmp_path: Path) -> None:
    # loading the o200k vocabulary was most of a cached re-pack's CPU (0.75 s of CPU -> 0.25 s for
    # aiohttp): a hit counts no token, so a new process answered from the cache never loads it
    script = (
        "import sys; from pathlib import Path\n"
        "from lorekeeper.context import tokens\n"
        "from lorekeeper.context.diskcache import DiskCache\n"
        "from lorekeeper.context.pack import pack\n"
        "r = pack(Path(sys.argv[1]), task='validate_token', budget=2000, cache=DiskCache(Path(sys.argv[2])))\n"
        "print(r.cached, tokens._preload is not None or tokens._load.cache_info().currsize > 0)\n"
    )
    env = {**os.environ, "LOREKEEPER_AGENTD": "off"}
    run = [sys.executable, "-c", script, str(sample_tree), str(tmp_path / "cache")]
    first = subprocess.run(run, capture_output=True, text=True, env=env, check=True).stdout.split()
    again = subprocess.run(run, capture_output=True, text=True, env=env, check=True).stdout.split()
    assert first == ["False", "True"]  # packing counts tokens
    assert again == ["True", "False"]  # answered from the cache: no vocabulary loaded


def test_the_cache_stays_within_its_size(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path, max_bytes=200_000)
    for n in range(40):
        cache.put("parse", bytes([n]) * 20, os.urandom(20_000))  # incompressible: ~20 kB each
    assert cache.size() <= 200_000
    assert cache.get(bytes([39]) * 20) is not None  # the most recent stay
    assert cache.get(bytes([0]) * 20) is None  # the oldest went first


# -- the file the task names first -----------------------------------------------------------------

_METHODS = ["add", "get", "set", "touch", "delete", "get_many", "has_key", "incr", "set_many", "delete_many", "clear"]


def _backend(cls: str, extra: str = "") -> str:
    out = [f'"""{cls} cache backend."""\n', "from cache.backends.base import BaseCache, DEFAULT_TIMEOUT\n\n"]
    out.append(f"class {cls}(BaseCache):\n")
    for m in _METHODS:
        out.append(f"    def {m}(self, key, value=None, timeout=DEFAULT_TIMEOUT, version=None):\n")
        out.append("        key = self.make_and_validate_key(key, version=version)\n")
        out.append(f"        stored = self._store.{m}(key, value, self.get_backend_timeout(timeout))\n")
        out.append("        if stored is None:\n            return value\n        return stored\n\n")
    out.append(extra)
    return "".join(out)


_FILEBASED = '''
"""File-based cache backend."""
import os, pickle, time, zlib
from cache.backends.base import BaseCache, DEFAULT_TIMEOUT


class FileBasedCache(BaseCache):
    cache_suffix = ".djcache"

    def __init__(self, dir, params):
        super().__init__(params)
        self._dir = os.path.abspath(dir)
        self._createdir()

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        if self.has_key(key, version):
            return False
        self.set(key, value, timeout, version)
        return True

    def get(self, key, default=None, version=None):
        fname = self._key_to_file(key, version)
        try:
            with open(fname, "rb") as f:
                if not self._is_expired(f):
                    return pickle.loads(zlib.decompress(f.read()))
        except FileNotFoundError:
            pass
        return default

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        self._createdir()
        fname = self._key_to_file(key, version)
        self._cull()
        with open(fname, "wb") as f:
            f.write(pickle.dumps(self.get_backend_timeout(timeout)))
            f.write(zlib.compress(pickle.dumps(value)))

    def delete(self, key, version=None):
        return self._delete(self._key_to_file(key, version))

    def _delete(self, fname):
        if not fname.startswith(self._dir) or not os.path.exists(fname):
            return False
        os.remove(fname)
        return True

    def has_key(self, key, version=None):
        fname = self._key_to_file(key, version)
        if os.path.exists(fname):
            with open(fname, "rb") as f:
                return not self._is_expired(f)
        return False

    def _cull(self):
        filelist = self._list_cache_files()
        if len(filelist) < self._max_entries:
            return
        for fname in filelist[: len(filelist) // self._cull_frequency]:
            self._delete(fname)

    def _createdir(self):
        os.makedirs(self._dir, 0o700, exist_ok=True)

    def _key_to_file(self, key, version=None):
        key = self.make_and_validate_key(key, version=version)
        return os.path.join(self._dir, key + self.cache_suffix)

    def clear(self):
        for fname in self._list_cache_files():
            self._delete(fname)

    def _is_expired(self, f):
        exp = pickle.load(f)
        if exp is not None and exp < time.time():
            f.close()
            self._delete(f.name)
            return True
        return False

    def _list_cache_files(self):
        return [os.path.join(self._dir, n) for n in os.listdir(self._dir) if n.endswith(self.cache_suffix)]
'''

_BASE = '''
"""Base cache class."""
import time

DEFAULT_TIMEOUT = object()


class BaseCache:
    _missing_key = object()

    def __init__(self, params):
        self.default_timeout = int(params.get("timeout", 300))
        self._max_entries = int(params.get("max_entries", 300))
        self._cull_frequency = int(params.get("cull_frequency", 3))
        self.key_prefix = params.get("KEY_PREFIX", "")
        self.version = params.get("VERSION", 1)

    def get_backend_timeout(self, timeout=DEFAULT_TIMEOUT):
        if timeout == DEFAULT_TIMEOUT:
            timeout = self.default_timeout
        elif timeout == 0:
            timeout = -1
        return None if timeout is None else time.time() + timeout

    def make_key(self, key, version=None):
        return "%s:%s:%s" % (self.key_prefix, version or self.version, key)

    def validate_key(self, key):
        if len(key) > 250:
            raise ValueError(key)

    def make_and_validate_key(self, key, version=None):
        key = self.make_key(key, version=version)
        self.validate_key(key)
        return key
'''


def _filler(k: int) -> str:
    out = [f'"""Module {k} of the web framework."""\n\n']
    for j in range(14):
        out.append(f"def handle_request_{k}_{j}(request, value, cache=None):\n")
        out.append(f'    """Answer request {j} of view {k}: reads the value, may hit the cache."""\n')
        for n in range(6):
            out.append(f"    value = value.replace('a{n}', 'b{n}') if value else request.get('k{n}')\n")
        out.append("    return value\n\n")
    return "".join(out)


def _cache_tree(root: Path, fillers: int = 40) -> Path:
    """Cache backends shaped like Django's (every one has get, has_key, delete...) among filler modules."""
    b = root / "cache" / "backends"
    b.mkdir(parents=True)
    (root / "cache" / "__init__.py").write_text("")
    (b / "__init__.py").write_text("")
    (b / "base.py").write_text(
        _BASE.lstrip()
        + "".join(
            f"\n    def {m}(self, key, value=None, timeout=DEFAULT_TIMEOUT, version=None):\n"
            f"        raise NotImplementedError('subclasses of BaseCache must provide a {m}() method')\n"
            for m in _METHODS
        )
    )
    for name, cls in (
        ("db", "DatabaseCache"),
        ("redis", "RedisCache"),
        ("locmem", "LocMemCache"),
        ("memcached", "BaseMemcachedCache"),
        ("dummy", "DummyCache"),
    ):
        (b / f"{name}.py").write_text(_backend(cls))
    (b / "filebased.py").write_text(_FILEBASED.lstrip())
    for k in range(fillers):
        d = root / "web" / f"views{k // 20}"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"mod{k}.py").write_text(_filler(k))
    return root


def test_a_named_class_brings_its_file_and_the_bodies_the_task_names(tmp_path: Path) -> None:
    root = _cache_tree(tmp_path / "t")
    task = (
        "FileBasedCache returns a stale value from get and has_key says an expired key exists; "
        "_is_expired should delete the file"
    )
    for budget in (4000, 8000):
        result = pack(root, task=task, budget=budget)
        assert result.output_tokens <= budget
        # before: every backend's has_key and delete, but not FileBasedCache.get (the class, named
        # by itself and small, may also come whole: the three bodies are then inside it)
        sent = "".join(result.sections["cache/backends/filebased.py"].split())
        for q in ("FileBasedCache.get", "FileBasedCache.has_key", "FileBasedCache._is_expired"):
            assert "".join(_body(root / "cache/backends/filebased.py", q).split()) in sent, q


def _body(path: Path, qualname: str) -> str:
    text = path.read_text(encoding="utf-8")
    (d,) = [d for d in parse.parse_file(path.name, text).definitions if d.qualname == qualname]
    return text.encode("utf-8")[d.start : d.end].decode("utf-8")


def test_a_small_class_the_task_names_is_sent_whole(tmp_path: Path) -> None:
    root = _cache_tree(tmp_path / "t")
    task = "FileBasedCache keeps a stale file after a delete; the cache should forget it"
    for budget in (4000, 8000):
        result = pack(root, task=task, budget=budget)
        assert result.output_tokens <= budget
        # before: the methods matching the task's words only (delete), not the class's other code
        assert "".join(_body(root / "cache/backends/filebased.py", "FileBasedCache").split()) in "".join(
            result.sections["cache/backends/filebased.py"].split()
        )


def test_a_file_named_by_its_path_keeps_every_top_level_definition(click_tree: Path) -> None:
    for budget in (4000, 8000):
        result = pack(
            click_tree, task="fix in termui.py: prompt shows the default twice when hide_input is set", budget=budget
        )
        section = result.sections["termui.py"]
        pf = parse.parse_file("termui.py", (click_tree / "termui.py").read_text(encoding="utf-8"))
        names = {d.name for d in pf.definitions if d.depth == 0}
        missing = {n for n in names if f"def {n}(" not in section and f"class {n}" not in section}
        assert not missing, (budget, sorted(missing))  # before: 12 of 33 at 4k (a focus map)
        assert "def prompt(" in section and result.output_tokens <= budget


_TIMEOUTS = '''
"""Cancel scopes with a deadline."""
import math

from pkg.scope import CancelScope, current_time


class TooSlowError(Exception):
    """Raised by fail_after and fail_at when the deadline passes."""


def move_on_at(deadline, *, shield=False):
    """A cancel scope with an absolute deadline."""
    if math.isnan(deadline):
        raise ValueError("deadline must not be NaN")
    return CancelScope(deadline=deadline, shield=shield)


def move_on_after(seconds, *, shield=False):
    """A cancel scope with a relative timeout."""
    if seconds < 0:
        raise ValueError("timeout must be non-negative")
    return move_on_at(current_time() + seconds, shield=shield)


def fail_at(deadline, *, shield=False):
    """An absolute deadline that errors when cancelled.

    Step 0: the scope checks the clock of its runner 0 and its shield.
    Step 1: the scope checks the clock of its runner 1 and its shield.
    Step 2: the scope checks the clock of its runner 2 and its shield.
    Step 3: the scope checks the clock of its runner 3 and its shield.
    Step 4: the scope checks the clock of its runner 4 and its shield.
    Step 5: the scope checks the clock of its runner 5 and its shield.
    Step 6: the scope checks the clock of its runner 6 and its shield.
    Step 7: the scope checks the clock of its runner 7 and its shield.
    Step 8: the scope checks the clock of its runner 8 and its shield.
    Step 9: the scope checks the clock of its runner 9 and its shield.
    Step 10: the scope checks the clock of its runner 10 and its shield.
    Step 11: the scope checks the clock of its runner 11 and its shield.
    Step 12: the scope checks the clock of its runner 12 and its shield.
    Step 13: the scope checks the clock of its runner 13 and its shield.
    Step 14: the scope checks the clock of its runner 14 and its shield.
    Step 15: the scope checks the clock of its runner 15 and its shield.
    """
    scope = move_on_at(deadline, shield=shield)
    if scope.cancelled_caught:
        raise TooSlowError
    return scope


def fail_after(seconds, *, shield=False):
    """Like move_on_after, but raises TooSlowError when the scope is cancelled."""
    scope = move_on_after(seconds, shield=shield)
    if scope.cancelled_caught:
        raise TooSlowError
    return scope
'''


def _handshake(k: int) -> str:
    steps = "".join(
        f"        with move_on_after(self.timeout_{j}) as scope_{j}:\n"
        f"            packet_{j} = self.read_volley({j}, retries=self.retries, size=self.mtu - {j})\n"
        f"            if packet_{j} is None or scope_{j}.cancelled_caught:\n"
        f"                raise OSError('handshake step {j} of channel {k} lost')\n"
        for j in range(12)
    )
    return (
        "from pkg._timeouts import move_on_after, fail_after\n\n\n"
        f"class Channel{k}:\n    def do_handshake(self):\n        '''Run the handshake.'''\n"
        + steps
        + "        return fail_after(self.total)\n"
    )


def test_the_named_files_own_matches_come_before_callers_elsewhere(tmp_path: Path) -> None:
    root = tmp_path / "t"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "scope.py").write_text("class CancelScope:\n    pass\n\n\ndef current_time():\n    return 0.0\n")
    others = "".join(  # the rest of the module, which the task does not need
        f"\n\ndef sleep_until_{j}(clock):\n" + "".join(f"    clock.tick({j}, {n})\n" for n in range(30))
        for j in range(6)
    )
    (root / "pkg" / "_timeouts.py").write_text(_TIMEOUTS.lstrip() + others)
    for k in range(4):
        (root / "pkg" / f"dtls{k}.py").write_text(_handshake(k))
    for k in range(30):
        (root / "pkg" / f"mod{k}.py").write_text(_filler(k))
    task = "fail_after with a negative timeout should raise ValueError like move_on_after does, in pkg/_timeouts.py"
    result = pack(root, task=task, budget=4000)
    assert result.output_tokens <= 4000
    sent = "".join(result.sections["pkg/_timeouts.py"].split())
    # before: the callers' big handshakes took the room and fail_at, beside fail_after, was a header
    for q in ("fail_after", "move_on_after", "fail_at"):
        assert "".join(_body(root / "pkg/_timeouts.py", q).split()) in sent, q


def _client_py(methods: int = 55, steps: int = 60) -> str:
    out = ['"""HTTP client session."""\n\n\nclass Session:\n    """A client session."""\n\n']
    for j in range(methods):
        out.append(
            f"    def option_{j}(self, name_{j}: str, value_{j}: int = {j}, *, strict: bool = False) -> dict[str, int]:\n"
            f"        return {{name_{j}: value_{j}}}\n\n"
        )
    out.append(
        "    def _prepare_headers(self, headers):\n        merged = dict(self.default_headers)\n"
        "        merged.update(headers or {})\n        return merged\n\n"
        "    async def _request(self, method, url, *, headers=None, data=None):\n"
    )
    for j in range(steps):
        out.append(
            f"        step_{j} = await self.transport.send(method, url, part={j}, headers=self._prepare_headers(headers))\n"
        )
    out.append("        return step_0\n")
    return "".join(out)


def test_a_method_the_task_names_keeps_room_beside_its_files_outline(tmp_path: Path) -> None:
    root = tmp_path / "t"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "client.py").write_text(_client_py())
    for k in range(30):
        (root / "pkg" / f"mod{k}.py").write_text(_filler(k))
    task = "in pkg/client.py Session._request sends a header twice when _prepare_headers merges the default headers"
    result = pack(root, task=task, budget=4000)
    assert result.output_tokens <= 4000
    # before: the file's whole outline (named by its path) came first and left no room for _request
    sent = "".join(result.sections["pkg/client.py"].split())
    for q in ("Session._request", "Session._prepare_headers"):
        assert "".join(_body(root / "pkg/client.py", q).split()) in sent, q
