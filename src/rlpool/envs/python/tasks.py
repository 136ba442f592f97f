"""Registering Python-written tasks: ``register``, the table of registered tasks, ``task_info``.

``register`` puts what it is given in one ``TaskDeclaration``, declares the
task from it (``declare``), compiles it (``compiler``), then registers it
with rlpool's registry as the C++ env type ``NumbaEnv``, whose private
options carry the addresses of the compiled functions and the task's
``_spec`` text, and with gymnasium as ``rlpool/<task_id>``.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Mapping
from typing import Any

from rlpool import registry
from rlpool.api.gymnasium_ids import register_with_gymnasium
from rlpool.envs.python.compiler import compile_task
from rlpool.envs.python.declare import PythonTask, TaskDeclaration, declare_task

_TASKS: dict[str, PythonTask] = {}
_LOCK = threading.RLock()


def task_info(task_id: str) -> PythonTask:
    """The ``PythonTask`` registered as ``task_id`` by ``register``."""
    try:
        return _TASKS[task_id]
    except KeyError:
        raise ValueError(f"{task_id!r} is not a Python-written task; those are: {sorted(_TASKS)}") from None


def register(
    task_id: str,
    *,
    obs: Any,
    action: Any,
    state: Any,
    max_episode_steps: int,
    reset: Callable[..., Any] | None = None,
    step: Callable[..., Any] | None = None,
    info: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    reward_threshold: float | None = None,
    cache: bool = True,
    render: Callable[..., Any] | None = None,
    render_size: tuple[int, int] | None = None,
    render_fps: float | None = None,
) -> Any:
    """Compile ``reset``/``step`` (and ``render``) with numba and register ``task_id`` for ``rlpool.make``.

    Used as a class decorator (the class's ``reset`` and ``step``, static
    methods, are taken, and its ``render`` where it defines one; the class is
    returned unchanged) or called with ``reset=`` and ``step=`` (and
    ``render=``; returns the ``PythonTask``).

    Args:
        task_id: the id ``rlpool.make`` takes (also ``gymnasium.make_vec("rlpool/<id>")``).
        obs: the single-env observation space: a gymnasium Box, Discrete or
            MultiBinary, or a Dict / Tuple of those.
        action: a Discrete (from 0) or 1-D Box action space.
        state: the env's state: a shape (float64), a numpy array (its dtype and
            shape), or a dict of those (a namedtuple of arrays).
        max_episode_steps: truncation limit (``make(..., max_episode_steps=)`` overrides it).
        reset: ``reset(...)`` writing the first observation; takes any of
            ``state, obs, info, rng, params`` by name.
        step: ``step(...) -> (reward, terminated)``; takes any of
            ``state, action, obs, info, rng, params`` by name.
        info: extra per-step info entries: name -> Box/Discrete/MultiBinary or
            numpy array template; they appear in ``info[name]``.
        options: the task's own options, name -> default (bool, int or float),
            passed as ``params``; ``make(task_id, name=value)`` overrides them.
        reward_threshold: the return at which the task counts as solved.
        cache: keep the compiled code on disk for the next process.
        render: ``render(...)`` drawing the state into ``frame``, a zeroed
            ``(height, width, 3)`` uint8 array; takes any of ``state, frame,
            params`` by name (``frame`` required) and returns nothing. It gets
            a copy of the state: what it writes there is discarded. Without
            it the task does not render.
        render_size: ``(width, height)`` of the frames ``render`` draws (needed
            with ``render``); other ``render_width``/``render_height`` are the
            engine's resize of them.
        render_fps: gymnasium's ``metadata["render_fps"]`` (default 30).

    Raises:
        CompileError: numba cannot compile a function (numba's message, with
            the file and line it points at).
        ValueError, TypeError: a declaration is invalid (the message names it).

    """
    decl = TaskDeclaration(
        task_id=task_id,
        obs=obs,
        action=action,
        state=state,
        max_episode_steps=max_episode_steps,
        reset=reset,
        step=step,
        info=info,
        options=options,
        render=render,
        render_size=render_size,
        render_fps=render_fps,
    )
    if reset is not None or step is not None:
        if reset is None or step is None:
            raise TypeError("pass both reset= and step=, or decorate a class that defines both")
        return _register(decl, reward_threshold, cache)
    if render is not None:
        raise TypeError("render= goes with reset= and step=; a decorated class defines render itself")

    def decorate(cls: Any) -> Any:
        members = vars(cls)
        missing = [name for name in ("reset", "step") if name not in members]
        if missing:
            raise TypeError(f"{getattr(cls, '__name__', cls)!r} must define {' and '.join(missing)}")
        functions = {"reset": members["reset"], "step": members["step"], "render": members.get("render")}
        _register(dataclasses.replace(decl, **functions), reward_threshold, cache)
        return cls

    return decorate


def _register(decl: TaskDeclaration, reward_threshold: float | None, cache: bool) -> PythonTask:
    """Declare, compile and register one task (``register``'s work, either form)."""
    t = declare_task(decl)
    task_id = t.task_id  # declare_task checked it is a str
    with _LOCK:
        compile_task(t, cache)
        reset_cf, step_cf = t.compiled[:2]
        render_cf = t.compiled[2] if t.render is not None else None
        registry.register(
            task_id,
            "NumbaEnv",
            max_episode_steps=int(decl.max_episode_steps),
            reward_threshold=reward_threshold,
            task_options=t.options,
            _reset_fn=int(reset_cf.address),
            _step_fn=int(step_cf.address),
            _render_fn=int(render_cf.address) if render_cf is not None else 0,
            _spec=t.spec_text,
        )
        _TASKS[task_id] = t
    register_with_gymnasium(task_id)
    return t
