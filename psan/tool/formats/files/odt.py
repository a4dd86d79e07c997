"""ODT (OpenDocument text, LibreOffice) files: the body and the headers/footers read into psan's text.

Places: every text node in paragraphs and headings (spans, links, fields, notes, text boxes, tables,
comments), alt texts (``svg:title``/``svg:desc``), frame names, link targets and string values of fields
and cells.  Comment and revision authors become "Author N"; tracked changes are accepted (the deleted
text is kept in the file by LibreOffice, and goes); document metadata (``meta.xml``), the thumbnail and
the settings (printer names) are removed.  Fails closed: macros, embedded objects, encrypted files and
parts of unknown kinds are refused.  Rejecting tracked changes needs the deleted paragraphs put back,
which psan does not do: such a file is refused in ``reject`` mode.
"""
from __future__ import annotations

from lxml import etree

from psan.tool.formats.files import Opened, register_format
from psan.tool.formats.files.base import FormatError, Options, Report, TextBuilder
from psan.tool.formats.files.package import parse_xml, read_package, serialize_xml, strip_images
from psan.tool.formats.files.xml_places import attr_setter, remove_keep_tail, tail_setter, text_setter

NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "draw": "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0",
    "svg": "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0",
    "xlink": "http://www.w3.org/1999/xlink",
    "dc": "http://purl.org/dc/elements/1.1/",
    "meta": "urn:oasis:names:tc:opendocument:xmlns:meta:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
    "manifest": "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0",
}


def q(name: str) -> str:
    prefix, local = name.split(":")
    return f"{{{NS[prefix]}}}{local}"


MIMETYPES = {"application/vnd.oasis.opendocument.text", "application/vnd.oasis.opendocument.text-template"}
BLOCKS = {q("text:p"), q("text:h"), q("svg:title"), q("svg:desc")}
GAPS = {q("text:tab"): "\t", q("text:line-break"): "\n", q("text:soft-page-break"): ""}
CHANGE_MARKS = {q("text:change"), q("text:change-start"), q("text:change-end")}
#: elements whose text is metadata of a comment, not words: authors are neutralised, dates kept
COMMENT_META = {q("dc:creator"), q("dc:date"), q("meta:date-string"), q("meta:creator-initials")}
ATTR_PLACES = {q("xlink:href"), q("office:title"), q("office:string-value"), q("text:string-value"),
               q("draw:name"), q("text:description")}
#: elements whose xlink:href points inside the package (pictures): not a place
_INTERNAL_LINKS = {q("draw:image"), q("draw:object"), q("draw:object-ole"), q("draw:plugin"), q("draw:applet")}
META_KEPT = {q("meta:generator"), q("meta:creation-date"), q("dc:date"), q("dc:language"), q("meta:document-statistic")}
KEPT_MEMBERS = ("mimetype", "META-INF/manifest.xml", "content.xml", "styles.xml", "meta.xml", "manifest.rdf")
DROPPED_PREFIXES = {"Thumbnails/": "thumbnail image", "settings.xml": "settings (printer names, view)",
                    "layout-cache": "layout cache"}
REFUSED_PREFIXES = {"Basic/": "macros", "Scripts/": "macros (scripts)", "Object ": "an embedded object",
                    "ObjectReplacements/": "an embedded object"}










