"""EnvPool's pools over rlpool's: ``GymnasiumEnvPool``, ``DMEnvPool`` and what both have (``EnvPool``).

They behave as EnvPool 1.2.5's pools do: the gymnasium pool's spaces are the single-env ones, ``reset()``
gives ``(obs, info)`` and ``step`` five arrays with float32 rewards; the dm pool gives ``TimeStep``
batches of ``State`` namedtuples; both take ``send``/``recv``/``async_reset``, dict actions, a sync
step of some envs, and give ``info`` in EnvPool's order. ``FrameStack`` is EnvPool's MuJoCo frame stacking.
"""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np

from rlpool.api.dm_steps import StepTypes
from rlpool.api.gymnasium import GymnasiumVectorEnv, unpack_final
from rlpool.api.pool_owner import PoolOwner
from rlpool.compat.envpool.players import AgentsAsOne, PlayerRows
from rlpool.compat.envpool.spec import EnvSpec
from rlpool.extras import install_hint

try:  # EnvPool's dm pools are dm_env.Environments; dm-env is an optional extra
    from dm_env import Environment as _DMEnvironment
except ImportError:  # pragma: no cover - only without the extra
    _DMEnvironment = object  # type: ignore[assignment,misc]


class FrameStack:
    """EnvPool's frame stacking of state observations: each env's last ``k`` observations, the newest last.

    A dict observation is stacked key by key. A reset row (``elapsed_step`` 0) fills all ``k`` frames with
    its observation, as EnvPool's does.
    """

    def __init__(self, k: int, num_envs: int, space: Any) -> None:
        from gymnasium import spaces

        def frames(s: Any) -> np.ndarray:
            return np.zeros((num_envs, k, *s.shape), s.dtype)

        self.frames: Any = ({key: frames(s) for key, s in space.spaces.items()}
                            if isinstance(space, spaces.Dict) else frames(space))

    def __call__(self, obs: Any, info: dict[str, Any]) -> Any:
        """The stacked frames of the batch's envs, with ``obs`` (rows in ``info["env_id"]``'s order) taken in."""
        ids = np.asarray(info["env_id"])
        first = np.asarray(info["elapsed_step"]) == 0
        if isinstance(self.frames, dict):
            return {key: _push(frames, obs[key], ids, first) for key, frames in self.frames.items()}
        return _push(self.frames, obs, ids, first)


def _push(frames: np.ndarray, obs: np.ndarray, ids: np.ndarray, first: np.ndarray) -> np.ndarray:
    """``obs`` taken into ``frames`` (per env, newest last; a first row fills every frame): ``frames[ids]``."""
    frames[ids[first]] = obs[first][:, None]
    going = ids[~first]
    if going.size:
        frames[going] = np.concatenate([frames[going, 1:], obs[~first][:, None]], axis=1)
    return frames[ids]


