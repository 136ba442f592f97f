"""A pinned wheel fetched as a file and part of it unpacked into rlpool's cache, for files of a package not installed.

A family that needs files from a published wheel (a package's models, a data wheel's maps) describes the wheel
as a ``PinnedWheel`` (distribution, version, file name, sha256, what it is for, the error to raise and what to
do instead) and calls ``fetch_into`` with a folder of the cache (``rlpool.cache``) and two functions of its
own: ``unpack``, which takes what it needs from the wheel into a fresh folder, and ``complete``, which says
whether a folder holds all of it. The wheel is fetched by name and version with pip (``pip download --no-deps
--only-binary=:all:``; nothing is installed or imported) and checked against its sha256; a wheel of that name
and sha256 already in the cache's root folder (downloaded elsewhere, for a machine without network access) is
unpacked from there instead, and no wheel is kept. Threads and processes that fetch at once serialise on a lock
file, the folder is unpacked beside its place and appears there by an atomic rename, whole or not at all, and
an incomplete folder found there is moved aside first. What cannot be had raises the wheel's own error class,
naming the package, its version and what to do.
"""

from __future__ import annotations

import base64
import contextlib
import csv
import hashlib
import importlib.util
import io
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rlpool.cache import cache_root


@dataclass(frozen=True)
class PinnedWheel:
    """A published wheel taken as a file, pinned by version and sha256, and what to say when it cannot be had."""

    package: str
    """The distribution's name as pip takes it: ``"envpool-assets"``."""
    version: str
    """The pinned version: ``"0.4.1"``."""
    file: str
    """The wheel's file name, as pip saves it: ``"envpool_assets-0.4.1-py3-none-any.whl"``."""
    sha256: str
    """The wheel's sha256 (hex): any other file of that name is refused."""
    megabytes: int
    """Its size, said in the line printed on stderr before pip fetches it."""
    purpose: str
    """What it is fetched for, ending that line (``fetching ... with pip for <purpose>, once``)."""
    needed: str
    """What each error opens with: what needs the wheel, naming its package and version."""
    error: type[Exception]
    """Raised, with one message, when the wheel or its files cannot be had."""
    what_to_do: str
    """Ends each error: what to install, set or download instead (where the offline wheel goes: ``cache_root()``)."""

    @property
    def requirement(self) -> str:
        """``package==version``, as pip takes it."""
        return f"{self.package}=={self.version}"

    @property
    def dist_info(self) -> str:
        """The name of the wheel's ``.dist-info`` folder (``name-version.dist-info``, from the file name)."""
        name, version = self.file.split("-")[:2]
        return f"{name}-{version}.dist-info"


_LOCKS: dict[str, threading.Lock] = {}
_LOCKS_LOCK = threading.Lock()


def sha256_of(path: Path) -> str:
    """The sha256 (hex) of the file at ``path``, read in blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """An exclusive lock between processes (``flock`` on ``path``, created if missing); none where fcntl is missing."""
    try:
        import fcntl
    except ImportError:  # not POSIX: the rename alone keeps a folder whole
        yield
        return
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def pip_command() -> list[str] | None:
    """How to run pip: this interpreter's (``python -m pip``), else a pip program on PATH; None if neither."""
    if importlib.util.find_spec("pip") is not None:
        return [sys.executable, "-m", "pip"]
    program = shutil.which("pip3") or shutil.which("pip")
    return [program] if program else None


