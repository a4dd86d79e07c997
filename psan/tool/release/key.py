"""Pseudonymization key files (JSON/CSV): writing, strict reading, restoring an output.

Why a module of its own: the web application (key export, de-pseudonymize upload) and the
``psan-tool depseudonymize`` command must read exactly the same files and reject a wrong key
with the same clear message, never with a traceback.  A key is untrusted input when uploaded:
every entry is type-checked before :func:`psan.tool.release.output.restore` sees it.

Format (JSON, ``version`` 1, a superset of :class:`psan.tool.surrogates.PseudonymKey`)::

    {"version": 1, "project": {"id": 3, "name": "…"},
     "documents": [{"document": "12", "id": 12, "name": "a.txt"}, …],
     "entries": [{"document": "12", "document_id": 12, "document_name": "a.txt",
                  "original_start": 0, "original_end": 10, "output_start": 0, "output_end": 9,
                  "original_text": "John Smith", "replacement": "Bill Jones", "category": "PERSON",
                  "label": 1, "label_name": "client", "type": "PERSON", "entity": "label:1",
                  "source": "surrogate", "removed_before": "", "removed_after": ""}, …]}

``documents`` lists documents without private regions too (their key is empty, their output is
the original).  Offsets are Python string indices (code points), end exclusive.

The command line's pseudonymization key (:class:`PseudonymKey`) lives here too: original span ↔ surrogate,
across the documents of a corpus; it holds every original string, so it is stored apart from the output,
with the access rights of the originals.  Its entries are the output module's standoff entries plus
``document`` and ``entity``, so :func:`de_pseudonymize` reuses :func:`psan.tool.release.output.restore`.
"""
from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from psan.tool.formats.csvcell import escape_cell, unescape_cell
from psan.tool.release.output import restore

KEY_VERSION = 1
#: CSV columns, in order (the JSON entries hold the same keys)
CSV_FIELDS = ("document", "document_id", "document_name", "original_start", "original_end", "output_start",
              "output_end", "original_text", "replacement", "category", "label", "label_name", "type", "entity",
              "source", "removed_before", "removed_after")
_INT_FIELDS = ("original_start", "original_end", "output_start", "output_end")
_TEXT_FIELDS = ("original_text", "replacement")
_OPTIONAL_TEXT = ("removed_before", "removed_after")


class KeyFileError(ValueError):
    """A key file that cannot be read or does not fit the output; the message says why, for people."""


@dataclass(slots=True)
class KeyFile:
    """A parsed key: document id → name, and entries grouped by document."""

    documents: dict[str, str] = field(default_factory=dict)
    entries: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    project: dict[str, Any] | None = None

    def describe(self, limit: int = 5) -> str:
        """``12 (a.txt), 13 (b.txt), …`` for messages."""
        items = [f"{d} ({n})" if n else d for d, n in sorted(self.documents.items(), key=lambda kv: _order(kv[0]))]
        return ", ".join(items[:limit]) + (", …" if len(items) > limit else "")


def _order(document: str) -> tuple[int, str]:
    return (int(document), "") if document.isdigit() else (1 << 62, document)


# --- writing -------------------------------------------------------------------------------------------
def key_json(documents: Sequence[Mapping[str, Any]], entries: Iterable[Mapping[str, Any]],
             project: Mapping[str, Any] | None = None) -> str:
    """The key as JSON text; ``documents`` are ``{"id", "name"}`` rows of every rendered document."""
    data: dict[str, Any] = {"version": KEY_VERSION}
    if project is not None:
        data["project"] = dict(project)
    data["documents"] = [{"document": str(d["id"]), "id": d["id"], "name": d["name"]} for d in documents]
    data["entries"] = [dict(e) for e in entries]
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def _csv_value(value: Any) -> Any:
    if value is None:
        return ""
    return escape_cell(value) if isinstance(value, str) else value


def key_csv(entries: Iterable[Mapping[str, Any]]) -> str:
    """The key as CSV (one row per replaced region).

    Text cells are formula-escaped (:mod:`psan.tool.formats.csvcell`): label names come from annotators
    and the file is opened in spreadsheets.  :func:`parse_key` undoes the escaping, so the CSV
    still restores the original byte for byte.
    """
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_FIELDS, lineterminator="\r\n", extrasaction="ignore")
    writer.writeheader()
    for e in entries:
        writer.writerow({k: _csv_value(e.get(k)) for k in CSV_FIELDS})
    return buf.getvalue()


