"""The layout shows the architecture: packages by concern, imports only downwards, no cycles.

Why a test: the layers were right but the tree no longer showed them, and five Celery modules, the
release modules and the connection pool had grown import cycles.  The checker (:mod:`tests.layering`)
reads every import with the AST, function-level ones and ``import_module("…")`` strings included, over
psan, ``ner_eval/`` and ``bench/``; every layer has a declared place (:data:`tests.layering.LAYERS`).
The second half plants an upward import in a small temporary tree and proves each check fails on it.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.layering import (
    KNOWN_MODULE_CYCLES,
    KNOWN_PACKAGE_CYCLES,
    KNOWN_UPWARD,
    LAYERS,
    STORE_LAYERS,
    Tree,
    compare_with_allowlist,
    cycles,
    package_cycles,
    undeclared_layers,
    upward_imports,
)

REPO = Path(__file__).resolve().parent.parent
PSAN = REPO / "psan"
MAX_STORE_MODULES = 12
TREE = Tree(REPO)


def test_every_layer_has_a_declared_place():
    assert undeclared_layers(TREE) == set(), "add the new package to tests/layering.py LAYERS, in its place"


def test_imports_follow_the_declared_order():
    new, gone = compare_with_allowlist(upward_imports(TREE), KNOWN_UPWARD)
    assert new == [], "an import reaches a layer declared above its own (tests/layering.py LAYERS)"
    assert gone == [], "these known upward imports are gone: remove them from KNOWN_UPWARD"


def test_no_import_cycle_between_modules():
    new, gone = compare_with_allowlist(map(frozenset, cycles(TREE.graph())), KNOWN_MODULE_CYCLES)
    assert new == [], "a new module import cycle"
    assert gone == [], "a known module cycle is gone: remove it from KNOWN_MODULE_CYCLES"


def test_no_import_cycle_between_packages():
    """0 package-level cycles in psan, psan.tool's sub-packages counted apart."""
    new, gone = compare_with_allowlist(package_cycles(TREE), KNOWN_PACKAGE_CYCLES)
    assert new == [], "a new package-level cycle"
    assert gone == [], "a known package cycle is gone: remove it from KNOWN_PACKAGE_CYCLES"


def test_psan_imports_neither_ner_eval_nor_bench():
    wrong = [f"{m} imports {t}" for m, targets in TREE.graph().items() if m.split(".")[0] == "psan"
             for t in targets if t.split(".")[0] in ("ner_eval", "bench")]
    assert wrong == []
    assert any(t.startswith("psan") for m, ts in TREE.graph().items() if m.startswith("ner_eval") for t in ts)


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
    for module in TREE.modules:
        if module != layer and not module.startswith(layer + "."):
            continue
        wrong += [f"{module} imports {t}" for t in TREE.graph()[module]
                  if any(t == f or t.startswith(f + ".") for f in forbidden_psan)]
        wrong += [f"{module} imports {e}" for e in TREE.external_imports(module) & forbidden_ext]
    assert wrong == []


def test_blueprints_are_registered_by_the_app_factory():
    """create_app imports each blueprint module itself (Flask's tutorial): no registration by module name."""
    assert "psan.annotate" in TREE.graph()["psan"] and "psan.api" in TREE.graph()["psan"]
    assert not (PSAN / "web" / "blueprints.py").exists()


