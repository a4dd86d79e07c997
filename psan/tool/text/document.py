"""Core data types shared by every part of psan.tool: the document and its parts, categories, decisions.

Why "document" (this module was ``psan.tool.model``): in psan.tool "model" means a trained model
(NameTag/spaCy NER, the token classifier of :mod:`psan.tool.detection.classifier.model`) or the config
setting naming one; the data types a document is made of are not a model.

Offsets are Unicode code point offsets into the document text (Python ``str``
indexing), end exclusive.  Token ids are global within a document and start
at 0; token ranges (``first_token``/``end_token``) are end exclusive too, so
``tokens[first_token:end_token]`` is the covered slice.
"""
from __future__ import annotations

import contextlib
import enum
import gc
import operator
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol


class Category(enum.StrEnum):
    """Coarse categories used for display, rules and output tags."""

    PERSON = "PERSON"
    LOCATION = "LOCATION"
    ORGANIZATION = "ORGANIZATION"
    DATE = "DATE"
    ID = "ID"
    CONTACT = "CONTACT"
    OTHER = "OTHER"
    #: special categories of personal data (GDPR art. 9: health, religion, politics …); the type says which
    SENSITIVE = "SENSITIVE"
    #: demographic quasi-identifiers (occupation, nationality phrases; TAB's DEM): identify only together
    DEMOGRAPHIC = "DEMOGRAPHIC"


class Decision(enum.StrEnum):
    """What a span finally is."""

    PUBLIC = "PUBLIC"
    PRIVATE = "PRIVATE"
    SUSPICIOUS = "SUSPICIOUS"


@dataclass(frozen=True, slots=True)
class Token:
    """One token: its global id and character offsets into the text."""

    id: int
    start: int
    end: int

    def text(self, source: str) -> str:
        return source[self.start:self.end]


_SET_TOKEN_ID = Token.id.__set__  # type: ignore[attr-defined]
_SET_TOKEN_START = Token.start.__set__  # type: ignore[attr-defined]
_SET_TOKEN_END = Token.end.__set__  # type: ignore[attr-defined]


def _token_init(self: Token, id: int, start: int, end: int) -> None:  # noqa: A002 - the field's name
    """``Token.__init__``: sets the slots through their setters.

    Why: a document has 10^5–10^6 tokens, and the generated ``__init__`` of a frozen dataclass calls
    ``object.__setattr__`` per field, which looks the slot up each time; the setters build a token in
    about 60 % of the time.  Same signature, same frozen, equal and hashable token afterwards.
    """
    _SET_TOKEN_ID(self, id)
    _SET_TOKEN_START(self, start)
    _SET_TOKEN_END(self, end)


_token_init.__qualname__ = "Token.__init__"
Token.__init__ = _token_init  # type: ignore[method-assign]


