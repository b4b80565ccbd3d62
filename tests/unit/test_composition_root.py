"""Issue 28 d2: `Workspace.__init__` only wires. Each service is built once with its collaborators in
its constructor; no closure adapts one service to another, no setter pokes a built service, no
branch, loop or comprehension decides anything at wiring. The checker reads the source (AST), so a
regression fails here, not in a review."""

from __future__ import annotations

import ast
import inspect
import textwrap
from pathlib import Path

import lorekeeper.workspace
from lorekeeper.workspace import Workspace

SOURCE = Path(lorekeeper.workspace.__file__).read_text(encoding="utf-8")

#: attribute assignments on another object still made at wiring. Owned by helper "skills" (issue 28):
#: SkillLibrary's verifier and key probe become constructor arguments there; the list must only shrink.
PENDING_SETTERS: set[str] = set()  # must stay empty: every collaborator goes in a constructor
#: classes legitimately built more than once at wiring (two different locks, not services)
BUILT_TWICE = {"RWLock"}
#: what a wiring line may call on a built object: registering a hook, an injector or a corpus
REGISTRATIONS = {"append", "register"}
#: the methods `Workspace` has: lifecycle and the two lists the repair and purge runs read
METHODS = {"__init__", "open", "init", "_init", "_init_audit_key", "close", "__enter__", "__exit__", "name", "derived"}

BEHAVIOUR = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.Lambda,
    ast.ClassDef,
    ast.If,
    ast.IfExp,
    ast.For,
    ast.While,
    ast.Try,
    ast.With,
    ast.Match,
    ast.ListComp,
    ast.DictComp,
    ast.SetComp,
    ast.GeneratorExp,
)


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ast.dump(node)


def _is_constructor(call: ast.expr) -> bool:
    """`Service(...)` or `Service.wire(...)` (a class's own factory)."""
    if not isinstance(call, ast.Call):
        return False
    func = call.func
    if isinstance(func, ast.Attribute):
        func = func.value
    return isinstance(func, ast.Name) and func.id[:1].isupper()


