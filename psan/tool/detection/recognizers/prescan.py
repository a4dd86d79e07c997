"""Where the pattern recognizers' regexes can match, from one shared vectorised pass over a text.

Why: every pattern recognizer scanned the whole text with its own regex, and Python's regex engine
pays ≈ 8–30 ns per character for each such scan however rare the matches (it tests the pattern's
first-character class at every character and enters the pattern at every candidate): on a document
of 10^6 tokens the twenty-odd scans cost several CPU seconds, most of them finding a handful of matches.
One alternation of all the patterns gains nothing in Python's engine (it tries every branch at every
candidate) and finds only the leftmost of two overlapping matches.  Instead a recognizer declares the
*shapes* its matches start with (a few characters, each a one-character class, and a class the
character before must not be: :class:`Start`), the text's code points are read once into a NumPy array
(:class:`Scan`, shared by the recognizers of one text), each class is looked up for the whole text at
most once, and the recognizer's own regex is tried only at the positions the shapes allow
(:func:`finditer_at`, :func:`search_at`), with ``regex.match(text, pos)``, which sees the text before
``pos`` (look-behinds, ``\\b``) exactly as a scan does.  The matches are the regex's own, identical to
``regex.finditer(text)`` as long as the shapes hold at every position where the regex matches; the tests
check that for every recognizer that declares shapes (Hypothesis, and the corpora's spans).
"""
from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import TYPE_CHECKING

from psan.tool.detection.recognizers.digit_runs import digit_led, run_starts

if TYPE_CHECKING:
    import numpy as np

#: every one-character class a :class:`Start` was made with (:func:`warm_up` looks them all up in advance)
_DECLARED: set[str] = set()
#: every character of the Basic Multilingual Plane, in order (lone surrogates included)
_BMP = "".join(map(chr, range(0x10000)))
#: beyond this share of candidates per character the regex's own scan is cheaper than one call per candidate
#: (a call of ``regex.match`` costs about as much as the engine's scan of 30 characters); the same matches
#: either way
_MAX_SHARE = 1 / 32
#: shorter texts are scanned by the regexes themselves: the pre-scan's fixed cost (some sixty NumPy calls per
#: text, microseconds each) exceeds what it saves there (tab-dev + elitr-dev, texts of 3,700 characters in the
#: median: 0.465 CPU s with the pre-scan on every text, 0.419 without it, 0.380 with it from 20,000 characters;
#: the 10^6-token document's sections are 100,000 characters); the same matches either way
_MIN_CHARS = 20_000


@dataclass(frozen=True)
class Start:
    """A shape every match of a regex (or of one of its branches) starts with.

    ``chars``: one-character regex classes the characters at offsets 0, 1, … from the match start match
    (``r"\\d"``, ``"[A-Z]"``, ``"(?i:[p])"``); ``not_before``: a one-character class the character before
    the start must not match (the start of the text passes), ``None`` for no condition.
    """

    chars: tuple[str, ...]
    not_before: str | None = None

    def __post_init__(self) -> None:
        _DECLARED.update(self.chars)
        if self.not_before is not None:
            _DECLARED.add(self.not_before)


def start(*chars: str, not_before: str | None = None) -> Start:
    """A :class:`Start` of the classes ``chars`` (at offsets 0, 1, …)."""
    if not chars:
        raise ValueError("a start shape needs at least its first character's class")
    return Start(tuple(chars), not_before)


def literal_starts(words: Iterable[str], length: int, not_before: str | None = None,
                   ignore_case: bool = False) -> tuple[Start, ...]:
    """Shapes of the first ``length`` characters of ``words`` (each word's own prefix, deduplicated).

    ``ignore_case``: each character is matched as ``(?i:…)`` matches it (with Unicode's extra case forms:
    "ſ" for s, "İ" and "ı" for i, the Kelvin sign for k).
    """
    shapes: dict[Start, None] = {}
    for word in words:
        chars = tuple((f"(?i:{re.escape(ch)})" if ignore_case else re.escape(ch)) for ch in word[:length])
        shapes[Start(chars, not_before)] = None
    return tuple(shapes)


