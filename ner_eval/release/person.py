"""The simulated person: sees one window as the app's API returns it, plus the gold spans inside it.

Why a separate object: honesty.  :class:`Person` gets a :class:`View` built from the JSON of
``/annotate/api/window`` (token texts, the annotations with their decision, NE types and
suggestion) and the gold spans of that window only (a view with gold outside its window is
refused).  It remembers what a person remembers: the verdicts it gave to each word sequence and
to each entity type.  It returns one :class:`Action` at a time; the driver sends it to the API.

Verdict: a span is private iff it overlaps a gold span of the window and at least half of its
tokens are gold; a longer span (a clause around a name) is decided public and the gold inside it
is marked by hand, as a careful person shrinks a span (such a public verdict says nothing about the
span's entity type: it is not counted towards an NE-type decision).  The ``noisy`` person
flips 5 % of its verdicts and overlooks 10 % of the gold spans it should mark by hand (both drawn
once per span from a seeded generator, so a second look gives the same answer).

Workflows (the decision kinds of thesis section 3.4.3 — by token, by word type, by NE type, each
either public or private — plus psan's keys):

* ``thesis``: every suspicious span in window order; **by NE type** (public or private) when the
  verdicts the person gave to that entity type, with this one, reach the evidence
  :func:`psan.tool.decisions.suggest.learned_type_confidence` asks of ``learn_types`` (the same threshold);
  **by word type** when the words were seen before and always got this verdict (private: a name, an
  ID or a contact, else words private in two documents at least, :meth:`Person._word_rule`); else
  **by token**.
* ``psan``: first every suspicious span a rule would settle everywhere is decided by it — **by word
  type** as above, **by NE type** as above; then the spans of a type the window holds
  more of than the thesis way needs (one by one until an NE-type decision) are decided that way; then
  private spans **by entity** (``x``: it costs what ``s`` costs and decides the span's entity in its
  whole document, a name's everywhere, and the same words there,
  :mod:`psan.store.annotation.entity_decisions`): words the app groups into no entity always, an entity
  when it shows again — more of its mentions in the window, or words already decided private in this
  document (:meth:`Person._by_entity`); public spans **by entity** too (``X``) when they are exactly a recognized
  mention of a place, an organisation, a date … (not a name, an ID or a contact) that shows again
  (:meth:`Person._public_by_entity`); then,
  when every suggestion left in the window is right, one ``a`` accepts them; otherwise the first span
  whose suggestion is wrong is decided (NE type / word type / token).

When nothing suspicious is left, each gold span of the window not fully covered by PRIVATE
annotations is **marked by hand** (a PRIVATE decision on its tokens: by token, or in ``psan`` with ``x`` when
nothing recognized shows on its words, so that the marked name's other occurrences in the document are
decided with it).

Keyboard model (``psan/static/annotate.js``): ``w`` per window (the first suspicious span is
selected), ``n`` to reach a span, one key per decision (``s``/``p``, ``S``/``P``, ``C``/``x``, ``a``),
``Esc`` closing the label dialog after a private decision by token or word type; a hand-marked span
costs the moves to it (one per annotation or token), the extensions, ``s`` (``x``) and ``Esc``.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from psan.tool.decisions.suggest import learned_type_confidence
from psan.tool.detection.classifier.model import MODEL_TYPE
from psan.tool.text.document import Category

Kind = Literal["token", "word_type", "ne_type", "entity", "hand", "accept"]
Words = tuple[str, ...]
WORKFLOWS = ("psan", "thesis")
#: what is personal data wherever it stands (a person's name, an ID, a contact), as the person reading it knows: its
#: words may be decided private by word type after one document (:meth:`Person._word_rule`)
NAME_CATEGORIES = frozenset({Category.PERSON, Category.ID, Category.CONTACT})
#: a public ``X`` only on a type the person decided public this many times, ...
MOSTLY_PUBLIC_AFTER = 5
#: ... and this many times as often as private (:meth:`Person._public_by_entity`)
MOSTLY_PUBLIC_RATIO = 2
#: identical verdicts on an entity type after which the eager thesis person decides the type
EAGER_VERDICTS = 3
#: share of verdicts the noisy person gets wrong, and of hand-marks it overlooks
FLIP_SHARE = 0.05
OVERLOOK_SHARE = 0.10


@dataclass(frozen=True, slots=True)
class Shown:
    """An annotation as the window shows it (token indexes of the document)."""

    first: int
    end: int
    decision: str  # "PRIVATE" | "PUBLIC" | "SUSPICIOUS"
    ne_types: tuple[str, ...] = ()
    suggestion: bool | None = None  # the app suggests private (True) / public (False)


@dataclass(frozen=True, slots=True)
class View:
    """What the person may know about the current window."""

    document_id: int
    first_token: int
    end_token: int
    tokens: tuple[str, ...]
    spans: tuple[Shown, ...]
    gold: tuple[tuple[int, int], ...]
    #: the gold spans that are a name, an ID or a contact (what the person knows the words are)
    names: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        if len(self.tokens) != self.end_token - self.first_token:
            raise ValueError("one token text per window token expected")
        for first, end in self.gold:
            if not self.first_token <= first < end <= self.end_token:
                raise ValueError(f"gold span [{first}, {end}) is outside the window")

    def words(self, first: int, end: int) -> Words:
        return self.tokens[first - self.first_token:end - self.first_token]

    @classmethod
    def from_api(cls, answer: dict[str, Any], gold: Sequence[tuple[int, int]],
                 names: Sequence[tuple[int, int]] = ()) -> View:
        """The view of an API answer (``window_json``) with the window's gold token ranges."""
        w = answer["window"]
        first, end = w["first_token"], w["end_token"]
        tokens = tuple(t["text"] for t in answer["tokens"])
        spans = tuple(Shown(a["first_token"], a["end_token"], a["decision"], tuple(a.get("ne_types") or ()),
                            None if a.get("suggestion") is None else a["suggestion"] == "PRIVATE")
                      for a in answer["annotations"])
        clipped = tuple(sorted({(max(a, first), min(b, end)) for a, b in gold if a < end and first < b}))
        named = tuple(sorted({(max(a, first), min(b, end)) for a, b in names if a < end and first < b}))
        return cls(w["document_id"], first, end, tokens, spans, clipped, named)