def wiring_violations(source: str, cls: str = "Workspace") -> list[str]:
    """Every line of `cls.__init__` that is more than wiring, as "line N: why"."""
    tree = ast.parse(source)
    (klass,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls]
    (init,) = [n for n in klass.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"]
    out: list[str] = []
    built: dict[str, int] = {}
    assigned: set[str] = set()
    for stmt in init.body:
        where = f"line {stmt.lineno}"
        targets: list[str] = []
        if isinstance(stmt, ast.Assign):
            targets = [_dotted(t) for t in stmt.targets]
        elif isinstance(stmt, ast.AnnAssign):
            targets = [_dotted(stmt.target)]
        pending = any(t in PENDING_SETTERS for t in targets)
        for node in ast.walk(stmt):
            if isinstance(node, BEHAVIOUR) and not pending:
                out.append(f"{where}: {type(node).__name__} (behaviour, not wiring)")
            if isinstance(node, ast.Call) and _is_constructor(node):
                name = _dotted(node.func).split(".")[0]
                built[name] = built.get(name, 0) + 1
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            continue
        if isinstance(stmt, ast.Expr):
            value = stmt.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                continue  # the docstring
            call = isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            if call and value.func.attr in REGISTRATIONS:  # type: ignore[attr-defined]
                continue
            out.append(f"{where}: a call that is not a registration ({ast.unparse(value)[:60]})")
            continue
        if not isinstance(stmt, ast.Assign | ast.AnnAssign):
            out.append(f"{where}: {type(stmt).__name__} (behaviour, not wiring)")
            continue
        value = stmt.value
        for target in targets:
            parts = target.split(".")
            if len(parts) == 1:
                continue  # a local: a collaborator named for the lines below
            if parts[0] != "self" or len(parts) > 2:
                if target not in PENDING_SETTERS:
                    out.append(f"{where}: {target} = ... sets an attribute of another object (a setter injection)")
                continue
            if target in assigned:
                out.append(f"{where}: {target} assigned twice")
            assigned.add(target)
            plain = isinstance(value, ast.Name | ast.Constant | ast.List | ast.Dict) and not (
                isinstance(value, ast.List | ast.Dict)
                and (getattr(value, "elts", None) or getattr(value, "keys", None))
            )
            if not (plain or _is_constructor(value) or value is None):
                out.append(f"{where}: {target} is not built by a constructor ({ast.unparse(value)[:60]})")
    out += [f"{name} built {n} times" for name, n in sorted(built.items()) if n > 1 and name not in BUILT_TWICE]
    return list(dict.fromkeys(out))


def test_workspace_init_only_wires() -> None:
    assert wiring_violations(SOURCE) == []


def test_workspace_holds_no_behaviour_besides_its_lifecycle() -> None:
    tree = ast.parse(SOURCE)
    (klass,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Workspace"]
    methods = {n.name for n in klass.body if isinstance(n, ast.FunctionDef)}
    assert methods <= METHODS, f"new behaviour in Workspace (put it in a service): {sorted(methods - METHODS)}"
    assert "router" not in methods and "_store_identity" not in methods  # skills.routers.RouterCache


def test_the_checker_catches_closures_setters_and_double_builds() -> None:
    """The regressions issue 28's review found, in a small `__init__` of the old shape."""
    old = textwrap.dedent(
        """
        class Workspace:
            def __init__(self, root, config, store):
                audit = self.audit = AuditService(store)

                def audit_log():
                    return audit.log

                self.improve = ImproveService(store, audit_log)
                self.improve.proposals.verifier = audit.row_verifier
                self.facts = FactService(store)
                self.facts = FactService(store)
                self.counts = {k: config.get(k) for k in ("a", "b")}
                if config.get("x"):
                    self.x = X()
                self.stories.retention_purge = lambda s, d: self.purge.on_story_close(s, d)
        """
    )
    found = "\n".join(wiring_violations(old))
    assert "FunctionDef" in found  # the closure
    assert "self.improve.proposals.verifier = ... sets an attribute of another object" in found
    assert "self.stories.retention_purge = ... sets an attribute of another object" in found
    assert "Lambda" in found
    assert "self.facts assigned twice" in found and "FactService built 2 times" in found
    assert "DictComp" in found and "If (behaviour" in found


def test_the_collaborators_are_the_built_services(workspace: Workspace) -> None:
    """What the closures and setters used to adapt is now the service's own bound method."""
    ws = workspace
    assert ws.stories.retention_purge == ws.purge.on_story_close
    assert ws.memory.learning_scores == ws.reuse.live_scores
    assert ws.memory.verifier == ws.audit.row_verifier
    assert ws.improve.proposals.verifier == ws.audit.row_verifier
    assert ws.prompts.router == ws.routers.get
    assert ws.backups.audit_log == ws.audit.session_log
    assert ws.clarifications.config is ws.config and ws.memory.config is ws.config
    assert ("memory", ws.stories.prompt_block) in ws.prompts._injectors
    assert inspect.ismethod(ws.audit.open_before_first_write)


def test_the_audit_session_opens_before_the_first_write_then_unhooks(workspace: Workspace) -> None:
    ws = workspace
    assert ws.audit.open_before_first_write in ws.store.before_write
    ws.learnings.add("prefer small commits")
    assert ws.audit.open_before_first_write not in ws.store.before_write
    assert ws.audit._log is not None  # opened by the hook, outside the write's transaction


FRONT_ENDS = ("cli", "ui", "agents", "workspace_jobs.py", "recovery.py", "mcpfront.py", "entry.py")
#: what a front end may build itself: paths, locks and the read-only layout, no service
FRONT_MAY_BUILD = {"RWLock", "MemoryLayout", "Limits"}


def _services_built_at_wiring() -> set[str]:
    tree = ast.parse(SOURCE)
    (klass,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Workspace"]
    (init,) = [n for n in klass.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"]
    names = {_dotted(n.func).split(".")[0] for n in ast.walk(init) if isinstance(n, ast.Call) and _is_constructor(n)}
    return names - FRONT_MAY_BUILD


def _is_workspace(node: ast.expr) -> bool:
    """`ws`, `workspace`, `self.ws`, `ctx.ws`, `self.workspace`."""
    name = _dotted(node)
    return name in {"ws", "workspace"} or name.endswith((".ws", ".workspace"))


def test_front_ends_take_the_services_from_the_root_and_never_rewire_them() -> None:
    """ARCHITECTURE.md's decision: front ends receive the `Workspace` and use its services; they
    build none and set no attribute on the root or on a service it holds."""
    services = _services_built_at_wiring()
    assert {"SkillLibrary", "PurgeService", "RouterCache", "StoryService"} <= services
    package = Path(lorekeeper.workspace.__file__).parent
    found: list[str] = []
    for entry in FRONT_ENDS:
        files = sorted((package / entry).rglob("*.py")) if (package / entry).is_dir() else [package / entry]
        for path in files:
            tree = ast.parse(path.read_text(encoding="utf-8"))
            where = path.relative_to(package)
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and _dotted(node.func).split(".")[-1] in services:
                    found.append(f"{where}:{node.lineno}: builds {_dotted(node.func)}")
                if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for t in targets:
                        base = t
                        while isinstance(base, ast.Attribute | ast.Subscript):
                            base = base.value
                            if _is_workspace(base):
                                found.append(f"{where}:{node.lineno}: sets {ast.unparse(t)}")
                                break
    assert found == []
