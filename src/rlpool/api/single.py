"""One env of a task with gymnasium's single-env API: what ``gymnasium.make("rlpool/<TaskId>")`` returns.

It is a pool of one env (autoreset disabled, as a single gymnasium env does not reset itself), so it
runs the same C++ env as the vector faces. It exists for gymnasium's own tooling: ``gymnasium.make``
with wrappers, ``make_vec(..., vectorization_mode="sync" or "async")``, ``check_env``. For speed, use
the vector face (``rlpool.make``), which steps many envs per call.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from rlpool.api.pool_owner import PoolOwner
from rlpool.arrays import map_nested
from rlpool.options import seeds_for
from rlpool.spec import EnvSpec

_FIXED = ("num_envs", "batch_size", "autoreset_mode")


class SingleEnv(PoolOwner, gymnasium.Env):
    """A single env of ``task_id``, built with the task's options (``seed`` sets its first seed).

    The task's methods (``EnvSpec.task_methods``) are methods of the env, as a gymnasium-robotics goal
    env's are: ``env.unwrapped.compute_reward(achieved_goal, desired_goal, info)`` and
    ``env.get_wrapper_attr("compute_reward")`` (each works on batches as on one env's values).
    """

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, task_id: str, **options: Any) -> None:
        fixed = sorted(set(options) & set(_FIXED))
        if fixed:
            raise ValueError(f"{fixed} are fixed for a single env (one env, autoreset disabled); do not pass them")
        self._init_pool(EnvSpec(task_id, num_envs=1, autoreset_mode="Disabled", **options))
        self.render_mode = self.config["render_mode"]
        renders = self.spec.arrays.render_size != (0, 0)
        self.metadata = {
            "render_modes": ["rgb_array", "human"] if renders else [],
            "render_fps": self.spec.arrays.render_fps,
        }
        self.observation_space = self.spec.observation_space
        self.action_space = self.spec.action_space
        self._kind = self.spec.arrays.obs_kind

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start an episode; ``seed`` re-seeds the env (as gymnasium's ``reset(seed=...)``)."""
        super().reset(seed=seed)
        if options:
            raise ValueError(f"unsupported reset options {sorted(options)}")
        seed_ids, seeds = ([0], seeds_for(seed, 1)) if seed is not None else ([], [])
        obs, info = self._pool.reset(None, seed_ids, seeds)
        return self._row(obs), _info_row(info)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """One step; after an episode ends, call ``reset()`` before stepping again."""
        obs, reward, terminated, truncated, info = self._pool.step(np.asarray(action)[None])
        return self._row(obs), float(reward[0]), bool(terminated[0]), bool(truncated[0]), _info_row(info)

    def render(self, env_ids: Any = None, camera_id: int | None = None) -> Any:  # type: ignore[override]
        """The env's frame: ``(render_height, render_width, 3)`` uint8, or None in ``"human"`` mode (shown)."""
        frames = super().render(env_ids, camera_id)
        return None if frames is None else np.asarray(frames[0])

    def close(self) -> None:
        """Stop the env's worker thread; calling it again does nothing."""
        self._close_pool()

    def _row(self, obs: Any) -> Any:
        if self._kind == "dict":  # nested dicts (entries named "outer.inner") too
            return map_nested(obs, lambda v: _scalar(v[0]))
        if self._kind == "tuple":
            return tuple(_scalar(v[0]) for v in obs)
        return _scalar(obs[0])


def _scalar(x: Any) -> Any:
    # A numpy scalar of the native integer type (np.int64, not np.longlong), as gymnasium's checker expects.
    return np.dtype(x.dtype.str).type(x) if isinstance(x, np.generic) else x


def _info_row(info: dict[str, Any]) -> dict[str, Any]:
    return {k: v[0] for k, v in info.items()}
