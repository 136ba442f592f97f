"""What a family tells the EnvPool layer: its layout, its EnvPool ids, and the errors the layer raises.

EnvPool 1.2.5 gives some families' results another shape than rlpool does (another config, observation
layout, info order or option names). A family that differs says how in its own ``envpool.py``
(``rlpool/envs/<family>/envpool.py``): it subclasses ``FamilyLayout``, registers it with
``register_layout`` and registers EnvPool's other names of its tasks with ``register_ids``, as its
``registration.py`` registers its tasks. ``rlpool.compat.envpool`` imports every family's ``envpool.py``;
nothing here names a family.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import rlpool
from rlpool import registry
from rlpool.registry import list_aliases, register_alias


class EnvPoolError(ValueError, AssertionError):
    """A bad argument, raised where EnvPool raises ``AssertionError``: catchable as either type.

    EnvPool checks ``env_type``, seeds, ``num_envs`` and ``batch_size`` with ``assert``; scripts written
    for it catch ``AssertionError``, rlpool's own code catches ``ValueError``.
    """


class UnknownTaskError(EnvPoolError, KeyError):
    """An unknown task id: EnvPool's ``make`` raises ``AssertionError``, its ``make_spec`` ``KeyError``."""

    __str__ = Exception.__str__  # KeyError's would quote the message


class FamilyLayout:
    """How a family's tasks look through EnvPool: its options, config, observation and info layout.

    The default changes nothing. A family whose EnvPool face differs from rlpool's subclasses it in its
    ``envpool.py`` and registers it with ``register_layout``.
    """

    info_order: tuple[str, ...] = ()
    """EnvPool's order of the task's info entries (those rlpool has; the rest follow in rlpool's order)."""

    info_bounds: dict[str, Any] = {}  # noqa: RUF012 - read-only class default
    """Bounds EnvPool declares for info entries that rlpool's env leaves unbounded (for the specs): EnvPool's
    key -> ``(low, high)``, or a function of the EnvPool config dict giving them (a bound set by an option)."""

    info_dtypes: dict[str, Any] = {}  # noqa: RUF012 - read-only class default
    """Info entries EnvPool gives in another dtype than rlpool's env: EnvPool's key -> its dtype (int32 for
    a narrower integer or a bool mask, float64 for a success flag)."""

    info_fields: dict[str, str] = {}  # noqa: RUF012 - read-only class default
    """Info entries EnvPool gives under another name: EnvPool's key -> rlpool's field, e.g. a hidden
    ``_``-named entry that rlpool's own faces leave out, or a multi-player task's per-player entry
    (``"players.done"`` -> rlpool's ``agent_done``). A key whose field the task lacks is left out."""

    player_obs_key = "obs"
    """Multi-player tasks: where EnvPool 1.2.7 declares one player's observation, ``"obs"`` (the state's
    ``obs``, a ``State`` field of the dm face) or ``"players.obs"`` (``obs:players.obs``, a field of the dm
    ``State``'s ``players``). The gymnasium face gives the same ``[num_envs * players, ...]`` array either way."""

    player_id_key: str | None = None
    """Multi-player tasks: EnvPool's per-player entry holding each player's index in its env (e.g.
    ``"players.id"``, bounded by ``max_num_players``), where EnvPool has one; rlpool's faces do not need it."""

    state_terminated = False
    """Multi-player tasks: EnvPool's ``state_array_spec`` has a per-env ``terminated`` entry after the
    observation (where the family's EnvPool env declares one)."""

    xla_ok = True
    """``obs()`` works on jax arrays too (inside jit), so compat's ``xla()`` can give this layout."""

    agents_as_one = False
    """A task whose agents act at once (rlpool's agent axis) that EnvPool gives as one env: one observation
    (``obs`` gives it from rlpool's agent rows), the agents' actions as one vector, one reward (``reward``),
    per-env flags (over when every agent is) and, where ``agent_rewards_key`` names it, each agent's reward
    in ``info`` (float32, first among the task's entries). Otherwise such a task has EnvPool 1.2.7's
    multi-player layout (``players.py``)."""

    agent_rewards_key: str | None = None
    """``agents_as_one`` tasks: the info key of the agents' own rewards, where EnvPool gives them."""

    discrete_action_dtype: Any = np.int32
    """The dtype of EnvPool's ``action_array_spec`` for a discrete action (ViZDoom's is float64)."""

    defaults: dict[str, Any] = {}  # noqa: RUF012 - read-only class default
    """Env options EnvPool's behaviour needs, as defaults: an alias's and the caller's options override them."""

    frame_stack = False
    """The family takes EnvPool's ``frame_stack`` option (done by the pool faces, not by the env)."""

    def stacks_frames(self, opts: dict[str, Any]) -> bool:
        """Whether the pool faces stack frames for these make() options (else ``frame_stack`` is the env's)."""
        return self.frame_stack

    def options(self, opts: dict[str, Any]) -> dict[str, Any]:
        """EnvPool's make() options -> rlpool's (may raise EnvPoolError for values rlpool cannot honour)."""
        return opts

    def config(self, config: dict[str, Any]) -> dict[str, Any]:
        """The config EnvPool reports, from rlpool's (in EnvPool's names)."""
        return config

    def observation_space(self, space: Any) -> Any:
        """The single-env observation space EnvPool gives."""
        return space

    def action_space(self, space: Any) -> Any:
        """The single-env action space EnvPool gives (the default: rlpool's)."""
        return space

    def obs(self, obs: Any) -> Any:
        """A batch of observations as EnvPool gives them (the default returns rlpool's as they are)."""
        return obs

    def reward(self, reward: np.ndarray) -> np.ndarray:
        """``agents_as_one`` tasks: the env's one reward from rlpool's ``[n, A]`` (the default: their sum)."""
        return reward.sum(axis=1, dtype=reward.dtype)

    def obs_entry_spec(self, key: str, spec: Any) -> Any:
        """EnvPool's ``state_array_spec`` entry of observation key ``key``, from rlpool's (the default)."""
        return spec

    def obs_keys(self, rlpool_spec: Any) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """EnvPool's keys of a dict observation with their shapes, where they are not the task's own.

        Keys the task lacks are given as zeros (``EnvSpec.zero_keys``); the default, ``()``, means the
        task's own keys.
        """
        return ()

    @property
    def plain(self) -> bool:
        """True when results need no per-call change (the pool's fast path)."""
        return type(self).obs is FamilyLayout.obs and not self.info_order and not self.info_dtypes


