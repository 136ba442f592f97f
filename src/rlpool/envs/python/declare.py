"""Declaring a Python-written task: from gymnasium spaces and ``reset``/``step``/``render`` functions to engine arrays.

``declare_task`` checks everything ``rlpool.python_env.register`` is given
to declare a task (one ``TaskDeclaration``), before anything compiles, and
turns it into a ``PythonTask``: one ``EngineArray`` per observation entry,
info entry, state field and the action, the state's byte layout, the typed
options, the frame size of an optional ``render``, and ``spec_text``, the
compact description ``numba_env.cc`` parses from the task's ``_spec`` option.
Invalid declarations raise ``ValueError``/``TypeError`` naming the problem.
"""

from __future__ import annotations

import inspect
import keyword
import math
import types as pytypes
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces

from rlpool import registry
from rlpool.options import POOL_OPTIONS

RESET_ARGUMENTS = ("state", "obs", "info", "rng", "params")
"""The arguments a ``reset`` function may take, by name."""
STEP_ARGUMENTS = ("state", "action", "obs", "info", "rng", "params")
"""The arguments a ``step`` function may take, by name."""
RENDER_ARGUMENTS = ("state", "frame", "params")
"""The arguments a ``render`` function may take, by name (``frame``: the uint8 (height, width, 3) picture)."""
MAX_RENDER_SIDE = 16384
"""The largest frame width or height a task may declare (the engine's limit on a render size)."""

# Engine dtypes an observation, info entry or action may have.
ENGINE_DTYPES = ("bool", "uint8", "int32", "int64", "float32", "float64")
# State fields may be any of these (the engine only stores their bytes).
STATE_DTYPES = ("bool", "uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64", "float32", "float64")
# info names the engine uses itself.
_RESERVED_INFO = {"env_id", "elapsed_step", "final_obs", "final_info", "players", "TimeLimit.truncated"}


@dataclass(frozen=True)
class EngineArray:
    """One array of a task: an obs/info entry, the action or a state field."""

    name: str
    dtype: str
    shape: tuple[int, ...]
    low: tuple[float, ...] = ()
    high: tuple[float, ...] = ()

    @property
    def nbytes(self) -> int:
        """Bytes the array takes."""
        return int(np.prod(self.shape, dtype=np.int64)) * np.dtype(self.dtype).itemsize

    def encode(self, key: str) -> str:
        """The ``_spec`` line numba_env.cc parses."""
        fields = [key, self.name, self.dtype, str(len(self.shape)), *map(str, self.shape)]
        for bounds in (self.low, self.high):
            fields += [str(len(bounds)), *(float(b).hex() for b in bounds)]
        return " ".join(fields)

    def empty(self) -> np.ndarray:
        """A zeroed numpy array of this shape and dtype."""
        return np.zeros(self.shape, np.dtype(self.dtype))


@dataclass
class PythonTask:
    """A registered Python-written task: its functions, arrays and compiled code."""

    task_id: str
    reset: Callable[..., Any]
    step: Callable[..., Any]
    obs: list[EngineArray]
    obs_kind: str  # "array", "dict" or "tuple"
    action: EngineArray
    info: list[EngineArray]
    state: list[EngineArray]
    state_kind: str  # "array" or "dict"
    state_offsets: list[int]
    state_bytes: int
    options: dict[str, Any]
    spec_text: str
    render: Callable[..., Any] | None = None
    """``render(state, frame, params)``, or None: the task does not render."""
    render_size: tuple[int, int] = (0, 0)
    """(width, height) of the frames ``render`` draws; (0, 0) without ``render``."""
    render_fps: float = 30.0
    """Frames per second of a video of the task (gymnasium's ``metadata["render_fps"]``)."""
    compile_seconds: float = 0.0
    cache_hit: bool = False
    """Whether both functions were loaded from the disk cache instead of compiled."""
    module_path: Path | None = None
    compiled: list[Any] = field(default_factory=list, repr=False)
    """numba's compiled ``reset``, ``step`` and ``render`` if any (``numba.cfunc``); they keep the code alive."""

    @property
    def functions(self) -> list[Callable[..., Any]]:
        """The user's functions: ``reset``, ``step`` and ``render`` where the task has one."""
        return [self.reset, self.step] + ([self.render] if self.render is not None else [])


def parameter_names(fn: Callable[..., Any]) -> list[str]:
    """The names of ``fn``'s parameters, in order: the arguments a declared ``reset``/``step``/``render`` gets."""
    return list(inspect.signature(fn).parameters)


