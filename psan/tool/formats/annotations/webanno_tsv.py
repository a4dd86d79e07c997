"""WebAnno TSV 3 (INCEpTION's and WebAnno's tab-separated export), the named-entity layer.

``#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|identifier|value`` declares the layer;
each sentence is a ``#Text=`` line and one row per token: ``1-3<TAB>10-15<TAB>Novák<TAB>*[2]<TAB>PER[2]<TAB>``.
A span over several tokens (or stacked with another on one token) carries a number in brackets on every
token it covers.  Offsets count UTF-16 code units (INCEpTION is Java) and are converted.  Other layers are
ignored on reading (their columns are counted from the header) and not written.  Read alone, a document's
text is its sentences placed at their offsets; imported into a known document, the tokens are found again
in its text.
"""
from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from psan.tool.formats.annotations import register
from psan.tool.formats.annotations.base import (
    AnnotatedText,
    AnnotationFormatError,
    decode,
    make_span,
    utf16_offsets,
)
from psan.tool.formats.annotations.segment import segment

NE_TYPE = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
HEADER = f"#FORMAT=WebAnno TSV 3.3\n#T_SP={NE_TYPE}|identifier|value\n\n"
#: a feature value's escapes (WebAnno's ``escapeValue``), applied as one simultaneous replacement
_VALUE_ESCAPES = {"\\": "\\\\", "[": "\\[", "]": "\\]", "|": "\\|", "_": "\\_", "->": "\\->", ";": "\\;",
                  "\t": "\\t", "\n": "\\n", "*": "\\*"}
#: a ``#Text=`` line's escapes (WebAnno's ``escapeText``, TSV 3.2 and later): control characters and backslash
_TEXT_ESCAPES = {**{chr(i): "\\" + chr(i) for i in range(32) if not 7 < i < 14},
                 "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r", "\b": "\\b", "\\": "\\\\"}
_ITEM = re.compile(r"^(?P<label>.*?)(?:\[(?P<id>\d+)\])?$", re.S)


def _replacer(table: dict[str, str]):  # noqa: ANN202 - str -> str
    """Every key of ``table`` replaced at once, longest first at each position (Apache's ``replaceEach``)."""
    pattern = re.compile("|".join(re.escape(k) for k in sorted(table, key=len, reverse=True)))
    return lambda value: pattern.sub(lambda m: table[m.group(0)], value)


#: a label as a feature value column holds it, and back
escape = _replacer(_VALUE_ESCAPES)
unescape = _replacer({v: k for k, v in _VALUE_ESCAPES.items()})
#: one line of a sentence as a ``#Text=`` line holds it, and back
escape_text = _replacer(_TEXT_ESCAPES)
unescape_text = _replacer({v: k for k, v in _TEXT_ESCAPES.items()})


def _split_unescaped(value: str, sep: str) -> list[str]:
    parts, cur, i = [], [], 0
    while i < len(value):
        if value[i] == "\\" and i + 1 < len(value):
            cur.append(value[i:i + 2])
            i += 2
            continue
        if value[i] == sep:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(value[i])
        i += 1
    parts.append("".join(cur))
    return parts


