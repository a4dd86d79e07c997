"""HTML pages: every text node and every attribute that can carry words (links, alt texts, titles, meta
content) is a place; scripts, event handlers and comments are removed, since psan cannot read them.

Why lxml's HTML parser: a real parser (not regular expressions) sees the text exactly as a browser groups
it, and keeps the markup around the replaced text as it was.  The page is written back as UTF-8 (its
``<meta charset>`` says so).
"""
from __future__ import annotations

from lxml import etree, html

from psan.tool.formats.files import Opened, register_format
from psan.tool.formats.files.base import FormatError, Options, Report, TextBuilder
from psan.tool.formats.files.package import check_size
from psan.tool.formats.files.xml_places import attr_setter, remove_keep_tail, tail_setter, text_setter

#: attributes that hold layout or structure, never words a person wrote (every other attribute is a place)
STRUCTURAL = frozenset({
    "class", "id", "style", "width", "height", "lang", "xml:lang", "dir", "rel", "type", "colspan", "rowspan",
    "align", "valign", "border", "cellpadding", "cellspacing", "charset", "http-equiv", "name", "media",
    "target", "role", "tabindex", "hidden", "for", "method", "scope", "span", "start", "reversed", "bgcolor",
    "color", "face", "size", "nowrap", "frame", "rules", "headers", "accept-charset", "enctype", "loading",
    "decoding", "crossorigin", "referrerpolicy", "integrity", "sizes", "valuetype", "shape",
    "coords", "usemap", "ismap", "autocomplete", "disabled", "readonly", "required", "checked", "selected",
    "multiple", "maxlength", "minlength", "min", "max", "step", "cols", "rows", "wrap", "defer", "async",
    "open", "controls", "autoplay", "loop", "muted", "preload", "kind", "srclang", "clear", "hspace", "vspace",
    "xmlns", "version", "translate", "spellcheck", "contenteditable", "draggable", "inputmode", "is",
    "itemscope", "itemtype", "itemprop", "property", "scheme", "language", "text", "link", "vlink", "alink",
    "background", "marginwidth", "marginheight", "frameborder", "scrolling", "allow", "sandbox",
})
#: elements whose end ends a line of psan's text
BLOCKS = frozenset({
    "html", "head", "body", "title", "p", "div", "section", "article", "aside", "header", "footer", "nav", "main",
    "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tfoot",
    "tr", "td", "th", "caption", "blockquote", "pre", "figure", "figcaption", "address", "hr", "form",
    "fieldset", "legend", "option", "textarea", "select", "details", "summary", "center",
})
#: elements whose content psan cannot read as text: removed with a note in the report
REMOVED = frozenset({"script", "noscript", "template", "object", "embed", "applet", "iframe", "frame"})










def _decode(data: bytes) -> str:
    for bom, enc in ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16")):
        if data.startswith(bom):
            return data.decode(enc)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    head = data[:4096].lower()
    for enc in ("windows-1250", "windows-1252", "iso-8859-2", "iso-8859-1"):
        if enc.encode() in head:
            return data.decode(enc, "replace")
    raise FormatError("the HTML page is neither UTF-8 nor declares its encoding; save it as UTF-8")


class HtmlFormat:
    name = "html"
    suffixes = (".html", ".htm", ".xhtml")
    output_suffix = None

    def open(self, data: bytes, options: Options) -> Opened:  # noqa: C901
        check_size(data, "HTML", options)
        if b"\x00" in data[:65536]:
            raise FormatError("binary file (contains NUL bytes), not an HTML page")
        source = _decode(data)
        parser = html.HTMLParser(remove_comments=False, remove_pis=False, no_network=True, default_doctype=False)
        try:
            root = html.document_fromstring(source, parser=parser)
        except (etree.ParserError, ValueError) as err:
            raise FormatError(f"the HTML page cannot be parsed ({err})") from None
        tree = root.getroottree()
        report = Report()
        self._clean(root, report)
        builder = TextBuilder()
        attrs: list[tuple[str, object]] = []
        for event, el in etree.iterwalk(root, events=("start", "end")):
            tag = el.tag if isinstance(el.tag, str) else ""
            if event == "start":
                for key, value in el.attrib.items():
                    if key.lower() in STRUCTURAL or not value.strip() or value.startswith("data:"):
                        continue
                    attrs.append((value, attr_setter(el, key)))
                    report.count("attribute text")
                if tag != "style":
                    builder.add(el.text, text_setter(el))
                if tag == "br":
                    builder.gap("\n")
            else:
                if tag in BLOCKS:
                    builder.end_block()
                if el is not root:
                    builder.add(el.tail, tail_setter(el))
        report.count("body")
        report.count("image", len(root.findall(".//img")))
        if attrs:
            builder.end_block()
            builder.gap("\n")
            for value, setter in attrs:
                builder.add(value, setter)  # type: ignore[arg-type]
                builder.gap("\n")
        for meta in root.iter("meta"):
            if meta.get("charset") is not None:
                meta.set("charset", "utf-8")
            elif (meta.get("http-equiv") or "").lower() == "content-type":
                meta.set("content", "text/html; charset=utf-8")

        def serialize() -> bytes:
            doctype = tree.docinfo.doctype or None
            return html.tostring(root, encoding="utf-8", method="html", doctype=doctype)

        return Opened(self.name, builder.text, report, builder.places, serialize)

    @staticmethod
    def _clean(root: etree._Element, report: Report) -> None:
        """Remove comments, processing instructions, scripts, embedded objects and event handlers."""
        for el in list(root.iter(etree.Comment, etree.ProcessingInstruction)):
            if el.text and el.text.strip():
                report.dropped.append("HTML comments")
            remove_keep_tail(el)
        for el in list(root.iter()):
            if isinstance(el.tag, str) and el.tag.lower() in REMOVED:
                report.dropped.append(f"<{el.tag.lower()}> elements")
                remove_keep_tail(el)
        for el in root.iter():
            for key in list(el.attrib):
                if key.lower().startswith("on"):
                    del el.attrib[key]
                    report.dropped.append("event handler attributes (scripts)")
        for meta in root.iter("meta"):
            # the page's author, generator …: words about a person, replaced like text (a place) — but a
            # meta tag naming the author is also listed as metadata
            if (meta.get("name") or "").lower() in ("author", "creator", "publisher", "copyright", "owner"):
                report.removed.append(f"meta {meta.get('name').lower()} (pseudonymized like text)")
        if root.find(".//img") is not None:
            report.unchecked.append("images (not read)")


register_format(HtmlFormat())
