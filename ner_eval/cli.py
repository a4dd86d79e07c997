"""Command line: ``python -m ner_eval run|all|list|simulate|inflection|inflection-fit|consistency``.

Why two commands: ``run`` evaluates one corpus file (any JSONL in the shared
format), ``all`` evaluates the standard corpora with the pipelines fitting
their language and writes the top-level results index.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from ner_eval.corpus import corpus_name, data_dir, models_dir
from ner_eval.evaluate import evaluate_corpus
from ner_eval.pipelines import CORPORA, PIPELINES, Unavailable, pipelines_for
from ner_eval.report import write_corpus, write_index


def _pipelines(arg: str | None) -> list[str] | None:
    return [p.strip() for p in arg.split(",") if p.strip()] if arg else None


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m ner_eval", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--pipelines", help="comma-separated pipeline names (default: those fitting the language)")
    common.add_argument("--limit", type=int, help="only the first N documents of each corpus")
    common.add_argument("--models-dir", help="NameTag models (default $PSAN_NAMETAG_MODELS or <shared>/models/nametag)")
    common.add_argument("--no-simulation", action="store_true", help="skip the simulated annotation session")
    run = sub.add_parser("run", parents=[common], help="evaluate one corpus file")
    run.add_argument("--corpus", required=True, help="path to a JSONL corpus")
    run.add_argument("--out", required=True, help="output folder (report.md, *.png, summary.json)")
    allp = sub.add_parser("all", parents=[common], help="evaluate all standard corpora")
    allp.add_argument("--data-dir", help="corpus folder (default $PSAN_SHARED_DIR/data or <repo>/../shared/data)")
    allp.add_argument("--out", default="ner_eval/results", help="results folder (default ner_eval/results)")
    allp.add_argument("--corpora", help=f"comma-separated subset of {','.join(CORPORA)}")
    sub.add_parser("list", help="list pipelines and corpora")
    rel = sub.add_parser("release", help="a simulated annotator releases a corpus through the real app "
                                         "(throw-away instance; ner_eval.release)")
    sim = sub.add_parser("simulate", help="the same as `release --annotator perfect` (the in-memory session "
                                          "it ran before was removed: it was not the app)")
    rel.add_argument("--corpus", required=True, help="path to a JSONL corpus")
    rel.add_argument("--workflow", required=True, choices=("psan", "thesis"), help="thesis (2021 app) or psan")
    rel.add_argument("--annotator", default="perfect", choices=("perfect", "noisy"),
                     help="noisy: flips 5 %% of its verdicts and overlooks 10 %% of the spans to mark by hand")
    rel.add_argument("--review", default="full", choices=("full", "risk"),
                     help="psan's review depth: read everything (default) or review by risk with a QA sample")
    rel.add_argument("--thesis-policy", default="cautious", choices=("cautious", "eager"),
                     help="the thesis person's NE-type decisions: at the app's learning evidence (cautious) or "
                          "after three identical verdicts on the type (eager)")
    rel.add_argument("--psan-policy", default="cautious", choices=("cautious", "eager"),
                     help="the psan person's NE-type decisions: at the app's learning evidence (cautious, default) or "
                          "as the eager thesis person decides (the same policy on both sides)")
    rel.add_argument("--qa-rounds", type=int, default=10,
                     help="review by risk: QA samples of unread text reviewed before the team reads what nobody "
                          "read to let the release go (default 10)")
    rel.add_argument("--limit", type=int, help="only the first N documents")
    rel.add_argument("--seed", type=int, default=0, help="seed of the noisy annotator (default 0)")
    rel.add_argument("--order-seed", type=int, help="seed PostgreSQL's random() before each window request, "
                     "so the app's document order repeats (default: the app's own random order)")
    rel.add_argument("--models-dir", help="NameTag models (default $PSAN_NAMETAG_MODELS or <shared>/models/nametag)")
    rel.add_argument("--database-url", help="PostgreSQL server (maintenance database) to create the throw-away "
                                            "database on (default $PSAN_TEST_DATABASE_URL, else an embedded server)")
    rel.add_argument("--redis-url", help="Redis (default $PSAN_TEST_REDIS_URL, else an embedded server)")
    rel.add_argument("--json", action="store_true", help="print one JSON line")
    for action in rel._actions:  # noqa: SLF001 - argparse has no public way to copy arguments
        if action.dest not in ("help", "annotator"):
            sim._add_action(action)  # noqa: SLF001
    sim.add_argument("--levers", help=argparse.SUPPRESS)  # refused with a message: see _release
    inf = sub.add_parser("inflection", help="surrogate morphology: psan-tool pseudonymize vs gold UD features")
    inf.add_argument("--corpus", required=True, help="JSONL with gold features (a path, or a name in --data-dir)")
    inf.add_argument("--lang", help="language of every document (default: each document's lang)")
    inf.add_argument("--seed", default="1", help="surrogate seed (default 1)")
    inf.add_argument("--morph-models", help="models folder with morph-<lang>.udpipe (default $PSAN_NAMETAG_MODELS)")
    inf.add_argument("--data-dir", help="corpus folder (default $PSAN_SHARED_DIR/data or <repo>/../shared/data)")
    inf.add_argument("--json", action="store_true", help="print one JSON line")
    inf.add_argument("--halves", action="store_true", help="also the figures of the even and the odd lines apart")
    inf.add_argument("--spans", action="store_true", help="also every span's gold and rendered features")
    inf.add_argument("--fold-spans", choices=("a", "b"),
                     help="list the spans of this held-out fold only (look at fold a, judge on fold b)")
    fit = sub.add_parser("inflection-fit", help="fit the surrogate morphology's model weights on one held-out fold "
                                                "(ner_eval.inflection_fit)")
    fit.add_argument("--corpus", required=True, help="JSONL with gold features (a path, or a name in --data-dir)")
    fit.add_argument("--fold", required=True, choices=("a", "b", "all"),
                     help="the fold fitted on (the other is held out); all: every document of another corpus")
    fit.add_argument("--lang", help="language of the corpus (default: its first document's lang)")
    fit.add_argument("--morph-models", help="models folder (default $PSAN_NAMETAG_MODELS)")
    fit.add_argument("--data-dir", help="corpus folder (default $PSAN_SHARED_DIR/data or <repo>/../shared/data)")
    fit.add_argument("--passes", type=int, default=2, help="coordinate-search passes (default 2)")
    con = sub.add_parser("consistency", help="surrogate consistency of psan-tool anonymize --mode pseudonymize "
                                             "(default pipeline, no gold spans; ner_eval.consistency)")
    con.add_argument("--corpus", required=True, help="JSONL corpus with entity ids (a path, or a name in --data-dir)")
    con.add_argument("--lang", help="language of every document (default: each document's lang)")
    con.add_argument("--seed", default="0", help="surrogate seed (default 0)")
    con.add_argument("--limit", type=int, help="only the first N documents")
    con.add_argument("--jobs", type=int, default=1, help="psan-tool --jobs (default 1)")
    con.add_argument("--models-dir", help="NameTag models (default $PSAN_NAMETAG_MODELS or <shared>/models/nametag)")
    con.add_argument("--data-dir", help="corpus folder (default $PSAN_SHARED_DIR/data or <repo>/../shared/data)")
    con.add_argument("--json", action="store_true", help="print one JSON line")
    con.add_argument("--failures", type=int, default=0, metavar="N",
                     help="print N failing entities on stderr, each with its fold and every form's renderings")
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "inflection":
        from ner_eval.inflection import main as inflection
        return inflection(args.corpus, args.lang, args.seed, args.morph_models, args.data_dir, args.json,
                         args.halves, args.spans, args.fold_spans)
    if args.command == "inflection-fit":
        from ner_eval.inflection_fit import main as inflection_fit
        return inflection_fit(args.corpus, args.fold, args.morph_models, args.data_dir, args.lang, args.passes)
    if args.command == "consistency":
        from ner_eval.consistency import main as consistency
        return consistency(args.corpus, args.lang, args.data_dir, args.models_dir, args.limit, args.seed, args.json,
                           args.failures, args.jobs)
    if args.command == "list":
        for name, spec in PIPELINES.items():
            print(f"{name:12} {spec.description}")
        for corpus, lang in CORPORA.items():
            print(f"{corpus:15} {lang}: {', '.join(pipelines_for(lang))}")
        return 0
    models = models_dir(args.models_dir)
    if args.command in ("release", "simulate"):
        return _release(args, models)
    if args.command == "run":
        corpus = Path(args.corpus)
        if not corpus.is_file():
            print(f"error: corpus file {corpus} not found", file=sys.stderr)
            return 2
        t0 = time.perf_counter()
        summary = evaluate_corpus(corpus, _pipelines(args.pipelines), args.limit, models, not args.no_simulation)
        report = write_corpus(summary, Path(args.out))
        print(f"{corpus_name(corpus)}: {report} ({time.perf_counter() - t0:.0f} s)")
        return 0
    try:
        folder = data_dir(args.data_dir)
    except FileNotFoundError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    out = Path(args.out)
    wanted = _pipelines(args.corpora) or list(CORPORA)
    summaries = []
    for name in wanted:
        path = folder / f"{name}.jsonl"
        if not path.is_file():
            print(f"skip corpus {name}: {path} not found", file=sys.stderr)
            continue
        t0 = time.perf_counter()
        print(f"{name}:", flush=True)
        summary = evaluate_corpus(path, _pipelines(args.pipelines), args.limit, models, not args.no_simulation)
        write_corpus(summary, out / name)
        summaries.append(summary)
        print(f"{name}: done in {time.perf_counter() - t0:.0f} s", flush=True)
    command = "python -m ner_eval all --out " + str(args.out)
    index = write_index(summaries, out, command)
    (out / "index.json").write_text(json.dumps({s["corpus"]: s["documents"] for s in summaries}) + "\n",
                                    encoding="utf-8")
    print(f"index: {index}")
    return 0


def _release(args: argparse.Namespace, models: Path | None) -> int:
    """``release``: one JSON line (``--json``) or a short summary of the end-to-end measurement."""
    import signal

    from ner_eval.release.client import AppError
    from ner_eval.release.run import run_release
    # a killed run still drops its database and Redis keys: SIGTERM unwinds like Ctrl-C (a SystemExit
    # would be swallowed as a failed request or task on the way)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    if getattr(args, "levers", None) is not None:
        print("error: --levers belonged to the removed in-memory session; `simulate` now runs the real app "
              "(`python -m ner_eval release`), whose levers are the app's own", file=sys.stderr)
        return 2
    corpus = Path(args.corpus)
    if not corpus.is_file():
        print(f"error: corpus file {corpus} not found", file=sys.stderr)
        return 2
    try:
        out = run_release(corpus, args.workflow, getattr(args, "annotator", "perfect"), args.limit, models,
                          args.database_url, args.redis_url, args.seed,
                          log=lambda message: print(message, file=sys.stderr, flush=True),
                          order_seed=args.order_seed, review=args.review, thesis_policy=args.thesis_policy,
                          psan_policy=args.psan_policy,
                          qa_rounds=args.qa_rounds)
    except (ValueError, Unavailable, AppError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(out, sort_keys=True))
    else:
        print(f"{out['corpus']} {out['workflow']}/{out['annotator']}: leaked {out['leaked_mentions']} of "
              f"{out['gold_mentions']} gold mentions, {out['judgments_per_1k_tokens']} judgments/1k tokens, "
              f"{out['seconds_per_1k_tokens']} s/1k tokens, masked precision {out['masked_precision']}, "
              f"release bound {out['release_bound']}, "
              f"{out['windows']} windows, {out['run_seconds']['total']} s")
    return 0
