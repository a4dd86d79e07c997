"""``psan-tool pseudonymize CORPUS.jsonl [--lang xx] [--mode pseudonymize|tag|remove] [--seed N]``.

Why a command: it measures the surrogates (``python -m ner_eval inflection``) and serves users who bring
spans from another tool.  The contract is stable: the input is the shared JSONL corpus format (``text``
and ``spans`` with ``label``); exactly the given spans are replaced (no detection; of nested spans the
outermost), with the app's replacer, entity grouping and surrogate identity, the whole corpus being one
project (every document observed before any is replaced).  One JSON line per document::

    {"id": ..., "text": output, "replacements": [{"start", "end", "label", "surrogate",
                                                  "features": {"Case", "Gender", "Number", "Animacy"}}]}

``start``/``end`` are offsets into the input text, ``surrogate`` the text written in the output
(the tag in ``tag`` mode, "" in ``remove`` mode) and ``features`` the UD features the surrogate was
rendered with (``null`` values where nothing was analysed).  A bad input is one line on stderr and exit
status 2; nothing is printed for a corpus that fails validation.
"""
from __future__ import annotations

import argparse
from typing import Any

from psan.tool.cli.entities import print_records
from psan.tool.decisions.voting import PrivateRegion
from psan.tool.release.output import render
from psan.tool.text.categories import category_of

MODES = ("pseudonymize", "tag", "remove")
_EMPTY = {"Case": None, "Gender": None, "Number": None, "Animacy": None}


def regions_of(doc: dict[str, Any]) -> list[PrivateRegion]:
    """The document's spans as regions: sorted, the outermost of nested or overlapping spans kept."""
    spans = sorted(doc["spans"], key=lambda s: (s["start"], -s["end"]))
    out: list[PrivateRegion] = []
    for s in spans:
        if out and s["start"] < out[-1].end:
            continue
        label = str(s.get("label") or "OTHER")
        out.append(PrivateRegion(s["start"], s["end"], category_of(label), None, label))
    return out


def pseudonymize_corpus(docs: list[dict[str, Any]], language: str | None, mode: str,
                        seed: str) -> list[dict[str, Any]]:
    """The output record of every document (see module docstring)."""
    from psan.tool.surrogates import SurrogateReplacer

    prepared = [(doc, regions_of(doc), language or doc.get("lang") or "en") for doc in docs]
    replacers: dict[str, SurrogateReplacer] = {}
    if mode == "pseudonymize":
        for doc, regions, lang in prepared:  # one project: no surrogate may reproduce any original
            replacers.setdefault(lang, SurrogateReplacer(language=lang, seed=seed)).observe(doc["text"], regions)
    records = []
    for doc, regions, lang in prepared:
        text = doc["text"]
        features: dict[tuple[int, int], dict[str, str | None]] = {}
        if mode == "pseudonymize":
            replacer = replacers[lang]
            replacer.begin_document(text, regions)
            out = render(mode, text, regions, replacer=replacer, language=lang)
            features = replacer.features
        elif mode == "tag":
            out = render(mode, text, regions, language=lang)
        else:
            out = render(mode, text, regions)
        reps = [{"start": e["original_start"], "end": e["original_end"], "label": e["type"],
                 "surrogate": e["replacement"],
                 "features": {**_EMPTY, **features.get((e["original_start"], e["original_end"]), {})}}
                for e in out.standoff]
        records.append({"id": doc["id"], "text": out.text, "replacements": reps})
    return records


def cmd_pseudonymize(args: argparse.Namespace) -> int:
    """Print one JSON line per document of the corpus, its given spans replaced."""
    return print_records(args.corpus, lambda docs: pseudonymize_corpus(docs, args.lang, args.mode, str(args.seed)))


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``pseudonymize`` subcommand to ``psan-tool``'s subparsers."""
    p = sub.add_parser("pseudonymize", help="replace a corpus' given spans (JSONL in, JSONL on stdout)",
                       description="Read a corpus in the shared JSONL format and replace exactly its spans "
                                   "(no detection); print one line per document with the output text and "
                                   "every replacement with the morphological features it was rendered with.")
    p.add_argument("corpus", metavar="CORPUS.jsonl", help="corpus in the shared JSONL format")
    p.add_argument("--lang", default=None, help="language of every document (default: each document's lang)")
    p.add_argument("--mode", choices=MODES, default="pseudonymize", help="output mode (default pseudonymize)")
    p.add_argument("--seed", default="0", help="seed of the surrogates (default 0: reproducible)")
    p.set_defaults(func=cmd_pseudonymize, batch_size=1)
    return p
