"""The gymnasium ``VectorEnv`` face of a pool."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from rlpool.api.pool_owner import PoolOwner
from rlpool.arrays import map_nested
from rlpool.options import AUTORESET_MODES, seeds_for
from rlpool.spec import EnvSpec

# "NextStep" -> AutoresetMode.NEXT_STEP, and so on: gymnasium's enum in the engine's spelling.
_MODES = {name: AutoresetMode[re.sub(r"(?<!^)([A-Z])", r"_\1", name).upper()] for name in AUTORESET_MODES}


class GymnasiumVectorEnv(PoolOwner, VectorEnv):
    """A pool of ``num_envs`` envs as a gymnasium vector env.

    Sync mode (``batch_size == num_envs``): ``step(actions)`` steps every env
    and returns results in env-id order. Async mode (``batch_size < num_envs``):
    ``send(actions, env_id)`` returns at once and ``recv()`` returns the first
    ``batch_size`` envs to finish, with ``info["env_id"]``.

    Returned arrays view the pool's buffers without a copy; they stay valid
    (and unchanged) for as long as you hold them.
    """

    def __init__(self, spec: EnvSpec) -> None:
        self._init_pool(spec)
        self.render_mode = spec.config["render_mode"]
        self._same_step = spec.config["autoreset_mode"] == "SameStep"
        renders = spec.arrays.render_size != (0, 0)
        self.metadata = {
            "autoreset_mode": _MODES[spec.config["autoreset_mode"]],
            "render_modes": ["rgb_array", "human"] if renders else [],
            "render_fps": spec.arrays.render_fps,
        }
        self.single_observation_space = spec.observation_space
        self.single_action_space = spec.action_space
        self.observation_space = batch_space(self.single_observation_space, self.batch_size)
        self.action_space = batch_space(self.single_action_space, self.batch_size)

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset all envs (or those in ``options["reset_mask"]``); ``seed`` re-seeds as gymnasium defines it."""
        env_id = None
        if options:
            unknown = set(options) - {"reset_mask"}
            if unknown:
                raise ValueError(f"unsupported reset options {sorted(unknown)}; rlpool supports 'reset_mask'")
            mask = options["reset_mask"]
            if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
                raise ValueError(f"options['reset_mask'] must be a bool numpy array of shape ({self.num_envs},)")
            if not self._pool.batch_size == self.num_envs:
                raise ValueError("reset_mask needs sync mode (batch_size == num_envs)")
            env_id = np.flatnonzero(mask)
            if env_id.size == 0:
                raise ValueError("options['reset_mask'] selects no env")
        seed_ids: list[int] = []
        seeds: list[int] = []
        if seed is not None:
            ids = np.arange(self.num_envs) if env_id is None else env_id
            if isinstance(seed, (list, tuple)):
                if len(seed) != self.num_envs:
                    raise ValueError(f"seed list has {len(seed)} entries, expected num_envs={self.num_envs}")
                reset_ids = set(ids.tolist())
                pairs = [(i, s) for i, s in enumerate(seed) if s is not None and i in reset_ids]
                seed_ids = [i for i, _ in pairs]
                seeds = seeds_for([s for _, s in pairs], len(pairs)) if pairs else []
            else:
                all_seeds = seeds_for(seed, self.num_envs)
                seed_ids = [int(i) for i in ids]
                seeds = [all_seeds[i] for i in seed_ids]
        # The pool applies the seeds only after it has accepted the reset.
        obs, info = self._pool.reset(env_id, seed_ids, seeds)
        info.pop("_rlpool_final", None)  # async reset is a recv(); a reset has no final rows
        if self.render_mode == "human":
            self.render()
        return obs, info

    def step(
        self, actions: Any, env_id: Any = None
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every env (sync mode), or ``env_id`` then wait for a batch (``send`` + ``recv``).

        An async pool (``batch_size < num_envs``) needs ``env_id``: ``info["env_id"]`` of the last result.
        """
        try:
            result = self._pool.step(actions, env_id)
        except ValueError as e:
            clearer = self._async_step_error(e, env_id)
            if clearer is None:
                raise
            raise clearer from None
        if self._same_step:
            unpack_final(result)
        if self.render_mode == "human" and self.batch_size == self.num_envs:
            self.render()  # gymnasium's human mode draws after every step
        return result

    def recv(self) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Wait for the next ``batch_size`` results, in the order the envs finished."""
        result = self._pool.recv()
        if self._same_step:
            unpack_final(result)
        return result

    def xla(self) -> tuple[Any, Any, Any, Any]:
        """``(handle, recv, send, step)`` to step this pool from inside ``jax.jit`` (EnvPool's ``xla()``).

        See ``rlpool.xla``; needs jax (rlpool's ``jax`` extra).
        """
        from rlpool.xla import make_xla

        return make_xla(self._pool, self.spec.arrays)

    # gymnasium's per-env attribute calls. Every env of a pool is configured alike, so an attribute
    # is the same value repeated per env; options are fixed at creation and cannot be set per env.
    def get_attr(self, name: str) -> tuple[Any, ...]:
        """The attribute ``name`` of each env, as gymnasium's ``VectorEnv.get_attr``.

        Names: the task's options and pool options (``make_spec(task).config`` keys), ``spec``,
        ``observation_space``/``action_space`` (single-env spaces), ``render_mode``, ``metadata``,
        ``max_episode_steps``, ``reward_threshold``, and the task's methods (``spec.task_methods``, e.g.
        a goal task's ``compute_reward``), each the function itself.
        """
        return (self._env_attr(name),) * self.num_envs

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call method ``name`` on each env (or get attribute ``name``), as gymnasium's ``VectorEnv.call``.

        Methods: ``get_state`` (each env's state bytes) and the task's methods (``spec.task_methods``,
        e.g. a goal task's ``compute_reward(achieved_goal, desired_goal, info)``). A task method works on
        whole batches: it runs once and its result is repeated per env, one per env as gymnasium's
        ``SyncVectorEnv.call`` gives. Anything else ``get_attr`` knows is returned as it is.
        """
        method = self._task_methods().get(name)
        if method is not None:
            return (method(*args, **kwargs),) * self.num_envs
        if name == "get_state":
            if args or kwargs:
                raise TypeError("call('get_state') takes no arguments")
            return tuple(self.get_state(i) for i in range(self.num_envs))
        return self.get_attr(name)

    def set_attr(self, name: str, values: Any) -> None:
        """Refused: a pool's envs share one configuration fixed at creation (make a new pool instead)."""
        raise AttributeError(
            f"cannot set {name!r} on the envs of an rlpool pool: options are fixed when the pool is made and "
            f"shared by all its envs; pass {name}=... to rlpool.make (or gymnasium.make_vec) instead"
        )

    def _env_attr(self, name: str) -> Any:
        per_env = {
            "spec": self.spec,
            "observation_space": self.single_observation_space,
            "action_space": self.single_action_space,
            "render_mode": self.render_mode,
            "metadata": self.metadata,
        }
        if name in per_env:
            return per_env[name]
        # Options from self.config, not self.spec: gymnasium.make_vec replaces `spec` with its own EnvSpec.
        if name in self.config:
            return self.config[name]
        methods = self._task_methods()
        if name in methods:
            return methods[name]
        known = sorted(set(per_env) | set(self.config))
        raise AttributeError(
            f"the envs of this pool have no attribute {name!r}; known: {known}; "
            f"the task's methods: {sorted(methods) or 'none'}"
        )

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the worker threads."""
        self._close_pool()

    def __repr__(self) -> str:
        return f"GymnasiumVectorEnv({self.spec.id}, num_envs={self.num_envs}, batch_size={self.batch_size})"


def episode_over(terminated: np.ndarray, truncated: np.ndarray) -> np.ndarray:
    """Per env, whether its episode is over: every agent terminated or truncated.

    A multi-agent env's flags are ``[num_envs, num_agents]``; a single-agent env's ``[num_envs]``.
    """
    done = terminated | truncated
    return done.all(axis=1) if done.ndim == 2 else done


def unpack_final(result: tuple) -> None:
    """SameStep: turn the engine's final-row buffers into gymnasium's ``final_obs``/``final_info``, in place.

    ``result`` is a pool's ``(obs, reward, terminated, truncated, info)`` from a
    "SameStep" pool. ``info["_rlpool_final"]`` is removed and, when an episode ended,
    gymnasium's ``final_obs``/``_final_obs``/``final_info``/``_final_info`` entries are added.
    """
    _, _, terminated, truncated, info = result
    final_obs, final_info = info.pop("_rlpool_final")
    done = episode_over(terminated, truncated)
    if not done.any():
        return
    rows = np.flatnonzero(done)
    obs_array = np.full(done.shape[0], None, dtype=object)
    for i in rows:
        if isinstance(final_obs, dict):  # nested dicts (entries named "outer.inner") too
            obs_array[i] = map_nested(final_obs, lambda v, i=i: v[i].copy())
        elif isinstance(final_obs, tuple):  # Tuple space: one tuple per env, as gymnasium gives
            obs_array[i] = tuple(v[i].copy() for v in final_obs)
        else:
            obs_array[i] = final_obs[i].copy()
    info["final_obs"] = obs_array
    info["_final_obs"] = done
    batched: dict[str, Any] = {}
    for key, value in final_info.items():
        batched[key] = np.where(done.reshape((-1,) + (1,) * (value.ndim - 1)), value, 0).astype(value.dtype)
        batched["_" + key] = done
    info["final_info"] = batched
    info["_final_info"] = done
