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
"""

from __future__ import annotations

import os
import warnings
from collections import namedtuple
from collections.abc import Sequence
from functools import cache
from typing import Any

import gymnasium
import numpy as np

import rlpool
from rlpool import registry
from rlpool.api.dm_steps import StepTypes
from rlpool.api.gymnasium import GymnasiumVectorEnv, unpack_final
from rlpool.api.pool_owner import PoolOwner
from rlpool.options import MAX_ENVS, POOL_OPTIONS, check_int
from rlpool.registry import list_aliases, register_alias, resolve_alias, unknown_task_message
from rlpool.spec import EnvSpec as RlpoolEnvSpec

try:  # EnvPool's dm pools are dm_env.Environments; dm-env is an optional extra
    from dm_env import Environment as _DMEnvironment
except ImportError:  # pragma: no cover - only without the extra
    _DMEnvironment = object  # type: ignore[assignment,misc]

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
class EnvPoolError(ValueError, AssertionError):
    """A bad argument, raised where EnvPool raises ``AssertionError``: catchable as either type.

    EnvPool checks ``env_type``, seeds, ``num_envs`` and ``batch_size`` with ``assert``; scripts written
    for it catch ``AssertionError``, rlpool's own code catches ``ValueError``.
    """


class UnknownTaskError(EnvPoolError, KeyError):
    """An unknown task id: EnvPool's ``make`` raises ``AssertionError``, its ``make_spec`` ``KeyError``."""

    __str__ = Exception.__str__  # KeyError's would quote the message


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
    # EnvPool's MuJoCo frame stacking, done by the pool faces here (FrameStack): not an env option.
    frame_stack = opts.pop("frame_stack", 1) if isinstance(layout, _MujocoLayout) else 1
    try:
        frame_stack = check_int("frame_stack", frame_stack, 1, 1024)
    except ValueError as e:
        raise EnvPoolError(str(e)) from None
    opts = {**alias_defaults, **layout.options(opts)}
    return_info = opts.pop("gym_reset_return_info", return_info_default)
    if not isinstance(return_info, (bool, np.bool_)):
        raise TypeError(f"gym_reset_return_info must be a bool, got {return_info!r}")
    if not return_info and not allow_no_reset_info:
        raise ValueError(
            "EnvPool 1.x's reset() always returns (obs, info); gym_reset_return_info=False needs the old API "
            "in rlpool.compat.envpool_legacy"
        )
    num_threads = opts.get("num_threads", 0)
    if _is_atari(target):
        # EnvPool reads only the top 210 rows of the games with taller screens, and its frame skip goes on
        # past a lost life (episodic_life) and shows its own frame where a game ends inside it.
        opts.setdefault("crop_210", True)
        opts.setdefault("envpool_frame_skip", True)
    rl = RlpoolEnvSpec(target, seed=pool_seed, gym_reset_return_info=bool(return_info), **opts)
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
        # (the render size every env is given is a pool option: not in EnvPool's config).
        **{k: v for k, v in rl.env_config.items() if not k.startswith("_") and k not in POOL_OPTIONS},
        "autoreset_mode": c["autoreset_mode"],
    }
    if rl.task.env_type == "Atari":
        config = _atari_config(config)
    config = layout.config(config)
    if frame_stack != 1:
        config["frame_stack"] = frame_stack
    spec = EnvSpec(task_id, rl, config, layout)
    spec.frame_stack = frame_stack
    return spec


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
    for own in ("crop_210", "envpool_frame_skip"):  # rlpool's own options (set above): not in EnvPool's config
        env.pop(own, None)
    head = [k for k in env if k not in _ATARI_ORDER and k != "autoreset_mode"]
    ordered = {k: env[k] for k in head}
    ordered.update({k: env[k] for k in _ATARI_ORDER if k in env})
    ordered["autoreset_mode"] = env["autoreset_mode"]
    return ordered


