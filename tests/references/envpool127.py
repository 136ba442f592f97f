"""EnvPool 1.2.7 in a cached virtualenv of its own: the reference where only EnvPool has a task.

MARLGrid (no marlgrid package is on PyPI) and pgx's ChineseGo variant (pgx has none) are compared with
EnvPool 1.2.7, whose wheels are for CPython 3.12-3.14 only, so it runs in a child Python. ``envpool_python()``
gives that Python: ``RLPOOL_ENVPOOL127_PYTHON`` where set (an interpreter with envpool 1.2.7), else a
virtualenv made once under rlpool's cache from a CPython 3.13 -- ``RLPOOL_PYTHON313``, the cache of
``../shared/tools/cpython.sh`` (``~/.cache/cpython/3.13``) or ``python3.13`` on PATH -- holding
``envpool==1.2.7`` and this environment's numpy and gymnasium. Where neither can be had the test is skipped
with the reason (failed in CI, which provides CPython 3.13).
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
from functools import cache
from pathlib import Path

from cached_venv import cached_venv, pip_install
from lane import require

from rlpool.cache import cache_root

VERSION = "1.2.7"


def _python313() -> str | None:
    for candidate in (
        os.environ.get("RLPOOL_PYTHON313"),
        str(Path.home() / ".cache" / "cpython" / "3.13" / "bin" / "python3"),
        shutil.which("python3.13"),
    ):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def _requirements() -> list[str]:
    pins = [f"envpool=={VERSION}"]
    for package in ("numpy", "gymnasium"):
        try:
            pins.append(f"{package}=={importlib.metadata.version(package)}")
        except importlib.metadata.PackageNotFoundError:
            pins.append(package)
    return pins


@cache
def _find() -> tuple[Path | None, str | None]:
    """(EnvPool 1.2.7's Python, None), or (None, why there is none)."""
    given = os.environ.get("RLPOOL_ENVPOOL127_PYTHON")
    if given:
        python = Path(given)
    else:
        base = _python313()
        if base is None:
            return None, ("EnvPool 1.2.7 needs CPython 3.12+: no CPython 3.13 found (set RLPOOL_PYTHON313, run "
                          "../shared/tools/cpython.sh 3.13, or set RLPOOL_ENVPOOL127_PYTHON)")
        folder = cache_root() / "references" / f"envpool-{VERSION}-cp313"
        try:
            python = cached_venv(folder, _requirements(), lambda py: pip_install(py, _requirements()),
                                 what=f"EnvPool {VERSION}'s reference virtualenv", base_python=base)
        except (OSError, RuntimeError, subprocess.CalledProcessError) as e:
            return None, f"EnvPool {VERSION}'s reference virtualenv could not be made in {folder}: {e}"
    if not python.is_file():
        return None, f"EnvPool {VERSION}'s Python {python} is missing"
    probe = subprocess.run([str(python), "-c", "import envpool; print(envpool.__version__)"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        return None, f"envpool cannot be imported by {python}: {probe.stderr.strip()[-300:]}"
    if probe.stdout.strip() != VERSION:
        return None, f"{python} has envpool {probe.stdout.strip()}, not {VERSION}"
    return python, None


def missing() -> str | None:
    """Why EnvPool 1.2.7 cannot run here (making its virtualenv first where it can), or None."""
    return _find()[1]


def envpool_python() -> Path:
    """EnvPool 1.2.7's Python; skips the calling test (fails it in CI) where there is none."""
    python, why = _find()
    require(why)
    assert python is not None
    return python
