"""FrankaKitchen against gymnasium-robotics 1.4.2's own KitchenEnv (the reference), step by step.

Both start each episode from the same draws (the reference's robot draws from rlpool's generator:
``robotics_reference.use_generator``); every observation draws 59 noise values, so the observations agree
bit for bit only if every draw is used in the same order. The achieved and desired goals are nested dicts
(task -> joints), as gymnasium-robotics gives them. The info masks (bool[7], in the tasks' order) are
compared with the reference's lists of task names. Tasks are completed by placing the microwave door and
the kettle at their goals right after a reset, on both sides alike.
"""

from __future__ import annotations

from typing import Any

import mujoco
import numpy as np
import pytest
import robotics_reference
from robotics_reference import assert_spaces_like_reference, with_qpos

import rlpool

TASKS = ("bottom burner", "top burner", "light switch", "slide cabinet", "hinge cabinet", "microwave", "kettle")
NEAR_GOALS = {22: -0.7, 23: -0.23, 24: 0.75, 25: 1.62}  # the microwave door, the kettle's position


def still(obs: Any, rng: np.random.Generator) -> np.ndarray:
    return rng.uniform(-0.05, 0.05, size=9)


def random_actions(obs: Any, rng: np.random.Generator) -> np.ndarray:
    return rng.uniform(-1.3, 1.3, size=9)


def compare_masks(info: dict, ref_info: dict, where: str) -> None:
    for key, names in ref_info.items():
        ours = {TASKS[i] for i in np.flatnonzero(info[key][0])}
        assert ours == set(names), f"{where}: info {key} {sorted(ours)} != {sorted(names)}"


def near_goals(env: Any, ref: Any) -> None:
    """The microwave door and the kettle put near their goals, in both."""
    env.set_state(0, with_qpos(env.get_state(0), NEAR_GOALS))
    robot = ref.unwrapped.robot_env
    for i, value in NEAR_GOALS.items():
        robot.data.qpos[i] = value
    mujoco.mj_forward(robot.model, robot.data)


def lockstep(seed: int, policy: Any = random_actions, **kwargs: Any) -> dict[str, float]:
    return robotics_reference.lockstep("FrankaKitchen-v1", "FrankaKitchen-v1", seed, policy,
                                       compare_info=compare_masks, **kwargs)


def test_same_trajectories_as_gymnasium_robotics() -> None:
    assert lockstep(seed=3, episodes=2, steps=25)["steps"] == 50


@pytest.mark.parametrize(
    ("options", "reward", "terminations"),
    [
        ({}, 2.0, 0),  # both near their goals: each rewarded once
        ({"remove_task_when_completed": False}, 2.0 * 10, 0),  # ... and at every step they stay so
        ({"tasks_to_complete": ["microwave", "kettle"]}, 2.0, 1),  # the goal complete: the episode ends
    ],
)
def test_completed_tasks(options: dict, reward: float, terminations: int) -> None:
    seen = lockstep(seed=1, policy=still, episodes=1, steps=10, after_reset=near_goals, **options)
    assert seen["reward"] == reward
    assert seen["terminations"] == terminations


def test_the_comparison_can_fail() -> None:
    with pytest.raises(AssertionError):
        lockstep(seed=1, episodes=1, steps=5, flip=2)


def test_spaces_match_gymnasium_robotics() -> None:
    for options in ({}, {"tasks_to_complete": ["kettle", "microwave"]}):
        assert assert_spaces_like_reference("FrankaKitchen-v1", **options).max_episode_steps == 280


def test_state_round_trip_continues_exactly() -> None:
    a = rlpool.make("FrankaKitchen-v1", num_envs=1, seed=5)
    b = rlpool.make("FrankaKitchen-v1", num_envs=1, seed=6)
    a.reset()
    b.reset()
    actions = np.random.default_rng(2).uniform(-1, 1, (8, 1, 9))
    for act in actions[:3]:
        a.step(act)
    b.set_state(0, a.get_state(0))
    for act in actions[3:]:
        oa, ob = a.step(act)[0], b.step(act)[0]
        np.testing.assert_array_equal(oa["observation"], ob["observation"])


@pytest.mark.parametrize(
    ("value", "match"), [(["oven"], "oven"), ([], "non-empty"), ("kettle,toaster", "toaster"), (3, "list")]
)
def test_bad_tasks_are_refused(value: Any, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        rlpool.make_spec("FrankaKitchen-v1", tasks_to_complete=value)
