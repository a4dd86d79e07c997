"""The layout shows the architecture (issue 25): packages by concern, imports only downwards, no cycles.

Why a test: the layers were right but the tree no longer showed them, and five Celery modules, the
release modules and the connection pool had grown import cycles.  Read with the AST (every import,
function-level ones included, since a lazy import is still a dependency), so a new cycle, a root
module, an oversized store subpackage or a borrowed private name fails here instead of in review.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

PSAN = Path(__file__).resolve().parent.parent / "psan"
#: store subpackages, lowest first: each may import only those before it
STORE_LAYERS = ["shared", "admin", "corpus", "annotation", "review", "publish"]
MAX_STORE_MODULES = 12


@cache
def modules() -> dict[str, Path]:
    """Every module of psan by dotted name (a package by its ``__init__``)."""
    out = {}
    for path in PSAN.rglob("*.py"):
        parts = list(path.relative_to(PSAN.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _resolve(name: str) -> str | None:
    """The psan module a dotted name lives in (``psan.store.x.f`` → ``psan.store.x``)."""
    mods = modules()
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


def imports(module: str) -> Iterator[tuple[str, str, int]]:
    """(imported psan module, imported name or "", line) for every import in ``module``."""
    path = modules()[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _resolve(alias.name) if alias.name.split(".")[0] == "psan" else None
                if target:
                    yield target, "", node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            if base.split(".")[0] != "psan":
                continue
            for alias in node.names:
                full = f"{base}.{alias.name}"
                target = full if full in modules() else _resolve(base)
                if target:
                    yield target, "" if target == full else alias.name, node.lineno


def external_imports(module: str) -> set[str]:
    """Top-level names of the non-psan packages ``module`` imports."""
    out = set()
    for node in ast.walk(ast.parse(modules()[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            out.add(node.module.split(".")[0])
    return out - {"psan"}


@cache
def module_graph() -> dict[str, set[str]]:
    return {m: {t for t, _, _ in imports(m) if t != m} for m in modules()}


def package_of(module: str) -> str | None:
    """The package a module counts for: ``psan.<top>`` or ``psan.store.<sub>``; None for the app factory."""
    parts = module.split(".")
    if len(parts) < 2 or module == "psan.wsgi":
        return None  # psan/__init__ (the app factory) and wsgi sit above everything; entry points call them
    if parts[1] == "store" and len(parts) >= 3:
        return ".".join(parts[:3])
    return ".".join(parts[:2])


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_no_import_cycle_between_modules():
    assert cycles(module_graph()) == []


def test_no_import_cycle_between_packages():
    graph: dict[str, set[str]] = {}
    for module, targets in module_graph().items():
        source = package_of(module)
        if source is None:
            continue
        graph.setdefault(source, set()).update(
            t for t in map(package_of, targets) if t is not None and t != source)
    assert cycles(graph) == []


def test_store_subpackages_import_only_downwards():
    wrong = []
    for module, targets in module_graph().items():
        source = package_of(module)
        if source is None or not source.startswith("psan.store."):
            continue
        level = STORE_LAYERS.index(source.split(".")[2])
        for target in targets:
            pkg = package_of(target) or ""
            if pkg.startswith("psan.store.") and STORE_LAYERS.index(pkg.split(".")[2]) > level:
                wrong.append(f"{module} imports {target}")
    assert wrong == []


@pytest.mark.parametrize("layer", ["psan.tool", "psan.store", "psan.runtime"])
def test_lower_layers_stay_below(layer):
    """psan.tool: no Flask, PostgreSQL, store or Celery; psan.store: no Flask or Celery; runtime: no store.

    The store may use ``flask_babel.gettext`` for the messages of the errors it raises (they are shown to the
    annotator as they are); it never touches requests, sessions or the app.
    """
    above_store = ("psan.celery", "psan.web", "psan.identity", "psan.commands")
    forbidden_psan = {"psan.tool": ("psan.store", "psan.runtime", *above_store),
                      "psan.store": above_store, "psan.runtime": ("psan.store", *above_store)}[layer]
    forbidden_ext = {"psan.tool": {"flask", "flask_babel", "flask_login", "psycopg2", "celery"},
                     "psan.store": {"flask", "flask_login", "celery", "billiard", "kombu"},
                     "psan.runtime": set()}[layer]
    wrong = []
    for module in modules():
        if module != layer and not module.startswith(layer + "."):
            continue
        wrong += [f"{module} imports {t}" for t in module_graph()[module]
                  if any(t == f or t.startswith(f + ".") for f in forbidden_psan)]
        wrong += [f"{module} imports {e}" for e in external_imports(module) & forbidden_ext]
    assert wrong == []


def test_root_holds_only_the_app_factory_and_packages():
    loose = sorted(p.name for p in PSAN.glob("*.py") if p.name not in ("__init__.py", "wsgi.py"))
    assert loose == [], "group root modules into a package by concern (see README, 'Package map')"


def test_store_subpackages_stay_small():
    store = PSAN / "store"
    assert sorted(p.name for p in store.glob("*.py")) == ["__init__.py"], "store modules live in a subpackage"
    subs = sorted(p.name for p in store.iterdir() if (p / "__init__.py").is_file())
    assert subs == sorted(STORE_LAYERS)
    for sub in subs:
        count = len([p for p in (store / sub).glob("*.py") if p.name != "__init__.py"])
        assert count <= MAX_STORE_MODULES, f"psan/store/{sub} has {count} modules: split it by domain"
        assert ast.get_docstring(ast.parse((store / sub / "__init__.py").read_text(encoding="utf-8"))), sub


def test_no_private_name_imported_from_another_module():
    borrowed = [f"{m}:{line} imports {name} from {t}" for m in modules() for t, name, line in imports(m)
                if name.startswith("_") and not name.startswith("__") and t != m]
    assert borrowed == []


def test_tests_import_no_private_name_of_psan():
    """Tests use psan's public names too (a private helper a test needs is public)."""
    tests = Path(__file__).resolve().parent
    borrowed = []
    for path in tests.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "psan":
                borrowed += [f"{path.name}:{node.lineno} {a.name}" for a in node.names
                             if a.name.startswith("_") and not a.name.startswith("__")]
    assert borrowed == []


def test_the_checks_see_a_cycle():
    """The cycle finder itself: a cycle of three and a self-contained tail."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
