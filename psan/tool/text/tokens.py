"""Fast, language-independent regex tokenizer and sentence splitter.

Why regex: it is ~1M tokens/s, deterministic and never fails on odd input, so it is
the fallback when no linguistic tokenizer is configured.  Guarantees (relied upon by
:mod:`psan.tool.formats.tagged_xml`): tokens are non-empty, sorted, non-overlapping, and never
contain whitespace nor a character forbidden by XML 1.0 (C0 controls except tab, LF,
CR; U+FFFE, U+FFFF; surrogates) – those always stay between tokens.

Token rules: a *word* is a run of letters/digits/underscore/combining marks; inner
apostrophes and hyphens (``don't``, ``Frýdek-Místek``, ``2021-05-01``) and inner
``. , : /`` between digits (``3.14``, ``12:30``, ``1/2``, ``1,000.5``) keep it together.
Every other character is a single-character punctuation token.

Sentences end after ``. ! ? …`` (plus trailing closing quotes/brackets) when followed
by whitespace and an upper-case/digit-free capital start, or by a newline; at blank
lines; and at line breaks between list items (see :func:`list_line_break`).  A ``.`` after
a known abbreviation of the language or after a single capital
letter (initials) does not end a sentence.
"""
from __future__ import annotations

import bisect
import operator
import re
from collections.abc import Iterable, Sequence
from itertools import accumulate

from psan.tool.text.document import (
    Sentence,
    Token,
    TokenArray,
    keep_token_texts,
    kept_token_texts,
    token_bounds,
)
from psan.tool.text.unicode_marks import mark_ranges

#: characters XML 1.0 does not allow (besides whitespace they are never inside a token)
XML_FORBIDDEN = "\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff"
XML_FORBIDDEN_RE = re.compile(f"[{XML_FORBIDDEN}]")


def _mark_class(bmp_only: bool = False) -> str:
    """Regex class body of all combining marks (Mn, Mc, Me): Python's ``\\w`` misses them (``bmp_only``: those
    below U+10000)."""
    return "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
                   for a, b in mark_ranges() if not bmp_only or b <= 0xFFFF)


def _token_pattern(word_class: str) -> str:
    return (rf"{word_class}+(?:(?:['’\-]|(?<=\d)[.,:/](?=\d)){word_class}+)*"  # words and numbers
            rf"|[^\s{XML_FORBIDDEN}]")  # any other visible character is one token


_W = rf"[\w{_mark_class()}]"
TOKEN_RE = re.compile(_token_pattern(_W))
#: :data:`TOKEN_RE` for texts without characters beyond U+FFFF (:data:`_ASTRAL_RE`), where it finds the same
#: tokens: Python's ``re`` keeps a class's characters beyond U+FFFF as a list of ranges that every non-word
#: character is compared with (110 ranges of marks), which made the tokenizer twice as slow
_TOKEN_BMP_RE = re.compile(_token_pattern(rf"[\w{_mark_class(bmp_only=True)}]"))
_ASTRAL_RE = re.compile("[\U00010000-\U0010ffff]")

_ENDERS = frozenset(".!?…")
_CLOSERS = frozenset("\"'”’»)]}›")
BLANK_LINE_RE = re.compile(r"\n[^\S\n]*\n")

ABBREVIATIONS: dict[str, frozenset[str]] = {
    "en": frozenset("mr mrs ms dr prof st jr sr vs no nos e.g i.e approx dept est fig inc ltd co corp "
                    "jan feb mar apr jun jul aug sep sept oct nov dec gen col capt lt sgt rev hon".split()),
    "cs": frozenset("např tj atd ul č čp čj tzv apod resp str mj popř tel nám ing mgr mudr judr phdr rndr "
                    "bc doc prof dr pí p sv r t.j s.r.o a.s kč hod min cca viz".split()),
    "sk": frozenset("napr tj atď ul č tzv resp str ing mgr mudr judr phdr bc doc prof dr p sv".split()),
    "pl": frozenset("np tj tzn ul nr itd itp pt dr prof mgr inż godz r św al pl".split()),
    "de": frozenset("z.b bzw usw dr prof nr str hr fr ca vgl ggf".split()),
    "sv": frozenset("t.ex bl.a dvs osv nr dr prof ca resp".split()),
}
_ALL_ABBREVIATIONS = frozenset().union(*ABBREVIATIONS.values())


def abbreviations(language: str | None) -> frozenset[str]:
    """Lower-cased abbreviations (without final dot) of a language; the union of all lists if unknown."""
    return ABBREVIATIONS.get((language or "").lower()[:2], _ALL_ABBREVIATIONS)