@cache
def _table(cls: str) -> np.ndarray:
    """``table[c]``: whether the character ``chr(c)`` of the BMP matches the one-character class ``cls``.

    A negated set ``[^…]`` is the complement of its set ``[…]``: found by the set's few matches, not by its own tens
    of thousands (``[^\\d\\s]`` took 25–30 ms, a few of them built at the first large text).
    """
    if _one_negated_set(cls):
        return ~_table("[" + cls[2:])
    return matched_table(cls)


def _one_negated_set(cls: str) -> bool:
    """Is ``cls`` one negated set ``[^…]`` whose set ``[…]`` (the same items without the caret) is a set too: no
    caret after it, no ``]`` closing it early (one right after the caret is a character of the set, in both) and no
    ``[`` in it (a nested set)?"""
    if not (cls.startswith("[^") and cls.endswith("]")) or len(cls) < 4 or cls[2] == "^":
        return False
    body, i = cls[2:-1], 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[" or ch == "]" and i > 0:
            return False
        i += 1
    return i == len(body)  # (a backslash at the end escaped the closing "]": no set)


def matched_table(cls: str) -> np.ndarray:
    """:func:`_table` by the class's own matches in the BMP (the plain form; a class that is no one-character class
    raises ``ValueError``)."""
    import numpy as np
    found = re.compile(cls).findall(_BMP)
    joined = "".join(found)
    if len(joined) != len(found) or not all(found):  # C loops: a word class has 5 × 10^4 matches
        raise ValueError(f"{cls!r} is not a one-character class")
    table = np.zeros(0x10000, dtype=bool)
    table[np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)] = True
    return table


def warm_up() -> None:
    """Look up every declared class in the BMP now (:func:`_table`: a few milliseconds each).

    Why: the first large text a process reads would pay for every class its recognizers use; the recognizers that
    declare shapes call this from their ``warm_up``, which the pipeline calls when it is built.
    """
    for cls in sorted(_DECLARED):
        try:
            _table(cls)
        except ValueError:  # a shape's mistake: the first large text that needs the class raises it, as before
            continue


#: a class that holds more than one character in this many of a text is found in order by a look-up of every
#: character (one pass), not by merging and sorting the slices of its characters (:meth:`Scan._of`)
_DENSE = 16
#: a class of at most this many characters is spelled out by :func:`_keyed`
_FEW = 8
#: shapes of at most this many characters are spelled out (four 16-bit codes fill a 64-bit key)
_KEY_CHARS = 4


@cache
def _keyed(shapes: tuple[Start, ...]) -> tuple[tuple[np.ndarray, ...], np.ndarray] | None:
    """Shapes of one length (at most four characters) and one ``not_before`` whose classes hold few characters each,
    spelled out: per offset the union of the shapes' classes (a look-up table) and the sorted 64-bit keys of every
    string the shapes take (16 bits a character); ``None`` for other shapes.

    Why: many shapes of a few letters each ("pas", "pwd", "hes" … of the secret keywords; the provinces' first three
    letters) were looked up one by one, a dozen NumPy calls each; spelled out they are a few calls in all.
    """
    import numpy as np
    length, not_before = len(shapes[0].chars), shapes[0].not_before
    if length > _KEY_CHARS or any(len(shape.chars) != length or shape.not_before != not_before for shape in shapes):
        return None
    keys: set[int] = set()
    tables = [np.zeros(0x10000, dtype=bool) for _ in range(length)]
    for shape in shapes:
        members = [np.flatnonzero(_table(cls)).tolist() for cls in shape.chars]
        if any(len(codes) > _FEW for codes in members):
            return None
        for offset, codes in enumerate(members):
            tables[offset][codes] = True
        for combination in product(*members):
            key = 0
            for code in combination:
                key = key << 16 | code
            keys.add(key)
    return tuple(tables), np.array(sorted(keys), dtype=np.uint64)


@cache
def _astral(cls: str, ch: str) -> bool:
    """Whether a character outside the BMP matches the class (such characters are rare: tested one by one)."""
    return re.compile(cls).fullmatch(ch) is not None


