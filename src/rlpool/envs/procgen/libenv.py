"""procgen's ``libenv.so`` driven directly through ctypes, as procgen's own ``ProcgenGym3Env`` drives it.

The reference the Procgen tests compare rlpool with (one game, the same options and ``rand_seed``), and
the baseline of ``benchmarks/procgen_raw.py`` (libenv's own batched stepping, with its own threads).
It passes ``libenv_make`` the options procgen 0.10.7's ``env.py`` passes, encoded as gym3's libenv
wrapper encodes them (str: uint8 bytes, int: one int32, bool: one uint8).
"""

from __future__ import annotations

import ctypes
import os
from typing import Any

import numpy as np

from rlpool.envs.procgen.registration import GAMES, library_root

_MAX_NAME = 128
_UINT8, _INT32 = 1, 2
_OBSERVATION, _ACTION, _INFO = 1, 2, 3
NUM_ACTIONS = 15
DISTRIBUTION_MODE = {"easy": 0, "hard": 1, "extreme": 2, "memory": 10}
# procgen's env.py: exploration mode is hard mode on one level per game.
EXPLORATION_LEVEL_SEEDS = {
    "coinrun": 1949448038, "caveflyer": 1259048185, "leaper": 1318677581, "jumper": 1434825276,
    "maze": 158988835, "heist": 876640971, "climber": 1561126160, "ninja": 1123500215,
}


class _Option(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * _MAX_NAME), ("dtype", ctypes.c_int), ("count", ctypes.c_int),
                ("data", ctypes.c_void_p)]


class _Options(ctypes.Structure):
    _fields_ = [("items", ctypes.POINTER(_Option)), ("count", ctypes.c_int)]


class _TensorType(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * _MAX_NAME), ("scalar_type", ctypes.c_int), ("dtype", ctypes.c_int),
                ("shape", ctypes.c_int * 16), ("ndim", ctypes.c_int), ("low", ctypes.c_int32),
                ("high", ctypes.c_int32)]


class _Buffers(ctypes.Structure):
    _fields_ = [("ob", ctypes.POINTER(ctypes.c_void_p)), ("rew", ctypes.c_void_p), ("first", ctypes.c_void_p),
                ("info", ctypes.POINTER(ctypes.c_void_p)), ("ac", ctypes.POINTER(ctypes.c_void_p))]


_LIB: ctypes.CDLL | None = None
MAX_STATE_BYTES = 2**20  # procgen's MAX_STATE_SIZE


def state_timeout(state: bytes) -> int:
    """``Game::timeout`` from a procgen state.

    ``Game::serialize`` writes int32s and (int32 length, bytes) strings: version, game name, 12 option
    ints, 5 ints, two generators as (int, string), reward, done, level_complete, action, then timeout.
    """

    def int_at(at: int) -> int:
        return int(np.frombuffer(state, np.int32, 1, at)[0])

    at = 4 + 4 + int_at(4) + 4 * (12 + 5)
    for _ in range(2):
        at += 4
        at += 4 + int_at(at)
    return int_at(at + 4 * 4)


def load() -> ctypes.CDLL:
    """The ``libenv.so`` rlpool's Procgen tasks use (``registration.library_root``); RuntimeError if absent."""
    global _LIB
    if _LIB is None:
        root = library_root()
        path = os.path.join(root, "procgen", "data", "prebuilt", "libenv.so")
        if not root or not os.path.isfile(path):
            raise RuntimeError(f"procgen's libenv.so is not there ({path!r}): rlpool was built without it")
        lib = ctypes.CDLL(path)
        lib.libenv_make.restype = ctypes.c_void_p
        lib.libenv_make.argtypes = [ctypes.c_int, _Options]
        lib.libenv_get_tensortypes.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(_TensorType)]
        lib.libenv_set_buffers.argtypes = [ctypes.c_void_p, ctypes.POINTER(_Buffers)]
        for name in ("libenv_act", "libenv_observe", "libenv_close"):
            getattr(lib, name).argtypes = [ctypes.c_void_p]
        lib.get_state.restype = ctypes.c_int
        lib.get_state.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
        _LIB = lib
    return _LIB


def rand_seed(seed: int) -> int:
    """The libenv ``rand_seed`` of an rlpool env seeded with ``seed``: ``Rng(seed).next() >> 33``.

    rlpool's per-env generator is xoshiro256++ whose four words come from splitmix64 of the seed
    (``_core/env/rng.h``); this recomputes its first draw.
    """
    mask = 2**64 - 1
    words = []
    x = seed & mask
    for _ in range(4):
        x = (x + 0x9E3779B97F4A7C15) & mask
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        words.append(z ^ (z >> 31))
    s0, s3 = words[0], words[3]
    t = (s0 + s3) & mask
    result = (((t << 23) | (t >> 41)) + s0) & mask
    return result >> 33


