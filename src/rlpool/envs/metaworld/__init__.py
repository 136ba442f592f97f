"""MetaWorld's 50 Sawyer manipulation tasks (metaworld 3.1.1), in C++ on the MuJoCo library rlpool's MuJoCo tasks use.

The models are metaworld's own XML files, meshes and textures (its ``assets`` folder). metaworld 3.1.1 pins
``mujoco==3.3.0``, which cannot be installed next to rlpool's MuJoCo, so rlpool does not install it: where
that version of metaworld is installed anyway (``pip install metaworld==3.1.1 --no-deps``), its assets are
read from there (found without importing it); otherwise rlpool fetches the pinned wheel by name and version
with pip (``pip download --no-deps --only-binary=:all:``; nothing is installed or imported), checks its
sha256 and unpacks its ``metaworld/assets`` folder, each file checked against the wheel's RECORD, into
rlpool's cache (``rlpool.cache``): ``<cache>/metaworld/metaworld-3.1.1/``. ``rlpool.pinned_wheel`` does the
fetching: threads and processes that fetch at once serialise on a lock file, and the folder appears by an
atomic rename, whole or not at all. Without network access the wheel, downloaded elsewhere, may be put in
the cache's root folder. What cannot be had raises ``MetaWorldUnavailableError`` (an ImportError).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import zipfile
from pathlib import Path

from rlpool import pinned_wheel
from rlpool.cache import cache_root

PACKAGE = "metaworld"
VERSION = "3.1.1"
"""The metaworld release whose tasks the C++ envs follow."""
ASSETS = "metaworld/assets/"
"""What is unpacked from the wheel."""
LICENSES = {f"metaworld-{VERSION}.dist-info/licenses/LICENSE": "LICENSE"}
"""Unpacked next to the assets, under these names."""
MARKER = "UNPACKED-BY-RLPOOL"
"""Written last into an unpacked copy (the wheel's name and sha256): a folder without it is not used."""


class MetaWorldUnavailableError(ImportError):
    """metaworld 3.1.1's assets could not be had (not installed, not fetched): what to do."""


def wheel() -> pinned_wheel.PinnedWheel:
    """Metaworld 3.1.1's wheel, as rlpool fetches it."""
    return pinned_wheel.PinnedWheel(
        package=PACKAGE,
        version=VERSION,
        file=f"metaworld-{VERSION}-py3-none-any.whl",
        sha256="99e25d9baf97f2f1a19ca89c0d2ca9c6a2b396d9a9be81729de64eedc683f0d3",
        megabytes=37,
        purpose="the MetaWorld tasks' models",
        needed=f"the MetaWorld tasks need metaworld {VERSION}'s models",
        error=MetaWorldUnavailableError,
        what_to_do=(
            f"Install it without its dependencies (pip install metaworld=={VERSION} --no-deps), or put "
            f"metaworld-{VERSION}-py3-none-any.whl, downloaded elsewhere, in {cache_root()}"
        ),
    )


def cache_folder() -> Path:
    """Where the wheel's assets are unpacked: ``<cache>/metaworld/metaworld-3.1.1``."""
    return cache_root() / "metaworld" / f"metaworld-{VERSION}"


def _installed_assets() -> Path | None:
    spec = importlib.util.find_spec("metaworld")
    if spec is None or not spec.submodule_search_locations:
        return None
    try:
        if importlib.metadata.version(PACKAGE) != VERSION:
            return None
    except importlib.metadata.PackageNotFoundError:
        return None
    folder = Path(spec.submodule_search_locations[0]) / "assets"
    return folder if (folder / "sawyer_xyz").is_dir() else None


def _marker_text() -> str:
    w = wheel()
    return f"{w.file} {w.sha256}\n"


def _complete(folder: Path) -> bool:
    try:
        return (folder / MARKER).read_text() == _marker_text()
    except OSError:
        return False


def _unpack(wheel_path: Path, folder: Path) -> None:
    """The assets from ``wheel_path`` (already checked) into ``folder``, each file checked against the RECORD."""
    with zipfile.ZipFile(wheel_path) as z:
        record = pinned_wheel.record_hashes(z, wheel().dist_info)
        names = {n: n for n in z.namelist() if n.startswith(ASSETS) and not n.endswith("/")} | LICENSES
        for name, target in names.items():
            parts = Path(target).parts
            if Path(target).is_absolute() or ".." in parts:
                raise MetaWorldUnavailableError(f"{wheel_path}: refusing to unpack {name!r}")
            data = z.read(name)
            if hashlib.sha256(data).hexdigest() != record.get(name):
                raise MetaWorldUnavailableError(
                    f"{wheel_path}: {name} differs from its sha256 in the wheel's RECORD: refusing to use it"
                )
            path = folder / target
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    (folder / MARKER).write_text(_marker_text())


def assets_dir() -> Path:
    """Metaworld 3.1.1's ``assets`` folder: the installed package's, else the pinned wheel's, unpacked once."""
    installed = _installed_assets()
    if installed is not None:
        return installed
    return pinned_wheel.fetch_into(wheel(), cache_folder(), _unpack, _complete) / "metaworld" / "assets"
