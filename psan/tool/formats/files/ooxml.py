"""WordprocessingML package plumbing: namespaces, content types, relationships, metadata and tracked changes.

Why apart from :mod:`psan.tool.formats.files.docx`: these are the parts of a DOCX that carry personal data
*outside* the text (document properties, comment authors, revision authors, custom XML, printer
settings); each is removed or neutralised here, and every removal is recorded in the report.
"""
from __future__ import annotations

import posixpath
from collections.abc import Iterable

from lxml import etree

from psan.tool.formats.files.base import Report

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PR = "http://schemas.openxmlformats.org/package/2006/relationships"
CT = "http://schemas.openxmlformats.org/package/2006/content-types"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
W15 = "http://schemas.microsoft.com/office/word/2012/wordml"


def w(tag: str) -> str:
    return f"{{{W}}}{tag}"


# --- content types -----------------------------------------------------------------------------------
def content_types(tree: etree._ElementTree, names: Iterable[str]) -> dict[str, str]:
    """Every part's content type (an Override wins over the Default of its extension)."""
    root = tree.getroot()
    defaults = {d.get("Extension", "").lower(): d.get("ContentType", "") for d in root.iter(f"{{{CT}}}Default")}
    overrides = {o.get("PartName", "").lstrip("/"): o.get("ContentType", "") for o in root.iter(f"{{{CT}}}Override")}
    out = {}
    for name in names:
        ext = posixpath.splitext(name)[1].lstrip(".").lower()
        out[name] = overrides.get(name) or defaults.get(ext, "")
    return out


def drop_overrides(tree: etree._ElementTree, parts: set[str]) -> None:
    for o in list(tree.getroot().iter(f"{{{CT}}}Override")):
        if o.get("PartName", "").lstrip("/") in parts:
            o.getparent().remove(o)


# --- relationships -----------------------------------------------------------------------------------
def rels_name(part: str) -> str:
    """``word/document.xml`` → ``word/_rels/document.xml.rels`` (the package's own: ``_rels/.rels``)."""
    folder, base = posixpath.split(part)
    return posixpath.join(folder, "_rels", f"{base}.rels")


def source_of(rels: str) -> str:
    """The part a relationships part belongs to (``""`` for the package)."""
    folder, base = posixpath.split(rels)
    return posixpath.join(posixpath.dirname(folder), base[:-len(".rels")])


def target_of(rels: str, rel: etree._Element) -> str | None:
    """The part a relationship points to, as a member name; None for an external target."""
    if rel.get("TargetMode") == "External":
        return None
    target = rel.get("Target", "")
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    return posixpath.normpath(posixpath.join(posixpath.dirname(source_of(rels)), target))


# --- tracked changes ---------------------------------------------------------------------------------
#: property changes and range marks: removed in both modes (the current formatting stays)
_MARKS = {w(t) for t in ("rPrChange", "pPrChange", "sectPrChange", "tblPrChange", "tblPrExChange", "trPrChange",
                         "tcPrChange", "tblGridChange", "numberingChange", "cellIns", "cellDel", "cellMerge",
                         "moveFromRangeStart", "moveFromRangeEnd", "moveToRangeStart", "moveToRangeEnd",
                         "customXmlInsRangeStart", "customXmlInsRangeEnd", "customXmlDelRangeStart",
                         "customXmlDelRangeEnd", "customXmlMoveFromRangeStart", "customXmlMoveFromRangeEnd",
                         "customXmlMoveToRangeStart", "customXmlMoveToRangeEnd")}
_INSERTED = {w("ins"), w("moveTo")}
_DELETED = {w("del"), w("moveFrom")}


def _unwrap(el: etree._Element) -> None:
    """Replace an element by its children (their text and tails stay in place)."""
    parent = el.getparent()
    index = parent.index(el)
    for child in reversed(list(el)):
        parent.insert(index, child)
    parent.remove(el)


