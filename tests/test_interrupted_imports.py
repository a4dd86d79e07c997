"""An import that a soft time limit interrupts leaves the worker process able to import the package again.

The package below imports a submodule and is then interrupted once, as Celery's SoftTimeLimitExceeded would
interrupt a first-use import inside a task; without forgetting the orphaned submodule, the second import binds no
``sub`` to the package (what pycountry did in a pool process: ``has no attribute 'db'``).
"""
from __future__ import annotations

import importlib
import sys

import pytest

from psan.celery.interrupted_imports import forget_orphaned_modules


class Interrupted(BaseException):
    """Stands in for billiard's SoftTimeLimitExceeded (raised asynchronously inside whatever code runs)."""


@pytest.fixture()
def package(tmp_path, monkeypatch):
    root = tmp_path / "interruptedpkg"
    root.mkdir()
    (root / "sub.py").write_text("VALUE = 42\n", encoding="utf-8")
    (root / "__init__.py").write_text(
        "import os\nimport interruptedpkg.sub\n"
        "if os.environ.get('INTERRUPT_ONCE') == '1':\n"
        "    os.environ['INTERRUPT_ONCE'] = '0'\n"
        "    raise __import__('tests.test_interrupted_imports', fromlist=['Interrupted']).Interrupted()\n"
        "ANSWER = interruptedpkg.sub.VALUE\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("INTERRUPT_ONCE", "1")
    yield "interruptedpkg"
    for name in [n for n in sys.modules if n.split(".")[0] == "interruptedpkg"]:
        del sys.modules[name]


def test_an_interrupted_import_leaves_an_orphan_that_breaks_the_next_import(package):
    with pytest.raises(Interrupted):
        importlib.import_module(package)
    assert package not in sys.modules and f"{package}.sub" in sys.modules  # what Python leaves behind
    with pytest.raises(AttributeError):
        importlib.import_module(package)


def test_forgetting_the_orphans_lets_the_next_import_start_clean(package):
    with pytest.raises(Interrupted):
        importlib.import_module(package)
    assert forget_orphaned_modules() == [f"{package}.sub"]
    assert importlib.import_module(package).ANSWER == 42
    assert forget_orphaned_modules() == []
