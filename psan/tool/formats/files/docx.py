"""DOCX (Word) files: every text-bearing part read into psan's text, written back run by run.

Places: the text of runs (``w:t``), field codes (``w:instrText``), math, alt texts and names of images
and shapes, content-control aliases and tags, form-field defaults and help texts, hyperlink tooltips and
external link targets (``mailto:``) — in the body, tables, text boxes, headers, footers, foot- and
endnotes and comments.  A run keeps its formatting: only its text changes.

Fails closed: every part of the package is either read, cleaned, kept as unreadable-but-listed
(images), dropped and listed (custom XML, people, thumbnails, custom properties, glossary, printer
settings) or the file is refused (macros, embedded objects, charts, any part of an unknown type, text in
an element psan does not know).
"""
from __future__ import annotations

import posixpath
import re

from lxml import etree

from psan.tool.formats.files import Opened, register_format
from psan.tool.formats.files import ooxml as ox
from psan.tool.formats.files.base import FormatError, Options, Report, TextBuilder
from psan.tool.formats.files.package import Package, parse_xml, read_package, serialize_xml, strip_images
from psan.tool.formats.files.xml_places import attr_setter

_OD = "application/vnd.openxmlformats-officedocument."
_WML = _OD + "wordprocessingml."
MAIN_TYPES = {_WML + "document.main+xml", _WML + "template.main+xml"}
MACRO_TYPES = {"application/vnd.ms-word.document.macroEnabled.main+xml",
               "application/vnd.ms-word.template.macroEnabledTemplate.main+xml",
               "application/vnd.ms-office.vbaProject", "application/vnd.ms-word.vbaData+xml",
               "application/vnd.ms-office.activeX+xml", "application/vnd.ms-office.activeX"}
#: text-bearing parts besides the main document, by content type → the kind the report counts
TEXT_TYPES = {_WML + "header+xml": "header", _WML + "footer+xml": "footer", _WML + "footnotes+xml": "footnotes",
              _WML + "endnotes+xml": "endnotes", _WML + "comments+xml": "comments"}
#: parts without personal text, kept as they are
KEPT_TYPES = {_WML + "styles+xml", _WML + "stylesWithEffects+xml", _WML + "numbering+xml", _WML + "fontTable+xml",
              _WML + "webSettings+xml", _OD + "theme+xml", _OD + "themeOverride+xml",
              _WML + "commentsExtended+xml", _WML + "commentsIds+xml", _WML + "commentsExtensible+xml",
              _OD + "obfuscatedFont", "application/x-font-ttf", "application/vnd.ms-fontobject",
              "application/vnd.openxmlformats-package.relationships+xml", _OD + "customXmlProperties+xml",
              "application/vnd.ms-word.stylesWithEffects+xml"}
SETTINGS_TYPE = _WML + "settings+xml"
CORE_TYPE = "application/vnd.openxmlformats-package.core-properties+xml"
APP_TYPE = _OD + "extended-properties+xml"
#: parts removed from the package, by content type → how the report names them
DROPPED_TYPES = {_OD + "custom-properties+xml": "custom document properties",
                 _WML + "people+xml": "comment authors' accounts",
                 _WML + "document.glossary+xml": "building blocks (glossary)",
                 _WML + "printerSettings": "printer settings",
                 _OD + "wordprocessingml.printerSettings": "printer settings",
                 "application/vnd.ms-office.webextension+xml": "web add-ins",
                 "application/vnd.ms-office.webextensiontaskpanes+xml": "web add-ins"}
#: content types of embedded objects and parts psan cannot read: the file is refused
REFUSED_HINTS = {"oleObject": "an embedded object",
                 "spreadsheetml": "an embedded spreadsheet", "presentationml": "an embedded presentation",
                 "drawingml.chart": "a chart", "drawingml.diagram": "a SmartArt diagram", "ink": "ink drawing"}
THUMBNAIL_REL = "http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail"
HYPERLINK_REL = "/hyperlink"

