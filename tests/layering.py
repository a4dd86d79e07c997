"""The import checker behind ``tests/test_layering.py``: which module imports which, and in which layer it sits.

Why a module of its own: the checks must be able to fail, so the tests also run them over a small planted
tree (a temporary folder with an upward import) and prove they catch it.  Every import is read with the AST,
function-level ones included (a lazy import is still a dependency), and so is ``import_module("psan.x")``
(a string naming a module is an import the plain ``import`` statements would not show).
"""
from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: the trees the checker reads: psan, and the two tool folders above it that may import psan (never the reverse)
ROOTS = ("psan", "ner_eval", "bench")

#: store subpackages, lowest first: each may import only those before it
STORE_LAYERS = ["shared", "admin", "corpus", "annotation", "review", "publish"]

#: psan.tool's sub-packages by concern, lowest first; ``psan.tool.api`` is its public API (``__init__``,
#: ``__main__``).  A module loose at psan/tool's root has no place (only the API lives there).
TOOL_LAYERS = ["psan.tool.base", "psan.tool.text", "psan.tool.words", "psan.tool.morph", "psan.tool.entities",
               "psan.tool.decisions", "psan.tool.formats", "psan.tool.models", "psan.tool.risk", "psan.tool.detection",
               "psan.tool.release", "psan.tool.surrogates", "psan.tool.cli", "psan.tool.api"]

#: every layer, lowest first: a module may import its own layer and those before it.  ``psan`` is the app factory
#: and its entry points (:data:`ENTRY_POINTS`); ``ner_eval`` and ``bench`` use psan, psan never uses them.
LAYERS = [
    "psan.client",
    *TOOL_LAYERS,
    "psan.runtime",
    "psan.store", *(f"psan.store.{sub}" for sub in STORE_LAYERS),
    "psan.identity", "psan.celery", "psan.web",
    "psan.labels", "psan.auth", "psan.users", "psan.main", "psan.projects", "psan.documents", "psan.rules",
    "psan.annotate", "psan.workspace", "psan.api",
    "psan.commands",
    "psan",
    "ner_eval",
    "bench",
]

#: modules that build the app or start a process: they sit above every layer of psan
ENTRY_POINTS = {"psan", "psan.wsgi", "psan.celery.worker"}

#: upward imports known today, as (module, layer it reaches up to).  This list only shrinks: a new upward
#: import fails the test instead of joining it.
KNOWN_UPWARD: frozenset[tuple[str, str]] = frozenset()

#: module cycles known today: the plugin registry imports its built-ins by name (``import_module(BUILTINS_MODULE)``)
#: and they register themselves with it.  Only shrinks.
KNOWN_MODULE_CYCLES = frozenset({
    frozenset({"psan.tool.detection.classifier.recognizer", "psan.tool.detection.components",
               "psan.tool.detection.registry"}),
})

#: package-level cycles known today.  Only shrinks, like KNOWN_UPWARD.
KNOWN_PACKAGE_CYCLES: frozenset[frozenset[str]] = frozenset()


