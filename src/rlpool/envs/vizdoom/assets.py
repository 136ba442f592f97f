"""EnvPool's ViZDoom maps D1-D4, fetched from its data wheel ``envpool-assets`` the first time a task needs them.

``D1Basic-v1``, ``D2Navigation-v1``, ``D3Battle-v1`` and ``D4Battle2-v1`` play maps that the vizdoom wheel
lacks: Intel's DirectFuturePrediction maps (MIT), which EnvPool ships in its Apache-2.0 data wheel
``envpool-assets`` (``envpool_assets/vizdoom/maps/``). ``maps_folder()``, called when a spec of one of
these tasks is made (not at build or import), fetches that wheel by name and pinned version with pip
(``pip download --no-deps --only-binary=:all:``; nothing is installed or imported), checks its sha256 and
unpacks only the eight ``.cfg``/``.wad`` files into rlpool's cache (``rlpool.cache``):
``<cache>/vizdoom/envpool_assets-0.4.1/``; the wheel itself is not kept. ``rlpool.pinned_wheel`` does the
fetching: threads and processes that fetch at once serialise on a lock file, and the folder appears by an
atomic rename, whole or not at all.

Without network access: ``$RLPOOL_VIZDOOM_MAPS`` names a folder holding the eight files, or the wheel,
downloaded elsewhere, is put in the cache's root folder, where it is unpacked from instead of fetched.
Every file is checked against its sha256 wherever it comes from; what cannot be had raises
``MapsUnavailableError``, which says what to do.
"""

from __future__ import annotations

import os
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rlpool import pinned_wheel
from rlpool.cache import cache_root

PACKAGE = "envpool-assets"
VERSION = "0.4.1"
WHEEL = f"envpool_assets-{VERSION}-py3-none-any.whl"
WHEEL_SHA256 = "3c3f2f85865854b6ccbcd9765c277d883a440193a40785aa7f7c4ed96b58fcea"
WHEEL_MB = 92
WHEEL_FOLDER = "envpool_assets/vizdoom/maps/"
"""Where the maps lie in the wheel."""
ENV_VAR = "RLPOOL_VIZDOOM_MAPS"
"""A folder holding the eight files, used instead of the cache (nothing is fetched then)."""

MAPS: dict[str, str] = {
    "D1_basic.cfg": "e9be2bd58ddbcf2750e484ef12bae8e127d6228535ac64a1306d1f1d364c0585",
    "D1_basic.wad": "c77c8ba3254ae19eaff8d00418870a7718ef8a5822e5872ab68b76205cb2bacf",
    "D2_navigation.cfg": "ac7a3d13019c0ede5c10f6329ff8f3f0bf768eb97815d1391ee8ae3e55c856a7",
    "D2_navigation.wad": "dade758e5295adfd860721cb9d5ac42576a560b1283bf572bf656a056fda3515",
    "D3_battle.cfg": "67b2e6c80da6e0b99ee064150b9e722bb7f63eafcfe1894a6dfd93c5e71b6e25",
    "D3_battle.wad": "b29b461995ae7035095a5283c57ef13393e6839326754e94f5b80af5f07e5484",
    "D4_battle2.cfg": "6768ea16056658e2692fd54272cdc9860e7b37b8106c3af5f73f56b178ebf238",
    "D4_battle2.wad": "0851ae13490433b1e335d427dd391b3e0a6a33a97a16c0190579a2820935e522",
}
"""The eight files the tasks play, by name, with the sha256 each has in the pinned wheel."""

SCENARIOS: tuple[str, ...] = ("D1_basic", "D2_navigation", "D3_battle", "D4_battle2")
"""The scenarios, each a .cfg with a .wad of the same name (EnvPool's ids: ``D1Basic-v1``, ...)."""


class MapsUnavailableError(RuntimeError):
    """The D1-D4 maps could not be had (no network, no pip, a file with the wrong sha256): what to do instead."""


def cache_folder() -> Path:
    """Where the fetched maps are kept: ``<rlpool cache>/vizdoom/envpool_assets-0.4.1`` (not created here)."""
    return cache_root() / "vizdoom" / f"envpool_assets-{VERSION}"


