"""Which lane a test run is, and what the machine lacks that some tests need.

- The default ``pytest`` compares every family with its reference on a sample (about 12 minutes on 2 cores);
  ``RLPOOL_FULL_REFERENCE=1`` (``FULL``; CI sets it) runs every comparison docs/correctness.md states in full.
- ``RLPOOL_LEARNING=1`` (``LEARNING``) runs the checks that agents learn (tests/integrations/test_learning.py,
  minutes of training); CI runs them in a step of their own after the full lane.
- A test that needs a system library (a Debian package beyond the test extra) calls ``require(<lib>_missing())``:
  on a machine without it the test is skipped with a reason that names the package to install; in CI
  (``CI=true``), which installs them all (``.ci/run``), a missing library fails the test instead, so that CI
  never passes by skipping.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import datetime
import functools
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

import pytest

TESTS = Path(__file__).resolve().parent
"""The tests' root folder; its helpers and ``references/`` import by name (pyproject's pythonpath)."""
REPO = TESTS.parent
IMPORT_PATHS = (str(TESTS), str(TESTS / "references"))
"""What a child Python needs on its path to import the tests' helpers and oracles."""

CI = os.environ.get("CI") == "true"
FULL = os.environ.get("RLPOOL_FULL_REFERENCE") == "1"
LEARNING = os.environ.get("RLPOOL_LEARNING") == "1"
DAY = int(os.environ.setdefault("RLPOOL_TEST_DAY", str(datetime.date.today().toordinal())))
"""Today's number: what the full lane's rotations (``todays_slice``) turn on. Set in the environment by the
first process that imports this module, so that pytest-xdist's workers (started after it) agree across
midnight; ``RLPOOL_TEST_DAY=<n>`` replays another day's slices (the lane's summary line names the day)."""

T = TypeVar("T")


def todays_slice(items: Sequence[T], slices: int) -> list[T]:
    """One of ``slices`` interleaved slices of ``items``, another each day: a comparison too long for one CI run
    covers ``items`` over ``slices`` days."""
    return list(items[DAY % slices :: slices])


def require(missing: str | None) -> None:
    """Skip the calling test (fail it in CI) when ``missing``, a reason naming the package, is given."""
    if missing is None:
        return
    if CI:
        pytest.fail(f"CI installs every system library the tests need, but: {missing}", pytrace=False)
    pytest.skip(missing, allow_module_level=True)


def import_torch_or_skip() -> None:
    """Skip the calling module where torch is missing (fail it in CI, except where the test extra lacks torch).

    The test extra installs torch (the CPU build in the machines' find-links) on CPython 3.11 only: PyPI's Linux
    torch for newer Pythons is the multi-GB CUDA build. There the skip says so and CI does not count it as missing.
    """
    if sys.version_info >= (3, 12):
        try:
            import torch  # noqa: F401
        except ImportError:
            pytest.skip(
                "torch: the test extra installs it on CPython 3.11 only (install a CPU torch to run this here)",
                allow_module_level=True,
            )
    pytest.importorskip("torch")


def _loads(*names: str) -> bool:
    for name in names:
        try:
            ctypes.CDLL(name)
        except OSError:
            continue
        return True
    return False


@functools.cache
def osmesa_missing() -> str | None:
    """MuJoCo's and DMC's frames, rlpool's and the references', are drawn with Mesa's off-screen OpenGL."""
    if _loads("libOSMesa.so.8", "libOSMesa.so.6", "libOSMesa.so"):
        return None
    return "needs Mesa's off-screen OpenGL, libOSMesa (Debian/Ubuntu: apt-get install libosmesa6)"


@functools.cache
def qt5_missing() -> str | None:
    """EnvPool's Procgen (the peer of the Procgen comparisons) links Qt 5's GUI library."""
    if _loads("libQt5Gui.so.5"):
        return None
    return "EnvPool's Procgen needs Qt 5's GUI library (Debian/Ubuntu: apt-get install libqt5gui5)"


def vizdoom_missing() -> str | None:
    """rlpool's ViZDoom tasks need the controller library, compiled only where Boost was there at build time."""
    return build_missing(["Basic-v1"])


def build_missing(task_ids: list[str] | None = None) -> str | None:
    """Why this build of rlpool cannot make one of ``task_ids`` (default: every registered task), or None."""
    import rlpool
    import rlpool.registry

    for task_id in rlpool.list_all_envs() if task_ids is None else task_ids:
        reason = rlpool.registry.unavailable(task_id)
        if reason is not None:
            return f"{task_id}: {reason}"
    return None
