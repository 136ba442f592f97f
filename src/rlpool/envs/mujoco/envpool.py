"""The MuJoCo tasks through ``rlpool.compat.envpool``: EnvPool 1.2.5's MuJoCo options, config and ids.

EnvPool's ``-v4`` and ``-v5`` of a task are one env with switches (``post_constraint``,
``legacy_healthy_reward``, ...); rlpool's are two env types. The layout takes each switch's value that
the task's rlpool env type implements and refuses the other by name; it maps ``use_contact_force`` and a
relative ``xml_file`` (gymnasium's asset), reports EnvPool's config with its switches, orders Ant's info as
EnvPool does and takes EnvPool's ``frame_stack``. EnvPool registers the gym ``-v2``/``-v3`` ids as its v4
env (Ant-v3 with contact forces in the observation; Humanoid-v3's switch changes nothing there), not as
gym's mujoco-py v2/v3; so does rlpool here.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from rlpool.compat.envpool.layouts import EnvPoolError, FamilyLayout, register_ids, register_layout
from rlpool.envs.mujoco.registration import gymnasium_assets

# EnvPool's MuJoCo options. Each value rlpool's v4/v5 env types implement is taken; others are refused
# by name, with the reason (EnvPool's v4 and v5 ids are one env with these switches; rlpool's are two).
_MUJOCO_V5 = {"post_constraint": True, "legacy_healthy_reward": False}
_MUJOCO_V4 = {"post_constraint": False, "legacy_healthy_reward": True}


class MujocoLayout(FamilyLayout):
    """EnvPool's MuJoCo task of one rlpool env type (``HopperV4``, ...): its switches, config and info order."""

    frame_stack = True

    def __init__(self, env_type: str) -> None:
        self.env_type = env_type
        self.v5 = env_type.endswith("V5")
        name = env_type[:-2]
        # EnvPool's own defaults for the task's version (envpool/mujoco/gym/registration.py), in its order.
        fixed = dict(_MUJOCO_V5 if self.v5 else _MUJOCO_V4)
        if name not in ("Ant", "Hopper", "Humanoid", "Walker2d"):
            fixed.pop("legacy_healthy_reward")
        if name == "Ant":
            fixed["exclude_worldbody_contact_forces"] = self.v5
        self.fixed = fixed
        self.contact_option = {"Ant": "use_contact_forces" if not self.v5 else None}.get(name)
        self.name = name
        if name == "Ant":
            self.info_order = ("reward_forward", "reward_ctrl", "reward_contact", "reward_survive", "x_position",
                               "y_position", "distance_from_origin", "x_velocity", "y_velocity")

    def options(self, opts: dict[str, Any]) -> dict[str, Any]:
        """EnvPool's switches checked against the env type, ``use_contact_force`` and ``xml_file`` mapped."""
        opts = dict(opts)
        camera = opts.pop("gymnasium_v5_render_camera", self.v5)
        if not isinstance(camera, (bool, np.bool_)):
            raise TypeError(f"gymnasium_v5_render_camera must be a bool, got {camera!r}")
        for key, value in self.fixed.items():
            if key in opts and opts.pop(key) != value:
                version = "v4" if self.v5 else "v5"
                raise EnvPoolError(
                    f"{key}={not value} is EnvPool's {version} behaviour, which rlpool's {self.env_type} does "
                    f"not have (EnvPool's -v4 and -v5 are one env with switches, rlpool's two): "
                    f"use the {self.name}-{version} task"
                )
        if "use_contact_force" in opts:
            value = opts.pop("use_contact_force")
            if self.contact_option is not None:
                opts[self.contact_option] = value
            elif value != (self.name in ("Ant", "Humanoid") and self.v5):
                raise EnvPoolError(f"use_contact_force={value!r} is not available on rlpool's {self.env_type}")
        if "xml_file" in opts and not os.path.isabs(opts["xml_file"]):
            opts["xml_file"] = str(gymnasium_assets() / opts["xml_file"])
        return opts

    def config(self, config: dict[str, Any]) -> dict[str, Any]:
        """EnvPool's MuJoCo config: the asset's name, its switches and ``frame_stack`` before ``autoreset_mode``."""
        out = dict(config)
        out["xml_file"] = os.path.basename(out["xml_file"])  # EnvPool reports the asset's name
        contact = out.pop(self.contact_option, self.name in ("Ant", "Humanoid") and self.v5) \
            if self.contact_option else self.name in ("Ant", "Humanoid") and self.v5
        mode = out.pop("autoreset_mode")  # stays last, after EnvPool's MuJoCo switches
        out.update({"frame_stack": 1, **self.fixed})
        if self.name in ("Ant", "Humanoid"):  # the two EnvPool tasks with the switch
            out["use_contact_force"] = contact
        out.update({"gymnasium_v5_render_camera": self.v5, "autoreset_mode": mode})
        return out


_TYPES = ("Ant", "HalfCheetah", "Hopper", "Humanoid", "HumanoidStandup", "InvertedDoublePendulum",
          "InvertedPendulum", "Pusher", "Reacher", "Swimmer", "Walker2d")
_LAYOUTS: dict[str, MujocoLayout] = {}


@register_layout
def _layout(task_id: str, env_type: str) -> FamilyLayout | None:
    if env_type[:-2] in _TYPES and env_type[-2:] in ("V4", "V5"):
        return _LAYOUTS.setdefault(env_type, MujocoLayout(env_type))
    return None


register_ids({
    **{f"{name}-{version}": (f"{name}-v4", {})
       for name, version in [("HalfCheetah", "v3"), ("Hopper", "v3"), ("Swimmer", "v3"), ("Walker2d", "v3"),
                             ("HumanoidStandup", "v2"), ("InvertedDoublePendulum", "v2"),
                             ("InvertedPendulum", "v2"), ("Pusher", "v2"), ("Reacher", "v2"), ("Humanoid", "v3")]},
    "Ant-v3": ("Ant-v4", {"use_contact_forces": True}),
})