def default_folder() -> Path:
    """The folder the maps are read from: ``$RLPOOL_VIZDOOM_MAPS`` if set, else ``cache_folder()``. Fetches nothing."""
    override = os.environ.get(ENV_VAR)
    return Path(override) if override else cache_folder()


def bad_files(folder: Path) -> list[str]:
    """The names of the eight files that ``folder`` lacks or holds with another sha256 than the pinned one."""
    bad = []
    for name, sha in MAPS.items():
        path = folder / name
        try:
            ok = path.is_file() and pinned_wheel.sha256_of(path) == sha
        except OSError:
            ok = False
        if not ok:
            bad.append(name)
    return bad


def _what_to_do() -> str:
    return (
        f"Fetch it where there is network access (`python -m pip download {PACKAGE}=={VERSION} --no-deps "
        f"--only-binary=:all: -d {cache_root()}`: rlpool unpacks the maps from {WHEEL} in that folder), or set "
        f"${ENV_VAR} to a folder holding the eight files of its {WHEEL_FOLDER} that these tasks play "
        f"({', '.join(MAPS)})."
    )


def maps_folder() -> Path:
    """The folder holding the eight verified files; fetches and unpacks them into the cache first if needed.

    Raises ``MapsUnavailableError`` when they cannot be had, naming the package, its version and what to do.
    """
    override = os.environ.get(ENV_VAR)
    if override:
        bad = bad_files(Path(override))
        if bad:
            raise MapsUnavailableError(
                f"${ENV_VAR}={override} lacks {bad}, or holds them with another sha256 than {PACKAGE}=={VERSION}'s "
                f"(the files of its {WHEEL_FOLDER} are needed as they are). {_what_to_do()}"
            )
        return Path(override)
    return pinned_wheel.fetch_into(wheel(), cache_folder(), _unpack, lambda folder: not bad_files(folder))


def wheel() -> pinned_wheel.PinnedWheel:
    """The pinned wheel (read from this module's constants at each call) and what its errors say."""
    return pinned_wheel.PinnedWheel(
        package=PACKAGE, version=VERSION, file=WHEEL, sha256=WHEEL_SHA256, megabytes=WHEEL_MB,
        purpose="ViZDoom's D1-D4 maps", needed=f"ViZDoom's D1-D4 maps come from {PACKAGE}=={VERSION}",
        error=MapsUnavailableError, what_to_do=_what_to_do(),
    )


def map_paths(scenario: str) -> dict[str, str]:
    """The task defaults cfg_path and wad_path of a scenario, in ``default_folder()`` (nothing fetched)."""
    folder = default_folder()
    return {"cfg_path": str(folder / f"{scenario}.cfg"), "wad_path": str(folder / f"{scenario}.wad")}


def prepare(scenario: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The registry's ``prepare`` hook of a D1-D4 task: where its own cfg or wad is used, the maps are fetched.

    The hook returns those paths in the folder ``maps_folder()`` gives (``$RLPOOL_VIZDOOM_MAPS`` may have been
    set since import); a caller's own cfg_path and wad_path need nothing fetched.
    """
    defaults = map_paths(scenario)

    def hook(config: dict[str, Any]) -> dict[str, Any]:
        used = [key for key, path in defaults.items() if config.get(key) == path]
        if not used:
            return {}
        folder = maps_folder()
        return {key: str(folder / Path(defaults[key]).name) for key in used}

    return hook


def _unpack(wheel_path: Path, folder: Path) -> None:
    """The eight files from ``wheel_path`` (already checked) into ``folder``, each checked against its sha256."""
    with zipfile.ZipFile(wheel_path) as z:
        for name in MAPS:
            with z.open(WHEEL_FOLDER + name) as src, open(folder / name, "wb") as dst:
                shutil.copyfileobj(src, dst)
    bad = bad_files(folder)
    if bad:
        raise MapsUnavailableError(f"{wheel_path}: {bad} differ from {PACKAGE}=={VERSION}'s: refusing to use them")