@dataclass
class Tree:
    """The Python modules under ``root`` (a checkout, or a planted tree in a test) by dotted name."""

    root: Path = REPO
    modules: dict[str, Path] = field(init=False)

    def __post_init__(self) -> None:
        self.modules = {}
        self._graph: dict[str, set[str]] | None = None
        for top in ROOTS:
            for path in sorted((self.root / top).rglob("*.py")):
                parts = list(path.relative_to(self.root).with_suffix("").parts)
                if parts[-1] == "__init__":
                    parts.pop()
                self.modules[".".join(parts)] = path

    def resolve(self, name: str) -> str | None:
        """The module a dotted name lives in (``psan.store.x.f`` → ``psan.store.x``); None outside the tree."""
        while name and name not in self.modules:
            name = name.rpartition(".")[0]
        return name or None

    def _absolute(self, module: str, name: str) -> str:
        """A name as imported from ``module``: bench scripts import their siblings by bare name (``common``)."""
        if module.startswith("bench.") and f"bench.{name.split('.')[0]}" in self.modules:
            return f"bench.{name}"
        return name

    def imports(self, module: str) -> Iterator[tuple[str, str, int]]:
        """(imported module of the tree, imported name or "", line) for every import in ``module``."""
        path = self.modules[module]
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = _string_constants(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = self.resolve(self._absolute(module, alias.name))
                    if target:
                        yield target, "", node.lineno
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                else:
                    base = self._absolute(module, base)
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    target = full if full in self.modules else self.resolve(base)
                    if target:
                        yield target, "" if target == full else alias.name, node.lineno
            elif isinstance(node, ast.Call) and _is_import_call(node.func) and node.args:
                name = _static_name(node.args[0], constants)
                target = self.resolve(self._absolute(module, name)) if name else None
                if target:
                    yield target, "", node.lineno

    def external_imports(self, module: str) -> set[str]:
        """Top-level names of the packages outside the tree that ``module`` imports."""
        out = set()
        for node in ast.walk(ast.parse(self.modules[module].read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                out |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                out.add(node.module.split(".")[0])
        return out - set(ROOTS)

    def graph(self) -> dict[str, set[str]]:
        """Module → the modules of the tree it imports (itself left out)."""
        if self._graph is None:
            self._graph = {m: {t for t, _, _ in self.imports(m) if t != m} for m in self.modules}
        return self._graph

    def layer_of(self, module: str) -> str:
        """The layer (an entry of :data:`LAYERS`) a module counts for."""
        parts = module.split(".")
        if parts[0] != "psan":
            return parts[0]
        if module in ENTRY_POINTS:
            return "psan"
        if parts[1] == "store" and len(parts) >= 3:
            return ".".join(parts[:3])
        if parts[1] == "tool":
            if len(parts) >= 3 and (self.root / "psan" / "tool" / parts[2] / "__init__.py").is_file():
                return ".".join(parts[:3])
            if len(parts) == 2 or parts[2] == "__main__":
                return "psan.tool.api"
            return "psan.tool"  # a module loose at the root: declared nowhere, so the test names it
        return ".".join(parts[:2])

    def layer_graph(self) -> dict[str, set[str]]:
        """Layer → the other layers its modules import."""
        out: dict[str, set[str]] = {}
        for module, targets in self.graph().items():
            source = self.layer_of(module)
            out.setdefault(source, set()).update(t for t in map(self.layer_of, targets) if t != source)
        return out


def _is_import_call(func: ast.expr) -> bool:
    """``import_module(…)``, ``importlib.import_module(…)`` or ``__import__(…)``."""
    if isinstance(func, ast.Name):
        return func.id in ("import_module", "__import__")
    return isinstance(func, ast.Attribute) and func.attr == "import_module"


def _string_constants(tree: ast.Module) -> dict[str, str]:
    """Module-level ``NAME = "text"`` assignments (``import_module(BUILTINS_MODULE)`` names its module so)."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            out.update({t.id: node.value.value for t in node.targets if isinstance(t, ast.Name)})
    return out


def _static_name(arg: ast.expr, constants: dict[str, str]) -> str | None:
    """The module name an import call's argument spells, as far as it is known without running the code.

    An f-string counts by its fixed beginning (``f"psan.tool.detection.ner.{kind}"`` imports from
    ``psan.tool.detection.ner``).
    """
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.Name):
        return constants.get(arg.id)
    if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
        return str(arg.values[0].value).rstrip(".") or None
    return None


def upward_imports(tree: Tree) -> set[tuple[str, str]]:
    """(module, layer) for every import of a layer declared above the module's own."""
    wrong = set()
    for module, targets in tree.graph().items():
        source = tree.layer_of(module)
        for target in targets:
            layer = tree.layer_of(target)
            if layer in LAYERS and source in LAYERS and LAYERS.index(layer) > LAYERS.index(source):
                wrong.add((module, layer))
    return wrong


def undeclared_layers(tree: Tree) -> set[str]:
    """Layers the tree has but :data:`LAYERS` does not place."""
    return {tree.layer_of(m) for m in tree.modules} - set(LAYERS)


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


def package_cycles(tree: Tree) -> set[frozenset[str]]:
    """Cycles between the layers of psan (each a set of layers)."""
    graph = {k: {t for t in v if t.startswith("psan")} for k, v in tree.layer_graph().items() if k.startswith("psan")}
    return {frozenset(c) for c in cycles(graph)}


def compare_with_allowlist(found: Iterable, known: frozenset) -> tuple[list, list]:
    """(new entries, entries gone): both must be empty — a new one is a regression, a gone one shrinks the list."""
    found = set(found)
    return sorted(map(sorted_if_set, found - known)), sorted(map(sorted_if_set, known - found))


def sorted_if_set(item):
    return sorted(item) if isinstance(item, frozenset) else item
