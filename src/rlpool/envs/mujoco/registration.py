"""MuJoCo tasks, as gymnasium 1.4 registers them (episode limits, reward thresholds).

The ``xml_file`` default is the installed gymnasium package's own asset for the
task, so that rlpool and gymnasium simulate the same model file.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from rlpool.registry import register


def gymnasium_assets() -> Path:
    """The folder of gymnasium's MuJoCo XML models (found without importing gymnasium's MuJoCo envs)."""
    spec = importlib.util.find_spec("gymnasium")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("gymnasium is not installed: rlpool's MuJoCo tasks use its XML models")
    return Path(spec.submodule_search_locations[0]) / "envs" / "mujoco" / "assets"


_ASSETS = gymnasium_assets()

# task, C++ env type, gymnasium's XML asset, max_episode_steps, reward_threshold
_TASKS = [
    ("Ant", "ant.xml", "ant.xml", 1000, 6000.0),
    ("HalfCheetah", "half_cheetah.xml", "half_cheetah.xml", 1000, 4800.0),
    ("Hopper", "hopper.xml", "hopper.xml", 1000, 3800.0),
    ("Humanoid", "humanoid.xml", "humanoid.xml", 1000, None),
    ("HumanoidStandup", "humanoidstandup.xml", "humanoidstandup.xml", 1000, None),
    ("InvertedDoublePendulum", "inverted_double_pendulum.xml", "inverted_double_pendulum.xml", 1000, 9100.0),
    ("InvertedPendulum", "inverted_pendulum.xml", "inverted_pendulum.xml", 1000, 950.0),
    ("Pusher", "pusher.xml", "pusher_v5.xml", 100, 0.0),
    ("Reacher", "reacher.xml", "reacher.xml", 50, -3.75),
    ("Swimmer", "swimmer.xml", "swimmer.xml", 1000, 360.0),
    ("Walker2d", "walker2d.xml", "walker2d_v5.xml", 1000, None),
]

for _name, _v4_xml, _v5_xml, _steps, _threshold in _TASKS:
    for _version, _xml in (("v4", _v4_xml), ("v5", _v5_xml)):
        register(
            f"{_name}-{_version}",
            f"{_name}{_version.upper()}",
            max_episode_steps=_steps,
            reward_threshold=_threshold,
            xml_file=str(_ASSETS / _xml),
        )
