"""Complexity stays capped: ruff's C901 (15), branches (20) and statements (80) hold for every function but these.

Why a list: a function over the caps needs a ``# noqa`` to pass ruff, and a noqa alone would let a new one slip
in unseen.  The list only shrinks: a new noqa fails, and so does an entry whose function was split (remove it).
"""
from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NOQA = re.compile(r"^\s*(?:async\s+)?def\s+(\w+).*#\s*noqa:[^#\n]*\b(C901|PLR0912|PLR0915)\b")

#: (file, function) allowed over the caps today; split one, then remove its line
ALLOWED = frozenset({
    ("psan/documents/upload.py", "decode"),
    ("psan/store/annotation/decisions.py", "decide"),
    ("psan/tool/cli/__init__.py", "cmd_anonymize"),
    ("psan/tool/detection/recognizers/gazetteer.py", "_cs_variants"),
    ("psan/tool/detection/recognizers/gazetteer.py", "_group"),
    ("psan/tool/detection/recognizers/health.py", "health_mentions"),
    ("psan/tool/formats/annotations/webanno_tsv.py", "read"),
    ("psan/tool/formats/files/html.py", "open"),
    ("psan/tool/formats/files/odt.py", "_walk"),
    ("psan/tool/formats/files/odt.py", "open"),
    ("psan/tool/formats/tagged_xml.py", "xml_chunks"),
    ("psan/tool/morph/analysis.py", "_case_score"),
})


def over_the_caps() -> set[tuple[str, str]]:
    found = set()
    for root in ("psan", "ner_eval", "bench"):
        for path in (REPO / root).rglob("*.py"):
            for line in path.read_text(encoding="utf-8").splitlines():
                m = NOQA.match(line)
                if m:
                    found.add((str(path.relative_to(REPO)), m.group(1)))
    return found


def test_no_new_function_over_the_complexity_caps():
    assert over_the_caps() - ALLOWED == set(), "split the function instead of adding a noqa"


def test_the_allowlist_only_shrinks():
    assert ALLOWED - over_the_caps() == set(), "these are below the caps now: remove them from ALLOWED"


def test_the_caps_are_on():
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert '"C901"' in text and "max-complexity = 15" in text
