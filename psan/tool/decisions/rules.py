"""Automatic rules and their linear-time matching.

A rule is a *kind* (``type``) plus a *condition* and a *confidence* that
votes on every span the rule finds (> 0 public, < 0 private, 0 = lookup rule
that only makes the span suspicious, see :mod:`psan.tool.decisions.voting`).

Kinds are pluggable: :data:`RULE_KINDS` maps a kind name to a compiler that
turns all rules of that kind into a :class:`Matcher`.  Built in:

* ``NE_TYPE``   – condition is an entity type code; matches ``doc.entities`` of that type.
* ``WORD_TYPE`` – condition is a token sequence; matches equal token sequences.
* ``LEMMA``     – condition is a lemma sequence; matches tokens whose lemmas are equal.

``PATTERN`` / ``MODEL`` kinds can be added later with :func:`register_rule_kind`.

Matching semantics (tested in ``tests/tool/test_rules.py``):

* whole tokens only ("Jana" never matches rule "Jan"), exactly the rule's length;
* every match of every rule is reported, overlaps included (rules "Jan" and
  "Jan Novák" on "Jan Novák" give both spans);
* a match never crosses a sentence boundary (the NER does not either, and a
  name split by a sentence end is rarely one name); tokens outside every
  sentence form their own segments; a document without sentences is one segment;
* case sensitive by default; ``case_sensitive=False`` rules match casefolded tokens;
* a match strictly inside a span a person decided private is covered by it and left out, unless a
  person decided that match's own span too (:func:`drop_covered`).

Sequence rules are compiled once into Aho–Corasick automata over tokens
(separately for case-sensitive, casefolded and lemma matching), and the
token stream is scanned once per automaton, so matching is
O(tokens + matches) regardless of the number of rules.
"""
from __future__ import annotations

import enum
import re
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import compress
from typing import Any, Protocol

from psan.tool.morph.lemma import Lemmatizer, SuffixLemmatizer, get_lemmatizer
from psan.tool.text.document import Category, Document

__all__ = [
    "RuleType",
    "Rule",
    "RuleMatch",
    "RuleSet",
    "Matcher",
    "MatchContext",
    "TokenAutomaton",
    "RULE_KINDS",
    "register_rule_kind",
    "split_condition",
    "condition_from_span",
    "sentence_segments",
    "drop_covered",
]


class RuleType(enum.StrEnum):
    """Built-in and reserved rule kinds (``Rule.type`` may be any registered string)."""

    NE_TYPE = "NE_TYPE"
    WORD_TYPE = "WORD_TYPE"
    LEMMA = "LEMMA"
    PATTERN = "PATTERN"  # reserved, no built-in compiler yet
    MODEL = "MODEL"  # reserved, no built-in compiler yet


#: kinds whose condition is a token (or lemma) sequence
SEQUENCE_KINDS = frozenset({RuleType.WORD_TYPE.value, RuleType.LEMMA.value})


@dataclass(frozen=True, slots=True)
class Rule:
    """One automatic rule.

    ``condition`` is a ``tuple[str, ...]`` for sequence kinds (a list is
    converted) and a ``str`` (entity type code) for ``NE_TYPE``.  ``label`` is
    the pseudonymization label id the rule assigns, ``category`` the category
    it implies (used for output tags when no entity says otherwise).
    ``document``: the rule matches only in the document with this id (a lookup
    rule of a place, a date, an occupation decided private there: whether such
    words are personal depends on the document); ``None``: in every document.
    """

    id: int
    type: str
    condition: tuple[str, ...] | str
    confidence: float = 0.0
    label: int | None = None
    case_sensitive: bool = True
    category: Category | None = None
    author: str | int | None = None
    document: str | int | None = None

    def __post_init__(self) -> None:
        kind = self.type.value if isinstance(self.type, RuleType) else str(self.type)
        object.__setattr__(self, "type", kind)
        if kind in SEQUENCE_KINDS:
            cond = self.condition
            if isinstance(cond, str):
                raise TypeError(f"rule {self.id}: {kind} condition must be a token sequence, "
                                f"use split_condition() to split a string")
            cond = tuple(cond)
            if not cond or not all(isinstance(t, str) and t for t in cond):
                raise ValueError(f"rule {self.id}: empty condition or empty token in {cond!r}")
            object.__setattr__(self, "condition", cond)
        elif kind == RuleType.NE_TYPE.value and not (isinstance(self.condition, str) and self.condition):
            raise ValueError(f"rule {self.id}: NE_TYPE condition must be a non-empty type code")
        object.__setattr__(self, "confidence", float(self.confidence))


