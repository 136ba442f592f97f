"""Task registry: task ids, their C++ env type, defaults, and option checking."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rlpool import _rlpool_core as _core
from rlpool.arrays import Arrays
from rlpool.ray_backend import BACKEND_OPTIONS, check_backend_options

AUTORESET_MODES: tuple[str, ...] = _core.AUTORESET_MODES
MAX_ENVS = 1 << 20
MAX_THREADS = 1024

# Pool options every task takes, with EnvPool's names and defaults. None means
# "derived" (batch_size = num_envs, num_threads = min(batch_size, cores),
# max_episode_steps = the task's own limit).
POOL_OPTIONS: dict[str, Any] = {
    "num_envs": 1,
    "batch_size": None,
    "num_threads": None,
    "seed": 42,
    "max_episode_steps": None,
    "autoreset_mode": "NextStep",
    "thread_affinity_offset": -1,
    "max_num_players": 1,
    "gym_reset_return_info": True,
    "reward_threshold": None,
    "render_mode": None,
    "render_env_id": 0,
    "render_width": None,
    "render_height": None,
    "render_camera_id": -1,
}

RENDER_MODES: tuple[str | None, ...] = (None, "rgb_array", "human")


@dataclass(frozen=True)
class TaskSpec:
    """A registered task: which C++ env type runs it and with which defaults."""

    task_id: str
    env_type: str
    max_episode_steps: int
    reward_threshold: float | None = None
    env_defaults: dict[str, Any] = field(default_factory=dict)
    task_options: dict[str, Any] = field(default_factory=dict)
    """Options this task adds to its env type's (name -> default), e.g. those of a Python-written env."""
    gymnasium_id: str | None = None
    """The id under which the current gymnasium has this task's dynamics (defaults included), where it
    is not the task id itself: e.g. EnvPool's ``CliffWalking-v0`` is gymnasium's ``CliffWalking-v1``.
    Benchmarks and reference tests compare with that id."""
    prepare: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    """Called with the env options when a spec is made; returns values of hidden (``_``) options that
    depend on them, e.g. a model file that a third-party package builds (the DeepMind Control Suite)."""
    episode_steps: Callable[[dict[str, Any]], int] | None = None
    """The default ``max_episode_steps`` from the env options (e.g. a time limit in seconds), if it
    depends on them; else ``max_episode_steps``."""
    max_episode_steps_cap: int | None = None
    """The largest ``max_episode_steps`` the task takes, where its library ends every episode at a step
    count of its own (Procgen's timeouts): a larger limit would never be reached."""
    waits_on_process: bool = False
    """Its envs spend their steps waiting on a process of their own (ViZDoom's engine): the default
    ``num_threads`` is then ``num_envs``, so that every env's process can work at once, instead of one
    thread per core."""
    encode: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    """Called with the env options a caller gave, before they are type-checked; returns them with
    structured values (e.g. ViZDoom's dict-valued ``reward_config``) written as the scalar (a str) that the
    C++ option takes. Raises a TypeError or ValueError naming the option for a value it cannot write."""


_TASKS: dict[str, TaskSpec] = {}
_ALIASES: dict[str, tuple[str, dict[str, Any]]] = {}
"""Other names of registered tasks, for API layers that accept them (EnvPool's ``phys2d/CartPole-v1``, ...)."""
_ENV_TYPES: dict[str, list[tuple[str, Any, str]]] = {}
_UNAVAILABLE: dict[str, str] = {}
"""Env types this build cannot make (a library was missing when it was compiled): the reason, naming it."""
for _name, _options, _why in _core.env_types():
    _ENV_TYPES[_name] = _options
    if _why:
        _UNAVAILABLE[_name] = _why


