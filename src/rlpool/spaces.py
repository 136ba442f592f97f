"""Turn the engine's array specs into gymnasium spaces and dm_env specs."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

_DTYPES = {
    "bool": np.bool_,
    "int8": np.int8,
    "uint8": np.uint8,
    "int32": np.int32,
    "int64": np.int64,
    "float32": np.float32,
    "float64": np.float64,
}


def _bounds(a: dict[str, Any], dtype: Any) -> tuple[np.ndarray, np.ndarray]:
    shape = tuple(a["shape"])
    low = np.asarray(a["low"], dtype=np.float64)
    high = np.asarray(a["high"], dtype=np.float64)
    if low.size == 0:
        low = np.full(shape, -np.inf)
    if high.size == 0:
        high = np.full(shape, np.inf)
    low = np.broadcast_to(low.reshape(shape) if low.size > 1 else low.reshape(()), shape)
    high = np.broadcast_to(high.reshape(shape) if high.size > 1 else high.reshape(()), shape)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        low = np.clip(low, info.min, info.max)
        high = np.clip(high, info.min, info.max)
    return low.astype(dtype), high.astype(dtype)


def _array_space(a: dict[str, Any]) -> spaces.Space:
    dtype = _DTYPES[a["dtype"]]
    if dtype is np.bool_:
        return spaces.MultiBinary(tuple(a["shape"]))
    if np.issubdtype(dtype, np.integer) and tuple(a["shape"]) == () and a["low"] and a["high"]:
        # A bounded integer scalar is a Discrete space, as gymnasium's toy-text envs have.
        low, high = int(a["low"][0]), int(a["high"][0])
        return spaces.Discrete(high - low + 1, start=low, dtype=dtype)
    low, high = _bounds(a, dtype)
    return spaces.Box(low=low, high=high, shape=tuple(a["shape"]), dtype=dtype)


def observation_space(raw: dict[str, Any]) -> spaces.Space:
    """Single-env observation space: a Box, or a Dict for several entries."""
    obs = raw["obs"]
    if raw["obs_kind"] == "tuple":
        return spaces.Tuple(tuple(_array_space(a) for a in obs))
    if raw["obs_kind"] == "array":
        return _array_space(obs[0])
    return spaces.Dict({a["name"]: _array_space(a) for a in obs})


def action_space(raw: dict[str, Any]) -> spaces.Space:
    """Single-env action space: Discrete(n), or a float32 Box."""
    a = raw["action"]
    if a["dtype"] == "int64":
        return spaces.Discrete(int(a["high"][0]) + 1)
    low, high = _bounds(a, np.float32)
    return spaces.Box(low=low, high=high, shape=tuple(a["shape"]), dtype=np.float32)


def is_discrete(raw: dict[str, Any]) -> bool:
    """Whether the action is a single integer."""
    return raw["action"]["dtype"] == "int64"
