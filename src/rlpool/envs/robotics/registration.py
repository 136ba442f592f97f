"""Gymnasium-Robotics task ids, as gymnasium-robotics 1.4.2 and EnvPool register them.

EnvPool's older ids (``FetchReach-v1``: gymnasium-robotics' mujoco-py envs, which no longer run) are the
current envs under their old names, as in EnvPool: ``gymnasium_id`` names the current id.
"""

from __future__ import annotations

from typing import Any

from rlpool.envs.robotics import assets_dir, goals, kitchen, maze
from rlpool.registry import register

# task name, C++ env type, model file under gymnasium-robotics' envs/assets
_FETCH = [
    ("FetchReach", "fetch/reach.xml"),
    ("FetchPush", "fetch/push.xml"),
    ("FetchSlide", "fetch/slide.xml"),
    ("FetchPickAndPlace", "fetch/pick_and_place.xml"),
]


def _model(task_id: str, xml: str) -> Any:
    def prepare(config: dict[str, Any]) -> dict[str, Any]:
        return {"_xml_file": str(assets_dir(task_id) / xml)}

    return prepare


for _name, _xml in _FETCH:
    for _dense in (False, True):
        _suffix = "Dense" if _dense else ""
        for _version in ("v1", "v4"):
            _id = f"{_name}{_suffix}-{_version}"
            register(
                _id,
                _name,
                max_episode_steps=50,
                gymnasium_id=f"{_name}{_suffix}-v4" if _version == "v1" else None,
                prepare=_model(_id, _xml),
                task_methods=goals.fetch_methods,
                reward_type="dense" if _dense else "sparse",
            )

# PointMaze: id part, gymnasium-robotics' map, max_episode_steps
_MAZES = [
    ("UMaze", "U_MAZE", 300),
    ("Open", "OPEN", 300),
    ("Open_Diverse_G", "OPEN_DIVERSE_G", 300),
    ("Open_Diverse_GR", "OPEN_DIVERSE_GR", 300),
    ("Medium", "MEDIUM_MAZE", 600),
    ("Medium_Diverse_G", "MEDIUM_MAZE_DIVERSE_G", 600),
    ("Medium_Diverse_GR", "MEDIUM_MAZE_DIVERSE_GR", 600),
    ("Large", "LARGE_MAZE", 800),
    ("Large_Diverse_G", "LARGE_MAZE_DIVERSE_G", 800),
    ("Large_Diverse_GR", "LARGE_MAZE_DIVERSE_GR", 800),
]

for _part, _map, _steps in _MAZES:
    for _dense in (False, True):
        _id = f"PointMaze_{_part}{'Dense' if _dense else ''}-v3"
        register(
            _id,
            "PointMaze",
            max_episode_steps=_steps,
            prepare=maze.preparer(_id),
            encode=maze.encode,
            task_methods=goals.maze_methods,
            maze_map=_map,
            reward_type="dense" if _dense else "sparse",
        )

for _dense in (False, True):
    _suffix = "Dense" if _dense else ""
    for _version in ("v0", "v3"):
        _id = f"HandReach{_suffix}-{_version}"
        register(
            _id,
            "HandReach",
            max_episode_steps=50,
            gymnasium_id=f"HandReach{_suffix}-v3" if _version == "v0" else None,
            prepare=_model(_id, "hand/reach.xml"),
            task_methods=goals.fetch_methods,
            reward_type="dense" if _dense else "sparse",
        )

# Manipulation: object, variant -> (target_position, target_rotation); the variants with touch sensors
_VARIANTS = {
    "Block": {"": ("random", "xyz"), "Full": ("random", "xyz"), "RotateZ": ("ignore", "z"),
              "RotateParallel": ("ignore", "parallel"), "RotateXYZ": ("ignore", "xyz")},
    "Egg": {"": ("random", "xyz"), "Full": ("random", "xyz"), "Rotate": ("ignore", "xyz")},
    "Pen": {"": ("random", "xyz"), "Full": ("random", "xyz"), "Rotate": ("ignore", "xyz")},
}
_TOUCH_VARIANTS = {
    "Block": ("", "RotateZ", "RotateParallel", "RotateXYZ"),
    "Egg": ("", "Rotate"),
    "Pen": ("", "Rotate"),
}
_TOUCH = {"BooleanTouchSensors": "boolean", "ContinuousTouchSensors": "sensordata"}

for _object, _variants in _VARIANTS.items():
    _names = [(f"{_variant}", _variant, None) for _variant in _variants]
    _names += [(f"{_variant}_{_sensors}", _variant, _get) for _variant in _TOUCH_VARIANTS[_object]
               for _sensors, _get in _TOUCH.items()]
    for _name, _variant, _get in _names:
        _position, _rotation = _variants[_variant]
        _xml = f"hand/manipulate_{_object.lower()}{'_touch_sensors' if _get else ''}.xml"
        for _dense in (False, True):
            _suffix = "Dense" if _dense else ""
            for _version in ("v0", "v1"):
                _id = f"HandManipulate{_object}{_name}{_suffix}-{_version}"
                register(
                    _id,
                    f"HandManipulate{_object}",
                    max_episode_steps=100,
                    gymnasium_id=f"HandManipulate{_object}{_name}{_suffix}-v1" if _version == "v0" else None,
                    prepare=_model(_id, _xml),
                    task_methods=goals.manipulate_methods,
                    reward_type="dense" if _dense else "sparse",
                    target_position=_position,
                    target_rotation=_rotation,
                    touch_get_obs=_get or "off",
                )

for _task in ("Door", "Hammer", "Pen", "Relocate"):
    for _sparse in (False, True):
        _id = f"AdroitHand{_task}{'Sparse' if _sparse else ''}-v1"
        register(
            _id,
            f"AdroitHand{_task}",
            max_episode_steps=200,
            prepare=_model(_id, f"adroit_hand/adroit_{_task.lower()}.xml"),
            reward_type="sparse" if _sparse else "dense",
        )

register(
    "FrankaKitchen-v1",
    "FrankaKitchen",
    max_episode_steps=280,
    prepare=kitchen.prepare,
    encode=kitchen.encode,
    task_methods=goals.kitchen_methods,
)
