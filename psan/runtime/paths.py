"""Where the project's non-package files live (config/, db/, instance/).

In a source checkout that is the repository root; in the container the package is installed in
site-packages and the files sit in the working directory (/app).  ``PSAN_HOME`` overrides both.
"""
from __future__ import annotations

import os
from pathlib import Path


def project_root() -> Path:
    if os.environ.get("PSAN_HOME"):
        return Path(os.environ["PSAN_HOME"]).resolve()
    source_root = Path(__file__).resolve().parent.parent.parent
    if (source_root / "config").is_dir() and (source_root / "db").is_dir():
        return source_root
    return Path.cwd()


def instance_dir() -> Path:
    return Path(os.environ.get("PSAN_INSTANCE_PATH") or project_root() / "instance").resolve()


def migrations_dir() -> Path:
    return project_root() / "db" / "migrations"
