"""Finding (or compiling) the library that holds rlpool's XLA FFI handlers, and registering them with jax.

The handlers (``ffi_handlers.cc``) are compiled against the FFI headers of the jaxlib that runs them
(``jax.ffi.include_dir()``). Two ways to get them, tried in this order:

1. Built with rlpool: when the build's Python can import jax (a developer build, or
   ``pip install --no-build-isolation .`` with jax installed), CMake compiles ``_rlpool_xla_ffi.so`` into the
   package and records the jaxlib version it used. It is used when that version is the one imported now.
2. Compiled on first use: otherwise the first ``xla()`` call compiles the same source with the system C++
   compiler (``$CXX``, else ``c++``/``g++``/``clang++``; a few seconds) into
   ``~/.cache/rlpool/xla/<key>/`` (see ``rlpool.cache``), keyed by the source, the jaxlib version and the
   compiler, and later processes load it from there.

Installing the ``jax`` extra (``pip install '.[jax]'`` in a checkout) stays one command and needs no compiler
at install time either way.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from rlpool.cache import cache_root

SEND_TARGET = "rlpool_xla_send"
RECV_TARGET = "rlpool_xla_recv"
STEP_TARGET = "rlpool_xla_step"
_HERE = Path(__file__).resolve().parent
_SOURCES = (_HERE / "ffi_handlers.cc", _HERE / "xla_bridge.h")
_BRIDGE_VERSION = 1  # RLPOOL_XLA_BRIDGE_VERSION in xla_bridge.h


def _compiler() -> str:
    for name in (os.environ.get("CXX"), "c++", "g++", "clang++"):
        if name and shutil.which(name):
            return str(shutil.which(name))
    raise RuntimeError(
        "rlpool's XLA interface compiles its FFI handlers against your jaxlib on first use, and no C++ "
        "compiler was found (set CXX, or install g++/clang++). Alternatively build rlpool with jax present: "
        "pip install --no-build-isolation . (from a source checkout, with jax installed)"
    )


def _prebuilt(jaxlib_version: str) -> Path | None:
    """The library CMake built with the package, if it was built against this jaxlib."""
    pkg = _HERE.parent
    for lib in sorted(pkg.glob("_rlpool_xla_ffi*.so")):
        stamp = lib.with_suffix(".jaxlib")
        if stamp.is_file() and stamp.read_text().strip() == jaxlib_version:
            return lib
    return None


def _compile(jaxlib_version: str, include_dir: str) -> Path:
    cxx = _compiler()
    digest = hashlib.sha256()
    for src in _SOURCES:
        digest.update(src.read_bytes())
    digest.update(f"{jaxlib_version}\0{include_dir}\0{cxx}".encode())
    out_dir = cache_root() / "xla" / digest.hexdigest()[:20]
    lib = out_dir / "rlpool_xla_ffi.so"
    if lib.is_file():
        return lib
    out_dir.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=out_dir, prefix=".rlpool_xla_ffi.", suffix=".so")
    os.close(fd)
    cmd = [cxx, "-std=c++17", "-O2", "-shared", "-fPIC", "-fvisibility=hidden", "-isystem", include_dir,
           "-I", str(_HERE.parent), str(_SOURCES[0]), "-o", tmp]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            raise RuntimeError(
                f"compiling rlpool's XLA FFI handlers failed ({' '.join(cmd)}):\n{proc.stderr[-4000:]}"
            )
        os.replace(tmp, lib)  # atomic: a concurrent process sees the whole library or none
    finally:
        Path(tmp).unlink(missing_ok=True)
    return lib


@cache
def register() -> None:
    """Load the handlers, connect them to the engine and register them as jax FFI targets (CPU), once."""
    import jax
    import jaxlib

    from rlpool import _rlpool_core

    version = jaxlib.__version__
    include_dir = jax.ffi.include_dir()
    path = _prebuilt(version) or _compile(version, include_dir)
    lib = ctypes.CDLL(str(path))
    lib.rlpool_xla_bridge_version.restype = ctypes.c_uint
    lib.rlpool_xla_init.argtypes = [ctypes.c_void_p]
    lib.rlpool_xla_init.restype = ctypes.c_int
    if lib.rlpool_xla_bridge_version() != _BRIDGE_VERSION or lib.rlpool_xla_init(
        ctypes.c_void_p(_rlpool_core._xla_bridge_address())
    ) != 0:
        raise RuntimeError(f"{path} does not match this rlpool's engine (bridge version); delete it to rebuild")
    _keep.append(lib)
    jax.ffi.register_ffi_target(SEND_TARGET, jax.ffi.pycapsule(lib.RlpoolXlaSend), platform="cpu")
    jax.ffi.register_ffi_target(RECV_TARGET, jax.ffi.pycapsule(lib.RlpoolXlaRecv), platform="cpu")
    jax.ffi.register_ffi_target(STEP_TARGET, jax.ffi.pycapsule(lib.RlpoolXlaStep), platform="cpu")


_keep: list[Any] = []  # the loaded library, for the life of the process