def register(
    task_id: str,
    env_type: str,
    *,
    max_episode_steps: int,
    reward_threshold: float | None = None,
    task_options: dict[str, Any] | None = None,
    gymnasium_id: str | None = None,
    prepare: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    episode_steps: Callable[[dict[str, Any]], int] | None = None,
    max_episode_steps_cap: int | None = None,
    waits_on_process: bool = False,
    encode: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    **env_defaults: Any,
) -> None:
    """Register ``task_id`` as the C++ env type ``env_type`` with task-specific defaults.

    ``task_options`` (name -> default of type bool, int, float or str) declares
    options of this task beyond its env type's own; they reach the C++ env in
    its config like the type's options. Options whose names start with ``_``
    are set here only: ``make`` does not accept them. ``gymnasium_id`` names the
    current gymnasium id with the same dynamics when it differs from ``task_id``. ``prepare`` and
    ``episode_steps`` derive hidden options and the default time limit from the options;
    ``max_episode_steps_cap`` bounds the time limit a user may set, ``waits_on_process`` changes the
    default thread count and ``encode`` writes structured option values as the env type's scalars (see
    TaskSpec).
    """
    if task_id in _TASKS:
        raise ValueError(f"task {task_id!r} is already registered")
    if env_type not in _ENV_TYPES:
        raise ValueError(f"unknown env type {env_type!r}; known: {sorted(_ENV_TYPES)}")
    known = {name for name, _, _ in _ENV_TYPES[env_type]}
    unknown = set(env_defaults) - known
    if unknown:
        raise ValueError(f"{task_id}: {sorted(unknown)} are not options of {env_type}; valid: {sorted(known)}")
    task_options = dict(task_options or {})
    for name, default in task_options.items():
        if not isinstance(name, str) or not name.isidentifier() or name.startswith("_"):
            raise ValueError(f"{task_id}: task option name {name!r} must be an identifier not starting with '_'")
        if name in known or name in POOL_OPTIONS:
            raise ValueError(f"{task_id}: task option {name!r} clashes with an option every {env_type} task has")
        if not isinstance(default, (bool, int, float, str)):
            raise TypeError(f"{task_id}: task option {name!r} needs a bool, int, float or str default, got {default!r}")
    _TASKS[task_id] = TaskSpec(
        task_id,
        env_type,
        max_episode_steps,
        reward_threshold,
        dict(env_defaults),
        task_options,
        gymnasium_id,
        prepare,
        episode_steps,
        max_episode_steps_cap,
        waits_on_process,
        encode,
    )


def register_alias(alias: str, target: str, **env_defaults: Any) -> None:
    """Register ``alias`` as another name of the task ``target``, with some of its env options' defaults changed.

    Aliases are for API layers that speak another library's ids (``rlpool.compat.envpool``): they look
    them up with ``resolve_alias``. rlpool's own ``make`` and ``list_all_envs()`` do not know them.
    """
    if alias in _TASKS or alias in _ALIASES:
        raise ValueError(f"task {alias!r} is already registered")
    t = task(target)
    known = {name for name, _, _ in _ENV_TYPES[t.env_type]} | set(t.task_options)
    unknown = sorted(set(env_defaults) - known)
    if unknown:
        raise ValueError(f"{alias}: {unknown} are not options of {target}; valid: {sorted(known)}")
    _ALIASES[alias] = (target, dict(env_defaults))


def resolve_alias(task_id: str) -> tuple[str, dict[str, Any]]:
    """``(task id, env option defaults)`` an alias stands for; a task id stands for itself with no defaults."""
    return _ALIASES.get(task_id, (task_id, {})) if isinstance(task_id, str) else (task_id, {})


def list_aliases() -> list[str]:
    """The ids registered with ``register_alias``, sorted."""
    return sorted(_ALIASES)


def list_all_envs() -> list[str]:
    """All registered task ids, sorted."""
    return sorted(_TASKS)


def unavailable(task_id: str) -> str | None:
    """Why this build of rlpool cannot make ``task_id``, naming what to install; None where it can.

    A task is unavailable where a library it needs was missing when rlpool was compiled. Such tasks stay
    registered: making one raises this reason.
    """
    return _UNAVAILABLE.get(task(task_id).env_type)


def task(task_id: str) -> TaskSpec:
    """The registered task ``task_id``; an unknown id raises a ValueError that suggests the likely ones."""
    try:
        return _TASKS[task_id]
    except (KeyError, TypeError):
        raise ValueError(unknown_task_message(task_id)) from None


def _base_name(task_id: str) -> str:
    """``"ALE/Pong-v4"`` -> ``"pong"``: the name without namespace, version or case, for suggestions."""
    return re.sub(r"-v\d+$", "", task_id.rsplit("/", 1)[-1]).lower()


