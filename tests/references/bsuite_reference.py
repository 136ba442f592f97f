"""bsuite's own Catch (``bsuite/environments/catch.py``), the definition rlpool's Catch-v0 follows.

bsuite is not a test dependency (its package pulls pandas, plotnine and scikit-image, and its ``__init__``
imports all of them): its source distribution is fetched by pip by name and version, sha256 checked and
cached, and the three modules Catch needs (``environments/base.py``, ``environments/catch.py``,
``experiments/catch/sweep.py``) are loaded from it under a bare ``bsuite`` package, so none of the rest runs.
"""

from __future__ import annotations

import hashlib
import importlib
import subprocess
import sys
import tarfile
from pathlib import Path
from types import ModuleType

from gym_reference import cache_dir

from rlpool.cache import write_atomically
from rlpool.pinned_wheel import file_lock

VERSION = "0.3.6"
SHA256 = "18f1e6c49ff4092288b657e4f983c7794693300fb853cd65d59e027defa18a40"
MODULES = ("environments/base.py", "environments/catch.py", "experiments/catch/sweep.py")


def _sdist() -> Path:
    path = cache_dir() / f"bsuite-{VERSION}.tar.gz"
    if not path.exists() or hashlib.sha256(path.read_bytes()).hexdigest() != SHA256:
        path.parent.mkdir(parents=True, exist_ok=True)
        run = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary=bsuite", "--no-build-isolation",
             "-d", str(path.parent), f"bsuite=={VERSION}"],
            capture_output=True, text=True,
        )
        if run.returncode != 0 or not path.exists():
            raise RuntimeError(f"could not fetch bsuite=={VERSION} with pip:\n{run.stdout}{run.stderr}")
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest != SHA256:
            path.unlink()
            raise RuntimeError(f"{path.name} has sha256 {digest}, expected {SHA256}")
    return path


def catch_module() -> ModuleType:
    """bsuite's ``bsuite.environments.catch`` module (its ``Catch`` class)."""
    if "bsuite.environments.catch" in sys.modules:
        return sys.modules["bsuite.environments.catch"]
    if "bsuite" in sys.modules:
        raise RuntimeError("a bsuite package is already imported; the reference loads its own")
    root = cache_dir() / f"bsuite-{VERSION}"
    def fetched() -> bool:
        return all((root / "bsuite" / m).exists() for m in MODULES)

    if not fetched():
        cache_dir().mkdir(parents=True, exist_ok=True)
        with file_lock(cache_dir() / f".bsuite-{VERSION}.lock"):  # another process may fetch it too
            if not fetched():
                with tarfile.open(_sdist()) as tar:
                    for m in MODULES:
                        data = tar.extractfile(tar.getmember(f"bsuite-{VERSION}/bsuite/{m}"))
                        assert data is not None
                        write_atomically(root / "bsuite" / m, data.read())
    # Bare packages in place of bsuite's own __init__ files (which import the whole suite).
    for package in ("bsuite", "bsuite.environments", "bsuite.experiments", "bsuite.experiments.catch"):
        module = ModuleType(package)
        module.__path__ = [str(root / package.replace(".", "/"))]
        sys.modules[package] = module
    return importlib.import_module("bsuite.environments.catch")