# --- reading -------------------------------------------------------------------------------------------
def _check_entry(n: int, raw: Any) -> dict[str, Any]:
    """A copy of one entry with checked types; KeyFileError names the entry and the field."""
    if not isinstance(raw, Mapping):
        raise KeyFileError(f"key entry {n} is not an object")
    e = dict(raw)
    for k in _INT_FIELDS:
        v = e.get(k)
        if isinstance(v, str) and v.strip().isdigit():
            v = int(v)
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise KeyFileError(f"key entry {n}: {k!r} must be a non-negative integer")
        e[k] = v
    if e["original_end"] < e["original_start"] or e["output_end"] < e["output_start"]:
        raise KeyFileError(f"key entry {n}: an end offset lies before its start")
    for k in _TEXT_FIELDS:
        if not isinstance(e.get(k), str):
            raise KeyFileError(f"key entry {n}: {k!r} must be a string")
    for k in _OPTIONAL_TEXT:
        v = e.get(k, "")
        if v is None:
            v = ""
        if not isinstance(v, str):
            raise KeyFileError(f"key entry {n}: {k!r} must be a string")
        e[k] = v
    if e["output_end"] - e["output_start"] != len(e["replacement"]):
        raise KeyFileError(f"key entry {n}: the output offsets do not span the replacement")
    if e["original_end"] - e["original_start"] != len(e["original_text"]):
        raise KeyFileError(f"key entry {n}: the original offsets do not span the original text")
    document = e.get("document", e.get("document_id", ""))
    if document is None or isinstance(document, (dict, list, bool)):
        raise KeyFileError(f"key entry {n}: 'document' must be a document id or name")
    e["document"] = str(document)
    return e


def parse_key(text: str, fmt: str = "json") -> KeyFile:
    """Read a key file (``fmt`` ``json`` or ``csv``); KeyFileError for anything malformed."""
    raw_entries: list[Any]
    key = KeyFile()
    if fmt == "csv":
        try:
            reader = csv.DictReader(io.StringIO(text, newline=""))
            missing = [k for k in (*_INT_FIELDS, *_TEXT_FIELDS) if k not in (reader.fieldnames or ())]
            if missing:
                raise KeyFileError(f"not a key CSV: the columns {', '.join(missing)} are missing")
            raw_entries = [{k: unescape_cell(v) if isinstance(v, str) else v for k, v in row.items()}
                           for row in reader]
        except csv.Error as exc:
            raise KeyFileError(f"not a key CSV: {exc}") from None
    elif fmt == "json":
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise KeyFileError(f"not a JSON key file: {exc}") from None
        if isinstance(data, dict) and "entries" not in data and isinstance(data.get("standoff"), list):
            # a standoff file written by `psan-tool anonymize --standoff`: one document, its entries
            # (listed as a document even when nothing was replaced: such an output restores to itself)
            name = str(data.get("file") or "1")
            data = {"documents": [{"document": name, "name": name}],
                    "entries": [{**e, "document": name} if isinstance(e, Mapping) else e for e in data["standoff"]]}
        if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
            raise KeyFileError("not a key file: expected a JSON object with an 'entries' list")
        if data.get("version", KEY_VERSION) != KEY_VERSION:
            raise KeyFileError(f"unsupported key file version {data.get('version')!r} (expected {KEY_VERSION})")
        raw_entries = data["entries"]
        docs = data.get("documents", [])
        if not isinstance(docs, list):
            raise KeyFileError("key file: 'documents' must be a list")
        for d in docs:
            if not isinstance(d, Mapping) or not isinstance(d.get("document", d.get("id")), (str, int)):
                raise KeyFileError("key file: every item of 'documents' needs a 'document' id")
            key.documents[str(d.get("document", d.get("id")))] = str(d.get("name") or "")
        if isinstance(data.get("project"), Mapping):
            key.project = dict(data["project"])
    else:
        raise KeyFileError(f"unknown key format {fmt!r}; use json or csv")
    for n, raw in enumerate(raw_entries, start=1):
        e = _check_entry(n, raw)
        key.entries.setdefault(e["document"], []).append(e)
        key.documents.setdefault(e["document"], str(e.get("document_name") or ""))
    return key


def _restore(output_text: str, entries: Sequence[Mapping[str, Any]]) -> str:
    try:
        return restore(output_text, entries)
    except ValueError as exc:
        raise KeyFileError(f"the output does not match the key ({exc}): it was edited, or the key belongs "
                           "to another document or another export") from None


