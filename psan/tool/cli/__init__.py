"""``psan-tool``: the automatic library on the command line (no web application, no database).

Subcommands:

* ``anonymize IN... --lang cs --mode remove|tag|pseudonymize --out DIR`` — recognition, every
  entity private, output files mirroring the input tree; optional standoff (personal data,
  written *outside* the output folder) and JSONL spans;
* ``recognize IN... --lang en --xml-out DIR`` — tagged XML per file;
* ``spans IN... --lang en`` — JSONL spans on stdout;
* both take ``--spans-in FORMAT:PATH`` (spans from INCEpTION, Label Studio, BRAT, CoNLL, Presidio … added to
  the recognized ones) and ``--spans-out FORMAT:PATH`` (the masked spans in such a format): :mod:`.spans`;
* ``entities CORPUS.jsonl [--lang xx]`` — entity ids of a corpus' gold spans (:mod:`.entities`);
* ``pseudonymize CORPUS.jsonl [--lang xx] [--mode …] [--seed N]`` — replace a corpus' given spans, with the
  features each surrogate was rendered with (:mod:`.pseudonymize`).

``IN`` are files or folders (searched recursively for ``*.txt`` and, for ``anonymize``, also
``*.docx``, ``*.odt``, ``*.html``/``*.htm`` and ``*.pdf``: each written back in its own format under its
own name, a PDF as ``.txt``; :mod:`psan.tool.formats.files`).  A bad input (missing path, folder without
such a file, binary file, invalid UTF-8, a damaged, encrypted or macro-enabled office file) is reported
on stderr with its name; the other files are still processed and the exit status is 2.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from psan.tool.text.document import Document, collector_paused, in_span_order, token_bounds

EXIT_OK = 0
EXIT_FAILED = 2
MODES = ("remove", "tag", "pseudonymize")


class InputError(Exception):
    """An input path that cannot be processed; the message names it."""


@dataclass(frozen=True, slots=True)
class InputFile:
    """A text file to process and its path relative to the output root (mirrors the input tree)."""

    path: Path
    rel: Path


@dataclass(frozen=True, slots=True)
class OpenedInput(InputFile):
    """An input in a format of :mod:`psan.tool.formats.files`: (original bytes, opened file) to write it back."""

    opened: Any = None


class OneLineParser(argparse.ArgumentParser):
    """Usage errors as one line (``psan-tool anonymize: error: … (see --help)``) and exit status 2."""

    def error(self, message: str):  # noqa: ANN201 - NoReturn, as argparse's
        self.exit(EXIT_FAILED, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class Reporter:
    """Collects failures so one bad file neither stops the run nor goes unnoticed in the exit status."""

    def __init__(self) -> None:
        self.failed = 0

    def error(self, message: str) -> None:
        self.failed += 1
        print(f"psan-tool: error: {message}", file=sys.stderr)

    @property
    def status(self) -> int:
        return EXIT_FAILED if self.failed else EXIT_OK


# --- inputs -------------------------------------------------------------------------------------------
def collect_inputs(args: Sequence[str], reporter: Reporter, exclude: Sequence[Path] = (),
                   suffixes: Sequence[str] = (".txt",)) -> list[InputFile]:
    """Files named on the command line (rel = file name) and files with ``suffixes`` below folders (rel = path
    inside).

    ``exclude`` are output folders: files below them are skipped so re-running over a tree
    that contains its own output does not anonymize the output again.
    """
    from psan.tool.formats.files import output_name
    excluded = [p.resolve() for p in exclude]
    found: list[InputFile] = []
    seen: dict[Path, Path] = {}

    def add(path: Path, rel: Path) -> None:
        out = Path(output_name(rel.as_posix()))  # x.pdf is written as x.txt
        if out in seen:
            reporter.error(f"{path}: output name {out} already used by {seen[out]}; skipped")
            return
        seen[out] = path
        found.append(InputFile(path, rel))

    for arg in args:
        path = Path(arg)
        if path.is_dir():
            files = sorted(p for p in path.rglob("*") if p.suffix.lower() in suffixes and p.is_file()
                           and not any(p.resolve().is_relative_to(e) for e in excluded))
            if not files:
                others = "" if tuple(suffixes) == (".txt",) else " (nor .docx, .odt, .html or .pdf)"
                reporter.error(f"{path}: folder contains no .txt file{others}")
            for f in files:
                add(f, f.relative_to(path))
        elif path.is_file():
            add(path, Path(path.name))
        elif path.exists():
            reporter.error(f"{path}: not a regular file or folder")
        else:
            reporter.error(f"{path}: no such file or folder")
    return found


def read_text(path: Path) -> str:
    """The file as UTF-8 text, byte-exact (no newline translation); InputError for binary/invalid input."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise InputError(f"{path}: cannot read: {err.strerror or err}") from None
    if b"\x00" in data:
        raise InputError(f"{path}: binary file (contains NUL bytes), not a text file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(f"{path}: not valid UTF-8 (byte {err.start}: {err.reason}); convert it to UTF-8") from None


def read_input(path: Path, options: Any = None) -> tuple[str, Any]:
    """The text of an input and, for an office file, HTML or PDF, the opened file (None for plain text)."""
    if path.suffix.lower() == ".txt" or options is None:
        return read_text(path), None
    from psan.tool.formats import files as formats
    try:
        data = path.read_bytes()
    except OSError as err:
        raise InputError(f"{path}: cannot read: {err.strerror or err}") from None
    try:
        opened = formats.read(data, path.name, options)
    except formats.FormatError as err:
        raise InputError(f"{path}: refused: {err}") from None
    return opened.text, (data, opened)


def _readable(files: Sequence[InputFile], reporter: Reporter, queue: deque[tuple[InputFile, Any]],
              options: Any = None) -> Iterator[str]:
    """Texts of the readable files; each one is also queued with its file (and its opened format, if any) so
    results can be paired."""
    for f in files:
        try:
            text, opened = read_input(f.path, options)
        except InputError as err:
            reporter.error(str(err))
            continue
        queue.append((f, opened))
        yield text


def _write(path: Path, content: str | Iterable[str]) -> None:
    """Write one output file (a string or its pieces in order); a folder that cannot be created or written stops
    the run (InputError)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as fh:
            if isinstance(content, str):
                fh.write(content)
            else:
                fh.writelines(content)
    except OSError as err:
        raise InputError(f"{path}: cannot write: {err.strerror or err}") from None


def _output_folder(path: Path, option: str) -> Path:
    """An output folder that exists as a folder or can be created; InputError naming the option otherwise."""
    if path.exists() and not path.is_dir():
        raise InputError(f"{path}: {option} must be a folder, not a file")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(f"{path}: cannot create the {option} folder: {err.strerror or err}") from None
    return path


def _open_for_writing(path: str, option: str) -> TextIO:
    """A text file the run writes to (``--spans-jsonl``); InputError if its folder is missing or unwritable."""
    try:
        return open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed by the caller
    except OSError as err:
        raise InputError(f"{path}: cannot write {option}: {err.strerror or err}") from None


# --- pipeline -----------------------------------------------------------------------------------------
def build_config(args: argparse.Namespace) -> dict[str, Any]:
    """Pipeline config from ``--pipeline`` JSON, ``--nametag-model`` or the language default."""
    from psan.tool.detection.defaults import default_config, fallback_notice
    if args.pipeline:
        try:
            with open(args.pipeline, encoding="utf-8") as fh:
                config = json.load(fh)
        except (OSError, ValueError) as err:
            raise InputError(f"{args.pipeline}: cannot read pipeline config: {err}") from None
        if not isinstance(config, dict):
            raise InputError(f"{args.pipeline}: pipeline config must be a JSON object")
        config.setdefault("language", args.lang)
        return config
    if args.models_dir and not os.path.isdir(args.models_dir):
        raise InputError(f"{args.models_dir}: --models-dir is not a folder")
    if args.nametag_model:
        if not os.path.isfile(args.nametag_model):
            raise InputError(f"{args.nametag_model}: no such NameTag model file")
        return {"language": args.lang, "tokenizer": "nametag",
                "ner": [{"kind": "nametag", "model": args.nametag_model}],
                "recognizers": ["patterns", "gazetteers"]}
    config = default_config(args.lang, args.models_dir)
    notice = fallback_notice(config)
    if notice:
        print(f"psan-tool: warning: {notice}", file=sys.stderr)
    return config


def build_pipeline(args: argparse.Namespace):  # noqa: ANN201 - psan.tool.detection.pipeline.Pipeline
    """The configured pipeline; config/model problems become InputError (clean message, exit 2)."""
    from psan.tool.detection.ner import ModelLoadError
    from psan.tool.detection.pipeline import Pipeline
    from psan.tool.detection.registry import ComponentError
    config = build_config(args)
    try:
        return Pipeline(config, language=args.lang)
    except (ComponentError, ModelLoadError, OSError, TypeError, ValueError, KeyError, AttributeError) as err:
        # the config is user input: any of these means it names something wrong, not a bug to trace
        raise InputError(f"cannot build the recognition pipeline: {err}") from None


def documents(args: argparse.Namespace, files: Sequence[InputFile], reporter: Reporter,
              options: Any = None) -> Iterator[tuple[InputFile, Document]]:
    """Recognize the readable files in batches, with a progress bar on stderr (TTY only, not ``--quiet``).

    With format ``options`` (``anonymize``) the files of every format are read; ``f.opened`` then holds
    the original bytes and the opened file for writing the output back in the same format.
    """
    from tqdm import tqdm
    if not files:  # nothing readable was named: report that without loading models first
        return
    pipeline = build_pipeline(args)
    queue: deque[tuple[InputFile, Any]] = deque()
    bar = tqdm(total=len(files), unit="file", file=sys.stderr,
               disable=args.quiet or not sys.stderr.isatty(), dynamic_ncols=True)
    pool = None
    try:
        if getattr(args, "jobs", 1) > 1:
            from psan.tool.detection.parallel import ParallelPipeline
            pool = ParallelPipeline(pipeline, args.jobs)
            docs = pool.iter_process(_readable(files, reporter, queue, options))
        else:
            docs = pipeline.iter_process(_readable(files, reporter, queue, options), batch_size=args.batch_size)
        for doc in docs:
            f, opened = queue.popleft()
            bar.update(1)
            yield (f if opened is None else OpenedInput(f.path, f.rel, opened)), doc
        bar.update(len(files) - bar.n)
    finally:
        bar.close()
        if pool is not None:
            pool.close()


def span_records(rel: str, doc: Document) -> Iterator[dict[str, Any]]:
    """One JSON-serializable record per recognized entity (character offsets, end exclusive)."""
    for ent in in_span_order(doc.entities):
        start, end = doc.char_range(ent.first_token, ent.end_token)
        yield {"file": rel, "start": start, "end": end, "text": doc.text[start:end], "type": ent.type,
               "category": str(ent.category), "source": ent.source, "score": ent.score}


#: ``json.dumps(…, ensure_ascii=False)`` without building an encoder per record (the same text, a third faster)
_ENCODE_RECORD = json.JSONEncoder(ensure_ascii=False).encode
#: a JSON string literal as ``_ENCODE_RECORD`` writes it (``ensure_ascii=False``)
_ENCODE_STRING = json.encoder.encode_basestring  # type: ignore[attr-defined]


def span_lines(rel: str, doc: Document) -> Iterator[str]:
    """:func:`span_records` as JSONL lines, the text ``_ENCODE_RECORD`` gives, without a dict per record.

    Why: a corpus run writes 10^4 records; formatting the line directly costs a third of building the
    dict and encoding it.  A record whose fields are not plain strings, ints and a finite float is
    encoded the general way.
    """
    text = doc.text
    starts, ends = token_bounds(doc.tokens)
    head = '{"file": ' + _ENCODE_STRING(rel) + ', "start": '
    #: the end of a line after the span's text, per kind of entity (type, category, source, score): a large
    #: document has 10^5 entities of a few dozen kinds
    tails: dict[tuple, str] = {}
    for ent in in_span_order(doc.entities):
        start, end = starts[ent.first_token], ends[ent.end_token - 1]
        score, kind, source = ent.score, ent.type, ent.source
        if (type(score) is not float or not math.isfinite(score) or type(kind) is not str or type(source) is not str
                or type(start) is not int or type(end) is not int):
            yield _ENCODE_RECORD({"file": rel, "start": start, "end": end, "text": text[start:end], "type": kind,
                                  "category": str(ent.category), "source": source, "score": score}) + "\n"
            continue
        key = (kind, ent.category, source, float.__repr__(score))  # the text, not the value: -0.0 is not 0.0
        tail = tails.get(key)
        if tail is None:
            tail = tails[key] = (f', "type": {_ENCODE_STRING(kind)}, "category": {_ENCODE_STRING(str(ent.category))}, '
                                 f'"source": {_ENCODE_STRING(source)}, "score": {key[3]}}}\n')
        yield f'{head}{start}, "end": {end}, "text": {_ENCODE_STRING(text[start:end])}{tail}'


def _dump_spans(out: TextIO, rel: str, doc: Document) -> None:
    """Write the document's span lines, the cyclic garbage collector paused meanwhile.

    Why paused: the collector resumes when a document is recognized, with all of its objects young; the 10^5
    sort keys and records of a large document's lines then started passes of every generation over them
    and the whole heap (0.13 CPU s of a 10^6-token document), and no cycle is made here.
    """
    with collector_paused():
        out.writelines(span_lines(rel, doc))


# --- subcommands --------------------------------------------------------------------------------------
def _standoff_dir(args: argparse.Namespace) -> Path:
    if args.standoff_dir:
        return Path(args.standoff_dir)
    out = Path(args.out).resolve()
    return out.parent / f"{out.name}.standoff"


def make_replacer(language: str, seed: str | None):  # noqa: ANN201 - psan.tool.release.output.Replacer
    """One surrogate provider for the whole run, so equal originals get equal surrogates across files.

    Without ``--seed`` the seed is random, so surrogates cannot be re-derived from the output.
    """
    import secrets

    from psan.tool.surrogates import SurrogateReplacer
    seed = seed if seed is not None else secrets.token_hex(16)
    return SurrogateReplacer(language=language, seed=seed)


def cmd_anonymize(args: argparse.Namespace) -> int:  # noqa: C901
    """Recognize, treat every entity as private and write the output (plus standoff/spans if asked)."""
    from psan.tool.decisions.regions import entity_regions
    from psan.tool.release.output import TagScheme, pseudonymize, remove, tag
    reporter = Reporter()
    out_dir = Path(args.out)
    standoff_dir = _standoff_dir(args) if (args.standoff or args.standoff_dir) else None
    if standoff_dir is not None and standoff_dir.resolve().is_relative_to(out_dir.resolve()):
        print(f"psan-tool: error: standoff folder {standoff_dir} must not be inside the output folder "
              f"{out_dir}: it holds the personal data", file=sys.stderr)
        return EXIT_FAILED
    reason = None
    if standoff_dir is not None:  # the standoff is the key: written only with a reason, and logged
        from psan.tool.release import access_log
        reason = access_log.clean_reason(args.reason)
        if reason is None:
            print(f"psan-tool: error: give --reason ({access_log.MIN_REASON} to {access_log.MAX_REASON} "
                  "characters) with --standoff: every key written is logged with who, when and why", file=sys.stderr)
            return EXIT_FAILED
    if args.spans_out is not None and args.spans_out.path.resolve().is_relative_to(out_dir.resolve()):
        print(f"psan-tool: error: --spans-out {args.spans_out.path} must not be inside the output folder {out_dir}: "
              "it holds the original texts", file=sys.stderr)
        return EXIT_FAILED
    excluded = [out_dir] + ([standoff_dir] if standoff_dir else [])
    _output_folder(out_dir, "--out")
    if standoff_dir is not None:
        _output_folder(standoff_dir, "--standoff-dir")
    from psan.tool.formats import files as formats
    options = formats.Options(tracked_changes=args.tracked_changes)
    files = collect_inputs(args.inputs, reporter, excluded, tuple(sorted(formats.SUFFIXES())))
    if standoff_dir is not None and reason is not None:
        from psan.tool.release import access_log
        log = access_log.log_path(args.access_log, standoff_dir / "key-access.jsonl")
        try:
            access_log.append(log, "export", reason, standoff=str(standoff_dir.resolve()), files=len(files),
                              mode=args.mode)
        except OSError as err:
            raise InputError(f"{log}: cannot write the key access log: {err.strerror or err}") from None
    scheme = TagScheme.for_language(args.lang, per_token=args.per_token_tags)
    replacer = make_replacer(args.lang, args.seed) if args.mode == "pseudonymize" else None
    spans_fh = _open_for_writing(args.spans_jsonl, "--spans-jsonl") if args.spans_jsonl else None
    from psan.tool.cli import spans as cli_spans
    spans_in = cli_spans.attach_given(args, files)
    spans_out = cli_spans.SpansOut(args.spans_out) if args.spans_out else None
    try:
        for f, doc in documents(args, files, reporter, options):
            if not cli_spans.take(spans_in, f.rel.as_posix(), doc, args, reporter.error):
                continue
            regions = entity_regions(doc)
            if args.mode == "remove":
                result = remove(doc.text, regions)
            elif args.mode == "tag":
                result = tag(doc.text, regions, scheme)
            else:
                observe = getattr(replacer, "observe", None)
                if observe is not None:  # lets the replacer avoid surrogates equal to any original
                    observe(doc.text, regions)
                result = pseudonymize(doc.text, regions, replacer, scheme)
            if not _write_output(out_dir, f, result, options, reporter, args.quiet):
                continue
            if standoff_dir is not None:
                record = {"file": f.rel.as_posix(), "mode": args.mode, "standoff": result.standoff}
                _write(standoff_dir / f"{f.rel}.json", json.dumps(record, ensure_ascii=False, indent=1) + "\n")
            if spans_fh is not None:
                _dump_spans(spans_fh, f.rel.as_posix(), doc)
            if spans_out is not None:
                spans_out.add(f.rel.as_posix(), doc)
        if spans_out is not None:
            spans_out.close()
    finally:
        if spans_fh is not None:
            spans_fh.close()
    _unused(spans_in)
    return reporter.status


def _unused(spans_in: Any) -> None:
    """Say which documents of a ``--spans-in`` file no input matched (probably misnamed)."""
    if spans_in is not None and spans_in.unused():
        print(f"psan-tool: warning: --spans-in documents matching no input: {', '.join(spans_in.unused()[:10])}",
              file=sys.stderr)


def _write_output(out_dir: Path, f: InputFile, result: Any, options: Any, reporter: Reporter, quiet: bool) -> bool:
    """Write one output: text as it is, any other format back into its own format (a PDF as text).

    What the format removed (metadata, parts) is said on stderr unless ``quiet``; False if the file could
    not be written back (reported, nothing written).
    """
    if not isinstance(f, OpenedInput):
        _write(out_dir / f.rel, result.text)
        return True
    from psan.tool.formats import files as formats
    data, opened = f.opened
    try:
        content = formats.write(data, f.path.name, result.standoff, options, expected_text=opened.text)
    except formats.FormatError as err:
        reporter.error(f"{f.path}: cannot write the output: {err}")
        return False
    target = out_dir / formats.output_name(f.rel.as_posix())
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    except OSError as err:
        raise InputError(f"{target}: cannot write: {err.strerror or err}") from None
    summary = opened.report.as_dict()
    if not quiet and (summary["removed"] or summary["dropped"]):
        print(f"psan-tool: {f.rel.as_posix()}: removed {', '.join(summary['removed'] + summary['dropped'])}",
              file=sys.stderr)
    return True


def cmd_recognize(args: argparse.Namespace) -> int:
    """Write the tagged XML of each input file (``name.txt`` → ``name.xml``)."""
    from psan.tool.formats.tagged_xml import xml_chunks
    reporter = Reporter()
    out_dir = _output_folder(Path(args.xml_out), "--xml-out")
    files = collect_inputs(args.inputs, reporter, [out_dir])
    for f, doc in documents(args, files, reporter):
        with collector_paused():  # as in _dump_spans: a large document's XML pieces would start the collector
            _write(out_dir / f.rel.with_suffix(".xml"), xml_chunks(doc))  # written as made: no copy of the whole XML
    return reporter.status


def cmd_spans(args: argparse.Namespace) -> int:
    """Print the recognized spans of every input as JSONL on stdout."""
    reporter = Reporter()
    files = collect_inputs(args.inputs, reporter)
    from psan.tool.cli import spans as cli_spans
    spans_in = cli_spans.attach_given(args, files)
    spans_out = cli_spans.SpansOut(args.spans_out) if args.spans_out else None
    for f, doc in documents(args, files, reporter):
        if not cli_spans.take(spans_in, f.rel.as_posix(), doc, args, reporter.error):
            continue
        _dump_spans(sys.stdout, f.rel.as_posix(), doc)
        if spans_out is not None:
            spans_out.add(f.rel.as_posix(), doc)
    if spans_out is not None:
        spans_out.close()
    sys.stdout.flush()
    _unused(spans_in)
    return reporter.status


def _positive(value: str) -> int:
    """argparse type: an integer >= 1 (a bad value is a one-line usage error)."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {value!r}")
    return number