def tokenize(text: str, language: str | None = None) -> tuple[list[Token], list[Sentence]]:
    """Split text into tokens and sentences (sentences cover all tokens, in order, without gaps)."""
    starts, ends, _ = token_offsets(text)
    return list(map(Token, range(len(starts)), starts, ends)), sentence_bounds(text, starts, ends, language)


#: the token regexes as one group: ``split`` gives gap, token, gap, token, …, gap
_TOKEN_SPLIT_RE = re.compile(f"({TOKEN_RE.pattern})")
_TOKEN_SPLIT_BMP_RE = re.compile(f"({_TOKEN_BMP_RE.pattern})")


def token_offsets(text: str) -> tuple[list[int], list[int], list[str]]:
    """Start and end offsets and the texts of the tokens of :data:`TOKEN_RE` (its ``finditer``'s, in order).

    Why: a document has 10^5–10^6 tokens and a match object per token (plus a Token object) cost a fifth of
    psan's own steps in the spaCy pipeline; ``split`` lists the gaps and tokens in C, and the offsets are the
    running sums of their lengths (``accumulate``), without a Python step per token.
    """
    split = _TOKEN_SPLIT_RE.split if _ASTRAL_RE.search(text) else _TOKEN_SPLIT_BMP_RE.split
    parts = split(text)  # gap0, token0, gap1, token1, …, token(n-1), gap(n)
    edges = list(accumulate(map(len, parts)))  # edges[2i] = start of token i, edges[2i+1] = its end
    return edges[0:-1:2], edges[1::2], parts[1::2]


def tokenize_array(text: str, language: str | None = None) -> tuple[TokenArray, list[Sentence]]:
    """:func:`tokenize` as a :class:`TokenArray` (offset lists, the token texts kept for :func:`token_texts`)."""
    starts, ends, texts = token_offsets(text)
    array = TokenArray(starts, ends)
    keep_token_texts(text, array, texts)
    return array, sentence_bounds(text, starts, ends, language)


def split_sentences(text: str, tokens: Sequence[Token], language: str | None = None) -> list[Sentence]:
    """Sentence boundaries over existing tokens (works for tokens of any tokenizer: sorted, non-overlapping)."""
    starts, ends = token_bounds(tokens)
    return sentence_bounds(text, starts, ends, language)


#: a sentence can end only after a token whose last character is one of these or before a gap with a line break
_SENTENCE_CHARS_RE = re.compile("[" + re.escape("".join(sorted(_ENDERS | _CLOSERS))) + "\n\r]")


def sentence_bounds(text: str, starts: list[int], ends: list[int], language: str | None = None) -> list[Sentence]:
    """:func:`split_sentences` over the tokens' offset lists.

    How: a boundary after token ``i`` needs a sentence-ending or closing character as the token's last one
    (:func:`ends_sentence` steps back over closers to an ender) or a line break in the gap after it; those
    characters are found by one regex scan and mapped to token indices by bisection, and only those
    tokens are tested, in order, with the same rules as a walk over every token.
    """
    n = len(starts)
    if not n:
        return []
    abbrevs = abbreviations(language)
    bisect_right = bisect.bisect_right
    # the token whose last character is at p, or the token before the gap holding p (a superset of the tests)
    candidates = sorted({bisect_right(ends, m.start() + 1) - 1 for m in _SENTENCE_CHARS_RE.finditer(text)})
    sentences: list[Sentence] = []
    first = 0
    for i in candidates:
        if not 0 <= i < n - 1:
            continue
        end, nxt = ends[i], starts[i + 1]
        gap = text[end:nxt]
        if not gap:
            continue
        if "\n" in gap and BLANK_LINE_RE.search(gap.replace("\r\n", "\n").replace("\r", "\n")):
            split = True
        else:
            split = ends_sentence(text, starts, ends, i, first, gap, nxt, abbrevs) \
                or (("\n" in gap or "\r" in gap) and list_line_break(text, starts[i], end, nxt))
        if split:
            sentences.append(Sentence(first, i + 1))
            first = i + 1
    sentences.append(Sentence(first, n))
    return sentences


def ends_sentence(text: str, starts: list[int], ends: list[int], i: int, first: int, gap: str, nxt: int,
                   abbrevs: frozenset[str]) -> bool:
    """Is there a sentence end between token i and the next one (separated by non-empty gap; ``nxt`` its start)?"""
    j = i
    while j >= first and text[starts[j]:ends[j]] in _CLOSERS and j > first:
        if starts[j] != ends[j - 1]:
            break
        j -= 1
    ender = text[starts[j]:ends[j]]
    if not ender or ender[-1] not in _ENDERS:
        return False
    if ender == "." and j > first and ends[j - 1] == starts[j]:
        prev = text[starts[j - 1]:ends[j - 1]]
        if prev.lower() in abbrevs or (len(prev) == 1 and prev.isupper()):
            return False
        # dotted abbreviations like "e.g." or "s.r.o." → tokens "e", ".", "g", "."
        k = j - 1
        parts = [prev]
        while k - 2 >= first and text[starts[k - 1]:ends[k - 1]] == "." \
                and ends[k - 1] == starts[k] and ends[k - 2] == starts[k - 1]:
            k -= 2
            parts.insert(0, text[starts[k]:ends[k]])
            if ".".join(parts).lower() in abbrevs:
                return False
    if "\n" in gap or "\r" in gap:
        return True
    if not gap.isspace():
        return False
    first_char = text[nxt]
    return first_char.isupper() or first_char.isdigit() or first_char in "\"'“„‘«(["