@dataclass(frozen=True, slots=True)
class Action:
    """One decision: ``private`` for ``[first, end)`` with a scope; ``settles`` spans judged by it."""

    kind: Kind
    first: int
    end: int
    private: bool
    keys: int
    settles: int = 1
    #: the scope sent to the app when it is not the kind's own (a psan hand-mark is sent with ``x``)
    scope: str | None = None


@dataclass
class Person:
    """A careful annotator (see the module docstring); ``noisy`` makes it err as a tired one does."""

    workflow: str
    noisy: bool = False
    seed: int = 0
    #: the person's NE-type decisions: ``cautious`` at the app's learning evidence, ``eager`` after
    #: :data:`EAGER_VERDICTS` identical verdicts on the type (the best the thesis workflow allows; a psan person
    #: given the same policy makes the comparison one of the apps, not of two people)
    policy: str = "cautious"
    #: the app's entity offer of a span: its mentions in the window (0: no entity) and its category; psan only
    entity_mentions: Callable[[int, int, int], tuple[int, str | None]] | None = None
    #: whether a span is exactly a mention of an entity (what a public ``X`` decides); psan only
    entity_is_mention: Callable[[int, int, int], bool] | None = None
    memory: dict[Words, set[bool]] = field(default_factory=dict)
    type_memory: dict[str, list[int]] = field(default_factory=dict)  # type -> [private, public]
    #: the documents in which the words were decided private / public
    private_in: dict[Words, set[int]] = field(default_factory=dict)
    public_in: dict[Words, set[int]] = field(default_factory=dict)
    flipped: int = 0
    overlooked: int = 0
    _rng: random.Random = field(init=False)
    _verdicts: dict[tuple[int, int, int], bool] = field(default_factory=dict)
    _overlook: dict[tuple[int, int, int], bool] = field(default_factory=dict)
    _offers: dict[tuple[int, int, int], tuple[int, str | None]] = field(default_factory=dict)
    _selection: tuple[int, int] | None = None
    _decided_in_window: int = 0

    def __post_init__(self) -> None:
        if self.workflow not in WORKFLOWS:
            raise ValueError(f"unknown workflow {self.workflow!r}; known: {', '.join(WORKFLOWS)}")
        self._rng = random.Random(self.seed)  # noqa: S311  # nosec B311 - a simulation, not security

    # --- what the person thinks ------------------------------------------------------------------
    def verdict(self, view: View, span: Shown) -> bool:
        """Private iff the span overlaps gold; the noisy person flips 5 % of these, once per span."""
        key = (view.document_id, span.first, span.end)
        if key not in self._verdicts:
            gold = {i for a, b in view.gold for i in range(max(a, span.first), min(b, span.end))}
            # a span that is mostly not personal data (a clause around a name) is not masked whole: the
            # person decides it public and marks the name inside by hand (the output keeps private on overlap)
            truth = bool(gold) and 2 * len(gold) >= span.end - span.first
            flip = self.noisy and self._rng.random() < FLIP_SHARE
            self.flipped += flip
            self._verdicts[key] = truth != flip
        return self._verdicts[key]

    def _overlooks(self, view: View, first: int, end: int) -> bool:
        key = (view.document_id, first, end)
        if key not in self._overlook:
            miss = self.noisy and self._rng.random() < OVERLOOK_SHARE
            self.overlooked += miss
            self._overlook[key] = miss
        return self._overlook[key]

    # --- one window ------------------------------------------------------------------------------
    def enter(self, view: View) -> int:
        """A new window is shown (``w``); the app selects its first suspicious span.  Returns the keys."""
        sus = [s for s in view.spans if s.decision == "SUSPICIOUS"]
        self._selection = (sus[0].first, sus[0].end) if sus else (view.first_token, view.first_token + 1)
        self._decided_in_window = 0
        self._offers.clear()
        return 1

    def next_action(self, view: View) -> Action | None:
        """The next decision in this window, or ``None`` when the person is done with it."""
        suspicious = [s for s in view.spans if s.decision == "SUSPICIOUS"]
        if suspicious and self.workflow == "psan":
            for skipped, s in enumerate(suspicious):  # one rule settles all occurrences: before accepting one
                if self._rule_worthy(view, s):
                    return self._decide(view, s, skipped=skipped)
            stepwise = self._cheaper_by_type(view, suspicious)
            if stepwise is not None:
                return self._decide(view, stepwise, skipped=suspicious.index(stepwise))
            for skipped, s in enumerate(suspicious):  # x / X: the entity's other mentions are decided with it
                if self.verdict(view, s) and self._by_entity(view, s) or \
                        not self.verdict(view, s) and self._public_by_entity(view, s):
                    return self._decide(view, s, skipped=skipped)
            wrong = [s for s in suspicious if s.suggestion is None or s.suggestion != self.verdict(view, s)]
            if not wrong:
                return self._accept(view, suspicious)
            return self._decide(view, wrong[0], skipped=suspicious.index(wrong[0]))
        if suspicious:
            return self._decide(view, suspicious[0])
        private = {i for s in view.spans if s.decision == "PRIVATE" for i in range(s.first, s.end)}
        for first, end in view.gold:
            if not all(i in private for i in range(first, end)) and not self._overlooks(view, first, end):
                return self._hand(view, first, end)
        return None

    def _rule_worthy(self, view: View, span: Shown) -> bool:
        """Would this span be decided by a rule that settles it everywhere (word type, NE type)?"""
        private = self.verdict(view, span)
        return self._word_rule(view, span, private) or self._type_decision(span, private)

    def _by_entity(self, view: View, span: Shown) -> bool:
        """Decide a private span with ``x``: words the app groups into no entity always; an entity only when the
        window shows more of its mentions.

        Why: ``x`` decides the span's entity in the whole document.  Words nothing recognized are the name the
        person marked (a project, an institute the recognizers missed), the same wherever they stand in the
        document; a recognized entity's other mentions the person has not seen (whether a place or an
        organisation identifies someone depends on where it stands), so a careful person decides it with ``x``
        only when it shows again: more mentions in the window (the app's entity offer counts them), or the
        same words the person already decided private in this document.
        """
        mentions, _ = self._entity_offer(view, span)
        again = view.document_id in self.private_in.get(view.words(span.first, span.end), ())
        return not mentions or mentions > 1 or again

    def _public_by_entity(self, view: View, span: Shown) -> bool:
        """Decide a public span with ``X``: a recognized mention of a place, an organisation, a date … (not a
        name, an ID or a contact) when its entity shows again, as :meth:`_by_entity` asks of a private one.

        Why: a court or a ministry cited eight times in a judgment is one decision ("this court is public here"),
        not eight accepted suggestions; a public ``X`` decides the entity's recognized mentions in this document
        only (:mod:`psan.store.annotation.entity_decisions`), and a mention the person later finds private in it
        is marked by hand, as any public span around gold.  A name's public ``X`` would reach every document, so
        the person keeps that to word type (:meth:`_word_rule`).  Only for a type the person has found mostly
        public (:data:`MOSTLY_PUBLIC_AFTER`, :data:`MOSTLY_PUBLIC_RATIO`): every mention an ``X`` decides counts as a
        public decision of its type, so on a mostly private type (ELITR's organisations, the project's names) it
        would pile up public evidence for mentions not yet seen and keep the app from learning the type private
        (ELITR seed 2: organisations settled one by one 11 → 200 times).
        """
        if not span.ne_types or MODEL_TYPE in span.ne_types or self.entity_is_mention is None:
            return False
        private, public = self.type_memory.get(span.ne_types[0], (0, 0))
        if public < MOSTLY_PUBLIC_AFTER or public < MOSTLY_PUBLIC_RATIO * private:
            return False  # the type is not mostly public: its mentions stay one verdict each (see the docstring)
        mentions, category = self._entity_offer(view, span)
        if not mentions or category is None or category in NAME_CATEGORIES:
            return False
        again = view.document_id in self.public_in.get(view.words(span.first, span.end), ())
        return (mentions > 1 or again) and self.entity_is_mention(view.document_id, span.first, span.end)

    def _entity_offer(self, view: View, span: Shown) -> tuple[int, str | None]:
        """The entity the app offers for the span (its mentions in the window, its category), asked once."""
        if self.entity_mentions is None:
            return 0, None
        key = (view.document_id, span.first, span.end)
        if key not in self._offers:
            self._offers[key] = self.entity_mentions(*key)
        return self._offers[key]

    def _cheaper_by_type(self, view: View, suspicious: Sequence[Shown]) -> Shown | None:
        """The first span of a type better decided one by one up to an NE-type decision than accepted with ``a``.

        Why: ``a`` costs a judgment per span it settles.  When a window holds many spans of one type with one
        verdict (a TV listing: twenty times, twenty titles), the thesis person decides them one at a time
        until its verdicts on the type allow an NE-type decision, which settles the rest: fewer judgments.
        The psan person has the same key and the same evidence rule, so it does the same whenever that
        costs fewer judgments than accepting them (no look-ahead: the verdicts it counts are the ones it gave).
        """
        by_type: dict[str, list[Shown]] = {}
        for s in suspicious:
            if len(s.ne_types) == 1 and s.ne_types[0] != MODEL_TYPE:  # the app decides no model span by type
                by_type.setdefault(s.ne_types[0], []).append(s)
        for ne_type, spans in by_type.items():
            verdicts = {self.verdict(view, s) for s in spans}
            if len(spans) < 2 or len(verdicts) != 1:
                continue
            private = verdicts.pop()
            seen_private, seen_public = self.type_memory.get(ne_type, (0, 0))
            for decided in range(1, len(spans)):  # ``decided - 1`` by token, then one by NE type
                if self._type_is_clear(seen_private + decided * private, seen_public + decided * (not private),
                                       private):
                    return spans[0]
        return None

    def _accept(self, view: View, suspicious: list[Shown]) -> Action:
        for s in suspicious:
            self._remember(view.words(s.first, s.end), self.verdict(view, s), view.document_id,
                           self._type_evidence(view, s))
        return self._done(Action("accept", view.first_token, view.end_token, False, 1, settles=len(suspicious)))

    def _decide(self, view: View, span: Shown, skipped: int = 0) -> Action:
        private = self.verdict(view, span)
        words = view.words(span.first, span.end)
        nav = 0 if (span.first, span.end) == self._selection and self._decided_in_window == 0 else 1
        nav += skipped  # ``n`` past the spans whose suggestion is right
        kind: Kind
        if self._type_decision(span, private):
            kind, keys = "ne_type", nav + 1
        elif self.workflow == "psan" and not self._word_rule(view, span, private) \
                and (self._by_entity(view, span) if private else self._public_by_entity(view, span)):
            kind, keys = "entity", nav + 1  # x / X: the entity (or the words) in the whole document
        else:
            kind = "word_type" if self._word_rule(view, span, private) else "token"
            keys = nav + 1 + (1 if private else 0)  # a private decision opens the label dialog: Esc
        self._remember(words, private, view.document_id, self._type_evidence(view, span))
        return self._done(Action(kind, span.first, span.end, private, keys))

    def _type_evidence(self, view: View, span: Shown) -> tuple[str, ...]:
        """The entity types a verdict tells the person something about: none when it only re-draws a boundary.

        A span decided public though part of it is personal data ("IČO : 15279111" around the number, a clause
        around a name) is decided so that the person can mark the private part; it says nothing about whether
        the span's entity type is public (the app does not count it either:
        ``psan.store.annotation.suggestions._COUNTED_DECISION``).
        """
        if not self.verdict(view, span) and any(a < span.end and span.first < b for a, b in view.gold):
            return ()
        return span.ne_types

    def _word_rule(self, view: View, span: Shown, private: bool) -> bool:
        """Decide by word type: the words always got this verdict, a private one in two documents at least.

        A name, an ID or a contact (:data:`NAME_CATEGORIES`) is private wherever it stands: one document is enough.

        Why two documents: a word-type rule decides the words in every document, and whether a phrase is
        personal data often depends on its document ("a lawyer" is the applicant's profession in one court
        decision and the representative's in the next; "Istanbul" the applicant's home or a court's seat).
        One private verdict says nothing about the next document; the same verdict in two does.
        """
        words = view.words(span.first, span.end)
        if self.memory.get(words) != {private}:
            return False
        return not private or len(self.private_in.get(words, ())) >= 2 or \
            any(a < span.end and span.first < b for a, b in view.names)

    def _type_decision(self, span: Shown, private: bool) -> bool:
        """Decide by NE type once the type's verdicts, with this one, are as clear as ``learn_types`` asks."""
        if len(span.ne_types) != 1 or span.ne_types[0] == MODEL_TYPE:  # the app refuses "by type" on a model span
            return False
        seen_private, seen_public = self.type_memory.get(span.ne_types[0], (0, 0))
        return self._type_is_clear(seen_private + private, seen_public + (not private), private)

    def _type_is_clear(self, private: int, public: int, verdict: bool) -> bool:
        """Would the person decide the type by ``verdict`` after these verdicts on it (its policy)?"""
        if self.policy == "eager":
            same, other = (private, public) if verdict else (public, private)
            return other == 0 and same >= EAGER_VERDICTS
        learned = learned_type_confidence(private, public)
        return learned is not None and (learned < 0) == verdict

    def answer_offer(self, form: str, mentions: Sequence[tuple[int, int, int]],
                     gold_of: Callable[[int], Sequence[tuple[int, int]]]) -> bool:
        """Confirm an offered public rule (``True``) or dismiss it: confirm when every mention the offer shows is
        public by the gold and the person never decided these words private.

        ``mentions``: ``(document id, first, end)`` of what the offer shows; ``gold_of(document id)``: the gold spans
        of a shown mention's document (the person reads only the shown mentions' context).  A mention that
        overlaps gold at all is enough to dismiss (a careful person does not release a form that is part of
        a name anywhere it looked).  The noisy person flips 5 % of these answers, as its verdicts.
        """
        private_seen = any(True in verdicts for words, verdicts in self.memory.items()
                           if " ".join(w.casefold() for w in words) == form)
        shown_private = any(a < end and first < b for doc, first, end in mentions for a, b in gold_of(doc))
        confirm = not private_seen and not shown_private
        if self.noisy and self._rng.random() < FLIP_SHARE:
            self.flipped += 1
            confirm = not confirm
        return confirm

    def _hand(self, view: View, first: int, end: int) -> Action:
        moves = _moves(view, self._selection, first)
        sel_end = _unit_end(view, first)
        keys = moves + abs(end - sel_end) + (2 if sel_end != end else 0) + 2  # extensions, m/m, s + Esc
        self._remember(view.words(first, end), True, view.document_id)
        # psan: words nothing recognized (no typed span shown on them) are marked with ``x``: the name's other
        # occurrences in the document are decided with it
        untyped = not any(s.ne_types and s.first < end and first < s.end for s in view.spans)
        by_entity = self.workflow == "psan" and untyped
        return self._done(Action("hand", first, end, True, keys, scope="entity" if by_entity else None))

    def _remember(self, words: Words, private: bool, document: int, ne_types: Sequence[str] = ()) -> None:
        self.memory.setdefault(words, set()).add(private)
        (self.private_in if private else self.public_in).setdefault(words, set()).add(document)
        for t in ne_types:
            self.type_memory.setdefault(t, [0, 0])[0 if private else 1] += 1

    def _done(self, action: Action) -> Action:
        self._selection = (action.first, action.end)
        self._decided_in_window += 1
        return action


def _unit_end(view: View, i: int) -> int:
    """End of what ``selectAt(i)`` selects in annotation mode: the outermost annotation, else the token."""
    ends = [s.end for s in view.spans if s.first <= i < s.end]
    return max(ends) if ends else i + 1


def _moves(view: View, selection: tuple[int, int] | None, target: int) -> int:
    """``l``/``h`` presses from the selection to ``target`` (one per annotation or token passed)."""
    if selection is None:
        return 0
    if target < selection[0]:
        return selection[0] - target
    pos, steps = selection[1], 1
    while pos < target:
        pos = _unit_end(view, pos)
        steps += 1
    return steps if pos == target else steps + 2  # overshot into an annotation: m, token moves, m