# --- argument parsing ---------------------------------------------------------------------------------
def _common(p: argparse.ArgumentParser, default_lang: str) -> None:
    p.add_argument("inputs", nargs="+", metavar="IN",
                   help="files or folders (searched recursively for *.txt; anonymize also takes *.docx, *.odt, "
                        "*.html, *.htm, *.pdf)")
    p.add_argument("--lang", default=default_lang, help=f"document language code (default {default_lang})")
    models = p.add_mutually_exclusive_group()
    models.add_argument("--pipeline", metavar="CONFIG.json", help="pipeline config (JSON) instead of the default")
    models.add_argument("--nametag-model", metavar="PATH",
                        help="NameTag .ner model: NameTag tokenizer + NER + patterns + gazetteers")
    p.add_argument("--models-dir", metavar="DIR", default=None,
                   help="folder with NameTag models for the default config (default $PSAN_NAMETAG_MODELS)")
    p.add_argument("--batch-size", type=int, default=32, help="texts per NER batch (default 32)")
    p.add_argument("--jobs", type=_positive, default=1, metavar="N",
                   help="recognize in N processes (large documents split into sections; same output; default 1)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def make_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="psan-tool", description="psan automatic recognition and anonymization")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("anonymize", help="recognize and write anonymized copies of the inputs")
    _common(p, "cs")
    p.add_argument("--mode", choices=MODES, default="tag", help="output mode (default tag)")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder (mirrors the input tree)")
    p.add_argument("--per-token-tags", action="store_true", help="one tag per token ([PERSON] [PERSON])")
    p.add_argument("--spans-jsonl", metavar="FILE", help="also write the recognized spans as JSONL")
    p.add_argument("--standoff", action="store_true",
                   help="write standoff JSON (personal data!) to DIR/../<name>.standoff/")
    p.add_argument("--standoff-dir", metavar="DIR", help="standoff folder (implies --standoff); not inside --out")
    p.add_argument("--seed", default=None, help="seed of the pseudonymize surrogates (reproducible output)")
    p.add_argument("--tracked-changes", choices=("accept", "reject"), default="accept",
                   help="tracked changes of DOCX/ODT files: accept (keep insertions, drop deletions; default) "
                        "or reject; either way no revision mark or author is left")
    p.add_argument("--reason", default=None, help="why the key (standoff) is written: required with --standoff, "
                                                  "logged with who and when")
    p.add_argument("--access-log", default=None, metavar="FILE",
                   help="key access log (default $PSAN_KEY_ACCESS_LOG, else key-access.jsonl in the standoff folder)")
    from psan.tool.cli.spans import add_arguments as add_spans_arguments
    add_spans_arguments(p)
    p.set_defaults(func=cmd_anonymize)

    p = sub.add_parser("recognize", help="write the tagged XML of each input")
    _common(p, "en")
    p.add_argument("--xml-out", required=True, metavar="DIR", help="output folder for .xml files")
    p.set_defaults(func=cmd_recognize)

    p = sub.add_parser("spans", help="print recognized spans as JSONL on stdout")
    _common(p, "en")
    add_spans_arguments(p)
    p.set_defaults(func=cmd_spans)

    from psan.tool.cli.depseudonymize import add_parser as add_depseudonymize
    add_depseudonymize(sub)
    from psan.tool.cli.entities import add_parser as add_entities
    add_entities(sub)
    from psan.tool.cli.pseudonymize import add_parser as add_pseudonymize
    add_pseudonymize(sub)
    from psan.tool.models.cli import add_parser as add_models
    add_models(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (0 ok, 2 some input or config failed)."""
    from psan.tool.formats.annotations.base import AnnotationFormatError
    args = make_parser().parse_args(argv)
    if getattr(args, "batch_size", 1) < 1:
        print("psan-tool: error: --batch-size must be at least 1", file=sys.stderr)
        return EXIT_FAILED
    try:
        return args.func(args)
    except (InputError, AnnotationFormatError) as err:
        print(f"psan-tool: error: {err}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print("psan-tool: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # e.g. `psan-tool spans … | head`: stop quietly, as other command-line tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILED
    except OSError as err:  # anything the checks above missed (a disk filling up, a vanished folder)
        where = f"{err.filename}: " if err.filename else ""
        print(f"psan-tool: error: {where}{err.strerror or err}", file=sys.stderr)
        return EXIT_FAILED


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
