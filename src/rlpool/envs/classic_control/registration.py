"""Classic control, as gymnasium 1.x defines it (limits and thresholds included)."""

from __future__ import annotations

from rlpool import images
from rlpool.registry import register

register("CartPole-v0", "CartPole", max_episode_steps=200, reward_threshold=195.0)
register("CartPole-v1", "CartPole", max_episode_steps=500, reward_threshold=475.0)
register("MountainCar-v0", "MountainCar", max_episode_steps=200, reward_threshold=-110.0)
register("MountainCarContinuous-v0", "MountainCarContinuous", max_episode_steps=999, reward_threshold=90.0)
# Pendulum draws gymnasium's torque arrow image (rlpool.images).
register("Pendulum-v1", "Pendulum", max_episode_steps=200, prepare=images.prepare("envs/classic_control/assets"))
register("Acrobot-v1", "Acrobot", max_episode_steps=500, reward_threshold=-100.0)
