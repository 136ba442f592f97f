"""MuJoCo locomotion and manipulation tasks (gymnasium's v4 and v5), stepped through MuJoCo's C API.

rlpool's C++ envs call the MuJoCo library that the ``mujoco`` wheel ships
(``mujoco/libmujoco.so.<version>``). The extension does not link it (a link-time
path would point into pip's temporary build environment, and the wheel's
install location is not known when rlpool is built): this package loads it
here, from wherever Python finds the ``mujoco`` package, and the C++ side then
looks it up by name. The ``mujoco`` Python module itself is not imported.
"""

from __future__ import annotations

import ctypes
import importlib.util
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
