"""A test-only task with task methods: ``TaskMethodsProbe-v0``, CartPole's dynamics with a goal env's functions.

Its ``compute_reward(achieved_goal, desired_goal, info)`` is gymnasium-robotics' sparse goal reward (0 within
``distance_threshold``, a task option, else -1) over whole batches; ``compute_terminated`` and
``compute_truncated`` are the goal env's too. ``CALLS`` counts how often each function (and the factory that
makes them) ran, and ``CONFIGS`` keeps the env configs the factory was given, so tests can check that a face
ran a batch function once and passed the resolved options. ``register_probe()`` registers the task on first
use only, in rlpool's and gymnasium's registries, so importing this from several test modules is safe.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

TASK_ID = "TaskMethodsProbe-v0"
CALLS: Counter[str] = Counter()
CONFIGS: list[dict[str, Any]] = []


def _methods(config: dict[str, Any]) -> dict[str, Callable[..., Any]]:
    CALLS["factory"] += 1
    CONFIGS.append(config)
    threshold = float(config["distance_threshold"])

    def compute_reward(achieved_goal: Any, desired_goal: Any, info: Any) -> np.ndarray:
        CALLS["compute_reward"] += 1
        distance = np.linalg.norm(np.asarray(achieved_goal) - np.asarray(desired_goal), axis=-1)
        return np.where(distance > threshold, -1.0, 0.0).astype(np.float32)

    def compute_terminated(achieved_goal: Any, desired_goal: Any, info: Any) -> np.ndarray:
        CALLS["compute_terminated"] += 1
        distance = np.linalg.norm(np.asarray(achieved_goal) - np.asarray(desired_goal), axis=-1)
        return distance <= threshold

    def compute_truncated(achieved_goal: Any, desired_goal: Any, info: Any) -> np.ndarray:
        CALLS["compute_truncated"] += 1
        return np.zeros(np.shape(achieved_goal)[:-1], dtype=bool)

    return {
        "compute_reward": compute_reward,
        "compute_terminated": compute_terminated,
        "compute_truncated": compute_truncated,
    }


def register_probe() -> str:
    """Register ``TaskMethodsProbe-v0`` (once per process) and return its id."""
    from rlpool import registry
    from rlpool.api.gymnasium_ids import register_with_gymnasium

    if TASK_ID not in registry.list_all_envs():
        env_type = registry.task("CartPole-v1").env_type
        registry.register(
            TASK_ID,
            env_type,
            max_episode_steps=50,
            task_options={"distance_threshold": 0.05},
            task_methods=_methods,
        )
        register_with_gymnasium(TASK_ID)
    return TASK_ID