def restore_output(key: KeyFile, output_text: str, document: str | None = None) -> tuple[str, str]:
    """``(document, original text)`` rebuilt from ``output_text`` with the fitting part of the key.

    ``document`` (id, or name if unique) picks a document of a project key; without it a key of
    one document is used as is, and a project key is tried document by document — exactly one
    with entries must fit, otherwise the caller is asked to name it.
    """
    if document is not None and document.strip():
        wanted = document.strip()
        if wanted not in key.documents:
            by_name = [d for d, n in key.documents.items() if n == wanted]
            if len(by_name) != 1:
                raise KeyFileError(f"the key has no document {wanted!r}" if not by_name else
                                   f"several documents of the key are named {wanted!r}; give the id")
            wanted = by_name[0]
        return wanted, _restore(output_text, key.entries.get(wanted, []))
    if not key.documents:
        raise KeyFileError("the key holds no document")
    if len(key.documents) == 1:
        only = next(iter(key.documents))
        return only, _restore(output_text, key.entries.get(only, []))
    fits = []
    for d, entries in key.entries.items():
        try:
            fits.append((d, restore(output_text, entries)))
        except ValueError:
            continue
    if len(fits) == 1:
        return fits[0]
    reason = "several documents of the key fit" if fits else "no document of the key fits"
    raise KeyFileError(f"{reason} this output; choose the document (one of {key.describe()})")


PSEUDONYM_KEY_FIELDS = ("document", "original_start", "original_end", "output_start", "output_end", "category", "label",
                        "type", "entity", "original_text", "replacement", "removed_before", "removed_after")


def de_pseudonymize(output_text: str, standoff: Sequence[Mapping[str, Any]]) -> str:
    """The original text, byte for byte, from the output and its standoff (or key entries of that document)."""
    return restore(output_text, standoff)


@dataclass(slots=True)
class PseudonymKey:
    """Key entries of many documents; JSON/CSV round trip."""

    entries: list[dict[str, Any]] = field(default_factory=list)

    def add(self, document: str, standoff: Iterable[Mapping[str, Any]]) -> None:
        """Add a document's standoff (replaces entries already stored for ``document``)."""
        self.entries = [e for e in self.entries if e["document"] != document]
        for e in standoff:
            entry = {k: e.get(k, "") for k in PSEUDONYM_KEY_FIELDS if k != "document"}
            entry["label"] = e.get("label")
            entry["entity"] = e.get("entity", "")
            if e.get("features"):
                entry["features"] = dict(e["features"])  # what the surrogate was rendered with (JSON only)
            self.entries.append({"document": document, **entry})

    def documents(self) -> list[str]:
        return sorted({e["document"] for e in self.entries})

    def for_document(self, document: str) -> list[dict[str, Any]]:
        return [e for e in self.entries if e["document"] == document]

    def restore(self, document: str, output_text: str) -> str:
        """Original text of ``document`` from its pseudonymized output."""
        return de_pseudonymize(output_text, self.for_document(document))

    def surrogates(self) -> dict[str, set[str]]:
        """entity key → the surrogate strings written for it (for audits)."""
        out: dict[str, set[str]] = {}
        for e in self.entries:
            out.setdefault(e["entity"], set()).add(e["replacement"])
        return out

    def to_json(self) -> str:
        return json.dumps({"version": 1, "entries": self.entries}, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> PseudonymKey:
        data = json.loads(text)
        return cls([dict(e) for e in data["entries"]])

    def to_csv(self) -> str:
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=PSEUDONYM_KEY_FIELDS, lineterminator="\n")
        writer.writeheader()
        for e in self.entries:
            writer.writerow({k: _csv_value(e.get(k)) for k in PSEUDONYM_KEY_FIELDS})
        return buf.getvalue()

    @classmethod
    def from_csv(cls, text: str) -> PseudonymKey:
        entries = []
        for row in csv.DictReader(io.StringIO(text, newline="")):
            e: dict[str, Any] = {k: unescape_cell(v) if isinstance(v, str) else v for k, v in row.items()}
            for k in ("original_start", "original_end", "output_start", "output_end"):
                e[k] = int(e[k])
            e["label"] = int(e["label"]) if e["label"] not in ("", None) else None
            entries.append(e)
        return cls(entries)
