"""The simulated person of the honest session: sees one window, decides like a careful annotator.

Why a separate object: honesty is the point of the simulation.  :class:`Annotator` receives a
:class:`WindowView` – the window's token texts, the spans the app shows in it with their current
decision, the entity groups the app offers, and the gold spans *of that window only* – and
returns one :class:`Action` at a time.  It never sees the corpus, the document outside the
window, or gold outside it (a :class:`WindowView` with a gold span outside its window is refused).

What it remembers between windows is what a person remembers: the verdicts it gave to each word
sequence so far (:attr:`Annotator.memory`).  Policy, per suspicious span in window order (the
UI's ``n`` key):

* private iff the span overlaps a gold span of the window;
* **by entity** (one key for every mention the app groups with the span) when the app offers a
  group with other mentions and the span is private;
* **by NE type** (``C``: the entity type public everywhere) when the span is public and the
  type was seen at least :attr:`Annotator.ne_type_after` times, always public;
* with the ``accept`` lever, only spans whose suggestion is wrong are decided one by one (first
  wrong one first); when every remaining suggestion of the window is right, one key accepts them;
* **by word type** (``S``/``P``: a rule for every occurrence of these words) when the words were
  seen before and always got this verdict;
* **by token** (``s``/``p``) otherwise.

When nothing suspicious is left it marks each gold span of the window that is not fully private
**by hand** (token mode: move, extend, ``s``).

Keyboard model (``psan/static/annotate.js``): after a window loads the first suspicious span is
selected; after a decision the selection stays, so the next one costs ``n``; a private decision
by token or word type opens the label dialog, closed with ``Esc``; a new window costs ``w``; a
hand-marked span costs the moves from the selection to it (``l``/``h``, one per annotation or
token), the extensions (``L``/``K``) and ``s`` + ``Esc``; accepting the window's remaining
suggestions is one key (``a``, in the UI); deciding the whole entity is one key too (``x``, the
app's ``scope: "entity"`` decision, which opens no label dialog).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["token", "word_type", "ne_type", "entity", "hand", "accept"]
Seq = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Shown:
    """A span as the window shows it: token range (document indexes), final decision, entity offer."""

    first: int
    end: int
    decision: str  # "PRIVATE" | "PUBLIC" | "SUSPICIOUS"
    entity_mentions: int = 0  # mentions the app would decide with one "entity" key (0: not offered)
    ne_types: tuple[str, ...] = ()  # entity types the app shows on the span (for "by NE type")
    suggestion: bool | None = None  # the app suggests private (True) / public (False); None: no suggestion


@dataclass(frozen=True, slots=True)
class WindowView:
    """Everything the annotator may know about the current window (see the module docstring)."""

    first_token: int
    end_token: int
    tokens: tuple[str, ...]
    spans: tuple[Shown, ...]
    gold: tuple[tuple[int, int], ...]

    def __post_init__(self) -> None:
        if len(self.tokens) != self.end_token - self.first_token:
            raise ValueError("one token text per window token expected")
        for first, end in self.gold:
            if not self.first_token <= first < end <= self.end_token:
                raise ValueError(f"gold span [{first}, {end}) is outside the window "
                                 f"[{self.first_token}, {self.end_token})")
        for s in self.spans:
            if not self.first_token <= s.first < s.end <= self.end_token:
                raise ValueError(f"span [{s.first}, {s.end}) is outside the window")

    def words(self, first: int, end: int) -> Seq:
        return self.tokens[first - self.first_token:end - self.first_token]


@dataclass(frozen=True, slots=True)
class Action:
    """One decision: ``private`` for ``[first, end)`` with the given scope."""

    kind: Kind
    first: int
    end: int
    private: bool
    keys: int


@dataclass(slots=True)
class Annotator:
    """A careful person (see the module docstring); ``use_entities``: take the app's entity offers."""

    use_entities: bool = False
    use_accept: bool = False
    #: an NE type seen this many times, always public, is decided public by type (``C``)
    ne_type_after: int = 5
    memory: dict[Seq, set[bool]] = field(default_factory=dict)
    type_memory: dict[str, list[int]] = field(default_factory=dict)  # type -> [private, public] seen
    _selection: tuple[int, int] | None = None
    _decided_in_window: int = 0

    def enter(self, view: WindowView) -> int:
        """A new window is shown (keys: ``w``); the app selects its first suspicious span."""
        sus = [s for s in view.spans if s.decision == "SUSPICIOUS"]
        self._selection = (sus[0].first, sus[0].end) if sus else (view.first_token, view.first_token + 1)
        self._decided_in_window = 0
        return 1

    def next_action(self, view: WindowView) -> Action | None:
        """The next decision in this window, or ``None`` when the window is done."""
        suspicious = [s for s in view.spans if s.decision == "SUSPICIOUS"]
        if suspicious and self.use_accept:
            wrong = [s for s in suspicious if s.suggestion is not self._private(view, s.first, s.end)]
            if not wrong:
                return self._accept(view, suspicious)
            return self._decide(view, wrong[0], skipped=suspicious.index(wrong[0]))
        if suspicious:
            return self._decide(view, suspicious[0])
        covered = _private_tokens(view)
        for first, end in sorted(view.gold):
            if not all(i in covered for i in range(first, end)):
                return self._hand(view, first, end)
        return None

    # --- decisions -----------------------------------------------------------------------------
    def _private(self, view: WindowView, first: int, end: int) -> bool:
        return any(g_first < end and first < g_end for g_first, g_end in view.gold)

    def _accept(self, view: WindowView, suspicious: list[Shown]) -> Action:
        """Every remaining suggestion is right: one key (``a``) accepts them all."""
        for s in suspicious:
            self._remember(view.words(s.first, s.end), bool(s.suggestion), s.ne_types)
        return self._done(Action("accept", view.first_token, view.end_token, False, 1))

    def _decide(self, view: WindowView, span: Shown, skipped: int = 0) -> Action:
        private = self._private(view, span.first, span.end)
        words = view.words(span.first, span.end)
        seen = self.memory.get(words)
        nav = 0 if (span.first, span.end) == self._selection and self._decided_in_window == 0 else 1
        nav += skipped  # ``n`` past the spans whose suggestion is right
        if self.use_entities and private and span.entity_mentions > 1:
            kind: Kind = "entity"
            keys = nav + 1
        elif not private and len(span.ne_types) == 1 and self._type_public(span.ne_types[0]):
            kind = "ne_type"
            keys = nav + 1
        else:
            kind = "word_type" if seen == {private} else "token"
            keys = nav + 1 + (1 if private else 0)  # a private decision opens the label dialog: Esc
        self._remember(words, private, span.ne_types)
        return self._done(Action(kind, span.first, span.end, private, keys))

    def _type_public(self, ne_type: str) -> bool:
        private, public = self.type_memory.get(ne_type, (0, 0))
        return private == 0 and public >= self.ne_type_after

    def _hand(self, view: WindowView, first: int, end: int) -> Action:
        self._remember(view.words(first, end), True)
        moves = _moves(view, self._selection, first)
        sel_first, sel_end = first, _unit_end(view, first)
        keys = moves + abs(end - sel_end) + (2 if (sel_first, sel_end) != (first, end) else 0) + 2
        return self._done(Action("hand", first, end, True, keys))  # extensions, m/m, s + Esc

    def _remember(self, words: Seq, private: bool, ne_types: Sequence[str] = ()) -> None:
        self.memory.setdefault(words, set()).add(private)
        for t in ne_types:
            self.type_memory.setdefault(t, [0, 0])[0 if private else 1] += 1

    def _done(self, action: Action) -> Action:
        self._selection = (action.first, action.end)
        self._decided_in_window += 1
        return action


def _private_tokens(view: WindowView) -> set[int]:
    return {i for s in view.spans if s.decision == "PRIVATE" for i in range(s.first, s.end)}


def _outermost_end(spans: Sequence[Shown], i: int) -> int | None:
    ends = [s.end for s in spans if s.first <= i < s.end]
    return max(ends) if ends else None


def _unit_end(view: WindowView, i: int) -> int:
    """End of what ``selectAt(i)`` selects in annotation mode: the outermost annotation, else the token."""
    return _outermost_end(view.spans, i) or i + 1


def _moves(view: WindowView, selection: tuple[int, int] | None, target: int) -> int:
    """``l``/``h`` presses from the selection to ``target`` (one per annotation or token passed)."""
    if selection is None:
        return 0
    pos, steps = selection[1], 1
    if target < selection[0]:
        return selection[0] - target
    while pos < target:
        pos = _unit_end(view, pos)
        steps += 1
    return steps if pos == target else steps + 2  # overshot into an annotation: m, token moves, m