class FamilyLayout:
    """How a family's tasks look through EnvPool: its options, config, observation and info layout.

    The default changes nothing. A family whose EnvPool face differs from rlpool's subclasses it and
    registers an instance in ``_LAYOUTS`` under its C++ env type's prefix.
    """

    info_order: tuple[str, ...] = ()
    """EnvPool's order of the task's info entries (those rlpool has; the rest follow in rlpool's order)."""

    info_bounds: dict[str, tuple[Any, Any]] = {}  # noqa: RUF012 - read-only class default
    """Bounds EnvPool declares for info entries that rlpool's env leaves unbounded (for the specs)."""

    info_int32: tuple[str, ...] = ()
    """Info entries EnvPool gives as int32 where rlpool keeps the library's narrower type."""

    xla_ok = True
    """``obs()`` works on jax arrays too (inside jit), so compat's ``xla()`` can give this layout."""

    discrete_action_dtype: Any = np.int32
    """The dtype of EnvPool's ``action_array_spec`` for a discrete action (ViZDoom's is float64)."""

    def options(self, opts: dict[str, Any]) -> dict[str, Any]:
        """EnvPool's make() options -> rlpool's (may raise EnvPoolError for values rlpool cannot honour)."""
        return opts

    def config(self, config: dict[str, Any]) -> dict[str, Any]:
        """The config EnvPool reports, from rlpool's (in EnvPool's names)."""
        return config

    def observation_space(self, space: Any) -> Any:
        """The single-env observation space EnvPool gives."""
        return space

    def obs(self, obs: Any) -> Any:
        """A batch of observations as EnvPool gives them (the default returns rlpool's as they are)."""
        return obs

    @property
    def plain(self) -> bool:
        """True when results need no per-call change (the pool's fast path)."""
        return type(self).obs is FamilyLayout.obs and not self.info_order and not self.info_int32


class _TupleAsInt32Box(FamilyLayout):
    """Tuple-of-Discrete observations that EnvPool gives as one int32 vector (Blackjack: ``Box(0, 31, (3,))``)."""

    xla_ok = False  # np.stack of traced arrays

    def observation_space(self, space: Any) -> Any:
        from gymnasium import spaces

        high = max(s.start + s.n - 1 for s in space.spaces)
        low = min(s.start for s in space.spaces)
        return spaces.Box(int(low), int(high), (len(space.spaces),), np.int32)

    def obs(self, obs: Any) -> Any:
        return np.stack(obs, axis=1).astype(np.int32)


# EnvPool's MuJoCo options. Each value rlpool's v4/v5 env types implement is taken; others are refused
# by name, with the reason (EnvPool's v4 and v5 ids are one env with these switches; rlpool's are two).
_MUJOCO_V5 = {"post_constraint": True, "legacy_healthy_reward": False}
_MUJOCO_V4 = {"post_constraint": False, "legacy_healthy_reward": True}