class OdtFormat:
    name = "odt"
    suffixes = (".odt", ".ott")
    output_suffix = None

    def open(self, data: bytes, options: Options) -> Opened:  # noqa: C901
        pkg = read_package(data, "ODT", options)
        mimetype = pkg.data.get("mimetype", b"").decode("ascii", "replace").strip()
        if mimetype not in MIMETYPES:
            raise FormatError(f"the ODT file is not an OpenDocument text (its type is {mimetype or 'missing'})")
        report = Report()
        manifest = parse_xml(pkg.data.get("META-INF/manifest.xml", b""), "META-INF/manifest.xml")
        if manifest.getroot().find(f".//{q('manifest:encryption-data')}") is not None:
            raise FormatError("the ODT file is password-protected (encrypted); save it without a password")
        dropped: set[str] = set()
        for name in pkg.names():
            if name.endswith("/") or name in KEPT_MEMBERS or name.startswith(("Pictures/", "Configurations2/")):
                if name.startswith("Pictures/") and not name.endswith("/"):
                    report.unchecked.append("images (not read; they may show personal data)")
                continue
            refused = next((what for prefix, what in REFUSED_PREFIXES.items() if name.startswith(prefix)), None)
            if refused:
                raise FormatError(f"the ODT file contains {refused} ({name}), which psan cannot read; remove it")
            what = next((what for prefix, what in DROPPED_PREFIXES.items() if name.startswith(prefix)), None)
            if what is None:
                raise FormatError(f"the ODT file contains a part psan does not know ({name}); refused rather "
                                  "than passed on unread")
            dropped.add(name)
            report.dropped.append(what)
        for entry in list(manifest.getroot()):
            if entry.get(q("manifest:full-path")) in dropped:
                manifest.getroot().remove(entry)
        trees = {"META-INF/manifest.xml": manifest}
        if "meta.xml" in pkg.data:
            trees["meta.xml"] = meta = parse_xml(pkg.data["meta.xml"], "meta.xml")
            self._clean_meta(meta.getroot(), report)
        builder = TextBuilder()
        authors: dict[str, int] = {}
        for part, container in (("content.xml", q("office:body")), ("styles.xml", q("office:master-styles"))):
            if part not in pkg.data:
                if part == "content.xml":
                    raise FormatError("the ODT file has no content.xml")
                continue
            tree = trees[part] = parse_xml(pkg.data[part], part)
            root = tree.getroot()
            self._resolve_changes(root, options, report)
            self._scrub_authors(root, authors, report)
            for top in root.iter(container):
                self._count(top, part, report)
                builder.end_block()
                if builder.places:
                    builder.gap("\n")
                self._walk(top, builder)

        images = strip_images(pkg, (n for n in pkg.names() if n.startswith("Pictures/") and not n.endswith("/")),
                              report)

        def serialize() -> bytes:
            return pkg.write({**images, **{name: serialize_xml(tree) for name, tree in trees.items()}}, dropped)

        return Opened(self.name, builder.text, report, builder.places, serialize)

    @staticmethod
    def _clean_meta(root: etree._Element, report: Report) -> None:
        for meta in root.iter(q("office:meta")):
            for child in list(meta):
                if child.tag not in META_KEPT:
                    if isinstance(child.tag, str) and ((child.text or "").strip() or len(child) or child.attrib):
                        report.removed.append(f"document properties: {etree.QName(child).localname}")
                    meta.remove(child)

    @staticmethod
    def _resolve_changes(root: etree._Element, options: Options, report: Report) -> None:
        regions = list(root.iter(q("text:changed-region")))
        if not regions:
            return
        if options.tracked_changes == "reject":
            raise FormatError("the ODT file has tracked changes, and psan can only accept them in ODT files; "
                              "accept or reject them in LibreOffice, or use the setting 'accept'")
        report.count("tracked change", len(regions))
        report.removed.append("revision authors")
        for changes in list(root.iter(q("text:tracked-changes"))):
            changes.getparent().remove(changes)  # holds the deleted text and every change's author
        for mark in list(root.iter(*CHANGE_MARKS)):
            remove_keep_tail(mark)

    @staticmethod
    def _scrub_authors(root: etree._Element, authors: dict[str, int], report: Report) -> None:
        for annotation in root.iter(q("office:annotation")):
            for creator in annotation.iter(q("dc:creator")):
                key = (creator.text or "").strip().casefold()
                creator.text = f"Author {authors.setdefault(key, len(authors) + 1)}"
                report.removed.append("comment authors")
            for initials in annotation.iter(q("meta:creator-initials"), f"{{{NS['dc']}}}creator-initials",
                                            "{http://openoffice.org/2009/office}creator-initials",
                                            "{urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0}"
                                            "sender-initials"):
                initials.text = "A"

    @staticmethod
    def _count(top: etree._Element, part: str, report: Report) -> None:
        if part == "content.xml":
            report.count("body")
        else:
            for kind in ("header", "footer"):
                report.count(kind, sum(1 for el in top.iter() if isinstance(el.tag, str)
                                       and el.tag.startswith(f"{{{NS['style']}}}{kind}") and len(el)))
        for what, tag in (("table", "table:table"), ("comment", "office:annotation"), ("text box", "draw:text-box"),
                          ("image", "draw:image"), ("hyperlink", "text:a"), ("alt text", "svg:desc")):
            report.count(what, sum(1 for _ in top.iter(q(tag))))
        for note in top.iter(q("text:note")):
            report.count("endnote" if note.get(q("text:note-class")) == "endnote" else "footnote")

    @staticmethod
    def _walk(top: etree._Element, builder: TextBuilder) -> None:  # noqa: C901
        """Places in reading order: text in paragraphs (whitespace too), and any other non-blank text."""
        in_para = 0
        pending: list[tuple[str, object]] = []
        for event, el in etree.iterwalk(top, events=("start", "end")):
            tag = el.tag
            if not isinstance(tag, str):
                continue
            if event == "start":
                if tag in BLOCKS:
                    if in_para:  # a note's or a text box's paragraph inside a paragraph: a line of its own
                        builder.end_block()
                    in_para += 1
                if tag == q("text:s"):
                    builder.gap(" " * int(el.get(q("text:c"), "1") or 1))
                elif tag in GAPS:
                    builder.gap(GAPS[tag])
                elif tag not in COMMENT_META and el.text and (in_para or el.text.strip()):
                    builder.add(el.text, text_setter(el))
                for key, value in el.attrib.items():
                    if key in ATTR_PLACES and value.strip() and not (key == q("xlink:href") and tag in _INTERNAL_LINKS):
                        pending.append((value, attr_setter(el, key)))
            else:
                if tag in BLOCKS:
                    in_para -= 1
                    builder.end_block()
                    if not in_para:
                        for value, setter in pending:
                            builder.add(value, setter)  # type: ignore[arg-type]
                            builder.gap("\n")
                        pending.clear()
                if el is not top and el.tail and (in_para or el.tail.strip()):
                    builder.add(el.tail, tail_setter(el))
        for value, setter in pending:
            builder.add(value, setter)  # type: ignore[arg-type]
            builder.gap("\n")


register_format(OdtFormat())
