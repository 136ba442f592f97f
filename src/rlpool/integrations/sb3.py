"""Stable-Baselines3: any rlpool task as an SB3 ``VecEnv`` (needs stable-baselines3: rlpool's ``sb3`` extra).

    from stable_baselines3 import PPO
    from rlpool.integrations.sb3 import RlpoolVecEnv

    env = RlpoolVecEnv("CartPole-v1", num_envs=8, seed=0)
    PPO("MlpPolicy", env).learn(100_000)

SB3's conventions hold: an episode that ends is reset in the same step, so ``step``
returns the first observation of the next episode while ``infos[i]["terminal_observation"]``
holds the last one of the ended episode; ``infos[i]["TimeLimit.truncated"]`` says the
time limit (not the task) ended it. The pool runs in rlpool's "SameStep" autoreset mode,
which does this inside the engine, so there is one batched C++ call per step, not one per env.
Works under ``VecNormalize`` (save/load included), ``VecMonitor`` and the other ``VecEnvWrapper``s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import rlpool
from rlpool.api.pool_owner import PoolOwner
from rlpool.extras import install_hint
from rlpool.options import seeds_for

try:
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices
except ImportError as e:  # pragma: no cover - only without the extra
    raise ImportError(
        f"rlpool.integrations.sb3 needs stable-baselines3: {install_hint('sb3', 'stable-baselines3>=2.3')}"
    ) from e

__all__ = ["RlpoolVecEnv"]

# Attributes SB3 may ask a sub-env for that are the same for every env in the pool.
_SHARED_ATTRIBUTES = ("render_mode", "observation_space", "action_space", "spec", "metadata", "reward_range")


class RlpoolVecEnv(PoolOwner, VecEnv):
    """An rlpool pool of ``num_envs`` copies of ``task_id`` as a Stable-Baselines3 ``VecEnv``.

    ``options`` are rlpool's pool and task options (``num_threads``,
    ``max_episode_steps``, task options such as ``sutton_barto_reward``); the pool is
    always synchronous (``batch_size == num_envs``) with SB3's same-step autoreset.
    ``seed`` seeds env i with ``seed + i``; ``VecEnv.seed(s)`` re-seeds at the next ``reset()``.
    """

    def __init__(self, task_id: str, num_envs: int = 1, seed: int | Sequence[int] = 42, **options: Any) -> None:
        for name in ("batch_size", "autoreset_mode"):
            if name in options:
                raise ValueError(f"{name} is fixed for SB3 (sync, same-step autoreset); do not pass it")
        spec = rlpool.make_spec(task_id, num_envs=num_envs, seed=seed, autoreset_mode="SameStep", **options)
        arrays = spec.arrays
        if arrays.obs_kind == "tuple":
            raise ValueError(f"{task_id} has a Tuple observation space, which Stable-Baselines3 does not support")
        if arrays.nested_obs:
            raise ValueError(
                f"{task_id} has a nested Dict observation space (Dicts inside its Dict: "
                f"{[k for k, v in arrays.obs_tree.items() if isinstance(v, dict)]}), which Stable-Baselines3 "
                "does not support: its Dict observations hold no Dicts"
            )
        self._info_names = arrays.info_names
        self._discrete = arrays.discrete_action
        self._env_attrs: list[dict[str, Any]] = [{} for _ in range(num_envs)]
        self._actions: Any = None
        self._init_pool(spec)
        super().__init__(num_envs, spec.observation_space, spec.action_space)

    # ------------------------------------------------------------------ stepping

    def reset(self) -> Any:
        """Reset every env (applying seeds from ``seed()``); returns the batched first observations."""
        if any(self._options):
            raise ValueError("rlpool envs take no reset options; set_options() must not be used")
        pending = [(i, s) for i, s in enumerate(self._seeds) if s is not None]
        if pending:
            ids = [i for i, _ in pending]
            self._pool.seed(ids, seeds_for([s for _, s in pending], len(pending)))
        obs, info = self._pool.reset(None)
        info.pop("_rlpool_final", None)
        self.reset_infos = self._per_env_infos(info)
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        """Hold the actions for ``step_wait`` (SB3 calls the two back to back)."""
        if self._discrete and isinstance(actions, np.ndarray) and actions.ndim == 2 and actions.shape[1] == 1:
            actions = actions.reshape(-1)  # some SB3 code paths keep a trailing action axis
        self._actions = actions

    def step_wait(self) -> tuple[Any, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """Step every env; returns ``(obs, rewards, dones, infos)`` in SB3's convention."""
        if self._actions is None:
            raise RuntimeError("step_wait() called without step_async()")
        actions, self._actions = self._actions, None
        obs, reward, terminated, truncated, info = self._pool.step(actions, None)
        final_obs, final_info = info.pop("_rlpool_final")
        dones = terminated | truncated
        time_limit = (truncated & ~terminated).tolist()
        if self._info_names:
            infos = self._per_env_infos(info)
            for i, t in enumerate(time_limit):
                infos[i]["TimeLimit.truncated"] = t
        else:
            infos = [{"TimeLimit.truncated": t} for t in time_limit]
        if dones.any():
            for i in np.flatnonzero(dones).tolist():
                # info now holds the new episode's reset info; the ended step's is in final_info.
                self.reset_infos[i] = {name: _item(info[name][i]) for name in self._info_names}
                ended = {name: _item(final_info[name][i]) for name in self._info_names}
                ended["TimeLimit.truncated"] = time_limit[i]
                if isinstance(final_obs, dict):
                    ended["terminal_observation"] = {k: v[i].copy() for k, v in final_obs.items()}
                else:
                    ended["terminal_observation"] = final_obs[i].copy()
                infos[i] = ended
        return obs, reward.astype(np.float32), dones, infos

    def close(self) -> None:
        """Stop the worker threads; calling it again does nothing."""
        self._close_pool()

    def get_images(self) -> Sequence[np.ndarray | None]:
        """Every env's frame (SB3's ``render()`` tiles them); needs ``render_mode="rgb_array"``."""
        if self.config["render_mode"] != "rgb_array":
            return [None] * self.num_envs
        c = self.config
        frames = self._pool.render(list(range(self.num_envs)), c["render_width"], c["render_height"],
                                   c["render_camera_id"])
        return list(frames)

    def render(self, mode: str | None = None) -> np.ndarray | None:  # type: ignore[override]
        """SB3's ``VecEnv.render``: the envs' frames tiled into one image (or shown with OpenCV)."""
        return VecEnv.render(self, mode)

    # ------------------------------------------------------------------ attributes and methods

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """An attribute of each env: set with ``set_attr``, shared (spaces, ``spec``, ``render_mode``) or an option.

        A task method (``spec.task_methods``, e.g. ``compute_reward``) is given as the function itself.
        """
        return [self._env_attr(i, attr_name) for i in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Store a per-env attribute (the pool's options and spaces are fixed once it is built)."""
        if attr_name in _SHARED_ATTRIBUTES or attr_name in self.spec.config or attr_name in self._task_methods():
            raise AttributeError(f"{attr_name!r} is fixed when the pool is built and cannot be set")
        for i in self._get_indices(indices):
            self._env_attrs[i][attr_name] = value

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any
    ) -> list[Any]:
        """Call ``get_state``/``set_state``/``get_wrapper_attr`` or a task method on each env in ``indices``.

        A task method (``spec.task_methods``, e.g. a goal task's ``compute_reward(achieved_goal,
        desired_goal, infos)``, which SB3's ``HerReplayBuffer`` calls with ``indices=[0]``) works on whole
        batches: it runs once and its result is repeated, one per index.
        """
        ids = list(self._get_indices(indices))
        methods = self._task_methods()
        if method_name in methods:
            result = methods[method_name](*method_args, **method_kwargs)
            return [result for _ in ids]
        if method_name == "get_state":
            return [self.get_state(i) for i in ids]
        if method_name == "set_state":
            return [self.set_state(i, *method_args, **method_kwargs) for i in ids]
        if method_name == "get_wrapper_attr":
            return [self._env_attr(i, *method_args, **method_kwargs) for i in ids]
        supported = ["get_state", "set_state", "get_wrapper_attr", *sorted(methods)]
        raise AttributeError(f"rlpool env {self.spec.id} has no method {method_name!r}; supported: {supported}")

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        """Always False: the pool's envs have no gymnasium wrappers (wrap the VecEnv, e.g. with ``VecMonitor``)."""
        return [False for _ in self._get_indices(indices)]

    def _env_attr(self, i: int, name: str) -> Any:
        if name in self._env_attrs[i]:
            return self._env_attrs[i][name]
        if name == "render_mode":
            return self.config["render_mode"]
        if name == "metadata":
            renders = self.spec.arrays.render_size != (0, 0)
            modes = ["rgb_array", "human"] if renders else []
            return {"render_modes": modes, "render_fps": self.spec.arrays.render_fps}
        if name == "reward_range":
            return (-float("inf"), float("inf"))
        if name == "spec":
            return self.spec
        if name in ("observation_space", "action_space"):
            return getattr(self.spec, name)
        if name in self.spec.config:
            return self.spec.config[name]
        methods = self._task_methods()
        if name in methods:
            return methods[name]
        known = sorted({*_SHARED_ATTRIBUTES, *self.spec.config, *self._env_attrs[i]})
        raise AttributeError(
            f"rlpool env {self.spec.id} has no attribute {name!r}; known: {known}; "
            f"the task's methods: {sorted(methods) or 'none'}"
        )

    def _per_env_infos(self, info: dict[str, Any]) -> list[dict[str, Any]]:
        names = self._info_names
        return [{name: _item(info[name][i]) for name in names} for i in range(self.num_envs)]

    def __repr__(self) -> str:
        return f"RlpoolVecEnv({self.spec.id!r}, num_envs={self.num_envs})"


def _item(value: Any) -> Any:
    """A scalar row as a Python number, an array row as a copy (so kept infos do not pin a batch buffer)."""
    return value.item() if value.ndim == 0 else value.copy()
