"""`ctx bench` measures every supported language against facts of its own, so it can fail."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from lorekeeper.cli import main
from lorekeeper.context import bench

TREE = {  # one small file per supported language, each with functions, types and an import
    "py/store.py": """
        import json

        LIMIT = 10


        class Store:
            def save(self, key: str, value: object) -> None:
                self.data[key] = json.dumps(value)
    """,
    "js/util.js": """
        import { readFile } from "fs";

        export function loadConfig(path) {
          return JSON.parse(readFile(path));
        }

        export const retry = (fn, times) => {
          return fn();
        };
    """,
    "ts/box.ts": """
        import { z } from "zod";

        export interface Box<in out T> {
          value: T;
          get(): T;
        }

        export function parseBox<T>(input: unknown, schema: z.ZodType<T>): Box<T> {
          return { value: schema.parse(input), get() { return this.value; } };
        }
    """,
    "ts/view.tsx": """
        import React from "react";

        export function Badge({ label }: { label: string }) {
          const onClick = (e: React.MouseEvent): void => { console.log(e); };
          return <span onClick={onClick}>{label}</span>;
        }
    """,
    "rs/lib.rs": """
        use std::collections::HashMap;

        pub type Map = HashMap<String, u32>;

        pub struct Counter {
            counts: Map,
        }

        impl Counter {
            pub fn bump(&mut self, key: &str) -> u32 {
                let n = self.counts.entry(key.to_string()).or_insert(0);
                *n += 1;
                *n
            }
        }
    """,
    "go/join.go": """
        package join

        import "strings"

        const Sep = ","

        type Joiner interface {
            Join(parts []string) string
        }

        func Join(parts []string) string {
            return strings.Join(parts, Sep)
        }

        func Split(s string) []string {
            return strings.Split(s, Sep)
        }
    """,
    "java/Greeter.java": """
        import java.util.List;

        public class Greeter {
            private final String name;

            public Greeter(String name) {
                this.name = name;
            }

            public String greet(List<String> others) {
                return "hello " + name + String.join(",", others);
            }
        }
    """,
}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for rel, text in TREE.items():
        path = tmp_path / "tree" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return tmp_path / "tree"


def _bench(tree: Path) -> dict[str, object]:
    res = CliRunner().invoke(main, ["ctx", "bench", str(tree), "--json"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)  # type: ignore[no-any-return]


def test_the_ground_truth_of_each_language_comes_from_its_grammar(tree: Path) -> None:
    facts = {f.rel: f for f in bench.ground_truth(tree)}
    assert facts["go/join.go"].names == {"Sep", "Joiner", "Join", "Split"}  # the interface method too
    assert "funcSplit(sstring)[]string" in facts["go/join.go"].signatures
    assert {"Counter", "Map", "bump"} <= facts["rs/lib.rs"].names
    assert "pubfnbump(&mutself,key:&str)->u32" in facts["rs/lib.rs"].signatures
    assert {"Box", "get", "parseBox"} <= facts["ts/box.ts"].names
    assert {"Badge", "onClick"} <= facts["ts/view.tsx"].names  # a handler inside a component
    assert {"loadConfig", "retry"} <= facts["js/util.js"].names
    assert {"Greeter", "greet", "name"} <= facts["java/Greeter.java"].names
    assert facts["py/store.py"].names == {"Store", "save"}
    assert {f.language for f in facts.values()} == {"python", "javascript", "typescript", "tsx", "rust", "go", "java"}


def test_bench_reports_every_language_with_tokens_recall_and_layers(tree: Path) -> None:
    report = _bench(tree)
    assert report["version"] == 1
    langs = {lang["language"]: lang for lang in report["languages"]}  # type: ignore[attr-defined]
    assert list(langs) == ["python", "javascript", "typescript", "tsx", "rust", "go", "java"]
    for lang in langs.values():
        assert lang["files"] == 1 and lang["tokens_in"] > 0 and lang["names"] > 0
        assert set(lang["modes"]) >= {"naive", "full", "map", "signatures"}
        assert lang["modes"]["naive"]["name_recall"] == 1.0
        assert 0 < lang["modes"]["signatures"]["tokens"] <= lang["tokens_in"] + 20  # (its header line)
    # each pack's per-layer metrics, in pipeline order, like lean-ctx's pipeline report
    names = [layer["layer"] for layer in report["layers"]["signatures"]]  # type: ignore[index]
    assert names == ["scan", "parse", "count", "intent", "relevance", "allocate+compress", "mmr", "deliver"]
    text = CliRunner().invoke(main, ["ctx", "bench", str(tree)], catch_exceptions=False).stdout
    assert "per language" in text and "go " in text and "names/sigs" in text and "layers of the" in text


def test_a_go_function_missing_from_the_pack_lowers_go_recall_only(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bench is not the renderer's echo: a pack that loses `func Split` scores below 100%."""
    from lorekeeper.context import pack as pack_module

    real = pack_module.pack

    def lossy(*args: object, **kwargs: object) -> pack_module.PackResult:
        result = real(*args, **kwargs)  # type: ignore[arg-type]
        result.text = "\n".join(line for line in result.text.split("\n") if "Split" not in line)
        return result

    before = {lang.language: lang for lang in bench.measure(tree, ("signatures",)).languages}
    monkeypatch.setattr(pack_module, "pack", lossy)
    after = {lang.language: lang for lang in bench.measure(tree, ("signatures",)).languages}
    go, go_before = after["go"].modes["signatures"], before["go"].modes["signatures"]
    assert float(str(go["name_recall"])) < 1.0
    assert float(str(go["name_recall"])) < float(str(go_before["name_recall"]))
    assert float(str(go["signature_recall"])) < float(str(go_before["signature_recall"]))
    assert after["rust"].modes["signatures"] == before["rust"].modes["signatures"]
