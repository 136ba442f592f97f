"""The older gym-style face of a pool: ``step`` returns ``(obs, reward, done, info)``."""

from __future__ import annotations

from typing import Any

import numpy as np

from rlpool.api.pool_owner import PoolOwner
from rlpool.spec import EnvSpec


class GymEnv(PoolOwner):
    """A pool with the pre-gymnasium 4-tuple convention, for code that still expects it.

    ``done`` is ``terminated | truncated``; ``info["terminated"]`` and
    ``info["TimeLimit.truncated"]`` tell the two apart. ``reset()`` returns
    ``(obs, info)`` when ``gym_reset_return_info`` is true (the default), else ``obs``.
    The task's methods (``EnvSpec.task_methods``, e.g. a goal task's ``compute_reward``) are
    methods of the pool, working on whole batches: ``envs.compute_reward(...)``.
    """

    def __init__(self, spec: EnvSpec) -> None:
        self._init_pool(spec)
        self.observation_space = spec.observation_space
        self.action_space = spec.action_space
        self._return_info = spec.config["gym_reset_return_info"]

    def reset(self, env_id: Any = None) -> Any:
        """Reset all envs (or ``env_id``)."""
        obs, info = self._pool.reset(env_id)
        return (obs, info) if self._return_info else obs

    def step(self, action: Any, env_id: Any = None) -> tuple[Any, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step the envs; returns ``(obs, reward, done, info)``. An async pool needs ``env_id`` (see ``recv``)."""
        try:
            result = self._pool.step(action, env_id)
        except ValueError as e:
            clearer = self._async_step_error(e, env_id)
            if clearer is None:
                raise
            raise clearer from None
        return _four(result)

    def recv(self) -> tuple[Any, np.ndarray, np.ndarray, dict[str, Any]]:
        """Wait for the next ``batch_size`` results."""
        return _four(self._pool.recv())

    def close(self) -> None:
        """Stop the worker threads; calling it again does nothing."""
        self._close_pool()


def _four(result: tuple) -> tuple[Any, np.ndarray, np.ndarray, dict[str, Any]]:
    obs, reward, terminated, truncated, info = result
    info.pop("_rlpool_final", None)
    info["terminated"] = terminated
    info["TimeLimit.truncated"] = truncated & ~terminated
    return obs, reward, terminated | truncated, info
