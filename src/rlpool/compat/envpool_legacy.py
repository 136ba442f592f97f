"""The older EnvPool API (EnvPool run with gym < 0.26), for scripts written against it.

``import rlpool.compat.envpool_legacy as envpool`` and ``make(..., env_type="gym")``
gives a pool whose ``step`` returns ``(obs, reward, done, info)`` and whose ``reset()``
returns ``obs`` alone unless ``gym_reset_return_info=True`` (the old default was
False). ``done`` is ``terminated | truncated``; ``info["TimeLimit.truncated"]`` is true
when the time limit, not the task, ended the episode (gym's convention). This is the API
CleanRL's EnvPool scripts were written for. "gymnasium" and "dm" behave as in
``rlpool.compat.envpool``.

Where gym < 0.26 is installed (the gym those scripts ran with), the gym pool is also a
``gym.Env`` and its spaces are gym's (``gym.spaces.Discrete``, ``gym.spaces.Box``), so that
``gym.Wrapper(envs)`` and ``isinstance(envs.action_space, gym.spaces.Discrete)`` work as they
did on EnvPool; without it (or with a newer gym) they are gymnasium's.
"""

from __future__ import annotations

import importlib.util
import re
from typing import Any

import numpy as np

from rlpool.compat.envpool import (
    ENVPOOL_CONFIG_KEYS,
    DMEnvPool,
    EnvPool,
    EnvPoolError,
    EnvSpec,
    GymnasiumEnvPool,
    UnknownTaskError,
    list_all_envs,
    register,
    resolve_spec,
)

