"""Plain UTF-8 text: the whole file is one place (the format every other one falls back to)."""
from __future__ import annotations

from psan.tool.formats.files import Opened, register_format
from psan.tool.formats.files.base import FormatError, Options, Report, TextBuilder
from psan.tool.formats.files.package import check_size


class TextFormat:
    name = "text"
    suffixes = (".txt",)
    output_suffix = None

    def open(self, data: bytes, options: Options) -> Opened:
        check_size(data, "text", options)
        if b"\x00" in data:
            raise FormatError("binary file (contains NUL bytes), not a text file")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise FormatError(f"not valid UTF-8 (byte {err.start}: {err.reason}); convert it to UTF-8") from None
        holder = [text]
        builder = TextBuilder()
        builder.add(text, lambda value: holder.__setitem__(0, value))
        report = Report()
        report.count("body")
        return Opened(self.name, builder.text, report, builder.places, lambda: holder[0].encode("utf-8"))


register_format(TextFormat())
