"""The Parking scenarios' GoalEnv method ``compute_reward``, vectorised (the task method of their ids).

highway-env's ParkingEnv is a GoalEnv: ``compute_reward(achieved_goal, desired_goal, info, p=0.5)`` is the reward
an achieved goal would have earned against a desired goal (hindsight relabelling, HER), and the env's step reward
is that of its KinematicsGoal observation plus ``collision_reward`` per crashed controlled vehicle. Here it works
on whole batches (goals on the last axis, any leading axes; one goal gives a float), computed as the C++ env
computes its reward and as highway-env does, ``-np.power(np.dot(|achieved - desired|, reward_weights), p)``: one
``np.dot`` per goal, so that each value is bitwise the env's (a matrix product rounds otherwise).

Follows highway_env/envs/parking_env.py (highway-env 1.12.1).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def _weights(config: dict[str, Any]) -> np.ndarray:
    value = config["reward_weights"]
    if isinstance(value, str):
        value = [float(v) for v in value.split(",") if v.strip()]
    return np.asarray(value, dtype=np.float64)


def parking_methods(config: dict[str, Any]) -> dict[str, Callable[..., Any]]:
    """ParkingEnv's GoalEnv method for an env of ``config`` (its ``reward_weights``)."""
    weights = _weights(config)

    def compute_reward(achieved_goal: Any, desired_goal: Any, info: Any = None, p: float = 0.5) -> Any:
        """``-(|achieved_goal - desired_goal| . reward_weights) ** p`` per goal (last axis).

        The step reward without the collision penalty: the env's reward when no controlled vehicle crashed.
        ``info`` is not used (accepted for the GoalEnv signature).
        """
        achieved = np.asarray(achieved_goal, dtype=np.float64)
        desired = np.asarray(desired_goal, dtype=np.float64)
        if achieved.shape[-1:] != (len(weights),) or desired.shape[-1:] != (len(weights),):
            raise ValueError(
                f"achieved_goal and desired_goal must hold goals of {len(weights)} values (the last axis: x, y, "
                f"vx, vy, cos_h, sin_h), got shapes {achieved.shape} and {desired.shape}"
            )
        diff = np.abs(achieved - desired)
        if diff.ndim == 1:
            return float(-np.power(np.dot(diff, weights), p))
        flat = diff.reshape(-1, len(weights))
        dots = np.array([np.dot(row, weights) for row in flat], dtype=np.float64)
        return -np.power(dots, p).reshape(diff.shape[:-1])

    return {"compute_reward": compute_reward}
