"""CLI: ``psan-tool models list`` / ``psan-tool models download [NAME …]`` (also ``python -m psan.tool.models``).

Without names, ``download`` fetches the default models (the Czech NameTag model, which also serves
Slovak, Slovenian, Polish and Swedish names); ``spacy-czech`` is an explicit opt-in.  Each licence is
printed and must be accepted: interactively, or with ``--accept-licence`` (recorded with the user name).
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from psan.tool.models.fetch import (
    ModelFetchError,
    default_models_dir,
    entry,
    install_nametag,
    install_pip,
    licence_text,
    load_manifest,
    read_record,
)

FOLDER_HELP = "models folder (default $PSAN_NAMETAG_MODELS or instance/models)"


def add_parser(sub: Any) -> None:
    """The ``models`` subcommand of ``psan-tool``."""
    p = sub.add_parser("models", help="list or download the NER models psan can use (NameTag, spaCy Czech)")
    configure(p)


def configure(p: argparse.ArgumentParser) -> None:
    msub = p.add_subparsers(dest="models_command", required=True)
    ls = msub.add_parser("list", help="the models of the manifest and which are installed")
    ls.add_argument("--models-dir", default=None, help=FOLDER_HELP)
    ls.set_defaults(func=cmd_list)
    dl = msub.add_parser("download", help="download, verify and install models (default: the default ones)")
    dl.add_argument("names", nargs="*", metavar="NAME", help="manifest names (see `psan-tool models list`)")
    dl.add_argument("--models-dir", default=None, help=FOLDER_HELP)
    dl.add_argument("--accept-licence", action="store_true",
                    help="accept the printed licences without asking (the acceptance is recorded)")
    dl.add_argument("--trust-unpinned", action="store_true",
                    help="install a model whose checksum is not pinned in the manifest (the digest is recorded)")
    dl.add_argument("--url", default=None, help="download from this mirror URL instead (one NAME only)")
    dl.add_argument("--timeout", type=float, default=60.0, help="network timeout in seconds (default 60)")
    dl.set_defaults(func=cmd_download)


def cmd_list(args: argparse.Namespace) -> int:
    folder = args.models_dir or default_models_dir()
    record = read_record(folder)
    for model in load_manifest():
        state = "installed" if model["name"] in record else ("opt-in" if model.get("opt_in") else
                                                            "default" if model.get("default") else "optional")
        print(f"{model['name']:<14} {state:<10} {model['licence']:<16} {model['title']}")
    print(f"models folder: {folder}")
    return 0


def _accept(model: dict[str, Any], args: argparse.Namespace) -> bool:
    print(licence_text(model), flush=True)
    if args.accept_licence:
        print("  licence accepted (--accept-licence)")
        return True
    if not sys.stdin.isatty():
        print("  not accepted: rerun with --accept-licence to accept it", file=sys.stderr)
        return False
    answer = input("  Do you accept this licence for your use? [y/N] ").strip().lower()
    return answer in ("y", "yes", "a", "ano")


def _progress(done: int, total: int | None) -> None:
    if total:
        print(f"\r  {done * 100 // total:3d} % of {total / 1e6:.1f} MB", end="", flush=True)


def cmd_download(args: argparse.Namespace) -> int:
    manifest = load_manifest()
    try:
        models = [entry(name, manifest) for name in args.names] if args.names else \
            [m for m in manifest if m.get("default")]
    except ModelFetchError as err:
        print(f"psan-tool models: error: {err}", file=sys.stderr)
        return 2
    if args.url and len(models) != 1:
        print("psan-tool models: error: --url needs exactly one NAME", file=sys.stderr)
        return 2
    folder = args.models_dir or default_models_dir()
    status = 0
    for model in models:
        if not _accept(model, args):
            status = 2
            continue
        try:
            if model["kind"] == "pip":
                installed = install_pip(model, folder)
            else:
                installed = install_nametag(model, folder, trust_unpinned=args.trust_unpinned, url=args.url,
                                            timeout=args.timeout, progress=_progress if sys.stdout.isatty() else None)
        except ModelFetchError as err:
            print(f"\npsan-tool models: error: {err}", file=sys.stderr)
            status = 2
            continue
        print(f"\n  installed {installed}")
    if status == 0 and any(m["kind"] == "nametag" for m in models):
        print(f"Point psan at the folder: PSAN_NAMETAG_MODELS={folder} (`make run` does so for instance/models), "
              "then restart psan.")
    return status


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m psan.tool.models", description=__doc__.split("\n")[0])
    configure(parser)
    args = parser.parse_args(argv)
    return args.func(args)
