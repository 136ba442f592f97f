"""The DeepMind Control Suite tasks through ``rlpool.compat.envpool``: EnvPool 1.2.5's observation keys.

EnvPool gives a dict observation whose keys are those of every task of the task's domain (``domain_keys``);
the keys a task lacks come as zeros (``EnvSpec.zero_keys``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from rlpool.compat.envpool.layouts import FamilyLayout, register_layout
from rlpool.envs.dmc.registration import DOMAINS
from rlpool.envs.dmc.registration import env_type as dmc_env_type
from rlpool.envs.dmc.registration import task_id as dmc_task_id
from rlpool.spec import EnvSpec as RlpoolEnvSpec

PIXELS = "pixels"  # from_pixels: the observation's one key in rlpool, EnvPool's plain array


def _merge_keys(into: list[str], keys: Sequence[str]) -> None:
    """Add ``keys`` missing from ``into``, each just before the next of ``keys`` that ``into`` has (else last)."""
    for i, key in enumerate(keys):
        if key in into:
            continue
        later = [k for k in keys[i + 1 :] if k in into]
        into.insert(into.index(later[0]) if later else len(into), key)


@cache
def domain_keys(env_type: str) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """EnvPool's observation keys for a DeepMind Control domain: those of all its tasks, with their shapes.

    EnvPool 1.2.5 gives every task of a domain the same keys (the other tasks' filled with zeros), in
    dm_control's order with the later tasks' keys merged in.
    """
    domain = next(d for d in DOMAINS if dmc_env_type(d.name) == env_type)
    order: list[str] = []
    shapes: dict[str, tuple[int, ...]] = {}
    for name in domain.tasks:
        obs = RlpoolEnvSpec(dmc_task_id(domain.name, name)).arrays.obs
        shapes.update((a.name, tuple(a.shape)) for a in obs)
        _merge_keys(order, [a.name for a in obs])
    return tuple((k, shapes[k]) for k in order)


class DmcLayout(FamilyLayout):
    """EnvPool's DeepMind Control tasks: the domain's observation keys.

    ``frame_stack`` stacks each key's states (``(k, *shape)``, the newest last) and, with ``from_pixels``,
    the frames on the channel axis (the env's own option).
    """

    def stacks_frames(self, opts: dict[str, Any]) -> bool:
        """State observations are stacked by the pool faces; pixel frames by the env."""
        return not opts.get("from_pixels", False)

    def obs_keys(self, rlpool_spec: Any) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """Every key of the task's domain, with its shape, in EnvPool's order (none for pixels)."""
        if rlpool_spec.arrays.obs_names == (PIXELS,):
            return ()
        return domain_keys(rlpool_spec.task.env_type)

    def observation_space(self, space: Any) -> Any:
        """The state keys' ``Dict``, or with ``from_pixels`` the frames' ``Box`` (EnvPool gives an array)."""
        return space[PIXELS] if list(space.spaces) == [PIXELS] else space

    def obs(self, obs: Any) -> Any:
        """The state keys' arrays, or with ``from_pixels`` the frames' array."""
        return obs[PIXELS] if len(obs) == 1 and PIXELS in obs else obs


_LAYOUT = DmcLayout()


@register_layout
def _layout(task_id: str, env_type: str) -> FamilyLayout | None:
    return _LAYOUT if env_type.startswith("Dmc") else None