@dataclass(frozen=True, slots=True)
class RuleMatch:
    """All rules that matched exactly the token range ``[first_token, end_token)``."""

    first_token: int
    end_token: int
    rule_ids: tuple[int, ...]


@dataclass(slots=True)
class MatchContext:
    """Per-document data shared by matchers so each is computed once."""

    doc: Document
    segments: list[tuple[int, int]]
    lemmatizer: Lemmatizer | None = None
    lemmas: Sequence[str] | None = None
    _texts: list[str] | None = None

    def token_texts(self) -> list[str]:
        if self._texts is None:
            text = self.doc.text
            self._texts = [text[t.start:t.end] for t in self.doc.tokens]
        return self._texts


class Matcher(Protocol):
    """Compiled rules of one kind; yields ``(first_token, end_token, rule_id)``."""

    def match(self, ctx: MatchContext) -> Iterable[tuple[int, int, int]]: ...  # pragma: no cover


# ---------------------------------------------------------------------------
# Aho–Corasick over token sequences


class TokenAutomaton:
    """Aho–Corasick automaton whose alphabet is whole tokens.

    Built once from ``{pattern: rule ids}``; :meth:`scan` walks a token list
    once.  Tokens that occur in no pattern reset the automaton to the root
    without following failure links, which is the common case in running text.
    """

    __slots__ = ("goto", "fail", "out", "out_link", "vocab", "n_patterns", "max_len")

    def __init__(self, patterns: dict[tuple[str, ...], list[int]]) -> None:
        goto: list[dict[str, int]] = [{}]
        out: list[tuple[int, tuple[int, ...]] | None] = [None]
        vocab: set[str] = set()
        for pattern, ids in patterns.items():
            state = 0
            for tok in pattern:
                vocab.add(tok)
                nxt = goto[state].get(tok)
                if nxt is None:
                    nxt = len(goto)
                    goto[state][tok] = nxt
                    goto.append({})
                    out.append(None)
                state = nxt
            out[state] = (len(pattern), tuple(sorted(set(ids))))
        # BFS for failure links and output (dictionary suffix) links
        fail = [0] * len(goto)
        out_link = [-1] * len(goto)
        queue: list[int] = list(goto[0].values())
        head = 0
        while head < len(queue):
            state = queue[head]
            head += 1
            for tok, nxt in goto[state].items():
                queue.append(nxt)
                f = fail[state]
                while f and tok not in goto[f]:
                    f = fail[f]
                target = goto[f].get(tok, 0)
                fail[nxt] = target if target != nxt else 0
                fb = fail[nxt]
                out_link[nxt] = fb if out[fb] is not None else out_link[fb]
        self.goto = goto
        self.fail = fail
        self.out = out
        self.out_link = out_link
        self.vocab = frozenset(vocab)
        self.n_patterns = len(patterns)
        self.max_len = max((len(p) for p in patterns), default=0)

    def scan(self, tokens: Sequence[str], segments: Iterable[tuple[int, int]]
             ) -> Iterator[tuple[int, int, tuple[int, ...]]]:
        """Yield ``(first, end, rule_ids)`` for every pattern occurrence inside a segment."""
        goto, fail, out, out_link, vocab = self.goto, self.fail, self.out, self.out_link, self.vocab
        for seg_start, seg_end in segments:
            state = 0
            prev = seg_start - 1
            window = tokens if seg_start == 0 and seg_end == len(tokens) else tokens[seg_start:seg_end]
            # only the tokens of some pattern are visited (picked in C: most running text is none);
            # a token outside the vocabulary between two visited ones resets the automaton to the root
            for i in compress(range(seg_start, seg_end), map(vocab.__contains__, window)):
                tok = tokens[i]
                if i != prev + 1:
                    state = 0
                prev = i
                nxt = goto[state].get(tok)
                while nxt is None and state:
                    state = fail[state]
                    nxt = goto[state].get(tok)
                state = nxt or 0
                if not state:
                    continue
                s = state if out[state] is not None else out_link[state]
                while s > 0:
                    length, ids = out[s]  # type: ignore[misc]
                    yield i + 1 - length, i + 1, ids
                    s = out_link[s]