__all__ = [
    "ENVPOOL_CONFIG_KEYS",
    "EnvPool",
    "EnvPoolError",
    "GymEnvPool",
    "GymEnvSpec",
    "UnknownTaskError",
    "list_all_envs",
    "register",
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
    """Resolve options; ``gym_reset_return_info`` defaults to False, as it did.

    Where gym < 0.26 is installed, the spec's ``observation_space``/``action_space`` are gym's (as
    the gym pool's are, and as EnvPool's were with that gym); ``gymnasium_*`` stay gymnasium's.
    """
    spec = _resolve(task_id, kwargs)
    return GymEnvSpec.of(spec) if _GYM is not None else spec


def make_gym(task_id: str, **kwargs: Any) -> GymEnvPool:
    """The old gym pool: ``step`` returns ``(obs, reward, done, info)``."""
    return GymEnvPool(_resolve(task_id, kwargs))


def make_gymnasium(task_id: str, **kwargs: Any) -> GymnasiumEnvPool:
    """The gymnasium pool of ``rlpool.compat.envpool``."""
    kwargs.setdefault("gym_reset_return_info", True)
    return GymnasiumEnvPool(_resolve(task_id, kwargs))


def make_dm(task_id: str, **kwargs: Any) -> DMEnvPool:
    """The dm_env pool of ``rlpool.compat.envpool``."""
    return DMEnvPool(_resolve(task_id, kwargs))


def _resolve(task_id: str, kwargs: dict[str, Any]) -> EnvSpec:
    return resolve_spec(task_id, kwargs, return_info_default=False, allow_no_reset_info=True)


def _old_gym() -> Any:
    """The installed gym module if it is older than 0.26 (the API these scripts used), else None."""
    if importlib.util.find_spec("gym") is None:
        return None
    import gym

    version = tuple(int(n) for n in re.findall(r"\d+", gym.__version__)[:2])
    return gym if version < (0, 26) else None


_GYM = _old_gym()


def gym_space(space: Any) -> Any:
    """A gymnasium space as the old gym's (Discrete, Box, MultiDiscrete, MultiBinary, Tuple, Dict)."""
    from gymnasium import spaces

    old = _GYM.spaces
    if isinstance(space, spaces.Discrete):
        if space.start != 0:
            raise ValueError(f"gym < 0.26 has no Discrete with start={space.start}")
        return old.Discrete(int(space.n))
    if isinstance(space, spaces.Box):
        return old.Box(space.low, space.high, space.shape, space.dtype)
    if isinstance(space, spaces.MultiDiscrete):
        return old.MultiDiscrete(space.nvec)
    if isinstance(space, spaces.MultiBinary):
        return old.MultiBinary(space.n)
    if isinstance(space, spaces.Tuple):
        return old.Tuple(tuple(gym_space(s) for s in space.spaces))
    if isinstance(space, spaces.Dict):
        return old.Dict({k: gym_space(s) for k, s in space.spaces.items()})
    raise TypeError(f"no gym < 0.26 form of {space!r}")


class GymEnvSpec(EnvSpec):
    """An ``EnvSpec`` whose ``observation_space``/``action_space`` are the old gym's (gym < 0.26 installed).

    Code written for EnvPool with that gym converts ``spec.action_space`` as a gym space (TorchRL's
    ``MultiThreadedEnv`` does); the ``gymnasium_*`` spaces and everything else are the spec's.
    """

    @classmethod
    def of(cls, spec: EnvSpec) -> GymEnvSpec:
        """The same spec (its resolved options, layout and ``frame_stack``) with gym's spaces."""
        legacy = cls.__new__(cls)
        legacy.__dict__.update(vars(spec))
        return legacy

    @property
    def observation_space(self) -> Any:
        """The single-env observation space as gym's."""
        return gym_space(self.gymnasium_observation_space)

    @property
    def action_space(self) -> Any:
        """The single-env action space as gym's."""
        return gym_space(self.gymnasium_action_space)


class GymEnvPool(GymnasiumEnvPool, *((_GYM.Env,) if _GYM is not None else ())):  # type: ignore[misc]
    """EnvPool's gym pool as it was with gym < 0.26: 4-tuple ``step``, ``reset()`` without info by default.

    A ``gym.Env`` with gym's spaces where gym < 0.26 is installed.
    """

    def __init__(self, spec: EnvSpec) -> None:
        if spec.config_dict["autoreset_mode"] == "SameStep":
            raise ValueError("the old gym API has no final-observation entries; use autoreset_mode='NextStep'")
        super().__init__(spec)
        if _GYM is not None:
            self.spec = GymEnvSpec.of(spec)
            self.single_observation_space = gym_space(self.single_observation_space)
            self.single_action_space = gym_space(self.single_action_space)
            self.observation_space = self.single_observation_space
            self.action_space = self.single_action_space

    def reset(self, env_id: Any = None, **kwargs: Any) -> Any:
        """Reset every env (or ``env_id``); ``obs``, or ``(obs, info)`` with ``gym_reset_return_info=True``."""
        obs, info = super().reset(env_id, **kwargs)
        return (obs, info) if self.config["gym_reset_return_info"] else obs

    def step(self, action: Any, env_id: Any = None) -> tuple[Any, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step; returns ``(obs, reward, done, info)``."""
        return self._four(super().step(action, env_id))

    def recv(self, reset: bool = False, return_info: bool = True) -> Any:
        """Wait for the next batch; ``reset=True`` returns the reset result as ``reset()`` does."""
        result = self._four(super().recv())
        if reset:
            return (result[0], result[3]) if return_info else result[0]
        return result

    def xla(self) -> tuple[Any, Any, Any, Any]:
        """EnvPool's ``xla()`` as it was with gym < 0.26: ``(handle, recv, send, step)``.

        ``recv`` and ``step`` give ``(handle, (obs, reward, done, info))`` (CleanRL's
        ``ppo_atari_envpool_xla_jax_scan.py`` unpacks four); ``send`` is the modern one.
        """
        handle, recv, send, step = super().xla()

        def recv4(h: Any) -> tuple[Any, tuple]:
            h, result = recv(h)
            return h, self._four(result)

        def step4(h: Any, action: Any, env_id: Any = None) -> tuple[Any, tuple]:
            h, result = step(h, action, env_id)
            return h, self._four(result)

        return handle, recv4, send, step4

    def _four(self, result: tuple) -> tuple[Any, np.ndarray, np.ndarray, dict[str, Any]]:
        obs, reward, terminated, truncated, info = result
        out = dict(info)
        elapsed = out.pop("elapsed_step")
        out["TimeLimit.truncated"] = truncated & ~terminated
        out["elapsed_step"] = elapsed
        return obs, reward, terminated | truncated, out
