"""CSV export and strict import shared by the labels and rules pages.

Format decisions (documented for admins in the import pages):

* UTF-8; exports start with a byte order mark so spreadsheet programs detect the encoding, imports
  accept files with or without it.  Any other encoding is rejected with the numbers of the bad lines.
* Exports are injection-safe (:mod:`psan.tool.formats.csvcell`, shared by every CSV psan writes): a text
  cell starting with ``= + - @``, a tab or a carriage return is
  prefixed with ``'`` so spreadsheets show it as text instead of evaluating it.  Imports undo exactly
  that prefix, so export → import is lossless (a value that really starts with ``'`` followed by one
  of those characters or another ``'`` is prefixed as well).  Plain numbers (``-1``, ``0.5``) are
  harmless and left alone.
* Import reads the whole file first and reports every bad line; the caller imports nothing unless
  the file is entirely valid.
"""
from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from flask import Response
from flask_babel import gettext

from psan.tool.formats.csvcell import DANGEROUS_START, escape_cell, unescape_cell  # noqa: F401 - re-exported
from psan.web.downloads import mark_private

MAX_IMPORT_BYTES = 8 * 1024 * 1024
MAX_IMPORT_ROWS = 100_000


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value) if value != int(value) else str(int(value))
    return escape_cell(str(value))


def csv_response(filename: str, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> Response:
    """A CSV download; ``filename`` must be ASCII without quotes (callers build it from ids)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([_cell(value) for value in row])
    response = Response(("\ufeff" + buffer.getvalue()).encode("utf-8"), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return mark_private(response)  # the label key is the pseudonymization secret


@dataclass(frozen=True, slots=True)
class CsvRow:
    line: int                # physical line where the record starts (the header is line 1)
    cells: dict[str, str]    # header name → unescaped cell


@dataclass
class CsvFile:
    """Rows are returned even when some lines are bad, so callers can report every line at once."""
    rows: list[CsvRow]
    columns: list[str]
    errors: list[str]


def _decode(data: bytes) -> tuple[str | None, list[str]]:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    errors = []
    for number, line in enumerate(data.split(b"\n"), start=1):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            errors.append(gettext("line %(line)s: not valid UTF-8 text (save the file as CSV UTF-8)", line=number))
    return None, errors


def _header_ok(found: list[str], required: Sequence[str], optional: Sequence[str]) -> bool:
    extra = found[len(required):]
    return found[:len(required)] == list(required) and len(set(extra)) == len(extra) and set(extra) <= set(optional)


def read_csv(data: bytes, required: Sequence[str], optional: Sequence[str] = ()) -> CsvFile:
    """Decode and split an uploaded CSV, checking encoding, header, record syntax and column counts.

    The header must start with ``required`` (in order, case-insensitive) and may continue with any
    of ``optional`` in any order.  Completely empty lines are skipped.
    """
    expected = ",".join(list(required) + [f"[{name}]" for name in optional])
    if len(data) > MAX_IMPORT_BYTES:
        return CsvFile([], [], [gettext("the file is larger than %(size)s MB", size=MAX_IMPORT_BYTES // (1024 * 1024))])
    text, errors = _decode(data)
    if text is None:
        return CsvFile([], [], errors)
    if "\x00" in text:
        lines = sorted({text.count("\n", 0, m.start()) + 1 for m in re.finditer("\x00", text)})
        return CsvFile([], [], [gettext("line %(line)s: contains a NUL character", line=n) for n in lines])
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    columns: list[str] | None = None
    rows: list[CsvRow] = []
    while True:
        start = reader.line_num + 1
        try:
            record = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            errors.append(gettext("line %(line)s: malformed CSV (%(error)s)", line=start, error=exc))
            if reader.line_num < start:
                break
            continue
        if not any(cell.strip() for cell in record):
            continue
        if columns is None:
            found = [cell.strip().lower() for cell in record]
            if not _header_ok(found, required, optional):
                message = gettext("line %(line)s: wrong header %(found)s, expected %(expected)s", line=start,
                                  found=repr(",".join(found)[:200]), expected=expected)
                return CsvFile([], [], [message])
            columns = found
            continue
        if len(record) != len(columns):
            errors.append(gettext("line %(line)s: expected %(expected)s columns, found %(found)s", line=start,
                                  expected=len(columns), found=len(record)))
            continue
        if len(rows) >= MAX_IMPORT_ROWS:
            errors.append(gettext("line %(line)s: more than %(limit)s rows; split the file", line=start,
                                  limit=MAX_IMPORT_ROWS))
            break
        rows.append(CsvRow(start, {name: unescape_cell(cell) for name, cell in zip(columns, record, strict=True)}))
    if columns is None and not errors:
        errors.append(gettext("the file is empty; the first line must be the header %(expected)s", expected=expected))
    return CsvFile(rows, columns or [], errors)


def sorted_errors(errors: list[str]) -> list[str]:
    """File-level messages first, then line messages in line order (``line 3:``, ``řádek 3:`` …)."""
    def key(message: str) -> int:
        match = re.match(r"[^\W\d_]+ (\d+):", message)
        return int(match.group(1)) if match else 0
    return sorted(errors, key=key)


def has_control_chars(value: str) -> bool:
    """Control characters never belong in names or conditions (and NUL cannot be stored at all)."""
    return any(ord(ch) < 32 or 127 <= ord(ch) < 160 for ch in value)
