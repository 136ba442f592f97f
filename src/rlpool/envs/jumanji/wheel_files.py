"""Files of jumanji 1.1.2's pinned wheel, from an installed jumanji or the fetched wheel, checked by sha256, cached.

Some jumanji envs take data from jumanji's package (Sudoku's puzzle databases, PacMan's maze in
``constants.py``). rlpool does not ship it: a family module describes the files it needs as ``WheelFiles``
(each file's path in the wheel with its pinned sha256, the cache folder's name, what they are for and the
error to raise) and calls ``path(member)``: the file of an installed jumanji where that holds it with the pinned
sha256 (found without importing jumanji), else the file unpacked, with jumanji's licence, from jumanji's 1.1.2
wheel into ``<rlpool cache>/jumanji/jumanji-1.1.2-<part>/``. The wheel is fetched by name, version and sha256
with pip, or taken from the cache's root folder where it was put by hand (``rlpool.pinned_wheel``; nothing is
installed or imported). What cannot be had raises the family's error, saying what to install or where to put
the wheel.
"""

from __future__ import annotations

import importlib.util
import shutil
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from rlpool import pinned_wheel
from rlpool.cache import cache_root

PACKAGE = "jumanji"
VERSION = "1.1.2"
WHEEL = f"jumanji-{VERSION}-py3-none-any.whl"
WHEEL_SHA256 = "bd2be95bf51538618616903efafac57e595e81eba1792eed6de84c61bbbbad36"
WHEEL_MB = 2
LICENSE = f"jumanji-{VERSION}.dist-info/licenses/LICENSE"
"""jumanji's licence in the wheel, unpacked beside the files as ``LICENSE``."""


def cache_folder(part: str) -> Path:
    """Where files for ``part`` are unpacked: ``<rlpool cache>/jumanji/jumanji-1.1.2-<part>`` (not created here)."""
    return cache_root() / PACKAGE / f"{PACKAGE}-{VERSION}-{part}"


def matches(path: Path, sha256: str) -> bool:
    """Whether ``path`` is a file with that sha256 (False where it cannot be read)."""
    try:
        return path.is_file() and pinned_wheel.sha256_of(path) == sha256
    except OSError:
        return False


def installed_file(member: str, sha256: str) -> Path | None:
    """File ``member`` (its path in the wheel) of an installed jumanji with the pinned sha256, else None.

    jumanji is found, not imported.
    """
    try:
        spec = importlib.util.find_spec(PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    inside = PurePosixPath(member).parts[1:]  # below the package folder
    for location in spec.submodule_search_locations:
        path = Path(location).joinpath(*inside)
        if matches(path, sha256):
            return path
    return None


def what_to_do() -> str:
    """How to get the files without rlpool's fetch: the wheel into the cache's root folder, or jumanji installed."""
    return (
        f"Fetch it where there is network access (`python -m pip download {PACKAGE}=={VERSION} --no-deps "
        f"--only-binary=:all: -d {cache_root()}`: rlpool unpacks what it needs from {WHEEL} in that folder), or "
        f"install {PACKAGE}=={VERSION}, whose files are then used."
    )


@dataclass(frozen=True)
class WheelFiles:
    """Files taken from jumanji's pinned wheel for one purpose, unpacked together into one cache folder."""

    part: str
    """Names the cache folder: ``jumanji-1.1.2-<part>``."""
    files: dict[str, str]
    """Each file's path in the wheel -> its sha256 there (hex); unpacked under its base name, which must differ."""
    purpose: str
    """What the wheel is fetched for (ends the line printed before pip runs)."""
    needed: str
    """What each error opens with: what needs the files, naming jumanji's version."""
    error: type[Exception]
    """Raised where the files cannot be had."""
    wheel_sha256: str = WHEEL_SHA256
    """The wheel's sha256 (hex)."""

    def folder(self) -> Path:
        """The cache folder the files are unpacked into (not created here)."""
        return cache_folder(self.part)

    def bad_files(self, folder: Path) -> list[str]:
        """The base names of the files that ``folder`` lacks or holds with another sha256 than the pinned one."""
        return [Path(member).name for member, sha in self.files.items()
                if not matches(folder / Path(member).name, sha)]

    def wheel(self) -> pinned_wheel.PinnedWheel:
        """The pinned wheel and what its errors say."""
        return pinned_wheel.PinnedWheel(
            package=PACKAGE, version=VERSION, file=WHEEL, sha256=self.wheel_sha256, megabytes=WHEEL_MB,
            purpose=self.purpose, needed=self.needed, error=self.error, what_to_do=what_to_do(),
        )

    def unpack(self, wheel_path: Path, folder: Path) -> None:
        """The files and jumanji's licence from ``wheel_path`` (already checked) into ``folder``, then checked."""
        with zipfile.ZipFile(wheel_path) as z:
            for member, name in [(m, Path(m).name) for m in self.files] + [(LICENSE, "LICENSE")]:
                try:
                    with z.open(member) as src, open(folder / name, "wb") as dst:
                        shutil.copyfileobj(src, dst)
                except KeyError as e:
                    raise self.error(f"{wheel_path}: {member} is missing: refusing to use it") from e
        bad = self.bad_files(folder)
        if bad:
            raise self.error(f"{wheel_path}: {bad} differ from {PACKAGE}=={VERSION}'s: refusing to use them")

    def fetched(self) -> Path:
        """The cache folder holding the checked files, unpacked from the wheel first unless it already does."""
        return pinned_wheel.fetch_into(self.wheel(), self.folder(), self.unpack, lambda f: not self.bad_files(f))

    def path(self, member: str) -> Path:
        """The checked file ``member`` (one of ``files``): an installed jumanji's, else the fetched one."""
        return installed_file(member, self.files[member]) or self.fetched() / Path(member).name