@dataclass(frozen=True)
class TaskDeclaration:
    """What ``rlpool.python_env.register`` is given to declare a task, as given: not yet checked.

    ``register`` builds it once (the decorator form with the class's
    ``reset``/``step``/``render`` put in) and ``declare_task`` checks it.
    ``render_size`` and ``render_fps`` go with ``render``: None where not given.
    """

    task_id: Any
    obs: Any
    action: Any
    state: Any
    max_episode_steps: Any
    reset: Any = None
    step: Any = None
    info: Mapping[str, Any] | None = None
    options: Mapping[str, Any] | None = None
    render: Any = None
    render_size: Any = None
    render_fps: Any = None


def declare_task(decl: TaskDeclaration) -> PythonTask:
    """Check a task's declaration and build its ``PythonTask`` (not yet compiled), ``spec_text`` included.

    ``render`` (a function, or None), ``render_size`` ((width, height), needed
    with ``render`` and refused without it) and ``render_fps`` (a positive
    number, default 30) declare the task's frames.

    Raises:
        ValueError, TypeError: a declaration is invalid (the message names it),
            or ``task_id`` is taken.

    """
    task_id, max_episode_steps = decl.task_id, decl.max_episode_steps
    if not isinstance(task_id, str) or not task_id or any(c.isspace() for c in task_id):
        raise ValueError(f"task_id must be a non-empty string without spaces, got {task_id!r}")
    if task_id in registry.list_all_envs():
        raise ValueError(f"task {task_id!r} is already registered")
    if isinstance(max_episode_steps, bool) or not isinstance(max_episode_steps, (int, np.integer)):
        raise TypeError(f"max_episode_steps must be an int, got {max_episode_steps!r}")
    reset_fn = _function(decl.reset, "reset")
    step_fn = _function(decl.step, "step")
    reset_args = _arguments(reset_fn, "reset", RESET_ARGUMENTS)
    step_args = _arguments(step_fn, "step", STEP_ARGUMENTS)
    render_fn, frame_size, fps = _render_declaration(decl.render, decl.render_size, decl.render_fps)
    render_args = _arguments(render_fn, "render", RENDER_ARGUMENTS) if render_fn is not None else []
    if render_fn is not None and "frame" not in render_args:
        raise ValueError("render(): it must take frame, the (height, width, 3) uint8 array it draws into")

    obs_arrays, obs_kind = _obs_arrays(decl.obs)
    action_array = _action_array(decl.action)
    info_arrays = []
    for name, space in (decl.info or {}).items():
        _identifier(name, "info")
        if name in _RESERVED_INFO:
            raise ValueError(f"info: {name!r} is an info entry the engine writes itself")
        info_arrays.append(_space_array(name, space, f"info[{name!r}]"))
    state_arrays, state_kind = _state_arrays(decl.state)
    params = _options(decl.options)
    for name in params:
        if name in POOL_OPTIONS:
            raise ValueError(f"options: {name!r} is a pool option every task has")
    for fn_name, names in (("reset", reset_args), ("step", step_args), ("render", render_args)):
        if "info" in names and not info_arrays:
            raise ValueError(f"{fn_name}() takes info, but the task declares no info=")
        if "params" in names and not params:
            raise ValueError(f"{fn_name}() takes params, but the task declares no options=")

    offsets, size = [], 0
    for a in state_arrays:
        offsets.append(size)
        size += (a.nbytes + 7) // 8 * 8
    t = PythonTask(
        task_id=task_id,
        reset=reset_fn,
        step=step_fn,
        obs=obs_arrays,
        obs_kind=obs_kind,
        action=action_array,
        info=info_arrays,
        state=state_arrays,
        state_kind=state_kind,
        state_offsets=offsets,
        state_bytes=size,
        options=params,
        spec_text="",
        render=render_fn,
        render_size=frame_size,
        render_fps=fps,
    )
    t.spec_text = spec_text(t)
    return t


def spec_text(t: PythonTask) -> str:
    """The task's ``_spec`` option: its arrays, state layout, observation kind and params, one per line."""
    lines = [f"task {t.task_id}"]
    lines += [f"state {off} {a.nbytes}" for off, a in zip(t.state_offsets, t.state, strict=True)]
    lines += [a.encode("obs") for a in t.obs]
    lines += [a.encode("info") for a in t.info]
    lines.append(t.action.encode("action"))
    lines.append(f"kind {t.obs_kind}")
    if t.render is not None:
        lines.append(f"render {t.render_size[0]} {t.render_size[1]} {float(t.render_fps).hex()}")
    for name, default in t.options.items():
        kind = "b" if isinstance(default, bool) else "i" if isinstance(default, int) else "f"
        lines.append(f"param {name} {kind}")
    return "\n".join(lines)


