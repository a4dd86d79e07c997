"""The pseudonymization key: original span ↔ surrogate, across the documents of a project.

Why: pseudonymized text is only *pseudonymous* if someone can reverse it;
the key is that someone's tool.  It holds personal data (every original
string), so it is exported and stored apart from the output, with the access
rights of the originals.  Entries are the output module's standoff entries
plus ``document`` and ``entity`` (the consistency key), so
:func:`de_pseudonymize` can reuse :func:`psan.tool.output.restore`.
"""
from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from psan.tool.csvcell import escape_cell, unescape_cell
from psan.tool.output import restore

CSV_FIELDS = ("document", "original_start", "original_end", "output_start", "output_end", "category", "label",
              "type", "entity", "original_text", "replacement", "removed_before", "removed_after")


def de_pseudonymize(output_text: str, standoff: Sequence[Mapping[str, Any]]) -> str:
    """The original text, byte for byte, from the output and its standoff (or key entries of that document)."""
    return restore(output_text, standoff)


def _csv_value(value: Any) -> Any:
    """Formula-escaped text cells (label names come from people; :meth:`PseudonymKey.from_csv` undoes it)."""
    if value is None:
        return ""
    return escape_cell(value) if isinstance(value, str) else value


@dataclass(slots=True)
class PseudonymKey:
    """Key entries of many documents; JSON/CSV round trip."""

    entries: list[dict[str, Any]] = field(default_factory=list)

    def add(self, document: str, standoff: Iterable[Mapping[str, Any]]) -> None:
        """Add a document's standoff (replaces entries already stored for ``document``)."""
        self.entries = [e for e in self.entries if e["document"] != document]
        for e in standoff:
            entry = {k: e.get(k, "") for k in CSV_FIELDS if k != "document"}
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
        writer = csv.DictWriter(buf, fieldnames=CSV_FIELDS, lineterminator="\n")
        writer.writeheader()
        for e in self.entries:
            writer.writerow({k: _csv_value(e.get(k)) for k in CSV_FIELDS})
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
