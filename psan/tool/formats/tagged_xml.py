"""The tagged XML file format (thesis section 3.3.2): writer, full parser and streaming reader.

Layout::

    <submission>            text before the first token
      <sentence start="0" end="7">
        <token id="0">Jan</token> <ne type="P" start="1" end="3" category="PERSON" source="nametag" score="1">
          <ne type="pf" start="1" end="2"><token id="1">Jan</token></ne> …</ne>
      </sentence>           text between sentences / after the last token
    </submission>

* ``start``/``end`` of ``sentence`` and ``ne`` are **token ids, end exclusive** (like
  :class:`psan.tool.text.document.Entity`).  Token ids count from 0 from the start of the document.
* **Every character of the original text is kept**: the text between tokens (spaces,
  newlines, text before the first / after the last token) is character data at the place
  it occurs, so concatenating all character data rebuilds the text exactly.  ``&<>`` are
  escaped and CR is written as ``&#13;`` (an XML parser would otherwise turn CRLF into LF).
* Characters XML 1.0 forbids (C0 controls except TAB/LF/CR, U+FFFE/U+FFFF and lone
  surrogates) are written as an empty element ``<c u="001B"/>`` (hex code point) so no
  offset shifts.  The psan tokenizers never put them inside tokens, but the reader accepts
  ``<c>`` anywhere.
* ``ne`` carries optional extension attributes ``category``, ``source``, ``score`` (the
  DTD's ``type``/``start``/``end`` are always present) so a document round-trips losslessly.
* **Nesting policy**: properly nested entities are nested elements (outer = longer; equal
  ranges keep the document order).  An entity that *crosses* another entity or a sentence
  boundary is **split into fragments**: the element is closed where it must be and reopened
  afterwards; every fragment carries the *full* ``start``/``end``/``type`` of the entity and
  the fragments after the first one carry ``cont="1"``.  Readers create the entity from the
  first fragment only, so no entity is lost or duplicated and the XML stays well-formed.
* Sentences are expected to cover all tokens in order; if they do not, uncovered token
  runs are wrapped in extra sentences (and overlapping ones trimmed) so the XML is valid.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from xml.sax.handler import ContentHandler  # nosec B406

from defusedxml import ElementTree as DefusedET
from defusedxml.expatreader import create_parser

from psan.tool.text.categories import category_of
from psan.tool.text.document import (
    Category,
    Document,
    Entity,
    Sentence,
    Token,
    TokenArray,
    in_span_order,
    token_bounds,
)
from psan.tool.text.tokens import XML_FORBIDDEN

_TEXT_ESCAPE_RE = re.compile(f"[&<>\r{XML_FORBIDDEN}]")
_ATTR_ESCAPE_RE = re.compile(f"[&<>\"\t\n\r{XML_FORBIDDEN}]")
_SIMPLE = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;", '"': "&quot;", "\t": "&#9;", "\n": "&#10;"}


def _text_repl(m: re.Match[str]) -> str:
    ch = m.group()
    return _SIMPLE.get(ch) or f'<c u="{ord(ch):04X}"/>'


def escape_text(text: str) -> str:
    """Escape character data; forbidden characters become ``<c u="…"/>`` elements."""
    return _TEXT_ESCAPE_RE.sub(_text_repl, text)


def _escape_attr(value: str) -> str:
    # forbidden characters cannot be represented in attributes at all → U+FFFD
    return _ATTR_ESCAPE_RE.sub(lambda m: _SIMPLE.get(m.group(), "\ufffd"), value)


def normalized_sentences(doc: Document) -> list[Sentence]:
    """Sentences that partition all tokens in order (fixing gaps/overlaps of foreign input)."""
    n = len(doc.tokens)
    out: list[Sentence] = []
    pos = 0
    for s in sorted(doc.sentences, key=lambda s: (s.first_token, s.end_token)):
        a, b = max(s.first_token, pos), min(s.end_token, n)
        if a >= b:
            continue
        if a > pos:
            out.append(Sentence(pos, a))
        out.append(Sentence(a, b))
        pos = b
    if pos < n:
        out.append(Sentence(pos, n))
    return out


def ne_open(e: Entity, cont: bool) -> str:
    """The opening ``<ne>`` tag of an entity (``cont``: it continues from the previous sentence)."""
    head, tail = _ne_parts(e.type, e.category, e.source, "" if e.score == 1.0 else repr(e.score))
    return f'{head}{e.first_token}" end="{e.end_token}{tail}{_CONT if cont else ">"}'


_CONT = ' cont="1">'


@functools.lru_cache(maxsize=4096, typed=True)
def _ne_parts(type_: str, category: object, source: str, score: str) -> tuple[str, str]:
    """An ``<ne>`` tag's text before its start and after its end (what entities of one kind share: a large document
    has 10^5 entities of a few dozen kinds)."""
    head = f'<ne type="{_escape_attr(type_)}" start="'
    tail = f'" category="{_escape_attr(category.value if isinstance(category, Category) else str(category))}"'
    if source:
        tail += f' source="{_escape_attr(source)}"'
    if score:
        tail += f' score="{score}"'
    return head, tail


def _escaped_text(text: str, starts: list[int], ends: list[int]) -> tuple[str, list[int], list[int]]:
    """The whole text escaped once (:func:`escape_text`) and the token offsets moved into it.

    Why: escaping is per character, so a slice of the escaped text between two moved offsets is the
    escaped slice; one ``sub`` over the text replaces two per token (10^6 tokens in a large document).
    """
    found = _TEXT_ESCAPE_RE.search(text)
    if found is None:
        return text, starts, ends
    import numpy as np
    places = [m.start() for m in _TEXT_ESCAPE_RE.finditer(text, found.start())]
    growth = [len(_text_repl(m)) - 1 for m in _TEXT_ESCAPE_RE.finditer(text, found.start())]
    at = np.asarray(places, dtype=np.int64)
    shift = np.concatenate(([0], np.cumsum(np.asarray(growth, dtype=np.int64))))

    def moved(offsets: list[int]) -> list[int]:
        arr = np.asarray(offsets, dtype=np.int64)
        return (arr + shift[np.searchsorted(at, arr, side="left")]).tolist()

    return escape_text(text), moved(starts), moved(ends)


def to_xml(doc: Document) -> str:
    """Serialize a document to the tagged XML format (see module docstring)."""
    return "".join(xml_chunks(doc))


def xml_chunks(doc: Document) -> Iterator[str]:  # noqa: C901
    """:func:`to_xml` in pieces (about a sentence each), so a large document's XML can be written as it is made.

    How (a large document has 10^6 tokens): the text is escaped once; per sentence, the tokens where no
    entity starts or ends are written by one comprehension, and only the tokens where one does go through
    the element stack.  The result equals writing token by token with every entity's fragments.
    """
    text, tokens = doc.text, doc.tokens
    n = len(tokens)
    ids = range(n) if isinstance(tokens, TokenArray) else [t.id for t in tokens]
    etext, starts, ends = _escaped_text(text, *token_bounds(tokens))
    entities = in_span_order(e for e in doc.entities if 0 <= e.first_token < e.end_token <= n)
    firsts = [e.first_token for e in entities]
    lasts = [e.end_token for e in entities]
    yield '<?xml version="1.0" encoding="UTF-8"?>\n<submission>'
    pos = 0  # offset in the escaped text written so far
    started: set[int] = set()  # indices of entities whose first fragment was written
    ei = 0
    running: list[int] = []  # indices (ascending) of entities started before the current sentence's end

    def plain(lo: int, hi: int) -> list[str]:
        """Tokens ``lo … hi-1`` with the gap before each: no entity starts or ends at any of them."""
        return [f'{etext[p:a]}<token id="{i}">{etext[a:b]}</token>'
                for i, p, a, b in zip(ids[lo:hi], ends[lo - 1:hi - 1], starts[lo:hi], ends[lo:hi], strict=True)]

    for sent in normalized_sentences(doc):
        a, b = sent.first_token, sent.end_token
        part: list[str] = [etext[pos:starts[a]], f'<sentence start="{a}" end="{b}">']
        # entities overlapping this sentence: ones started earlier and still running + ones starting here.
        # Only entities still running are kept between sentences, so the whole pass stays linear
        # (rescanning every earlier entity per sentence made it quadratic).
        running = [k for k in running if lasts[k] > a]
        while ei < len(entities) and firsts[ei] < b:
            if lasts[ei] > a:
                running.append(ei)
            ei += 1
        by_start: dict[int, list[int]] = {}
        for k in running:
            by_start.setdefault(max(firsts[k], a), []).append(k)
        events = sorted(set(by_start).union(e for k in running if a < (e := min(lasts[k], b)) < b))
        stack: list[int] = []  # entity indices of open <ne> elements
        t = a  # the next token to write
        for event in events:
            if t < event:  # tokens t … event-1: nothing opens or closes there
                if t == a:
                    part.append(f'<token id="{ids[a]}">{etext[starts[a]:ends[a]]}</token>')
                    t += 1
                part += plain(t, event)
            t = event
            reopen: list[int] = []
            low = next((i for i, k in enumerate(stack) if min(lasts[k], b) == t), None)
            if low is not None:
                while len(stack) > low:
                    k = stack.pop()
                    part.append("</ne>")
                    if min(lasts[k], b) > t:
                        reopen.append(k)
            if t > a:
                part.append(etext[ends[t - 1]:starts[t]])
            opening = reopen + by_start.get(t, [])
            opening.sort(key=lambda k: (-min(lasts[k], b), k))
            for k in opening:
                part.append(ne_open(entities[k], cont=k in started))
                started.add(k)
                stack.append(k)
            part.append(f'<token id="{ids[t]}">{etext[starts[t]:ends[t]]}</token>')
            t += 1
        if t < b:
            if t == a:
                part.append(f'<token id="{ids[a]}">{etext[starts[a]:ends[a]]}</token>')
                t += 1
            part += plain(t, b)
        part.append("</ne>" * len(stack))
        part.append("</sentence>")
        yield "".join(part)
        pos = ends[b - 1]
    yield etext[pos:]
    yield "</submission>\n"


def _entity_from_attrs(attrs: dict[str, str]) -> Entity:
    etype = attrs.get("type", "")
    cat = attrs.get("category")
    try:
        category = Category(cat) if cat else category_of(etype)
    except ValueError:
        category = category_of(etype)
    return Entity(int(attrs["start"]), int(attrs["end"]), etype, category,
                  attrs.get("source", ""), float(attrs.get("score", "1.0")))


def from_xml(xml: str | bytes, language: str = "") -> Document:
    """Parse a whole tagged XML document (ElementTree based; independent of the streaming reader)."""
    root = DefusedET.fromstring(xml)
    parts: list[str] = []
    length = 0
    tokens: list[Token] = []
    sentences: list[Sentence] = []
    entities: list[Entity] = []

    def add(s: str | None) -> None:
        nonlocal length
        if s:
            parts.append(s)
            length += len(s)

    def walk(el) -> None:  # noqa: ANN001 - ElementTree element
        add(el.text)
        for child in el:
            tag = child.tag
            if tag == "c":
                add(chr(int(child.get("u"), 16)))
            elif tag == "token":
                start = length
                walk(child)
                tokens.append(Token(int(child.get("id")), start, length))
            else:
                if tag == "sentence":
                    sentences.append(Sentence(int(child.get("start")), int(child.get("end"))))
                elif tag == "ne" and child.get("cont") != "1":
                    entities.append(_entity_from_attrs(dict(child.attrib)))
                walk(child)
            add(child.tail)

    walk(root)
    return Document("".join(parts), tokens, sentences, entities, language)


@dataclass(slots=True)
class Recording:
    """A recorded slice of the document: ``n`` consecutive tokens plus every entity overlapping them.

    ``text`` is the original text from the first token's start to the last token's end
    (``start_char``/``end_char`` are its offsets).  ``complete`` is False when the document ended early.
    """

    first_token: int
    wanted: int
    callback: Callable[[Recording], None]
    tokens: list[Token] = field(default_factory=list)
    token_texts: list[str] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    start_char: int = -1
    end_char: int = -1
    parts: list[str] = field(default_factory=list)
    complete: bool = True

    @property
    def end_token(self) -> int:
        return self.first_token + len(self.tokens)

    @property
    def text(self) -> str:
        return "".join(self.parts)[:max(self.end_char - self.start_char, 0)]


class StreamReader(ContentHandler):
    """Incremental SAX (defusedxml/expat) reader of tagged XML with event callbacks.

    Feed it chunks (``str`` or ``bytes``, do not mix) with :meth:`feed`, then :meth:`close`.
    Events: ``on_token(token, text)``, ``on_entity_start(entity)`` (once per entity, at its
    first fragment), ``on_entity_end(entity)`` (after its last token), ``on_sentence(sentence)``
    (at the sentence end).  :meth:`record` asks for the next N tokens as a :class:`Recording`.
    With ``build=True`` the whole :class:`Document` is collected in :attr:`document`.
    """

    def __init__(self, on_token: Callable[[Token, str], None] | None = None,
                 on_entity_start: Callable[[Entity], None] | None = None,
                 on_entity_end: Callable[[Entity], None] | None = None,
                 on_sentence: Callable[[Sentence], None] | None = None,
                 build: bool = True, language: str = "") -> None:
        super().__init__()
        self.on_token, self.on_entity_start, self.on_entity_end, self.on_sentence = (
            on_token, on_entity_start, on_entity_end, on_sentence)
        self.build = build
        self.document = Document("", language=language)
        self._parts: list[str] = []
        self._pos = 0
        self._next_token = 0
        self._token_id = -1
        self._token_start = -1
        self._token_parts: list[str] | None = None
        self._ne_stack: list[tuple[Entity, bool]] = []
        self._open: list[Entity] = []  # entities started and not yet ended
        self._sentence: Sentence | None = None
        self._pending: list[Recording] = []  # waiting for their first token
        self._recording: list[Recording] = []
        self._parser = create_parser()
        self._parser.setContentHandler(self)
        self._closed = False

    # -- public API ---------------------------------------------------------------------------
    def feed(self, chunk: str | bytes) -> None:
        """Parse the next chunk; events fire synchronously."""
        self._parser.feed(chunk)

    def close(self) -> Document:
        """Finish parsing, flush incomplete recordings (``complete=False``) and return the document."""
        if not self._closed:
            self._closed = True
            self._parser.close()
            for rec in self._pending + self._recording:
                rec.complete = False
                rec.callback(rec)
            self._pending, self._recording = [], []
            if self.build:
                self.document.text = "".join(self._parts)
        return self.document

    def record(self, n_tokens: int, callback: Callable[[Recording], None]) -> None:
        """Record the next ``n_tokens`` tokens (those whose on_token has not fired yet) and call back.

        The recording includes every entity overlapping the slice (also ones that started
        before it).  Any number of nested/overlapping recordings may run at once.
        """
        rec = Recording(self._next_token, n_tokens, callback)
        if n_tokens <= 0:
            rec.start_char = rec.end_char = self._pos
            callback(rec)
            return
        rec.entities.extend(e for e in self._open if e.end_token > self._next_token)
        self._pending.append(rec)

    # -- SAX handler --------------------------------------------------------------------------
    def characters(self, content: str) -> None:
        self._pos += len(content)
        if self.build:
            self._parts.append(content)
        if self._token_parts is not None:
            self._token_parts.append(content)
        for rec in self._recording:
            rec.parts.append(content)

    def startElement(self, name: str, attrs) -> None:  # noqa: ANN001, N802 - SAX API
        if name == "token":
            self._token_id = int(attrs.getValue("id"))
            self._token_start = self._pos
            self._token_parts = []
            if self._pending:
                for rec in self._pending:
                    rec.start_char = self._pos
                self._recording.extend(self._pending)
                self._pending = []
        elif name == "c":
            self.characters(chr(int(attrs.getValue("u"), 16)))
        elif name == "ne":
            a = {k: attrs.getValue(k) for k in attrs.getNames()}
            if a.get("cont") == "1":
                ent = next((e for e in reversed(self._open) if (e.first_token, e.end_token, e.type)
                            == (int(a["start"]), int(a["end"]), a.get("type", ""))), None)
                self._ne_stack.append((ent if ent is not None else _entity_from_attrs(a), True))
                return
            ent = _entity_from_attrs(a)
            self._ne_stack.append((ent, False))
            self._open.append(ent)
            if self.build:
                self.document.entities.append(ent)
            for rec in self._pending + self._recording:
                rec.entities.append(ent)
            if self.on_entity_start:
                self.on_entity_start(ent)
        elif name == "sentence":
            self._sentence = Sentence(int(attrs.getValue("start")), int(attrs.getValue("end")))

    def endElement(self, name: str) -> None:  # noqa: N802 - SAX API
        if name == "token":
            tok = Token(self._token_id, self._token_start, self._pos)
            text = "".join(self._token_parts or ())
            self._token_parts = None
            self._next_token = self._token_id + 1
            if self.build:
                self.document.tokens.append(tok)
            if self.on_token:
                self.on_token(tok, text)
            done: list[Recording] = []
            for rec in self._recording:
                rec.tokens.append(tok)
                rec.token_texts.append(text)
                rec.end_char = self._pos
                if len(rec.tokens) >= rec.wanted:
                    done.append(rec)
            if done:
                self._recording = [r for r in self._recording if r not in done]
                for rec in done:
                    rec.callback(rec)
        elif name == "ne":
            ent, _ = self._ne_stack.pop()
            if self._next_token >= ent.end_token and ent in self._open:
                self._open.remove(ent)
                if self.on_entity_end:
                    self.on_entity_end(ent)
        elif name == "sentence":
            if self._sentence is not None:
                if self.build:
                    self.document.sentences.append(self._sentence)
                if self.on_sentence:
                    self.on_sentence(self._sentence)
            self._sentence = None


def read_stream(chunks, language: str = "") -> Document:  # noqa: ANN001 - any iterable of str/bytes
    """Parse an iterable of chunks with :class:`StreamReader` and return the document."""
    reader = StreamReader(language=language)
    for chunk in chunks:
        reader.feed(chunk)
    return reader.close()
