"""The dm_env face of a pool: batched ``dm_env.TimeStep``s."""

from __future__ import annotations

from collections import OrderedDict, namedtuple
from typing import Any

import numpy as np

from rlpool.api.dm_steps import StepTypes
from rlpool.api.pool_owner import PoolOwner
from rlpool.api.spaces import action_space
from rlpool.arrays import Arrays, ArraySpec, field_name
from rlpool.extras import install_hint
from rlpool.spec import EnvSpec

try:
    import dm_env
    from dm_env import specs
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(f"make_dm needs dm-env: {install_hint('dm', 'dm-env>=1.6')}") from e


class DmEnv(PoolOwner, dm_env.Environment):
    """A pool as a dm_env ``Environment`` whose TimeSteps hold one row per env.

    ``step_type`` is FIRST after a reset, LAST when an episode ends, else MID;
    ``discount`` is 0 on termination and 1 otherwise (truncation included), or 0 where
    the env sets its own (Atari's ``zero_discount_on_life_loss``).
    ``observation`` is a namedtuple of the observation entries plus the info
    entries (``env_id``, ``elapsed_step``, ...), as EnvPool's dm API does; a dict
    observation's nested dict (entries named ``"outer.inner"``) is one field, an
    ``OrderedDict`` of its entries. A name that is no Python identifier is a field with its other
    characters as ``_`` (``Achievements/collect_wood`` -> ``Achievements_collect_wood``).
    """

    def __init__(self, spec: EnvSpec) -> None:
        self._init_pool(spec, export_discount=True)
        self._step_types = StepTypes(spec.config["num_envs"], np.float64)
        arrays = spec.arrays
        self._obs_kind = arrays.obs_kind
        self._nested = arrays.nested_obs
        self._obs_names = list(arrays.obs_tree) if arrays.obs_kind == "dict" else list(arrays.obs_names)
        self._fields = self._obs_names + ["env_id", "elapsed_step", *arrays.info_names]
        self._Observation = namedtuple("Observation", [field_name(k) for k in self._fields])  # type: ignore[misc]

    def reset(self, env_id: Any = None) -> dm_env.TimeStep:
        """Reset all envs (or ``env_id``); every row is FIRST."""
        obs, info = self._pool.reset(env_id)
        info.pop("_rlpool_discount", None)
        self._step_types.reset(env_id)
        n = info["env_id"].shape[0]
        return dm_env.TimeStep(
            step_type=np.full(n, dm_env.StepType.FIRST, dtype=np.int32),
            reward=np.zeros(n, dtype=np.float64),
            discount=np.ones(n, dtype=np.float64),
            observation=self._observation(obs, info),
        )

    def step(self, action: Any, env_id: Any = None) -> dm_env.TimeStep:
        """Step the envs (all, or ``env_id`` in async mode: ``observation.env_id`` of the last result)."""
        try:
            result = self._pool.step(action, env_id)
        except ValueError as e:
            clearer = self._async_step_error(e, env_id, "timestep.observation.env_id")
            if clearer is None:
                raise
            raise clearer from None
        return self._timestep(result)

    def recv(self) -> dm_env.TimeStep:
        """Wait for the next ``batch_size`` results."""
        return self._timestep(self._pool.recv())

    def observation_spec(self) -> Any:
        """Per-env specs of the observation namedtuple's fields."""
        arrays = self.spec.arrays
        if arrays.obs_kind == "dict":
            entries = {k: OrderedDict((n, dm_spec(a)) for n, a in v.items()) if isinstance(v, dict) else dm_spec(v)
                       for k, v in arrays.obs_tree.items()}
        else:
            entries = {a.name: dm_spec(a) for a in arrays.obs}
        entries["env_id"] = specs.Array((), np.int32, name="env_id")
        entries["elapsed_step"] = specs.Array((), np.int32, name="elapsed_step")
        for a in arrays.shown_info:
            entries[a.name] = dm_spec(a)
        return self._Observation(*(entries[k] for k in self._fields))

    def action_spec(self) -> specs.Array:
        """Per-env action spec: int64 DiscreteArray, or a BoundedArray of the task's dtype."""
        return dm_action_spec(self.spec.arrays, np.int64)

    def reward_spec(self) -> specs.Array:
        """Per-env reward spec (one per agent for a multi-agent task)."""
        return specs.Array(self._agent_shape(), np.float64, name="reward")

    def discount_spec(self) -> specs.BoundedArray:
        """Per-env discount spec: float64, as dm_env's and dm_control's (one per agent for a multi-agent task)."""
        return specs.BoundedArray(self._agent_shape(), np.float64, 0.0, 1.0, name="discount")

    def _agent_shape(self) -> tuple[int, ...]:
        agents = self.spec.arrays.num_agents
        return (agents,) if agents else ()

    def close(self) -> None:
        """Stop the worker threads; calling it again does nothing."""
        self._close_pool()

    def _observation(self, obs: Any, info: dict[str, Any]) -> Any:
        if self._nested:
            values = {k: OrderedDict(v) if isinstance(v, dict) else v for k, v in obs.items()}
        elif self._obs_kind == "dict":
            values = dict(obs)
        elif self._obs_kind == "tuple":
            values = dict(zip(self._obs_names, obs, strict=True))
        else:
            values = {self._obs_names[0]: obs}
        for name in self._fields[len(self._obs_names):]:
            values[name] = info[name]
        return self._Observation(*(values[k] for k in self._fields))

    def _timestep(self, result: tuple) -> dm_env.TimeStep:
        obs, reward, terminated, truncated, info = result
        info.pop("_rlpool_final", None)
        step_type, discount = self._step_types(terminated, truncated, info)
        return dm_env.TimeStep(step_type, reward, discount, self._observation(obs, info))


def dm_spec(a: ArraySpec) -> specs.Array:
    """One array's dm_env spec: a BoundedArray when it declares bounds (and is not bool), else an Array."""
    if a.bounded and a.dtype != np.bool_:
        return specs.BoundedArray(a.shape, a.dtype, a.low.astype(a.dtype), a.high.astype(a.dtype), name=a.name)
    return specs.Array(a.shape, a.dtype, name=a.name)


def dm_action_spec(arrays: Arrays, discrete_dtype: Any) -> specs.Array:
    """The action's dm_env spec: a ``discrete_dtype`` DiscreteArray, or a BoundedArray of the task's dtype.

    The bounds are those of the gymnasium action space (``rlpool.api.spaces.action_space``).
    """
    if arrays.discrete_action and arrays.action.shape and not arrays.num_agents:
        # Several choices in one action (gymnasium's MultiDiscrete): a BoundedArray of their ranges.
        nvec = arrays.action_nvec
        return specs.BoundedArray(nvec.shape, discrete_dtype, np.zeros(nvec.shape, discrete_dtype),
                                  (nvec - 1).astype(discrete_dtype), name="action")
    if arrays.discrete_action:
        return specs.DiscreteArray(arrays.num_actions, dtype=discrete_dtype, name="action")
    space = action_space(arrays)
    return specs.BoundedArray(space.shape, space.dtype, space.low, space.high, name="action")
