"""``psan-tool entities CORPUS.jsonl [--lang xx]``: group a corpus' gold spans into entities.

Why a command: the entity evaluation (``ner_eval.entity_links``) and anyone
checking psan's linking need it without the web application.  The contract is
stable: the input is the shared JSONL corpus format (``{"id", "lang", "text",
"spans": [{"start", "end", "label", ...}]}``), the spans are the mentions (no
detection), and the output is one JSON line per document::

    {"id": ..., "mentions": [{"start": s, "end": e, "entity": "<id>"}, ...]}

with the mentions in the input's span order.  ``--lang`` overrides each
document's ``lang``.  A bad input (missing file, invalid UTF-8 or JSON, a span
outside its text) is one line on stderr and exit status 2; nothing is printed
for a corpus that fails validation.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from psan.tool.entities.grouping import Mention, group_document

EXIT_OK = 0
EXIT_FAILED = 2


class CorpusError(Exception):
    """A corpus that cannot be read; the message names the file and line."""


def _document(raw: str, where: str) -> dict[str, Any]:
    try:
        doc = json.loads(raw)
    except ValueError as err:
        raise CorpusError(f"{where}: not valid JSON ({err.msg})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("text"), str) or not isinstance(doc.get("spans"), list):
        raise CorpusError(f"{where}: a document needs a string \"text\" and a list \"spans\"")
    if "id" not in doc or not isinstance(doc["id"], str | int):
        raise CorpusError(f"{where}: a document needs an \"id\" (string)")
    n = len(doc["text"])
    for k, span in enumerate(doc["spans"]):
        if not isinstance(span, dict):
            raise CorpusError(f"{where}: span {k} is not an object")
        s, e = span.get("start"), span.get("end")
        if type(s) is not int or type(e) is not int or not 0 <= s < e <= n:
            raise CorpusError(f"{where}: span {k} has invalid offsets (need 0 <= start < end <= {n})")
        label = span.get("label", "")
        if not isinstance(label, str):
            raise CorpusError(f"{where}: span {k} has a non-string label")
    lang = doc.get("lang")
    if lang is not None and not isinstance(lang, str):
        raise CorpusError(f"{where}: \"lang\" must be a string")
    return doc


def read_corpus(path: str) -> list[dict[str, Any]]:
    """All documents of a JSONL corpus, validated; CorpusError with file and line otherwise."""
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise CorpusError(f"{path}: cannot read: {err.strerror or err}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise CorpusError(f"{path}: not valid UTF-8 (byte {err.start})") from None
    docs = [_document(line, f"{path}:{no}") for no, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not docs:
        raise CorpusError(f"{path}: no documents")
    return docs


def link(doc: dict[str, Any], language: str | None = None) -> dict[str, Any]:
    """The output record of one document (see module docstring)."""
    text = doc["text"]
    mentions = [Mention(s["start"], s["end"], s.get("label") or "OTHER", text[s["start"]:s["end"]])
                for s in doc["spans"]]
    ids = group_document(mentions, language or doc.get("lang") or "en")
    return {"id": doc["id"],
            "mentions": [{"start": m.start, "end": m.end, "entity": e} for m, e in zip(mentions, ids, strict=True)]}


def print_records(path: str, records_of: Callable[[list[dict[str, Any]]], Iterable[dict[str, Any]]]) -> int:
    """Read a corpus and print ``records_of(documents)`` as JSON lines; a bad corpus is one line on stderr."""
    try:
        docs = read_corpus(path)
    except CorpusError as err:
        print(f"psan-tool: error: {err}", file=sys.stderr)
        return EXIT_FAILED
    for record in records_of(docs):
        sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
    sys.stdout.flush()
    return EXIT_OK


def cmd_entities(args: argparse.Namespace) -> int:
    """Print one JSON line of entity-linked mentions per document."""
    return print_records(args.corpus, lambda docs: (link(doc, args.lang) for doc in docs))


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``entities`` subcommand to ``psan-tool``'s subparsers."""
    p = sub.add_parser("entities", help="group a corpus' gold spans into entities (JSONL on stdout)",
                       description="Read a corpus in the shared JSONL format, take its spans as mentions and "
                                   "print one line per document with the entity id of every mention.")
    p.add_argument("corpus", metavar="CORPUS.jsonl", help="corpus in the shared JSONL format")
    p.add_argument("--lang", default=None, help="language of every document (default: each document's lang)")
    # psan-tool's main() validates --batch-size for every subcommand; this one reads no batches
    p.set_defaults(func=cmd_entities, batch_size=1)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Stand-alone entry point (same behaviour as ``psan-tool entities``)."""
    parser = argparse.ArgumentParser(prog="psan-tool")
    sub = parser.add_subparsers(dest="command", required=True)
    add_parser(sub)
    args = parser.parse_args(["entities", *(sys.argv[1:] if argv is None else argv)])
    return args.func(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
