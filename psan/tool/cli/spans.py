"""``--spans-in FORMAT:PATH`` and ``--spans-out FORMAT:PATH`` of ``psan-tool anonymize`` and ``spans``.

Why *in addition to* recognition by default: a team's own model or a gold standard made in INCEpTION
rarely marks everything psan's recognizers find (e-mails, IDs, phone numbers), and a span too many is
masked while a span too few is released; ``--spans-in-mode replace`` uses the given spans alone (to
render a gold standard exactly).  Given spans become entities of source ``import`` with their category from
the label table; a span that starts or ends inside a token is widened to whole tokens (masking more, never
less) and said on stderr.

PATH of a format that holds many documents (``jsonl``, ``labelstudio``, ``conll``, ``conllu``, ``presidio``)
is one file; its documents are matched to the inputs by name (the input's path below its folder, its file
name or its name without suffix) or, for one document and one input, taken as it is.  PATH of a
one-document format (``brat``, ``webanno``, ``xmi``) is a folder mirroring the input tree (``a/b.txt`` ↔
``PATH/a/b.ann``), or a file when there is one input.  ``--spans-out`` writes the spans psan masks (every
entity; labels = categories, JSONL keeps the type too) the same way: BRAT writes each ``.txt`` beside its
``.ann``.
"""
from __future__ import annotations

import argparse
import bisect
import sys
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from psan.tool.formats.annotations import (
    AnnotatedText,
    AnnotationFormatError,
    attach,
    format_names,
    get_format,
    make_span,
    read_file,
    table_text,
)
from psan.tool.text.document import Document, Entity

IMPORT_SOURCE = "import"


@dataclass(frozen=True, slots=True)
class SpansSpec:
    """A parsed ``FORMAT:PATH``."""

    format: str
    path: Path


def spec(value: str) -> SpansSpec:
    """argparse type of ``FORMAT:PATH`` (a bad format is a one-line usage error listing the known ones)."""
    name, sep, path = value.partition(":")
    if not sep or not path:
        raise argparse.ArgumentTypeError(f"expected FORMAT:PATH, got {value!r} (formats: {', '.join(format_names())})")
    try:
        fmt = get_format(name)
    except AnnotationFormatError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return SpansSpec(fmt.name, Path(path))


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options, with the label table in the help (what a foreign label becomes)."""
    p.add_argument("--spans-in", type=spec, metavar="FORMAT:PATH",
                   help=f"spans from another tool, added to the recognized ones (formats: {', '.join(format_names())})")
    p.add_argument("--spans-in-mode", choices=("add", "replace"), default="add",
                   help="add the given spans to psan's (default) or use them alone")
    p.add_argument("--spans-out", type=spec, metavar="FORMAT:PATH",
                   help="also write the spans psan masks in that format")
    table = "labels of --spans-in map to psan categories:\n" + table_text()
    p.epilog = ((p.epilog + "\n\n") if p.epilog else "") + table
    p.formatter_class = argparse.RawDescriptionHelpFormatter


def _names(rel: str) -> list[str]:
    path = PurePosixPath(rel)
    return [rel, path.name, str(path.with_suffix("")), path.stem]


@dataclass(slots=True)
class SpansIn:
    """The given spans, found per input file (read once for a many-document file, per file otherwise)."""

    spec: SpansSpec
    inputs: int
    _docs: list[AnnotatedText] | None = None
    _used: set[int] = field(default_factory=set)

    def for_file(self, rel: str) -> AnnotatedText | None:
        """The document of the input ``rel`` (posix path below its folder); None if the file has none for it."""
        fmt = get_format(self.spec.format)
        if fmt.multi_document or self.spec.path.is_file():
            if self._docs is None:
                self._docs = read_file(fmt.name, _read(self.spec.path), self.spec.path.name)
            wanted = _names(rel)
            for i, doc in enumerate(self._docs):
                if doc.name is not None and (doc.name in wanted or any(n in wanted for n in _names(doc.name))):
                    self._used.add(i)
                    return doc
            if len(self._docs) == 1 and self.inputs == 1:
                self._used.add(0)
                return self._docs[0]
            return None
        path = self.spec.path / PurePosixPath(rel).with_suffix(fmt.suffix)
        if not path.is_file():
            return None
        docs = read_file(fmt.name, _read(path), str(path))
        return docs[0] if docs else None

    def unused(self) -> list[str]:
        """Names of the file's documents no input matched (said on stderr: probably misnamed)."""
        if self._docs is None:
            return []
        return [d.name or f"document {i + 1}" for i, d in enumerate(self._docs) if i not in self._used]


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as err:
        raise AnnotationFormatError(f"{path}: cannot read: {err.strerror or err}") from None


