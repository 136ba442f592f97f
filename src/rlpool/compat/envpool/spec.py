"""EnvPool's specs: ``EnvSpec`` (``make_spec``'s result, a pool's ``spec``) and its ``ArraySpec``.

They follow EnvPool 1.2.5's: ``config`` a namedtuple of EnvPool's keys, the single-env gymnasium spaces,
``action_array_spec``/``state_array_spec`` with EnvPool's dtypes and bounds (C++ ``numeric_limits`` for
unbounded entries, a leading -1 for per-player ones), and the dm_env specs of the ``State`` namedtuple.
A family's ``FamilyLayout`` says where its tasks look otherwise through EnvPool.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from rlpool.arrays import field_name
from rlpool.compat.envpool.layouts import DEFAULT_LAYOUT, FamilyLayout
from rlpool.compat.envpool.players import one_player_space
from rlpool.spec import EnvSpec as RlpoolEnvSpec


@cache
def _namedtuple(name: str, fields: tuple[str, ...]) -> Any:
    return namedtuple(name, fields)  # type: ignore[misc]


class ArraySpec:
    """EnvPool's ``ArraySpec``: ``shape`` (a list; a leading -1 is a per-player entry), ``dtype``, bounds.

    ``minimum``/``maximum`` are scalars where every element shares them (as EnvPool's are), else arrays.
    """

    def __init__(self, dtype: Any, shape: Sequence[int], minimum: Any, maximum: Any) -> None:
        self.dtype = np.dtype(dtype)
        self.shape = list(shape)
        self.minimum = minimum
        self.maximum = maximum

    @classmethod
    def of(cls, a: Any, info: bool = False) -> ArraySpec:
        """From an rlpool array spec, as EnvPool declares it.

        An info entry without bounds gets EnvPool's (its dtype's C++ ``numeric_limits``) and a scalar
        info entry the per-player shape ``[-1]``; an observation without bounds is (-inf, inf).
        """
        if a.bounded:
            low, high = _scalar_if_uniform(a.low.astype(a.dtype)), _scalar_if_uniform(a.high.astype(a.dtype))
        elif info or not np.issubdtype(a.dtype, np.floating):
            low, high = _limits(a.dtype)
        else:
            low, high = _scalar_if_uniform(a.low), _scalar_if_uniform(a.high)
        shape = [-1] if info and a.shape == () else list(a.shape)
        return cls(a.dtype, shape, low, high)

    def __repr__(self) -> str:
        return f"ArraySpec(shape={self.shape}, dtype={self.dtype}, minimum={self.minimum}, maximum={self.maximum})"


def _scalar_if_uniform(values: np.ndarray) -> Any:
    flat = values.reshape(-1)
    return flat[0].item() if flat.size and (flat == flat[0]).all() else values


def _limits(dtype: Any) -> tuple[Any, Any]:
    """EnvPool's bounds of an unbounded entry: C++'s numeric_limits min/max (the smallest positive float)."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return False, True
    if np.issubdtype(dtype, np.integer):
        return int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)
    return float(np.finfo(dtype).tiny), float(np.finfo(dtype).max)


def _nested_tuple(name: str, entries: dict[str, Any]) -> Any:
    """A nested dict's entries as EnvPool's dm face nests them: a namedtuple ``name`` of them, in order."""
    return _namedtuple(field_name(name), tuple(field_name(k) for k in entries))(*entries.values())


def _dm_spec(name: str, a: ArraySpec) -> Any:
    """An ``ArraySpec`` as EnvPool's dm spec: a DiscreteArray for a scalar integer in [0, k), else BoundedArray."""
    from dm_env import specs

    shape = tuple(n for n in a.shape if n != -1)
    discrete = (shape == () and np.issubdtype(a.dtype, np.integer) and np.ndim(a.minimum) == 0
                and a.minimum == 0 and a.maximum < 2**31 - 1)
    if discrete:
        return specs.DiscreteArray(int(a.maximum) + 1, dtype=a.dtype, name=name)
    return specs.BoundedArray(shape, a.dtype, a.minimum, a.maximum, name=name)