class _SequenceMatcher:
    """WORD_TYPE / LEMMA rules: up to two automata (case-sensitive, casefolded)."""

    def __init__(self, rules: Sequence[Rule], lemma: bool,
                 condition_lemmatizer: Callable[[str], str] | None = None) -> None:
        self.lemma = lemma
        self.rules = list(rules)
        self._cond_lemmatizer = condition_lemmatizer
        self.sensitive, self.insensitive = self._build(condition_lemmatizer)
        self._by_lemmatizer: dict[int, tuple[Any, TokenAutomaton | None, TokenAutomaton | None]] = {}

    def _build(self, lem: Callable[[str], str] | None
               ) -> tuple[TokenAutomaton | None, TokenAutomaton | None]:
        cs: dict[tuple[str, ...], list[int]] = defaultdict(list)
        ci: dict[tuple[str, ...], list[int]] = defaultdict(list)
        for r in self.rules:
            cond = tuple(r.condition)
            if lem is not None:
                cond = tuple(lem(t) for t in cond)
            if r.case_sensitive:
                cs[cond].append(r.id)
            else:
                ci[tuple(t.casefold() for t in cond)].append(r.id)
        return (TokenAutomaton(cs) if cs else None, TokenAutomaton(ci) if ci else None)

    def _automata(self, lem: Lemmatizer | None) -> tuple[TokenAutomaton | None, TokenAutomaton | None]:
        # Only the fallback stemmer's conditions are normalized: its stems are not real
        # lemmas, so a condition "Petra" must become "Petr" to meet the tokens' stems.
        # A real lemmatizer's conditions are taken as given lemmas.
        if not self.lemma or not isinstance(lem, SuffixLemmatizer) or lem is self._cond_lemmatizer:
            return self.sensitive, self.insensitive
        cached = self._by_lemmatizer.get(id(lem))
        if cached is None or cached[0] is not lem:
            cached = (lem, *self._build(lem))
            self._by_lemmatizer[id(lem)] = cached
        return cached[1], cached[2]

    def match(self, ctx: MatchContext) -> Iterator[tuple[int, int, int]]:
        if self.lemma:
            if ctx.lemmas is not None:
                tokens: Sequence[str] = ctx.lemmas
                sensitive, insensitive = self.sensitive, self.insensitive
            else:
                lem = ctx.lemmatizer or get_lemmatizer(ctx.doc.language)
                cache: dict[str, str] = {}
                tokens = []
                for t in ctx.token_texts():
                    v = cache.get(t)
                    if v is None:
                        v = cache[t] = lem(t)
                    tokens.append(v)
                sensitive, insensitive = self._automata(lem)
        else:
            tokens = ctx.token_texts()
            sensitive, insensitive = self.sensitive, self.insensitive
        if sensitive is not None:
            for first, end, ids in sensitive.scan(tokens, ctx.segments):
                for rid in ids:
                    yield first, end, rid
        if insensitive is not None:
            folded = list(map(str.casefold, tokens))
            for first, end, ids in insensitive.scan(folded, ctx.segments):
                for rid in ids:
                    yield first, end, rid


