"""Office files made in the test with a name planted in every part that can hold text or metadata.

Why made here and not stored: the test shows which part it plants the name in, and no personal data
file is committed.  ``NAME`` is planted; ``EMAIL`` too (a ``mailto:`` target).
"""
from __future__ import annotations

import io
import struct
import zipfile
import zlib

NAME = "Jan Novák"
SURNAME = "Novák"
EMAIL = "jan.novak@example.cz"
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def png_bytes() -> bytes:
    """A 1×1 PNG (an image part the formats must keep and list) whose text chunk names its author."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"\x00\xff\x00\x00"
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"tEXt", b"Author\x00" + NAME.encode("latin-1"))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def _rewrite(data: bytes, changes: dict[str, bytes], extra: dict[str, bytes] | None = None) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(data))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            out.writestr(info.filename, changes.get(info.filename, src.read(info.filename)))
        for name, content in (extra or {}).items():
            out.writestr(name, content)
    return buf.getvalue()


def rich_docx() -> bytes:
    """A DOCX with the name in: body (split across a bold and a plain run), a table, a header, a footer, a
    comment (text and author), a tracked insertion and deletion (with authors), a footnote, a text box, an
    image's alt text, a content control, a field's result and code, a hyperlink target and the document,
    application and custom properties."""
    import docx
    from docx.shared import Pt

    d = docx.Document()
    p = d.add_paragraph("Rozsudek ve věci ")
    bold = p.add_run("Jan")
    bold.bold = True
    p.add_run(f" {SURNAME}, bytem v Praze.")
    table = d.add_table(rows=2, cols=2)
    table.cell(0, 0).text = "Žalobce"
    table.cell(0, 1).text = NAME
    table.cell(1, 0).text = "Datum"
    table.cell(1, 1).text = "1. 2. 2020"
    section = d.sections[0]
    section.header.paragraphs[0].text = f"Spis {NAME}"
    section.footer.paragraphs[0].text = f"Vyřizuje {NAME}"
    commented = d.add_paragraph("Poznámka k věci.")
    d.add_comment(commented.runs, text=f"Ověřit u {NAME}", author=NAME, initials="JN")
    pic = d.add_paragraph().add_run().add_picture(io.BytesIO(png_bytes()), width=Pt(20))
    pic._inline.docPr.set("descr", f"Fotografie {NAME}")
    pic._inline.docPr.set("title", NAME)
    d.core_properties.author = NAME
    d.core_properties.last_modified_by = NAME
    d.core_properties.title = f"Věc {NAME}"
    d.core_properties.subject = NAME
    d.core_properties.keywords = NAME
    d.core_properties.comments = NAME
    d.add_paragraph("KONEC")  # placeholder replaced by raw XML below
    buf = io.BytesIO()
    d.save(buf)
    data = buf.getvalue()

    z = zipfile.ZipFile(io.BytesIO(data))
    document = z.read("word/document.xml").decode()
    rich = (
        f'<w:p><w:r><w:t xml:space="preserve">Text </w:t></w:r>'
        f'<w:ins w:id="901" w:author="{NAME}" w:date="2020-01-01T00:00:00Z"><w:r><w:t>vložil {NAME}</w:t></w:r></w:ins>'
        f'<w:del w:id="902" w:author="{NAME}" w:date="2020-01-01T00:00:00Z"><w:r><w:delText>smazal {NAME}'
        f'</w:delText></w:r></w:del></w:p>'
        f'<w:p><w:r><w:t xml:space="preserve">Viz poznámku</w:t></w:r><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/>'
        f'</w:rPr><w:footnoteReference w:id="1"/></w:r></w:p>'
        f'<w:p><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" id="tb1" style="width:100pt;height:50pt">'
        f'<v:textbox><w:txbxContent><w:p><w:r><w:t>Rámeček {NAME}</w:t></w:r></w:p></w:txbxContent></v:textbox>'
        f'</v:shape></w:pict></w:r></w:p>'
        f'<w:sdt><w:sdtPr><w:alias w:val="Jméno {NAME}"/><w:tag w:val="{NAME}"/></w:sdtPr><w:sdtContent><w:p><w:r>'
        f'<w:t>Ovládací prvek {NAME}</w:t></w:r></w:p></w:sdtContent></w:sdt>'
        f'<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> AUTHOR "{NAME}" '
        f'</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>{NAME}</w:t></w:r>'
        f'<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>'
        f'<w:p><w:hyperlink r:id="rIdMail"><w:r><w:t>napište nám</w:t></w:r></w:hyperlink></w:p>'
    )
    document = document.replace("<w:p><w:r><w:t>KONEC</w:t></w:r></w:p>", rich)
    rels = z.read("word/_rels/document.xml.rels").decode().replace(
        "</Relationships>",
        f'<Relationship Id="rIdMail" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
        f'hyperlink" Target="mailto:{EMAIL}" TargetMode="External"/>'
        '<Relationship Id="rIdFn" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
        'footnotes" Target="footnotes.xml"/></Relationships>')
    footnotes = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:footnotes xmlns:w="{W}">'
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
        '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p>'
        f'</w:footnote><w:footnote w:id="1"><w:p><w:r><w:t>Sdělil {NAME}.</w:t></w:r></w:p></w:footnote>'
        '</w:footnotes>')
    types = z.read("[Content_Types].xml").decode().replace(
        "</Types>",
        '<Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.'
        'wordprocessingml.footnotes+xml"/><Override PartName="/docProps/custom.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.custom-properties+xml"/></Types>')
    app = z.read("docProps/app.xml").decode().replace(
        "</Properties>", f"<Company>{NAME} s.r.o.</Company><Manager>{NAME}</Manager></Properties>")
    custom = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Properties xmlns="http://schemas.openxmlformats.org/'
        'officeDocument/2006/custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/'
        'docPropsVTypes"><property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="Klient">'
        f'<vt:lpwstr>{NAME}</vt:lpwstr></property></Properties>')
    pkg_rels = z.read("_rels/.rels").decode().replace(
        "</Relationships>",
        '<Relationship Id="rIdCustom" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
        'custom-properties" Target="docProps/custom.xml"/></Relationships>')
    return _rewrite(data, {"word/document.xml": document.encode(), "word/_rels/document.xml.rels": rels.encode(),
                           "[Content_Types].xml": types.encode(), "docProps/app.xml": app.encode(),
                           "_rels/.rels": pkg_rels.encode()},
                    {"word/footnotes.xml": footnotes.encode(), "docProps/custom.xml": custom.encode()})


def rich_odt() -> bytes:
    """An ODT (odfpy) with the name in: body, a table, a header, a footer, a comment (text and author), a
    tracked insertion and deletion (with authors), a footnote, a text box, an image's title and description,
    a link target, an author field and the document's metadata."""
    from odf import dc, draw, meta, office, style, svg, table, text
    from odf.opendocument import OpenDocumentText

    doc = OpenDocumentText()
    doc.meta.addElement(meta.InitialCreator(text=NAME))
    doc.meta.addElement(dc.Creator(text=NAME))
    doc.meta.addElement(dc.Title(text=f"Věc {NAME}"))
    doc.meta.addElement(meta.UserDefined(name="Klient", text=NAME))
    layout = style.PageLayout(name="pl")
    doc.automaticstyles.addElement(layout)
    master = style.MasterPage(name="Standard", pagelayoutname=layout)
    header = style.Header()
    header.addElement(text.P(text=f"Spis {NAME}"))
    master.addElement(header)
    footer = style.Footer()
    footer.addElement(text.P(text=f"Vyřizuje {NAME}"))
    master.addElement(footer)
    doc.masterstyles.addElement(master)
    bold = style.Style(name="B", family="text")
    bold.addElement(style.TextProperties(fontweight="bold"))
    doc.automaticstyles.addElement(bold)

    changes = text.TrackedChanges()
    from odf.namespaces import TEXTNS, XMLNS
    region = text.ChangedRegion(qattributes={(TEXTNS, "id"): "ct1", (XMLNS, "id"): "ct1"})
    deletion = text.Deletion()
    info = office.ChangeInfo()
    info.addElement(dc.Creator(text=NAME))
    info.addElement(dc.Date(text="2020-01-01T00:00:00"))
    deletion.addElement(info)
    deletion.addElement(text.P(text=f"smazal {NAME}"))
    region.addElement(deletion)
    changes.addElement(region)
    region2 = text.ChangedRegion(qattributes={(TEXTNS, "id"): "ct2", (XMLNS, "id"): "ct2"})
    insertion = text.Insertion()
    info2 = office.ChangeInfo()
    info2.addElement(dc.Creator(text=NAME))
    info2.addElement(dc.Date(text="2020-01-01T00:00:00"))
    insertion.addElement(info2)
    region2.addElement(insertion)
    changes.addElement(region2)
    doc.text.addElement(changes)

    p = text.P(text="Rozsudek ve věci ")
    p.addElement(text.Span(stylename=bold, text="Jan"))
    p.addText(f" {SURNAME}, bytem v Praze.")
    doc.text.addElement(p)
    t = table.Table(name="T1")
    t.addElement(table.TableColumn(numbercolumnsrepeated=2))
    for left, right in (("Žalobce", NAME), ("Datum", "1. 2. 2020")):
        row = table.TableRow()
        for value in (left, right):
            cell = table.TableCell()
            cell.addElement(text.P(text=value))
            row.addElement(cell)
        t.addElement(row)
    doc.text.addElement(t)
    p = text.P(text="Poznámka k věci.")
    note = office.Annotation()
    note.addElement(dc.Creator(text=NAME))
    note.addElement(dc.Date(text="2020-01-01T00:00:00"))
    note.addElement(text.P(text=f"Ověřit u {NAME}"))
    p.addElement(note)
    doc.text.addElement(p)
    p = text.P(text="Text ")
    p.addElement(text.ChangeStart(changeid="ct2"))
    p.addText(f"vložil {NAME}")
    p.addElement(text.ChangeEnd(changeid="ct2"))
    p.addElement(text.Change(changeid="ct1"))
    doc.text.addElement(p)
    p = text.P(text="Viz poznámku")
    fn = text.Note(id="ftn1", noteclass="footnote")
    fn.addElement(text.NoteCitation(text="1"))
    body = text.NoteBody()
    body.addElement(text.P(text=f"Sdělil {NAME}."))
    fn.addElement(body)
    p.addElement(fn)
    doc.text.addElement(p)
    p = text.P()
    frame = draw.Frame(name="Obrázek", width="1cm", height="1cm", anchortype="as-char")
    href = doc.addPicture("Pictures/dot.png", "image/png", png_bytes())
    frame.addElement(draw.Image(href=href))
    frame.addElement(svg.Title(text=NAME))
    frame.addElement(svg.Desc(text=f"Fotografie {NAME}"))
    p.addElement(frame)
    box = draw.Frame(name="Rámeček", width="4cm", height="2cm", anchortype="paragraph")
    tb = draw.TextBox()
    tb.addElement(text.P(text=f"Rámeček {NAME}"))
    box.addElement(tb)
    p.addElement(box)
    doc.text.addElement(p)
    p = text.P()
    p.addElement(text.A(href=f"mailto:{EMAIL}", text="napište nám"))
    p.addText(" Autor: ")
    p.addElement(text.AuthorName(text=NAME))
    doc.text.addElement(p)
    buf = io.BytesIO()
    doc.write(buf)
    return buf.getvalue()