def apply(doc: Document, given: AnnotatedText, rel: str, mode: str) -> int:
    """Put the given spans on ``doc`` as entities (added, or replacing psan's); returns how many were widened."""
    on_text = attach(given, doc.text, rel)
    starts = [t.start for t in doc.tokens]
    ends = [t.end for t in doc.tokens]
    entities: list[Entity] = []
    widened = 0
    for sp in on_text.spans:
        first = bisect.bisect_right(ends, sp.start)  # first token ending after the span's start
        last = bisect.bisect_left(starts, sp.end)  # tokens starting before the span's end
        if first >= last:
            continue  # only blanks (no token) under the span
        if starts[first] != sp.start or ends[last - 1] != sp.end:
            widened += 1
        entities.append(Entity(first, last, sp.label or str(sp.category), sp.category, IMPORT_SOURCE,
                               float(sp.score) if sp.score is not None else 1.0))
    doc.entities = entities if mode == "replace" else list(doc.entities) + entities
    return widened


def annotated(rel: str, doc: Document, fmt: str) -> AnnotatedText:
    """The spans psan masks in ``doc`` for ``--spans-out``: every entity, labelled by category (JSONL: by type)."""
    spans = []
    for ent in doc.entities:
        start, end = doc.char_range(ent.first_token, ent.end_token)
        label = ent.type if fmt == "jsonl" else str(ent.category)
        spans.append(make_span(start, end, label, ent.score, ent.category))
    unique = {(s.start, s.end, s.label): s for s in spans}
    return AnnotatedText(rel, doc.text, sorted(unique.values(), key=lambda s: (s.start, -s.end)),
                         tokens=[(t.start, t.end) for t in doc.tokens],
                         sentences=[doc.char_range(s.first_token, s.end_token) for s in doc.sentences
                                    if s.first_token < s.end_token],
                         decided=False)


class SpansOut:
    """Collects documents and writes them: at once per file for one-document formats, at the end otherwise."""

    def __init__(self, out: SpansSpec) -> None:
        self.spec = out
        self.fmt = get_format(out.format)
        self.docs: list[AnnotatedText] = []
        self.dropped = 0

    def add(self, rel: str, doc: Document) -> None:
        item = annotated(rel, doc, self.fmt.name)
        if self.fmt.multi_document:
            self.docs.append(item)
            return
        target = self.spec.path / PurePosixPath(rel).with_suffix(self.fmt.suffix)
        data, dropped = self.fmt.write([item])
        self.dropped += dropped
        _write(target, data)
        if self.fmt.name == "brat":
            _write(target.with_suffix(".txt"), doc.text.encode("utf-8"))

    def close(self) -> None:
        if self.fmt.multi_document:
            data, self.dropped = self.fmt.write(self.docs)
            _write(self.spec.path, data)
        if self.dropped:
            print(f"psan-tool: {self.spec.format}: {self.dropped} nested span(s) left out (the format holds one "
                  "tag per token)", file=sys.stderr)


def _write(path: Path, data: bytes) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    except OSError as err:
        raise AnnotationFormatError(f"{path}: cannot write: {err.strerror or err}") from None


def attach_given(args: Any, files: list[Any]) -> SpansIn | None:
    """The ``--spans-in`` source of a run, or None."""
    return SpansIn(args.spans_in, len(files)) if getattr(args, "spans_in", None) else None


def take(spans_in: SpansIn | None, rel: str, doc: Document, args: Any, error: Any) -> bool:
    """Put the given spans of input ``rel`` on ``doc``; False (and ``error`` called) when the file must be
    skipped: a malformed spans file, or no spans for it with ``--spans-in-mode replace`` (nothing would be
    masked: fail closed)."""
    if spans_in is None:
        return True
    try:
        given = spans_in.for_file(rel)
        if given is None:
            if args.spans_in_mode == "replace":
                error(f"{rel}: --spans-in {spans_in.spec.path} has no spans for it; with --spans-in-mode replace "
                      "nothing would be masked, so the file is skipped")
                return False
            print(f"psan-tool: warning: {rel}: --spans-in {spans_in.spec.path} has no spans for it", file=sys.stderr)
            return True
        widened = apply(doc, given, rel, args.spans_in_mode)
    except AnnotationFormatError as err:
        error(f"--spans-in: {err}")
        return False
    if widened:
        print(f"psan-tool: {rel}: {widened} given span(s) widened to whole tokens", file=sys.stderr)
    return True