class _MujocoLayout(FamilyLayout):
    def __init__(self, env_type: str) -> None:
        self.env_type = env_type
        self.v5 = env_type.endswith("V5")
        name = env_type[:-2]
        # EnvPool's own defaults for the task's version (envpool/mujoco/gym/registration.py), in its order.
        fixed = dict(_MUJOCO_V5 if self.v5 else _MUJOCO_V4)
        if name not in ("Ant", "Hopper", "Humanoid", "Walker2d"):
            fixed.pop("legacy_healthy_reward")
        if name == "Ant":
            fixed["exclude_worldbody_contact_forces"] = self.v5
        self.fixed = fixed
        self.contact_option = {"Ant": "use_contact_forces" if not self.v5 else None}.get(name)
        self.name = name
        if name == "Ant":
            self.info_order = ("reward_forward", "reward_ctrl", "reward_contact", "reward_survive", "x_position",
                               "y_position", "distance_from_origin", "x_velocity", "y_velocity")

    def options(self, opts: dict[str, Any]) -> dict[str, Any]:
        opts = dict(opts)
        camera = opts.pop("gymnasium_v5_render_camera", self.v5)
        if not isinstance(camera, (bool, np.bool_)):
            raise TypeError(f"gymnasium_v5_render_camera must be a bool, got {camera!r}")
        for key, value in self.fixed.items():
            if key in opts and opts.pop(key) != value:
                version = "v4" if self.v5 else "v5"
                raise EnvPoolError(
                    f"{key}={not value} is EnvPool's {version} behaviour, which rlpool's {self.env_type} does "
                    f"not have (EnvPool's -v4 and -v5 are one env with switches, rlpool's two): "
                    f"use the {self.name}-{version} task"
                )
        if "use_contact_force" in opts:
            value = opts.pop("use_contact_force")
            if self.contact_option is not None:
                opts[self.contact_option] = value
            elif value != (self.name in ("Ant", "Humanoid") and self.v5):
                raise EnvPoolError(f"use_contact_force={value!r} is not available on rlpool's {self.env_type}")
        if "xml_file" in opts and not os.path.isabs(opts["xml_file"]):
            from rlpool.envs.mujoco.registration import gymnasium_assets

            opts["xml_file"] = str(gymnasium_assets() / opts["xml_file"])
        return opts

    def config(self, config: dict[str, Any]) -> dict[str, Any]:
        out = dict(config)
        out["xml_file"] = os.path.basename(out["xml_file"])  # EnvPool reports the asset's name
        contact = out.pop(self.contact_option, self.name in ("Ant", "Humanoid") and self.v5) \
            if self.contact_option else self.name in ("Ant", "Humanoid") and self.v5
        mode = out.pop("autoreset_mode")  # stays last, after EnvPool's MuJoCo switches
        out.update({"frame_stack": 1, **self.fixed})
        if self.name in ("Ant", "Humanoid"):  # the two EnvPool tasks with the switch
            out["use_contact_force"] = contact
        out.update({"gymnasium_v5_render_camera": self.v5, "autoreset_mode": mode})
        return out


class _AtariLayout(FamilyLayout):
    info_bounds = {"terminated": (0, 1)}  # noqa: RUF012 - EnvPool's spec: a DiscreteArray of 2 values


# EnvPool's Procgen config after the pool keys (it has no reward_threshold), distribution_mode an int.
_PROCGEN_ORDER = (
    "env_name", "channel_first", "num_levels", "start_level", "use_sequential_levels", "center_agent",
    "use_backgrounds", "use_monochrome_assets", "restrict_themes", "use_generated_assets", "paint_vel_info",
    "use_easy_jump", "distribution_mode",
)


