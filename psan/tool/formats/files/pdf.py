"""PDF files: the text layer in, the pseudonymized text out (as ``.txt``).

Why text only: writing a PDF back soundly means removing every private glyph from the page's content
stream (not drawing a box over text that stays selectable and searchable); psan does not do that, so it
does not pretend to.  The output holds the pages' text, one blank line between pages; the original's
metadata, annotations, attachments and images are not carried over (the report says so).  A PDF without
a text layer (a scan) is refused: psan does no OCR.
"""
from __future__ import annotations

import io
import logging

from psan.tool.formats.files import Opened, register_format
from psan.tool.formats.files.base import FormatError, Options, Report, TextBuilder
from psan.tool.formats.files.package import check_size

#: a PDF whose pages give fewer letters than this per page on average has no usable text layer
MIN_LETTERS_PER_PAGE = 5
PAGE_BREAK = "\n\n"


class PdfFormat:
    name = "pdf"
    suffixes = (".pdf",)
    output_suffix = ".txt"

    def open(self, data: bytes, options: Options) -> Opened:
        from pypdf import PdfReader
        from pypdf.errors import PdfReadError, PdfStreamError
        check_size(data, "PDF", options)
        if not data.lstrip()[:5].startswith(b"%PDF"):
            raise FormatError("the file is not a PDF (it does not start with %PDF)")
        logging.getLogger("pypdf").setLevel(logging.ERROR)  # damaged-but-readable files warn at length
        try:
            reader = PdfReader(io.BytesIO(data), strict=False)
            if reader.is_encrypted and not reader.decrypt(""):
                raise FormatError("the PDF is password-protected; remove the password and upload it again")
            pages = [page.extract_text() or "" for page in reader.pages]
            meta = reader.metadata or {}
            attachments = len(getattr(reader, "attachments", {}) or {})
        except FormatError:
            raise
        except (PdfReadError, PdfStreamError, ValueError, KeyError, TypeError, AttributeError, IndexError,
                RecursionError, OSError, NotImplementedError) as err:
            if "decrypt" in str(err).lower() or "crypt" in str(err).lower():
                raise FormatError(f"the PDF is encrypted in a way psan cannot open ({err})") from None
            raise FormatError(f"the PDF is damaged and cannot be read ({err.__class__.__name__}: {err})") from None
        letters = sum(ch.isalpha() for page in pages for ch in page)
        if not pages or letters < MIN_LETTERS_PER_PAGE * len(pages):
            raise FormatError("the PDF has no text layer (a scanned image?); psan does not read text from images "
                              "(no OCR): run OCR first or upload the text")
        texts = list(pages)
        builder = TextBuilder()
        for i, page in enumerate(pages):
            if i:
                builder.gap(PAGE_BREAK)
            builder.add(page, lambda value, i=i: texts.__setitem__(i, value))
        report = Report()
        report.count("page", len(pages))
        if meta:
            report.removed.extend(f"PDF properties: {str(k).lstrip('/')}" for k, v in meta.items() if str(v).strip())
        report.dropped.append("layout, images, annotations and attachments (a PDF is released as text)")
        if attachments:
            report.dropped.append(f"{attachments} attached files")
        return Opened(self.name, builder.text, report, builder.places,
                      lambda: PAGE_BREAK.join(texts).encode("utf-8"))


register_format(PdfFormat())
