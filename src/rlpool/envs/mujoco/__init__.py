"""MuJoCo locomotion and manipulation tasks (gymnasium's v4 and v5), stepped through MuJoCo's C API.

rlpool's C++ envs call the MuJoCo library that the ``mujoco`` wheel ships
(``mujoco/libmujoco.so.<version>``). The extension does not link it (a link-time
path would point into pip's temporary build environment, and the wheel's
install location is not known when rlpool is built): this package loads it
here, from wherever Python finds the ``mujoco`` package, and the C++ side then
looks it up by name. The ``mujoco`` Python module itself is not imported.

The envs step a private copy of that library (the same file, copied into memory
and loaded on its own): MuJoCo's callbacks and log settings are globals of the
library, and the ``mujoco`` Python package sets one of them on import
(``mjcb_time``, see :func:`python_timer_off`). With the copy, nothing the user's
``mujoco`` sets slows rlpool's envs, and nothing rlpool sets changes it.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
from collections.abc import Iterator
from pathlib import Path


def mujoco_library() -> Path | None:
    """Path of the ``libmujoco.so.<version>`` in the installed ``mujoco`` package, or None if absent."""
    spec = importlib.util.find_spec("mujoco")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        libs = sorted(Path(folder).glob("libmujoco.so.*"))
        if libs:
            return libs[0]
    return None


def _load_library() -> ctypes.CDLL | None:
    path = mujoco_library()
    if path is None:
        return None  # the C++ side names the missing library when a MuJoCo task is made
    return ctypes.CDLL(str(path))


_LIBRARY = _load_library()  # kept alive for the process's lifetime


@contextlib.contextmanager
def python_timer_off() -> Iterator[None]:
    """Clear, while inside, the timer callback the ``mujoco`` Python package installs on import.

    With ``mjcb_time`` set, each ``mj_step`` reads the clock around each of its stages to fill
    ``mjData.timer`` (about 1 us a step, 15 % of a Cheetah step); rlpool's envs run a private copy of the
    library without it. The benchmarks step raw ``mj_step`` inside this, so that the baseline is the
    library at its full speed.
    """
    if _LIBRARY is None:
        yield
        return
    timer = ctypes.c_void_p.in_dll(_LIBRARY, "mjcb_time")
    saved = timer.value
    timer.value = None
    try:
        yield
    finally:
        timer.value = saved