class EnvPool:
    """What every EnvPool pool has, whatever its API (EnvPool's ``envpool.EnvPool``): both faces derive from it.

    The engine's pool is set to EnvPool's conventions (``CONVENTIONS`` and ``info_keys``): float32
    rewards and EnvPool's info layout straight from the engine, a first ``step`` without ``reset``
    resets, float actions for a Discrete space are truncated to int, dict actions are taken
    (``step``/``send``), and a sync pool may step a subset of its envs (their rows come back, in
    ``env_id``'s order).
    """

    spec: EnvSpec
    config: dict[str, Any]
    _pool: Any

    def _init_envpool(self, spec: EnvSpec) -> None:
        self.spec = spec
        self.config = dict(spec.config_dict)
        self.all_env_ids = np.arange(spec.config.num_envs, dtype=np.int32)
        self.is_async = spec.config.batch_size != spec.config.num_envs
        self._layout = spec.layout
        self._info_keys = info_keys(list(spec.info_fields))
        for name, value in CONVENTIONS.items():
            setattr(self._pool, name, value)
        self._pool.info_keys = self._info_keys
        # EnvPool 1.2.7's multi-player layout (players.py): the engine gives rlpool's agent axis, re-laid out here.
        self._players = PlayerRows(spec) if spec.players else None
        if self._players is not None:
            if spec.config_dict["autoreset_mode"] == "SameStep":
                raise ValueError("EnvPool's multi-player layout has no SameStep autoreset: use autoreset_mode="
                                 "'NextStep' (EnvPool's), or rlpool.make_gymnasium for an agent axis")
            self._pool.info_keys = self._players.engine_info_keys
            self._pool.dict_action_keys = None  # EnvPool's multi-player dict actions: PlayerRows.action
        # A task whose agents EnvPool gives as one env (players.py): one reward and per-env flags.
        self._agents = AgentsAsOne(spec) if spec.layout.agents_as_one else None
        if self._agents is not None and spec.config_dict["autoreset_mode"] == "SameStep":
            raise ValueError(f"EnvPool's layout of {spec.id} has no SameStep autoreset: use autoreset_mode="
                             "'NextStep' (EnvPool's), or rlpool.make_gymnasium for an agent axis")
        self._cast_info = dict(spec.layout.info_dtypes)
        self._stack = (FrameStack(spec.frame_stack, spec.config.num_envs, spec.unstacked_observation_space)
                       if spec.frame_stack > 1 else None)

    def _obs(self, obs: Any, info: dict[str, Any]) -> Any:
        """Rlpool's observation batch as EnvPool gives it: the family's layout, padding, frame stacking."""
        obs = self._layout.obs(self.spec.pad(obs))
        if self._players is not None:
            return self._players.obs(obs)
        return obs if self._stack is None else self._stack(obs, info)

    def _envpool_info(self, info: dict[str, Any]) -> dict[str, Any]:
        """The engine's info (already in EnvPool's layout) with the entries EnvPool types otherwise cast."""
        if self._players is not None:
            return self._players.info(info)
        if self._agents is not None:
            info = self._agents.info(info)
        if not self._cast_info:
            return info
        return {k: v.astype(self._cast_info[k]) if k in self._cast_info else v for k, v in info.items()}

    def __len__(self) -> int:
        return self.config["num_envs"]

    def _action(self, action: Any, env_id: Any) -> tuple[Any, Any]:
        """EnvPool's action as the engine takes it (a multi-player task's player rows as its agent axis)."""
        return (action, env_id) if self._players is None else self._players.action(action, env_id)

    def send(self, action: Any, env_id: Any = None) -> None:
        """Queue the actions of the envs in ``env_id`` (default: all) and return at once."""
        self._pool.send(*self._action(action, env_id))

    def seed(self, seed: Any = None) -> None:
        """EnvPool's abandoned ``seed()``: warns and does nothing (seed with ``make(..., seed=)``)."""
        warnings.warn(
            "seed() does nothing, as in EnvPool: pass seed to make(..., seed=seed) or call reset(seed=...)",
            stacklevel=2,
        )

    def xla(self) -> Any:
        """EnvPool's ``xla()``: ``(handle, recv, send, step)`` for ``jax.jit`` (gymnasium pools; see ``rlpool.xla``).

        ``recv`` gives ``(handle, (obs, reward, terminated, truncated, info))`` with float32 rewards and
        EnvPool's info, as ``step`` does. Needs jax (rlpool's ``jax`` extra).
        """
        if not isinstance(self, GymnasiumVectorEnv):
            raise RuntimeError("rlpool's xla() serves the gymnasium pools (make_gymnasium / make_gym), not make_dm")
        layout = self.spec.layout
        if self._players is not None or self._agents is not None:
            form = "multi-player layout" if self._players is not None else "layout of its agents as one env"
            raise RuntimeError(f"rlpool's compat xla() does not give {self.spec.id}'s {form}; use "
                               "rlpool's own make_gymnasium(...).xla(), whose arrays have an agent axis")
        if not layout.xla_ok or self.spec.frame_stack > 1:
            raise RuntimeError(
                f"rlpool's compat xla() does not give {self.spec.id}'s EnvPool layout "
                f"({'frame_stack' if self.spec.frame_stack > 1 else type(layout).__name__}); "
                "use rlpool's own make_gymnasium(...).xla(), whose arrays are rlpool's"
            )
        from rlpool.xla import make_xla

        def convert(obs: Any, reward: Any, terminated: Any, truncated: Any, info: dict[str, Any]) -> Any:
            out = self._envpool_info(arrange_info(info, self._info_keys))
            return layout.obs(self.spec.pad(obs)), reward.astype(np.float32), terminated, truncated, out

        return make_xla(self._pool, self.spec.rlpool_spec.arrays, convert)

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={v!r}" for k, v in self.config.items())
        return f"{type(self).__name__}({self.spec.id}, {body})"


