"""``psan-tool depseudonymize OUTPUT --key KEY.json --reason WHY > original.txt``: undo pseudonymization.

Why a command: the key is kept apart from the output (it holds the personal data), often on
another machine than the web application; whoever holds both must be able to restore the
original without a server.  The original is written to stdout as raw UTF-8 bytes (no newline
translation), so the result equals the original byte for byte.

Registration in :mod:`psan.tool.cli` (``make_parser``, after the other subcommands)::

    from psan.tool.cli.depseudonymize import add_parser; add_parser(sub)

Also runnable alone: ``python -m psan.tool.cli.depseudonymize OUTPUT --key KEY.json``.
"""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from psan.tool.release import access_log
from psan.tool.release.key import KeyFileError, parse_key, restore_output

EXIT_OK = 0
EXIT_FAILED = 2


def _read(path: str, what: str) -> str:
    """The file as strict UTF-8 text, byte-exact; KeyFileError with the path otherwise."""
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise KeyFileError(f"{path}: cannot read the {what}: {err.strerror or err}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise KeyFileError(f"{path}: the {what} is not valid UTF-8 (byte {err.start})") from None


def _output_text(path: str) -> str:
    """The output's text: a text file as it is; a DOCX, ODT or HTML output as psan reads it (its text is
    restored, not the original file)."""
    from psan.tool.formats import files as formats
    fmt = formats.format_for(path)
    if fmt is None or fmt.name == "text":
        return _read(path, "output")
    try:
        return formats.read(Path(path).read_bytes(), path).text
    except OSError as err:
        raise KeyFileError(f"{path}: cannot read the output: {err.strerror or err}") from None
    except formats.FormatError as err:
        raise KeyFileError(f"{path}: {err}") from None


def cmd_depseudonymize(args: argparse.Namespace) -> int:
    """Restore the original of ``args.output`` with ``args.key``; message on stderr and exit 2 on failure.

    The use is logged first (``--reason`` is required): a restore whose use cannot be recorded is refused.
    """
    reason = access_log.clean_reason(args.reason)
    if reason is None:
        print(f"psan-tool: error: give --reason ({access_log.MIN_REASON} to {access_log.MAX_REASON} characters): "
              "every de-pseudonymization is logged with who, when and why", file=sys.stderr)
        return EXIT_FAILED
    try:
        output_text = _output_text(args.output)
        key_text = _read(args.key, "key")
        fmt = args.format or ("csv" if args.key.lower().endswith(".csv") else "json")
        key = parse_key(key_text, fmt)
        document, original = restore_output(key, output_text, args.document)
        log = access_log.log_path(args.access_log, Path(f"{args.key}.access.jsonl"))
        try:
            access_log.append(log, "depseudonymize", reason, key=os.path.abspath(args.key),
                              output=os.path.abspath(args.output), document=document)
        except OSError as err:
            raise KeyFileError(f"{log}: cannot write the key access log: {err.strerror or err}") from None
    except KeyFileError as err:
        print(f"psan-tool: error: {err}", file=sys.stderr)
        return EXIT_FAILED
    out = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else None
    if out is not None:
        out.write(original.encode("utf-8"))
        out.flush()
    else:  # a text stream without a buffer (tests capturing stdout)
        sys.stdout.write(original)
    return EXIT_OK


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``depseudonymize`` subcommand to ``psan-tool``'s subparsers."""
    p = sub.add_parser("depseudonymize", help="restore the original text from a pseudonymized output and its key",
                       description="Write the original of OUTPUT (byte for byte) to stdout, using the key "
                                   "exported by the admin (JSON or CSV).")
    p.add_argument("output", metavar="OUTPUT",
                   help="pseudonymized text file, or DOCX/ODT/HTML output whose text is restored (as downloaded, "
                        "unedited)")
    p.add_argument("--key", required=True, metavar="KEY.json", help="key file of the document or of its project")
    p.add_argument("--document", default=None, metavar="ID|NAME",
                   help="document of a project key (default: the only document whose key fits)")
    p.add_argument("--format", choices=("json", "csv"), default=None,
                   help="key format (default: by the file suffix, else json)")
    p.add_argument("--reason", default=None, help="why the original is needed (required; logged with who and when)")
    p.add_argument("--access-log", default=None, metavar="FILE",
                   help="key access log to append to (default $PSAN_KEY_ACCESS_LOG, else KEY.access.jsonl)")
    # psan-tool's main() validates --batch-size for every subcommand; this one reads no batches
    p.set_defaults(func=cmd_depseudonymize, batch_size=1)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Stand-alone entry point (same behaviour as ``psan-tool depseudonymize``)."""
    parser = argparse.ArgumentParser(prog="psan-tool")
    sub = parser.add_subparsers(dest="command", required=True)
    add_parser(sub)
    args = parser.parse_args(["depseudonymize", *(sys.argv[1:] if argv is None else argv)])
    return args.func(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
