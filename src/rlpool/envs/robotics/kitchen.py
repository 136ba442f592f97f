"""FrankaKitchen's options: ``tasks_to_complete`` as a list, and the robot's limits from ``franka_config.xml``.

gymnasium-robotics' FrankaRobot reads the arm's joint limits and observation noise amplitudes from its
``kitchen_franka/franka_assets/franka_config.xml``; rlpool reads the same file of the installed package and
hands the numbers to the C++ env (hidden option ``_franka_config``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import cache
from typing import Any

from rlpool.envs.robotics import assets_dir

TASKS = ("bottom burner", "top burner", "light switch", "slide cabinet", "hinge cabinet", "microwave", "kettle")
"""The kitchen's tasks, in gymnasium-robotics' order (``OBS_ELEMENT_GOALS``): the order of the info masks."""

NUM_DOFS = 29
"""Degrees of freedom of the kitchen model: franka_config.xml has a row for each."""


@cache
def franka_config() -> str:
    """franka_config.xml's numbers, a line per degree of freedom, as text the C++ env reads back exactly.

    Each line: pos_bound (2), vel_bound (2), pos_noise_amp, vel_noise_amp (``repr`` of each float).
    """
    root = ET.parse(assets_dir("FrankaKitchen-v1") / "kitchen_franka" / "franka_assets" / "franka_config.xml").getroot()
    rows = []
    for i in range(NUM_DOFS):
        node = root.find(f"qpos{i}")
        if node is None:
            raise ValueError(f"franka_config.xml has no qpos{i}")
        values = [float(v) for key in ("pos_bound", "vel_bound") for v in node.get(key, "").split()]
        values += [float(node.get(key, "").split()[0]) for key in ("pos_noise_amp", "vel_noise_amp")]
        rows.append(" ".join(repr(v) for v in values))
    return "\n".join(rows)


def prepare(config: dict[str, Any]) -> dict[str, Any]:
    """The hidden options of the kitchen env: its model file and the robot's configuration."""
    model = assets_dir("FrankaKitchen-v1") / "kitchen_franka" / "kitchen_assets" / "kitchen_env_model.xml"
    return {"_xml_file": str(model), "_franka_config": franka_config()}


def encode(options: dict[str, Any]) -> dict[str, Any]:
    """``tasks_to_complete`` given as a list of task names (gymnasium-robotics' form) written as one string."""
    value = options.get("tasks_to_complete")
    if value is None or isinstance(value, str):
        return options
    if not isinstance(value, (list, tuple, set, frozenset)) or not value:
        raise ValueError(f"tasks_to_complete must be a non-empty list of task names, got {value!r}")
    names = list(value)
    for name in names:
        if name not in TASKS:
            raise ValueError(f"tasks_to_complete has {name!r}, which is not a kitchen task ({', '.join(TASKS)})")
    return {**options, "tasks_to_complete": ",".join(n for n in TASKS if n in names)}