class WebannoTsv:
    name = "webanno"
    title = "WebAnno TSV 3"
    suffix = ".tsv"
    multi_document = False
    nests = True

    def _value_column(self, headers: list[str]) -> int | None:
        col = 3
        for header in headers:
            kind, _, rest = header.partition("=")
            items = rest.split("|")
            features = items[1:]
            if kind == "#T_SP" and items[0] == NE_TYPE:
                return col + features.index("value") if "value" in features else None
            col += max(1, len(features))
        return None

    def read(self, data: bytes, name: str) -> list[AnnotatedText]:  # noqa: C901
        text = decode(data, "WebAnno TSV")
        lines = text.split("\n")
        if not lines or not lines[0].startswith("#FORMAT=WebAnno TSV 3"):
            raise AnnotationFormatError("not a WebAnno TSV 3 file (the first line must be '#FORMAT=WebAnno TSV 3.x')")
        headers = [ln.rstrip("\r") for ln in lines if ln.startswith(("#T_SP=", "#T_CH=", "#T_RL="))]
        value_col = self._value_column(headers)
        # rebuild the text: each sentence at its first token's offset (UTF-16), gaps as blanks
        parts: list[str] = []
        pos16 = 0
        sentence: list[str] = []
        rows: list[tuple[int, int, str, str, bool]] = []  # begin16, end16, token, value column, sub-token?
        sentence_start16: int | None = None

        def flush_sentence() -> None:
            nonlocal pos16, sentence_start16
            if sentence and sentence_start16 is not None:
                if sentence_start16 < pos16:
                    raise AnnotationFormatError("sentences overlap (offsets go backwards)")
                parts.append(" " * (sentence_start16 - pos16))
                body = "\n".join(sentence)
                parts.append(body)
                pos16 = sentence_start16 + utf16_offsets(body)[-1]
            sentence.clear()
            sentence_start16 = None

        for lineno, raw in enumerate(lines, start=1):
            line = raw.rstrip("\r")
            if line.startswith("#Text="):
                if sentence and rows and sentence_start16 is not None:
                    flush_sentence()
                sentence.append(unescape_text(line[6:]))
                continue
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) < 3:
                raise AnnotationFormatError(f"line {lineno}: a token row has at least 3 tab-separated columns")
            m = re.fullmatch(r"(\d+)-(\d+)", cols[1])
            if not m:
                raise AnnotationFormatError(f"line {lineno}: bad offsets {cols[1]!r} (expected BEGIN-END)")
            begin, end = int(m.group(1)), int(m.group(2))
            if begin > end:
                raise AnnotationFormatError(f"line {lineno}: reversed offsets {cols[1]}")
            if sentence_start16 is None:
                sentence_start16 = begin
            value = cols[value_col] if value_col is not None and value_col < len(cols) else "_"
            rows.append((begin, end, cols[2], value, "." in cols[0]))  # the token column is not escaped
        flush_sentence()
        full = "".join(parts)
        offsets = utf16_offsets(full)
        index = {u: i for i, u in enumerate(offsets)}
        doc = AnnotatedText(name=None, text=full, tokens=[], token_based=True)
        open_spans: dict[str, list] = {}
        for lineno, (b16, e16, token, value, sub) in enumerate(rows, start=1):
            if b16 not in index or e16 not in index:
                raise AnnotationFormatError(f"token {lineno} ({token[:20]!r}): offsets {b16}-{e16} are outside "
                                            "the sentences' text")
            s, e = index[b16], index[e16]
            if full[s:e] != token:
                raise AnnotationFormatError(f"token {lineno}: {token[:20]!r} is not the text at its offsets "
                                            f"({full[s:e][:20]!r})")
            if not sub:  # a sub-token row (1-2.1) is part of a token, not a token of its own
                doc.tokens.append((s, e))  # type: ignore[union-attr]
            if value in ("_", ""):
                continue
            for item in _split_unescaped(value, "|"):
                m = _ITEM.match(item)
                label = unescape(m.group("label")) if m else item
                label = "" if label == "*" else label
                if m and m.group("id"):
                    key = m.group("id")
                    if key in open_spans:
                        open_spans[key][1] = max(open_spans[key][1], e)
                        continue
                    open_spans[key] = [s, e, label]
                else:
                    doc.spans.append(make_span(s, e, label))
        for s, e, label in open_spans.values():
            doc.spans.append(make_span(s, e, label))
        doc.spans.sort(key=lambda sp: (sp.start, -sp.end))
        doc.tokens = sorted(set(doc.tokens or []))
        return [doc]

    def write(self, docs: Sequence[AnnotatedText]) -> tuple[bytes, int]:
        doc = docs[0]
        text = doc.text or ""
        u16 = utf16_offsets(text)
        sentences = segment(doc)
        spans = sorted(doc.spans, key=lambda s: (s.start, -s.end, s.label))
        # a number for every span over several tokens or sharing a token with another span
        tokens_of: dict[int, list[int]] = {}
        all_tokens = [t for sentence in sentences for t in sentence]
        starts = [t[0] for t in all_tokens]
        numbered: set[int] = set()
        for k, sp in enumerate(spans):
            i = bisect.bisect_left(starts, sp.start)
            covered = 0
            while i < len(all_tokens) and all_tokens[i][1] <= sp.end:
                tokens_of.setdefault(i, []).append(k)
                i += 1
                covered += 1
            if covered > 1:
                numbered.add(k)
        numbered |= {k for ks in tokens_of.values() if len(ks) > 1 for k in ks}
        ids = {k: n for n, k in enumerate(sorted(numbered), start=1)}
        out = [HEADER]
        t = 0
        for number, sentence in enumerate(sentences, start=1):
            body = text[sentence[0][0]:sentence[-1][1]]
            out.append("\n")
            out.extend(f"#Text={escape_text(line)}\n" for line in body.split("\n"))
            for j, (s, e) in enumerate(sentence, start=1):
                ks = tokens_of.get(t, [])
                t += 1
                if ks:
                    ident = "|".join("*" + (f"[{ids[k]}]" if k in ids else "") for k in ks)
                    value = "|".join(escape(spans[k].label or "*") + (f"[{ids[k]}]" if k in ids else "") for k in ks)
                else:
                    ident = value = "_"
                out.append(f"{number}-{j}\t{u16[s]}-{u16[e]}\t{text[s:e]}\t{ident}\t{value}\t\n")
        return "".join(out).encode("utf-8"), 0


register(WebannoTsv())
