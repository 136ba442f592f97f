"""``EnvSpec``: a task with every option resolved and checked, the arrays its env writes, and its spaces.

What ``make_spec`` returns and every face and backend builds from; it builds no pool
(``rlpool.backends.new_pool`` does).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cached_property
from typing import Any

import numpy as np

from rlpool import _rlpool_core as _core
from rlpool.arrays import Arrays
from rlpool.backends.options import BACKEND_OPTIONS, check_backend_options
from rlpool.options import (
    AUTORESET_MODES,
    MAX_ENVS,
    MAX_THREADS,
    POOL_OPTIONS,
    RENDER_MODES,
    check_int,
    coerce,
    env_id_list,
    seeds_for,
)
from rlpool.registry import env_type_options, inf_options, task


class EnvSpec:
    """A task with every option resolved: what ``make_spec`` returns and each env carries.

    ``config`` holds all options (pool and env) by EnvPool's names; ``arrays``
    describes the env's arrays (``rlpool.arrays.Arrays``); the
    ``observation_space``/``action_space`` properties are the single-env spaces.
    """

    def __init__(self, task_id: str, **kwargs: Any) -> None:
        t = task(task_id)
        self.id = task_id
        self.task = t
        env_options = {name: default for name, default, _ in env_type_options(t.env_type)}
        env_options.update(t.task_options)
        env_options.update(t.env_defaults)
        # Options named "_..." are fixed at registration (e.g. compiled function addresses).
        valid = set(POOL_OPTIONS) | set(BACKEND_OPTIONS) | {k for k in env_options if not k.startswith("_")}
        unknown = sorted(set(kwargs) - valid)
        if unknown:
            raise ValueError(f"unknown option(s) {unknown} for {task_id}; valid options: {sorted(valid)}")
        self.backend: dict[str, Any] = check_backend_options(kwargs)
        """Where the envs run: ``backend`` ("local" or "ray") and the Ray options (``rlpool.backends.ray``)."""
        self.kwargs: dict[str, Any] = {k: v for k, v in kwargs.items() if k not in BACKEND_OPTIONS}
        """The options this spec was made with (without the backend's): what a Ray worker rebuilds it from."""
        pool = {k: kwargs.get(k, v) for k, v in POOL_OPTIONS.items()}
        if "autoreset_mode" not in kwargs and t.autoreset_mode is not None:
            pool["autoreset_mode"] = t.autoreset_mode  # the task's own default
        self.explicit_num_threads: int | None = pool["num_threads"] or None
        num_envs = check_int("num_envs", pool["num_envs"], 1, MAX_ENVS)
        batch_size = num_envs if pool["batch_size"] in (None, 0) else check_int("batch_size", pool["batch_size"], 1)
        if batch_size > num_envs:
            raise ValueError(f"batch_size={batch_size} must be <= num_envs={num_envs}")
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        num_threads = (
            (min(num_envs, MAX_THREADS) if t.waits_on_process else min(batch_size, cores))
            if pool["num_threads"] in (None, 0)
            else check_int("num_threads", pool["num_threads"], 1, MAX_THREADS)
        )
        if pool["max_episode_steps"] is not None:
            check_int("max_episode_steps", pool["max_episode_steps"], 1)
        mode = pool["autoreset_mode"]
        mode = getattr(mode, "name", mode)  # accept gymnasium.vector.AutoresetMode
        # "NextStep", "NEXT_STEP" (gymnasium's enum name) and "next_step" all name the same mode.
        names = {m.upper(): m for m in AUTORESET_MODES}
        mode = names.get(mode.replace("_", "").upper(), mode) if isinstance(mode, str) else mode
        if mode not in AUTORESET_MODES:
            raise ValueError(f"autoreset_mode must be one of {AUTORESET_MODES}, got {pool['autoreset_mode']!r}")
        offset = check_int("thread_affinity_offset", pool["thread_affinity_offset"], -1)
        if not isinstance(pool["gym_reset_return_info"], (bool, np.bool_)):
            raise TypeError(f"gym_reset_return_info must be a bool, got {pool['gym_reset_return_info']!r}")
        threshold = pool["reward_threshold"]
        if threshold is not None and (
            isinstance(threshold, (bool, np.bool_)) or not isinstance(threshold, (int, float, np.number))
        ):
            raise TypeError(f"reward_threshold must be a number or None, got {threshold!r}")
        self.seeds = seeds_for(pool["seed"], num_envs)
        given = {k: kwargs[k] for k in env_options if k in kwargs}
        if t.encode is not None:
            given = t.encode(given)
        inf = inf_options(t.env_type)
        env_config = {
            k: coerce(k, given[k], env_options[k], k in inf) if k in given else env_options[k] for k in env_options
        }
        # The render size and camera reach the envs too (size 0: the env's own): pixel observations use them.
        for key in ("render_width", "render_height"):
            if pool[key] is not None:
                check_int(key, pool[key], 1, 16384)
            env_config.setdefault(key, 0 if pool[key] is None else int(pool[key]))
        env_config.setdefault("render_camera_id", check_int("render_camera_id", pool["render_camera_id"], -1))
        # Whether frames will be drawn: an env whose library draws them only if asked (Procgen's render_human)
        # reads it, and LunarLander then adds gymnasium's flame particles to its world.
        env_config.setdefault("_render", pool["render_mode"] is not None or bool(env_config.get("from_pixels")))
        if t.prepare is not None:
            env_config.update(t.prepare(env_config))
        self.env_config = env_config
        if pool["max_episode_steps"] is not None:
            max_steps = int(pool["max_episode_steps"])
            if t.max_episode_steps_cap is not None and max_steps > t.max_episode_steps_cap:
                raise ValueError(
                    f"max_episode_steps must be at most {t.max_episode_steps_cap} for {task_id} (its library ends "
                    f"every episode after that many steps), got {max_steps}"
                )
        elif t.episode_steps is not None:
            max_steps = t.episode_steps(env_config)
        else:
            max_steps = t.max_episode_steps
        self.config: dict[str, Any] = {
            **{k: v for k, v in env_config.items() if not k.startswith("_")},
            "num_envs": num_envs,
            "batch_size": batch_size,
            "num_threads": num_threads,
            "seed": pool["seed"],
            "max_episode_steps": max_steps,
            "autoreset_mode": mode,
            "thread_affinity_offset": int(offset),
            "max_num_players": 1,
            "gym_reset_return_info": bool(pool["gym_reset_return_info"]),
            "reward_threshold": t.reward_threshold if pool["reward_threshold"] is None else pool["reward_threshold"],
        }
        self.arrays = Arrays.from_core(_core.env_spec(t.env_type, env_config))
        """The arrays the task's env writes (observation, action, info), typed; every API face reads these."""
        # EnvPool's option: the players of an env, all of which rlpool steps (it has no subsets of them).
        players = self.arrays.agents
        if pool["max_num_players"] not in (None, players) or isinstance(pool["max_num_players"], bool):
            raise ValueError(
                f"max_num_players must be {players} for {task_id} (its number of players), "
                f"got {pool['max_num_players']!r}"
            )
        self.config["max_num_players"] = players
        self.config.update(self._render_options(pool, num_envs))

    def _render_options(self, pool: dict[str, Any], num_envs: int) -> dict[str, Any]:
        """The render options checked, with the render size resolved (None: the env's own)."""
        mode = pool["render_mode"]
        if mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES}, got {mode!r}")
        native = self.arrays.render_size
        if mode is not None and native == (0, 0):
            raise ValueError(f"{self.id} does not render: render_mode must be None, got {mode!r}")
        env_id = pool["render_env_id"]
        ids = env_id_list("render_env_id", env_id, num_envs)
        if not ids:
            raise ValueError("render_env_id selects no env")
        camera = check_int("render_camera_id", pool["render_camera_id"], -1)
        cameras = self.arrays.render_cameras
        if camera >= cameras and (mode is not None or self.env_config.get("from_pixels")):
            raise ValueError(
                f"render_camera_id {camera} is out of range: {self.id} has {cameras} camera(s) (ids 0.."
                f"{cameras - 1}), and -1 is its default view"
            )
        width = native[0] if pool["render_width"] is None else int(pool["render_width"])
        height = native[1] if pool["render_height"] is None else int(pool["render_height"])
        return {
            "render_mode": mode,
            "render_env_id": env_id if isinstance(env_id, (int, np.integer)) else tuple(ids),
            "render_width": width,
            "render_height": height,
            "render_camera_id": camera,
        }

    @cached_property
    def task_methods(self) -> dict[str, Callable[..., Any]]:
        """The task's functions by name (its ``task_methods`` at registration), built once from ``env_config``.

        The faces offer them as methods of the env (``envs.compute_reward(...)``, ``call``, ``get_attr``,
        SB3's ``env_method``); each works on whole batches. Empty when the task has none.
        """
        factory = self.task.task_methods
        if factory is None:
            return {}
        methods = factory(dict(self.env_config))
        if not isinstance(methods, dict):
            raise TypeError(f"{self.id}: task_methods must return a dict of name -> function, got {methods!r}")
        for name, function in methods.items():
            if not isinstance(name, str) or not name.isidentifier() or name.startswith("_"):
                raise ValueError(f"{self.id}: task method name {name!r} must be an identifier not starting with '_'")
            if not callable(function):
                raise TypeError(f"{self.id}: task method {name!r} must be callable, got {function!r}")
        return dict(methods)

    @property
    def reward_threshold(self) -> float | None:
        """The return at which the task counts as solved (gymnasium's value)."""
        return self.config["reward_threshold"]

    @property
    def max_episode_steps(self) -> int:
        """Steps after which an episode is truncated."""
        return self.config["max_episode_steps"]

    @property
    def observation_space(self) -> Any:
        """Single-env gymnasium observation space."""
        from rlpool.api.spaces import observation_space

        return observation_space(self.arrays)

    @property
    def action_space(self) -> Any:
        """Single-env gymnasium action space."""
        from rlpool.api.spaces import action_space

        return action_space(self.arrays)

    def describe(self) -> str:
        """A readable description of the task: spaces, reward, episode end and every option with its doc."""
        from rlpool.tools.describe import describe

        return describe(self)

    def __repr__(self) -> str:
        return f"EnvSpec({self.id!r}, {self.config})"