class _ProcgenLayout(FamilyLayout):
    """EnvPool's Procgen: (3, 64, 64) frames by default (``channel_first``), its config keys and int32 info.

    One per make() call (``channel_first`` is an option of that call).
    """

    info_int32 = ("prev_level_complete",)
    xla_ok = False  # np.moveaxis of traced arrays

    def __init__(self, task_id: str) -> None:
        self.task_id = task_id
        self.game = registry.task(task_id).env_defaults["_game"]
        self.channel_first = True

    def options(self, opts: dict[str, Any]) -> dict[str, Any]:
        from rlpool.envs.procgen.registration import DISTRIBUTION_MODES

        opts = dict(opts)
        channel_first = opts.pop("channel_first", True)
        if not isinstance(channel_first, (bool, np.bool_)):
            raise TypeError(f"channel_first must be a bool, got {channel_first!r}")
        self.channel_first = bool(channel_first)
        env_name = opts.pop("env_name", self.game)
        if env_name != self.game:
            raise ValueError(f"env_name of {self.task_id} is {self.game!r}; make that game's task instead of "
                             f"{env_name!r}")
        if opts.pop("use_easy_jump", False):
            raise ValueError("use_easy_jump=True is not supported (procgen's Python interface does not offer it)")
        mode = opts.get("distribution_mode")
        if mode is not None and not isinstance(mode, str):
            if isinstance(mode, (bool, np.bool_)) or int(mode) not in DISTRIBUTION_MODES:
                raise ValueError(f"distribution_mode must be one of {sorted(DISTRIBUTION_MODES)}, got {mode!r}")
            opts["distribution_mode"] = DISTRIBUTION_MODES[int(mode)]
        return opts

    def config(self, config: dict[str, Any]) -> dict[str, Any]:
        from rlpool.envs.procgen.registration import DISTRIBUTION_MODES

        env = dict(config)
        env.pop("reward_threshold")
        modes = {name: number for number, name in DISTRIBUTION_MODES.items()}
        env.update(env_name=self.game, channel_first=self.channel_first, use_easy_jump=False,
                   distribution_mode=modes[env["distribution_mode"]])
        ordered = {k: env[k] for k in env if k not in _PROCGEN_ORDER and k != "autoreset_mode"}
        ordered.update({k: env[k] for k in _PROCGEN_ORDER})
        ordered["autoreset_mode"] = env["autoreset_mode"]
        return ordered

    def observation_space(self, space: Any) -> Any:
        if not self.channel_first:
            return space
        from gymnasium import spaces

        return spaces.Box(0, 255, (space.shape[2], *space.shape[:2]), np.uint8)

    def obs(self, obs: Any) -> Any:
        return np.ascontiguousarray(np.moveaxis(obs, -1, -3)) if self.channel_first else obs


# EnvPool's names of Minigrid options whose rlpool name is minigrid's own.
_MINIGRID_RENAMES = {"num_objs": "numObjs", "min_num_rooms": "minNumRooms", "max_num_rooms": "maxNumRooms",
                     "max_room_size": "maxRoomSize"}
# EnvPool's pair options -> rlpool's two int options ((-1, -1): None, a random start).
_MINIGRID_PAIRS = {"agent_start_pos": ("agent_start_x", "agent_start_y"),
                   "agent_room": ("agent_room_i", "agent_room_j")}


class _MinigridLayout(FamilyLayout):
    """EnvPool's Minigrid and BabyAI: its option names, and ``direction`` as int32."""

    casts: dict[str, Any] = {"direction": np.int32}  # noqa: RUF012 - read-only class default

    def options(self, opts: dict[str, Any]) -> dict[str, Any]:
        opts = dict(opts)
        for old, new in _MINIGRID_RENAMES.items():
            if old in opts:
                opts[new] = opts.pop(old)
        for pair, (a, b) in _MINIGRID_PAIRS.items():
            if pair in opts:
                value = opts.pop(pair)
                if not _is_sequence(value) or len(value) != 2:
                    raise TypeError(f"{pair} must be a pair of ints, got {value!r}")
                opts[a], opts[b] = (int(v) for v in value)
        return opts

    def obs(self, obs: Any) -> Any:
        return {k: v.astype(self.casts[k]) if k in self.casts else v for k, v in obs.items()}


# EnvPool's ViZDoom config after the pool keys (it has no reward_threshold).
_VIZDOOM_ORDER = (
    "img_height", "img_width", "stack_num", "frame_skip", "lmp_save_dir", "episodic_life", "force_speed",
    "use_combined_action", "use_inter_area_resize", "weapon_duration", "reward_config",
    "selected_weapon_reward_config", "delta_button_config", "cfg_path", "wad_path", "vzd_path", "iwad_path",
    "game_args", "map_id",
)