class EnvSpec:
    """EnvPool's ``EnvSpec``: ``config`` (a namedtuple), the single-env spaces and dm specs."""

    def __init__(
        self, task_id: str, rlpool_spec: RlpoolEnvSpec, config: dict[str, Any], layout: FamilyLayout | None = None
    ) -> None:
        self.id = task_id
        self.layout = layout or DEFAULT_LAYOUT
        """How the family's results look through EnvPool (``FamilyLayout``)."""
        self.rlpool_spec = rlpool_spec
        self.config_dict = config
        self.config = _namedtuple("Config", tuple(config))(**config)
        own = rlpool_spec.arrays.obs_names
        keys = self.layout.obs_keys(rlpool_spec)
        self.obs_keys: tuple[str, ...] = tuple(k for k, _ in keys) or tuple(own)
        """The observation keys EnvPool gives (for a dict observation)."""
        self.zero_keys: dict[str, tuple[int, ...]] = {k: shape for k, shape in keys if k not in own}
        """Keys EnvPool has that the task does not fill (a DeepMind Control domain's other tasks'): zeros."""
        self._obs_fields: dict[str, bool] = {}  # a dict observation's top keys -> whether it is a nested dict
        for key in self.obs_keys:
            outer, nested, _ = key.partition(".")
            self._obs_fields[outer] = bool(nested)
        self.frame_stack = 1
        """EnvPool's ``frame_stack`` of states: each observation (key) of shape ``(frame_stack, *obs)``, newest last."""

    def pad(self, obs: Any) -> Any:
        """A dict observation batch with EnvPool's keys: the task's own, and zeros for ``zero_keys``."""
        if not self.zero_keys:
            return obs
        n = next(iter(obs.values())).shape[0]
        return {k: obs[k] if k in obs else np.zeros((n, *self.zero_keys[k])) for k in self.obs_keys}

    @property
    def reward_threshold(self) -> float | None:
        """The return at which the task counts as solved, or None (Atari's config has no such key)."""
        return getattr(self.config, "reward_threshold", None)

    @property
    def players(self) -> int:
        """Players per env in EnvPool 1.2.7's multi-player layout (rows ``[num_envs * players]``); 0: one row per env.

        A task whose agents act at once (rlpool's ``num_agents``, not ``turn_based``) has it, unless its family
        gives it as one env (``FamilyLayout.agents_as_one``).
        """
        arrays = self.rlpool_spec.arrays
        if self.layout.agents_as_one:
            return 0
        return arrays.num_agents if arrays.num_agents and not arrays.turn_based else 0

    @property
    def info_fields(self) -> tuple[tuple[str, str], ...]:
        """The task's info entries in EnvPool's order, each ``(EnvPool's key, rlpool's field)``.

        In the multi-player layout an entry with the agent axis first is a player's (``players.<key>``),
        and those come first, as EnvPool nests them in ``players`` right after ``env_id``.
        """
        renamed = self.layout.info_fields
        own = [k for k in self.rlpool_spec.arrays.info_names if k not in renamed.values()]
        every = {a.name: a for a in self.rlpool_spec.arrays.info}
        own += [k for k in renamed if renamed[k] in every]
        first = [k for k in self.layout.info_order if k in own]
        fields = [(k, renamed.get(k, k)) for k in (*first, *[k for k in own if k not in first])]
        if not self.players:
            return tuple(f for f in fields if not f[0].startswith("players."))
        player = [(k if k.startswith("players.") else f"players.{k}", f) for k, f in fields
                  if k.startswith("players.") or every[f].shape[:1] == (self.players,)]
        shared = [(k, f) for k, f in fields if not k.startswith("players.") and every[f].shape[:1] != (self.players,)]
        return tuple(player + shared)

    @property
    def info_keys(self) -> tuple[str, ...]:
        """The task's info entries in EnvPool's order (EnvPool's keys; the agents' rewards first, where given)."""
        rewards = (self.layout.agent_rewards_key,) if self.layout.agent_rewards_key else ()
        return (*rewards, *(k for k, _ in self.info_fields))

    @property
    def action_array_spec(self) -> dict[str, ArraySpec]:
        """EnvPool's action arrays: ``env_id``, ``players.env_id`` and ``action`` (a leading -1: per player).

        The multi-player layout's action is ``players.action``, one player's each.
        """
        i32 = _limits(np.int32)
        a = self.rlpool_spec.arrays.action
        if self.players:
            a = type(a)(a.name, a.dtype, a.shape[1:], a.low[0], a.high[0], a.bounded)
        arrays = self.rlpool_spec.arrays
        if arrays.discrete_action and a.shape and not self.players and not arrays.turn_based:
            # Several choices per action (a MultiDiscrete, or the agents' actions of an env): EnvPool's
            # integer box of their ranges (int32, or the layout's action space's dtype).
            from gymnasium import spaces

            space = self.gymnasium_action_space
            boxed = isinstance(space, spaces.Box) and np.issubdtype(space.dtype, np.integer)
            dtype = space.dtype if boxed else np.int32  # the layout's integer box, else EnvPool's int32
            high = _scalar_if_uniform((arrays.action_nvec - 1).astype(dtype))
            action = ArraySpec(dtype, [-1, *a.shape], 0, high)
        elif arrays.discrete_action:  # EnvPool's discrete actions are int32 (most families)
            n = arrays.num_actions
            dtype = self.layout.discrete_action_dtype
            low, high = (0.0, n - 1.0) if np.issubdtype(dtype, np.floating) else (0, n - 1)
            action = ArraySpec(dtype, [-1], low, high)
        else:
            space = self.gymnasium_action_space
            action = ArraySpec(a.dtype, [-1, *a.shape], _scalar_if_uniform(space.low), _scalar_if_uniform(space.high))
        return {"env_id": ArraySpec(np.int32, [], *i32), "players.env_id": ArraySpec(np.int32, [-1], *i32),
                self.action_key: action}

    @property
    def action_key(self) -> str:
        """The action's key in EnvPool's action arrays and dict actions: ``players.action`` for multi-player tasks."""
        return "players.action" if self.players else "action"

    @property
    def state_array_spec(self) -> dict[str, ArraySpec]:
        """EnvPool's state arrays: ids, ``elapsed_step``, ``done``, ``reward``, ..., ``obs``, ``info:`` entries."""
        i32 = _limits(np.int32)
        state = {
            "info:env_id": ArraySpec(np.int32, [], *i32),
            "info:players.env_id": ArraySpec(np.int32, [-1], *i32),
            "elapsed_step": ArraySpec(np.int32, [], *i32),
            "done": ArraySpec(np.bool_, [], False, True),
            "reward": ArraySpec(np.float32, [-1], *_limits(np.float32)),
            "discount": ArraySpec(np.float32, [-1], 0.0, 1.0),
            "step_type": ArraySpec(np.int32, [], *i32),
            "trunc": ArraySpec(np.bool_, [], False, True),
        }
        if self.players:
            return self._player_state(state)
        space = self.gymnasium_observation_space
        arrays = self.rlpool_spec.arrays
        from gymnasium import spaces

        if arrays.obs_kind == "array" or not isinstance(space, spaces.Dict):
            if arrays.obs_kind == "array" and type(self.layout).observation_space is FamilyLayout.observation_space:
                state["obs"] = ArraySpec.of(arrays.obs[0])
                if self.frame_stack > 1:
                    state["obs"].shape = [self.frame_stack, *state["obs"].shape]
            else:  # a layout gives one array: keyed by the entry's name where it is one entry of a dict
                key = f"obs:{arrays.obs[0].name}" if arrays.obs_kind == "dict" and len(arrays.obs) == 1 else "obs"
                state[key] = ArraySpec(space.dtype, list(space.shape), _scalar_if_uniform(space.low),
                                       _scalar_if_uniform(space.high))
        else:
            own = {a.name: a for a in arrays.obs}
            for key in self.obs_keys:
                # An entry of a nested dict ("outer.inner") is EnvPool's "obs:outer:inner".
                state[f"obs:{key.replace('.', ':')}"] = a = (
                    self.layout.obs_entry_spec(key, ArraySpec.of(own[key])) if key in own
                    else ArraySpec(np.float64, list(self.zero_keys[key]), -np.inf, np.inf))
                if self.frame_stack > 1:
                    a.shape = [self.frame_stack, *a.shape]
        info = {a.name: a for a in arrays.info}
        if self.layout.agent_rewards_key:
            state[f"info:{self.layout.agent_rewards_key}"] = ArraySpec(np.float32, [arrays.num_agents],
                                                                       *_limits(np.float32))
        for key, field in self.info_fields:
            state[f"info:{key}"] = a = ArraySpec.of(info[field], info=True)
            if key in self.layout.info_dtypes:
                a.dtype = np.dtype(self.layout.info_dtypes[key])
                a.minimum, a.maximum = a.dtype.type(a.minimum).item(), a.dtype.type(a.maximum).item()
            self._bound(key, a)
        return state

    def _bound(self, key: str, a: ArraySpec) -> None:
        """The layout's bounds of info entry ``key``, where it declares them."""
        bounds = self.layout.info_bounds.get(key)
        if bounds is not None:
            a.minimum, a.maximum = bounds(self.config_dict) if callable(bounds) else bounds

    def _player_state(self, state: dict[str, ArraySpec]) -> dict[str, ArraySpec]:
        """EnvPool 1.2.7's multi-player state arrays: one player's entries with a leading -1, ``terminated``.

        Each observation entry is ``obs`` (``obs:<key>`` of a dict), or ``obs:players.obs`` where the layout
        puts it under ``players``; then ``terminated`` where the layout has it, the player's index
        (``player_id_key``), the per-player info entries and the per-env ones.
        """
        arrays = self.rlpool_spec.arrays

        def one_player(a: Any, info: bool = False) -> ArraySpec:
            spec = ArraySpec.of(type(a)(a.name, a.dtype, a.shape[1:], a.low[0], a.high[0], a.bounded), info=info)
            spec.shape = [-1, *a.shape[1:]]
            return spec

        for a in arrays.obs:
            if arrays.obs_kind == "array":
                name = "obs" if self.layout.player_obs_key == "obs" else f"obs:{self.layout.player_obs_key}"
            else:
                name = f"obs:{a.name.replace('.', ':')}"
            state[name] = one_player(a)
        if self.layout.state_terminated:
            state["terminated"] = ArraySpec(np.bool_, [], False, True)
        if self.layout.player_id_key:
            state[f"info:{self.layout.player_id_key}"] = ArraySpec(np.int32, [-1], 0, self.config.max_num_players)
        info = {a.name: a for a in arrays.info}
        for key, field in self.info_fields:
            a = one_player(info[field], info=True) if key.startswith("players.") else ArraySpec.of(info[field], True)
            if key in self.layout.info_dtypes:
                a.dtype = np.dtype(self.layout.info_dtypes[key])
                a.minimum, a.maximum = a.dtype.type(a.minimum).item(), a.dtype.type(a.maximum).item()
            self._bound(key, a)
            state[f"info:{key}"] = a
        return state

    @property
    def observation_space(self) -> Any:
        """Single-env observation space: ``gymnasium_observation_space`` (the legacy layer's spec: gym's)."""
        return self.gymnasium_observation_space

    @property
    def action_space(self) -> Any:
        """Single-env action space: ``gymnasium_action_space`` (the legacy layer's spec: gym's)."""
        return self.gymnasium_action_space

    @property
    def gymnasium_observation_space(self) -> Any:
        """Single-env gymnasium observation space (``frame_stack`` frames of each state, newest last)."""
        space = self.unstacked_observation_space
        if self.frame_stack == 1:
            return space
        from gymnasium import spaces

        k = self.frame_stack

        def stacked(s: Any) -> Any:
            return spaces.Box(np.stack([s.low] * k), np.stack([s.high] * k), (k, *s.shape), s.dtype)

        if isinstance(space, spaces.Dict):
            return spaces.Dict({key: stacked(s) for key, s in space.spaces.items()})
        return stacked(space)

    @property
    def unstacked_observation_space(self) -> Any:
        """One frame's observation space (``zero_keys`` as unbounded float64 boxes; one player's if multi-player)."""
        space = self.layout.observation_space(self.rlpool_spec.observation_space)
        if self.players:
            return one_player_space(space)
        if not self.zero_keys:
            return space
        from collections import OrderedDict

        from gymnasium import spaces

        return spaces.Dict(OrderedDict(
            (k, space[k] if k in space.spaces else spaces.Box(-np.inf, np.inf, self.zero_keys[k], np.float64))
            for k in self.obs_keys
        ))

    @property
    def gymnasium_action_space(self) -> Any:
        """Single-env gymnasium action space (one player's, for a multi-player task)."""
        space = self.rlpool_spec.action_space
        return one_player_space(space) if self.players else self.layout.action_space(space)

    def observation_spec(self) -> Any:
        """dm_env specs of the ``State`` namedtuple: ``env_id``, ``players``, observation and info entries.

        A nested dict's entries (state keys ``obs:outer:inner``) are a namedtuple ``outer`` in it, as
        EnvPool nests them (names that are not identifiers with their other characters as ``_``).
        """
        state = self.state_array_spec
        env_id = _dm_spec("env_id", state.pop("info:env_id"))
        players: dict[str, Any] = {"env_id": env_id}  # a multi-player task's per-player entries join env_id
        fields: dict[str, Any] = {"env_id": env_id, "players": players}
        for key, a in state.items():
            if key.startswith(("obs", "info:")) and key != "info:players.env_id":
                name = key.split(":", 1)[-1]
                if name.startswith("players."):
                    players[name[len("players."):]] = _dm_spec(name[len("players."):], a)
                    continue
                outer, nested, inner = name.partition(":")
                if nested:
                    fields.setdefault(outer, {})[inner] = _dm_spec(inner, a)
                else:
                    fields[name] = _dm_spec(name, a)
        for name, value in fields.items():
            if isinstance(value, dict):
                fields[name] = _nested_tuple(name, value)
        return _namedtuple("State", tuple(fields))(**fields)

    @property
    def dm_obs_fields(self) -> tuple[str, ...]:
        """The ``State`` fields of a dict observation's top keys, in order."""
        return tuple(self._obs_fields)

    def dm_obs_entries(self, obs: dict[str, Any]) -> list[Any]:
        """A dict observation batch as the ``State``'s observation fields, in order (nested dicts as namedtuples)."""
        return [_nested_tuple(key, obs[key]) if nested else obs[key] for key, nested in self._obs_fields.items()]

    def action_spec(self) -> Any:
        """dm_env action spec: int32 ``DiscreteArray`` or a ``BoundedArray`` of the task's dtype, as EnvPool's."""
        arrays = self.rlpool_spec.arrays
        if arrays.discrete_action and arrays.action.shape and not self.players and not arrays.turn_based:
            return _dm_spec(self.action_key, self.action_array_spec[self.action_key])
        if arrays.discrete_action:  # int32 even where action_array_spec says float64 (ViZDoom)
            return _dm_spec(self.action_key, ArraySpec(np.int32, [-1], 0, self.rlpool_spec.arrays.num_actions - 1))
        return _dm_spec(self.action_key, self.action_array_spec[self.action_key])

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={v!r}" for k, v in self.config_dict.items())
        return f"EnvSpec({self.id!r}, {body})"
