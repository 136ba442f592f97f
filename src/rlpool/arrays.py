"""The arrays a task's envs write, typed: what every API face reads to build its spaces and specs.

The engine describes an env type's arrays for one configuration as a plain dict
(``_rlpool_core.env_spec``). ``Arrays.from_core`` turns it into the frozen objects
here, once per ``EnvSpec``; the gymnasium spaces (``rlpool.api.spaces``), the dm_env
specs (``rlpool.api.dm``), the EnvPool layer and the SB3 adapter all read
those, never the dict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, cast

import numpy as np

ObsKind = Literal["array", "dict", "tuple"]
"""How a batch's observation comes back: one array, a dict of named arrays, or a tuple of arrays."""

OBS_KINDS: tuple[ObsKind, ...] = ("array", "dict", "tuple")

DTYPES: dict[str, np.dtype] = {
    name: np.dtype(name) for name in ("bool", "int8", "uint8", "int32", "int64", "float32", "float64")
}
"""The engine's dtype names and their numpy dtypes (the one table every face uses)."""


def _bound(values: Any, shape: tuple[int, ...], fill: float) -> np.ndarray:
    """Declared bounds (empty, one value, or one per element) as a read-only float64 array of ``shape``."""
    flat = np.asarray(values, dtype=np.float64)
    if flat.size == 0:
        out = np.full(shape, fill)
    elif flat.size == 1:
        out = np.full(shape, flat.reshape(()))
    else:
        out = flat.reshape(shape).copy()
    out.setflags(write=False)
    return out


@dataclass(frozen=True, eq=False)
class ArraySpec:
    """One array of a single env: an observation, info or action entry.

    ``low``/``high`` are float64 arrays of ``shape`` (read-only), -inf/+inf where the
    env declares no bound; ``bounded`` says whether it declares both.
    """

    name: str
    dtype: np.dtype
    shape: tuple[int, ...]
    low: np.ndarray
    high: np.ndarray
    bounded: bool

    @classmethod
    def from_core(cls, d: dict[str, Any]) -> ArraySpec:
        """Build from one entry of the engine's spec dict (``name``, ``dtype``, ``shape``, ``low``, ``high``)."""
        try:
            dtype = DTYPES[d["dtype"]]
        except KeyError:
            raise ValueError(f"array {d['name']!r}: unknown dtype {d['dtype']!r}; known: {sorted(DTYPES)}") from None
        shape = tuple(int(n) for n in d["shape"])
        bounded = len(d["low"]) > 0 and len(d["high"]) > 0
        return cls(
            str(d["name"]), dtype, shape, _bound(d["low"], shape, -np.inf), _bound(d["high"], shape, np.inf), bounded
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ArraySpec):
            return NotImplemented
        return (
            (self.name, self.dtype, self.shape, self.bounded) == (other.name, other.dtype, other.shape, other.bounded)
            and np.array_equal(self.low, other.low)
            and np.array_equal(self.high, other.high)
        )

    def __hash__(self) -> int:
        return hash((self.name, self.dtype, self.shape, self.bounded))


@dataclass(frozen=True)
class Arrays:
    """Every array a task's env writes and reads, for one configuration.

    ``obs`` are the observation entries (one for ``obs_kind == "array"``), ``action``
    the action, ``info`` the task's own info entries (after ``env_id`` and
    ``elapsed_step``, which every env has), in the engine's order. ``has_discount``
    says whether the env writes a dm_env discount of its own.
    """

    obs: tuple[ArraySpec, ...]
    obs_kind: ObsKind
    action: ArraySpec
    info: tuple[ArraySpec, ...]
    has_discount: bool
    render_size: tuple[int, int] = (0, 0)
    """(width, height) the env draws frames at by itself; (0, 0): it does not render."""
    render_any_size: bool = False
    """Whether it draws at any requested size (else the engine resizes its frames)."""
    render_fps: float = 30.0
    """Frames per second of a video of it (gymnasium's ``metadata["render_fps"]``)."""
    render_cameras: int = 0
    """Views besides the default (-1): camera ids ``0 .. render_cameras - 1`` (MuJoCo's fixed cameras)."""

    @classmethod
    def from_core(cls, d: dict[str, Any]) -> Arrays:
        """Build from the dict ``_rlpool_core.env_spec(env_type, config)`` returns."""
        kind = d["obs_kind"]
        if kind not in OBS_KINDS:
            raise ValueError(f"unknown obs_kind {kind!r}; known: {OBS_KINDS}")
        obs = tuple(ArraySpec.from_core(a) for a in d["obs"])
        if kind == "array" and len(obs) != 1:
            raise ValueError(f"obs_kind 'array' needs exactly one observation entry, got {len(obs)}")
        return cls(
            obs=obs,
            obs_kind=cast(ObsKind, kind),
            action=ArraySpec.from_core(d["action"]),
            info=tuple(ArraySpec.from_core(a) for a in d["info"]),
            has_discount=bool(d["has_discount"]),
            render_size=(int(d["render_width"]), int(d["render_height"])),
            render_any_size=bool(d["render_any_size"]),
            render_cameras=int(d["render_cameras"]),
            render_fps=float(d["render_fps"]),
        )

    @property
    def discrete_action(self) -> bool:
        """Whether the action is one integer in ``[0, num_actions)`` (else a float vector)."""
        return self.action.dtype == DTYPES["int64"]

    @property
    def num_actions(self) -> int:
        """How many discrete actions there are; only for a ``discrete_action`` task."""
        if not self.discrete_action:
            raise ValueError("num_actions: the action is continuous")
        return int(self.action.high.flat[0]) + 1

    @property
    def obs_names(self) -> tuple[str, ...]:
        """The observation entries' names, in order."""
        return tuple(a.name for a in self.obs)

    @property
    def info_names(self) -> tuple[str, ...]:
        """The task's own info entries' names, in order (without ``env_id`` and ``elapsed_step``)."""
        return tuple(a.name for a in self.info)