def _check_dtype(dtype: Any, allowed: tuple[str, ...], what: str) -> str:
    name = np.dtype(dtype).name
    if name not in allowed:
        raise ValueError(f"{what}: dtype {name} is not supported; use one of {', '.join(allowed)}")
    return name


def _bounds(values: np.ndarray) -> tuple[float, ...]:
    flat = np.asarray(values, np.float64).ravel()
    if flat.size and np.all(flat == flat[0]):
        return (float(flat[0]),)
    return tuple(float(v) for v in flat)


def _space_array(name: str, space: Any, what: str) -> EngineArray:
    """One engine array from a gymnasium Box, Discrete or MultiBinary (or an array template for info)."""
    if isinstance(space, spaces.Box):
        dtype = _check_dtype(space.dtype, ENGINE_DTYPES, what)
        if dtype == "bool":
            raise ValueError(f"{what}: a bool Box is not supported; use MultiBinary")
        return EngineArray(name, dtype, tuple(space.shape), _bounds(space.low), _bounds(space.high))
    if isinstance(space, spaces.Discrete):
        dtype = _check_dtype(space.dtype, ("int32", "int64"), what)
        start = int(space.start)
        return EngineArray(name, dtype, (), (float(start),), (float(start + int(space.n) - 1),))
    if isinstance(space, spaces.MultiBinary):
        return EngineArray(name, "bool", tuple(space.shape))
    if isinstance(space, (np.ndarray, np.generic)):
        return EngineArray(name, _check_dtype(space.dtype, ENGINE_DTYPES, what), tuple(np.shape(space)))
    raise TypeError(
        f"{what}: expected a gymnasium Box, Discrete or MultiBinary space, got {type(space).__name__} "
        "(MultiDiscrete, Text, Graph and nested spaces are not supported)"
    )


def _identifier(name: Any, what: str) -> str:
    if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_"):
        raise ValueError(f"{what}: name {name!r} must be a Python identifier (not a keyword) not starting with '_'")
    return name


def _obs_array(name: str, space: Any, what: str) -> EngineArray:
    a = _space_array(name, space, what)
    if isinstance(space, spaces.Box) and a.shape == () and np.issubdtype(np.dtype(a.dtype), np.integer):
        raise ValueError(f"{what}: a 0-d integer Box observation is a Discrete space to gymnasium; declare Discrete")
    return a


def _obs_arrays(obs: Any) -> tuple[list[EngineArray], str]:
    if isinstance(obs, spaces.Dict):
        if not obs.spaces:
            raise ValueError("obs: a Dict observation needs at least one entry")
        if list(obs.spaces) == ["obs"]:
            raise ValueError("obs: a Dict with the single key 'obs' is a plain observation; pass the space itself")
        arrays = [_obs_array(_identifier(k, "obs"), s, f"obs[{k!r}]") for k, s in obs.spaces.items()]
        return arrays, "dict"
    if isinstance(obs, spaces.Tuple):
        if not obs.spaces:
            raise ValueError("obs: a Tuple observation needs at least one entry")
        return [_obs_array(f"obs{i}", s, f"obs[{i}]") for i, s in enumerate(obs.spaces)], "tuple"
    if isinstance(obs, (np.ndarray, np.generic)):
        raise TypeError("obs: expected a gymnasium space (Box, Discrete, MultiBinary, Dict or Tuple)")
    return [_obs_array("obs", obs, "obs")], "array"


def _action_array(action: Any) -> EngineArray:
    if isinstance(action, spaces.Discrete):
        if int(action.start) != 0:
            raise ValueError("action: a Discrete action must start at 0")
        return EngineArray("action", "int64", (), (0.0,), (float(int(action.n) - 1),))
    if isinstance(action, spaces.Box):
        if np.dtype(action.dtype) not in (np.float32, np.float64) or len(action.shape) != 1:
            raise ValueError("action: a Box action must be a 1-D float32 or float64 Box")
        dtype = np.dtype(action.dtype).name  # the action space's dtype; the functions get float64 values
        return EngineArray("action", dtype, tuple(action.shape), _bounds(action.low), _bounds(action.high))
    raise TypeError(f"action: expected a gymnasium Discrete or 1-D Box space, got {type(action).__name__}")


