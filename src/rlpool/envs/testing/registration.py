"""Engine test envs: BusyWork-v0's action is the microseconds of work its step costs."""

from __future__ import annotations

from rlpool.registry import register

register("BusyWork-v0", "BusyWork", max_episode_steps=1000)
