"""Compilation and its disk cache: from a declared ``PythonTask`` to its C-callable functions.

``compile_task`` writes the task's wrapper module (``codegen.wrapper_source``)
into ``cache_dir()`` under a name keyed by everything the compiled code
depends on (the wrapper's text, the numba and numpy versions, this package's
own sources, the qualified names of ``reset``, ``step`` and ``render``, and the source
files and module names of those and of the functions they call), imports it and has numba compile its entries with
``cfunc(cache=True)``, so a second process loads the compiled code instead of
compiling. When a function's source cannot be tracked (no source file, or a
module not importable by its name) or the cache directory is not writable,
it compiles in memory from a temporary directory instead. A function numba
cannot compile raises ``CompileError`` with the user's file, line and
numba's reason first.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from rlpool.cache import cache_root
from rlpool.envs.python.codegen import WRAPPER_VERSION, wrapper_source
from rlpool.envs.python.declare import PythonTask
from rlpool.extras import install_hint

_PACKAGE_DIR = Path(__file__).resolve().parent
_RLPOOL_DIR = os.path.realpath(_PACKAGE_DIR.parents[1]) + os.sep


class CompileError(Exception):
    """numba could not compile a Python-written env's ``reset``, ``step`` or ``render``; the message is numba's."""


def cache_dir() -> Path:
    """Where generated wrappers and numba's compiled code live: ``$RLPOOL_CACHE_DIR/python_env``.

    Defaults to ``$XDG_CACHE_HOME/rlpool`` (``~/.cache/rlpool``) for ``RLPOOL_CACHE_DIR``.
    """
    return cache_root() / "python_env"


def clear_cache() -> None:
    """Delete every cached wrapper and compiled function (they are rebuilt when needed)."""
    shutil.rmtree(cache_dir(), ignore_errors=True)


def compile_task(t: PythonTask, cache: bool) -> None:
    """Compile ``t``'s ``reset``/``step``/``render`` (or load them from the disk cache when ``cache``).

    Sets ``t.compiled`` (the ``numba.cfunc`` objects of ``t.functions``, whose ``address`` the
    C++ env calls), ``t.compile_seconds``, ``t.cache_hit`` and ``t.module_path``
    (the cached wrapper's file, None when compiled in memory).

    Raises:
        ImportError: numba is not installed (the message says how to install it).
        CompileError: numba cannot compile a function.

    """
    try:
        import numba
    except ImportError as e:
        raise ImportError(
            f"rlpool.python_env needs numba to compile {t.task_id}: {install_hint('numba', 'numba>=0.60')} ({e})"
        ) from None

    source = wrapper_source(t)
    files: set[str] | None = set()
    for fn in t.functions:
        found = _source_files(fn)
        files = None if found is None or files is None else files | found
    key = hashlib.sha256()
    # Which functions are reset, step and render: the same files may hold others (reset_easy, reset_hard).
    kinds = ("reset", "step", "render")
    roles = " ".join(f"{k}={fn.__module__}.{fn.__qualname__}" for k, fn in zip(kinds, t.functions, strict=False))
    for part in (source, roles, numba.__version__, np.__version__, str(WRAPPER_VERSION)):
        key.update(part.encode() + b"\0")
    for own in sorted(_PACKAGE_DIR.glob("*.py")):  # this package's code, the numba extensions included
        key.update(own.read_bytes())
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
    """Import the wrapper at ``path`` as ``name``: a fresh module each time, never one left in ``sys.modules``.

    A module of that name is left only by an earlier attempt that failed (a
    registered task id cannot be registered again), and reusing it would
    reuse its jitted bodies: their failed compilations (numba keeps those)
    and the user's functions frozen into them, which may since have changed.
    """
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
    found = set().union(*(_source_files(fn) or set() for fn in t.functions))
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
        f"{head}\n\nreset/step/render may use numba's nopython subset of Python and NumPy only: see "
        "https://numba.readthedocs.io/en/stable/reference/pysupported.html and "
        "https://numba.readthedocs.io/en/stable/reference/numpysupported.html. numba's full message:\n\n"
        f"{message}"
    )


def _compile_module(t: PythonTask, module: pytypes.ModuleType, cache: bool) -> None:
    import numba
    from numba.core import config as numba_config
    from numba.core.errors import NumbaError

    jit = numba.njit(boundscheck=True, error_model="numpy")
    for fn in t.functions:
        _register_helpers(fn)
    module.user_reset = jit(t.reset)
    module.user_step = jit(t.step)
    entries = [("reset", module.reset_entry), ("step", module.step_entry)]
    if t.render is not None:
        module.user_render = jit(t.render)
        entries.append(("render", module.render_entry))
    start = time.perf_counter()
    # Bounds-check every function compiled for this env, the user's helpers included.
    old = numba_config.BOUNDSCHECK
    numba_config.BOUNDSCHECK = 1
    try:
        compiled = []
        for kind, entry in entries:
            try:
                try:
                    compiled.append(numba.cfunc(module.SIGNATURE, cache=cache)(entry))
                except NumbaError:
                    raise
                except Exception as e:  # a cache entry numba could not load: compile afresh
                    if not cache:
                        raise
                    message = f"{t.task_id}: ignoring its cached code ({type(e).__name__}: {e})"
                    warnings.warn(message, stacklevel=_user_stacklevel())
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
    t.compiled = compiled


def _user_stacklevel() -> int:
    """The ``stacklevel`` for a warning its caller issues: the first frame outside rlpool (the user's call)."""
    level, frame = 1, sys._getframe(1)
    while frame is not None and os.path.realpath(frame.f_code.co_filename).startswith(_RLPOOL_DIR):
        level += 1
        frame = frame.f_back
    return level
