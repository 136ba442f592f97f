"""EnvPool 1.x's Python API over rlpool's pools: ``import rlpool.compat.envpool as envpool``.

``make``/``make_gym``/``make_gymnasium``/``make_dm``/``make_spec``/``list_all_envs``
take EnvPool's arguments and return objects that behave as EnvPool 1.2.5's do:

* ``env_type="gym"`` and ``"gymnasium"`` both give the gymnasium pool (EnvPool 1.x
  dropped the old gym API; for the 4-tuple ``step`` of EnvPool with gym < 0.26 see
  ``rlpool.compat.envpool_legacy``). Its ``observation_space``/``action_space`` are the
  single-env spaces (equal to ``single_*``), ``reset()`` returns ``(obs, info)``, ``step``
  returns ``(obs, reward, terminated, truncated, info)`` with float32 rewards.
* ``info`` holds ``env_id``, ``players`` (``{"env_id": ...}``), the task's own entries
  (e.g. ``lives``, ``reward``, ``terminated`` for Atari) and ``elapsed_step``, in that order.
* ``send``/``recv``/``async_reset``, ``config`` (a dict with EnvPool's keys), ``spec``
  (``spec.config.num_envs``, ``spec.observation_space``, ...), ``all_env_ids``,
  ``is_async``, ``len(envs)``.
* ``make_dm`` gives ``dm_env.TimeStep`` batches whose observation is a ``State``
  namedtuple (``env_id``, ``players``, observation entries, info entries).

Deliberate differences from EnvPool 1.2.5, each a fix: ``reset(seed=...)`` re-seeds
(EnvPool warns and ignores it); dm ``discount`` is 1 on truncation (EnvPool gives 0) and
``reward_spec``/``discount_spec`` say float32 as the data is (EnvPool says float64);
bad actions (float actions for a Discrete space, out-of-range values, wrong shapes) raise
instead of being cast or crashing; ``num_envs``/``single_*_space`` may be assigned, as
CleanRL's scripts do. Rendering is not supported; ``xla()`` serves the gymnasium pools.
"""

from __future__ import annotations

import os
import warnings
from collections import namedtuple
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

import rlpool
from rlpool import registry
from rlpool.dm_steps import StepTypes
from rlpool.gymnasium_env import GymnasiumVectorEnv, unpack_final
from rlpool.pool_owner import PoolOwner
from rlpool.registry import MAX_ENVS, check_int
from rlpool.registry import EnvSpec as RlpoolEnvSpec

__all__ = [
    "DMEnvPool",
    "EnvSpec",
    "GymnasiumEnvPool",
    "list_all_envs",
    "make",
    "make_dm",
    "make_gym",
    "make_gymnasium",
    "make_spec",
]

# The EnvPool API version this module follows (some scripts gate on it).
__version__ = "1.2.5"

# EnvPool's pool-level config keys, in EnvPool's order; the task's options follow them.
ENVPOOL_CONFIG_KEYS = (
    "num_envs",
    "batch_size",
    "num_threads",
    "max_num_players",
    "thread_affinity_offset",
    "base_path",
    "seed",
    "env_seed",
    "gym_reset_return_info",
    "max_episode_steps",
    "reward_threshold",
)
_ENV_TYPES = ("dm", "gym", "gymnasium")
_INT32 = 2**31
_BASE_PATH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_RENDER_OPTIONS = ("render_env_id", "render_width", "render_height", "render_camera_id")


def list_all_envs() -> list[str]:
    """All task ids rlpool can make (EnvPool's ``list_all_envs``)."""
    return rlpool.list_all_envs()


def make(task_id: str, env_type: str, **kwargs: Any) -> Any:
    """Build a pool as ``envpool.make`` does: ``env_type`` is "gym", "gymnasium" or "dm".

    EnvPool 1.x gives the gymnasium pool for both "gym" and "gymnasium".
    """
    if env_type in ("gym", "gymnasium"):
        return make_gymnasium(task_id, **kwargs)
    if env_type == "dm":
        return make_dm(task_id, **kwargs)
    raise ValueError(f"env_type should be one of {_ENV_TYPES}, got {env_type!r}")


def make_gymnasium(task_id: str, **kwargs: Any) -> GymnasiumEnvPool:
    """The gymnasium pool (``envpool.make_gymnasium``)."""
    return GymnasiumEnvPool(make_spec(task_id, **kwargs))


