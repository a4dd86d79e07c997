"""CLI: ``python -m psan.tool.morph train --lang cs --treebank A.conllu [--treebank B.conllu] [--out FILE] [--parser]``.

Writes ``morph-<lang>.udpipe`` and the prepositions' cases by governing word ``valency-<lang>.json``
(with ``--parser``: the dependency parser ``parse-<lang>.udpipe``; with ``--valency-only``: the table only) into
``--models-dir`` (default ``$PSAN_NAMETAG_MODELS``) unless ``--out`` names the file;
``--exclude-corpus X.jsonl`` (repeatable) keeps the sentences of X (with ``--exclude-documents`` their
whole source documents) out of training, so X can be used to measure.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from psan.tool.morph.train import PARSER_OPTIONS, TAGGER_OPTIONS, model_path, train, training_data
from psan.tool.morph.valency import valency_path, write


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m psan.tool.morph", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    tr = sub.add_parser("train", help="train the morphological tagger of a language")
    tr.add_argument("--lang", required=True, help="language code of the model (cs, sk, …)")
    tr.add_argument("--treebank", action="append", required=True, help="CoNLL-U file (repeatable)")
    tr.add_argument("--models-dir", default=None, help="models folder (default $PSAN_NAMETAG_MODELS)")
    tr.add_argument("--out", default=None, help="model file (default MODELS_DIR/morph-<lang>.udpipe)")
    tr.add_argument("--exclude-corpus", action="append", default=[], help="JSONL corpus whose sentences are left out")
    tr.add_argument("--exclude-documents", action="store_true", help="leave out the excluded sentences' documents")
    tr.add_argument("--parser", action="store_true",
                    help="train the dependency parser (parse-<lang>.udpipe) instead of the tagger")
    tr.add_argument("--iterations", type=int, default=None,
                    help="tagger training iterations (default 15; fewer train a large treebank in reasonable time)")
    tr.add_argument("--max-sentences", type=int, default=None,
                    help="train on every n-th sentence so that at most this many are used (a large treebank)")
    tr.add_argument("--valency-only", action="store_true",
                    help="write only the prepositions' table (valency-<lang>.json) of the same sentences")
    tc = sub.add_parser("train-cases", help="train the learned case/number/gender reader of names (cases-<lang>.json)")
    tc.add_argument("--lang", required=True, help="language code of the model (cs, sk)")
    tc.add_argument("--treebank", action="append", required=True, help="CoNLL-U file (repeatable)")
    tc.add_argument("--models-dir", default=None, help="models folder (default $PSAN_NAMETAG_MODELS)")
    tc.add_argument("--exclude-corpus", action="append", default=[], help="JSONL corpus whose sentences are left out")
    tc.add_argument("--exclude-documents", action="store_true", help="leave out the excluded sentences' documents")
    tc.add_argument("--limit", type=int, default=120_000, help="at most this many nouns to train on")
    tc.add_argument("--name-weight", type=float, default=1.0,
                    help="how much a proper noun counts against a common noun (default 1)")
    args = parser.parse_args(argv)
    if args.command == "train-cases":
        return _train_cases(parser, args)
    out = args.out
    if out is None:
        models = args.models_dir or os.environ.get("PSAN_NAMETAG_MODELS")
        if not models:
            parser.error("give --out or --models-dir (or set PSAN_NAMETAG_MODELS)")
        out = model_path(models, args.lang, parser=args.parser)
    table = valency_path(Path(out).parent, args.lang)
    if args.valency_only:
        data, counts = training_data(args.treebank, args.exclude_corpus, args.exclude_documents)
        print(json.dumps({"valency": str(write(data, table)), "sentences": counts}, ensure_ascii=False))
        return 0
    try:
        options = TAGGER_OPTIONS if args.iterations is None else \
            TAGGER_OPTIONS.replace("iterations=15", f"iterations={args.iterations}")
        record = train(args.treebank, out, args.exclude_corpus, args.exclude_documents,
                       **({"options": "none", "parser": PARSER_OPTIONS} if args.parser
                          else {"valency_out": table, "options": options}), max_sentences=args.max_sentences)
    except (OSError, ValueError, RuntimeError) as err:
        print(f"psan.tool.morph: error: {err}", file=sys.stderr)
        return 2
    except ImportError:
        print("psan.tool.morph: error: ufal.udpipe is not installed (pip install 'psan[morph]')", file=sys.stderr)
        return 2
    print(json.dumps({"model": str(out), **record}, ensure_ascii=False))
    return 0


def _train_cases(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from psan.tool.morph import namecase
    models = args.models_dir or os.environ.get("PSAN_NAMETAG_MODELS")
    if not models:
        parser.error("give --models-dir (or set PSAN_NAMETAG_MODELS)")
    out = namecase.model_path(models, args.lang)
    try:
        record = namecase.train(args.treebank, out, args.exclude_corpus, args.exclude_documents, args.limit,
                                name_weight=args.name_weight)
    except (OSError, ValueError) as err:
        print(f"psan.tool.morph: error: {err}", file=sys.stderr)
        return 2
    print(json.dumps({"model": str(out), **record}, ensure_ascii=False))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