def suggest_task_ids(task_id: str, limit: int = 3) -> list[str]:
    """Registered ids ``task_id`` probably meant.

    The same name in another case, namespace or version first (the same version, then the newest), else
    close spellings.
    """
    if not isinstance(task_id, str):
        return []
    known = list_all_envs()
    base = _base_name(task_id)
    same_name = [k for k in known if _base_name(k) == base]
    if same_name:
        version = re.search(r"-v\d+$", task_id)
        wanted = version.group() if version else None

        def rank(k: str) -> tuple[bool, int]:
            number = re.search(r"(\d+)$", k)
            return (not (wanted and k.endswith(wanted)), -int(number.group(1)) if number else 0)

        same_name.sort(key=rank)
        return same_name[:limit]
    by_lower = {k.lower(): k for k in known}
    close = difflib.get_close_matches(task_id.rsplit("/", 1)[-1].lower(), list(by_lower), n=limit, cutoff=0.75)
    return [by_lower[c] for c in close]


def unknown_task_message(task_id: object) -> str:
    """The error for an unknown task id: what was probably meant and how to list every id."""
    guesses = suggest_task_ids(task_id) if isinstance(task_id, str) else []
    hint = f"; did you mean {' or '.join(map(repr, guesses))}?" if guesses else ""
    return (
        f"unknown task id {task_id!r}{hint} "
        f"(rlpool.list_all_envs() or `rlpool list` shows all {len(_TASKS)} task ids)"
    )


@dataclass(frozen=True)
class OptionDoc:
    """One env option of a task: its name, the task's default and what it means."""

    name: str
    default: Any
    doc: str


def option_docs(task_id: str) -> list[OptionDoc]:
    """The env options ``task_id`` takes (its env type's and its own), with the task's defaults, in declared order.

    Options fixed at registration (names starting with ``_``) are left out.
    """
    t = task(task_id)
    docs = [OptionDoc(name, t.env_defaults.get(name, default), doc) for name, default, doc in _ENV_TYPES[t.env_type]]
    docs += [OptionDoc(name, t.env_defaults.get(name, default), "") for name, default in t.task_options.items()]
    return [d for d in docs if not d.name.startswith("_")]


INF_OPTIONS: frozenset[str] = frozenset(
    {
        # Ends of a range, where +-inf means "no bound" (gymnasium's healthy_z_range=(0.7, inf), ...).
        "healthy_z_min",
        "healthy_z_max",
        "healthy_state_min",
        "healthy_state_max",
        "healthy_angle_min",
        "healthy_angle_max",
        "contact_force_min",
        "contact_force_max",
        "contact_cost_min",
        "contact_cost_max",
        "impact_cost_min",
        "impact_cost_max",
        # Time limits, where inf means "never" (dm_control's default).
        "time_limit",
    }
)
"""Float env options that may be +-inf; every other float option must be finite, and none may be NaN.

Kept by name, in one place: every family uses these names with the same meaning. The env's own
checks (``Config::get_bound``) may narrow them further (e.g. a time limit cannot be -inf).
"""


def _coerce(name: str, value: Any, default: Any) -> Any:
    """Type-check an env option against the type of its default, without lossy casts.

    Ints must fit the engine's int64; floats must be finite (NaN never passes; +-inf only for the
    options in ``INF_OPTIONS``). A wrong type is a TypeError, a bad value a ValueError naming the option.
    """
    if isinstance(default, bool):
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
    elif isinstance(default, int):
        if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
            number = int(value)
            if not -(2**63) <= number < 2**63:
                raise ValueError(
                    f"option {name!r} is out of the int64 range [-2**63, 2**63 - 1], got {number}"
                )
            return number
    elif isinstance(default, float):
        if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_)):
            try:
                number = float(value)
            except OverflowError:
                raise ValueError(f"option {name!r} is too large for a float64, got {value}") from None
            if np.isnan(number):
                allowed = "a number or +-inf" if name in INF_OPTIONS else "finite"
                raise ValueError(f"option {name!r} must be {allowed}, got nan")
            if np.isinf(number) and name not in INF_OPTIONS:
                raise ValueError(f"option {name!r} must be finite, got {number}")
            return number
    elif isinstance(default, str):
        if isinstance(value, str):
            return value
    raise TypeError(f"option {name!r} must be of type {type(default).__name__}, got {value!r}")


