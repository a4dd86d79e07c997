"""Office packages (DOCX, ODT) as ZIP archives read safely, and written back member by member.

Why hand-checked: an office file is a ZIP an attacker controls.  Declared sizes can lie, so each
member is read with a cap on the bytes actually inflated; a member that inflates more than
``max_ratio`` times its compressed size is a bomb; encrypted members and XML with a DTD (entity
expansion, external entities) are refused.  XML is parsed by lxml with entities not resolved and no
network access.
"""
from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from lxml import etree

from psan.tool.formats.files.base import FormatError, Options, Report

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                          huge_tree=False, remove_blank_text=False)

#: leading bytes of an OLE compound file: old binary Office (.doc) and password-protected OOXML
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def check_size(data: bytes, kind: str, options: Options) -> None:
    """Refuse a file larger than the limit before parsing anything."""
    if len(data) > options.max_bytes:
        raise FormatError(f"the {kind} file is {len(data) / 2**20:.1f} MB, more than the limit of "
                          f"{options.max_bytes / 2**20:.0f} MB")
    if not data:
        raise FormatError(f"the {kind} file is empty")


@dataclass(slots=True)
class Package:
    """The members of an office ZIP in their order, with the ZIP entries needed to write them back."""

    infos: list[zipfile.ZipInfo]
    data: dict[str, bytes]

    def names(self) -> list[str]:
        return [i.filename for i in self.infos]

    def write(self, replaced: Mapping[str, bytes], dropped: Iterable[str] = ()) -> bytes:
        """The package again: members in their order and compression, ``replaced`` ones with new bytes."""
        skip = set(dropped)
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as out:
            for info in self.infos:
                if info.filename in skip:
                    continue
                entry = zipfile.ZipInfo(info.filename, date_time=info.date_time)
                entry.compress_type = info.compress_type
                entry.external_attr = info.external_attr
                out.writestr(entry, replaced.get(info.filename, self.data[info.filename]))
        return buf.getvalue()


def read_package(data: bytes, kind: str, options: Options) -> Package:
    """All members of the ZIP, checked against bombs, encryption, duplicates and path tricks."""
    check_size(data, kind, options)
    if data.startswith(OLE_MAGIC):
        raise FormatError(f"the {kind} file is password-protected (encrypted) or in the old binary format; "
                          "save it without a password in the current format and upload it again")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError) as err:
        raise FormatError(f"the {kind} file is damaged: it is not a readable ZIP package ({err})") from None
    with archive:
        infos = archive.infolist()
        if len(infos) > options.max_members:
            raise FormatError(f"the {kind} package has {len(infos)} parts, more than the limit of "
                              f"{options.max_members}")
        if sum(i.file_size for i in infos) > options.max_uncompressed:
            raise FormatError(f"the {kind} package unpacks to more than {options.max_uncompressed / 2**20:.0f} MB "
                              "(a ZIP bomb?)")
        seen: dict[str, bytes] = {}
        budget = options.max_uncompressed
        for info in infos:
            name = info.filename
            if name in seen:
                raise FormatError(f"the {kind} package holds the part {name} twice")
            if name.startswith("/") or ".." in name.split("/") or "\\" in name:
                raise FormatError(f"the {kind} package has an unsafe part name {name!r}")
            if info.flag_bits & 0x1:
                raise FormatError(f"the {kind} file is password-protected (its part {name} is encrypted)")
            limit = min(budget, max(info.compress_size * options.max_ratio, 1 << 20))
            try:
                with archive.open(info) as member:
                    content = member.read(limit + 1)  # what it really inflates to, whatever the header claims
            except (zipfile.BadZipFile, OSError, NotImplementedError, RuntimeError, EOFError, ValueError) as err:
                raise FormatError(f"the {kind} file is damaged: its part {name} cannot be unpacked ({err})") from None
            if len(content) > limit:
                if limit == budget:
                    raise FormatError(f"the {kind} package unpacks to more than "
                                      f"{options.max_uncompressed / 2**20:.0f} MB (a ZIP bomb?)")
                raise FormatError(f"the {kind} part {name} inflates more than {options.max_ratio} times its "
                                  "packed size (a ZIP bomb?)")
            budget -= len(content)
            seen[name] = content
    return Package([i for i in infos], seen)


def strip_images(pkg: Package, names: Iterable[str], report: Report) -> dict[str, bytes]:
    """The package's images without their metadata (EXIF, XMP, PNG text), by member name."""
    from psan.tool.formats.files.images import strip_metadata
    out = {}
    for name in names:
        cleaned = strip_metadata(pkg.data[name])
        if cleaned is not None:
            out[name] = cleaned
            report.removed.append("image metadata (EXIF, XMP, text chunks)")
    return out


def parse_xml(data: bytes, where: str) -> etree._ElementTree:
    """An XML part, refused when malformed or when it declares a DTD (entities are never expanded)."""
    try:
        tree = etree.ElementTree(etree.fromstring(data, _PARSER))
    except etree.XMLSyntaxError as err:
        raise FormatError(f"{where} is not well-formed XML ({err.msg})") from None
    if tree.docinfo.doctype or tree.docinfo.internalDTD is not None:
        raise FormatError(f"{where} declares a DTD (entities), which office files never need; refused")
    return tree


def serialize_xml(tree: etree._ElementTree) -> bytes:
    return etree.tostring(tree, xml_declaration=True, encoding="UTF-8", standalone=True)