class _VizdoomLayout(FamilyLayout):
    """EnvPool's ViZDoom: its reward from game-variable changes, its 16 info entries, its config.

    The env does EnvPool's reward (``use_reward_config``) and info (``envpool_info``) itself; the
    config shows the dict options as EnvPool does (float32 values in sorted dicts).
    """

    discrete_action_dtype = np.float64  # EnvPool declares the combined action a float64 in [0, n - 1]

    def options(self, opts: dict[str, Any]) -> dict[str, Any]:
        return {"use_reward_config": True, "envpool_info": True, **opts}

    def config(self, config: dict[str, Any]) -> dict[str, Any]:
        from rlpool.envs.vizdoom.registration import decode_options

        env = decode_options(config)
        for key in ("reward_threshold", "use_reward_config", "envpool_info"):
            env.pop(key, None)
        ordered = {k: env[k] for k in env if k not in _VIZDOOM_ORDER and k != "autoreset_mode"}
        ordered.update({k: env[k] for k in _VIZDOOM_ORDER})
        ordered["autoreset_mode"] = env["autoreset_mode"]
        return ordered


_LAYOUTS: dict[str, FamilyLayout] = {"Blackjack": _TupleAsInt32Box(), "Atari": _AtariLayout(),
                                     "Vizdoom": _VizdoomLayout()}
_DEFAULT_LAYOUT = FamilyLayout()
_MUJOCO_TYPES = ("Ant", "HalfCheetah", "Hopper", "Humanoid", "HumanoidStandup", "InvertedDoublePendulum",
                 "InvertedPendulum", "Pusher", "Reacher", "Swimmer", "Walker2d")


def family_layout(task_id: str) -> FamilyLayout:
    """The EnvPool layout of ``task_id``'s family (the default one for most)."""
    from rlpool.registry import task

    env_type = task(task_id).env_type
    if env_type in _LAYOUTS:
        return _LAYOUTS[env_type]
    if env_type == "Procgen":
        return _ProcgenLayout(task_id)
    if env_type.startswith(("MiniGrid", "BabyAI")):
        return _LAYOUTS.setdefault("MiniGrid", _MinigridLayout())
    if env_type[:-2] in _MUJOCO_TYPES and env_type[-2:] in ("V4", "V5"):
        return _LAYOUTS.setdefault(env_type, _MujocoLayout(env_type))
    return _DEFAULT_LAYOUT


# Ids EnvPool 1.2.5 accepts that name rlpool tasks (EnvPool's own aliases and spellings), with the env
# options that make them EnvPool's task. MuJoCo -v2/-v3: EnvPool registers them as its v4 env (Ant-v3 with
# contact forces in the observation; Humanoid-v3's switch changes nothing there), not as gym's mujoco-py
# v2/v3; so are these. Pendulum-v0 is EnvPool's v1 dynamics. tests/test_compat_envpool_ids.py checks
# each of these on EnvPool.
_ALIASES: dict[str, tuple[str, dict[str, Any]]] = {
    "phys2d/CartPole-v0": ("CartPole-v0", {}),
    "phys2d/CartPole-v1": ("CartPole-v1", {}),
    "Pendulum-v0": ("Pendulum-v1", {}),
    "phys2d/Pendulum-v0": ("Pendulum-v1", {}),
    "tabular/CliffWalking-v0": ("CliffWalking-v1", {}),
    "tabular/Blackjack-v0": ("Blackjack-v1", {}),
    "TicTacToe3d-v5": ("TicTacToe3D-v5", {}),
    **{f"{name}-{version}": (f"{name}-v4", {})
       for name, version in [("HalfCheetah", "v3"), ("Hopper", "v3"), ("Swimmer", "v3"), ("Walker2d", "v3"),
                             ("HumanoidStandup", "v2"), ("InvertedDoublePendulum", "v2"),
                             ("InvertedPendulum", "v2"), ("Pusher", "v2"), ("Reacher", "v2"), ("Humanoid", "v3")]},
    "Ant-v3": ("Ant-v4", {"use_contact_forces": True}),
}
def _register_aliases() -> None:
    known = set(rlpool.list_all_envs())
    taken = set(list_aliases())
    for alias, (target, options) in _ALIASES.items():
        if target in known and alias not in taken and alias not in known:
            register_alias(alias, target, **options)


