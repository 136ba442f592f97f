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

* A task whose agents act at once (its spec's ``num_agents`` without ``turn_based``) has EnvPool 1.2.7's
  multi-player layout: players flattened into the batch axis (obs ``[num_envs * players, ...]``, rewards
  per player, ``terminated``/``truncated`` per env, ``info["players"]``), one player's spaces; ``players.py``
  and docs/multi_agent.md. Turn-based games raise ``EnvPoolError``.
* As EnvPool's: the pools are ``gymnasium.Env``/``dm_env.Environment`` instances; a first
  ``step`` without ``reset`` resets; a sync pool steps a subset of its envs; dict actions;
  float actions for a Discrete space are cast to int; ``make_spec(...).action_array_spec`` /
  ``state_array_spec``; EnvPool's ids (``phys2d/...``, ``tabular/...``, MuJoCo ``-v2``/``-v3``)
  and MuJoCo options; ``EnvPoolError`` for what EnvPool asserts. docs/integrations.md lists it all.

Deliberate differences from EnvPool 1.2.5, each a fix: ``reset(seed=...)`` re-seeds
(EnvPool warns and ignores it); dm ``discount`` is 1 on truncation (EnvPool gives 0) and
``reward_spec``/``discount_spec`` say float32 as the data is (EnvPool says float64);
out-of-range actions and wrong shapes raise instead of reaching the env or crashing;
``num_envs``/``single_*_space`` may be assigned, as CleanRL's scripts do. Rendering is not
supported; ``xla()`` serves the gymnasium pools.

Here: ``make*``, ``make_spec``, ids and seeding. ``spec.py`` holds the specs, ``pools.py`` the pools,
``players.py`` the multi-player layout and ``layouts.py`` what a family tells this layer; each family's own
layout and EnvPool ids are in its folder, ``rlpool/envs/<family>/envpool.py``, imported below as its
``registration.py`` is by ``rlpool.envs``.
"""

from __future__ import annotations

# Imported as "X as X": the rest of the layer's namespace (its parts, and the names its code uses).
import os
import warnings as warnings
from collections import namedtuple as namedtuple
from collections.abc import Sequence
from functools import cache as cache
from typing import Any

import gymnasium as gymnasium
import numpy as np

import rlpool
from rlpool import registry as registry
from rlpool.api.dm_steps import StepTypes as StepTypes
from rlpool.api.gymnasium import GymnasiumVectorEnv as GymnasiumVectorEnv
from rlpool.api.gymnasium import unpack_final as unpack_final
from rlpool.api.pool_owner import PoolOwner as PoolOwner
from rlpool.compat.envpool.layouts import _IDS as _ALIASES  # noqa: F401 - every family's EnvPool ids
from rlpool.compat.envpool.layouts import EnvPoolError, UnknownTaskError, family_layout, is_sequence
from rlpool.compat.envpool.layouts import FamilyLayout as FamilyLayout
from rlpool.compat.envpool.pools import DMEnvPool, EnvPool, GymnasiumEnvPool
from rlpool.compat.envpool.pools import FrameStack as FrameStack
from rlpool.compat.envpool.pools import envpool_info as envpool_info
from rlpool.compat.envpool.spec import ArraySpec, EnvSpec
from rlpool.envs import family_modules
from rlpool.options import MAX_ENVS, POOL_OPTIONS, check_int
from rlpool.registry import list_aliases, register_alias, resolve_alias, unknown_task_message
from rlpool.spec import EnvSpec as RlpoolEnvSpec

__all__ = [
    "ArraySpec",
    "DMEnvPool",
    "EnvPool",
    "EnvPoolError",
    "EnvSpec",
    "GymnasiumEnvPool",
    "UnknownTaskError",
    "list_all_envs",
    "make",
    "make_dm",
    "make_gym",
    "make_gymnasium",
    "make_spec",
    "register",
]

for _cls in (ArraySpec, DMEnvPool, EnvPool, EnvPoolError, EnvSpec, GymnasiumEnvPool, UnknownTaskError):
    _cls.__module__ = __name__  # the module scripts take them from (reprs, tracebacks and pickles say it)

# The EnvPool API version this module follows (some scripts gate on it).
__version__ = "1.2.7"

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
_BASE_PATH = os.path.dirname(os.path.abspath(rlpool.__file__))


def list_all_envs() -> list[str]:
    """All task ids rlpool can make, EnvPool's aliases (``phys2d/CartPole-v1``, ...) included."""
    return sorted(rlpool.list_all_envs() + list_aliases())


def register(
    task_id: str,
    import_path: str | None = None,
    spec_cls: str | None = None,
    dm_cls: str | None = None,
    gymnasium_cls: str | None = None,
    aliases: Sequence[str] = (),
    *,
    base: str | None = None,
    **kwargs: Any,
) -> None:
    """EnvPool's ``register``, for variants of tasks rlpool has: ``register(new_id, base="Hopper-v4", **defaults)``.

    EnvPool registers its own compiled classes (``import_path``/``spec_cls``/...); rlpool cannot load
    those, so only ``base=`` (an rlpool task id, whose env options ``kwargs`` override) is accepted.
    ``aliases`` name the same variant.
    """
    if import_path is not None or spec_cls is not None or dm_cls is not None or gymnasium_cls is not None:
        raise EnvPoolError(
            f"register({task_id!r}, {import_path!r}, ...): rlpool cannot load EnvPool's compiled env classes; "
            "register a variant of an rlpool task with register(task_id, base='<rlpool task id>', **options)"
        )
    if base is None:
        raise EnvPoolError("register() needs base='<rlpool task id>': the task whose env the new id runs")
    for alias in (task_id, *aliases):
        register_alias(alias, base, **kwargs)


def make(task_id: str, env_type: str, **kwargs: Any) -> Any:
    """Build a pool as ``envpool.make`` does: ``env_type`` is "gym", "gymnasium" or "dm".

    EnvPool 1.x gives the gymnasium pool for both "gym" and "gymnasium".
    """
    if env_type in ("gym", "gymnasium"):
        return make_gymnasium(task_id, **kwargs)
    if env_type == "dm":
        return make_dm(task_id, **kwargs)
    raise EnvPoolError(f"env_type should be one of {_ENV_TYPES}, got {env_type!r}")


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
    if opts.get("from_pixels") is False:
        opts.pop("from_pixels")  # EnvPool takes from_pixels=False for every task
    base_path = opts.pop("base_path", _BASE_PATH)
    if not isinstance(base_path, str):
        raise TypeError(f"base_path must be a str, got {base_path!r}")
    target, alias_defaults = resolve_alias(task_id)
    if not isinstance(task_id, str) or target not in rlpool.list_all_envs():
        message = unknown_task_message(task_id).replace("rlpool.list_all_envs()", "envpool.list_all_envs()")
        raise UnknownTaskError(message)
    try:
        num_envs = check_int("num_envs", opts.get("num_envs", 1), 1, MAX_ENVS)
        batch_size = opts.get("batch_size")
        if batch_size is not None:  # EnvPool: 0 <= batch_size <= num_envs, 0 meaning num_envs
            check_int("batch_size", batch_size, 0, num_envs)
        seed, env_seed, pool_seed = _resolve_seeds(opts.pop("seed", 42), opts.pop("env_seed", None), num_envs)
    except ValueError as e:
        raise EnvPoolError(str(e)) from None
    layout = family_layout(target)
    # EnvPool's frame stacking of state observations (MuJoCo's, DeepMind Control's without pixels), done by
    # the pool faces here (FrameStack): not an env option.
    frame_stack = opts.pop("frame_stack", 1) if layout.stacks_frames(opts) else 1
    try:
        frame_stack = check_int("frame_stack", frame_stack, 1, 1024)
    except ValueError as e:
        raise EnvPoolError(str(e)) from None
    opts = {**layout.defaults, **alias_defaults, **layout.options(opts)}
    return_info = opts.pop("gym_reset_return_info", return_info_default)
    if not isinstance(return_info, (bool, np.bool_)):
        raise TypeError(f"gym_reset_return_info must be a bool, got {return_info!r}")
    if not return_info and not allow_no_reset_info:
        raise ValueError(
            "EnvPool 1.x's reset() always returns (obs, info); gym_reset_return_info=False needs the old API "
            "in rlpool.compat.envpool_legacy"
        )
    num_threads = opts.get("num_threads", 0)
    max_num_players = opts.pop("max_num_players", None)
    rl = RlpoolEnvSpec(target, seed=pool_seed, gym_reset_return_info=bool(return_info), **opts)
    players = rl.arrays.num_agents
    if players and rl.arrays.turn_based:
        # EnvPool 1.2.7's turn-based games give one row per env and player too, with its own action and
        # reward conventions; this layer gives only the simultaneous players' layout (players.py).
        raise EnvPoolError(
            f"{task_id} has {players} players taking turns: the EnvPool layer has no turn-based layout; use "
            "rlpool.make_gymnasium (an agent axis: obs [num_envs, players, ...]) or rlpool.make_pettingzoo"
        )
    if players:  # EnvPool 1.2.7 takes any max_num_players >= the task's players (it aborts below that)
        if max_num_players is None:
            max_num_players = players
        try:
            check_int("max_num_players", max_num_players, players, _INT32 - 1)
        except ValueError as e:
            raise EnvPoolError(f"{e} ({task_id} has {players} players)") from None
    elif max_num_players is not None:  # rlpool checks it (1 for a single-agent task)
        rl = RlpoolEnvSpec(target, seed=pool_seed, gym_reset_return_info=bool(return_info),
                           max_num_players=max_num_players, **opts)
    c = rl.config
    config: dict[str, Any] = {
        "num_envs": c["num_envs"],
        "batch_size": c["batch_size"],
        "num_threads": 0 if num_threads is None else int(num_threads),
        "max_num_players": int(max_num_players) if players else c["max_num_players"],
        "thread_affinity_offset": c["thread_affinity_offset"],
        "base_path": base_path,
        "seed": seed,
        "env_seed": env_seed,
        "gym_reset_return_info": bool(return_info),
        "max_episode_steps": c["max_episode_steps"],
        "reward_threshold": c["reward_threshold"],
        # Options named "_..." are fixed at registration (e.g. a Python env's compiled functions): not config.
        # (the render size every env is given is a pool option: not in EnvPool's config).
        **{k: v for k, v in rl.env_config.items() if not k.startswith("_") and k not in POOL_OPTIONS},
        "autoreset_mode": c["autoreset_mode"],
    }
    config = layout.config(config)
    if frame_stack != 1:
        config["frame_stack"] = frame_stack
    spec = EnvSpec(task_id, rl, config, layout)
    spec.frame_stack = frame_stack
    return spec


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
    if is_sequence(seed):
        if env_seed is not None:
            raise ValueError("pass either `seed` as an int or a list of seeds, or `env_seed`, not both")
        env_seed, seed = seed, 0
    seed = _int32("seed", seed)
    seeds: list[int] = []
    if env_seed is not None:
        if not is_sequence(env_seed) or np.ndim(env_seed) != 1:
            raise ValueError(f"env_seed must be a 1-d list of ints, got {env_seed!r}")
        seeds = [_int32("each env seed", s) for s in env_seed]
        if seeds and len(seeds) != num_envs:
            raise ValueError(f"got {len(seeds)} per-env seeds, expected num_envs={num_envs}")
    if not seeds and seed >= 0:
        return seed, [], seed
    per_env = seeds or [seed + i for i in range(num_envs)]
    return seed, seeds, [s % 2**32 for s in per_env]




def _load_families() -> None:
    """Import every family's ``envpool.py`` (``rlpool/envs/<family>/envpool.py``), as its tasks are registered.

    Each registers its layout (``register_layout``) and EnvPool's ids of its tasks (``register_ids``).
    """
    family_modules("envpool")


_load_families()