class _EntityTypeMatcher:
    """NE_TYPE rules: one dictionary lookup per entity of the document."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.by_type: dict[str, list[int]] = defaultdict(list)
        for r in rules:
            self.by_type[str(r.condition)].append(r.id)

    def match(self, ctx: MatchContext) -> Iterator[tuple[int, int, int]]:
        for ent in ctx.doc.entities:
            for rid in self.by_type.get(ent.type, ()):
                yield ent.first_token, ent.end_token, rid


#: kind name -> compiler(rules) -> Matcher; extend with :func:`register_rule_kind`
RULE_KINDS: dict[str, Callable[[Sequence[Rule]], Matcher]] = {
    RuleType.NE_TYPE.value: _EntityTypeMatcher,
    RuleType.WORD_TYPE.value: lambda rules: _SequenceMatcher(rules, lemma=False),
    RuleType.LEMMA.value: lambda rules: _SequenceMatcher(rules, lemma=True),
}


def register_rule_kind(kind: str, compiler: Callable[[Sequence[Rule]], Matcher], *, replace: bool = False) -> None:
    """Make a new rule kind (e.g. ``PATTERN``) usable in :class:`RuleSet`."""
    kind = kind.value if isinstance(kind, RuleType) else kind
    if kind in RULE_KINDS and not replace:
        raise ValueError(f"rule kind {kind!r} already registered")
    RULE_KINDS[kind] = compiler


# ---------------------------------------------------------------------------


def sentence_segments(doc: Document) -> list[tuple[int, int]]:
    """Token ranges that a rule match may not cross: sentences plus uncovered gaps."""
    n = len(doc.tokens)
    if not doc.sentences:
        return [(0, n)] if n else []
    segments: list[tuple[int, int]] = []
    pos = 0
    for s in sorted(doc.sentences, key=lambda s: s.first_token):
        first, end = max(s.first_token, pos), min(s.end_token, n)
        if first > pos:
            segments.append((pos, first))
        if end > first:
            segments.append((first, end))
            pos = end
    if pos < n:
        segments.append((pos, n))
    return segments


class RuleSet:
    """Rules of one project compiled for matching; build once, match many documents.

    ``NE_TYPE`` conditions must be unique (one rule per type per project):
    a duplicate raises ``ValueError`` rather than silently double voting.
    Unknown kinds raise ``ValueError`` unless ``ignore_unknown`` is set.
    """

    def __init__(self, rules: Iterable[Rule], *, ignore_unknown: bool = False,
                 blocking: Iterable[str] | None = None) -> None:
        #: NE types on whose spans a person's word rule gets no precedence (psan.tool.decisions.precedence)
        self.blocking: frozenset[str] | None = None if blocking is None else frozenset(blocking)
        self.rules: dict[int, Rule] = {}
        by_kind: dict[str, list[Rule]] = defaultdict(list)
        ne_types: dict[str, int] = {}
        for r in rules:
            if r.id in self.rules:
                raise ValueError(f"duplicate rule id {r.id}")
            if r.type not in RULE_KINDS:
                if ignore_unknown:
                    continue
                raise ValueError(f"rule {r.id}: unknown rule kind {r.type!r}")
            if r.type == RuleType.NE_TYPE.value:
                other = ne_types.setdefault(str(r.condition), r.id)
                if other != r.id:
                    raise ValueError(f"rules {other} and {r.id} both target entity type {r.condition!r}")
            self.rules[r.id] = r
            by_kind[r.type].append(r)
        self.matchers: dict[str, Matcher] = {kind: RULE_KINDS[kind](rs) for kind, rs in by_kind.items()}
        #: rules bound to one document, by document, and all of them
        bound_to: dict[str | int, set[int]] = defaultdict(set)
        for r in self.rules.values():
            if r.document is not None:
                bound_to[r.document].add(r.id)
        self._bound_to: dict[str | int | None, frozenset[int]] = {k: frozenset(v) for k, v in bound_to.items()}
        self._bound = frozenset().union(*self._bound_to.values())

    def __len__(self) -> int:
        return len(self.rules)

    def __getitem__(self, rule_id: int) -> Rule:
        return self.rules[rule_id]

    def match(self, doc: Document, lemmatizer: Lemmatizer | Sequence[str] | None = None, *,
              document_id: str | int | None = None, private: Iterable[tuple[int, int]] = (),
              decided: Iterable[tuple[int, int]] = ()) -> list[RuleMatch]:
        """Every span matched by any rule, one :class:`RuleMatch` per distinct token range.

        ``document_id``: the id of ``doc``; a rule bound to a document (``Rule.document``) matches
        only where it equals that id (so nowhere when it is not given).
        ``private`` / ``decided``: the token ranges a person decided private / decided at all; matches
        they cover are left out (:func:`drop_covered`).

        ``lemmatizer`` is a callable ``token_text -> lemma`` or a ready list of
        lemmas, one per token (e.g. from a tagger).  Without it LEMMA rules use
        :func:`psan.tool.morph.lemma.get_lemmatizer` for ``doc.language``.  Matches
        are sorted by ``(first_token, end_token)``; rule ids ascending.
        """
        lemmas: Sequence[str] | None = None
        lem: Lemmatizer | None = None
        if lemmatizer is not None and not callable(lemmatizer):
            lemmas = lemmatizer
            if len(lemmas) != len(doc.tokens):
                raise ValueError(f"{len(lemmas)} lemmas for {len(doc.tokens)} tokens")
        else:
            lem = lemmatizer
        ctx = MatchContext(doc=doc, segments=sentence_segments(doc), lemmatizer=lem, lemmas=lemmas)
        found: dict[tuple[int, int], list[int]] = {}
        elsewhere = self._bound - self._bound_to.get(document_id, frozenset()) if self._bound else frozenset()
        for matcher in self.matchers.values():
            for first, end, rid in matcher.match(ctx):
                if rid in elsewhere:
                    continue
                ids = found.get((first, end))
                if ids is None:
                    found[(first, end)] = [rid]
                else:
                    ids.append(rid)
        matches = [RuleMatch(first, end, (ids[0],) if len(ids) == 1 else tuple(sorted(set(ids))))
                   for (first, end), ids in sorted(found.items())]
        return drop_covered(matches, private, decided)


def drop_covered(matches: Sequence[RuleMatch], private: Iterable[tuple[int, int]],
                 decided: Iterable[tuple[int, int]] = ()) -> list[RuleMatch]:
    """The matches not strictly inside a span a person decided private (``private``).

    Why: the person saw the whole span and decided it; a rule matching a part of it ("Connor" of a
    "Sarah Connor" marked private, a recognized "Harper" inside a hand-marked "Jonathan Harper") would
    only add a second, suspicious span inside it that asks again what the person answered.  Nothing
    becomes public by this: the covering span is private.  A match whose own range a person decided
    (``decided``) is kept, so its decision keeps its rules.  Linear after sorting the covers.
    """
    covers = sorted(set(private))
    if not covers or not matches:
        return list(matches)
    starts = [f for f, _ in covers]
    reach: list[int] = []  # reach[i]: the furthest end of the covers starting at or before starts[i]
    furthest = -1
    for _, end in covers:
        furthest = max(furthest, end)
        reach.append(furthest)
    kept_anyway = set(decided).union(covers)  # a private span itself is no part of itself
    kept: list[RuleMatch] = []
    for m in matches:
        i = bisect_right(starts, m.first_token) - 1
        inside = i >= 0 and reach[i] >= m.end_token
        if inside and (m.first_token, m.end_token) not in kept_anyway:
            continue
        kept.append(m)
    return kept


# ---------------------------------------------------------------------------
# conditions

_DEFAULT_TOKEN_RE = re.compile(r"\w+|[^\w\s]", re.UNICODE)


def _default_tokenizer(text: str) -> list[str]:
    return _DEFAULT_TOKEN_RE.findall(text)


def split_condition(text: str, tokenizer: Callable[[str], Iterable[Any]] | None = None) -> tuple[str, ...]:
    """Split a condition typed by a person ("Jan  Novák") into tokens for a sequence rule.

    Pass the *document tokenizer* so that conditions split exactly like the
    documents they must match.  It may return strings, ``(start, end)``
    pairs, or objects with ``start``/``end`` (e.g. :class:`~psan.tool.text.document.Token`),
    a ``(tokens, sentences)`` pair, or a :class:`~psan.tool.text.document.Document`.  The default splits into word
    characters runs and single punctuation marks.
    """
    text = text.strip()
    if not text:
        raise ValueError("empty condition")
    result = (tokenizer or _default_tokenizer)(text)
    if isinstance(result, Document):
        result = result.tokens
    elif isinstance(result, tuple) and result and isinstance(result[0], list):
        result = result[0]  # (tokens, sentences) as returned by psan.tool.text.tokens.tokenize
    tokens: list[str] = []
    for item in result:
        if isinstance(item, str):
            tok = item
        elif isinstance(item, tuple) and len(item) == 2:
            tok = text[item[0]:item[1]]
        else:
            tok = text[item.start:item.end]
        if tok and not tok.isspace():
            tokens.append(tok)
    if not tokens:
        raise ValueError(f"condition {text!r} has no tokens")
    return tuple(tokens)


def condition_from_span(doc: Document, first_token: int, end_token: int) -> tuple[str, ...]:
    """The WORD_TYPE condition for an annotated span (used to create lookup rules)."""
    if not 0 <= first_token < end_token <= len(doc.tokens):
        raise IndexError(f"bad token range [{first_token}, {end_token})")
    return tuple(doc.token_text(i) for i in range(first_token, end_token))