def make_gym(task_id: str, **kwargs: Any) -> GymnasiumEnvPool:
    """EnvPool 1.x's ``make_gym``: the same gymnasium pool as ``make_gymnasium``."""
    return make_gymnasium(task_id, **kwargs)


def make_dm(task_id: str, **kwargs: Any) -> DMEnvPool:
    """The dm_env pool (``envpool.make_dm``); needs ``dm-env``."""
    return DMEnvPool(make_spec(task_id, **kwargs))


def make_spec(task_id: str, **kwargs: Any) -> EnvSpec:
    """Resolve EnvPool-style options into an ``EnvSpec`` without building envs."""
    return resolve_spec(task_id, kwargs, return_info_default=True, allow_no_reset_info=False)


def resolve_spec(
    task_id: str, kwargs: dict[str, Any], *, return_info_default: bool, allow_no_reset_info: bool
) -> EnvSpec:
    """Translate EnvPool options (``seed``/``env_seed``, ``base_path``, ...) into rlpool's and build the spec."""
    opts = dict(kwargs)
    render_mode = opts.pop("render_mode", None)
    if render_mode is not None or opts.pop("from_pixels", False):
        raise ValueError("rendering (render_mode / from_pixels) is not supported by rlpool yet")
    for key in _RENDER_OPTIONS:
        if key in opts:
            raise ValueError(f"{key} is a rendering option; rendering is not supported by rlpool yet")
    base_path = opts.pop("base_path", _BASE_PATH)
    if not isinstance(base_path, str):
        raise TypeError(f"base_path must be a str, got {base_path!r}")
    num_envs = check_int("num_envs", opts.get("num_envs", 1), 1, MAX_ENVS)
    seed, env_seed, pool_seed = _resolve_seeds(opts.pop("seed", 42), opts.pop("env_seed", None), num_envs)
    return_info = opts.pop("gym_reset_return_info", return_info_default)
    if not isinstance(return_info, (bool, np.bool_)):
        raise TypeError(f"gym_reset_return_info must be a bool, got {return_info!r}")
    if not return_info and not allow_no_reset_info:
        raise ValueError(
            "EnvPool 1.x's reset() always returns (obs, info); gym_reset_return_info=False needs the old API "
            "in rlpool.compat.envpool_legacy"
        )
    num_threads = opts.get("num_threads", 0)
    if _is_atari(task_id):
        # EnvPool reads only the top 210 rows of the games with taller screens.
        opts.setdefault("crop_210", True)
    rl = RlpoolEnvSpec(task_id, seed=pool_seed, gym_reset_return_info=bool(return_info), **opts)
    c = rl.config
    config: dict[str, Any] = {
        "num_envs": c["num_envs"],
        "batch_size": c["batch_size"],
        "num_threads": 0 if num_threads is None else int(num_threads),
        "max_num_players": c["max_num_players"],
        "thread_affinity_offset": c["thread_affinity_offset"],
        "base_path": base_path,
        "seed": seed,
        "env_seed": env_seed,
        "gym_reset_return_info": bool(return_info),
        "max_episode_steps": c["max_episode_steps"],
        "reward_threshold": c["reward_threshold"],
        # Options named "_..." are fixed at registration (e.g. a Python env's compiled functions): not config.
        **{k: v for k, v in rl.env_config.items() if not k.startswith("_")},
        "autoreset_mode": c["autoreset_mode"],
    }
    if rl.task.env_type == "Atari":
        config = _atari_config(config)
    return EnvSpec(task_id, rl, config)


def _is_atari(task_id: Any) -> bool:
    try:
        return registry.task(task_id).env_type == "Atari"
    except ValueError:
        return False  # an unknown id: RlpoolEnvSpec says what is wrong


# EnvPool's Atari config: no reward_threshold, the game as `task` (rlpool resolves it to `rom_path`).
_ATARI_ORDER = (
    "stack_num", "frame_skip", "noop_max", "zero_discount_on_life_loss", "episodic_life", "reward_clip",
    "use_fire_reset", "img_height", "img_width", "task", "mode", "difficulty", "full_action_space",
    "repeat_action_probability", "use_inter_area_resize", "gray_scale",
)


