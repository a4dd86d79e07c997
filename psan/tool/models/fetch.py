"""Download, verify and install the models listed in ``manifest.json`` into a models folder.

Why so careful: a model is code-like input (a corrupt or swapped file silently changes what is found),
so every download is streamed into a ``.part`` file beside its target, checked against the manifest's
SHA-256 and only then moved into place; any failure leaves nothing behind.  The licence acceptance is
recorded in ``LICENCES.json`` in the models folder, the file a site's administrator reads later.
"""
from __future__ import annotations

import contextlib
import datetime as dt
import getpass
import hashlib
import json
import os
import shutil
import subprocess  # nosec B404
import sys
import tempfile
import urllib.request
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

MANIFEST = Path(__file__).with_name("manifest.json")
RECORD = "LICENCES.json"
CHUNK = 1 << 16
#: biggest archive accepted (the official Czech NameTag zip is about 31 MB)
MAX_BYTES = 512 * 1024 * 1024


class ModelFetchError(Exception):
    """A download that cannot be installed; the message says why and what to do."""


def load_manifest(path: Path | str = MANIFEST) -> list[dict[str, Any]]:
    """The manifest's model entries (name, url, sha256, licence …)."""
    return json.loads(Path(path).read_text(encoding="utf-8"))["models"]


def entry(name: str, manifest: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """One manifest entry by name, or a clear error listing the names there are."""
    models = manifest if manifest is not None else load_manifest()
    for model in models:
        if model["name"] == name:
            return model
    raise ModelFetchError(f"no model {name!r} in the manifest (there are: {', '.join(m['name'] for m in models)})")


def default_models_dir() -> str:
    """``$PSAN_NAMETAG_MODELS``, else ``instance/models`` (the folder ``make run`` points psan at)."""
    return os.environ.get("PSAN_NAMETAG_MODELS") or os.path.join("instance", "models")


def licence_text(model: dict[str, Any]) -> str:
    """The sentence shown before a download: what the model is and under which licence."""
    where = f" ({model['licence_url']})" if model.get("licence_url") else ""
    return f"{model['title']}\n  licence: {model['licence']}{where}: {model.get('licence_note', '')}"


def download(url: str, target: Path, sha256: str | None, *, timeout: float = 60.0,
             progress: Callable[[int, int | None], None] | None = None) -> str:
    """Stream ``url`` into ``target`` and return its SHA-256; refuse a short, oversized or mismatched file.

    The bytes go to ``target.part`` first, which is removed on every failure, so an interrupted
    download never looks like a model.
    """
    if not url.startswith(("https://", "http://")):
        raise ModelFetchError(f"only http(s) downloads are supported: {url!r}")
    part = target.with_name(target.name + ".part")
    digest = hashlib.sha256()
    received = 0
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response, open(part, "wb") as out:  # noqa: S310  # nosec B310
            length = response.headers.get("Content-Length")
            expected = int(length) if length and length.isdigit() else None
            while True:
                chunk = response.read(CHUNK)
                if not chunk:
                    break
                received += len(chunk)
                if received > MAX_BYTES:
                    raise ModelFetchError(f"{url}: larger than {MAX_BYTES // (1024 * 1024)} MB; refused")
                digest.update(chunk)
                out.write(chunk)
                if progress:
                    progress(received, expected)
        if expected is not None and received != expected:
            raise ModelFetchError(f"{url}: download incomplete ({received} of {expected} bytes); nothing installed")
        found = digest.hexdigest()
        if sha256 and found != sha256.lower():
            raise ModelFetchError(f"{url}: SHA-256 mismatch (expected {sha256}, got {found}); nothing installed")
        os.replace(part, target)
        return found
    except (OSError, ValueError) as err:  # urllib's errors are OSErrors; http.client's IncompleteRead too
        raise ModelFetchError(f"{url}: download failed ({err}); nothing installed") from err
    finally:
        with contextlib.suppress(FileNotFoundError):
            part.unlink()


def _extract(archive: Path, member: str | None, target: Path) -> None:
    """Copy the model file out of a zip archive (or the download itself when it is not one)."""
    if not zipfile.is_zipfile(archive):
        if member:
            raise ModelFetchError(f"the download is not a zip archive, but {member!r} was expected in one")
        os.replace(archive, target)
        return
    part = target.with_name(target.name + ".part")
    try:
        with zipfile.ZipFile(archive) as zf:
            names = zf.namelist()
            if member not in names:
                raise ModelFetchError(f"{member!r} is not in the archive (it has: {', '.join(names[:10])})")
            with zf.open(member) as src, open(part, "wb") as dst:
                shutil.copyfileobj(src, dst, CHUNK)
        os.replace(part, target)
    except zipfile.BadZipFile as err:
        raise ModelFetchError(f"the archive is damaged ({err}); nothing installed") from err
    finally:
        with contextlib.suppress(FileNotFoundError):
            part.unlink()


def read_record(models_dir: Path | str) -> dict[str, Any]:
    """What ``LICENCES.json`` says was installed and accepted (empty when nothing was)."""
    path = Path(models_dir) / RECORD
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _write_record(models_dir: Path, name: str, data: dict[str, Any]) -> None:
    record = read_record(models_dir)
    record[name] = data
    fd, tmp = tempfile.mkstemp(dir=models_dir, prefix=".licences-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(record, out, ensure_ascii=False, indent=2)
        out.write("\n")
    os.replace(tmp, models_dir / RECORD)


def _acceptance(model: dict[str, Any], accepted_by: str | None) -> dict[str, Any]:
    return {"licence": model["licence"], "licence_url": model.get("licence_url"),
            "accepted_by": accepted_by or getpass.getuser(),
            "accepted_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds")}


def install_nametag(model: dict[str, Any], models_dir: Path | str, *, accepted_by: str | None = None,
                    trust_unpinned: bool = False, url: str | None = None, timeout: float = 60.0,
                    progress: Callable[[int, int | None], None] | None = None) -> Path:
    """Download a NameTag model into ``models_dir`` and record its checksum and licence acceptance.

    ``url`` replaces the manifest's (a site's mirror); the checksum is the manifest's either way.
    An entry without a pinned checksum is installed only with ``trust_unpinned``, and the digest seen
    is recorded so the next download can be compared with it.
    """
    folder = Path(models_dir)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / model["install_as"]
    pinned = model.get("sha256")
    if not pinned:
        previous = read_record(folder).get(model["name"], {}).get("archive_sha256")
        pinned = previous or None
    if not pinned and not trust_unpinned:
        raise ModelFetchError(
            f"the manifest has no pinned SHA-256 for {model['name']!r}, so the download cannot be verified; "
            "pin it in psan/tool/models/manifest.json or rerun with --trust-unpinned (the digest seen is recorded)")
    archive = folder / (model["name"] + ".download")
    found = download(url or model["url"], archive, pinned, timeout=timeout, progress=progress)
    try:
        _extract(archive, model.get("member"), target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            archive.unlink()
    _write_record(folder, model["name"], {
        "file": model["install_as"], "source": url or model["url"], "archive_sha256": found,
        "file_sha256": _sha256(target), "pinned": bool(model.get("sha256")), **_acceptance(model, accepted_by)})
    return target


def install_pip(model: dict[str, Any], models_dir: Path | str, *, accepted_by: str | None = None) -> str:
    """Install an opt-in pip package (the spaCy Czech pipeline) into this Python and record the acceptance."""
    command = [sys.executable, "-m", "pip", "install", model["package"]]
    result = subprocess.run(command, check=False)  # noqa: S603  # nosec B603
    if result.returncode:
        raise ModelFetchError(f"pip could not install {model['package']} (exit status {result.returncode})")
    folder = Path(models_dir)
    folder.mkdir(parents=True, exist_ok=True)
    _write_record(folder, model["name"], {"package": model["package"], **_acceptance(model, accepted_by)})
    return model["package"]


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def install_hint(language: str) -> str | None:
    """The command that gives a language an NER model, or None when no listed model serves it.

    Why here: the projects page and the CLI's warning must name the same command as the Makefile, and one
    that works: while the manifest pins no checksum of the model, the download is refused without
    ``--trust-unpinned``, so the command carries it until the digest is pinned.
    """
    lang = (language or "").lower()[:2]
    for model in load_manifest():
        if lang not in model.get("languages", []):
            continue
        unpinned = model.get("kind") == "nametag" and not model.get("sha256")
        if model.get("default"):
            return "make models MODELS_ARGS=--trust-unpinned" if unpinned else "make models"
        return f"psan-tool models download {model['name']}" + (" --trust-unpinned" if unpinned else "")
    return None
