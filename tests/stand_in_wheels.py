"""Helpers for the tests of pinned wheels fetched as files (``rlpool.pinned_wheel`` and the families using it).

Stand-in wheels built in a test's folder (a zip with its dist-info and a RECORD of sha256s), an empty cache
whose pip finds nothing (no index; links only where a test adds them), what a fetch left beside its folder,
and a ``download`` that fails the test if it is called.
"""

from __future__ import annotations

import base64
import hashlib
import os
import zipfile
from pathlib import Path

import pytest


def make_wheel(folder: Path, file: str, files: dict[str, str | bytes], tamper: str | None = None) -> Path:
    """A wheel named ``file`` in ``folder`` holding ``files`` and a dist-info whose RECORD gives each one's sha256.

    ``tamper``: a file whose content then differs from its sha256 in the RECORD.
    """
    name, version = file.split("-")[:2]
    dist = f"{name}-{version}.dist-info"
    contents = {n: c.encode() if isinstance(c, str) else c for n, c in files.items()}
    contents[f"{dist}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    contents[f"{dist}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    record = []
    for member, data in contents.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{member},sha256={digest},{len(data)}")
    record.append(f"{dist}/RECORD,,")
    if tamper is not None:
        contents[tamper] += b"# changed\n"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file
    with zipfile.ZipFile(path, "w") as z:
        for member, data in contents.items():
            z.writestr(member, data)
        z.writestr(f"{dist}/RECORD", "\n".join(record) + "\n")
    return path


def sha256(path: Path) -> str:
    """The sha256 (hex) of the file at ``path``."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def offline_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache in ``tmp_path`` and a pip that finds nothing (no index, no links): the cache root."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("RLPOOL_CACHE_DIR", str(cache))
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.delenv("PIP_FIND_LINKS", raising=False)
    return cache


def left_beside(folder: Path) -> list[str]:
    """What a fetch into ``folder`` left beside it, but for the folder and its lock file."""
    if not folder.parent.exists():
        return []
    return sorted(p.name for p in folder.parent.iterdir() if p.name not in (folder.name, f".{folder.name}.lock"))


def must_not_download(*args: object, **kwargs: object) -> Path:
    """Stands for ``rlpool.pinned_wheel.download`` where nothing may be fetched."""
    raise AssertionError("fetched")