class TupleAsInt32Box(FamilyLayout):
    """Tuple-of-Discrete observations that EnvPool gives as one int32 vector (Blackjack: ``Box(0, 31, (3,))``)."""

    xla_ok = False  # np.stack of traced arrays

    def observation_space(self, space: Any) -> Any:
        """One int32 ``Box`` spanning every element's values."""
        from gymnasium import spaces

        high = max(s.start + s.n - 1 for s in space.spaces)
        low = min(s.start for s in space.spaces)
        return spaces.Box(int(low), int(high), (len(space.spaces),), np.int32)

    def obs(self, obs: Any) -> Any:
        """The tuple's arrays side by side, as int32."""
        return np.stack(obs, axis=1).astype(np.int32)


DEFAULT_LAYOUT = FamilyLayout()

LayoutFinder = Callable[[str, str], "FamilyLayout | None"]
"""``finder(task_id, env_type)``: the layout of that task, or None where the finder's family does not have it."""

_FINDERS: list[LayoutFinder] = []

_IDS: dict[str, tuple[str, dict[str, Any]]] = {}
"""Every EnvPool id a family registered: alias -> (rlpool task id, env options)."""


def register_layout(finder: LayoutFinder) -> LayoutFinder:
    """Register a family's layout finder (usable as a decorator); ``family_layout`` asks each in turn."""
    _FINDERS.append(finder)
    return finder


def family_layout(task_id: str) -> FamilyLayout:
    """The EnvPool layout of ``task_id``'s family (the default one for most)."""
    env_type = registry.task(task_id).env_type
    for find in _FINDERS:
        layout = find(task_id, env_type)
        if layout is not None:
            return layout
    return DEFAULT_LAYOUT


def register_ids(ids: dict[str, tuple[str, dict[str, Any]]]) -> None:
    """Register EnvPool's names of rlpool tasks: ``{envpool_id: (rlpool task id, env options)}``.

    The options make the rlpool task EnvPool's. An id whose task this build lacks, or that rlpool
    already has (as a task or an alias), is left out. tests/compat/test_envpool_api.py makes each id on
    EnvPool too, where it is installed.
    """
    _IDS.update(ids)
    known = set(rlpool.list_all_envs())
    taken = set(list_aliases())
    for alias, (target, options) in ids.items():
        if target in known and alias not in taken and alias not in known:
            register_alias(alias, target, **options)


def is_sequence(value: Any) -> bool:
    """A list-like value (a numpy array, list or tuple; not a str)."""
    return isinstance(value, np.ndarray) or (isinstance(value, Sequence) and not isinstance(value, (str, bytes)))
