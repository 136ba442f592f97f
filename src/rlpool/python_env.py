"""Environments written in Python that the pool runs at native speed, with the GIL released.

Write ``reset`` and ``step`` as plain Python functions over numpy arrays and
register them::

    import numpy as np
    from gymnasium import spaces
    from rlpool import python_env

    @python_env.register(
        "Drift-v0",
        obs=spaces.Box(-10.0, 10.0, (1,), np.float32),
        action=spaces.Discrete(2),
        state=1,                      # one float64
        options={"speed": 0.1},       # make("Drift-v0", speed=0.2) overrides it
        max_episode_steps=100,
    )
    class Drift:
        @staticmethod
        def reset(state, obs, rng):
            state[0] = rng.uniform(-1.0, 1.0)
            obs[0] = state[0]

        @staticmethod
        def step(state, action, obs, params):
            state[0] += params.speed if action == 1 else -params.speed
            obs[0] = state[0]
            return 1.0, abs(state[0]) > 10.0      # reward, terminated

    envs = rlpool.make("Drift-v0", num_envs=64)

numba compiles both functions (its nopython subset of Python and NumPy) into
C-callable functions that the C++ env type ``NumbaEnv``
(``envs/python/numba_env.cc``) calls from the pool's worker threads; the
engine does time limits, autoreset, seeding, async batching and every API
exactly as for the built-in envs. A function receives the arguments it names:

- ``state``: the env's own state, an array (``state=4``: float64[4], or a
  numpy array as dtype/shape template) or, for ``state={"name": ...}``, a
  namedtuple of arrays. It persists between calls; ``get_state``/``set_state``
  read and write its bytes.
- ``action`` (step only): an int for ``Discrete`` actions, a float64 array for
  ``Box`` actions.
- ``obs``: where the observation goes: an array (0-d for ``Discrete``: write
  ``obs[()] = value``), a namedtuple of arrays for a ``Dict``, a tuple for a
  ``Tuple``.
- ``info``: a namedtuple of arrays, one per ``info={name: space}`` entry.
- ``rng``: the env's random generator (the engine's, seeded per env):
  ``rng.random()``, ``rng.uniform(low, high)``, ``rng.normal(loc, scale)``,
  ``rng.integers(n)`` / ``rng.integers(low, high)``, ``rng.bits()``.
- ``params``: a namedtuple of the task's ``options`` (bool, int or float).

``step`` returns ``(reward, terminated)``; ``reset`` returns nothing.
Every array index is bounds-checked, so a bad index raises instead of writing
outside the env's own buffers; an exception raised inside ``reset``/``step``
comes out of ``envs.step()`` as a ``RuntimeError`` carrying its type and
message, and that env must be reset before it steps again. Division follows
numpy (``x / 0.0`` is ``inf``, no exception).

Compiled code is cached on disk (``cache_dir()``, override with the
``RLPOOL_CACHE_DIR`` environment variable), keyed by the source files of the
functions and of the jitted helpers they call, so a second process registers
the same env without compiling. ``reference(task_id)`` runs the same
functions as plain Python, one env, for debugging and testing.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import keyword
import math
import os
import re
import shutil
import sys
import tempfile
import threading
import time
import types as pytypes
import warnings
import weakref
from collections import namedtuple
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces

from rlpool import registry

__all__ = [
    "CompileError",
    "PythonTask",
    "ReferenceEnv",
    "Rng",
    "cache_dir",
    "clear_cache",
    "reference",
    "register",
    "task_info",
]

RESET_ARGUMENTS = ("state", "obs", "info", "rng", "params")
STEP_ARGUMENTS = ("state", "action", "obs", "info", "rng", "params")

# Argument slots of a compiled call (numba_env.cc's Slot enum).
_PARAMS_F64, _PARAMS_I64, _RNG, _RNG_API, _ERROR_FN, _ERROR_CTX, _ACTION, _REWARD, _TERMINATED, _FIRST_ARRAY = range(10)

# Bump when the generated wrapper's meaning changes without its text changing.
_WRAPPER_VERSION = 1

# Engine dtypes an observation, info entry or action may have.
_ENGINE_DTYPES = ("bool", "uint8", "int32", "int64", "float32", "float64")
# State fields may be any of these (the engine only stores their bytes).
_STATE_DTYPES = ("bool", "uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64", "float32", "float64")
# numpy attribute that names each dtype in generated code.
_NP_NAMES = {name: ("bool_" if name == "bool" else name) for name in _STATE_DTYPES}
# info names the engine uses itself.
_RESERVED_INFO = {"env_id", "elapsed_step", "final_obs", "final_info", "players", "TimeLimit.truncated"}


class CompileError(Exception):
    """numba could not compile a Python-written env's ``reset`` or ``step``; the message is numba's."""


@dataclass(frozen=True)
class _Array:
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
    obs: list[_Array]
    obs_kind: str  # "array", "dict" or "tuple"
    action: _Array
    info: list[_Array]
    state: list[_Array]
    state_kind: str  # "array" or "dict"
    state_offsets: list[int]
    state_bytes: int
    options: dict[str, Any]
    spec_text: str
    compile_seconds: float = 0.0
    cache_hit: bool = False
    """Whether both functions were loaded from the disk cache instead of compiled."""
    module_path: Path | None = None
    _compiled: list[Any] = field(default_factory=list, repr=False)  # keeps the code alive


_TASKS: dict[str, PythonTask] = {}
_LOCK = threading.RLock()


def task_info(task_id: str) -> PythonTask:
    """The ``PythonTask`` registered as ``task_id`` by this module."""
    try:
        return _TASKS[task_id]
    except KeyError:
        raise ValueError(f"{task_id!r} is not a Python-written task; those are: {sorted(_TASKS)}") from None


# --- declarations -> arrays -------------------------------------------------------------------


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


def _space_array(name: str, space: Any, what: str) -> _Array:
    """One engine array from a gymnasium Box, Discrete or MultiBinary (or an array template for info)."""
    if isinstance(space, spaces.Box):
        dtype = _check_dtype(space.dtype, _ENGINE_DTYPES, what)
        if dtype == "bool":
            raise ValueError(f"{what}: a bool Box is not supported; use MultiBinary")
        return _Array(name, dtype, tuple(space.shape), _bounds(space.low), _bounds(space.high))
    if isinstance(space, spaces.Discrete):
        dtype = _check_dtype(space.dtype, ("int32", "int64"), what)
        start = int(space.start)
        return _Array(name, dtype, (), (float(start),), (float(start + int(space.n) - 1),))
    if isinstance(space, spaces.MultiBinary):
        return _Array(name, "bool", tuple(space.shape))
    if isinstance(space, (np.ndarray, np.generic)):
        return _Array(name, _check_dtype(space.dtype, _ENGINE_DTYPES, what), tuple(np.shape(space)))
    raise TypeError(
        f"{what}: expected a gymnasium Box, Discrete or MultiBinary space, got {type(space).__name__} "
        "(MultiDiscrete, Text, Graph and nested spaces are not supported)"
    )


def _identifier(name: Any, what: str) -> str:
    if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_"):
        raise ValueError(f"{what}: name {name!r} must be a Python identifier (not a keyword) not starting with '_'")
    return name


def _obs_array(name: str, space: Any, what: str) -> _Array:
    a = _space_array(name, space, what)
    if isinstance(space, spaces.Box) and a.shape == () and np.issubdtype(np.dtype(a.dtype), np.integer):
        raise ValueError(f"{what}: a 0-d integer Box observation is a Discrete space to gymnasium; declare Discrete")
    return a


def _obs_arrays(obs: Any) -> tuple[list[_Array], str]:
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


def _action_array(action: Any) -> _Array:
    if isinstance(action, spaces.Discrete):
        if int(action.start) != 0:
            raise ValueError("action: a Discrete action must start at 0")
        return _Array("action", "int64", (), (0.0,), (float(int(action.n) - 1),))
    if isinstance(action, spaces.Box):
        if not np.issubdtype(action.dtype, np.floating) or len(action.shape) != 1:
            raise ValueError("action: a Box action must be a 1-D float32 or float64 Box")
        return _Array("action", "float64", tuple(action.shape), _bounds(action.low), _bounds(action.high))
    raise TypeError(f"action: expected a gymnasium Discrete or 1-D Box space, got {type(action).__name__}")


def _state_field(name: str, decl: Any) -> _Array:
    what = f"state[{name!r}]" if name != "state" else "state"
    if isinstance(decl, (bool, np.bool_)):
        raise TypeError(f"{what}: expected a shape (int or tuple of ints) or a numpy array, got {decl!r}")
    if isinstance(decl, (int, np.integer)):
        decl = (int(decl),)
    if isinstance(decl, tuple) and all(isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in decl):
        if any(d < 1 for d in decl):
            raise ValueError(f"{what}: dimensions must be >= 1, got {decl}")
        return _Array(name, "float64", tuple(int(d) for d in decl))
    if isinstance(decl, (np.ndarray, np.generic)):
        return _Array(name, _check_dtype(decl.dtype, _STATE_DTYPES, what), tuple(np.shape(decl)))
    raise TypeError(f"{what}: expected a shape (int or tuple of ints) or a numpy array, got {decl!r}")


def _state_arrays(state: Any) -> tuple[list[_Array], str]:
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


# --- code generation ----------------------------------------------------------------------------


def _np(dtype: str) -> str:
    return f"np.{_NP_NAMES[dtype]}"


def _view(slot: int, a: _Array) -> str:
    return f"carray(args[{slot}], {a.shape!r}, {_np(a.dtype)})"


def _wrapper_source(t: PythonTask, reset_args: list[str], step_args: list[str]) -> str:
    """A module whose ``reset_entry``/``step_entry`` numba compiles into the C-callable functions."""
    lines = [
        f"# Generated by rlpool.python_env for task {t.task_id!r}; safe to delete (rebuilt when needed).",
        f"# wrapper version {_WRAPPER_VERSION}",
        "from collections import namedtuple",
        "",
        "import numpy as np",
        "from numba import carray, njit, types",
        "",
        "from rlpool.envs.python._numba import check_reset_result, guarded_call, make_rng, store_step_result",
        "",
        "SIGNATURE = types.int32(types.CPointer(types.voidptr))",
        "user_reset = user_step = None  # set by rlpool.python_env before compiling",
    ]
    if t.state_kind == "dict":
        lines.append(f"State = namedtuple('State', {[a.name for a in t.state]!r})")
    if t.obs_kind == "dict":
        lines.append(f"Obs = namedtuple('Obs', {[a.name for a in t.obs]!r})")
    if t.info:
        lines.append(f"Info = namedtuple('Info', {[a.name for a in t.info]!r})")
    if t.options:
        lines.append(f"Params = namedtuple('Params', {list(t.options)!r})")

    slot = _FIRST_ARRAY
    state_views = []
    for a in t.state:
        state_views.append(_view(slot, a))
        slot += 1
    obs_views = []
    for a in t.obs:
        obs_views.append(_view(slot, a))
        slot += 1
    info_views = []
    for a in t.info:
        info_views.append(_view(slot, a))
        slot += 1

    def build(name: str) -> str:
        if name == "state":
            return state_views[0] if t.state_kind == "array" else f"State({', '.join(state_views)})"
        if name == "obs":
            if t.obs_kind == "array":
                return obs_views[0]
            joined = ", ".join(obs_views)
            return f"Obs({joined})" if t.obs_kind == "dict" else f"({joined},)"
        if name == "info":
            return f"Info({', '.join(info_views)})"
        if name == "rng":
            return f"make_rng(args[{_RNG}], args[{_RNG_API}])"
        if name == "action":
            if t.action.dtype == "int64":
                return f"carray(args[{_ACTION}], (1,), np.int64)[0]"
            return _view(_ACTION, t.action)
        # params: floats and ints/bools come in two arrays, in declaration order.
        n_f = n_i = 0
        values = []
        for default in t.options.values():
            if isinstance(default, float):
                values.append(f"pf[{n_f}]")
                n_f += 1
            elif isinstance(default, bool):
                values.append(f"pi[{n_i}] != 0")
                n_i += 1
            else:
                values.append(f"pi[{n_i}]")
                n_i += 1
        return f"Params({', '.join(values)})"

    def body(kind: str, names: list[str]) -> list[str]:
        out = [f"def {kind}_body(args):"]
        if "params" in names:
            out.append(f"    pf = carray(args[{_PARAMS_F64}], ({max(1, _count(t, float))},), np.float64)")
            out.append(f"    pi = carray(args[{_PARAMS_I64}], ({max(1, _count(t, int))},), np.int64)")
        call = f"user_{kind}({', '.join(names)})"
        for name in names:
            out.append(f"    {name} = {build(name)}")
        if kind == "reset":
            out.append(f"    check_reset_result({call})")
        else:
            out.append(
                f"    store_step_result({call}, carray(args[{_REWARD}], (1,), np.float64), "
                f"carray(args[{_TERMINATED}], (1,), np.bool_))"
            )
        out.append("")
        out.append(f"{kind}_body = njit(boundscheck=True, error_model='numpy')({kind}_body)")
        out.append("")
        out.append("")
        out.append(f"def {kind}_entry(args):")
        out.append(f"    return guarded_call({kind}_body, args[{_ERROR_FN}], args[{_ERROR_CTX}], (args,))")
        return out

    lines += ["", ""] + body("reset", reset_args) + ["", ""] + body("step", step_args)
    lines.append("")
    lines.append(f"SPEC = {t.spec_text!r}")
    return "\n".join(lines) + "\n"


def _count(t: PythonTask, kind: type) -> int:
    if kind is float:
        return sum(isinstance(v, float) for v in t.options.values())
    return sum(not isinstance(v, float) for v in t.options.values())


def _spec_text(t: PythonTask) -> str:
    lines = [f"task {t.task_id}"]
    lines += [f"state {off} {a.nbytes}" for off, a in zip(t.state_offsets, t.state, strict=True)]
    lines += [a.encode("obs") for a in t.obs]
    lines += [a.encode("info") for a in t.info]
    lines.append(t.action.encode("action"))
    lines.append(f"kind {t.obs_kind}")
    for name, default in t.options.items():
        kind = "b" if isinstance(default, bool) else "i" if isinstance(default, int) else "f"
        lines.append(f"param {name} {kind}")
    return "\n".join(lines)


# --- compilation and its disk cache -----------------------------------------------------------


def cache_dir() -> Path:
    """Where generated wrappers and numba's compiled code live: ``$RLPOOL_CACHE_DIR/python_env``.

    Defaults to ``$XDG_CACHE_HOME/rlpool`` (``~/.cache/rlpool``) for ``RLPOOL_CACHE_DIR``.
    """
    root = os.environ.get("RLPOOL_CACHE_DIR")
    if not root:
        root = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "rlpool")
    return Path(root) / "python_env"


def clear_cache() -> None:
    """Delete every cached wrapper and compiled function (they are rebuilt when needed)."""
    shutil.rmtree(cache_dir(), ignore_errors=True)


def _source_files(fn: Callable[..., Any]) -> set[str] | None:
    """Source files and module names of ``fn`` and of the functions it calls, transitively; None if unknown.

    numba freezes module-level constants and callees into the compiled code, so
    these files are what the cached code depends on; and loading cached code
    imports each callee's module by name, so that name must be the one its
    module has now (a module run as a script is ``__main__``, imported it is
    not). Returns ``{"path", "module:name", ...}``, or None when a function has
    no source file or its module is not importable by its name: then caching
    is off.
    """
    files: set[str] = set()
    seen: set[int] = set()
    todo = [fn]
    while todo:
        f = todo.pop()
        f = getattr(f, "py_func", f)
        if id(f) in seen or not isinstance(f, pytypes.FunctionType):
            continue
        seen.add(id(f))
        path = inspect.getsourcefile(f)
        module = f.__globals__.get("__name__")
        loaded = sys.modules.get(module) if isinstance(module, str) else None
        if path is None or not os.path.isfile(path) or getattr(loaded, "__dict__", None) is not f.__globals__:
            return None
        files.add(os.path.abspath(path))
        files.add(f"module:{module}")
        codes = [f.__code__]
        while codes:
            code = codes.pop()
            codes += [c for c in code.co_consts if isinstance(c, pytypes.CodeType)]
            for name in code.co_names:
                target = f.__globals__.get(name)
                if isinstance(target, pytypes.FunctionType) or hasattr(target, "py_func"):
                    todo.append(target)
        for cell in f.__closure__ or ():
            try:
                todo.append(cell.cell_contents)
            except ValueError:
                pass
    return files


def _writable_dir(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".probe-{os.getpid()}-{threading.get_ident()}"
        probe.write_text("")
        probe.unlink()
        return True
    except OSError:
        return False


def _write_once(path: Path, text: str) -> None:
    """Create ``path`` with ``text`` unless it exists; never rewrite it (numba's cache keys on its mtime)."""
    if path.exists():
        return
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(text)
    try:
        os.link(tmp, path)
    except FileExistsError:
        pass
    except OSError:  # no hard links here
        if not path.exists():
            os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _load_module(path: Path, name: str) -> pytypes.ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_HELPERS: weakref.WeakSet[Callable[..., Any]] = weakref.WeakSet()  # helpers made callable from compiled code


def _register_helpers(fn: Callable[..., Any]) -> None:
    """Make the plain functions ``fn`` calls from its own module callable from compiled code.

    numba's ``register_jitable`` leaves them plain Python functions (as the
    reference env needs) and compiles them, bounds-checked, where jitted code
    calls them. Helpers from other modules must be jitted by their authors.
    """
    from numba.extending import register_jitable

    module_globals = fn.__globals__
    todo = [fn]
    seen = set()
    while todo:
        f = todo.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        codes = [f.__code__]
        while codes:
            code = codes.pop()
            codes += [c for c in code.co_consts if isinstance(c, pytypes.CodeType)]
            for name in code.co_names:
                target = module_globals.get(name)
                if isinstance(target, pytypes.FunctionType) and target.__globals__ is module_globals:
                    todo.append(target)
                    if target not in _HELPERS:
                        register_jitable(boundscheck=True, error_model="numpy")(target)
                        _HELPERS.add(target)


_NUMBA_LOCATION = re.compile(r'^\s*File "(.+)", line (\d+):')


def _explain(t: PythonTask, kind: str, error: Exception) -> str:
    """A CompileError message: where in the user's code numba stopped and why, then numba's full text."""
    import linecache

    message = _ANSI.sub("", str(error))
    lines = message.splitlines()
    found = (_source_files(t.reset) or set()) | (_source_files(t.step) or set())
    files = {os.path.abspath(p) for p in found if not p.startswith("module:")}
    head = f"{t.task_id}: numba could not compile {kind}()"
    for i, line in enumerate(lines):
        m = _NUMBA_LOCATION.match(line)
        if m and os.path.abspath(m.group(1)) in files:
            path, number = os.path.abspath(m.group(1)), int(m.group(2))
            reasons = [
                x.strip()
                for x in lines[:i]
                if x.strip() and not x.strip().startswith(("During:", "raised from", "File ", "Failed in"))
            ]
            code = linecache.getline(path, number).strip()
            head += f" at {path}, line {number}:\n    {code}\n{reasons[-1] if reasons else ''}"
            break
    else:
        ours = [x.strip() for x in lines if "must return" in x]
        if ours:
            head += f": {ours[0].removeprefix('TypingError: ')}"
    return (
        f"{head}\n\nreset/step may use numba's nopython subset of Python and NumPy only: see "
        "https://numba.readthedocs.io/en/stable/reference/pysupported.html and "
        "https://numba.readthedocs.io/en/stable/reference/numpysupported.html. numba's full message:\n\n"
        f"{message}"
    )


def _compile(t: PythonTask, reset_args: list[str], step_args: list[str], cache: bool) -> None:
    try:
        import numba
    except ImportError as e:
        raise ImportError(
            f"rlpool.python_env needs numba to compile {t.task_id}: pip install 'rlpool[numba]' ({e})"
        ) from None

    source = _wrapper_source(t, reset_args, step_args)
    files = set()
    for fn in (t.reset, t.step):
        found = _source_files(fn)
        files = None if found is None or files is None else files | found
    key = hashlib.sha256()
    for part in (source, numba.__version__, np.__version__, str(_WRAPPER_VERSION)):
        key.update(part.encode() + b"\0")
    for own in (__file__, os.path.join(os.path.dirname(__file__), "envs", "python", "_numba.py")):
        key.update(Path(own).read_bytes())
    for item in sorted(files or ()):
        key.update(item.encode() + b"\0" + (b"" if item.startswith("module:") else Path(item).read_bytes()))
    digest = key.hexdigest()[:20]

    directory = cache_dir()
    # Without the functions' sources the cache could serve stale code: compile in memory.
    cache = cache and files is not None and _writable_dir(directory)
    if not cache:
        directory = Path(tempfile.mkdtemp(prefix="rlpool-python-env-"))
    slug = re.sub(r"[^A-Za-z0-9_]", "_", t.task_id)
    path = directory / f"{slug}_{digest}.py"
    try:
        _write_once(path, source)
        module = _load_module(path, f"_rlpool_python_env_{slug}_{digest}")
        t.module_path = path if cache else None
        _compile_module(t, module, cache)
    finally:
        if not cache:  # the wrapper's file was needed only while compiling
            shutil.rmtree(directory, ignore_errors=True)


def _compile_module(t: PythonTask, module: pytypes.ModuleType, cache: bool) -> None:
    import numba
    from numba.core import config as numba_config
    from numba.core.errors import NumbaError

    jit = numba.njit(boundscheck=True, error_model="numpy")
    for fn in (t.reset, t.step):
        _register_helpers(fn)
    module.user_reset = jit(t.reset)
    module.user_step = jit(t.step)
    start = time.perf_counter()
    # Bounds-check every function compiled for this env, the user's helpers included.
    old = numba_config.BOUNDSCHECK
    numba_config.BOUNDSCHECK = 1
    try:
        compiled = []
        for kind, entry in (("reset", module.reset_entry), ("step", module.step_entry)):
            try:
                try:
                    compiled.append(numba.cfunc(module.SIGNATURE, cache=cache)(entry))
                except NumbaError:
                    raise
                except Exception as e:  # a cache entry numba could not load: compile afresh
                    if not cache:
                        raise
                    warnings.warn(f"{t.task_id}: ignoring its cached code ({type(e).__name__}: {e})", stacklevel=4)
                    cache = False
                    compiled.append(numba.cfunc(module.SIGNATURE, cache=False)(entry))
            except NumbaError as e:
                # Compiling the body alone gives numba's message without the error-capturing layer.
                error: Exception = e
                try:
                    getattr(module, f"{kind}_body").compile(module.SIGNATURE.args)
                except NumbaError as inner:
                    error = inner
                raise CompileError(_explain(t, kind, error)) from None
    finally:
        numba_config.BOUNDSCHECK = old
    t.compile_seconds = time.perf_counter() - start
    t.cache_hit = cache and all(c.cache_hits for c in compiled)
    t._compiled = compiled


# --- registration -----------------------------------------------------------------------------


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
) -> Any:
    """Compile ``reset``/``step`` with numba and register ``task_id`` for ``rlpool.make``.

    Used as a class decorator (the class's ``reset`` and ``step``, static
    methods, are taken; the class is returned unchanged) or called with
    ``reset=`` and ``step=`` (returns the ``PythonTask``).

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

    Raises:
        CompileError: numba cannot compile a function (numba's message, with
            the file and line it points at).
        ValueError, TypeError: a declaration is invalid (the message names it).

    """
    if reset is not None or step is not None:
        if reset is None or step is None:
            raise TypeError("pass both reset= and step=, or decorate a class that defines both")
        return _register(task_id, reset, step, obs, action, state, info, options, max_episode_steps,
                         reward_threshold, cache)

    def decorate(cls: Any) -> Any:
        missing = [name for name in ("reset", "step") if name not in vars(cls)]
        if missing:
            raise TypeError(f"{getattr(cls, '__name__', cls)!r} must define {' and '.join(missing)}")
        _register(task_id, vars(cls)["reset"], vars(cls)["step"], obs, action, state, info, options,
                  max_episode_steps, reward_threshold, cache)
        return cls

    return decorate


