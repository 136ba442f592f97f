"""The DeepMind Control Suite tasks through ``rlpool.compat.envpool``: EnvPool 1.2.5's observation keys.

EnvPool gives a dict observation whose keys are those of every task of the task's domain (``domain_keys``);
the keys a task lacks come as zeros (``EnvSpec.zero_keys``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from rlpool.compat.envpool.layouts import EnvPoolError, FamilyLayout, register_layout
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
    """EnvPool's DeepMind Control tasks: the domain's observation keys, EnvPool's ``frame_skip``.

    EnvPool's ``frame_skip`` is dm_control's physics steps per control step (``n_sub_steps``), reported in
    its config and taken only at that value (rlpool's tasks keep dm_control's timing); rlpool's own
    ``frame_skip`` (control steps per env step) is 1 here, as one EnvPool step is one control step.

    ``frame_stack`` stacks each key's states (``(k, *shape)``, the newest last) and, with ``from_pixels``,
    the frames on the channel axis (the env's own option).
    """

    def __init__(self, n_sub_steps: int) -> None:
        self.n_sub_steps = n_sub_steps

    def stacks_frames(self, opts: dict[str, Any]) -> bool:
        """State observations are stacked by the pool faces; pixel frames by the env."""
        return not opts.get("from_pixels", False)

    def options(self, opts: dict[str, Any]) -> dict[str, Any]:
        """EnvPool's ``frame_skip`` (physics steps per control step): only dm_control's own value."""
        opts = dict(opts)
        if "frame_skip" in opts:
            value = opts.pop("frame_skip")
            if value != self.n_sub_steps:
                raise EnvPoolError(
                    f"frame_skip={value!r}: EnvPool's frame_skip for this task is dm_control's physics steps "
                    f"per control step, {self.n_sub_steps}, and rlpool keeps dm_control's timing; for several "
                    "control steps per env step use rlpool's own make(..., frame_skip=k)")
        return opts

    def config(self, config: dict[str, Any]) -> dict[str, Any]:
        """EnvPool's config: ``frame_skip`` the physics steps per control step, in EnvPool's order.

        The task's keys follow the pool's (``max_episode_steps`` the last of those); rlpool's own keys follow.
        """
        config = {**config, "frame_skip": self.n_sub_steps}
        keys = list(config)
        pool = keys[: keys.index("max_episode_steps") + 1]
        task = [k for k in ("frame_skip", "frame_stack", "task_name") if k in config]
        return {k: config[k] for k in [*pool, *task, *(k for k in keys if k not in pool and k not in task)]}

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


_LAYOUTS = {dmc_env_type(d.name): DmcLayout(d.n_sub_steps) for d in DOMAINS}


@register_layout
def _layout(task_id: str, env_type: str) -> FamilyLayout | None:
    return _LAYOUTS.get(env_type)
