"""Annotation formats of other tools, in and out: one module per format, registered by name.

==============  =====================================================  ===========================
name            what                                                   one file holds
==============  =====================================================  ===========================
``brat``        BRAT standoff ``.ann`` (with the ``.txt`` beside it)   one document
``webanno``     WebAnno TSV 3 (INCEpTION, NamedEntity layer)           one document
``xmi``         UIMA CAS XMI (INCEpTION; dkpro-cassis, DKPro types)    one document
``labelstudio`` Label Studio JSON tasks (``annotations``/``predictions``)  many documents
``conll``       CoNLL-2003, IOB2 in the last column                    many (``-DOCSTART-``)
``conllu``      CoNLL-U, ``NER=B-PER`` in the MISC column              many (``# newdoc id``)
``presidio``    Presidio ``RecognizerResult`` JSON list                one (or ``{name: [...]}``)
``jsonl``       psan's span JSONL (``psan-tool spans``)                many (``file`` field)
==============  =====================================================  ===========================

Why a registry like :mod:`psan.tool.formats.files`: the CLI, the web app and the API call :func:`read_file` /
:func:`write_file` with a format's name and never import a format module.  Many documents of a one-document
format travel as a ZIP of files named after the documents.  A span's label maps to a psan category
through the visible table of :mod:`.labels`; the category round-trips (a writer writes the label it is
given, psan's exports give the category).  Formats of one tag per token (CoNLL, CoNLL-U, WebAnno TSV as
written here) cannot nest: writing keeps the outermost spans and says how many were left out.
"""
from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import PurePosixPath
from typing import Protocol

from psan.tool.base.plugins import PluginRegistry
from psan.tool.formats.annotations.base import (
    MAX_INPUT_BYTES,
    AnnotatedText,
    AnnotationFormatError,
    Span,
    check_spans,
    check_text,
    make_span,
)
from psan.tool.formats.annotations.labels import DEFAULT_CATEGORY, category_for, table_rows, table_text

__all__ = ["AnnotatedText", "AnnotationFormat", "AnnotationFormatError", "DEFAULT_CATEGORY", "Span", "Written",
           "attach", "category_for", "format_names", "get_format", "make_span", "read_file", "register",
           "table_rows", "table_text", "write_file"]

#: ZIP members read at most
MAX_MEMBERS = 10_000


class AnnotationFormat(Protocol):
    """A format: ``read(data, name)`` → documents, ``write(docs)`` → bytes and how many spans it left out."""

    name: str
    title: str
    suffix: str
    #: one file can hold many documents (else many documents are a ZIP of files)
    multi_document: bool
    #: can hold overlapping spans
    nests: bool

    def read(self, data: bytes, name: str) -> list[AnnotatedText]: ...

    def write(self, docs: Sequence[AnnotatedText]) -> tuple[bytes, int]: ...


@dataclass(frozen=True, slots=True)
class Written:
    """A written file: its bytes, the suffix to name it with (``.zip`` for many one-document files), spans left out."""

    data: bytes
    suffix: str
    dropped: int

    @property
    def mimetype(self) -> str:
        """The media type to send the file with."""
        return _MIMETYPES.get(self.suffix, "text/plain")


_MIMETYPES = {".json": "application/json", ".jsonl": "application/jsonl", ".zip": "application/zip",
              ".xmi": "application/xml", ".tsv": "text/tab-separated-values"}


_REGISTRY: PluginRegistry[AnnotationFormat] = PluginRegistry(
    "psan.tool.formats.annotations",
    ("brat", "webanno_tsv", "xmi", "label_studio", "conll2003", "conllu", "presidio", "jsonl"))


def register(fmt: AnnotationFormat) -> AnnotationFormat:
    """Register a format under its name (a later one of the same name replaces it)."""
    return _REGISTRY.register(fmt)


def format_names() -> list[str]:
    """Names of the registered formats, in the order of the table above."""
    return list(_REGISTRY.items())


def get_format(name: str) -> AnnotationFormat:
    """The format of that name; AnnotationFormatError listing the known ones."""
    known = _REGISTRY.items()
    fmt = known.get(name.strip().lower()) if isinstance(name, str) else None
    if fmt is None:
        raise AnnotationFormatError(f"unknown annotation format {name!r}; known: {', '.join(known)}")
    return fmt


def _stem(name: str) -> str:
    return PurePosixPath(name).stem if name else name


def _read_zip(fmt: AnnotationFormat, data: bytes, zip_name: str) -> list[AnnotatedText]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError):
        raise AnnotationFormatError(f"{zip_name}: not a valid ZIP file") from None
    infos = [i for i in archive.infolist() if not i.is_dir()]
    if len(infos) > MAX_MEMBERS:
        raise AnnotationFormatError(f"{zip_name}: more than {MAX_MEMBERS} files")
    if sum(i.file_size for i in infos) > MAX_INPUT_BYTES:
        raise AnnotationFormatError(f"{zip_name}: unpacks to more than {MAX_INPUT_BYTES // (1024 * 1024)} MB")
    by_name = {i.filename: i for i in infos}
    docs: list[AnnotatedText] = []
    for info in sorted(infos, key=lambda i: i.filename):
        if not info.filename.lower().endswith(fmt.suffix) or PurePosixPath(info.filename).name.startswith("."):
            continue
        try:
            member = archive.read(info)
        except (zipfile.BadZipFile, OSError, NotImplementedError, RuntimeError) as err:
            raise AnnotationFormatError(f"{zip_name}: {info.filename}: cannot be unpacked ({err})") from None
        if len(member) > MAX_INPUT_BYTES:
            raise AnnotationFormatError(f"{zip_name}: {info.filename}: too large")
        found = _read_one(fmt, member, info.filename)
        companion = by_name.get(info.filename[: -len(fmt.suffix)] + ".txt")
        if fmt.name == "brat" and companion is not None:  # BRAT's text beside its .ann
            from psan.tool.formats.annotations.base import decode
            text = decode(archive.read(companion), "BRAT .txt")
            found = [attach(d, text, info.filename) for d in found]
        docs += found
    if not docs:
        raise AnnotationFormatError(f"{zip_name}: no {fmt.suffix} file in the ZIP")
    return docs