def _register(
    task_id: str,
    reset: Any,
    step: Any,
    obs: Any,
    action: Any,
    state: Any,
    info: Mapping[str, Any] | None,
    options: Mapping[str, Any] | None,
    max_episode_steps: int,
    reward_threshold: float | None,
    cache: bool,
) -> PythonTask:
    if not isinstance(task_id, str) or not task_id or any(c.isspace() for c in task_id):
        raise ValueError(f"task_id must be a non-empty string without spaces, got {task_id!r}")
    if task_id in registry.list_all_envs():
        raise ValueError(f"task {task_id!r} is already registered")
    if isinstance(max_episode_steps, bool) or not isinstance(max_episode_steps, (int, np.integer)):
        raise TypeError(f"max_episode_steps must be an int, got {max_episode_steps!r}")
    reset_fn = _function(reset, "reset")
    step_fn = _function(step, "step")
    reset_args = _arguments(reset_fn, "reset", RESET_ARGUMENTS)
    step_args = _arguments(step_fn, "step", STEP_ARGUMENTS)

    obs_arrays, obs_kind = _obs_arrays(obs)
    action_array = _action_array(action)
    info_arrays = []
    for name, decl in (info or {}).items():
        _identifier(name, "info")
        if name in _RESERVED_INFO:
            raise ValueError(f"info: {name!r} is an info entry the engine writes itself")
        info_arrays.append(_space_array(name, decl, f"info[{name!r}]"))
    state_arrays, state_kind = _state_arrays(state)
    params = _options(options)
    for name in params:
        if name in registry.POOL_OPTIONS:
            raise ValueError(f"options: {name!r} is a pool option every task has")
    for fn_name, names in (("reset", reset_args), ("step", step_args)):
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
    )
    t.spec_text = _spec_text(t)
    with _LOCK:
        _compile(t, reset_args, step_args, cache)
        reset_cf, step_cf = t._compiled
        registry.register(
            task_id,
            "NumbaEnv",
            max_episode_steps=int(max_episode_steps),
            reward_threshold=reward_threshold,
            task_options=params,
            _reset_fn=int(reset_cf.address),
            _step_fn=int(step_cf.address),
            _spec=t.spec_text,
        )
        _TASKS[task_id] = t
    _register_with_gymnasium(task_id)
    return t