#: a line ending in one of these continues on the next line (hard-wrapped text, not a list)
_JOINERS = frozenset(",-–—&/(+")
#: a line starting with one of these is a list item
_ITEM_MARKERS = frozenset("-*•·–—>#")
#: lines shorter than this (characters) are list items, not hard-wrapped prose
LIST_LINE_CHARS = 60


def list_line_break(text: str, start: int, end: int, nxt: int) -> bool:
    """Does the line break after ``tok`` separate two list items (names, addresses, transcript turns)?

    Why: a newline-separated list has no sentence punctuation, so without this a 3,000-line list is
    one sentence, and everything built on sentences (annotation windows, NER context) sees it whole.
    A line break ends a sentence when the next line starts a list item (bullet, number) or when a
    short line (shorter than hard-wrapped prose) is followed by a line that does not start in lower case.
    ``start``, ``end``: the token before the line break; ``nxt``: the start of the token after it.
    """
    last = text[end - 1]
    if last in _JOINERS:
        return False
    after = text[nxt]
    if after in _ITEM_MARKERS or after.isdigit():
        return True
    line_start = text.rfind("\n", 0, start) + 1
    return end - line_start < LIST_LINE_CHARS and not after.islower()


def split_tokens_at(tokens: list[Token], boundaries: Iterable[int]) -> list[Token]:
    """Split tokens at char offsets falling strictly inside them and renumber ids from 0."""
    return split_tokens_and_sentences(tokens, [], boundaries)[0]


def split_tokens_and_sentences(tokens: list[Token] | TokenArray, sentences: list[Sentence], boundaries: Iterable[int]
                               ) -> tuple[list[Token] | TokenArray, list[Sentence]]:
    """Split tokens at char offsets (e.g. recognizer candidate edges) and remap sentences accordingly.

    Why: entities are token ranges, so every candidate edge must be a token edge.

    How (this runs once per document, over every token): a cut strictly inside a token ends one
    piece and starts the next, so the new token starts are the old starts merged with the cuts,
    and the new ends the old ends merged with the cuts.  Tokens before the first cut keep their
    objects; the rest are rebuilt in one ``map`` without a per-token Python loop.  An old token
    id moves by the number of cuts before its start, which remaps the sentences.  A :class:`TokenArray`
    comes back as a TokenArray (its offset lists merged with the cuts), a list as a list.
    """
    if isinstance(tokens, TokenArray):
        return _split_array(tokens, sentences, boundaries)
    if not tokens:
        return list(tokens), list(sentences)
    cuts = sorted(c for c in set(boundaries) if _inside(tokens, c))
    if not cuts:  # the usual case: no list of all starts is built
        return list(tokens), list(sentences)
    first_split = bisect.bisect_right(tokens, cuts[0], key=_START) - 1
    tail = tokens[first_split:]
    new_starts = sorted([t.start for t in tail] + cuts)
    new_ends = sorted([t.end for t in tail] + cuts)
    new_tokens = tokens[:first_split]
    new_tokens.extend(map(Token, range(first_split, first_split + len(new_starts)), new_starts, new_ends))
    n_old, n_new = len(tokens), len(new_tokens)

    def new_id(old: int) -> int:
        return n_new if old >= n_old else old + bisect.bisect_left(cuts, tokens[old].start)

    new_sentences = [Sentence(new_id(s.first_token), new_id(s.end_token)) for s in sentences]
    return new_tokens, new_sentences