def test_root_holds_only_the_app_factory_and_packages():
    loose = sorted(p.name for p in PSAN.glob("*.py") if p.name not in ("__init__.py", "wsgi.py"))
    assert loose == [], "group root modules into a package by concern (see docs/development.md, 'Package map')"


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
    borrowed = [f"{m}:{line} imports {name} from {t}" for m in TREE.modules if m.startswith("psan")
                for t, name, line in TREE.imports(m)
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


# --- the checks fail on a planted tree ------------------------------------------------------------------

#: a skeleton with one module in every layer the planted imports use
SKELETON = ["psan/__init__.py", "psan/web/__init__.py", "psan/labels/__init__.py", "psan/annotate/__init__.py",
            "psan/store/__init__.py", "psan/store/shared/__init__.py", "psan/store/publish/__init__.py",
            "psan/tool/__init__.py", "psan/tool/text/document.py", "psan/tool/detection/ner/__init__.py",
            *(f"psan/tool/{p}/__init__.py" for p in ("text", "words", "morph", "detection", "release", "surrogates",
                                                     "cli")),
            "psan/tool/detection/classifier/__init__.py",
            "ner_eval/__init__.py", "ner_eval/metrics.py", "bench/common.py", "bench/bench_x.py"]


def plant(tmp_path: Path, files: dict[str, str]) -> Tree:
    for name in SKELETON:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return Tree(tmp_path)


def test_a_downward_tree_passes(tmp_path):
    tree = plant(tmp_path, {
        "psan/annotate/views.py": "from psan.labels import x\nimport psan.store.publish\n",
        "psan/tool/detection/ner/base.py": "from psan.tool.text.document import Document\n",
        "psan/__init__.py": "def create_app():\n    from psan import annotate, web\n",
        "ner_eval/evaluate.py": "from psan.tool.detection.ner import base\nfrom ner_eval import metrics\n",
        "bench/bench_x.py": "import common\nfrom ner_eval.metrics import f1\nfrom psan import create_app\n",
    })
    assert upward_imports(tree) == set()
    assert undeclared_layers(tree) == set()
    assert package_cycles(tree) == set()
    assert "bench.common" in tree.graph()["bench.bench_x"]  # a bench script's sibling, imported by bare name


@pytest.mark.parametrize("path, text, expected", [
    # the declared order of the page packages (labels sits below annotate)
    ("psan/labels/views.py", "def f():\n    from psan.annotate import helpers\n",
     ("psan.labels.views", "psan.annotate")),
    # the store's subpackages
    ("psan/store/shared/x.py", "from psan.store.publish import y\n", ("psan.store.shared.x", "psan.store.publish")),
    # psan.tool's sub-packages by concern (the document model sits below detection, morphology below surrogates)
    ("psan/tool/text/document.py", "import psan.tool.detection.ner\n",
     ("psan.tool.text.document", "psan.tool.detection")),
    ("psan/tool/morph/analysis.py", "def f():\n    from psan.tool.surrogates import names\n",
     ("psan.tool.morph.analysis", "psan.tool.surrogates")),
    # nothing of psan.tool imports its public API or its command line
    ("psan/tool/release/output.py", "from psan.tool.cli import main\n", ("psan.tool.release.output", "psan.tool.cli")),
    # import_module with a string, importlib's or imported by name
    ("psan/web/blueprints.py", "from importlib import import_module\nimport_module('psan.annotate')\n",
     ("psan.web.blueprints", "psan.annotate")),
    ("psan/web/reg.py", "import importlib\nMODULE = 'psan.labels'\nimportlib.import_module(MODULE)\n",
     ("psan.web.reg", "psan.labels")),
    ("psan/store/shared/plug.py", "import importlib\ndef f(k):\n    importlib.import_module(f'psan.web.{k}')\n",
     ("psan.store.shared.plug", "psan.web")),
    ("psan/web/dunder.py", "__import__('psan.annotate')\n", ("psan.web.dunder", "psan.annotate")),
    # psan never imports ner_eval or bench; ner_eval never imports bench
    ("psan/tool/release/scores.py", "from ner_eval.metrics import f1\n",
     ("psan.tool.release.scores", "ner_eval")),
    ("psan/web/timing.py", "def f():\n    import bench.common\n", ("psan.web.timing", "bench")),
    ("ner_eval/speed.py", "from bench import common\n", ("ner_eval.speed", "bench")),
    # the entry points (create_app) are above everything of psan, but below ner_eval
    ("psan/__init__.py", "import ner_eval\n", ("psan", "ner_eval")),
])
def test_a_planted_upward_import_fails(tmp_path, path, text, expected):
    tree = plant(tmp_path, {path: text})
    found = upward_imports(tree)
    assert expected in found
    new, _ = compare_with_allowlist(found, KNOWN_UPWARD)
    assert list(expected) in [list(e) for e in new]


def test_a_planted_package_cycle_fails(tmp_path):
    tree = plant(tmp_path, {"psan/tool/text/document.py": "from psan.tool.words import lexicon\n",
                            "psan/tool/words/lexicon.py": "from psan.tool.text import document\n"})
    new, _ = compare_with_allowlist(package_cycles(tree), KNOWN_PACKAGE_CYCLES)
    assert new == [["psan.tool.text", "psan.tool.words"]]


def test_a_planted_package_cycle_through_a_string_import_fails(tmp_path):
    tree = plant(tmp_path, {"psan/web/reg.py": "import importlib\nimportlib.import_module('psan.labels')\n",
                            "psan/labels/views.py": "from psan.web import reg\n"})
    assert frozenset({"psan.web", "psan.labels"}) in package_cycles(tree)


def test_a_planted_new_package_must_be_placed(tmp_path):
    tree = plant(tmp_path, {"psan/reports/__init__.py": "", "psan/tool/newpart/__init__.py": "",
                            "psan/tool/loose.py": ""})
    assert undeclared_layers(tree) == {"psan.reports", "psan.tool.newpart", "psan.tool"}


def test_the_allowlists_only_shrink():
    """A cycle or upward import gone from the code must leave the list too (else it could come back unseen)."""
    assert compare_with_allowlist({("a", "b")}, frozenset({("a", "b"), ("c", "d")})) == ([], [("c", "d")])
    assert compare_with_allowlist({("a", "b"), ("e", "f")}, frozenset({("a", "b")})) == ([("e", "f")], [])


def test_the_checks_see_a_cycle():
    """The cycle finder itself: a cycle of three and a self-contained tail."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_layers_are_declared_once():
    assert len(LAYERS) == len(set(LAYERS))