def _read_one(fmt: AnnotationFormat, data: bytes, name: str) -> list[AnnotatedText]:
    try:
        docs = fmt.read(data, name)
    except AnnotationFormatError as err:
        raise AnnotationFormatError(f"{name}: {err}") from None
    except (ValueError, KeyError, IndexError, TypeError, AttributeError, LookupError, RecursionError) as err:
        # a file crafted to confuse a parser is refused with a message, never half-read
        raise AnnotationFormatError(f"{name}: not a valid {fmt.title} file ({err.__class__.__name__}: {err})") from None
    for doc in docs:
        if doc.name is None and not fmt.multi_document:
            doc.name = _stem(PurePosixPath(name).name)
        check_spans(doc, f"{name}: ")
    return docs


def read_file(format_name: str, data: bytes, name: str = "") -> list[AnnotatedText]:
    """The documents of a file in the named format (a ZIP: every member with the format's suffix).

    AnnotationFormatError with a message naming the file for anything malformed: bad syntax, offsets
    outside the text, span texts that do not match, unsafe XML, too large.
    """
    fmt = get_format(format_name)
    if len(data) > MAX_INPUT_BYTES:
        raise AnnotationFormatError(f"{name or 'the file'}: larger than {MAX_INPUT_BYTES // (1024 * 1024)} MB")
    if data.startswith(b"PK\x03\x04") and fmt.suffix != ".zip":
        return _read_zip(fmt, data, name or "the ZIP")
    return _read_one(fmt, data, name or f"the {fmt.title} file")


def write_file(format_name: str, docs: Sequence[AnnotatedText]) -> Written:
    """The documents in the named format: one file, or for several documents of a one-document format a ZIP of
    files named after the documents (BRAT: each ``.ann`` with its ``.txt``)."""
    fmt = get_format(format_name)
    if fmt.multi_document or len(docs) == 1 and fmt.name != "brat":
        data, dropped = fmt.write(docs)
        return Written(data, fmt.suffix, dropped)
    buf = io.BytesIO()
    dropped = 0
    used: set[str] = set()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        for i, doc in enumerate(docs, start=1):
            stem = _stem(doc.name or "") or f"document-{i}"
            base = stem
            n = 1
            while base in used:
                n += 1
                base = f"{stem}-{n}"
            used.add(base)
            data, left = fmt.write([doc])
            dropped += left
            archive.writestr(base + fmt.suffix, data)
            if fmt.name == "brat":
                archive.writestr(base + ".txt", (doc.text or "").encode("utf-8"))
    return Written(buf.getvalue(), ".zip", dropped)


def attach(doc: AnnotatedText, text: str, where: str = "") -> AnnotatedText:
    """The file's document on the document text psan knows: its spans, checked or moved onto ``text``.

    * the file carries the same text: spans as they are;
    * the file's text was rebuilt from tokens (CoNLL): the tokens are found again in ``text`` and the spans move
      with them (AnnotationFormatError if a token is not next in the text);
    * the file carries another text: AnnotationFormatError saying where they first differ;
    * the file carries no text (BRAT ``.ann``, Presidio, JSONL): offsets checked against ``text`` and every
      span's claimed text compared.
    """
    where = f"{where}: " if where else ""
    if doc.text is not None and doc.text == text:
        out = replace(doc, text=text)
    elif doc.text is not None and doc.token_based and doc.tokens is not None:
        from psan.tool.formats.annotations.segment import align
        ranges = align(text, [doc.text[s:e] for s, e in doc.tokens], 0, where.rstrip(": ") or "file")
        starts = {old[0]: new[0] for old, new in zip(doc.tokens, ranges, strict=True)}
        ends = {old[1]: new[1] for old, new in zip(doc.tokens, ranges, strict=True)}
        spans = []
        for sp in doc.spans:
            if sp.start not in starts or sp.end not in ends:
                raise AnnotationFormatError(f"{where}span {sp.start}-{sp.end} does not start and end at tokens")
            spans.append(replace(sp, start=starts[sp.start], end=ends[sp.end]))
        out = replace(doc, text=text, spans=spans, tokens=ranges, token_based=False)
    elif doc.text is not None:
        pairs = enumerate(zip(doc.text, text, strict=False))
        first = next((i for i, (a, b) in pairs if a != b), min(len(doc.text), len(text)))
        raise AnnotationFormatError(f"{where}the file's text differs from the document's text from character {first} "
                                    f"on ({len(doc.text)} vs {len(text)} characters): it was annotated on another "
                                    "text")
    else:
        out = replace(doc, text=text)
        if out.claimed is not None:
            for sp, claimed in zip(out.spans, out.claimed, strict=False):
                if claimed is not None:
                    check_text(out, sp.start, sp.end, claimed, where)
    check_spans(out, where)
    return out
