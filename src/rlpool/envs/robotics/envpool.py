"""The Gymnasium-Robotics tasks through ``rlpool.compat.envpool``: EnvPool 1.2.5's options, config and layout.

EnvPool's observation dict puts ``observation`` first (``observation, achieved_goal, desired_goal``; the
kitchen's ``observation, desired_goal, achieved_goal`` with the tasks in the kitchen's order), gives
``info["distance"]`` (rlpool's hidden ``_distance``) and its success flags as float64, the kitchen's task
masks as int32, and reports facts of each task in its config (``xml_file``, ``hand_task``, ``obs_dim``,
``initial_object_x``, ``maze_height``, ...). Those facts are taken when a call passes the task's own value
and refused by name otherwise; ``frame_skip`` is the Fetch and hand tasks' ``n_substeps``. The kitchen with
some of its tasks gives only those tasks' goal entries, as gymnasium-robotics does (EnvPool all seven).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np

from rlpool.compat.envpool.layouts import EnvPoolError, FamilyLayout, is_sequence, register_layout
from rlpool.envs.robotics.kitchen import TASKS as KITCHEN_TASKS
from rlpool.registry import option_docs

# EnvPool's config keys of each kind of task after frame_stack, in its order: a str is the rlpool option
# of that name (or, for frame_skip, n_substeps), None a fact of the task (_facts).
_FETCH = ("frame_skip", "frame_stack", "xml_file", "reward_type", "has_object", "block_gripper",
          "target_in_the_air", "gripper_extra_height", "target_offset_x", "target_offset_y", "target_offset_z",
          "obj_range", "target_range", "distance_threshold", "initial_slide0", "initial_slide1", "initial_slide2",
          "initial_object_x", "initial_object_y", "initial_object_z")
_HAND = ("frame_skip", "frame_stack", "xml_file", "hand_task", "reward_type", "obs_dim", "goal_dim", "qpos_dim",
         "qvel_dim", "relative_control", "distance_threshold", "rotation_threshold", "target_position",
         "target_rotation", "target_position_low0", "target_position_high0", "target_position_low1",
         "target_position_high1", "target_position_low2", "target_position_high2", "randomize_initial_position",
         "randomize_initial_rotation", "ignore_z_target_rotation", "touch_visualisation", "touch_get_obs")
_ADROIT = ("frame_skip", "frame_stack", "xml_file", "adroit_task", "reward_type", "obs_dim", "action_dim",
           "qpos_dim", "qvel_dim", "reset_dim")
_MAZE = ("frame_skip", "frame_stack", "maze_map", "reward_type", "continuing_task", "reset_target",
         "maze_size_scaling", "maze_height", "position_noise_range")
_KITCHEN = ("frame_skip", "frame_stack", "xml_file", "tasks_to_complete", "terminate_on_tasks_completed",
            "remove_task_when_completed", "robot_noise_ratio", "object_noise_ratio")

_FETCH_XML = {"FetchReach": "reach", "FetchPush": "push", "FetchSlide": "slide", "FetchPickAndPlace": "pick_and_place"}
# The object's start in the model (EnvPool's initial_object_*): the slide table's puck, the others' block.
_FETCH_OBJECT = {"FetchSlide": (1.7, 1.1, 0.41)}
# Adroit: obs_dim, action_dim, qpos_dim, qvel_dim, reset_dim (the model's and the task's sizes).
_ADROIT_DIMS = {"Door": (39, 28, 30, 30, 3), "Hammer": (46, 26, 33, 33, 3), "Pen": (45, 24, 30, 30, 4),
                "Relocate": (39, 30, 36, 36, 6)}
_HAND_TOUCH_SENSORS = 92  # the touch models' sensors, appended to the observation where touch_get_obs is on
# The hand reach task's fixed settings that EnvPool's one hand env reports as options.
_REACH = {"rotation_threshold": 0.1, "target_position": "ignore", "target_rotation": "ignore",
          "randomize_initial_position": False, "randomize_initial_rotation": False,
          "ignore_z_target_rotation": False, "touch_visualisation": "off", "touch_get_obs": "off"}


def _facts(task_id: str, env_type: str, config: dict[str, Any]) -> dict[str, Any]:
    """EnvPool's config entries that are facts of the task (its model, sizes, fixed ranges), for ``config``."""
    if env_type in _FETCH_XML:
        x, y, z = _FETCH_OBJECT.get(env_type, (1.25, 0.53, 0.4))
        return {"xml_file": f"fetch/{_FETCH_XML[env_type]}.xml", "has_object": env_type != "FetchReach",
                "initial_object_x": x, "initial_object_y": y, "initial_object_z": z}
    if env_type == "HandReach":
        return {"xml_file": "hand/reach.xml", "hand_task": "reach", "obs_dim": 63, "goal_dim": 15, "qpos_dim": 24,
                "qvel_dim": 24, **_REACH, **_position_range()}
    if env_type.startswith("HandManipulate"):
        touch = "TouchSensors" in task_id
        name = env_type.removeprefix("HandManipulate").lower()
        sensors = _HAND_TOUCH_SENSORS if config["touch_get_obs"] != "off" else 0
        return {"xml_file": f"hand/manipulate_{name}{'_touch_sensors' if touch else ''}.xml",
                "hand_task": "manipulate", "obs_dim": 61 + sensors, "goal_dim": 7, "qpos_dim": 38, "qvel_dim": 36,
                **_position_range()}
    if env_type.startswith("AdroitHand"):
        task = env_type.removeprefix("AdroitHand")
        dims = dict(zip(("obs_dim", "action_dim", "qpos_dim", "qvel_dim", "reset_dim"), _ADROIT_DIMS[task],
                        strict=True))
        return {"frame_skip": 5, "xml_file": f"adroit_hand/adroit_{task.lower()}.xml", "adroit_task": task.lower(),
                **dims}
    if env_type == "PointMaze":
        return {"frame_skip": 1, "maze_size_scaling": 1.0, "maze_height": 0.4, "position_noise_range": 0.25}
    return {"xml_file": "kitchen_franka/kitchen_assets/kitchen_env_model.xml"}


