"""The same functions as plain Python: ``reference(task_id)``, one env, no numba, no pool.

``Rng`` is the engine's per-env generator (``_core/env/rng.h``) written in plain
Python, drawing exactly what the compiled ``rng`` argument draws;
``ReferenceEnv`` runs a registered task's ``reset``/``step`` (and ``render``)
on numpy arrays laid out as the pool's, so it reproduces a pool env's
trajectory, and its frames, with full tracebacks, for testing and debugging.
"""

from __future__ import annotations

import math
from collections import namedtuple
from collections.abc import Callable
from typing import Any

import numpy as np

from rlpool.envs.python.declare import parameter_names
from rlpool.envs.python.tasks import task_info
from rlpool.spec import EnvSpec

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
        config = EnvSpec(task_id, **options).config
        t = self.task
        self.rng = Rng(seed)
        self.params = namedtuple("Params", list(t.options))(*(config[k] for k in t.options)) if t.options else None
        self._buffer = np.zeros(max(1, t.state_bytes), np.uint8)
        self.state = self._state_view(self._buffer)
        self._obs = [a.empty() for a in t.obs]
        self._info = [a.empty() for a in t.info]
        if t.obs_kind == "array":
            self._obs_arg: Any = self._obs[0]
        elif t.obs_kind == "dict":
            self._obs_arg = namedtuple("Obs", [a.name for a in t.obs])(*self._obs)
        else:
            self._obs_arg = tuple(self._obs)
        self._info_arg = namedtuple("Info", [a.name for a in t.info])(*self._info) if t.info else None
        self._names = {fn: parameter_names(fn) for fn in t.functions}

    def _state_view(self, buffer: np.ndarray) -> Any:
        """The ``state`` argument over ``buffer`` (the state's bytes): an array or a namedtuple of arrays."""
        t = self.task
        fields = [
            buffer[off : off + a.nbytes].view(np.dtype(a.dtype)).reshape(a.shape)
            for off, a in zip(t.state_offsets, t.state, strict=True)
        ]
        return fields[0] if t.state_kind == "array" else namedtuple("State", [a.name for a in t.state])(*fields)

    def _args(self, fn: Callable[..., Any], action: Any, state: Any = None, frame: Any = None) -> list[Any]:
        by_name = {
            "state": self.state if state is None else state,
            "frame": frame,
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

    def render(self) -> np.ndarray:
        """The frame of the current state: a ``(height, width, 3)`` uint8 array, as the pool's ``render()`` draws it.

        As in the pool, ``frame`` starts black and ``render`` gets a copy of the
        state, so nothing it writes there persists.

        Raises:
            ValueError: the task declares no ``render``.

        """
        t = self.task
        if t.render is None:
            raise ValueError(f"{t.task_id} does not render: it was registered without a render function")
        width, height = t.render_size
        frame = np.zeros((height, width, 3), np.uint8)
        state = self._state_view(self._buffer.copy())
        t.render(*self._args(t.render, None, state=state, frame=frame))
        return frame

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
