"""Engine test envs: BusyWork-v0's action is the microseconds of work its step costs."""

from rlpool.registry import register

register("BusyWork-v0", "BusyWork", max_episode_steps=1000)
