"""Where dm_control 1.0.50's Control Suite comes from: the installed package, else its wheel, taken as a file.

The DeepMind Control Suite tasks compile their models with dm_control's suite (``suite.load``), and the tests
and the benchmark's peer step it. dm_control is preferred as installed (``pip install dm-control==1.0.50``).
Where it is not installed -- pip cannot install it on every Python: its dependency ``labmaze``, used only by
``dm_control.locomotion``, has no wheel for CPython 3.13 -- rlpool fetches the pinned, pure-Python wheel by
name and version with pip (``pip download --no-deps --only-binary=:all:``; nothing is installed), checks its
sha256 and unpacks its ``dm_control`` package, each file checked against the wheel's RECORD, into rlpool's
cache (``rlpool.cache``): ``<cache>/dmc/dm_control-1.0.50/``; the wheel itself is not kept, nor
``dm_control/locomotion`` (85 of the wheel's 115 MB, and the part that needs labmaze). ``rlpool.pinned_wheel``
does the fetching: threads and processes that fetch at once serialise on a lock file, and the folder appears
by an atomic rename, whole or not at all.
``suite()`` imports that copy's ``dm_control.suite`` with the folder first on ``sys.path`` for that import
only; it then stays imported as ``dm_control`` in the process. What the suite itself imports must be
installed: ``DEPENDENCIES``.

Where another dm_control version is installed, the tasks still take 1.0.50's models: the copy compiles them in
a child Python (``compiled_model``), and this process's ``import dm_control`` keeps giving the installed one.
Without network access, the wheel, downloaded elsewhere, may be put in the cache's root folder: it is unpacked
from there instead of fetched. What cannot be had raises ``DmControlUnavailableError`` (an ImportError), which
names dm-control==1.0.50 and what to install.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.metadata
import logging
import subprocess
import sys
import tempfile
import threading
import warnings
import zipfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from rlpool import extras, pinned_wheel
from rlpool.cache import cache_root

PACKAGE = "dm-control"
VERSION = "1.0.50"
"""The dm_control release whose suite the C++ tasks follow."""
WHEEL = f"dm_control-{VERSION}-py3-none-any.whl"
WHEEL_SHA256 = "5434e1e51ff69016867426da7df6064b18d140e4d0a628f879bbcf0e7d0a586d"
WHEEL_MB = 56
PACKAGE_FOLDER = "dm_control/"
"""What is unpacked from the wheel: the package ..."""
LEFT_OUT = ("dm_control/locomotion/",)
"""... but for these folders, which the suite does not import."""
LICENSES = {f"dm_control-{VERSION}.dist-info/licenses/LICENSE": "LICENSE",
            f"dm_control-{VERSION}.dist-info/licenses/AUTHORS": "AUTHORS"}
"""Unpacked next to the package, under these names."""
MARKER = "UNPACKED-BY-RLPOOL"
"""Written last into an unpacked copy (the wheel's name and sha256): a folder without it is not used."""
DEPENDENCIES = ("absl-py", "dm-env", "lxml", "mujoco", "numpy", "scipy")
"""What ``dm_control.suite`` imports to load every domain's tasks (the dmc extra installs them)."""

_PATH = threading.Lock()


class DmControlUnavailableError(ImportError):
    """dm_control 1.0.50's suite could not be had (not installed, not fetched, not importable): what to do."""


@contextlib.contextmanager
def quiet_import() -> Iterator[None]:
    """Hide what dm_control prints while it loads.

    That is GLFW's "no display" warning (rlpool does not render through it) and absl's deprecation notes
    about dm_control's own XML.
    """
    absl = logging.getLogger("absl")
    level = absl.level
    absl.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        absl.setLevel(level)


def installed_version() -> str | None:
    """The version of the installed dm-control distribution, None if there is none."""
    try:
        return importlib.metadata.version(PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        return None


def cache_folder() -> Path:
    """Where the unpacked copy is kept, the folder put on sys.path: ``<cache>/dmc/dm_control-1.0.50``."""
    return cache_root() / "dmc" / f"dm_control-{VERSION}"


def _marker_text() -> str:
    return f"{WHEEL} sha256={WHEEL_SHA256}\n"


def _complete(folder: Path) -> bool:
    try:
        return (folder / MARKER).read_text() == _marker_text()
    except OSError:
        return False


def is_copy(module: ModuleType) -> bool:
    """Whether ``module`` (``dm_control``) was imported from a copy rlpool unpacked, in any cache folder."""
    file = getattr(module, "__file__", None)
    return file is not None and _complete(Path(file).resolve().parent.parent)


def install_hint() -> str:
    """What to install for the suite: dm-control itself, or its suite's own dependencies where it does not install."""
    return (
        f"Install it with `{extras.install_hint('dmc', f'{PACKAGE}=={VERSION}')}`; where pip cannot "
        f"install it, as on CPython 3.13, rlpool fetches its wheel as a file and needs only what its suite "
        f"imports: {', '.join(DEPENDENCIES)}"
    )


def _offline_hint() -> str:
    return (
        f"Without network access, put {WHEEL} (`python -m pip download {PACKAGE}=={VERSION} --no-deps "
        f"--only-binary=:all: -d {cache_root()}` where there is) in {cache_root()}: rlpool unpacks it from there."
    )


def _in_this_process() -> bool:
    """Whether ``suite()`` gives 1.0.50's suite here without shadowing another dm_control this process uses."""
    installed = installed_version()
    loaded = sys.modules.get("dm_control")
    if loaded is not None:
        return installed == VERSION or is_copy(loaded)
    return installed in (None, VERSION)


def suite() -> ModuleType:
    """dm_control 1.0.50's ``dm_control.suite``, imported into this process.

    The installed dm_control when it is 1.0.50; otherwise the copy from its wheel (fetched and unpacked first
    where needed), imported with its folder first on sys.path for that import only, which then stays imported
    as ``dm_control`` here (shadowing another installed version that was not imported yet). Raises
    ``DmControlUnavailableError`` when another dm_control is already imported, the copy cannot be had, or the
    suite does not import for lack of one of ``DEPENDENCIES``.
    """
    installed = installed_version()
    loaded = sys.modules.get("dm_control")
    if loaded is not None and not (installed == VERSION or is_copy(loaded)):
        raise DmControlUnavailableError(
            f"this process has imported dm_control {installed or '(no installed version)'} from "
            f"{getattr(loaded, '__file__', '?')}, but rlpool's DeepMind Control Suite tasks follow "
            f"{PACKAGE}=={VERSION}: pip install {PACKAGE}=={VERSION}, or import rlpool's copy before any other"
        )
    if loaded is not None or installed == VERSION:
        return _import_suite("")
    folder = unpacked_folder()
    with _PATH:
        entry = str(folder)
        sys.path.insert(0, entry)
        try:
            importlib.invalidate_caches()
            module = _import_suite(f" from {folder}")
        finally:
            with contextlib.suppress(ValueError):
                sys.path.remove(entry)
    if not is_copy(sys.modules["dm_control"]):
        raise DmControlUnavailableError(
            f"dm_control was imported from {sys.modules['dm_control'].__file__}, not from rlpool's copy of "
            f"{PACKAGE}=={VERSION} in {folder}"
        )
    return module


def _import_suite(where: str) -> ModuleType:
    try:
        with quiet_import():
            from dm_control import suite as module
    except ModuleNotFoundError as e:
        raise DmControlUnavailableError(
            f"dm_control {VERSION}'s suite{where} could not be imported ({e}): it needs "
            f"{', '.join(DEPENDENCIES)}. {install_hint()}."
        ) from e
    return module


def compiled_model(domain: str, task: str) -> bytes:
    """The MJB bytes of dm_control 1.0.50's compiled model of ``domain``/``task`` (``random=0``).

    Compiled in this process by ``suite()`` where that shadows no other dm_control; else (another version
    installed or imported) by a child Python that imports the unpacked copy.
    """
    if not _in_this_process():
        return _compile_in_child(unpacked_folder(), domain, task)
    import mujoco
    import numpy as np

    module = suite()
    # random=0: lqr draws its joints' stiffness into the model; the C++ env draws its own per episode.
    with quiet_import():
        model = module.load(domain, task, task_kwargs={"random": 0}).physics.model.ptr
    buffer = np.empty(mujoco.mj_sizeModel(model), np.uint8)
    mujoco.mj_saveModel(model, None, buffer)
    return buffer.tobytes()


_CHILD = """\
import logging, sys, warnings
folder, domain, task, out = sys.argv[1:]
sys.path.insert(0, folder)
logging.getLogger("absl").setLevel(logging.ERROR)
warnings.simplefilter("ignore")
import mujoco, numpy as np
import dm_control
from dm_control import suite
if not dm_control.__file__.startswith(folder):
    sys.exit(f"dm_control was imported from {dm_control.__file__}, not from {folder}")
model = suite.load(domain, task, task_kwargs={"random": 0}).physics.model.ptr
buffer = np.empty(mujoco.mj_sizeModel(model), np.uint8)
mujoco.mj_saveModel(model, None, buffer)
with open(out, "wb") as f:
    f.write(buffer.tobytes())
"""


def _compile_in_child(folder: Path, domain: str, task: str) -> bytes:
    with tempfile.TemporaryDirectory(prefix="rlpool-dmc-") as tmp:
        out = Path(tmp) / "model.mjb"
        result = subprocess.run([sys.executable, "-c", _CHILD, str(folder.resolve()), domain, task, str(out)],
                                capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if result.returncode != 0 or not out.is_file():
            output = (result.stdout + result.stderr).strip()
            raise DmControlUnavailableError(
                f"dm_control {installed_version()} is installed, so rlpool compiles {PACKAGE}=={VERSION}'s model "
                f"of {domain}/{task} from its copy in {folder} in a child Python, which exited with "
                f"{result.returncode}" + (f":\n{output[-2000:]}\n" if output else ". ") + install_hint() + "."
            )
        return out.read_bytes()


def wheel() -> pinned_wheel.PinnedWheel:
    """The pinned wheel (read from this module's constants at each call) and what its errors say."""
    return pinned_wheel.PinnedWheel(
        package=PACKAGE, version=VERSION, file=WHEEL, sha256=WHEEL_SHA256, megabytes=WHEEL_MB,
        purpose="the DeepMind Control Suite's models",
        needed=f"the DeepMind Control Suite tasks take their models from {PACKAGE}=={VERSION}, which is not installed",
        error=DmControlUnavailableError, what_to_do=f"{install_hint()}. {_offline_hint()}",
    )


def unpacked_folder() -> Path:
    """The folder holding the unpacked copy (to put on sys.path); fetches and unpacks it into the cache first if needed.

    Raises ``DmControlUnavailableError`` when it cannot be had, naming dm-control==1.0.50 and what to do.
    """
    return pinned_wheel.fetch_into(wheel(), cache_folder(), _unpack, _complete)


def _unpack(wheel_path: Path, folder: Path) -> None:
    """The package from ``wheel_path`` (already checked) into ``folder``, each file checked against the RECORD."""
    with zipfile.ZipFile(wheel_path) as z:
        record = pinned_wheel.record_hashes(z, wheel().dist_info)
        names = {n: n for n in z.namelist() if n.startswith(PACKAGE_FOLDER) and not n.endswith("/")
                 and not n.startswith(LEFT_OUT)} | LICENSES
        for name, target in names.items():
            parts = Path(target).parts
            if Path(target).is_absolute() or ".." in parts:
                raise DmControlUnavailableError(f"{wheel_path}: refusing to unpack {name!r}")
            data = z.read(name)
            if hashlib.sha256(data).hexdigest() != record.get(name):
                raise DmControlUnavailableError(
                    f"{wheel_path}: {name} differs from its sha256 in the wheel's RECORD: refusing to use it. "
                    f"{install_hint()}."
                )
            path = folder / target
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    (folder / MARKER).write_text(_marker_text())
