"""The task registry: task ids and the C++ env type that runs each.

With each task its defaults and aliases, and the options each env type declares.
"""

from __future__ import annotations

import difflib
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rlpool import _rlpool_core as _core
from rlpool.options import AUTORESET_MODES, POOL_OPTIONS


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
    task_methods: Callable[[dict[str, Any]], dict[str, Callable[..., Any]]] | None = None
    """Called with the env config (the resolved env options, hidden ones included) when a pool is made; returns
    functions of the task by name that callers reach on the faces as methods of the env (gymnasium-robotics'
    ``compute_reward(achieved_goal, desired_goal, info)``, ``compute_terminated``, ``compute_truncated``), each
    working on whole batches."""
    family: str | None = None
    """The family that registered the task: the folder ``rlpool/envs/<family>/`` whose module called
    ``register`` (found from the calling frames when the task is registered); None for a task registered from
    outside ``rlpool.envs`` (a user's ``rlpool.register``)."""
    autoreset_mode: str | None = None
    """The task's own default ``autoreset_mode`` (one of ``rlpool.options.AUTORESET_MODES``), e.g.
    ``"SameStep"`` for a task whose reference resets within the step that ends an episode; None: the pool
    option's default."""


_FAMILY_PACKAGE = "rlpool.envs."
"""The package whose sub-packages are the families: a task registered from ``rlpool.envs.<family>...`` is that
family's."""

_TASKS: dict[str, TaskSpec] = {}
_ALIASES: dict[str, tuple[str, dict[str, Any]]] = {}
"""Other names of registered tasks, for API layers that accept them (EnvPool's ``phys2d/CartPole-v1``, ...)."""
_ENV_TYPES: dict[str, list[tuple[str, Any, str]]] = {}
_INF: dict[str, frozenset[str]] = {}
"""Per env type, its float options that may be +-inf (declared with the option in C++: ``may_be_inf``)."""
_ID_NOTES: list[Callable[[str], str | None]] = []
"""Functions that explain ids rlpool does not register (another library's), for ``unknown_task_message``."""
_UNAVAILABLE: dict[str, str] = {}
"""Env types this build cannot make (a library was missing when it was compiled): the reason, naming it."""
for _name, _options, _why in _core.env_types():
    _ENV_TYPES[_name] = _options
    _INF[_name] = frozenset(o.name for o in _options if o.may_be_inf)
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
    task_methods: Callable[[dict[str, Any]], dict[str, Callable[..., Any]]] | None = None,
    autoreset_mode: str | None = None,
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
    default thread count, ``encode`` writes structured option values as the env type's scalars and
    ``task_methods`` gives the task's functions that the faces offer as methods of the env, e.g. a goal
    task's ``compute_reward`` (see TaskSpec); ``autoreset_mode`` is the task's default of that pool option.
    """
    if task_id in _TASKS:
        raise ValueError(f"task {task_id!r} is already registered")
    if env_type not in _ENV_TYPES:
        raise ValueError(f"unknown env type {env_type!r}; known: {sorted(_ENV_TYPES)}")
    known = {name for name, _, _ in _ENV_TYPES[env_type]}
    unknown = set(env_defaults) - known
    if unknown:
        raise ValueError(f"{task_id}: {sorted(unknown)} are not options of {env_type}; valid: {sorted(known)}")
    if autoreset_mode is not None and autoreset_mode not in AUTORESET_MODES:
        raise ValueError(f"{task_id}: autoreset_mode must be one of {AUTORESET_MODES}, got {autoreset_mode!r}")
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
        task_methods,
        _registering_family(),
        autoreset_mode,
    )


def _registering_family() -> str | None:
    """The family whose module is registering a task: the innermost calling frame inside ``rlpool.envs.<family>``."""
    frame = sys._getframe(2)  # register's caller
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module.startswith(_FAMILY_PACKAGE):
            return module[len(_FAMILY_PACKAGE) :].split(".", 1)[0]
        frame = frame.f_back
    return None


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


def register_id_note(note: Callable[[str], str | None]) -> None:
    """Add ``note(task_id)``: for an id rlpool does not register, a sentence on what it means here, or None.

    A family adds one for another library's ids that look like its own but are not the same env (a name
    rlpool registers under another namespace, with other defaults): the error of an unknown id then says how
    rlpool's task differs and which options come closest, beside the suggested ids.
    """
    _ID_NOTES.append(note)


def resolve_alias(task_id: str) -> tuple[str, dict[str, Any]]:
    """``(task id, env option defaults)`` an alias stands for; a task id stands for itself with no defaults."""
    return _ALIASES.get(task_id, (task_id, {})) if isinstance(task_id, str) else (task_id, {})


def list_aliases() -> list[str]:
    """The ids registered with ``register_alias``, sorted."""
    return sorted(_ALIASES)


def list_all_envs() -> list[str]:
    """All registered task ids, sorted."""
    return sorted(_TASKS)


def family(task_id: str) -> str | None:
    """The family that registered ``task_id``: its folder ``rlpool/envs/<family>/``.

    None for a task registered from outside ``rlpool.envs``; an unknown id raises a ValueError, as ``task`` does.
    """
    return task(task_id).family


def list_families() -> list[str]:
    """The families that registered at least one task, sorted."""
    return sorted({t.family for t in _TASKS.values() if t.family is not None})


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
    """The error for an unknown task id: what was probably meant, notes on it and how to list every id.

    The notes are those of ``register_id_note`` (another library's id that looks like one of rlpool's).
    """
    guesses = suggest_task_ids(task_id) if isinstance(task_id, str) else []
    hint = f"; did you mean {' or '.join(map(repr, guesses))}?" if guesses else ""
    notes = [n for n in (note(task_id) for note in _ID_NOTES) if n] if isinstance(task_id, str) else []
    return (
        f"unknown task id {task_id!r}{hint} "
        + "".join(f"{note} " for note in notes)
        + f"(rlpool.list_all_envs() or `rlpool list` shows all {len(_TASKS)} task ids)"
    )


@dataclass(frozen=True)
class OptionDoc:
    """One env option of a task: its name, the task's default and what it means."""

    name: str
    default: Any
    doc: str


def env_type_options(env_type: str) -> list[tuple[str, Any, str]]:
    """The options an env type declares in C++: (name, default, doc), in declared order."""
    return _ENV_TYPES[env_type]


def inf_options(env_type: str) -> frozenset[str]:
    """The float options of ``env_type`` that may be +-inf (a bound meaning "none", a limit meaning "never")."""
    return _INF[env_type]


def option_docs(task_id: str) -> list[OptionDoc]:
    """The env options ``task_id`` takes (its env type's and its own), with the task's defaults, in declared order.

    Options fixed at registration (names starting with ``_``) are left out.
    """
    t = task(task_id)
    docs = [OptionDoc(name, t.env_defaults.get(name, default), doc) for name, default, doc in _ENV_TYPES[t.env_type]]
    docs += [OptionDoc(name, t.env_defaults.get(name, default), "") for name, default in t.task_options.items()]
    return [d for d in docs if not d.name.startswith("_")]
