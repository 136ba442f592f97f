"""MyoSuite's musculoskeletal tasks (myosuite 2.11.6), in C++ on the MuJoCo library rlpool's MuJoCo tasks use.

The models are myosuite's own: the MJCF files, meshes and textures of its ``simhive`` and ``envs/myo/assets``
folders, and the MyoDM reference motions of ``envs/myo/myodm/data``. myosuite 2.11.6 pins ``mujoco==3.3.0``,
which cannot be installed next to rlpool's MuJoCo, so rlpool neither installs nor imports it: it fetches the
pinned wheel by name and version with pip (``pip download --no-deps --only-binary=:all:``; nothing is
installed), checks its sha256 and unpacks those three folders, each file checked against the wheel's RECORD,
into rlpool's cache (``rlpool.cache``): ``<cache>/myosuite/myosuite-2.11.6/``, keeping the wheel's relative
paths (``myosuite/simhive/myo_sim/...``), so that the models' relative includes resolve as in the wheel. The
C++ env reads that folder as its hidden option ``_assets`` (``prepare``). An installed myosuite is not read:
files that rlpool generates from the wheel's (``POST_UNPACK``) are written next to the models, which rlpool
does not do inside an installed package. ``rlpool.pinned_wheel`` does the fetching: threads and processes that
fetch at once serialise on a lock file, and the folder appears by an atomic rename, whole or not at all.
Without network access the wheel, downloaded elsewhere, may be put in the cache's root folder. What cannot be
had raises ``MyoSuiteUnavailableError`` (an ImportError).
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.metadata
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rlpool import pinned_wheel
from rlpool.cache import cache_root

PACKAGE = "myosuite"
VERSION = "2.11.6"
"""The myosuite release whose tasks the C++ env follows."""
WHEEL = f"myosuite-{VERSION}-py3-none-any.whl"
"""The pinned wheel's file name."""
WHEEL_SHA256 = "e15af1d60aa2e9d6bd6a849ae1c7f9750da96158d4ae78b6d2dcdeb22b9ab7c1"
"""Its sha256 (PyPI's; 90,146,388 bytes)."""
FOLDERS = ("myosuite/simhive/", "myosuite/envs/myo/assets/", "myosuite/envs/myo/myodm/data/",
           "myosuite/envs/myo/myobase/reorient_sar_v0.py")
"""What is unpacked from the wheel, at the same paths: the models, the reference motions, and the source file
whose literal tables the reorientation tasks' objects come from (read with ``ast``, never imported)."""
LICENSES = {f"myosuite-{VERSION}.dist-info/licenses/LICENSE": "LICENSE"}
"""Unpacked next to ``myosuite/``, under these names (``simhive``'s own LICENSE files come with their folders)."""
MARKER = "UNPACKED-BY-RLPOOL"
"""Written last into an unpacked copy (the layout, the wheel's name and sha256): a folder without it is not used."""
LAYOUT = 4
"""The version of the unpacked folder's layout, in the MARKER: raise it when what is unpacked or generated
changes, so that folders unpacked before are unpacked again."""

PostUnpackStep = Callable[[Path], None]
"""A step run on the unpacked folder (the one holding ``myosuite/``) after every file is unpacked and checked,
before the MARKER: it writes files derived from the wheel's (e.g. MyoDM's per-object models). It raises
``MyoSuiteUnavailableError`` where it cannot, and then nothing is kept."""


class MyoSuiteUnavailableError(ImportError):
    """myosuite 2.11.6's models could not be had (not fetched, not unpacked): what to do."""


def _generated(module: str, function: str, what: str) -> PostUnpackStep:
    """A step that runs ``rlpool.envs.myosuite.<module>.<function>(folder)``.

    The module is imported when the step runs (those modules use mujoco and numpy); a failure is a
    MyoSuiteUnavailableError saying what could not be written.
    """

    def step(folder: Path) -> None:
        write = getattr(importlib.import_module(f"rlpool.envs.myosuite.{module}"), function)
        try:
            write(folder)
        except (OSError, ValueError) as e:
            raise MyoSuiteUnavailableError(f"{folder}: {what} could not be written: {e}") from e

    return step


