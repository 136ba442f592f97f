"""Gymnasium-Robotics tasks (Fetch, ...), in C++ on the MuJoCo library rlpool's MuJoCo tasks use.

The models are the installed ``gymnasium-robotics`` package's own XML files and meshes
(rlpool's ``robotics`` extra), found without importing it: importing gymnasium_robotics registers
its envs with gymnasium and imports PettingZoo, which rlpool does not need.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from rlpool.extras import install_hint

GYMNASIUM_ROBOTICS_VERSION = "1.4.2"
"""The gymnasium-robotics release whose envs the C++ tasks follow (installed by the ``robotics`` extra)."""


def assets_dir(task_id: str) -> Path:
    """gymnasium-robotics' ``envs/assets`` folder; an ImportError naming what to install where it is absent."""
    spec = importlib.util.find_spec("gymnasium_robotics")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(
            f"{task_id} takes its model from gymnasium-robotics, which is not installed: "
            f"{install_hint('robotics', f'gymnasium-robotics=={GYMNASIUM_ROBOTICS_VERSION}')}"
        )
    return Path(spec.submodule_search_locations[0]) / "envs" / "assets"
