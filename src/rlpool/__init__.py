"""rlpool: batches of RL environments stepped in parallel by a C++ thread pool.

``make(task_id, env_type="gymnasium", num_envs=..., ...)`` builds a pool; see
``list_all_envs()`` for task ids and ``make_spec(task_id).config`` for options.
"""

from __future__ import annotations

from typing import Any

import rlpool.envs  # noqa: F401  (registers every task id)
from rlpool.api.gymnasium_ids import register_all_with_gymnasium
from rlpool.registry import list_all_envs, register
from rlpool.spec import EnvSpec

__version__ = "0.1.0"
__all__ = [
    "EnvSpec",
    "list_all_envs",
    "make",
    "make_dm",
    "make_gym",
    "make_gymnasium",
    "make_pettingzoo",
    "make_spec",
    "register",
]

_ENV_TYPES = ("gymnasium", "gym", "dm")


def make_spec(task_id: str, **kwargs: Any) -> EnvSpec:
    """Resolve ``task_id`` and options into an ``EnvSpec`` (``.config``, spaces) without building envs."""
    return EnvSpec(task_id, **kwargs)


def make(task_id: str, env_type: str = "gymnasium", **kwargs: Any) -> Any:
    """Build a pool of ``task_id`` envs with the ``env_type`` API ("gymnasium", "gym" or "dm").

    Options use EnvPool's names: ``num_envs``, ``batch_size`` (< num_envs for
    async mode), ``num_threads``, ``seed``, ``max_episode_steps``,
    ``autoreset_mode`` ("NextStep", "SameStep", "Disabled"),
    ``thread_affinity_offset``, ``render_mode`` (None, "rgb_array", "human") with
    ``render_width``/``render_height``/``render_env_id``/``render_camera_id``,
    plus the task's own options.
    """
    if env_type == "gymnasium":
        return make_gymnasium(task_id, **kwargs)
    if env_type == "gym":
        return make_gym(task_id, **kwargs)
    if env_type == "dm":
        return make_dm(task_id, **kwargs)
    raise ValueError(f"env_type must be one of {_ENV_TYPES}, got {env_type!r}")


def make_gymnasium(task_id: str, **kwargs: Any) -> Any:
    """A ``gymnasium.vector.VectorEnv`` over a pool of ``task_id`` envs."""
    from rlpool.api.gymnasium import GymnasiumVectorEnv

    return GymnasiumVectorEnv(make_spec(task_id, **kwargs))


def make_pettingzoo(task_id: str, **kwargs: Any) -> Any:
    """One env of a multi-agent task as PettingZoo's ``AECEnv`` (turn-based) or ``ParallelEnv``.

    Needs pettingzoo (rlpool's ``pettingzoo`` extra); see ``rlpool.api.pettingzoo``.
    """
    from rlpool.api.pettingzoo import make_pettingzoo as make_face

    return make_face(task_id, **kwargs)


def make_gym(task_id: str, **kwargs: Any) -> Any:
    """A pool with the gym-style ``(obs, reward, done, info)`` step."""
    from rlpool.api.gym import GymEnv

    return GymEnv(make_spec(task_id, **kwargs))


def make_dm(task_id: str, **kwargs: Any) -> Any:
    """A ``dm_env.Environment`` over a pool of ``task_id`` envs (needs dm-env: rlpool's ``dm`` extra)."""
    from rlpool.api.dm import DmEnv

    return DmEnv(make_spec(task_id, **kwargs))


register_all_with_gymnasium()