_A = "http://schemas.openxmlformats.org/drawingml/2006/main"
_M = "http://schemas.openxmlformats.org/officeDocument/2006/math"
_WP = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
_PIC = "http://schemas.openxmlformats.org/drawingml/2006/picture"
_V = "urn:schemas-microsoft-com:vml"
_O = "urn:schemas-microsoft-com:office:office"
TEXT_TAGS = {ox.w("t"), ox.w("instrText"), ox.w("delText"), ox.w("delInstrText"), f"{{{_M}}}t", f"{{{_A}}}t"}
GAPS = {ox.w("tab"): "\t", ox.w("ptab"): "\t", ox.w("br"): "\n", ox.w("cr"): "\n", ox.w("noBreakHyphen"): "-"}
#: attributes that hold words: (element, attribute)
ATTR_PLACES = {
    (f"{{{_WP}}}docPr", "descr"), (f"{{{_WP}}}docPr", "title"), (f"{{{_WP}}}docPr", "name"),
    (f"{{{_PIC}}}cNvPr", "descr"), (f"{{{_PIC}}}cNvPr", "title"), (f"{{{_PIC}}}cNvPr", "name"),
    (f"{{{_V}}}shape", "alt"), (f"{{{_V}}}shape", "title"), (f"{{{_V}}}imagedata", f"{{{_O}}}title"),
    (f"{{{_V}}}textpath", "string"),
    (ox.w("alias"), ox.w("val")), (ox.w("tag"), ox.w("val")), (ox.w("fldSimple"), ox.w("instr")),
    (ox.w("hyperlink"), ox.w("tooltip")), (ox.w("statusText"), ox.w("val")), (ox.w("helpText"), ox.w("val")),
    (ox.w("default"), ox.w("val")), (ox.w("listEntry"), ox.w("val")), (ox.w("result"), ox.w("val")),
}
#: elements whose text is layout, not words (positions, alignments)
_LAYOUT_TEXT = {f"{{{_WP}}}posOffset", f"{{{_WP}}}align", "{http://schemas.microsoft.com/office/word/2010/"
                "wordprocessingDrawing}pctWidth", "{http://schemas.microsoft.com/office/word/2010/"
                "wordprocessingDrawing}pctHeight"}
_FIELD_CODES = {ox.w("instrText"), ox.w("delInstrText")}
_FIELD_KEYWORD = re.compile(r"\s*[A-Za-z]+\b")
_NUMBER = re.compile(r"^[\s\d.\-+]*$")
_SEPARATORS = {"separator", "continuationSeparator", "continuationNotice"}


def _set_text(el: etree._Element):  # noqa: ANN202 - a Setter
    def setter(value: str) -> None:
        el.text = value
        if value != value.strip():
            el.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    return setter


def _set_field(el: etree._Element, keyword: str):  # noqa: ANN202
    def setter(value: str) -> None:
        el.text = keyword + value
        el.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    return setter




def _refused_kind(ctype: str, name: str) -> str | None:
    if ctype in MACRO_TYPES or name.lower().endswith("vbaproject.bin"):
        return "macros (a macro-enabled file such as .docm); save it as a plain .docx without macros"
    for hint, what in REFUSED_HINTS.items():
        if hint in ctype:
            return f"{what} ({name}), which psan cannot read; remove it or paste it as a picture"
    if "/embeddings/" in f"/{name}":
        return f"an embedded object ({name}), which psan cannot read; remove it"
    return None