class TokenArray(Sequence[Token]):
    """Tokens ``0 … n-1`` held as two offset lists; a :class:`Token` object is built only when one is read.

    Why: a document has 10^5–10^6 tokens and building a Token object per token cost as much as a fifth of
    NameTag's own run, while the pipeline's steps (alignment, token splitting, name completion,
    propagation, span output) only need the offsets (:func:`token_bounds`).  It reads like the list of
    tokens it stands for (length, indexing, slices as lists, iteration, ``==`` with a list of tokens);
    ``starts`` and ``ends`` are shared, never modified after construction.
    """

    __slots__ = ("starts", "ends", "_texts")

    def __init__(self, starts: list[int], ends: list[int]) -> None:
        if len(starts) != len(ends):
            raise ValueError("token starts and ends differ in length")
        self.starts = starts
        self.ends = ends
        #: (text, the tokens' texts in it, their distinct lower-case ones or None) kept by :func:`token_texts`
        self._texts: tuple[str, list[str], set[str] | None] | None = None

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, index):  # type: ignore[override]  # noqa: ANN001, ANN204 - int or slice, as list's
        if isinstance(index, slice):
            return list(map(Token, range(len(self.starts))[index], self.starts[index], self.ends[index]))
        n = len(self.starts)
        i = operator.index(index)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("token index out of range")
        return Token(i, self.starts[i], self.ends[i])

    def __iter__(self) -> Iterator[Token]:
        return map(Token, range(len(self.starts)), self.starts, self.ends)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TokenArray):
            return self.starts == other.starts and self.ends == other.ends
        if isinstance(other, (list, tuple)):
            return len(other) == len(self.starts) and all(map(operator.eq, self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment] - mutable-looking like a list: not hashable

    def __repr__(self) -> str:
        return f"TokenArray({len(self.starts)} tokens)"


_TOKEN_START = operator.attrgetter("start")
_TOKEN_END = operator.attrgetter("end")


def token_texts(text: str, tokens: Sequence[Token]) -> list[str]:
    """The texts of ``tokens`` in ``text``; a :class:`TokenArray` keeps its list (read it, never modify it).

    Why: the pipeline reads every token's text twice, to check a tokenizer's tokens right after tokenizing and to
    search the found names again (propagation), and the tokens are mostly the same array in between (no candidate
    edge fell inside a token); a list of 10^5 slices costs as much as a recognizer's scan.  The pipeline lets go
    of the list when the document is done (:func:`forget_token_texts`).
    """
    if isinstance(tokens, TokenArray):
        kept = tokens._texts
        if kept is not None and kept[0] is text:
            return kept[1]
        texts = [text[a:b] for a, b in zip(tokens.starts, tokens.ends, strict=True)]
        tokens._texts = (text, texts, None)
        return texts
    starts, ends = token_bounds(tokens)
    return [text[a:b] for a, b in zip(starts, ends, strict=True)]


def keep_token_texts(text: str, tokens: TokenArray, texts: list[str]) -> None:
    """Let a :class:`TokenArray` keep its tokens' texts in ``text`` when a tokenizer has them already
    (:func:`psan.tool.text.tokens.token_offsets`): :func:`token_texts` then returns this list (never modify it)."""
    if len(texts) != len(tokens.starts):
        raise ValueError("one text per token")
    tokens._texts = (text, texts, None)


def kept_token_texts(tokens: Sequence[Token]) -> tuple[str, list[str]] | None:
    """(text, its tokens' texts) a :class:`TokenArray` keeps (:func:`token_texts`), else None (read, never modify)."""
    kept = tokens._texts if isinstance(tokens, TokenArray) else None
    return None if kept is None else (kept[0], kept[1])


def lower_case_token_texts(text: str, tokens: Sequence[Token]) -> set[str]:
    """The distinct texts of ``tokens`` written in lower case (``str.islower``); a :class:`TokenArray` keeps the
    set with its texts (read it, never modify it).

    Why: propagation and the category vote each ask whether a word of a person's name is written in lower case
    anywhere in the document; the set of 10^6 token texts cost each of them a few hundredths of a second.
    """
    texts = token_texts(text, tokens)
    kept = tokens._texts if isinstance(tokens, TokenArray) else None  # (text, texts, …): token_texts just kept it
    if kept is not None and kept[2] is not None:
        return kept[2]
    lower = set(filter(str.islower, set(texts)))
    if isinstance(tokens, TokenArray) and kept is not None:
        tokens._texts = (kept[0], kept[1], lower)
    return lower


def forget_token_texts(tokens: Sequence[Token]) -> None:
    """Drop the texts :func:`token_texts` keeps with a :class:`TokenArray` (memory of a finished document)."""
    if isinstance(tokens, TokenArray):
        tokens._texts = None


def token_bounds(tokens: Sequence[Token]) -> tuple[list[int], list[int]]:
    """The tokens' start and end offsets as two lists (a :class:`TokenArray`'s own: read them, never modify)."""
    if isinstance(tokens, TokenArray):
        return tokens.starts, tokens.ends
    return list(map(_TOKEN_START, tokens)), list(map(_TOKEN_END, tokens))


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence as a token range (end exclusive)."""

    first_token: int
    end_token: int


_SET_SENTENCE_FIRST = Sentence.first_token.__set__  # type: ignore[attr-defined]
_SET_SENTENCE_END = Sentence.end_token.__set__  # type: ignore[attr-defined]


def _sentence_init(self: Sentence, first_token: int, end_token: int) -> None:
    """``Sentence.__init__`` through the slots' setters (as ``Token``'s: 10^4 sentences per corpus pass)."""
    _SET_SENTENCE_FIRST(self, first_token)
    _SET_SENTENCE_END(self, end_token)


Sentence.__init__ = _sentence_init  # type: ignore[method-assign]


@dataclass(frozen=True, slots=True)
class Entity:
    """A recognized span of tokens.

    ``type`` is the recognizer's native code (CNEC ``pf``, OntoNotes ``GPE``,
    pattern name ``EMAIL`` …); ``category`` its coarse class.  ``source``
    names the recognizer, ``score`` is its confidence in [0, 1].
    """

    first_token: int
    end_token: int
    type: str
    category: Category = Category.OTHER
    source: str = ""
    score: float = 1.0


#: sources whose entities say only "a capitalized word" (psan.tool.detection.recognizers.capitalized), no kind of name:
#: the document-level steps (name completion, propagation) neither stop at them nor seed from them, and a
#: person name grown or propagated over one replaces it
WEAK_SOURCES = frozenset({"capitalized"})


_FIRST_TOKEN = operator.attrgetter("first_token")
_END_TOKEN = operator.attrgetter("end_token")


_ENTITY_FIELDS = operator.attrgetter("first_token", "end_token", "type", "category", "source", "score")


def unique_entities(entities: list[Entity]) -> list[Entity]:
    """``list(dict.fromkeys(entities))``: the entities without repeats (equal fields), the first of each kept.

    Why the fields first: an entity's hash and equality are Python functions (a frozen dataclass's), while its
    fields as a tuple are read, hashed and compared in C; most lists hold no repeat and come back as they are.
    """
    if len(set(map(_ENTITY_FIELDS, entities))) == len(entities):
        return list(entities)
    return list(dict.fromkeys(entities))


def in_span_order(entities: Iterable[Entity]) -> list[Entity]:
    """``sorted(entities, key=lambda e: (e.first_token, -e.end_token))``: by start, the longest first.

    Why two stable sorts on one field each (the same order, ties kept as they came): their keys are read in C,
    with no tuple per entity (10^5 in a large document, each one allocation the cyclic collector counts).
    """
    out = sorted(entities, key=_END_TOKEN, reverse=True)
    out.sort(key=_FIRST_TOKEN)
    return out


@dataclass(frozen=True, slots=True)
class CharSpan:
    """A character-offset candidate from a recognizer before it is aligned to tokens."""

    start: int
    end: int
    type: str
    category: Category
    source: str
    score: float = 1.0
    priority: int = 0


_SET_ENTITY = tuple(getattr(Entity, f).__set__ for f in ("first_token", "end_token", "type", "category", "source",
                                                          "score"))
_SET_SPAN = tuple(getattr(CharSpan, f).__set__ for f in ("start", "end", "type", "category", "source", "score",
                                                         "priority"))


def _entity_init(self: Entity, first_token: int, end_token: int, type: str,  # noqa: A002 - the field's name
                 category: Category = Category.OTHER, source: str = "", score: float = 1.0) -> None:
    """``Entity.__init__`` through the slots' setters (as ``Token``'s: 10^4 entities per document)."""
    a, b, c, d, e, f = _SET_ENTITY
    a(self, first_token)
    b(self, end_token)
    c(self, type)
    d(self, category)
    e(self, source)
    f(self, score)


def _span_init(self: CharSpan, start: int, end: int, type: str, category: Category,  # noqa: A002 - the field's name
               source: str, score: float = 1.0, priority: int = 0) -> None:
    """``CharSpan.__init__`` through the slots' setters (every recognizer builds 10^3–10^4 per document)."""
    a, b, c, d, e, f, g = _SET_SPAN
    a(self, start)
    b(self, end)
    c(self, type)
    d(self, category)
    e(self, source)
    f(self, score)
    g(self, priority)


