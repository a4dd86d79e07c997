"""Office files written by other programs: every one is processed or refused with a reason, none crashes.

The files are not in the repository: point ``PSAN_OFFICE_SAMPLES`` at a folder of them (for instance the
DOCX/ODT test files of pandoc and python-docx; 229 files: 222 processed, 7 refused — Strict Open XML,
SmartArt, embedded objects, an unknown part type).  Every capitalized word is tagged, the file written
back and read again: no capitalized word may be left, except field names (``PAGE``, ``REF``), which are
layout.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from psan.tool.formats import files as formats

SAMPLES = os.environ.get("PSAN_OFFICE_SAMPLES")
WORD = re.compile(r"\b[A-ZÁ-Ž]\w+")


def _samples() -> list[Path]:
    if not SAMPLES:
        return []
    return sorted(p for p in Path(SAMPLES).rglob("*") if p.suffix.lower() in formats.SUFFIXES() and p.is_file())


@pytest.mark.skipif(not SAMPLES, reason="set PSAN_OFFICE_SAMPLES to a folder of office files written by other programs")
@pytest.mark.parametrize("path", _samples(), ids=lambda p: p.name)
def test_real_file_is_processed_or_refused_with_a_reason(path: Path) -> None:
    data = path.read_bytes()
    try:
        opened = formats.read(data, path.name)
    except formats.FormatError as err:
        assert str(err)  # refused, with a reason
        return
    standoff = [{"original_start": m.start(), "original_end": m.end(), "replacement": "[X]"}
                for m in WORD.finditer(opened.text)]
    out = formats.write(data, path.name, standoff, expected_text=opened.text)
    if formats.format_for(path.name).output_suffix is None:
        again = formats.read(out, path.name).text.replace("[X]", "")
        assert [w for w in WORD.findall(again) if not w.isupper()] == []
