"""The older EnvPool API (EnvPool run with gym < 0.26), for scripts written against it.

``import rlpool.compat.envpool_legacy as envpool`` and ``make(..., env_type="gym")``
gives a pool whose ``step`` returns ``(obs, reward, done, info)`` and whose ``reset()``
returns ``obs`` alone unless ``gym_reset_return_info=True`` (the old default was
False). ``done`` is ``terminated | truncated``; ``info["TimeLimit.truncated"]`` is true
when the time limit, not the task, ended the episode (gym's convention). This is the API
CleanRL's EnvPool scripts were written for. "gymnasium" and "dm" behave as in
``rlpool.compat.envpool``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rlpool.compat.envpool import (
    ENVPOOL_CONFIG_KEYS,
    DMEnvPool,
    EnvSpec,
    GymnasiumEnvPool,
    list_all_envs,
    resolve_spec,
)

__all__ = [
    "ENVPOOL_CONFIG_KEYS",
    "GymEnvPool",
    "list_all_envs",
    "make",
    "make_dm",
    "make_gym",
    "make_gymnasium",
    "make_spec",
]


def make(task_id: str, env_type: str, **kwargs: Any) -> Any:
    """Build a pool: "gym" (4-tuple ``step``), "gymnasium" or "dm"."""
    if env_type == "gym":
        return make_gym(task_id, **kwargs)
    if env_type == "gymnasium":
        return make_gymnasium(task_id, **kwargs)
    if env_type == "dm":
        return make_dm(task_id, **kwargs)
    raise ValueError(f"env_type should be one of ('dm', 'gym', 'gymnasium'), got {env_type!r}")


def make_spec(task_id: str, **kwargs: Any) -> EnvSpec:
    """Resolve options; ``gym_reset_return_info`` defaults to False, as it did."""
    return resolve_spec(task_id, kwargs, return_info_default=False, allow_no_reset_info=True)


def make_gym(task_id: str, **kwargs: Any) -> GymEnvPool:
    """The old gym pool: ``step`` returns ``(obs, reward, done, info)``."""
    return GymEnvPool(make_spec(task_id, **kwargs))


def make_gymnasium(task_id: str, **kwargs: Any) -> GymnasiumEnvPool:
    """The gymnasium pool of ``rlpool.compat.envpool``."""
    kwargs.setdefault("gym_reset_return_info", True)
    return GymnasiumEnvPool(make_spec(task_id, **kwargs))


def make_dm(task_id: str, **kwargs: Any) -> DMEnvPool:
    """The dm_env pool of ``rlpool.compat.envpool``."""
    return DMEnvPool(make_spec(task_id, **kwargs))


class GymEnvPool(GymnasiumEnvPool):
    """EnvPool's gym pool as it was with gym < 0.26: 4-tuple ``step``, ``reset()`` without info by default."""

    def __init__(self, spec: EnvSpec) -> None:
        if spec.config_dict["autoreset_mode"] == "SameStep":
            raise ValueError("the old gym API has no final-observation entries; use autoreset_mode='NextStep'")
        super().__init__(spec)

    def reset(self, env_id: Any = None, **kwargs: Any) -> Any:
        """Reset every env (or ``env_id``); ``obs``, or ``(obs, info)`` with ``gym_reset_return_info=True``."""
        obs, info = super().reset(env_id, **kwargs)
        return (obs, info) if self.config["gym_reset_return_info"] else obs

    def step(self, action: Any, env_id: Any = None) -> tuple[Any, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step; returns ``(obs, reward, done, info)``."""
        return self._four(self._pool.step(action, env_id))

    def recv(self, reset: bool = False, return_info: bool = True) -> Any:
        """Wait for the next batch; ``reset=True`` returns the reset result as ``reset()`` does."""
        result = self._four(self._pool.recv())
        if reset:
            return (result[0], result[3]) if return_info else result[0]
        return result

    def _four(self, result: tuple) -> tuple[Any, np.ndarray, np.ndarray, dict[str, Any]]:
        obs, reward, terminated, truncated, info = result
        out = self.spec.info(info)
        elapsed = out.pop("elapsed_step")
        out["TimeLimit.truncated"] = truncated & ~terminated
        out["elapsed_step"] = elapsed
        return self.spec.pad(obs), reward.astype(np.float32), terminated | truncated, out
