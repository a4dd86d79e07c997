"""File formats in and out: DOCX, ODT, HTML, PDF and plain text, registered by name like the recognizers.

A format opens a file's bytes as psan's text plus the places the text came from
(:mod:`psan.tool.formats.files.base`); :func:`write` opens the same bytes again, checks they still give the
text that was annotated, writes the output mode's edits back into the places and serializes the file in
its own format (PDF: the text only, see :mod:`psan.tool.formats.files.pdf`).  Nothing is stored between the
two: the original bytes and the standoff are enough.

    opened = read(data, "decision.docx")           # opened.text, opened.report
    out = render(...)                              # any output mode on opened.text
    new_bytes = write(data, "decision.docx", out.standoff, expected_text=opened.text)
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, Protocol

from psan.tool.base.plugins import PluginRegistry
from psan.tool.formats.files.base import Edit, FormatError, Options, Report, apply, edits_from_standoff

__all__ = ["FileFormat", "FormatError", "Opened", "Options", "Report", "format_for", "formats", "output_name", "read",
           "register_format", "write", "SUFFIXES"]


@dataclass(slots=True)
class Opened:
    """A file opened by its format: the text, what was found/removed, and how to write it back."""

    format: str
    text: str
    report: Report
    places: list[tuple[int, int, Callable[[str], None]]]
    serialize: Callable[[], bytes]


class FileFormat(Protocol):
    """A format: ``open(data, options)`` → :class:`Opened`; ``output_suffix`` None keeps the file's own."""

    name: str
    suffixes: tuple[str, ...]
    output_suffix: str | None

    def open(self, data: bytes, options: Options) -> Opened: ...


_REGISTRY: PluginRegistry[FileFormat] = PluginRegistry("psan.tool.formats.files",
                                                       ("text", "html", "docx", "odt", "pdf"))


def register_format(fmt: FileFormat) -> FileFormat:
    """Register a format under its name and suffixes (a later one of the same name replaces it)."""
    return _REGISTRY.register(fmt)


def formats() -> dict[str, FileFormat]:
    return dict(_REGISTRY.items())


def format_for(name: str) -> FileFormat | None:
    """The format of a file name by its suffix (case-insensitive), or None."""
    suffix = PurePath(name).suffix.lower()
    for fmt in _REGISTRY.items().values():
        if suffix in fmt.suffixes:
            return fmt
    return None


def _format(name: str) -> FileFormat:
    fmt = format_for(name)
    if fmt is None:
        raise FormatError(f"{PurePath(name).suffix or 'a file without suffix'} is not a supported format "
                          f"(supported: {', '.join(sorted(SUFFIXES()))})")
    return fmt


def SUFFIXES() -> set[str]:  # noqa: N802 - reads like the constant it is
    """Every suffix a registered format reads."""
    return {s for f in _REGISTRY.items().values() for s in f.suffixes}


def output_name(name: str) -> str:
    """The output file's name: the same, except for formats written as text (``x.pdf`` → ``x.txt``)."""
    fmt = format_for(name)
    if fmt is None or fmt.output_suffix is None:
        return name
    return str(PurePath(name).with_suffix(fmt.output_suffix))


def read(data: bytes, name: str, options: Options | None = None) -> Opened:
    """Open a file (its format by its name's suffix); :class:`FormatError` when psan refuses it."""
    fmt = _format(name)
    try:
        return fmt.open(data, options or Options())
    except FormatError:
        raise
    except (ValueError, KeyError, IndexError, TypeError, AttributeError, LookupError, OSError, RecursionError) as err:
        # a file crafted to confuse the parser: refused, never half-processed
        raise FormatError(f"the {fmt.name.upper()} file cannot be read ({err.__class__.__name__}: {err})") from None


def write(data: bytes, name: str, standoff: Iterable[Mapping[str, Any]], options: Options | None = None,
          expected_text: str | None = None) -> bytes:
    """The file with the output mode's edits written into it (see the module docstring).

    ``expected_text``: the text the standoff's offsets refer to; a file that no longer gives it is refused
    (the offsets would land in the wrong places).
    """
    opened = read(data, name, options)
    if expected_text is not None and opened.text != expected_text:
        raise FormatError("the file does not give the text that was annotated (psan's reader changed?); "
                          "download the text instead")
    edits: list[Edit] = edits_from_standoff(standoff)
    if edits and edits[-1].end > len(opened.text):
        raise FormatError("the edits do not fit the file's text")
    apply(opened.places, opened.text, edits)
    return opened.serialize()