_register_aliases()


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
        self.layout = layout or _DEFAULT_LAYOUT
        """How the family's results look through EnvPool (``FamilyLayout``)."""
        self.rlpool_spec = rlpool_spec
        self.config_dict = config
        self.config = _namedtuple("Config", tuple(config))(**config)
        own = rlpool_spec.arrays.obs_names
        keys = _dmc_domain_keys(rlpool_spec.task.env_type) if rlpool_spec.task.env_type.startswith("Dmc") else ()
        self.obs_keys: tuple[str, ...] = tuple(k for k, _ in keys) or tuple(own)
        """The observation keys EnvPool gives (for a dict observation)."""
        self.zero_keys: dict[str, tuple[int, ...]] = {k: shape for k, shape in keys if k not in own}
        self.frame_stack = 1
        """EnvPool's MuJoCo ``frame_stack``: observations of shape ``(frame_stack, *obs)``, the newest last."""
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
    def info_keys(self) -> tuple[str, ...]:
        """The task's info entries in EnvPool's order."""
        own = self.rlpool_spec.arrays.info_names
        first = [k for k in self.layout.info_order if k in own]
        return (*first, *[k for k in own if k not in first])

    @property
    def action_array_spec(self) -> dict[str, ArraySpec]:
        """EnvPool's action arrays: ``env_id``, ``players.env_id`` and ``action`` (a leading -1: per player)."""
        i32 = _limits(np.int32)
        a = self.rlpool_spec.arrays.action
        if self.rlpool_spec.arrays.discrete_action:  # EnvPool's discrete actions are int32 (most families)
            n = self.rlpool_spec.arrays.num_actions
            dtype = self.layout.discrete_action_dtype
            low, high = (0.0, n - 1.0) if np.issubdtype(dtype, np.floating) else (0, n - 1)
            action = ArraySpec(dtype, [-1], low, high)
        else:
            space = self.action_space
            action = ArraySpec(a.dtype, [-1, *a.shape], _scalar_if_uniform(space.low), _scalar_if_uniform(space.high))
        return {"env_id": ArraySpec(np.int32, [], *i32), "players.env_id": ArraySpec(np.int32, [-1], *i32),
                "action": action}

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
        space = self.observation_space
        arrays = self.rlpool_spec.arrays
        if arrays.obs_kind == "array" or type(self.layout).observation_space is not FamilyLayout.observation_space:
            if arrays.obs_kind == "array":
                state["obs"] = ArraySpec.of(arrays.obs[0])
                if self.frame_stack > 1:
                    state["obs"].shape = [self.frame_stack, *state["obs"].shape]
            else:
                state["obs"] = ArraySpec(space.dtype, list(space.shape), _scalar_if_uniform(space.low),
                                         _scalar_if_uniform(space.high))
        else:
            own = {a.name: a for a in arrays.obs}
            for key in self.obs_keys:
                state[f"obs:{key}"] = ArraySpec.of(own[key]) if key in own else ArraySpec(
                    np.float64, self.zero_keys[key], -np.inf, np.inf)
        info = {a.name: a for a in arrays.info}
        for key in self.info_keys:
            state[f"info:{key}"] = a = ArraySpec.of(info[key], info=True)
            if key in self.layout.info_bounds:
                a.minimum, a.maximum = self.layout.info_bounds[key]
            if key in self.layout.info_int32:
                a.dtype, a.minimum, a.maximum = np.dtype(np.int32), int(a.minimum), int(a.maximum)
        return state

    @property
    def observation_space(self) -> Any:
        """Single-env gymnasium observation space (with ``zero_keys`` as unbounded float64 boxes)."""
        space = self.layout.observation_space(self.rlpool_spec.observation_space)
        if self.frame_stack > 1:
            from gymnasium import spaces

            k = self.frame_stack
            return spaces.Box(np.stack([space.low] * k), np.stack([space.high] * k), (k, *space.shape), space.dtype)
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
        state = self.state_array_spec
        env_id = _dm_spec("env_id", state.pop("info:env_id"))
        fields: dict[str, Any] = {"env_id": env_id, "players": _namedtuple("players", ("env_id",))(env_id)}
        for key, a in state.items():
            if key.startswith(("obs", "info:")) and key != "info:players.env_id":
                name = key.split(":", 1)[-1]
                fields[name] = _dm_spec(name, a)
        return _namedtuple("State", tuple(fields))(**fields)

    def action_spec(self) -> Any:
        """dm_env action spec: int32 ``DiscreteArray`` or a ``BoundedArray`` of the task's dtype, as EnvPool's."""
        if self.rlpool_spec.arrays.discrete_action:  # int32 even where action_array_spec says float64 (ViZDoom)
            return _dm_spec("action", ArraySpec(np.int32, [-1], 0, self.rlpool_spec.arrays.num_actions - 1))
        return _dm_spec("action", self.action_array_spec["action"])

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={v!r}" for k, v in self.config_dict.items())
        return f"EnvSpec({self.id!r}, {body})"


