"""Turn a task's typed arrays (``rlpool.arrays``) into gymnasium spaces."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np
from gymnasium import spaces

from rlpool.arrays import Arrays, ArraySpec


def _bounds(a: ArraySpec, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """``a``'s bounds in ``dtype``; integer bounds are clipped to the dtype's range (so -inf/+inf fit)."""
    low, high = a.low, a.high
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        low = np.clip(low, info.min, info.max)
        high = np.clip(high, info.min, info.max)
    return low.astype(dtype), high.astype(dtype)


def array_space(a: ArraySpec) -> spaces.Space:
    """One array's space: MultiBinary for bool, Discrete for a bounded integer scalar, else a Box."""
    if a.dtype == np.bool_:
        return spaces.MultiBinary(a.shape)
    if np.issubdtype(a.dtype, np.integer) and a.shape == () and a.bounded:
        # A bounded integer scalar is a Discrete space, as gymnasium's toy-text envs have.
        low, high = int(a.low[()]), int(a.high[()])
        return spaces.Discrete(high - low + 1, start=low, dtype=a.dtype)
    low, high = _bounds(a, a.dtype)
    return spaces.Box(low=low, high=high, shape=a.shape, dtype=a.dtype)


def observation_space(arrays: Arrays) -> spaces.Space:
    """Single-env observation space: one entry's space, a Dict (``obs_kind`` "dict") or a Tuple ("tuple").

    A dict's entries named ``"outer.inner"`` are entries of a nested Dict ``outer``.
    """
    if arrays.obs_kind == "tuple":
        return spaces.Tuple(tuple(array_space(a) for a in arrays.obs))
    if arrays.obs_kind == "array":
        return array_space(arrays.obs[0])
    # The env's own key order (dm_control's, as EnvPool keeps it); a plain dict would be sorted. Entries
    # named "outer.inner" form a nested Dict (gymnasium-robotics' goals).
    return _dict_space(arrays.obs_tree)


def _dict_space(tree: dict[str, Any]) -> spaces.Dict:
    return spaces.Dict(
        OrderedDict((k, _dict_space(v) if isinstance(v, dict) else array_space(v)) for k, v in tree.items())
    )


def action_space(arrays: Arrays) -> spaces.Space:
    """Single-env action space: Discrete(n) (a MultiDiscrete for a simultaneous multi-agent env), or a Box.

    The dtype is float32 for gymnasium's tasks, float64 for dm_control's.
    """
    if arrays.discrete_action:
        if arrays.action.shape:
            return spaces.MultiDiscrete(arrays.action_nvec, dtype=np.int64)
        return spaces.Discrete(arrays.num_actions)
    dtype = arrays.action.dtype
    low, high = _bounds(arrays.action, dtype)
    return spaces.Box(low=low, high=high, shape=arrays.action.shape, dtype=dtype)
