"""Engine test envs: BusyWork-v0 (its action is the microseconds its step costs) and NestedDict-v0.

NestedDict-v0 has a nested dict observation and a hidden info entry.
"""

from __future__ import annotations

from rlpool.registry import register

register("BusyWork-v0", "BusyWork", max_episode_steps=1000)
register("NestedDict-v0", "NestedDict", max_episode_steps=50)