class FrameStack:
    """EnvPool's MuJoCo frame stacking: each env's last ``k`` observations, the newest last.

    A reset row (``elapsed_step`` 0) fills all ``k`` frames with its observation, as EnvPool's does.
    """

    def __init__(self, k: int, num_envs: int, shape: tuple[int, ...], dtype: Any) -> None:
        self.frames = np.zeros((num_envs, k, *shape), dtype)

    def __call__(self, obs: np.ndarray, info: dict[str, Any]) -> np.ndarray:
        ids = np.asarray(info["env_id"])
        first = np.asarray(info["elapsed_step"]) == 0
        frames = self.frames
        frames[ids[first]] = obs[first][:, None]
        going = ids[~first]
        if going.size:
            frames[going] = np.concatenate([frames[going, 1:], obs[~first][:, None]], axis=1)
        return frames[ids]


class EnvPool:
    """What every EnvPool pool has, whatever its API (EnvPool's ``envpool.EnvPool``): both faces derive from it.

    The pool runs in the engine's EnvPool mode: float32 rewards and EnvPool's info layout straight from
    the engine, a first ``step`` without ``reset`` resets (as EnvPool's does), float actions for a
    Discrete space are cast to int, dict actions are taken (``step``/``send``), and a sync pool may step
    a subset of its envs (their rows come back, in ``env_id``'s order).
    """

    spec: EnvSpec
    config: dict[str, Any]
    _pool: Any

    def _init_envpool(self, spec: EnvSpec) -> None:
        self.spec = spec
        self.config = dict(spec.config_dict)
        self.all_env_ids = np.arange(spec.config.num_envs, dtype=np.int32)
        self.is_async = spec.config.batch_size != spec.config.num_envs
        self._pool.envpool_mode = True
        self._layout = spec.layout
        self._info_keys = spec.info_keys
        own = spec.rlpool_spec.arrays.info_names
        self._reorder_info = tuple(self._info_keys) != tuple(own) or bool(spec.layout.info_int32)
        obs = spec.rlpool_spec.arrays.obs[0]
        self._stack = (FrameStack(spec.frame_stack, spec.config.num_envs, tuple(obs.shape), obs.dtype)
                       if spec.frame_stack > 1 else None)

    def _obs(self, obs: Any, info: dict[str, Any]) -> Any:
        """Rlpool's observation batch as EnvPool gives it: the family's layout, padding, frame stacking."""
        obs = self._layout.obs(self.spec.pad(obs))
        return obs if self._stack is None else self._stack(obs, info)

    def _envpool_info(self, info: dict[str, Any]) -> dict[str, Any]:
        """The engine's EnvPool-mode info with the task's entries in EnvPool's order."""
        if not self._reorder_info:
            return info
        out = {"env_id": info["env_id"], "players": info["players"]}
        out.update((k, info[k]) for k in self._info_keys)
        for k in self._layout.info_int32:
            out[k] = out[k].astype(np.int32)
        out.update((k, v) for k, v in info.items() if k not in out)
        out["elapsed_step"] = out.pop("elapsed_step")
        return out

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
        layout = self.spec.layout
        if not layout.xla_ok or self.spec.frame_stack > 1:
            raise RuntimeError(
                f"rlpool's compat xla() does not give {self.spec.id}'s EnvPool layout "
                f"({'frame_stack' if self.spec.frame_stack > 1 else type(layout).__name__}); "
                "use rlpool's own make_gymnasium(...).xla(), whose arrays are rlpool's"
            )
        from rlpool.xla import make_xla

        def convert(obs: Any, reward: Any, terminated: Any, truncated: Any, info: dict[str, Any]) -> Any:
            out = envpool_info(info)
            if self._reorder_info:
                first = {"env_id": out["env_id"], "players": out["players"]}
                first.update((k, out[k]) for k in self._info_keys)
                first.update((k, v) for k, v in out.items() if k not in first)
                first["elapsed_step"] = first.pop("elapsed_step")
                out = {k: v.astype(np.int32) if k in layout.info_int32 else v for k, v in first.items()}
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