def _split_array(tokens: TokenArray, sentences: list[Sentence],
                 boundaries: Iterable[int]) -> tuple[TokenArray, list[Sentence]]:
    """:func:`split_tokens_and_sentences` on offset arrays: the same tokens and sentences, no Token objects."""
    starts, ends = tokens.starts, tokens.ends
    bisect_right = bisect.bisect_right
    cut_at: list[tuple[int, int]] = []  # (cut, the token it falls in)
    for c in set(boundaries) if starts else ():
        i = bisect_right(starts, c) - 1
        if i >= 0 and starts[i] < c < ends[i]:
            cut_at.append((c, i))
    if not cut_at:
        return tokens, list(sentences)
    cut_at.sort()
    cuts = [c for c, _ in cut_at]
    new_starts = starts + cuts
    new_starts.sort()  # two sorted runs: timsort merges them in one linear pass
    new_ends = ends + cuts
    new_ends.sort()
    n_old, n_new = len(starts), len(new_starts)

    def new_id(old: int) -> int:
        return n_new if old >= n_old else old + bisect.bisect_left(cuts, starts[old])

    split = TokenArray(new_starts, new_ends)
    kept = kept_token_texts(tokens)
    if kept is not None:  # the texts of the tokens not cut stay (merging the sections and propagation read them)
        keep_token_texts(kept[0], split, _cut_texts(kept[0], kept[1], starts, ends, cut_at))
    return split, [Sentence(new_id(s.first_token), new_id(s.end_token)) for s in sentences]


def _cut_texts(text: str, texts: list[str], starts: list[int], ends: list[int],
               cut_at: list[tuple[int, int]]) -> list[str]:
    """The token texts after the cuts: each cut token's text replaced by its pieces' (a cut lies strictly inside
    its token, the tokens do not overlap), the rest copied a run at a time."""
    out: list[str] = []
    done = 0  # the old tokens before this one are in ``out``
    n = 0
    while n < len(cut_at):
        i = cut_at[n][1]
        out += texts[done:i]
        edge = starts[i]
        while n < len(cut_at) and cut_at[n][1] == i:
            out.append(text[edge:cut_at[n][0]])
            edge = cut_at[n][0]
            n += 1
        out.append(text[edge:ends[i]])
        done = i + 1
    out += texts[done:]
    return out


_START = operator.attrgetter("start")


def _inside(tokens: list[Token], offset: int) -> bool:
    """Does ``offset`` fall strictly inside a token (not on its edge, not in a gap)?"""
    i = bisect.bisect_right(tokens, offset, key=_START) - 1
    return i >= 0 and tokens[i].start < offset < tokens[i].end


def offsets_clean(text: str, starts: list[int], ends: list[int], texts: list[str] | None = None) -> bool:
    """Are all tokens given by their offsets non-empty and free of whitespace and XML-forbidden characters?

    Why: the pipeline checks a foreign tokenizer's ~10^5 tokens per document; one regex search over
    the joined token texts costs a fraction of a per-token Python loop (and of new Token objects).
    ``texts``: the tokens' texts when the caller has them (:func:`psan.tool.text.document.token_texts`).
    A token is empty exactly when its text is (``all`` tests that in C, faster than subtracting the offsets;
    a token past the end of the text is empty too, and not clean).
    """
    if texts is None:
        texts = [text[a:b] for a, b in zip(starts, ends, strict=True)]
    return all(texts) and _BAD_RE.search("".join(texts)) is None


def clean_tokens(text: str, tokens: Iterable[Token]) -> list[Token]:
    """Cut whitespace and XML-forbidden characters out of foreign tokens, drop empty ones, renumber.

    Why: external tokenizers (spaCy, NameTag) may emit whitespace tokens or keep control
    characters; the XML format and the rest of psan rely on clean tokens.  Clean tokens already
    numbered 0, 1, … are returned as they are (a new list of the same objects).
    """
    tokens = list(tokens)
    starts = [t.start for t in tokens]
    ends = [t.end for t in tokens]
    if offsets_clean(text, starts, ends) and all(map(operator.eq, (t.id for t in tokens), range(len(tokens)))):
        return tokens
    out: list[Token] = []
    for tok in tokens:
        piece = text[tok.start:tok.end]
        if piece and not _BAD_RE.search(piece):
            out.append(Token(len(out), tok.start, tok.end))
            continue
        for m in _GOOD_RUN_RE.finditer(piece):
            out.append(Token(len(out), tok.start + m.start(), tok.start + m.end()))
    return out


_BAD_RE = re.compile(rf"[\s{XML_FORBIDDEN}]")
_GOOD_RUN_RE = re.compile(rf"[^\s{XML_FORBIDDEN}]+")


def remap_sentences(old_tokens: list[Token], sentences: list[Sentence], new_tokens: list[Token]) -> list[Sentence]:
    """Re-express sentences over a new tokenization of the same text (by char offsets), covering all new tokens."""
    if not new_tokens:
        return []
    if not sentences:
        return [Sentence(0, len(new_tokens))]
    starts = [t.start for t in new_tokens]
    cuts = sorted({bisect.bisect_left(starts, old_tokens[s.first_token].start) for s in sentences[1:]} - {0})
    bounds = [0, *[c for c in cuts if c < len(new_tokens)], len(new_tokens)]
    return [Sentence(a, b) for a, b in zip(bounds, bounds[1:], strict=False) if a < b]