def _pick(value: Any, ids: np.ndarray) -> Any:
    """Rows ``ids`` of every array in a (nested) result."""
    if isinstance(value, np.ndarray):
        return value[ids]
    if isinstance(value, dict):
        return {k: _pick(v, ids) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(_pick(v, ids) for v in value)
    return value


def info_keys(task_fields: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """EnvPool's info layout as the engine's ``info_keys``.

    ``env_id``, ``players.env_id``, the task's entries (``(key, field)`` pairs, in ``task_fields``' order),
    ``elapsed_step``.
    """
    return [("env_id", "env_id"), ("players.env_id", "env_id"), *task_fields, ("elapsed_step", "elapsed_step")]


def arrange_info(info: dict[str, Any], keys: list[tuple[str, str]]) -> dict[str, Any]:
    """Lay out an rlpool info (each field under its own name) as ``keys`` (``info_keys``) says."""
    out: dict[str, Any] = {}
    for path, field in keys:
        top, _, sub = path.partition(".")
        if sub:
            out.setdefault(top, {})[sub] = info[field]
        else:
            out[top] = info[field]
    out.update((k, v) for k, v in info.items() if k.startswith("_rlpool"))
    return out


def envpool_info(info: dict[str, Any]) -> dict[str, Any]:
    """Lay out an rlpool info as EnvPool's: ``env_id``, ``players``, the task's entries, ``elapsed_step``."""
    task = [(k, k) for k in info if k not in ("env_id", "elapsed_step") and not k.startswith("_rlpool")]
    return arrange_info(info, info_keys(task))


# EnvPool's conventions for the engine's pool (besides its info_keys, which depend on the task).
CONVENTIONS: dict[str, Any] = {
    "reward_dtype": "float32",
    "first_step_resets": True,
    "dict_action_keys": ("action", ["env_id", "players.env_id"]),
    "float_discrete_actions": True,
    "subset_steps": True,
}


def _rows(obs: Any, info: dict[str, Any], ids: np.ndarray) -> tuple[Any, dict[str, Any]]:
    """The rows ``ids`` of a sync batch (whose row i is env i)."""
    return _pick(obs, ids), _pick(info, ids)


class GymnasiumEnvPool(EnvPool, GymnasiumVectorEnv, gymnasium.Env):
    """EnvPool 1.x's gymnasium pool over an rlpool pool.

    A ``gymnasium.vector.VectorEnv`` and a ``gymnasium.Env`` (so ``gymnasium.Wrapper(pool)`` works) whose
    ``observation_space``/``action_space`` are the single-env spaces, as EnvPool's are.
    ``step(action, env_id=None)`` returns ``(obs, reward, terminated, truncated, info)`` with float32
    rewards and EnvPool's info; ``action`` may be EnvPool's dict (``{"env_id", "players.env_id", "action"}``).
    """

    def __init__(self, spec: EnvSpec) -> None:
        super().__init__(spec.rlpool_spec)
        self._init_envpool(spec)
        self.single_observation_space = spec.gymnasium_observation_space
        self.observation_space = self.single_observation_space
        # One player's for a multi-player task, as EnvPool 1.2.7's; the family layout's form (a box) elsewhere.
        self.single_action_space = spec.gymnasium_action_space
        self.action_space = self.single_action_space
        self.is_vector_env = True
        # The fast path: the engine's result is EnvPool's as it is, so its step() is this pool's.
        self._plain = (spec.layout.plain and not self._same_step and not spec.zero_keys and not self._cast_info
                       and self._stack is None and self._players is None and self._agents is None)
        if self._plain and type(self).step is GymnasiumEnvPool.step:
            self.step = self._pool.step  # type: ignore[method-assign]

    def reset(
        self, env_id: Any = None, *, seed: Any = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset every env, or those in ``env_id`` / ``options["reset_mask"]``; returns ``(obs, info)``.

        As EnvPool's, a partial reset returns the rows of the reset envs only.
        """
        if env_id is None:
            obs, info = super().reset(seed=seed, options=options)
            mask = (options or {}).get("reset_mask")
            if mask is not None:
                obs, info = _rows(obs, info, np.flatnonzero(mask))
        else:
            if options is not None or seed is not None:
                raise ValueError("pass either env_id, or seed/options['reset_mask'], not both")
            obs, info = self._pool.reset(env_id)
            if not self.is_async:  # sync rlpool returns every env's row; rows are in env-id order
                obs, info = _rows(obs, info, np.asarray(env_id).reshape(-1))
        return self._obs(obs, info), self._envpool_info(info)

    def step(self, action: Any, env_id: Any = None) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every env, or only ``env_id``'s (sync: their rows come back; async: send, then the next batch).

        A first step before any ``reset()`` resets, as EnvPool's does.
        """
        return self._to(self._pool.step(*self._action(action, env_id)))

    def recv(self, reset: bool = False, return_info: bool = True) -> Any:
        """Wait for the next batch; ``reset=True`` returns ``(obs, info)`` as EnvPool's does."""
        result = self._to(self._pool.recv())
        return (result[0], result[4]) if reset else result

    def _to(self, result: tuple) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if self._plain:
            return result
        if self._same_step:
            unpack_final(result)
        if self._players is not None:
            return self._players.step((self._layout.obs(result[0]), *result[1:]))
        obs, reward, terminated, truncated, info = result
        if self._agents is not None:
            reward, terminated, truncated, info = self._agents.step(reward, terminated, truncated, info)
        return self._obs(obs, info), reward, terminated, truncated, self._envpool_info(info)


class DMEnvPool(EnvPool, PoolOwner, _DMEnvironment):
    """EnvPool 1.x's dm_env pool over an rlpool pool: ``TimeStep`` batches.

    ``step_type`` is FIRST after a reset (including the autoreset step), LAST when an
    episode ends, else MID; ``discount`` is 0 on termination and 1 otherwise (truncation
    included), or 0 where the env sets its own (Atari's ``zero_discount_on_life_loss``);
    ``observation`` is a ``State`` namedtuple as ``observation_spec()`` describes.
    """

    def __init__(self, spec: EnvSpec) -> None:
        try:
            import dm_env
        except ImportError as e:  # pragma: no cover - only without the extra
            raise ImportError(f"make_dm needs dm-env: {install_hint('dm', 'dm-env>=1.6')}") from e
        if spec.config_dict["autoreset_mode"] != "NextStep":
            raise ValueError("the dm_env API needs autoreset_mode='NextStep' (EnvPool's), "
                             f"got {spec.config_dict['autoreset_mode']!r}")
        self._dm_env = dm_env
        self._init_pool(spec.rlpool_spec, export_discount=True)
        self._init_envpool(spec)
        self._step_types = StepTypes(self.num_envs)
        self._obs_spec = spec.observation_spec()
        self._State = type(self._obs_spec)
        self._Players = type(self._obs_spec.players)

    def reset(self, env_id: Any = None) -> Any:
        """Reset every env (or only ``env_id``'s rows); every row is FIRST with reward 0 and discount 1."""
        obs, info = self._pool.reset(env_id)
        info.pop("_rlpool_discount", None)
        self._step_types.reset(env_id)
        if env_id is not None and not self.is_async:
            obs, info = _rows(obs, info, np.asarray(env_id).reshape(-1))
        n = info["env_id"].shape[0]
        rows = n * max(self.spec.players, 1)  # a multi-player task's reward and discount: one per player
        return self._dm_env.TimeStep(
            step_type=np.zeros(n, dtype=np.int32),
            reward=np.zeros(rows, dtype=np.float32),
            discount=np.ones(rows, dtype=np.float32),
            observation=self._state(obs, info),
        )

    def step(self, action: Any, env_id: Any = None) -> Any:
        """Step every env, or only ``env_id``'s (sync: their rows come back; async: send, then the next batch).

        ``action`` may be EnvPool's dict; a first step before any ``reset()`` resets (FIRST rows).
        """
        return self._timestep(self._pool.step(*self._action(action, env_id)))

    def recv(self, reset: bool = False, return_info: bool = True) -> Any:
        """Wait for the next ``batch_size`` results."""
        return self._timestep(self._pool.recv())

    def observation_spec(self) -> Any:
        """Per-env specs of the ``State`` namedtuple."""
        return self._obs_spec

    def action_spec(self) -> Any:
        """Per-env action spec (int32 ``DiscreteArray`` or a ``BoundedArray`` of the task's dtype)."""
        return self.spec.action_spec()

    def reward_spec(self) -> Any:
        """Per-env reward spec: float32, as the rewards are."""
        return self._dm_env.specs.Array((), np.float32, name="reward")

    def discount_spec(self) -> Any:
        """Per-env discount spec: float32 in [0, 1]."""
        return self._dm_env.specs.BoundedArray((), np.float32, 0.0, 1.0, name="discount")

    def close(self) -> None:
        """Stop the worker threads; calling it again does nothing."""
        self._close_pool()

    def __enter__(self) -> DMEnvPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _state(self, obs: Any, info: dict[str, Any]) -> Any:
        if self._players is not None:
            return self._player_state(obs, info)
        env_id = info["env_id"]
        obs = self._obs(obs, info)
        if self._agents is not None:
            info = self._agents.info(info)
        if isinstance(obs, dict):
            entries = self.spec.dm_obs_entries(obs)
        elif isinstance(obs, tuple):
            entries = list(obs)
        else:
            entries = [obs]
        dtypes = self.spec.layout.info_dtypes
        return self._State(env_id, self._Players(env_id), *entries,
                           *[info[k].astype(dtypes[k]) if k in dtypes else info[k] for k in self.spec.info_keys])

    def _player_state(self, obs: Any, info: dict[str, Any]) -> Any:
        """A multi-player ``State``: ``env_id``, ``players`` and the observation and per-env entries.

        ``players`` holds ``env_id`` per row and the per-player entries (and the observation where the layout
        puts it there).
        """
        obs = self._obs(obs, info)
        out = self._envpool_info(info)
        players = out["players"]
        entries: dict[str, Any] = {}
        if isinstance(obs, dict):
            entries.update(zip(self.spec.dm_obs_fields, self.spec.dm_obs_entries(obs), strict=True))
        elif "obs" in self._State._fields:
            entries["obs"] = obs
        else:
            players = {**players, self.spec.layout.player_obs_key.removeprefix("players."): obs}
        fields = self._State._fields
        values = {"env_id": out["env_id"], "players": self._Players(**{k: players[k] for k in self._Players._fields}),
                  **entries}
        return self._State(*[values[k] if k in values else out[k] for k in fields])

    def _timestep(self, result: tuple) -> Any:
        obs, reward, terminated, truncated, info = result
        if self._agents is not None:
            reward, terminated, truncated, info = self._agents.step(reward, terminated, truncated, info)
        step_type, discount = self._step_types(terminated, truncated, info)
        if self._players is not None:  # each player's own discount (0 once it terminated), one row per player
            reward, discount = reward.reshape(-1), discount.reshape(-1)
        return self._dm_env.TimeStep(step_type, reward.astype(np.float32), discount, self._state(obs, info))