def _atari_config(config: dict[str, Any]) -> dict[str, Any]:
    env = dict(config)
    env["task"] = os.path.splitext(os.path.basename(env.pop("rom_path")))[0]
    env.pop("reward_threshold")
    env.pop("crop_210", None)  # rlpool's own option (set above): not in EnvPool's config
    head = [k for k in env if k not in _ATARI_ORDER and k != "autoreset_mode"]
    ordered = {k: env[k] for k in head}
    ordered.update({k: env[k] for k in _ATARI_ORDER if k in env})
    ordered["autoreset_mode"] = env["autoreset_mode"]
    return ordered


def _is_sequence(value: Any) -> bool:
    return isinstance(value, np.ndarray) or (isinstance(value, Sequence) and not isinstance(value, (str, bytes)))


def _int32(name: str, value: Any) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {value!r}")
    if not -_INT32 <= value < _INT32:
        raise ValueError(f"{name} must be in the int32 range, got {value}")
    return int(value)


def _resolve_seeds(seed: Any, env_seed: Any, num_envs: int) -> tuple[int, list[int], Any]:
    """EnvPool's seeding: an int gives env i ``seed + i``; a list (``seed`` or ``env_seed``) one seed per env.

    Returns EnvPool's ``(seed, env_seed)`` config values and the seed(s) rlpool takes
    (negative int32 seeds map to their unsigned 32-bit value).
    """
    if _is_sequence(seed):
        if env_seed is not None:
            raise ValueError("pass either `seed` as an int or a list of seeds, or `env_seed`, not both")
        env_seed, seed = seed, 0
    seed = _int32("seed", seed)
    seeds: list[int] = []
    if env_seed is not None:
        if not _is_sequence(env_seed) or np.ndim(env_seed) != 1:
            raise ValueError(f"env_seed must be a 1-d list of ints, got {env_seed!r}")
        seeds = [_int32("each env seed", s) for s in env_seed]
        if seeds and len(seeds) != num_envs:
            raise ValueError(f"got {len(seeds)} per-env seeds, expected num_envs={num_envs}")
    if not seeds and seed >= 0:
        return seed, [], seed
    per_env = seeds or [seed + i for i in range(num_envs)]
    return seed, seeds, [s % 2**32 for s in per_env]


@cache
def _namedtuple(name: str, fields: tuple[str, ...]) -> Any:
    return namedtuple(name, fields)  # type: ignore[misc]


def _merge_keys(into: list[str], keys: Sequence[str]) -> None:
    """Add ``keys`` missing from ``into``, each just before the next of ``keys`` that ``into`` has (else last)."""
    for i, key in enumerate(keys):
        if key in into:
            continue
        later = [k for k in keys[i + 1 :] if k in into]
        into.insert(into.index(later[0]) if later else len(into), key)


@cache
def _dmc_domain_keys(env_type: str) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """EnvPool's observation keys for a DeepMind Control domain: those of all its tasks, with their shapes.

    EnvPool 1.2.5 gives every task of a domain the same keys (the other tasks' filled with zeros), in
    dm_control's order with the later tasks' keys merged in.
    """
    from rlpool.envs.dmc.registration import DOMAINS, task_id
    from rlpool.envs.dmc.registration import env_type as dmc_env_type

    domain = next(d for d in DOMAINS if dmc_env_type(d.name) == env_type)
    order: list[str] = []
    shapes: dict[str, tuple[int, ...]] = {}
    for name in domain.tasks:
        obs = RlpoolEnvSpec(task_id(domain.name, name)).arrays.obs
        shapes.update((a.name, tuple(a.shape)) for a in obs)
        _merge_keys(order, [a.name for a in obs])
    return tuple((k, shapes[k]) for k in order)


