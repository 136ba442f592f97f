"""highway-env 1.12.1 with its scalar transcendental functions computed by the C library, as rlpool's C++ does.

highway-env calls ``np.arctan``, ``np.arctan2``, ``np.arcsin``, ``np.tan``, ``np.power``, ... on single floats
(steering control, lane headings, circular lanes, the IDM acceleration). numpy evaluates them with SIMD kernels
picked for the CPU (AVX-512 here), which differ from the C library's results by one ulp on some inputs (0.5 to
10 %); the C++ port calls the C library. In scenarios whose dynamics amplify differences (a vehicle's controller
reacting to its heading on a curved lane) such an ulp grows over an episode to 1e-6 or more, and it depends on the
CPU numpy runs on.

``libm_numpy()`` makes highway-env's modules see a numpy whose functions of those names compute single floats with
Python's ``math`` (the C library) and hand anything else (arrays) to numpy: the reference's arithmetic is then the
C++'s, so a parity test can demand exact agreement and any scenario logic difference shows at its first step.
"""

from __future__ import annotations

import importlib
import math
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

_FUNCTIONS: dict[str, Callable[..., float]] = {
    "arctan": math.atan, "arctan2": math.atan2, "arcsin": math.asin, "arccos": math.acos, "tan": math.tan,
    "sin": math.sin, "cos": math.cos, "exp": math.exp, "log": math.log, "power": math.pow,
}
_MODULES = ("utils", "road.lane", "road.road", "road.regulation", "road.spline", "vehicle.objects",
            "vehicle.kinematics", "vehicle.controller", "vehicle.behavior", "vehicle.dynamics",
            "envs.common.observation", "envs.common.finite_mdp", "envs.common.action")
_SCALARS = (float, int, np.floating, np.integer)


def _scalar_libm(numpy_function: Callable[..., Any], libm_function: Callable[..., float]) -> Callable[..., Any]:
    def function(*args: Any, **kwargs: Any) -> Any:
        if (not kwargs and all(isinstance(a, _SCALARS) and not isinstance(a, bool) for a in args)
                and any(isinstance(a, (float, np.floating)) for a in args)):
            return np.float64(libm_function(*(float(a) for a in args)))
        return numpy_function(*args, **kwargs)

    function.__name__ = numpy_function.__name__
    return function


class _LibmNumpy(types.ModuleType):
    """numpy, with the scalar transcendental functions of ``_FUNCTIONS`` taken from the C library."""

    def __init__(self) -> None:
        super().__init__("numpy")
        for name, libm_function in _FUNCTIONS.items():
            setattr(self, name, _scalar_libm(getattr(np, name), libm_function))

    def __getattr__(self, name: str) -> Any:
        return getattr(np, name)


@contextmanager
def libm_numpy() -> Iterator[None]:
    """Within the block, highway-env's modules compute scalar transcendental functions with the C library."""
    patched = _LibmNumpy()
    modules = [importlib.import_module(f"highway_env.{name}") for name in _MODULES]
    originals = [module.np for module in modules]
    try:
        for module in modules:
            module.np = patched
        yield
    finally:
        for module, original in zip(modules, originals, strict=True):
            module.np = original
