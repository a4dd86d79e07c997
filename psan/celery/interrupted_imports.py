"""Forget what an import interrupted by a soft time limit left behind, so the worker process stays usable.

Why: the library imports some modules on first use (pycountry, the morphology models' readers …).  When Celery's
soft time limit raises inside such an import, Python drops the package that failed from ``sys.modules`` but keeps
the submodules that had finished; the next ``import package`` then runs the package again without binding those
submodules to it (``partially initialized module 'pycountry' has no attribute 'db'``), and every later task of that
pool process fails the same way.  Dropping the orphaned submodules lets the next import start clean.
"""
from __future__ import annotations

import logging
import sys

log = logging.getLogger(__name__)


def forget_orphaned_modules() -> list[str]:
    """Remove from ``sys.modules`` every submodule whose parent package is no longer there; the names removed."""
    orphans = sorted(name for name in list(sys.modules) if _missing_parent(name))
    for name in orphans:
        sys.modules.pop(name, None)
    if orphans:
        log.warning("an interrupted import left %d orphaned modules; forgotten: %s", len(orphans), ", ".join(orphans))
    return orphans


def _missing_parent(name: str) -> bool:
    parts = name.split(".")
    return any(".".join(parts[:i]) not in sys.modules for i in range(1, len(parts)))
