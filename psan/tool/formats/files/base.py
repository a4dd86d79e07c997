"""What every file format shares: the text a file shows psan, where each character came from, and the way back.

Why one model for all formats: recognition, annotation and the output modes work on plain text
(:mod:`psan.tool.release.output`).  A format only has to say which places in the file hold text (a run of a
Word paragraph, an alt text, a hyperlink target, a PDF page), in reading order; psan's text is those
places joined by *gaps* (line breaks between paragraphs, tabs) that belong to no place.  Writing back
takes the edits the output mode made (from its standoff, in text offsets) and gives each place its new
text: kept characters stay where they were, a replacement goes to the places its region covered.  So the
format layer never decides what is private and never re-implements an output mode.

Safety: a private character lies inside an edit, and every place's new text is built only from
characters outside edits plus replacements, so no private character reaches the file through a place.
What no place accounts for (metadata, unknown parts) is the format's job: removed, or the file refused.
"""
from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: sets a place's new text in the file model (an element's text, an attribute, a relationship target)
Setter = Callable[[str], None]


class FormatError(ValueError):
    """A file psan refuses; the message says why, in words the person who uploaded it understands."""


@dataclass(frozen=True, slots=True)
class Options:
    """How a file is read: tracked changes ``accept`` (keep insertions, drop deletions) or ``reject``,
    and the hard limits that keep a hostile file from exhausting memory."""

    tracked_changes: str = "accept"
    max_bytes: int = 32 * 1024 * 1024
    max_uncompressed: int = 256 * 1024 * 1024
    max_members: int = 5000
    #: a member may unpack to at most this many times its compressed size (a ZIP bomb unpacks to 1000x)
    max_ratio: int = 200

    def __post_init__(self) -> None:
        if self.tracked_changes not in ("accept", "reject"):
            raise ValueError(f"tracked_changes must be accept or reject, not {self.tracked_changes!r}")


@dataclass(slots=True)
class Report:
    """What psan found in a file and what it removed, for the document page and the release report.

    ``parts`` counts text-bearing parts by kind ("header": 2, "comment": 3 …); ``removed`` names the
    metadata fields removed or replaced; ``dropped`` the parts removed from the package; ``unchecked``
    the parts kept that psan cannot read (images).
    """

    parts: dict[str, int] = field(default_factory=dict)
    removed: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)

    def count(self, kind: str, n: int = 1) -> None:
        if n:
            self.parts[kind] = self.parts.get(kind, 0) + n

    def as_dict(self) -> dict[str, Any]:
        return {"parts": dict(self.parts), "removed": sorted(set(self.removed)), "dropped": sorted(set(self.dropped)),
                "unchecked": sorted(set(self.unchecked))}


class TextBuilder:
    """psan's text built place by place; remembers each place's range and how to set its new text."""

    def __init__(self) -> None:
        self._chunks: list[str] = []
        self._length = 0
        self.places: list[tuple[int, int, Setter]] = []

    def add(self, text: str | None, setter: Setter) -> None:
        """A place holding ``text`` (an empty place is skipped: nothing to replace in it)."""
        if not text:
            return
        self.places.append((self._length, self._length + len(text), setter))
        self._chunks.append(text)
        self._length += len(text)

    def gap(self, text: str) -> None:
        """Layout between places (line breaks, tabs): in the text, in no place."""
        self._chunks.append(text)
        self._length += len(text)

    def end_block(self) -> None:
        """End a paragraph: one line break, unless the text is empty or already ends one."""
        if self._length and not self.text_endswith("\n"):
            self.gap("\n")

    def text_endswith(self, suffix: str) -> bool:
        return bool(self._chunks) and "".join(self._chunks[-len(suffix):]).endswith(suffix)

    @property
    def text(self) -> str:
        return "".join(self._chunks)


@dataclass(frozen=True, slots=True)
class Edit:
    """Text offsets ``[start, end)`` of the original replaced by ``replacement`` in the output."""

    start: int
    end: int
    replacement: str


