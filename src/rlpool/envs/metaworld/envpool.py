"""The MetaWorld tasks through ``rlpool.compat.envpool``: EnvPool 1.2.5's config and observation space.

EnvPool's config reports ``frame_skip`` (5) and ``frame_stack`` (1), facts of every task here, and
``task_name``, the task of the id: each is taken when a call passes that value and refused by name otherwise.
Its observation space is ``Box(-inf, inf, (39,), float64)``, where rlpool's (metaworld's) bounds the hand and
the gripper; the observations themselves are the same arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rlpool.compat.envpool.layouts import EnvPoolError, FamilyLayout, register_layout

_KEYS = ("frame_skip", "frame_stack", "task_name", "partially_observable")
"""EnvPool's config keys after reward_threshold, in its order."""
_FACTS = {"frame_skip": 5, "frame_stack": 1}


class MetaWorldLayout(FamilyLayout):
    """EnvPool's face of one MetaWorld task."""

    info_bounds = {"success": (0.0, 1.0), "grasp_success": (0.0, 1.0)}  # noqa: RUF012 - read-only class default

    def __init__(self, task_id: str) -> None:
        self.task_id = task_id

    def options(self, opts: dict[str, Any]) -> dict[str, Any]:
        """EnvPool's facts of the task (``frame_skip``, ``frame_stack``, ``task_name``) checked and dropped."""
        from rlpool.registry import option_docs

        opts = dict(opts)
        task = next(o.default for o in option_docs(self.task_id) if o.name == "task_name")
        for key, fact in {**_FACTS, "task_name": task}.items():
            if key in opts:
                value = opts.pop(key)
                if value != fact or isinstance(value, bool):
                    raise EnvPoolError(f"{key}={value!r}: rlpool's {self.task_id} has {key} {fact!r} only (a fact "
                                       f"of the task in EnvPool's config)")
        return opts

    def config(self, config: dict[str, Any]) -> dict[str, Any]:
        """EnvPool's config: its keys in its order, then rlpool's others."""
        rest = dict(config)
        mode = rest.pop("autoreset_mode")
        out = {k: rest.pop(k) for k in list(rest)[: list(rest).index("reward_threshold") + 1]}
        if out["reward_threshold"] is None:  # metaworld registers none; EnvPool says 10.0 (the reward at the goal)
            out["reward_threshold"] = 10.0
        for key in _KEYS:
            out[key] = rest.pop(key) if key in rest else _FACTS[key]
        return {**out, **rest, "autoreset_mode": mode}

    def observation_space(self, space: Any) -> Any:
        """``Box(-inf, inf)`` of the observation's shape, as EnvPool declares it."""
        from gymnasium import spaces

        return spaces.Box(-np.inf, np.inf, space.shape, np.float64)


_LAYOUTS: dict[str, MetaWorldLayout] = {}


@register_layout
def _layout(task_id: str, env_type: str) -> FamilyLayout | None:
    if env_type != "MetaWorld":
        return None
    if task_id not in _LAYOUTS:
        _LAYOUTS[task_id] = MetaWorldLayout(task_id)
    return _LAYOUTS[task_id]