def check_int(name: str, value: Any, low: int, high: int = 2**31 - 1) -> int:
    """``value`` as an int if it is an int (not a bool) in ``[low, high]``; else a TypeError or ValueError naming it."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be in [{low}, {high}], got {value}")
    return int(value)


def env_id_list(name: str, value: Any, num_envs: int) -> list[int]:
    """``value`` (an env id, or a sequence or array of them) as a list of checked ids; else a TypeError/ValueError."""
    if isinstance(value, (int, np.integer)):
        value = [value]
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise TypeError(f"{name} must be an env id or a sequence of them, got {value!r}")
    return [check_int(name, i, 0, num_envs - 1) for i in np.asarray(value).reshape(-1).tolist()]


def seeds_for(seed: Any, num_envs: int) -> list[int]:
    """EnvPool/gymnasium seeding: an int gives env i ``seed + i``; a list gives one seed per env."""
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_)):
        seed = int(seed)
        # Env i gets seed + i, so the base must leave room for the last env below 2**64.
        if 0 <= seed < 2**64 and seed + num_envs - 1 >= 2**64:
            raise ValueError(
                f"seed={seed} gives env {2**64 - seed} the seed 2**64, beyond the largest seed 2**64 - 1: "
                f"with num_envs={num_envs} an int seed must be in [0, 2**64 - {num_envs}] "
                f"(at most {2**64 - num_envs})"
            )
        seeds = [seed + i for i in range(num_envs)]
    elif isinstance(seed, (list, tuple, np.ndarray)):
        seeds = list(seed)
        if len(seeds) != num_envs:
            raise ValueError(f"seed list has {len(seeds)} entries, expected num_envs={num_envs}")
    else:
        raise TypeError(f"seed must be an int or a list of ints, got {seed!r}")
    for s in seeds:
        if isinstance(s, (bool, np.bool_)) or not isinstance(s, (int, np.integer)) or not 0 <= s < 2**64:
            raise ValueError(f"seeds must be ints in [0, 2**64 - 1], got {s!r}")
    return [int(s) for s in seeds]


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
        env_options = {name: default for name, default, _ in _ENV_TYPES[t.env_type]}
        env_options.update(t.task_options)
        env_options.update(t.env_defaults)
        # Options named "_..." are fixed at registration (e.g. compiled function addresses).
        valid = set(POOL_OPTIONS) | set(BACKEND_OPTIONS) | {k for k in env_options if not k.startswith("_")}
        unknown = sorted(set(kwargs) - valid)
        if unknown:
            raise ValueError(f"unknown option(s) {unknown} for {task_id}; valid options: {sorted(valid)}")
        self.backend: dict[str, Any] = check_backend_options(kwargs)
        """Where the envs run: ``backend`` ("local" or "ray") and the Ray options (``rlpool.ray_backend``)."""
        self.kwargs: dict[str, Any] = {k: v for k, v in kwargs.items() if k not in BACKEND_OPTIONS}
        """The options this spec was made with (without the backend's): what a Ray worker rebuilds it from."""
        pool = {k: kwargs.get(k, v) for k, v in POOL_OPTIONS.items()}
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
        if pool["max_num_players"] != 1:
            raise ValueError("max_num_players must be 1: rlpool's envs are single-player")
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
        env_config = {k: _coerce(k, given[k], env_options[k]) if k in given else env_options[k] for k in env_options}
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
        from rlpool.spaces import observation_space

        return observation_space(self.arrays)

    @property
    def action_space(self) -> Any:
        """Single-env gymnasium action space."""
        from rlpool.spaces import action_space

        return action_space(self.arrays)

    def describe(self) -> str:
        """A readable description of the task: spaces, reward, episode end and every option with its doc."""
        from rlpool.reference import describe

        return describe(self)

    def new_pool(self) -> Any:
        """Build the pool this spec describes: the C++ pool, or a ``RayPool`` for ``backend="ray"``."""
        if self.backend["backend"] == "ray":
            from rlpool.ray_backend import RayPool

            return RayPool(self)
        c = self.config
        return _core.Pool(
            self.task.env_type,
            self.env_config,
            c["num_envs"],
            c["batch_size"],
            c["num_threads"],
            c["thread_affinity_offset"],
            self.seeds,
            c["max_episode_steps"],
            c["autoreset_mode"],
        )

    def __repr__(self) -> str:
        return f"EnvSpec({self.id!r}, {self.config})"