def download(wheel: PinnedWheel, folder: Path, *, target: Path | None = None) -> Path:
    """``wheel``, fetched with pip into ``folder`` and checked against its sha256; its path.

    ``target``, the folder it is fetched for, is named in the line printed on stderr first (``folder`` if
    None). Raises ``wheel.error`` where there is no pip, pip fails, or the file has another sha256.
    """
    pip = pip_command()
    if pip is None:
        raise wheel.error(
            f"{wheel.needed}; rlpool fetches its wheel with pip, but no pip was found (neither "
            f"`{sys.executable} -m pip` nor a pip program on PATH). {wheel.what_to_do}"
        )
    print(f"rlpool: fetching {wheel.requirement} ({wheel.megabytes} MB) with pip for {wheel.purpose}, once, into "
          f"{target or folder}", file=sys.stderr)
    command = [*pip, "download", wheel.requirement, "--no-deps", "--only-binary=:all:", "-d", str(folder),
               "--disable-pip-version-check", "--no-input", "--quiet"]
    result = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    path = folder / wheel.file
    if result.returncode != 0 or not path.is_file():
        output = (result.stdout + result.stderr).strip()
        raise wheel.error(
            f"{wheel.needed}, and its wheel could not be fetched: `{' '.join(command)}` exited with "
            f"{result.returncode}" + (f":\n{output[-2000:]}\n" if output else ". ") + wheel.what_to_do
        )
    actual = sha256_of(path)
    if actual != wheel.sha256:
        raise wheel.error(
            f"the downloaded {wheel.file} has sha256 {actual}, but {wheel.requirement}'s is {wheel.sha256}: "
            f"refusing to use it. {wheel.what_to_do}"
        )
    return path


def record_hashes(z: zipfile.ZipFile, dist_info: str) -> dict[str, str]:
    """The wheel's RECORD (``<dist_info>/RECORD``): file name -> its sha256 (hex), for the files it gives one."""
    text = z.read(f"{dist_info}/RECORD").decode()
    hashes = {}
    for row in csv.reader(io.StringIO(text)):
        if len(row) >= 2 and row[1].startswith("sha256="):
            digest = base64.urlsafe_b64decode(row[1][len("sha256="):] + "==")
            hashes[row[0]] = digest.hex()
    return hashes


def in_cache_root(wheel: PinnedWheel) -> Path | None:
    """``wheel`` as put in the cache's root folder by hand, if it is there with its sha256; else None."""
    path = cache_root() / wheel.file
    return path if path.is_file() and sha256_of(path) == wheel.sha256 else None


def fetch_into(wheel: PinnedWheel, folder: Path, unpack: Callable[[Path, Path], None],
               complete: Callable[[Path], bool]) -> Path:
    """``folder``, holding what ``unpack`` takes from ``wheel``; fetched and unpacked first unless ``complete``.

    ``unpack(wheel_path, staged)`` fills the empty folder ``staged`` from the checked wheel and raises where
    a file is wrong; ``complete(folder)`` says whether a folder holds all of it. The wheel is the one in the
    cache's root folder where that has the pinned sha256, else fetched with pip (``download``); ``staged``
    lies beside ``folder`` and replaces it by a rename (an incomplete ``folder`` moved aside and removed), all
    under a lock that serialises threads and processes, each taking the folder another has just made. Raises
    ``wheel.error`` where the wheel cannot be had, and where the folder cannot be written (saying so).
    """
    if complete(folder):
        return folder
    with _LOCKS_LOCK:
        threads = _LOCKS.setdefault(str(folder), threading.Lock())
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        with threads, file_lock(folder.parent / f".{folder.name}.lock"):
            if complete(folder):  # another thread or process has just unpacked it
                return folder
            with tempfile.TemporaryDirectory(dir=folder.parent, prefix=f".{folder.name}.") as tmp:
                work = Path(tmp)
                path = in_cache_root(wheel) or download(wheel, work, target=folder)
                staged = work / "unpacked"
                staged.mkdir()
                unpack(path, staged)
                if not complete(staged):
                    raise wheel.error(f"{path}: what was unpacked from it is incomplete: refusing to use it")
                if folder.exists():  # incomplete: moved aside, removed with the temporary folder
                    os.rename(folder, work / "damaged")
                os.rename(staged, folder)
    except OSError as e:
        raise wheel.error(
            f"{wheel.needed}, and its wheel could not be unpacked into {folder} ({e}): set $RLPOOL_CACHE_DIR to a "
            f"writable folder. {wheel.what_to_do}"
        ) from e
    return folder