def resolve_revisions(root: etree._Element, mode: str) -> int:
    """Accept (keep insertions, drop deletions) or reject (the reverse) every tracked change, leaving no
    revision mark and no revision author; returns how many changes there were.

    A change of formatting keeps the current formatting in both modes; a deleted (accept) or inserted
    (reject) table row goes with its row; a paragraph mark's change only loses its mark.
    """
    keep, drop = (_INSERTED, _DELETED) if mode == "accept" else (_DELETED, _INSERTED)
    changes = 0
    for el in list(root.iter(*_MARKS, *_INSERTED, *_DELETED)):
        if el.getparent() is None:  # inside something already removed
            continue
        changes += 1
        parent = el.getparent()
        if el.tag in _MARKS or parent.tag in (w("rPr"), w("trPr"), w("tcPr"), w("pPr")):
            if parent.tag == w("trPr") and el.tag in drop:
                row = parent.getparent()
                if row.getparent() is not None:
                    row.getparent().remove(row)
                continue
            parent.remove(el)
        elif el.tag in drop:
            parent.remove(el)
        else:
            _unwrap(el)
    if mode == "reject":
        for el in root.iter(w("delText"), w("delInstrText")):
            el.tag = w("t") if el.tag == w("delText") else w("instrText")
    return changes


# --- authors -----------------------------------------------------------------------------------------
class Authors:
    """Replaces every author attribute by a neutral "Author 1", "Author 2" … (one number per person in the
    whole file), so comment threads stay readable and no name or account is left."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}

    def neutral(self, name: str) -> str:
        return f"Author {self.numbers.setdefault(name.strip().casefold(), len(self.numbers) + 1)}"

    def scrub(self, root: etree._Element, report: Report) -> None:
        for el in root.iter():
            for key in list(el.attrib):
                local = etree.QName(key).localname
                if local == "author":
                    report.removed.append("comment and revision authors")
                    el.set(key, self.neutral(el.get(key)))
                elif local == "initials":
                    number = self.numbers.get((el.get(w("author")) or "").strip().casefold())
                    el.set(key, f"A{number}" if number else "A")
                elif local in ("userId", "providerId"):
                    report.removed.append("author accounts")
                    del el.attrib[key]


# --- document properties -----------------------------------------------------------------------------
#: core properties kept (dates and language say nothing about who wrote the file)
CORE_KEPT = {"created", "modified", "language"}
#: extended (app) properties kept: counts and the program
APP_KEPT = {"TotalTime", "Pages", "Words", "Characters", "Application", "DocSecurity", "Lines", "Paragraphs",
            "ScaleCrop", "LinksUpToDate", "CharactersWithSpaces", "SharedDoc", "HyperlinksChanged", "AppVersion"}
#: settings that name people, files or data sources
SETTINGS_REMOVED = {"docVars": "document variables", "mailMerge": "mail merge data source",
                    "attachedTemplate": "template path", "saveThroughXslt": "XSLT path",
                    "documentProtection": None, "writeProtection": None}


def clean_properties(root: etree._Element, kept: set[str], label: str, report: Report) -> None:
    """Remove every property not in ``kept``; the removed non-empty ones are named in the report."""
    for child in list(root):
        if not isinstance(child.tag, str):
            root.remove(child)
            continue
        local = etree.QName(child).localname
        if local not in kept:
            if (child.text or "").strip() or len(child):
                report.removed.append(f"{label}: {local}")
            root.remove(child)


def clean_settings(root: etree._Element, report: Report) -> set[str]:
    """Remove settings that name people or files; returns the relationship ids they referenced."""
    ids: set[str] = set()
    for child in list(root):
        if not isinstance(child.tag, str):
            continue
        what = SETTINGS_REMOVED.get(etree.QName(child).localname, "")
        if what:
            report.removed.append(f"settings: {what}")
            for el in child.iter():
                rid = el.get(f"{{{R}}}id")
                if rid:
                    ids.add(rid)
            root.remove(child)
    return ids