POST_UNPACK: tuple[tuple[str, PostUnpackStep], ...] = (
    # MyoDM's 50 per-object models and its reference motions as .npy files.
    ("myodm", _generated("myodm_models", "write_all", "MyoDM's models and motions")),
    # The reorientation tasks' object tables as .npy files, read with ast from the wheel's source.
    ("sar", _generated("sar_tables", "write_sar_tables", "the reorientation tasks' tables")),
    # The myoArmReach ids' arm and the TableTennis ids' player, as myosuite's MjSpec edits make them.
    ("arm_reach", _generated("model_edits", "write_arm_reaching", "the arm reaching model")),
    ("table_tennis", _generated("model_edits", "write_table_tennis", "the table-tennis model")),
)
"""The steps, ``(name, step)``, run in this order; their names are in the MARKER."""


def wheel() -> pinned_wheel.PinnedWheel:
    """Myosuite 2.11.6's wheel, as rlpool fetches it."""
    return pinned_wheel.PinnedWheel(
        package=PACKAGE,
        version=VERSION,
        file=WHEEL,
        sha256=WHEEL_SHA256,
        megabytes=86,
        purpose="the MyoSuite tasks' models",
        needed=f"the MyoSuite tasks need myosuite {VERSION}'s models",
        error=MyoSuiteUnavailableError,
        what_to_do=(
            f"Make pip able to fetch it (pip download {PACKAGE}=={VERSION} --no-deps --only-binary=:all:), or put "
            f"{WHEEL}, downloaded elsewhere (sha256 {WHEEL_SHA256}), in {cache_root()}"
        ),
    )


def cache_folder() -> Path:
    """Where the wheel's folders are unpacked: ``<cache>/myosuite/myosuite-2.11.6`` (it holds ``myosuite/``)."""
    return cache_root() / "myosuite" / f"myosuite-{VERSION}"


@functools.cache
def _mujoco_version() -> str:
    """The installed MuJoCo's version (read once: every make of a task checks the unpacked folder)."""
    return importlib.metadata.version("mujoco")


def _marker_text() -> str:
    # The MuJoCo that wrote the compiled models (a .mjb is read by the MuJoCo that saved it only).
    steps = " ".join(name for name, _ in POST_UNPACK) or "-"
    return f"layout {LAYOUT}\nsteps {steps}\nmujoco {_mujoco_version()}\n{WHEEL} {WHEEL_SHA256}\n"


def _complete(folder: Path) -> bool:
    try:
        return (folder / MARKER).read_text() == _marker_text()
    except OSError:
        return False


def _members(z: zipfile.ZipFile) -> dict[str, str]:
    """The wheel's members that are unpacked -> their path in the folder."""
    files = {n: n for n in z.namelist() if n.startswith(FOLDERS) and not n.endswith("/")}
    return files | LICENSES


def _unpack(wheel_path: Path, folder: Path) -> None:
    """``FOLDERS`` and ``LICENSES`` from ``wheel_path`` (already checked) into ``folder``, then ``POST_UNPACK``.

    Each file is checked against its sha256 in the wheel's RECORD, and each path must lie inside ``folder``.
    """
    root = folder.resolve()
    with zipfile.ZipFile(wheel_path) as z:
        record = pinned_wheel.record_hashes(z, wheel().dist_info)
        for name, target in _members(z).items():
            path = folder / target
            if Path(target).is_absolute() or ".." in Path(target).parts or not path.resolve().is_relative_to(root):
                raise MyoSuiteUnavailableError(f"{wheel_path}: refusing to unpack {name!r} (outside the folder)")
            data = z.read(name)
            if hashlib.sha256(data).hexdigest() != record.get(name):
                raise MyoSuiteUnavailableError(
                    f"{wheel_path}: {name} differs from its sha256 in the wheel's RECORD: refusing to use it"
                )
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    for _, step in POST_UNPACK:
        step(folder)
    (folder / MARKER).write_text(_marker_text())


def assets_dir() -> Path:
    """The folder holding myosuite 2.11.6's ``myosuite/`` models (the C++ option ``_assets``), unpacked once."""
    return pinned_wheel.fetch_into(wheel(), cache_folder(), _unpack, _complete)


def prepare(config: dict[str, Any]) -> dict[str, Any]:
    """The hidden option the C++ env reads: ``_assets``, the folder holding ``myosuite/`` (fetched once)."""
    return {"_assets": str(assets_dir())}