class Scan:
    """One text's code points, read once, and where each set of shapes holds (each found once per text).

    The positions of a first class are found once per text (shared by every shape that starts with it: the
    digits of a text serve the dates, amounts, phone numbers and file numbers alike); the following characters
    and the one before are looked up at those positions only.

    Arrays are indexed by ``take`` and filtered by ``compress``, which give what ``a[indices]`` and ``a[mask]`` give
    (1-D arrays): NumPy's subscript of a table by 32-bit codes, or by a mask, costs two to three times as much, and
    a 10^6-token document's sections make thousands of such look-ups.
    """

    def __init__(self, text: str) -> None:
        import numpy as np  # here, not at import: short texts never need it (start-up time and memory)
        self.text = text
        codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        self.n = len(codes)
        self._astral = np.flatnonzero(codes > 0xFFFF)
        self._codes = np.minimum(codes, 0xFFFF) if len(self._astral) else codes
        self._firsts: dict[str, np.ndarray] = {}
        self._index_of: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._starts: dict[tuple[Start, ...], list[int] | None] = {}

    def _index(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The text's positions ordered by character (a stable sort: in text order within one character), its
        distinct characters in order and where each one's positions begin (and the last end) in that order.

        Why: a first class is then found from the few distinct characters of the text it holds, by slices of
        this order, instead of by a comparison or a table look-up of every character of the text per class (a
        text's first classes number about fifty; one sort of 16-bit codes costs what two look-ups do).
        """
        import numpy as np
        if self._index_of is None:
            codes16 = self._codes.astype(np.uint16)  # (astral characters are 0xFFFF here, redone by _first)
            order = np.argsort(codes16, kind="stable")
            ordered = codes16.take(order)
            bounds = np.flatnonzero(ordered[1:] != ordered[:-1]) + 1
            distinct = ordered.take(np.concatenate(([0], bounds))) if self.n else ordered
            self._index_of = order, distinct, np.concatenate(([0], bounds, [self.n]))
        return self._index_of

    def _of(self, table: np.ndarray, ordered: bool) -> np.ndarray:
        """The positions of the characters ``table`` holds (a BMP look-up table; astral characters as U+FFFF), sorted
        if ``ordered``."""
        import numpy as np
        order, distinct, bounds = self._index()
        chosen = np.flatnonzero(table.take(distinct))
        if ordered and int(np.diff(bounds).take(chosen).sum()) * _DENSE > self.n:  # common: look up every character
            return np.flatnonzero(table.take(self._codes))
        chosen = chosen.tolist()
        if len(chosen) == 1:
            return order[bounds[chosen[0]]:bounds[chosen[0] + 1]]
        if not chosen:
            return np.zeros(0, dtype=np.intp)
        found = np.concatenate([order[bounds[k]:bounds[k + 1]] for k in chosen])
        return np.sort(found) if ordered else found

    def _first(self, cls: str) -> np.ndarray:
        """Sorted positions of the characters that match ``cls``."""
        import numpy as np
        found = self._firsts.get(cls)
        if found is None:
            found = self._of(_table(cls), ordered=True)
            if len(self._astral):
                extra = [i for i in self._astral.tolist() if _astral(cls, self.text[i])]
                found = np.union1d(found[~np.isin(found, self._astral)], np.array(extra, dtype=np.intp))
            self._firsts[cls] = found
        return found

    def _at(self, cls: str, positions: np.ndarray) -> np.ndarray:
        """Whether the characters at ``positions`` (all inside the text) match ``cls``."""
        import numpy as np
        found = _table(cls).take(self._codes.take(positions))
        if len(self._astral):
            for k in np.flatnonzero(np.isin(positions, self._astral)).tolist():
                found[k] = _astral(cls, self.text[int(positions[k])])
        return found

    def positions(self, shape: Start) -> np.ndarray:
        """Sorted positions where ``shape`` holds."""
        import numpy as np
        found = self._first(shape.chars[0])
        for offset, cls in enumerate(shape.chars[1:], 1):
            found = found.compress(found + offset < self.n)
            found = found.compress(self._at(cls, found + offset))
        if shape.not_before is not None and len(found):
            inner = found.compress(found > 0)
            kept = inner.compress(~self._at(shape.not_before, inner - 1))
            found = np.concatenate((found[:1], kept)) if found[0] == 0 else kept
        return found

    def starts(self, shapes: tuple[Start, ...]) -> np.ndarray:
        """Sorted distinct positions where one of ``shapes`` holds."""
        import numpy as np
        if len(shapes) == 1:
            return self.positions(shapes[0])
        keyed = None if len(self._astral) else _keyed(shapes)
        if keyed is not None:
            return self._keyed(shapes[0].not_before, *keyed)
        return sorted_distinct(np.concatenate([self.positions(shape) for shape in shapes]))

    def _keyed(self, not_before: str | None, tables: tuple[np.ndarray, ...], keys: np.ndarray) -> np.ndarray:
        """Sorted positions where one of the spelled-out shapes of :func:`_keyed` holds (a text without astral
        characters): the characters at each offset tested against the union of the shapes' classes there, then
        the survivors' characters packed into one key and looked up among the shapes' (sorted) keys by bisection."""
        import numpy as np
        found = self._of(tables[0], ordered=False)
        found = found.compress(found + len(tables) <= self.n)
        for offset, table in enumerate(tables[1:], 1):
            found = found.compress(table.take(self._codes.take(found + offset)))
        key = self._codes.take(found).astype(np.uint64)
        for offset in range(1, len(tables)):
            key = key << np.uint64(16) | self._codes.take(found + offset).astype(np.uint64)
        at = np.searchsorted(keys, key)  # (not ``np.isin``: it sorts the survivors' keys with the shapes')
        at[at == len(keys)] = 0
        found = np.sort(found.compress(keys.take(at) == key))
        if not_before is not None and len(found):
            inner = found.compress(found > 0)
            kept = inner.compress(~self._at(not_before, inner - 1))
            found = np.concatenate((found[:1], kept)) if found[0] == 0 else kept
        return found

    def reaching(self, shapes: tuple[Start, ...], stop: str, to: str) -> np.ndarray:
        """Sorted positions where one of ``shapes`` holds and the first character after it that matches the
        one-character class ``stop`` (there must be one) matches the class ``to`` too."""
        import numpy as np
        found = self.starts(shapes)
        stops = self._first(stop)
        following = np.searchsorted(stops, found, side="right")
        inside = following < len(stops)
        found, after = found.compress(inside), stops.take(following.compress(inside))
        return found.compress(self._at(to, after))

    def candidates(self, shapes: tuple[Start, ...]) -> list[int] | None:
        """The positions where ``shapes`` hold, ``None`` when there are so many that the regex's own scan is the
        cheaper way (computed once per text and shapes)."""
        if shapes in self._starts:
            return self._starts[shapes]
        found = self.starts(shapes)
        out = None if len(found) > self.n * _MAX_SHARE else found.tolist()
        self._starts[shapes] = out
        return out


_last: list[Scan] = []


def sorted_distinct(values: np.ndarray) -> np.ndarray:
    """``np.unique(values)`` of a 1-D array: its distinct values in order (a sort and the values unlike the one
    before them, as ``np.unique`` finds them).

    Why not ``np.unique``: it asks ``np.ma.is_masked`` first, and NumPy then imports its masked arrays
    (``numpy.ma``, 12 ms) at the first large text, for arrays that are never masked.
    """
    import numpy as np
    ordered = np.sort(values)
    keep = np.empty(len(ordered), dtype=bool)
    keep[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def scan_of(text: str) -> Scan:
    """The :class:`Scan` of ``text``; the one of the last text asked for is kept (the recognizers of one text
    share it: :meth:`psan.tool.detection.pipeline.Pipeline.candidates` runs them one after another).  Safe across
    threads:
    the kept scan is read once and used only when it is this very text's."""
    kept = next(iter(_last), None)
    if kept is not None and kept.text is text:
        return kept
    scan = Scan(text)
    _last[:] = [scan]
    return scan


def candidates(text: str, shapes: tuple[Start, ...] | None) -> list[int] | None:
    """The positions of ``text`` where ``shapes`` hold, ``None`` when the regex's own scan is the cheaper way (no
    shapes, a short text whose shapes do not start with digits after a class that holds them, or too many
    candidates).  A short text's positions for shapes that do are the starts of its runs of digits that the shapes
    allow (:mod:`psan.tool.detection.recognizers.digit_runs`, a superset of the shapes' positions)."""
    if shapes is None:
        return None
    if len(text) < _MIN_CHARS:
        led = digit_led(shapes)
        if led is None:
            return None
        found = run_starts(text, led)
        return None if len(found) > len(text) * _MAX_SHARE else found
    return scan_of(text).candidates(shapes)


def reaching(text: str, shapes: tuple[Start, ...], stop: str, to: str) -> list[int] | None:
    """The positions of ``text`` where ``shapes`` hold and the first character after them of the class ``stop`` is of
    the class ``to`` (:meth:`Scan.reaching`), ``None`` for a short text (:func:`candidates`).

    Why: some regexes match only where a run of certain characters after their first one ends in another kind of
    character (capitalized words before a number: "Søndergade 52"); such a condition rules out most of the places
    a shape alone allows.
    """
    if len(text) < _MIN_CHARS:
        return None
    return scan_of(text).reaching(shapes, stop, to).tolist()


@cache
def _prefixed(words: tuple[str, ...], length: int) -> tuple[tuple[Start, ...], dict[str, tuple[str, ...]]]:
    """The shapes of the words' first ``length`` characters and the words by that prefix (in their order)."""
    if any(len(word) < length for word in words):
        raise ValueError(f"every word needs {length} characters at least")
    by_prefix: dict[str, list[str]] = {}
    for word in words:
        by_prefix.setdefault(word[:length], []).append(word)
    return literal_starts(words, length), {prefix: tuple(found) for prefix, found in by_prefix.items()}


def occurrences(text: str, words: tuple[str, ...], length: int = 4) -> list[tuple[str, int]]:
    """Each word's occurrences in ``text`` as ``str.find`` finds them one after another (a word's next occurrence is
    looked for after the last one's end), in the text's order (at one position in the words' order):
    ``(word, position)``.

    Why: a word anchors a phrase regex ("hearings", "life imprisonment"); a search of the whole text per word costs
    more than testing the words where the pre-scan finds their first ``length`` characters (a large text).
    """
    shapes, by_prefix = _prefixed(words, length)
    at = candidates(text, shapes)
    if at is None:
        each: list[tuple[int, str]] = []
        for word in words:
            pos = text.find(word)
            while pos >= 0:
                each.append((pos, word))
                pos = text.find(word, pos + len(word))
        each.sort(key=lambda found: found[0])
        return [(word, pos) for pos, word in each]
    found: list[tuple[str, int]] = []
    ends = dict.fromkeys(words, 0)
    for pos in at:
        for word in by_prefix.get(text[pos:pos + length], ()):
            if pos >= ends[word] and text.startswith(word, pos):
                found.append((word, pos))
                ends[word] = pos + len(word)
    return found


def finditer_at(regex: re.Pattern[str], text: str, shapes: tuple[Start, ...] | None, pos: int = 0,
                endpos: int | None = None) -> list[re.Match[str]]:
    """``list(regex.finditer(text, pos, endpos))``, the regex tried only where ``shapes`` hold.

    Exact when every position where ``regex.match(text, p, endpos)`` succeeds is one where a shape holds: the
    scan finds the leftmost match at or after the last match's end, and ``regex.match`` at a position is the
    scan's attempt there (the text before the position is seen as in a scan).  A match of no characters
    (after which the scan's rules differ) sends the text to ``regex.finditer`` itself.
    """
    return finditer_in(regex, text, candidates(text, shapes), pos, endpos)


def finditer_in(regex: re.Pattern[str], text: str, at: list[int] | None, pos: int = 0,
                endpos: int | None = None) -> list[re.Match[str]]:
    """``list(regex.finditer(text, pos, endpos))``, the regex tried only at the sorted positions ``at`` (``None``:
    the regex scans by itself); exact when ``at`` holds every position where the regex matches (see
    :func:`finditer_at`)."""
    if endpos is None:
        endpos = len(text)
    if at is None:
        return list(regex.finditer(text, pos, endpos))
    match = regex.match
    found: list[re.Match[str]] = []
    end = pos
    lo, hi = bisect_left(at, pos), bisect_left(at, endpos)
    for p in at if lo == 0 and hi == len(at) else at[lo:hi]:  # (no index per candidate: most find nothing)
        if p < end:
            continue
        m = match(text, p, endpos)
        if m is not None:
            end = m.end()
            if end == p:
                return list(regex.finditer(text, pos, endpos))
            found.append(m)
    return found


def merged_positions(*found: list[int] | None) -> list[int] | None:
    """The sorted union of position lists (of :func:`candidates`, :func:`reaching`), ``None`` when one is ``None``
    (a short text: the regex scans it by itself)."""
    if any(positions is None for positions in found):
        return None
    return sorted(set().union(*found))


def search_at(regex: re.Pattern[str], text: str, at: list[int] | None, pos: int = 0) -> re.Match[str] | None:
    """``regex.search(text, pos)``, the regex tried only at the sorted positions ``at`` (``None``: the regex scans by
    itself); exact when ``at`` holds every position where the regex matches (see :func:`finditer_at`)."""
    if at is None:
        return regex.search(text, pos)
    match = regex.match
    for i in range(bisect_left(at, pos), len(at)):
        m = match(text, at[i])
        if m is not None:
            return m
    return None


class Searcher:
    """``regex.search(text, pos)``, the regex tried only where ``shapes`` hold (exact under the condition of
    :func:`finditer_at`)."""

    def __init__(self, regex: re.Pattern[str], text: str, shapes: tuple[Start, ...] | None) -> None:
        self.regex = regex
        self.text = text
        self._at = candidates(text, shapes)

    def search(self, pos: int) -> re.Match[str] | None:
        """The leftmost match at or after ``pos``."""
        return search_at(self.regex, self.text, self._at, pos)


class ShapedSearch:
    """A regex whose :meth:`search` tries it only where ``shapes`` hold: a recognizer's ``trigger``
    (:class:`psan.tool.text.document.Recognizer`), which the pipeline searches for in every text.

    Why: a trigger that finds nothing (the usual case: no IBAN, IP or postcode in a judgment) scanned the whole text
    with the regex engine; on a large text its shapes rule out nearly every position at once.  The same leftmost
    match as ``regex.search(text)`` under the condition of :func:`finditer_at`, where the positions of the
    ``shifted`` shapes moved on by their offsets count too (a match that starts after what its look-behind reads:
    the dot after "www").
    """

    def __init__(self, regex: re.Pattern[str], shapes: tuple[Start, ...],
                 shifted: tuple[tuple[tuple[Start, ...], int], ...] = (), branches: tuple[str, ...] = ()) -> None:
        self.regex = regex
        self.shapes = shapes
        self.shifted = shifted
        self.pattern = regex.pattern
        #: patterns that match (each alone) wherever one of the regex's top-level alternatives does, each one starting
        #: with a literal character: a short text is searched for each (the regex engine finds a literal first
        #: character by a fast loop, a class of two characters by testing the class at every character)
        self.branches = tuple(re.compile(branch, regex.flags) for branch in branches)

    def __repr__(self) -> str:
        return f"ShapedSearch({self.regex!r})"

    def search(self, text: str) -> re.Match[str] | None:
        """The leftmost match in ``text``, ``None`` for none."""
        at = candidates(text, self.shapes)
        if at is None and self.branches:  # the regex matches first where one of its branches does
            found = [m.start() for branch in self.branches if (m := branch.search(text)) is not None]
            return self.regex.match(text, min(found)) if found else None
        if at is not None and self.shifted:
            more = [(candidates(text, shapes), offset) for shapes, offset in self.shifted]
            at = merged_positions(at, *[None if found is None else [p + offset for p in found]
                                        for found, offset in more])
        return search_at(self.regex, text, at)