def edits_from_standoff(standoff: Iterable[Mapping[str, Any]]) -> list[Edit]:
    """The edits an output mode made, from its standoff (whitespace ``remove`` dropped and a preposition a
    surrogate re-vocalized belong to the edit), sorted and checked not to overlap."""
    edits = sorted((Edit(e["original_start"] - len(e.get("removed_before") or ""),
                         e["original_end"] + len(e.get("removed_after") or ""), e["replacement"]) for e in standoff),
                   key=lambda e: (e.start, e.end))
    for a, b in zip(edits, edits[1:], strict=False):
        if b.start < a.end:
            raise ValueError(f"overlapping edits at {a.start}:{a.end} and {b.start}:{b.end}")
    return edits


_WORD = re.compile(r"\S+\s*")


def _split_replacement(replacement: str, pieces: Sequence[str]) -> list[str]:
    """The replacement spread over the places its region covered, word by word when the places split the
    original between words ("Jan" bold + " Novák" plain → "Petr" bold + " Svoboda" plain); otherwise all in
    the first place (a name broken inside a word takes the first run's formatting)."""
    words_per_piece: list[int] = []
    for i, piece in enumerate(pieces):
        starts = len(re.findall(r"(?:^|(?<=\s))\S", piece))
        # a piece continuing the previous piece's word does not start a word
        if i and piece[:1] and not piece[0].isspace() and pieces[i - 1][-1:] and not pieces[i - 1][-1].isspace():
            starts -= 1
        words_per_piece.append(starts)
    lead = re.match(r"\s*", replacement).group()  # type: ignore[union-attr]
    words = _WORD.findall(replacement[len(lead):])
    if sum(words_per_piece) != len(words) or any(n < 0 for n in words_per_piece):
        return [replacement] + [""] * (len(pieces) - 1)
    out, used = [], 0
    for i, n in enumerate(words_per_piece):
        chunk = "".join(words[used:used + n])
        used += n
        if i == 0:
            chunk = lead + chunk
        out.append(chunk)
    # keep each chunk's spacing where the original had it: move a trailing space to the next piece if it began there
    for i in range(1, len(out)):
        if pieces[i][:1].isspace() and out[i - 1].endswith(" ") and not out[i].startswith(" "):
            out[i - 1], out[i] = out[i - 1][:-1], " " + out[i]
    return out


def place_texts(text: str, places: Sequence[tuple[int, int, Any]], edits: Sequence[Edit]) -> list[str]:
    """The new text of every place (same order as ``places``, which are sorted and disjoint).

    A place's characters outside edits are copied; an edit's replacement goes to the places it overlaps
    (:func:`_split_replacement`); an edit that overlaps no place (only layout) writes nothing.
    """
    ops: dict[int, list[tuple[int, int, str]]] = {}
    starts = [s for s, _, _ in places]
    for edit in edits:
        i = max(0, bisect.bisect_right(starts, edit.start) - 1)
        hit: list[int] = []
        while i < len(places) and places[i][0] < edit.end:
            if places[i][1] > edit.start:
                hit.append(i)
            i += 1
        if not hit:
            continue
        pieces = [text[max(edit.start, places[i][0]):min(edit.end, places[i][1])] for i in hit]
        for i, chunk in zip(hit, _split_replacement(edit.replacement, pieces), strict=True):
            s, e, _ = places[i]
            ops.setdefault(i, []).append((max(edit.start, s) - s, min(edit.end, e) - s, chunk))
    new: list[str] = []
    for i, (s, e, _) in enumerate(places):
        original = text[s:e]
        if i not in ops:
            new.append(original)
            continue
        parts, pos = [], 0
        for lo, hi, chunk in ops[i]:  # edits are sorted and disjoint, so these are too
            parts.append(original[pos:lo])
            parts.append(chunk)
            pos = hi
        parts.append(original[pos:])
        new.append("".join(parts))
    return new


def apply(builder_places: Sequence[tuple[int, int, Setter]], text: str, edits: Sequence[Edit]) -> None:
    """Write the new text of every place into the file model (the format serializes it afterwards)."""
    for (_, _, setter), value in zip(builder_places, place_texts(text, builder_places, edits), strict=True):
        setter(value)