class EnvSpec:
    """EnvPool's ``EnvSpec``: ``config`` (a namedtuple), the single-env spaces and dm specs."""

    def __init__(self, task_id: str, rlpool_spec: RlpoolEnvSpec, config: dict[str, Any]) -> None:
        self.id = task_id
        self.rlpool_spec = rlpool_spec
        self.config_dict = config
        self.config = _namedtuple("Config", tuple(config))(**config)
        own = rlpool_spec.arrays.obs_names
        keys = _dmc_domain_keys(rlpool_spec.task.env_type) if rlpool_spec.task.env_type.startswith("Dmc") else ()
        self.obs_keys: tuple[str, ...] = tuple(k for k, _ in keys) or tuple(own)
        """The observation keys EnvPool gives (for a dict observation)."""
        self.zero_keys: dict[str, tuple[int, ...]] = {k: shape for k, shape in keys if k not in own}
        """Keys EnvPool has that the task does not fill (a DeepMind Control domain's other tasks'): zeros."""

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
    def observation_space(self) -> Any:
        """Single-env gymnasium observation space (with ``zero_keys`` as unbounded float64 boxes)."""
        space = self.rlpool_spec.observation_space
        if not self.zero_keys:
            return space
        from collections import OrderedDict

        from gymnasium import spaces

        return spaces.Dict(OrderedDict(
            (k, space[k] if k in space.spaces else spaces.Box(-np.inf, np.inf, self.zero_keys[k], np.float64))
            for k in self.obs_keys
        ))

    @property
    def action_space(self) -> Any:
        """Single-env gymnasium action space."""
        return self.rlpool_spec.action_space

    @property
    def gymnasium_observation_space(self) -> Any:
        """Same as ``observation_space`` (EnvPool keeps both names)."""
        return self.observation_space

    @property
    def gymnasium_action_space(self) -> Any:
        """Same as ``action_space`` (EnvPool keeps both names)."""
        return self.action_space

    def observation_spec(self) -> Any:
        """dm_env specs of the ``State`` namedtuple: ``env_id``, ``players``, observation and info entries."""
        from dm_env import specs

        from rlpool.dm_env_adapter import dm_spec

        arrays = self.rlpool_spec.arrays
        i32 = np.iinfo(np.int32)
        env_id = specs.BoundedArray((), np.int32, i32.min, i32.max, name="env_id")
        fields: dict[str, Any] = {"env_id": env_id, "players": _namedtuple("players", ("env_id",))(env_id)}
        own = {a.name: dm_spec(a) for a in arrays.obs}
        for key in self.obs_keys if arrays.obs_kind == "dict" else own:
            fields[key] = own[key] if key in own else specs.Array(self.zero_keys[key], np.float64, name=key)
        for a in arrays.info:
            fields[a.name] = dm_spec(a)
        return _namedtuple("State", tuple(fields))(**fields)

    def action_spec(self) -> Any:
        """dm_env action spec: int32 ``DiscreteArray`` or a ``BoundedArray`` of the task's dtype, as EnvPool's."""
        from rlpool.dm_env_adapter import dm_action_spec

        return dm_action_spec(self.rlpool_spec.arrays, np.int32)

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={v!r}" for k, v in self.config_dict.items())
        return f"EnvSpec({self.id!r}, {body})"


class _EnvPoolMixin:
    """Attributes every EnvPool pool has, whatever its API."""

    spec: EnvSpec
    config: dict[str, Any]

    def _init_envpool(self, spec: EnvSpec) -> None:
        self.spec = spec
        self.config = dict(spec.config_dict)
        self.all_env_ids = np.arange(spec.config.num_envs, dtype=np.int32)
        self.is_async = spec.config.batch_size != spec.config.num_envs

    def __len__(self) -> int:
        return self.config["num_envs"]

    def seed(self, seed: Any = None) -> None:
        """EnvPool's abandoned ``seed()``: warns and does nothing (seed with ``make(..., seed=)``)."""
        warnings.warn(
            "seed() does nothing, as in EnvPool: pass seed to make(..., seed=seed) or call reset(seed=...)",
            stacklevel=2,
        )

    def xla(self) -> Any:
        """EnvPool's ``xla()``: ``(handle, recv, send, step)`` for ``jax.jit`` (gymnasium pools; see ``rlpool.xla``).

        ``recv`` gives ``(handle, (obs, reward, terminated, truncated, info))`` with float32 rewards and
        EnvPool's info, as ``step`` does. Needs jax: ``pip install "rlpool[jax]"``.
        """
        if not isinstance(self, GymnasiumVectorEnv):
            raise RuntimeError("rlpool's xla() serves the gymnasium pools (make_gymnasium / make_gym), not make_dm")
        from rlpool.xla import make_xla

        def convert(obs: Any, reward: Any, terminated: Any, truncated: Any, info: dict[str, Any]) -> Any:
            return self.spec.pad(obs), reward.astype(np.float32), terminated, truncated, envpool_info(info)

        return make_xla(self._pool, self.spec.rlpool_spec.arrays, convert)

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={v!r}" for k, v in self.config.items())
        return f"{type(self).__name__}({self.spec.id}, {body})"