_entity_init.__qualname__ = "Entity.__init__"
_span_init.__qualname__ = "CharSpan.__init__"
Entity.__init__ = _entity_init  # type: ignore[method-assign]
CharSpan.__init__ = _span_init  # type: ignore[method-assign]


@dataclass(slots=True)
class Document:
    """A recognized document: the text plus tokens, sentences and entities."""

    text: str
    #: a list of tokens or a :class:`TokenArray` (the pipeline's output): read it as a sequence
    tokens: list[Token] | TokenArray = field(default_factory=list)
    sentences: list[Sentence] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    language: str = ""

    def token_text(self, token_id: int) -> str:
        return self.tokens[token_id].text(self.text)

    def span_text(self, first_token: int, end_token: int) -> str:
        """Text covered by a token range, including the gaps inside it."""
        start, end = self.char_range(first_token, end_token)
        return self.text[start:end]

    def char_range(self, first_token: int, end_token: int) -> tuple[int, int]:
        tokens = self.tokens
        if isinstance(tokens, TokenArray):
            return tokens.starts[first_token], tokens.ends[end_token - 1]
        return tokens[first_token].start, tokens[end_token - 1].end


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a batch is recognized or a document is built.

    Why: a batch or a stored document of 10^6 tokens allocates hundreds of thousands of cycle-free
    objects (tokens, spans, spaCy/NameTag results) that reference counting frees anyway; each 700
    allocations would start a collector pass, and every tenth pass walks the whole heap – the loaded
    NER model included.
    Nothing is leaked: cycles made meanwhile are found at the next pass after the batch.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


class Trigger(Protocol):
    """What a recognizer's ``trigger`` is: a compiled regex or anything that searches a text like one."""

    def search(self, text: str, /) -> object:
        """A match (anything but ``None``) where the text holds one, else ``None``."""


class Recognizer:
    """Base class of every recognizer component (NER adapter, pattern, gazetteer).

    A recognizer looks at the raw text (and, when it needs them, the tokens
    already produced) and yields character-offset candidates.  The pipeline
    aligns candidates to tokens and the merger resolves overlaps, so a
    recognizer never needs to know about other recognizers.
    """

    name: str = "recognizer"
    #: higher wins when two candidates cover the same text (validated IDs > NER guesses)
    priority: int = 0
    #: a cheap necessary condition: every candidate's text (with the context it needs) contains a match of
    #: it, so where it finds nothing the pipeline skips ``analyze`` (:meth:`psan.tool.detection.pipeline.Pipeline.
    #: candidates`).  Why: most pattern recognizers find nothing in most texts, and their regexes cost
    #: more than a search for what they cannot do without (``://``, a TLD, four dotted numbers).
    #: ``None`` (the default): always run.
    trigger: Trigger | None = None

    def analyze(self, text: str, doc: Document) -> list[CharSpan]:  # pragma: no cover - interface
        raise NotImplementedError

    def warm_up(self) -> None:
        """Load now what :meth:`analyze` would load at its first use (name lists, metadata).

        Why: the pipeline calls it on every component when it is built, so a worker or CLI process
        pays such a one-time load at start-up, not inside whichever document first needs it.
        Default: nothing to load.  Optional for components that do not subclass this class.
        """