_EnvPoolMixin = EnvPool  # the name other modules of this package used


def envpool_info(info: dict[str, Any]) -> dict[str, Any]:
    """Reorder rlpool's info into EnvPool's: ``env_id``, ``players``, task entries, ``elapsed_step``."""
    env_id = info["env_id"]
    out = {"env_id": env_id, "players": {"env_id": env_id}, **info}
    if len(out) > 3:  # task entries follow elapsed_step in rlpool's order; EnvPool puts it last
        out["elapsed_step"] = out.pop("elapsed_step")
    return out


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
        self.single_observation_space = spec.observation_space
        self.observation_space = self.single_observation_space
        self.action_space = self.single_action_space
        self.is_vector_env = True
        # The fast path: the engine's result is EnvPool's as it is, so its step() is this pool's.
        self._plain = (spec.layout.plain and not self._same_step and not spec.zero_keys and not self._reorder_info
                       and self._stack is None)
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
        return self._to(self._pool.step(action, env_id))

    def recv(self, reset: bool = False, return_info: bool = True) -> Any:
        """Wait for the next batch; ``reset=True`` returns ``(obs, info)`` as EnvPool's does."""
        result = self._to(self._pool.recv())
        return (result[0], result[4]) if reset else result

    def _to(self, result: tuple) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if self._plain:
            return result
        if self._same_step:
            unpack_final(result)
        obs, reward, terminated, truncated, info = result
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
        """Step every env, or only ``env_id``'s (sync: their rows come back; async: send, then the next batch).

        ``action`` may be EnvPool's dict; a first step before any ``reset()`` resets (FIRST rows).
        """
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
        obs = self.spec.layout.obs(obs) if self._stack is None else self._obs(obs, info)
        if self._obs_kind == "dict":
            entries = list(self.spec.pad(obs).values()) if self.spec.zero_keys else [obs[k] for k in self._obs_names]
        elif self._obs_kind == "tuple" and isinstance(obs, tuple):
            entries = list(obs)
        else:
            entries = [obs]
        int32 = self.spec.layout.info_int32
        return self._State(env_id, self._Players(env_id), *entries,
                           *[info[k].astype(np.int32) if k in int32 else info[k] for k in self.spec.info_keys])

    def _timestep(self, result: tuple) -> Any:
        obs, reward, terminated, truncated, info = result
        step_type, discount = self._step_types(terminated, truncated, info)
        return self._dm_env.TimeStep(step_type, reward.astype(np.float32), discount, self._state(obs, info))