class LibEnv:
    """``num`` games of one procgen game in one libenv, with numpy buffers (procgen's layout).

    ``options`` are procgen's (``distribution_mode`` by name, ``num_levels``, ``start_level``, the
    bools); ``num_threads`` is libenv's own (0: ``act`` steps in the calling thread).
    """

    def __init__(self, game: str, num: int = 1, *, seed: int = 0, num_threads: int = 0, render_human: bool = False,
                 **options: Any) -> None:
        self._handle = None
        if game not in {g for g, _, _ in GAMES}:
            raise ValueError(f"unknown procgen game {game!r}")
        lib = load()
        self._lib = lib
        self.num = num
        mode = options.pop("distribution_mode", "hard")
        if mode == "exploration":
            mode, options["num_levels"], options["start_level"] = "hard", 1, EXPLORATION_LEVEL_SEEDS[game]
        values: dict[str, Any] = {
            "center_agent": bool(options.pop("center_agent", True)),
            "use_generated_assets": bool(options.pop("use_generated_assets", False)),
            "use_monochrome_assets": bool(options.pop("use_monochrome_assets", False)),
            "restrict_themes": bool(options.pop("restrict_themes", False)),
            "use_backgrounds": bool(options.pop("use_backgrounds", True)),
            "paint_vel_info": bool(options.pop("paint_vel_info", False)),
            "distribution_mode": DISTRIBUTION_MODE[mode],
            "env_name": game,
            "num_levels": int(options.pop("num_levels", 0)),
            "start_level": int(options.pop("start_level", 0)),
            "num_actions": NUM_ACTIONS,
            "use_sequential_levels": bool(options.pop("use_sequential_levels", False)),
            "debug_mode": 0,
            "rand_seed": int(seed),
            "num_threads": int(num_threads),
            "render_human": bool(render_human),
            "resource_root": os.path.join(library_root(), "procgen", "data", "assets") + os.sep,
        }
        if options:
            raise ValueError(f"unknown procgen options {sorted(options)}")
        self._keep: list[Any] = []
        items = (_Option * len(values))()
        for item, (name, value) in zip(items, values.items(), strict=True):
            if isinstance(value, str):
                data, dtype = ctypes.create_string_buffer(value.encode(), len(value)), _UINT8
                count = len(value)
            elif isinstance(value, bool):
                data, dtype, count = ctypes.c_uint8(value), _UINT8, 1
            else:
                data, dtype, count = ctypes.c_int32(value), _INT32, 1
            self._keep.append(data)
            item.name, item.dtype, item.count = name.encode(), dtype, count
            item.data = ctypes.cast(ctypes.pointer(data), ctypes.c_void_p)
        self._handle = lib.libenv_make(num, _Options(items, len(values)))
        self.obs = np.zeros((num, 64, 64, 3), np.uint8)
        self.reward = np.zeros(num, np.float32)
        self.first = np.zeros(num, np.uint8)
        self.action = np.zeros(num, np.int32)
        info_types = (_TensorType * lib.libenv_get_tensortypes(self._handle, _INFO, None))()
        lib.libenv_get_tensortypes(self._handle, _INFO, info_types)
        self.info: dict[str, np.ndarray] = {}
        for t in info_types:
            shape = tuple(t.shape[: t.ndim])  # () for the scalars; render_human's "rgb" is (512, 512, 3)
            self.info[t.name.decode()] = np.zeros((num, *shape), np.int32 if t.dtype == _INT32 else np.uint8)
        ptr = ctypes.c_void_p

        def per_env(arrays: list[np.ndarray]) -> Any:
            out = (ptr * (len(arrays) * num))()
            for s, a in enumerate(arrays):
                for e in range(num):
                    out[s * num + e] = a.ctypes.data + e * a.strides[0]
            return out

        self._ob, self._info, self._ac = per_env([self.obs]), per_env(list(self.info.values())), per_env([self.action])
        self._buffers = _Buffers(self._ob, self.reward.ctypes.data, self.first.ctypes.data, self._info, self._ac)
        lib.libenv_set_buffers(self._handle, ctypes.byref(self._buffers))
        lib.libenv_observe(self._handle)

    def step(self, action: Any) -> None:
        """Step every game with ``action`` (one int per game); results land in ``obs``/``reward``/``first``/``info``."""
        self.action[:] = action
        self._lib.libenv_act(self._handle)
        self._lib.libenv_observe(self._handle)

    def act(self) -> None:
        """``libenv_act`` alone (with libenv's threads it returns before the games are done)."""
        self._lib.libenv_act(self._handle)

    def observe(self) -> None:
        """``libenv_observe``: waits for libenv's threads."""
        self._lib.libenv_observe(self._handle)

    def get_state(self, env: int = 0) -> bytes:
        """The serialized state (procgen's) of game ``env`` (its ``get_state`` export)."""
        buf = ctypes.create_string_buffer(MAX_STATE_BYTES)
        n = self._lib.get_state(self._handle, env, buf, MAX_STATE_BYTES)
        return buf.raw[:n]

    def timeout(self, env: int = 0) -> int:
        """The ``Game::timeout`` (procgen's) of game ``env`` (its level's step limit), read from its state."""
        return state_timeout(self.get_state(env))

    def close(self) -> None:
        """``libenv_close``."""
        if self._handle:
            self._lib.libenv_close(self._handle)
            self._handle = None

    def __del__(self) -> None:
        self.close()
