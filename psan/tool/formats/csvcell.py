"""The one CSV cell escaping used by every CSV psan writes (web exports and ``psan-tool`` keys).

Why: CSV files are opened in spreadsheets, which evaluate a cell starting with ``= + - @`` (and,
in some programs, a tab or a carriage return) as a formula, e.g. ``=HYPERLINK(...)`` in a label
name written by an annotator.  Such a cell is prefixed with ``'`` so it is shown as text.  Readers
undo exactly that prefix (:func:`unescape_cell`), so write → read is lossless: a value that really
starts with ``'`` followed by one of those characters or another ``'`` is prefixed as well.  Plain
numbers (``-1``, ``0.5``) are harmless and left alone.
"""
from __future__ import annotations

import re

DANGEROUS_START = frozenset("=+-@\t\r")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)\Z")


def escape_cell(value: str) -> str:
    """Make a text cell safe to open in a spreadsheet (inverse: :func:`unescape_cell`)."""
    if not value or _NUMBER.match(value):
        return value
    if value[0] in DANGEROUS_START or (value[0] == "'" and len(value) > 1 and
                                       (value[1] in DANGEROUS_START or value[1] == "'")):
        return "'" + value
    return value


def unescape_cell(value: str) -> str:
    """Undo :func:`escape_cell`."""
    if len(value) > 1 and value[0] == "'" and (value[1] in DANGEROUS_START or value[1] == "'"):
        return value[1:]
    return value