def _register_with_gymnasium(task_id: str) -> None:
    import gymnasium

    gym_id = f"rlpool/{task_id}"
    if gym_id in gymnasium.registry:
        return

    def create(num_envs: int = 1, **kwargs: Any) -> Any:
        import rlpool

        return rlpool.make_gymnasium(task_id, num_envs=num_envs, **kwargs)

    gymnasium.register(id=gym_id, vector_entry_point=create)


# --- the same functions as plain Python -------------------------------------------------------

_MASK64 = (1 << 64) - 1


class Rng:
    """The engine's per-env generator (xoshiro256++ seeded through splitmix64, rng.h) in plain Python.

    ``Rng(seed)`` draws exactly what the pool's env seeded with ``seed`` draws,
    with the methods compiled code has: ``random``, ``uniform``, ``normal``,
    ``integers`` and ``bits``.
    """

    def __init__(self, seed: int = 0) -> None:
        self.seed(seed)

    def seed(self, seed: int) -> None:
        """Restart the stream as the engine's ``seed_with(seed)`` does."""
        x = int(seed) & _MASK64
        self._s = []
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & _MASK64
            z = x
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            self._s.append(z ^ (z >> 31))
        self._spare: float | None = None

    @staticmethod
    def _rotl(x: int, k: int) -> int:
        return ((x << k) | (x >> (64 - k))) & _MASK64

    def bits(self) -> int:
        """The next 64 random bits, as an unsigned int."""
        s = self._s
        result = (self._rotl((s[0] + s[3]) & _MASK64, 23) + s[0]) & _MASK64
        t = (s[1] << 17) & _MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = self._rotl(s[3], 45)
        return result

    def random(self) -> float:
        """Uniform in [0, 1) with 53 random bits."""
        return (self.bits() >> 11) * 2.0**-53

    def uniform(self, low: float = 0.0, high: float = 1.0) -> float:
        """Uniform in [low, high): ``low + (high - low) * random()``."""
        return low + (high - low) * self.random()

    def normal(self, loc: float = 0.0, scale: float = 1.0) -> float:
        """Normal (Marsaglia's polar method, one spare kept): ``loc + scale * z``."""
        if self._spare is not None:
            z, self._spare = self._spare, None
            return loc + scale * z
        while True:
            u = 2.0 * self.random() - 1.0
            v = 2.0 * self.random() - 1.0
            s = u * u + v * v
            if 0.0 < s < 1.0:
                break
        f = math.sqrt(-2.0 * math.log(s) / s)  # the C library's, as rng.h uses
        self._spare = v * f
        return loc + scale * (u * f)

    def integers(self, low: int, high: int | None = None) -> int:
        """Uniform int in [0, low) or in [low, high), without modulo bias (Lemire's method)."""
        if high is None:
            low, high = 0, low
            if high <= 0:
                raise ValueError("rng.integers(n) needs n > 0")
        elif high <= low:
            raise ValueError("rng.integers(low, high) needs high > low")
        n = int(high) - int(low)
        m = self.bits() * n
        if m & _MASK64 < n:
            threshold = ((1 << 64) - n) % n
            while m & _MASK64 < threshold:
                m = self.bits() * n
        return int(low) + (m >> 64)