def _position_range() -> dict[str, float]:
    """The hand tasks' target position range (gymnasium-robotics' [(-0.04, 0.04), (-0.06, 0.02), (0, 0.06)])."""
    bounds = ((-0.04, 0.04), (-0.06, 0.02), (0.0, 0.06))
    return {f"target_position_{side}{i}": b[j] for i, b in enumerate(bounds) for j, side in enumerate(("low", "high"))}


def _same(value: Any, fact: Any) -> bool:
    """Whether a value a call passed is the task's fact (a number within 1e-12, a bool as a bool)."""
    if isinstance(fact, bool) or isinstance(value, (bool, np.bool_)):
        return isinstance(value, (bool, np.bool_)) and bool(value) == fact
    if isinstance(fact, (int, float)):
        return isinstance(value, (int, float, np.number)) and abs(float(value) - fact) <= 1e-12
    return value == fact


class RoboticsLayout(FamilyLayout):
    """EnvPool's face of one Gymnasium-Robotics task: its config keys, observation order and info types."""

    info_fields = {"distance": "_distance"}  # noqa: RUF012 - read-only class default

    def __init__(self, task_id: str, env_type: str) -> None:
        self.task_id = task_id
        self.env_type = env_type
        self.kitchen = env_type == "FrankaKitchen"
        if env_type in _FETCH_XML:
            self.keys = _FETCH
        elif env_type.startswith("Hand"):
            self.keys = _HAND
        elif env_type.startswith("AdroitHand"):
            self.keys = _ADROIT
        elif env_type == "PointMaze":
            self.keys = _MAZE
        else:
            self.keys = _KITCHEN
        self.substeps = "n_substeps" if self.keys in (_FETCH, _HAND) else None
        if env_type.startswith("HandManipulate") and "TouchSensors" not in task_id:
            # A model without touch sensors draws none either way; EnvPool reports "off" for it.
            self.defaults = {"touch_visualisation": "off"}
        if self.kitchen:
            self.info_fields = {}
            self.info_dtypes = dict.fromkeys(
                ("tasks_to_complete", "step_task_completions", "episode_task_completions"), np.int32)
        else:
            success = "is_success" if self.keys in (_FETCH, _HAND) else "success"
            self.info_dtypes = {success: np.float64}
            self.info_bounds = {success: (0.0, 1.0), "distance": (0.0, np.inf)}
        self._defaults: dict[str, Any] | None = None

    @property
    def defaults_of_task(self) -> dict[str, Any]:
        """The task's rlpool option defaults (looked up once)."""
        if self._defaults is None:
            self._defaults = {o.name: o.default for o in option_docs(self.task_id)}
        return self._defaults

    def options(self, opts: dict[str, Any]) -> dict[str, Any]:
        """``frame_skip`` as ``n_substeps``; EnvPool's facts of the task checked and dropped."""
        opts = dict(opts)
        if self.substeps and "frame_skip" in opts:
            opts[self.substeps] = opts.pop("frame_skip")
        if self.kitchen and is_sequence(opts.get("tasks_to_complete")):
            opts["tasks_to_complete"] = list(opts["tasks_to_complete"])
        facts = _facts(self.task_id, self.env_type, {**self.defaults_of_task, **opts})
        for key, fact in facts.items():
            if key in opts and key not in self.defaults_of_task:
                value = opts.pop(key)
                if not _same(value, fact):
                    raise EnvPoolError(
                        f"{key}={value!r}: rlpool's {self.task_id} has {key} {fact!r} only (a fact of the task "
                        f"in EnvPool's config, not an option of rlpool's {self.env_type})"
                    )
        return opts

    def config(self, config: dict[str, Any]) -> dict[str, Any]:
        """EnvPool's config: its keys in its order (facts of the task included), then rlpool's others."""
        rest = dict(config)
        mode = rest.pop("autoreset_mode")
        facts = _facts(self.task_id, self.env_type, config)
        out = {k: rest.pop(k) for k in list(rest)[: list(rest).index("reward_threshold") + 1]}
        for key in self.keys:
            if key == "frame_skip" and self.substeps:
                out[key] = rest.pop(self.substeps)
            elif key in rest:
                out[key] = rest.pop(key)
            elif key in facts:
                out[key] = facts[key]
            elif key == "frame_stack":
                out[key] = 1
        if out["reward_threshold"] is None:  # gymnasium-robotics registers none; EnvPool says 0.0
            out["reward_threshold"] = 0.0
        if self.kitchen:
            out["tasks_to_complete"] = out["tasks_to_complete"].split(",")
        return {**out, **rest, "autoreset_mode": mode}

    def _order(self, keys: Any) -> list[str]:
        """A dict observation's keys (top level or the kitchen's tasks) in EnvPool's order."""
        first = ("observation", "desired_goal", "achieved_goal") if self.kitchen else (
            "observation", "achieved_goal", "desired_goal")
        keys = list(keys)
        order = [k for k in first if k in keys] + [k for k in KITCHEN_TASKS if k in keys]
        return order + [k for k in keys if k not in order]

    def obs(self, obs: Any) -> Any:
        """The observation dict (and the kitchen's goal dicts) with EnvPool's key order."""
        if not isinstance(obs, dict):
            return obs
        return {k: self.obs(obs[k]) for k in self._order(obs)}

    def observation_space(self, space: Any) -> Any:
        """The task's ``Dict`` with its keys in EnvPool's order."""
        from gymnasium import spaces

        if not isinstance(space, spaces.Dict):
            return space
        return spaces.Dict(OrderedDict((k, self.observation_space(space[k])) for k in self._order(space.spaces)))

    def obs_keys(self, rlpool_spec: Any) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """The task's own keys (``outer.inner`` for the kitchen's goals) in EnvPool's order."""
        if rlpool_spec.arrays.obs_kind != "dict":
            return ()
        own = {a.name: tuple(a.shape) for a in rlpool_spec.arrays.obs}
        keys = []
        for outer in self._order(dict.fromkeys(name.partition(".")[0] for name in own)):
            inner = [name.partition(".")[2] for name in own if name.partition(".")[0] == outer]
            keys += [outer] if inner == [""] else [f"{outer}.{k}" for k in self._order(inner)]
        return tuple((k, own[k]) for k in keys)


_LAYOUTS: dict[str, RoboticsLayout] = {}
_TYPES = ("FetchReach", "FetchPush", "FetchSlide", "FetchPickAndPlace", "HandReach", "HandManipulateBlock",
          "HandManipulateEgg", "HandManipulatePen", "AdroitHandDoor", "AdroitHandHammer", "AdroitHandPen",
          "AdroitHandRelocate", "PointMaze", "FrankaKitchen")


@register_layout
def _layout(task_id: str, env_type: str) -> FamilyLayout | None:
    if env_type not in _TYPES:
        return None
    if task_id not in _LAYOUTS:
        _LAYOUTS[task_id] = RoboticsLayout(task_id, env_type)
    return _LAYOUTS[task_id]
