"""dm_control 1.0.50's suite for the tests: the installed one, else the copy rlpool fetches from its wheel.

A test module (the DMC family's, and the MuJoCo frame tests that render dm_control) calls
``require_suite()`` before it imports ``dm_control`` or ``dmc_reference``: where dm_control is not installed
(CPython 3.13, where pip cannot install it), that imports rlpool's copy (``rlpool.envs.dmc.suite_source``),
which ``import dm_control`` then finds in this process, so the references step the same dm_control that
compiled rlpool's models. Where the copy cannot be had either (offline), the module is skipped with a reason
naming dm-control==1.0.50; in CI it fails instead.
"""

from __future__ import annotations

from types import ModuleType

from lane import require

from rlpool.envs.dmc import suite_source


def require_suite() -> ModuleType:
    """``dm_control.suite`` (installed, or rlpool's fetched copy); skips the calling module (fails in CI) without."""
    try:
        return suite_source.suite()
    except suite_source.DmControlUnavailableError as e:
        require(f"needs {suite_source.PACKAGE}=={suite_source.VERSION}, installed or fetched as a wheel: {e}")
        raise