def envpool_info(info: dict[str, Any]) -> dict[str, Any]:
    """Reorder rlpool's info into EnvPool's: ``env_id``, ``players``, task entries, ``elapsed_step``."""
    env_id = info["env_id"]
    out = {"env_id": env_id, "players": {"env_id": env_id}, **info}
    if len(out) > 3:  # task entries follow elapsed_step in rlpool's order; EnvPool puts it last
        out["elapsed_step"] = out.pop("elapsed_step")
    return out


def _rows(obs: Any, info: dict[str, Any], ids: np.ndarray) -> tuple[Any, dict[str, Any]]:
    """The rows ``ids`` of a sync batch (whose row i is env i)."""
    if isinstance(obs, dict):
        obs = {k: v[ids] for k, v in obs.items()}
    elif isinstance(obs, tuple):
        obs = tuple(v[ids] for v in obs)
    else:
        obs = obs[ids]
    return obs, {k: v[ids] for k, v in info.items()}


class GymnasiumEnvPool(_EnvPoolMixin, GymnasiumVectorEnv):
    """EnvPool 1.x's gymnasium pool over an rlpool pool.

    A ``gymnasium.vector.VectorEnv`` whose ``observation_space``/``action_space`` are the
    single-env spaces, as EnvPool's are. ``step(action, env_id=None)`` returns
    ``(obs, reward, terminated, truncated, info)`` with float32 rewards and EnvPool's info.
    """

    def __init__(self, spec: EnvSpec) -> None:
        super().__init__(spec.rlpool_spec)
        self._init_envpool(spec)
        self.single_observation_space = spec.observation_space
        self.observation_space = self.single_observation_space
        self.action_space = self.single_action_space
        self.is_vector_env = True

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
        return self.spec.pad(obs), envpool_info(info)

    def step(self, action: Any, env_id: Any = None) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every env (sync), or send ``env_id``'s actions and receive the next batch (async)."""
        return self._to(self._pool.step(action, env_id))

    def recv(self, reset: bool = False, return_info: bool = True) -> Any:
        """Wait for the next batch; ``reset=True`` returns ``(obs, info)`` as EnvPool's does."""
        result = self._to(self._pool.recv())
        return (result[0], result[4]) if reset else result

    def render(self, *args: Any, **kwargs: Any) -> Any:
        """Rendering is not supported yet."""
        raise RuntimeError("render_mode must be set when creating the env; rlpool does not support rendering yet")

    def _to(self, result: tuple) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if self._same_step:
            unpack_final(result)
        obs, reward, terminated, truncated, info = result
        return self.spec.pad(obs), reward.astype(np.float32), terminated, truncated, envpool_info(info)


class DMEnvPool(_EnvPoolMixin, PoolOwner):
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
            raise ImportError("make_dm needs dm-env: pip install 'rlpool[dm]'") from e
        if spec.config_dict["autoreset_mode"] != "NextStep":
            raise ValueError("the dm_env API needs autoreset_mode='NextStep' (EnvPool's), "
                             f"got {spec.config_dict['autoreset_mode']!r}")
        self._dm_env = dm_env
        self._init_pool(spec.rlpool_spec, export_discount=True)
        self._init_envpool(spec)
        self._step_types = StepTypes(self.num_envs)
        arrays = spec.rlpool_spec.arrays
        self._obs_kind = arrays.obs_kind
        self._obs_names = arrays.obs_names
        self._info_names = arrays.info_names
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
        return self._dm_env.TimeStep(
            step_type=np.zeros(n, dtype=np.int32),
            reward=np.zeros(n, dtype=np.float32),
            discount=np.ones(n, dtype=np.float32),
            observation=self._state(obs, info),
        )

    def step(self, action: Any, env_id: Any = None) -> Any:
        """Step every env (sync), or send ``env_id``'s actions and receive the next batch (async)."""
        return self._timestep(self._pool.step(action, env_id))

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
        env_id = info["env_id"]
        if self._obs_kind == "dict":
            entries = list(self.spec.pad(obs).values()) if self.spec.zero_keys else [obs[k] for k in self._obs_names]
        elif self._obs_kind == "tuple":
            entries = list(obs)
        else:
            entries = [obs]
        return self._State(env_id, self._Players(env_id), *entries, *[info[name] for name in self._info_names])

    def _timestep(self, result: tuple) -> Any:
        obs, reward, terminated, truncated, info = result
        step_type, discount = self._step_types(terminated, truncated, info)
        return self._dm_env.TimeStep(step_type, reward.astype(np.float32), discount, self._state(obs, info))