class ReferenceEnv:
    """One env of a Python-written task, its functions run as plain Python: no numba, no pool.

    The same seed and actions give what the pool's env with that seed gives
    (``rlpool.make(task, seed=s)`` seeds env i with ``s + i``), so it serves
    to test a task and to debug it with full tracebacks. There is no time
    limit and no autoreset: call ``reset()`` when an episode ends.
    """

    def __init__(self, task_id: str, seed: int = 42, **options: Any) -> None:
        self.task = task_info(task_id)
        config = registry.EnvSpec(task_id, **options).config
        t = self.task
        self.rng = Rng(seed)
        self.params = namedtuple("Params", list(t.options))(*(config[k] for k in t.options)) if t.options else None
        self._buffer = np.zeros(max(1, t.state_bytes), np.uint8)
        fields = [
            self._buffer[off : off + a.nbytes].view(np.dtype(a.dtype)).reshape(a.shape)
            for off, a in zip(t.state_offsets, t.state, strict=True)
        ]
        self.state = fields[0] if t.state_kind == "array" else namedtuple("State", [a.name for a in t.state])(*fields)
        self._obs = [a.empty() for a in t.obs]
        self._info = [a.empty() for a in t.info]
        if t.obs_kind == "array":
            self._obs_arg: Any = self._obs[0]
        elif t.obs_kind == "dict":
            self._obs_arg = namedtuple("Obs", [a.name for a in t.obs])(*self._obs)
        else:
            self._obs_arg = tuple(self._obs)
        self._info_arg = namedtuple("Info", [a.name for a in t.info])(*self._info) if t.info else None
        self._names = {fn: list(inspect.signature(fn).parameters) for fn in (t.reset, t.step)}

    def _args(self, fn: Callable[..., Any], action: Any) -> list[Any]:
        by_name = {
            "state": self.state,
            "action": action,
            "obs": self._obs_arg,
            "info": self._info_arg,
            "rng": self.rng,
            "params": self.params,
        }
        return [by_name[p] for p in self._names[fn]]

    def _observation(self) -> Any:
        t = self.task
        if t.obs_kind == "array":
            return self._obs[0].copy()
        if t.obs_kind == "dict":
            return {a.name: o.copy() for a, o in zip(t.obs, self._obs, strict=True)}
        return tuple(o.copy() for o in self._obs)

    def _info_dict(self) -> dict[str, np.ndarray]:
        return {a.name: v.copy() for a, v in zip(self.task.info, self._info, strict=True)}

    def reset(self) -> tuple[Any, dict[str, np.ndarray]]:
        """Start an episode; returns ``(obs, info)`` (copies)."""
        self.task.reset(*self._args(self.task.reset, None))
        return self._observation(), self._info_dict()

    def step(self, action: Any) -> tuple[Any, float, bool, dict[str, np.ndarray]]:
        """One step; returns ``(obs, reward, terminated, info)``."""
        a = self.task.action
        if a.dtype == "int64":
            action = int(action)
        else:
            action = np.array(action, np.float64).reshape(a.shape)
        reward, terminated = self.task.step(*self._args(self.task.step, action))
        return self._observation(), float(reward), bool(terminated), self._info_dict()

    def get_state(self) -> bytes:
        """The state's bytes, laid out as the pool's ``get_state`` returns them."""
        return self._buffer[: self.task.state_bytes].tobytes()

    def set_state(self, state: bytes) -> None:
        """Restore bytes from ``get_state`` (this env's or the pool's)."""
        if len(state) != self.task.state_bytes:
            raise ValueError(f"state has {len(state)} bytes, expected {self.task.state_bytes}")
        self._buffer[: self.task.state_bytes] = np.frombuffer(state, np.uint8)


def reference(task_id: str, seed: int = 42, **options: Any) -> ReferenceEnv:
    """A ``ReferenceEnv``: ``task_id``'s functions run as plain Python, seeded like pool env ``seed``."""
    return ReferenceEnv(task_id, seed, **options)
