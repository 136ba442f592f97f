"""The arrays a task's envs write, typed: what every API face reads to build its spaces and specs.

The engine describes an env type's arrays for one configuration as a plain dict
(``_rlpool_core.env_spec``). ``Arrays.from_core`` turns it into the frozen objects
here, once per ``EnvSpec``; the gymnasium spaces (``rlpool.api.spaces``), the dm_env
specs (``rlpool.api.dm``), the EnvPool layer and the SB3 adapter all read
those, never the dict.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, cast

import numpy as np

ObsKind = Literal["array", "dict", "tuple"]
"""How a batch's observation comes back: one array, a dict of named arrays, or a tuple of arrays."""

OBS_KINDS: tuple[ObsKind, ...] = ("array", "dict", "tuple")

DTYPES: dict[str, np.dtype] = {
    name: np.dtype(name) for name in ("bool", "int8", "uint8", "int16", "int32", "int64", "float32", "float64")
}
"""The engine's dtype names and their numpy dtypes (the one table every face uses)."""


T = TypeVar("T")
U = TypeVar("U")


def nest(items: Iterable[tuple[str, T]]) -> dict[str, T | dict[str, T]]:
    """A dict observation's entries keyed as the faces give them: ``"outer.inner"`` -> ``out[outer][inner]``.

    ``items`` are ``(entry name, value)`` in the env's entry order; outer keys come in the order of
    their first entry, a nested dict's keys in entry order (as the engine's result dicts have them).
    """
    out: dict[str, Any] = {}
    for name, value in items:
        outer, dot, inner = name.partition(".")
        if dot:
            out.setdefault(outer, {})[inner] = value
        else:
            out[name] = value
    return out


def field_name(name: str) -> str:
    """An entry's name as a namedtuple field: characters other than letters, digits and ``_`` as ``_``.

    ``"Achievements/collect_wood"`` -> ``"Achievements_collect_wood"``; a name that is still no plain
    identifier (a keyword, a leading digit or ``_``) gets ``f_`` in front.
    """
    field = re.sub(r"\W", "_", name)
    plain = field.isidentifier() and not keyword.iskeyword(field) and not field.startswith("_")
    return field if plain else f"f_{field}"


def map_nested(tree: dict[str, Any], leaf: Callable[[Any], U]) -> dict[str, Any]:
    """``tree`` (a dict with dicts one level down, as ``nest`` makes) with ``leaf`` applied to every value."""
    return {k: map_nested(v, leaf) if isinstance(v, dict) else leaf(v) for k, v in tree.items()}


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

    A dict observation's entry named ``"outer.inner"`` is entry ``inner`` of a nested dict
    ``outer`` (``nested_obs``, ``obs_tree``). An info entry whose name starts with ``_`` is
    hidden: it is in ``info`` (the engine writes it) but not in ``shown_info``/``info_names``,
    what rlpool's faces show; an API layer may show it under a key of its own (the pool's
    ``info_keys``).
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
    num_agents: int = 0
    """Agents per env (0: a single-agent env). With agents, reward, terminated and truncated have an agent
    axis (``[num_envs, num_agents]``), as do the observation entries (``[num_envs, num_agents, ...]``)."""
    turn_based: bool = False
    """One agent moves per step (a board game): the action is that agent's, ``info["current_player"]`` says
    which, and ``info["legal_action_mask"]`` which actions are legal."""

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
            num_agents=int(d.get("num_agents", 0)),
            turn_based=bool(d.get("turn_based", False)),
        )

    @property
    def discrete_action(self) -> bool:
        """Whether the action is one integer in ``[0, num_actions)`` (else a float vector)."""
        return self.action.dtype == DTYPES["int64"]

    @property
    def num_actions(self) -> int:
        """How many discrete actions there are; only for a ``discrete_action`` task of one size per element."""
        if not self.discrete_action:
            raise ValueError("num_actions: the action is continuous")
        nvec = self.action_nvec
        if not (nvec == nvec.flat[0]).all():
            raise ValueError(f"num_actions: the action's elements have different sizes {nvec.tolist()} (action_nvec)")
        return int(nvec.flat[0])

    @property
    def action_nvec(self) -> np.ndarray:
        """How many values each element of a discrete action takes (gymnasium's ``MultiDiscrete.nvec``).

        An action of shape ``()`` gives a 0-d array; the elements' sizes may differ.
        """
        if not self.discrete_action:
            raise ValueError("action_nvec: the action is continuous")
        return (self.action.high + 1).astype(np.int64)

    @property
    def agents(self) -> int:
        """How many agents an env has: ``num_agents``, or 1 for a single-agent env."""
        return self.num_agents or 1

    @property
    def obs_names(self) -> tuple[str, ...]:
        """The observation entries' names, in order (a nested entry's as ``"outer.inner"``)."""
        return tuple(a.name for a in self.obs)

    @property
    def nested_obs(self) -> bool:
        """Whether the observation is a dict with nested dicts (entries named ``"outer.inner"``)."""
        return self.obs_kind == "dict" and any("." in a.name for a in self.obs)

    @property
    def obs_tree(self) -> dict[str, ArraySpec | dict[str, ArraySpec]]:
        """A dict observation's entries as the faces key them (``nest``): name -> entry, or -> a dict of them."""
        if self.obs_kind != "dict":
            raise ValueError(f"obs_tree: the observation is not a dict (obs_kind {self.obs_kind!r})")
        return nest((a.name, a) for a in self.obs)

    @property
    def shown_info(self) -> tuple[ArraySpec, ...]:
        """The info entries rlpool's faces show: ``info`` without the hidden (``_``-named) ones."""
        return tuple(a for a in self.info if not a.name.startswith("_"))

    @property
    def info_names(self) -> tuple[str, ...]:
        """The names of the info entries rlpool's faces show, in order (``shown_info``'s).

        Without ``env_id`` and ``elapsed_step``, and without the hidden (``_``-named) entries.
        """
        return tuple(a.name for a in self.shown_info)