class DocxFormat:
    name = "docx"
    suffixes = (".docx", ".docm", ".dotx", ".dotm")
    output_suffix = None

    def open(self, data: bytes, options: Options) -> Opened:
        pkg = read_package(data, "DOCX", options)
        if "[Content_Types].xml" not in pkg.data:
            raise FormatError("the DOCX file has no [Content_Types].xml: it is not a Word document")
        report = Report()
        trees: dict[str, etree._ElementTree] = {"[Content_Types].xml": parse_xml(pkg.data["[Content_Types].xml"],
                                                                                 "[Content_Types].xml")}
        types = ox.content_types(trees["[Content_Types].xml"], pkg.names())
        dropped, settings_links = self._classify(pkg, types, trees, report)
        main = next((n for n, t in types.items() if t in MAIN_TYPES), None)
        if main is None:
            raise FormatError("the DOCX file has no main document part")
        for name in [n for n in pkg.names() if n.endswith(".rels") and n not in dropped]:
            trees[name] = parse_xml(pkg.data[name], name)
        self._drop_references(trees, dropped, settings_links)
        authors = ox.Authors()
        builder = TextBuilder()
        text_parts = [main] + sorted((n for n, t in types.items() if t in TEXT_TYPES and n not in dropped),
                                     key=lambda n: (list(TEXT_TYPES.values()).index(TEXT_TYPES[types[n]]),
                                                    _natural(n)))
        for part in text_parts:
            tree = trees[part] = parse_xml(pkg.data[part], part)
            root = tree.getroot()
            if etree.QName(root).namespace != ox.W:
                raise FormatError("the DOCX file is saved as Strict Open XML, which psan does not read; save it "
                                  "as a regular Word document (.docx) and upload it again")
            changes = ox.resolve_revisions(root, options.tracked_changes)
            report.count("tracked change", changes)
            for fallback in list(root.iter(f"{{{ox.MC}}}Fallback")):  # a duplicate of mc:Choice for old readers
                fallback.getparent().remove(fallback)
            for binding in list(root.iter(ox.w("dataBinding"), f"{{{ox.W15}}}dataBinding")):
                binding.getparent().remove(binding)  # content controls bound to custom XML (dropped)
            authors.scrub(root, report)
            self._count(root, types[part], report)
            builder.end_block()
            if builder.places:
                builder.gap("\n")  # a blank line between parts
            self._walk(root, part, builder)
            self._link_targets(trees.get(ox.rels_name(part)), builder, report)
        for name in trees:
            if name.endswith(".rels") and ox.source_of(name) not in text_parts:
                # other parts' links (settings' template path, an image linked from the web) name files and people
                self._link_targets(trees[name], builder, report)
        changed = dict(trees)
        images = strip_images(pkg, (n for n, t in types.items() if t.startswith("image/") and n not in dropped),
                              report)

        def serialize() -> bytes:
            return pkg.write({**images, **{name: serialize_xml(tree) for name, tree in changed.items()}}, dropped)

        return Opened(self.name, builder.text, report, builder.places, serialize)

    # --- package -------------------------------------------------------------------------------------
    def _classify(self, pkg: Package, types: dict[str, str], trees: dict[str, etree._ElementTree],
                  report: Report) -> tuple[set[str], dict[str, set[str]]]:
        """Clean metadata parts, list images, decide what is dropped; refuse what cannot be accounted for.

        Returns the dropped parts and, per settings part, the relationship ids its removed settings used.
        """
        dropped: set[str] = set()
        settings_links: dict[str, set[str]] = {}
        package_rels = parse_xml(pkg.data["_rels/.rels"], "_rels/.rels") if "_rels/.rels" in pkg.data else None
        thumbnails = set()
        if package_rels is not None:
            for rel in package_rels.getroot():
                if rel.get("Type") == THUMBNAIL_REL and ox.target_of("_rels/.rels", rel):
                    thumbnails.add(ox.target_of("_rels/.rels", rel))
        for name, ctype in types.items():
            if name.endswith("/") or name == "[Content_Types].xml" or name.endswith(".rels"):
                continue
            refused = _refused_kind(ctype, name)
            if refused:
                raise FormatError(f"the DOCX file contains {refused}")
            if name in thumbnails:
                dropped.add(name)
                report.dropped.append("thumbnail image")
            elif ctype in DROPPED_TYPES:
                dropped.add(name)
                report.dropped.append(DROPPED_TYPES[ctype])
            elif name.startswith("customXml/"):
                dropped.add(name)
                report.dropped.append("custom XML data")
            elif ctype == CORE_TYPE:
                trees[name] = parse_xml(pkg.data[name], name)
                ox.clean_properties(trees[name].getroot(), ox.CORE_KEPT, "document properties", report)
            elif ctype == APP_TYPE:
                trees[name] = parse_xml(pkg.data[name], name)
                ox.clean_properties(trees[name].getroot(), ox.APP_KEPT, "application properties", report)
            elif ctype == SETTINGS_TYPE:
                trees[name] = parse_xml(pkg.data[name], name)
                settings_links[name] = ox.clean_settings(trees[name].getroot(), report)
            elif ctype.startswith("image/"):
                report.unchecked.append("images (not read; they may show personal data)")
            elif ctype in MAIN_TYPES or ctype in TEXT_TYPES or ctype in KEPT_TYPES:
                continue
            else:
                raise FormatError(f"the DOCX file contains a part psan does not know ({name}, type "
                                  f"{ctype or 'unknown'}); refused rather than passed on unread")
        return dropped, settings_links

    @staticmethod
    def _drop_references(trees: dict[str, etree._ElementTree], dropped: set[str],
                         settings_links: dict[str, set[str]]) -> None:
        """Remove relationships to dropped parts (and the settings' template link), and their content types."""
        for name, tree in trees.items():
            if not name.endswith(".rels"):
                continue
            for rel in list(tree.getroot()):
                target = ox.target_of(name, rel)
                template = rel.get("Id") in settings_links.get(ox.source_of(name), ())
                if target in dropped or template:
                    tree.getroot().remove(rel)
        ox.drop_overrides(trees["[Content_Types].xml"], dropped)
        for part in list(dropped):
            if ox.rels_name(part) in trees:
                del trees[ox.rels_name(part)]
            dropped.add(ox.rels_name(part))

    # --- text ----------------------------------------------------------------------------------------
    @staticmethod
    def _count(root: etree._Element, ctype: str, report: Report) -> None:
        kind = TEXT_TYPES.get(ctype)
        if kind is None:
            report.count("body")
        elif kind == "footnotes":
            report.count("footnote", _notes(root, "footnote"))
        elif kind == "endnotes":
            report.count("endnote", _notes(root, "endnote"))
        elif kind == "comments":
            report.count("comment", sum(1 for _ in root.iter(ox.w("comment"))))
        else:
            report.count(kind)
        report.count("table", sum(1 for _ in root.iter(ox.w("tbl"))))
        report.count("text box", sum(1 for _ in root.iter(ox.w("txbxContent"))))
        report.count("content control", sum(1 for _ in root.iter(ox.w("sdt"))))
        report.count("field", sum(1 for f in root.iter(ox.w("fldChar")) if f.get(ox.w("fldCharType")) == "begin")
                     + sum(1 for _ in root.iter(ox.w("fldSimple"))))
        report.count("image", sum(1 for _ in root.iter(f"{{{_A}}}blip", f"{{{_V}}}imagedata")))
        report.count("alt text", sum(1 for d in root.iter(f"{{{_WP}}}docPr") if d.get("descr") or d.get("title")))

    @staticmethod
    def _walk(root: etree._Element, part: str, builder: TextBuilder) -> None:
        """Places in reading order; attribute places after the paragraph that holds them."""
        pending: list[tuple[str, object]] = []
        depth = 0
        for event, el in etree.iterwalk(root, events=("start", "end")):
            tag = el.tag
            if event == "start":
                if tag in _FIELD_CODES and el.text and (keyword := _FIELD_KEYWORD.match(el.text)):
                    # the field's name (AUTHOR, HYPERLINK, PAGE) is layout: only its arguments are words
                    builder.gap(keyword.group())
                    builder.add(el.text[keyword.end():], _set_field(el, keyword.group()))
                elif tag in TEXT_TAGS:
                    builder.add(el.text, _set_text(el))
                elif tag in GAPS:
                    builder.gap(GAPS[tag])
                elif isinstance(tag, str) and el.text and el.text.strip() and tag not in _LAYOUT_TEXT \
                        and not _NUMBER.match(el.text):
                    raise FormatError(f"the DOCX part {part} has text in <{etree.QName(tag).localname}>, which "
                                      "psan does not know how to read; refused rather than passed on unread")
                for key, value in el.attrib.items():
                    if (tag, key) in ATTR_PLACES and value.strip():
                        pending.append((value, attr_setter(el, key)))
                if tag == ox.w("p"):
                    if depth:  # a text box's paragraph inside a paragraph: a line of its own
                        builder.end_block()
                    depth += 1
            elif tag == ox.w("p"):
                depth -= 1
                builder.end_block()
                if depth == 0 and pending:
                    for value, setter in pending:
                        builder.add(value, setter)  # type: ignore[arg-type]
                        builder.gap("\n")
                    pending.clear()
        for value, setter in pending:
            builder.add(value, setter)  # type: ignore[arg-type]
            builder.gap("\n")

    @staticmethod
    def _link_targets(tree: etree._ElementTree | None, builder: TextBuilder, report: Report) -> None:
        """External link targets (``mailto:``, web addresses, file paths) are places."""
        if tree is None:
            return
        for rel in tree.getroot():
            if rel.get("TargetMode") == "External" and (rel.get("Target") or "").strip():
                if rel.get("Type", "").endswith(HYPERLINK_REL):
                    report.count("hyperlink")
                builder.end_block()
                builder.add(rel.get("Target"), attr_setter(rel, "Target"))
                builder.gap("\n")


def _notes(root: etree._Element, tag: str) -> int:
    """Foot- or endnotes a person wrote (not the separator lines Word keeps as notes)."""
    return sum(1 for n in root.iter(ox.w(tag)) if n.get(ox.w("type")) not in _SEPARATORS)


def _natural(name: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", posixpath.basename(name)))


register_format(DocxFormat())