def _state_field(name: str, decl: Any) -> EngineArray:
    what = f"state[{name!r}]" if name != "state" else "state"
    if isinstance(decl, (bool, np.bool_)):
        raise TypeError(f"{what}: expected a shape (int or tuple of ints) or a numpy array, got {decl!r}")
    if isinstance(decl, (int, np.integer)):
        decl = (int(decl),)
    if isinstance(decl, tuple) and all(isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in decl):
        if any(d < 1 for d in decl):
            raise ValueError(f"{what}: dimensions must be >= 1, got {decl}")
        return EngineArray(name, "float64", tuple(int(d) for d in decl))
    if isinstance(decl, (np.ndarray, np.generic)):
        return EngineArray(name, _check_dtype(decl.dtype, STATE_DTYPES, what), tuple(np.shape(decl)))
    raise TypeError(f"{what}: expected a shape (int or tuple of ints) or a numpy array, got {decl!r}")


def _state_arrays(state: Any) -> tuple[list[EngineArray], str]:
    if isinstance(state, Mapping):
        if not state:
            raise ValueError("state: a dict state needs at least one field")
        return [_state_field(_identifier(k, "state"), v) for k, v in state.items()], "dict"
    return [_state_field("state", state)], "array"


def _options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, default in (options or {}).items():
        _identifier(name, "options")
        if isinstance(default, (bool, np.bool_)):
            out[name] = bool(default)
        elif isinstance(default, (int, np.integer)):
            out[name] = int(default)
        elif isinstance(default, (float, np.floating)):
            out[name] = float(default)
        else:
            raise TypeError(f"options: {name!r} needs a bool, int or float default, got {default!r}")
    return out


def _render_declaration(render: Any, size: Any, fps: Any) -> tuple[Callable[..., Any] | None, tuple[int, int], float]:
    """``render``, its ``render_size`` as (width, height) and ``render_fps``, checked."""
    if render is None:
        if size is not None or fps is not None:
            given = "render_size" if size is not None else "render_fps"
            raise ValueError(f"{given} is given but there is no render function to draw the frames")
        return None, (0, 0), 30.0
    fn = _function(render, "render")
    if size is None:
        raise ValueError("render needs render_size=(width, height), the size of the frames it draws")
    ok = (
        isinstance(size, (tuple, list))
        and len(size) == 2
        and all(isinstance(d, (int, np.integer)) and not isinstance(d, (bool, np.bool_)) for d in size)
    )
    if not ok:
        raise TypeError(f"render_size must be (width, height), two ints, got {size!r}")
    width, height = int(size[0]), int(size[1])
    if not (1 <= width <= MAX_RENDER_SIDE and 1 <= height <= MAX_RENDER_SIDE):
        raise ValueError(f"render_size: width and height must be in [1, {MAX_RENDER_SIDE}], got {size!r}")
    if fps is None:
        fps = 30.0
    if isinstance(fps, (bool, np.bool_)) or not isinstance(fps, (int, float, np.integer, np.floating)):
        raise TypeError(f"render_fps must be a number, got {fps!r}")
    if not (math.isfinite(float(fps)) and float(fps) > 0):
        raise ValueError(f"render_fps must be positive and finite, got {fps!r}")
    return fn, (width, height), float(fps)


def _function(obj: Any, name: str) -> Callable[..., Any]:
    fn = obj.__func__ if isinstance(obj, (staticmethod, classmethod)) else obj
    fn = getattr(fn, "py_func", fn)  # already decorated with numba.njit
    if not isinstance(fn, pytypes.FunctionType):
        raise TypeError(f"{name} must be a Python function, got {type(obj).__name__}")
    return fn


def _arguments(fn: Callable[..., Any], name: str, allowed: tuple[str, ...]) -> list[str]:
    params = inspect.signature(fn).parameters.values()
    names = []
    for p in params:
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) or p.default is not p.empty:
            raise ValueError(f"{name}(): parameter {p.name!r} must be a plain positional parameter")
        if p.name not in allowed:
            hint = " (make it a @staticmethod)" if p.name in ("self", "cls") else ""
            raise ValueError(
                f"{name}(): unknown parameter {p.name!r}{hint}; a {name} function takes any of {', '.join(allowed)}, "
                "in any order, and gets each by its name"
            )
        names.append(p.name)
    return names
